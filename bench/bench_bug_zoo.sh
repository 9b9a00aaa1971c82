#!/usr/bin/env bash
# The bug zoo (GitHub issue 40, item 3): how soon a fuzz campaign finds each bug that
# examples/allocators/per_loop.py can plant.
#
#   bash bench/bench_bug_zoo.sh SYNCBISIM [BUG_FREE_RUNS]
#
# For every bug and every seed 1..SEEDS, runs
#   SYNCBISIM fuzz --allocator 'PYTHON examples/allocators/per_loop.py --bug NAME' --specs allocatable
#                  --seed S --runs RUNS --max-failures 1 --no-shrink --json -q --jobs JOBS
# and prints a markdown table: the runs to the first failure per seed (run index + 1, or >RUNS),
# their median, and the campaigns' seconds. Then the bug-free allocator over BUG_FREE_RUNS runs
# (default 20000; 0 skips it) with its failure count. Goal (issue 40): every bug within 2,000
# runs for every seed, median under 100, no failure of the bug-free allocator.
#
# Environment: SEEDS (default 10), RUNS (default 2000), JOBS (default 2), BUGS (default: all),
# PYTHON (default /usr/bin/python3 if present: a pyenv shim costs about 0.4 s per call),
# BUG_FREE_SEED (default 1), BUG_FREE_STRATEGIES (default "per-loop"; "per-loop per-engine").
# Needs bash and python3 only (python3 reads the JSON).
set -euo pipefail

if [[ $# -lt 1 ]]; then
  echo "usage: $0 SYNCBISIM [BUG_FREE_RUNS]" >&2
  exit 2
fi
SB=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
BUG_FREE_RUNS=${2:-20000}
SEEDS=${SEEDS:-10}
RUNS=${RUNS:-2000}
JOBS=${JOBS:-2}
BUG_FREE_SEED=${BUG_FREE_SEED:-1}
BUG_FREE_STRATEGIES=${BUG_FREE_STRATEGIES:-per-loop}
if [[ -z "${PYTHON:-}" ]]; then
  if [[ -x /usr/bin/python3 ]]; then PYTHON=/usr/bin/python3; else PYTHON=python3; fi
fi
cd "$(dirname "$0")/.."  # the allocator's path in the command is relative to the repository
ALLOC=examples/allocators/per_loop.py
ALL_BUGS=$("$PYTHON" -c "import sys; sys.path.insert(0, 'examples/allocators'); import per_loop; print(' '.join(per_loop.BUGS))")
BUGS=${BUGS:-$ALL_BUGS}

# The strategy each bug is measured under: per-loop, except the bugs of the per-engine decode.
strategy_of() {
  case "$1" in
    backward-offset0 | decode-missing-loop) echo per-engine ;;
    *) echo per-loop ;;
  esac
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Prints "RUNS_TO_FIRST_FAILURE SECONDS DECLINED" of one campaign's JSON (first value "-" if none).
summary() {
  "$PYTHON" - "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
first = "%d" % (d["failed"][0]["run"] + 1) if d["failed"] else "-"
print(first, "%.1f" % d["seconds"], d["declined"])
EOF
}

echo "bug zoo: $SEEDS seeds, at most $RUNS runs each, --jobs $JOBS, $PYTHON, $(date -u +%Y-%m-%dT%H:%MZ)"
echo
header="| bug | strategy |"
rule="| --- | --- |"
for ((s = 1; s <= SEEDS; s++)); do header+=" seed $s |"; rule+=" ---: |"; done
echo "$header median | found | seconds |"
echo "$rule ---: | ---: | ---: |"
for bug in $BUGS; do
  strategy=$(strategy_of "$bug")
  row="| $bug | $strategy |"
  values=()
  total=0
  found=0
  for ((s = 1; s <= SEEDS; s++)); do
    out="$tmp/$bug.$s.json"
    rc=0
    "$SB" fuzz --allocator "exec $PYTHON $ALLOC --strategy $strategy --bug $bug" --specs allocatable \
      --seed "$s" --runs "$RUNS" --max-failures 1 --no-shrink --json -q --jobs "$JOBS" >"$out" || rc=$?
    if [[ $rc -ne 0 && $rc -ne 1 ]]; then
      echo "fuzz exited with status $rc for $bug, seed $s" >&2
      exit 1
    fi
    read -r first seconds _ < <(summary "$out")
    total=$("$PYTHON" -c "print('%.1f' % ($total + $seconds))")
    if [[ $first == "-" ]]; then
      row+=" >$RUNS |"
      values+=($((RUNS + 1)))
    else
      row+=" $first |"
      values+=("$first")
      found=$((found + 1))
    fi
  done
  median=$("$PYTHON" -c "
import statistics, sys
v = [int(x) for x in sys.argv[2:]]
m = statistics.median(v)
print('>%s' % sys.argv[1] if m > int(sys.argv[1]) else ('%g' % m))" "$RUNS" "${values[@]}")
  echo "$row $median | $found/$SEEDS | $total |"
done

if [[ $BUG_FREE_RUNS -gt 0 ]]; then
  echo
  echo "| bug-free allocator | seed | runs | failures | declined | inconclusive | seconds | runs/s |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  for strategy in $BUG_FREE_STRATEGIES; do
    out="$tmp/bug-free.$strategy.json"
    rc=0
    "$SB" fuzz --allocator "exec $PYTHON $ALLOC --strategy $strategy" --specs allocatable \
      --seed "$BUG_FREE_SEED" --runs "$BUG_FREE_RUNS" --no-shrink --json -q --jobs "$JOBS" >"$out" || rc=$?
    if [[ $rc -ne 0 && $rc -ne 1 ]]; then
      echo "fuzz exited with status $rc for the bug-free $strategy allocator" >&2
      exit 1
    fi
    "$PYTHON" - "$out" "$strategy" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
print("| %s | %d | %d | %d | %d | %d | %.1f | %.1f |" % (sys.argv[2], d["seed"], d["runs"], d["failures"],
      d["declined"], d["inconclusive"], d["seconds"], d["runs_per_second"]))
for f in d["failed"][:5]:
    print("  failure at run %d: %s (%s)" % (f["run"], f["failure"].splitlines()[0], f["replay"]))
EOF
  done
fi
