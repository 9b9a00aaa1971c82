#!/usr/bin/env bash
# `syncbisim deps` (docs/footprints.md) on kernels of N sequential loop nests with footprints (GitHub
# issues 38 and 39): for each N, `bench/gen_nest_kernel.py --footprints` writes the spec (by default
# 14 instructions on 4 engines and 7 dependencies with offsets 0..2 a nest, an outer loop of trips
# 1..4 around an inner one of 1..3, each nest depending on the one before; a buffer per written
# dependency, from which the derivation gets exactly the written graph), then, each under GNU time:
#   * `syncbisim deps SPEC -o OUT`: the derived graph, reduced; seconds, peak MiB, the dependencies
#     kept and those implied by them (the report's last line);
#   * `syncbisim deps SPEC --no-reduce -o OUT`: "exact" says whether the derived graph before the
#     reduction is the written one (the same dep lines), else how many differ;
#   * `syncbisim deps SPEC --compare`: the written graph judged; seconds, peak MiB, the verdict
#     (ordered, race, inconclusive) and exit status, and how many written dependencies it calls
#     implied, over-synchronized or unjustified.
# One markdown table row per N. (bench/bench_deps.sh times the corpus and gen_footprint_kernel.py.)
#
# Usage: bash bench/bench_nest_deps.sh SYNCBISIM [NESTS...]      default NESTS: 100 1000 10000
# Environment:
#   TIMEOUT      seconds before a command is cut off (default 120): the cell says "timeout"
#   SEED         generator seed (default 1)
#   GEN_ARGS     more generator options (--engines 8 --depth 3 --max-offset 1 ...)
#   NO_EXACT=1   skip the --no-reduce run
#   NO_COMPARE=1 skip --compare
#   KEEP=DIR     keep the specs, outputs and reports in DIR (default: a temporary directory, removed)
# One process at a time, every command under `timeout`.
set -u
if [ $# -lt 1 ]; then
  echo "usage: bash bench/bench_nest_deps.sh SYNCBISIM [NESTS...]" >&2
  exit 2
fi
sb=$1
shift
nests=${*:-100 1000 10000}
limit=${TIMEOUT:-120}
seed=${SEED:-1}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/bench_common.sh
. "$here/bench_common.sh"
bench_workdir

# The dep lines of a spec, without the derivation's reasons ("  # RAW on ..."), sorted.
dep_lines() { grep '^dep ' "$1" | sed 's/  #.*//' | LC_ALL=C sort; }

echo "| nests | instructions | deps | buffers | deps seconds | deps MiB | kept (implied) | exact | compare seconds | compare MiB | verdict (exit) | implied / over-sync / unjustified |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | --- | --- |"
for n in $nests; do
  spec=$work/nests$n.sb
  # shellcheck disable=SC2086
  python3 "$here/gen_nest_kernel.py" --footprints --nests "$n" --seed "$seed" ${GEN_ARGS:-} -o "$spec" || exit 2
  ninstr=$(grep -cE '^ *[A-Za-z_][A-Za-z0-9_]*: ' "$spec")
  ndeps=$(grep -c '^dep ' "$spec")
  nbuf=$(grep -c '^buffer ' "$spec")

  timed "$limit" "$sb" deps "$spec" -o "$work/nests$n.derived.sb" >"$work/nests$n.report" 2>"$work/nests$n.err"
  if [ "$t_rc" = 124 ]; then
    d_sec="timeout (>$limit)" kept="-"
  else
    d_sec=$t_sec
    [ "$t_rc" = 0 ] || d_sec="$t_sec (exit $t_rc)"
    # "7667 dependencies derived, 332 more implied by them (...)"
    kept=$(tail -n 1 "$work/nests$n.report" | sed -nE 's/^([0-9]+) dependencies derived, ([0-9]+) more implied.*/\1 (\2)/p')
  fi
  d_mib=$t_mib

  exact="-"
  if [ -z "${NO_EXACT:-}" ]; then
    timed "$limit" "$sb" deps "$spec" --no-reduce -o "$work/nests$n.noreduce.sb" >/dev/null 2>"$work/nests$n.noreduce.err"
    if [ "$t_rc" = 124 ]; then
      exact="timeout"
    elif [ "$t_rc" != 0 ]; then
      exact="exit $t_rc"
    else
      differ=$(LC_ALL=C comm -3 <(dep_lines "$spec") <(dep_lines "$work/nests$n.noreduce.sb") | wc -l)
      if [ "$differ" = 0 ]; then exact=yes; else exact="no ($differ differ)"; fi
    fi
  fi

  c_sec="-" c_mib="-" verdict="-" findings="-"
  if [ -z "${NO_COMPARE:-}" ]; then
    timed "$limit" "$sb" deps "$spec" --compare >"$work/nests$n.compare" 2>"$work/nests$n.compare.err"
    c_mib=$t_mib
    if [ "$t_rc" = 124 ]; then
      c_sec="timeout (>$limit)"
    else
      c_sec=$t_sec
      verdict="$(head -n 1 "$work/nests$n.compare" | cut -d: -f1) ($t_rc)"
      findings="$(grep -c '^  implied: ' "$work/nests$n.compare") / $(grep -c '^  over-synchronized: ' "$work/nests$n.compare") / $(grep -c '^  warning: ' "$work/nests$n.compare")"
    fi
  fi
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$n" "$ninstr" "$ndeps" "$nbuf" "$d_sec" "$d_mib" \
    "${kept:--}" "$exact" "$c_sec" "$c_mib" "$verdict" "$findings"
done
