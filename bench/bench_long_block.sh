#!/usr/bin/env bash
# Long straight-line blocks (issue 18, class 4): one block of N instructions per engine, with
# dependencies between the engines (bench/gen_long_block.py: `chain` at the top level, `many`
# dependencies per consumer, `loop` inside a loop with carried distances), timed through every
# command. The goal is work linear in the block's length: 100,000 instructions allocated and
# `stats --compare`d in under 10 s (docs/allocator.md "Complexity").
# Usage: bench/bench_long_block.sh [BUILD] [SIZES] [SHAPES] [LIMIT]
#   defaults: build, "16000 100000", "chain many loop", 60 (seconds before a command is cut off);
#   PROVE_LIMIT (environment) cuts `prove` off sooner or later than LIMIT: it is linear in the
#   block's length, each consumer first on one shared Z3 solver per thread (docs/prover.md
#   "Complexity"): 16,000 instructions took 12 s (chain), 51 s (many), 41 s (loop) on one thread,
#   6, 23 and 16 s with `--jobs 2` (prove's default is every core), so the default LIMIT of 60 lets
#   it finish at 16,000; 100,000 needs PROVE_LIMIT=600.
set -u
build=${1:-build}
sizes=${2:-16000 100000}
shapes=${3:-chain many loop}
limit=${4:-60}
prove_limit=${PROVE_LIMIT:-$limit}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sb=$build/syncbisim
# One timed command: prints "label seconds" (">LIMIT" when cut off, "exit N" when it failed).
timed() {
  local label=$1 cut=$limit
  shift
  [ "$label" = prove ] && cut=$prove_limit
  local t0=$EPOCHREALTIME
  timeout "$cut" "$@" >"$work/out" 2>"$work/err"
  local rc=$? t1=$EPOCHREALTIME
  local s
  s=$(python3 -c "print(f'{$t1 - $t0:.2f}')")
  if [ $rc = 124 ]; then s=">$cut"; elif [ $rc != 0 ] && [ $rc != 3 ] && [ $rc != 1 ]; then s="$s(exit $rc)"; fi
  printf ' %s=%s' "$label" "$s"
}
for shape in $shapes; do
  for n in $sizes; do
    spec=$work/$shape.$n.sb
    python3 "$here/gen_long_block.py" --shape "$shape" --instrs "$n" >"$spec"
    deps=$(grep -c '^dep ' "$spec")
    printf '%-6s n=%-7s deps=%-7s' "$shape" "$n" "$deps"
    timed show "$sb" show "$spec" --json
    for strategy in per-instruction per-loop per-engine barrier auto mixed expert; do
      timed "allocate($strategy)" "$sb" allocate "$spec" --strategy "$strategy" -o "$work/$strategy.json"
    done
    impl=$work/per-loop.json
    if [ -s "$impl" ]; then
      timed stats "$sb" stats "$impl"
    fi
    timed stats-compare "$sb" stats --compare "$spec"
    if [ -s "$impl" ]; then
      timed check "$sb" check "$spec" "$impl" --max-states 1000 -q --threads 1
      timed run "$sb" run "$spec" "$impl" --max-steps 1000000
      timed prove "$sb" prove "$spec" "$impl" --no-replay
    fi
    printf '\n'
  done
done
