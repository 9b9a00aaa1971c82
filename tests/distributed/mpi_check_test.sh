#!/usr/bin/env bash
# syncbisim-mpi against syncbisim check (docs/distributed.md): on every case, `mpirun -np RANKS`
# must give one process's JSON document exactly (verdict, exhaustive, limit, states, transitions,
# every violation with its trace), all but the timings and the store's bytes.
# Usage: mpi_check_test.sh SYNCBISIM SYNCBISIM_MPI MPIEXEC RANKS   (from the source tree)
set -u
tool=$1; mpi_tool=$2; mpiexec=$3; ranks=$4
launch=("$mpiexec" --oversubscribe -np "$ranks")
[ "$(id -u)" = 0 ] && launch+=(--allow-run-as-root)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The spec of an impl .sb is named in its '# spec:' header.
spec_of() { sed -n 's/^# spec: //p' "$1"; }

# SPEC IMPL [options]: the pairs and options checked. Each line is one case.
cases=(
  "corpus/figures/fig7_fig8.json corpus/figures/fig8_per_loop.impl.json"
  "corpus/figures/fig7_fig8.json corpus/figures/fig8_per_loop.impl.json --no-reduction"
  "corpus/figures/fig7_fig8.json corpus/figures/fig7_per_instruction.impl.json --no-reduction --round-states 3"
  "$(spec_of corpus/bugs/fig7_missing_signal.sb) corpus/bugs/fig7_missing_signal.sb"
  "$(spec_of corpus/bugs/fig7_missing_signal.sb) corpus/bugs/fig7_missing_signal.sb --no-reduction --round-states 2"
  "$(spec_of corpus/bugs/flash_attention_backward_wrong_loop.sb) corpus/bugs/flash_attention_backward_wrong_loop.sb --round-states 50"
  "$(spec_of corpus/bugs/shared_semaphore_producer_runs_ahead.sb) corpus/bugs/shared_semaphore_producer_runs_ahead.sb --no-reduction"
  "$(spec_of corpus/bugs/divergent_barrier_waits_for_a_choice.sb) corpus/bugs/divergent_barrier_waits_for_a_choice.sb"
  "$(spec_of corpus/good/base_register.impl.sb) corpus/good/base_register.impl.sb --no-reduction --round-states 1000"
  "$(spec_of corpus/good/fig5_per_loop.impl.sb) corpus/good/fig5_per_loop.impl.sb --no-reduction"
  "$(spec_of corpus/good/mixed_fallback.impl.sb) corpus/good/mixed_fallback.impl.sb --round-states 10"
  "$(spec_of corpus/good/tiled_matmul_kunrolled_per_loop.impl.sb) corpus/good/tiled_matmul_kunrolled_per_loop.impl.sb --max-states 500 --round-states 7"
  "$(spec_of corpus/good/flash_attention_per_loop.impl.sb) corpus/good/flash_attention_per_loop.impl.sb --no-reduction --max-states 1000"
  "$(spec_of corpus/bugs/tiled_matmul_nk_as_n.sb) corpus/bugs/tiled_matmul_nk_as_n.sb --max-states 40 --round-states 5"
  "corpus/figures/fig7_fig8.json corpus/figures/fig8_per_loop.impl.json --max-states 3"
  "$(spec_of corpus/bugs/flash_attention_backward_wrong_loop.sb) corpus/bugs/flash_attention_backward_wrong_loop.sb --max-states 100"
  "$(spec_of corpus/bugs/flash_attention_backward_wrong_loop.sb) corpus/bugs/flash_attention_backward_wrong_loop.sb --max-states 5000 --round-states 64"
  "$(spec_of corpus/good/fig1_per_loop.impl.sb) corpus/good/fig1_per_loop.impl.sb --no-reduction --max-states 1001"
  "corpus/figures/fig7_fig8.json corpus/figures/fig8_per_loop.impl.json --max-states 1"
  "$(spec_of corpus/good/tiled_matmul_kunrolled_per_loop.impl.sb) corpus/good/tiled_matmul_kunrolled_per_loop.impl.sb --max-trip 2"
)

fail=0
n=0
for c in "${cases[@]}"; do
  n=$((n + 1))
  read -r -a args <<<"$c"
  # --round-states is the distributed tool's own; the one process does not take it.
  plain=(); skip=0
  for a in "${args[@]}"; do
    if [ $skip = 1 ]; then skip=0; continue; fi
    if [ "$a" = --round-states ]; then skip=1; continue; fi
    plain+=("$a")
  done
  "$tool" check --json -q "${plain[@]}" >"$work/one.json" 2>"$work/one.err"
  want=$?
  "${launch[@]}" "$mpi_tool" check --json -q "${args[@]}" >"$work/many.json" 2>"$work/many.err"
  got=$?
  if [ "$got" != "$want" ]; then
    echo "case $n ($c): exit $got with $ranks ranks, $want in one process"; cat "$work/many.err"; fail=1; continue
  fi
  if ! python3 - "$work/one.json" "$work/many.json" "$c" <<'PY'; then fail=1; fi
import json, sys
one, many = (json.load(open(p)) for p in sys.argv[1:3])
for j in (one, many):
    for k in ("seconds", "bytes", "distributed"):
        j.pop(k, None)
if one != many:
    print("case", sys.argv[3], "differs:")
    for k in sorted(set(one) | set(many)):
        if one.get(k) != many.get(k):
            print(" ", k, "one process:", json.dumps(one.get(k))[:400])
            print(" ", k, "ranks:      ", json.dumps(many.get(k))[:400])
    sys.exit(1)
print("ok:", sys.argv[3], "->", one["verdict"], one["states"], "states", one["transitions"], "transitions",
      len(one["violations"]), "violations")
PY
done
exit $fail
