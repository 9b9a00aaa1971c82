#!/usr/bin/env bash
# The bug zoo in CTest (GitHub issue 40, item 3): every bug examples/allocators/per_loop.py can
# plant is found by a fuzz campaign at a fixed seed within a small run budget, and the bug-free
# allocator gives no failure (and declines nothing) at a fixed seed over a few hundred runs.
#
#   bash tests/fuzz/bug_zoo_test.sh SYNCBISIM SOURCE_DIR
#
# The seeds and budgets come from bench/bench_bug_zoo.sh: each budget is at least twice the runs
# the campaign needed to its first failure (given in the comment). A campaign stops at its first
# failure (--max-failures 1), so the test costs about the sum of those runs plus the bug-free
# ones: about 450 allocator calls. A change to the spec
# generator changes what each (seed, run) draws; then re-measure with bench/bench_bug_zoo.sh.
# PYTHON (default /usr/bin/python3 if present, else python3) runs the allocator; each call may take
# 300 s (--allocator-timeout), so a busy machine slows the test but never fails it.
set -uo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 SYNCBISIM SOURCE_DIR" >&2
  exit 2
fi
SB=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$2" || exit 2
if [[ -z "${PYTHON:-}" ]]; then
  if [[ -x /usr/bin/python3 ]]; then PYTHON=/usr/bin/python3; else PYTHON=python3; fi
fi
ALLOC=examples/allocators/per_loop.py

# bug, strategy, seed, run budget        (runs to the first failure when measured)
ZOO="
nk-off-by-one        per-loop   1  10    # 1
mask-k               per-loop   2  10    # 1
trip-reset           per-loop   8  10    # 3
monotone-mask        per-loop   8  10    # 3
wrong-loop-reg       per-loop   8  10    # 1
backward-offset0     per-engine 6  30    # 13
decode-missing-loop  per-engine 1  10    # 4
shared-sem           per-loop   1  10    # 1
sem-reuse            per-loop   2  10    # 1
same-engine-wait     per-loop   1  10    # 1
cond-reset           per-loop   10 50    # 25 (a bug on dependencies that never bind: rare by design)
"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

# Every bug the allocator knows must be in the table above.
known=$("$PYTHON" -c "import sys; sys.path.insert(0, 'examples/allocators'); import per_loop; print(' '.join(per_loop.BUGS))") || exit 1
for bug in $known; do
  if ! grep -q "^$bug " <<<"$ZOO"; then
    echo "FAIL: bug $bug of $ALLOC has no seed and budget in $0"
    failed=1
  fi
done

# field NAME FILE: one field of a campaign's JSON.
field() {
  "$PYTHON" -c "import json, sys; print(json.load(open(sys.argv[2]))[sys.argv[1]])" "$1" "$2"
}

while read -r bug strategy seed budget _; do
  [[ -z "$bug" ]] && continue
  out="$tmp/$bug.json"
  "$SB" fuzz --allocator "exec $PYTHON $ALLOC --strategy $strategy --bug $bug" --allocator-timeout 300 --specs allocatable \
    --seed "$seed" --runs "$budget" --max-failures 1 --no-shrink --json -q --jobs 2 >"$out" 2>"$tmp/$bug.err"
  rc=$?
  failures=$(field failures "$out" 2>/dev/null || echo "?")
  if [[ $rc -ne 1 || $failures != 1 ]]; then
    echo "FAIL: bug $bug ($strategy) not found at seed $seed within $budget runs (fuzz exit $rc, failures $failures)"
    echo "--- fuzz output:"
    cat "$out" "$tmp/$bug.err"
    failed=1
  else
    run=$("$PYTHON" -c "import json, sys; print(json.load(open(sys.argv[1]))['failed'][0]['run'] + 1)" "$out")
    echo "ok: $bug ($strategy) found at seed $seed after $run runs (budget $budget)"
  fi
done <<<"$ZOO"

# The bug-free allocator, both strategies: no failure, no refusal.
for spec in "per-loop 1 300" "per-engine 1 100"; do
  read -r strategy seed runs <<<"$spec"
  out="$tmp/bug-free.$strategy.json"
  "$SB" fuzz --allocator "exec $PYTHON $ALLOC --strategy $strategy" --allocator-timeout 300 --specs allocatable \
    --seed "$seed" --runs "$runs" --no-shrink --json -q --jobs 2 >"$out" 2>"$tmp/bug-free.err"
  rc=$?
  failures=$(field failures "$out" 2>/dev/null || echo "?")
  declined=$(field declined "$out" 2>/dev/null || echo "?")
  if [[ $rc -ne 0 || $failures != 0 || $declined != 0 ]]; then
    echo "FAIL: the bug-free $strategy allocator at seed $seed, $runs runs: fuzz exit $rc, failures $failures, declined $declined"
    echo "--- fuzz output:"
    cat "$out" "$tmp/bug-free.err"
    failed=1
  else
    echo "ok: bug-free $strategy allocator, seed $seed: $runs runs, no failure, no refusal"
  fi
done

exit $failed
