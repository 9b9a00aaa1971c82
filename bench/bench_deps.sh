#!/usr/bin/env bash
# `syncbisim deps` (docs/footprints.md): on every kernel of corpus/footprints, then on generated
# kernels of N sequential loop nests (bench/gen_footprint_kernel.py: 11 instructions a nest on 4
# engines, rotating tiles, a chain through HBM between nests, a pool of 100 buffers). Prints the
# seconds, the peak memory (GNU time's maximum resident set) and the derived graph's size. Goals
# (issue 38): every corpus kernel under 1 s; 1,000 nests under 10 s, growth near linear.
# Usage: bench/bench_deps.sh [BUILD] [NESTS...]   defaults: build, 100 300 1000
set -u
build=${1:-build}
shift || true
nests=${*:-100 300 1000}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sb=$build/syncbisim
one() {
  local label=$1 file=$2
  local t0=$EPOCHREALTIME
  /usr/bin/time -f '%M' -o "$work/mem" "$sb" deps "$file" -o "$work/out.sb" >"$work/report" 2>"$work/err"
  local status=$? t1=$EPOCHREALTIME
  local kept
  kept=$(tail -n 1 "$work/report")
  printf '%-40s %7.2f s  %6d MiB  exit %d  %s\n' "$label" "$(echo "$t1 - $t0" | bc)" $(( $(tail -n 1 "$work/mem") / 1024 )) \
    "$status" "$kept"
}
for f in "$here"/../corpus/footprints/*.sb; do
  case "$f" in *.impl.sb) continue ;; esac  # the impls beside the specs
  one "$(basename "$f")" "$f"
done
for n in $nests; do
  python3 "$here/gen_footprint_kernel.py" --nests "$n" --buffers 100 >"$work/k$n.sb"
  one "generated: $n nests ($(grep -c ': ' "$work/k$n.sb") instructions)" "$work/k$n.sb"
done
