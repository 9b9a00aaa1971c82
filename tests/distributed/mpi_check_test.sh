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
  # The tree store on every rank (--state-store tree, docs/checker.md "State storage"): the same
  # document as one process's flat store, with a violation, a limit and slices of a wide fan-out.
  "corpus/figures/fig7_fig8.json corpus/figures/fig8_per_loop.impl.json --no-reduction --state-store tree --round-states 3"
  "$(spec_of corpus/bugs/flash_attention_backward_wrong_loop.sb) corpus/bugs/flash_attention_backward_wrong_loop.sb --max-states 5000 --state-store tree"
  "$(spec_of corpus/good/flash_attention_per_loop.impl.sb) corpus/good/flash_attention_per_loop.impl.sb --no-reduction --max-states 1000 --state-store tree --round-states 9"
  "tests/inputs/limits/range_300.spec.sb tests/inputs/limits/range_2p32.impl.sb --round-states 7 --state-store tree"
  # The widths (docs/semantics.md "Widths"): each kind of overflow, with its trace and count.
  "tests/inputs/overflow/counter_spec.sb tests/inputs/overflow/counter_impl.sb --register-bits 8"
  "tests/inputs/overflow/counter_spec.sb tests/inputs/overflow/counter_impl.sb --register-bits 9 --round-states 5"
  "tests/inputs/overflow/counter_spec.sb tests/inputs/overflow/counter_impl.sb --register-bits 8 --max-states 100"
  "tests/inputs/overflow/sem_spec.sb tests/inputs/overflow/sem_impl.sb --semaphore-bits 4 --no-reduction --round-states 2"
  "tests/inputs/overflow/free_spec.sb tests/inputs/overflow/wrap_add.sb"
  "tests/inputs/overflow/free_spec.sb tests/inputs/overflow/wrap_mul.sb --register-bits 64 --no-reduction"
  "tests/inputs/overflow/counter_spec.sb tests/inputs/overflow/counter_impl.sb --register-bits 64 --semaphore-bits 2"
  # A state with 100,001 steps (a range trip's choices): wider than 16 bits of step index.
  "tests/inputs/limits/range_100k.spec.sb tests/inputs/limits/range_2p32.impl.sb --max-states 1000"
  "tests/inputs/limits/range_100k.spec.sb tests/inputs/limits/range_2p32.impl.sb --max-states 100500 --round-states 4096"
  # Wide fan-outs expanded in slices over several rounds (docs/distributed.md "Limits"), slices of
  # 8 x --round-states successors: 602 steps at one state to the end, 10,002 cut by --max-states
  # in the wide level and in the levels after it.
  "tests/inputs/limits/range_300.spec.sb tests/inputs/limits/range_2p32.impl.sb --round-states 7"
  "tests/inputs/limits/range_300.spec.sb tests/inputs/limits/range_2p32.impl.sb --round-states 1"
  "tests/inputs/limits/range_5000.spec.sb tests/inputs/limits/range_2p32.impl.sb --max-states 2600 --round-states 5"
  "tests/inputs/limits/range_5000.spec.sb tests/inputs/limits/range_2p32.impl.sb --max-states 12000 --round-states 2"
  "tests/inputs/limits/range_5000.spec.sb tests/inputs/limits/range_2p32.impl.sb --max-states 200000"
  "tests/inputs/limits/range_5000.spec.sb tests/inputs/limits/range_2p32.impl.sb --no-reduction --max-states 30000 --round-states 64"
  # 2^31 and 2^33 steps at one state: cut by --max-states inside the first slice, as one process cuts.
  "tests/inputs/limits/range_2p30.spec.sb tests/inputs/limits/range_2p32.impl.sb --max-states 1000"
  "tests/inputs/limits/range_2p32.spec.sb tests/inputs/limits/range_2p32.impl.sb --max-states 1000"
  "tests/inputs/limits/range_2p32.spec.sb tests/inputs/limits/range_2p32.impl.sb --max-states 5000 --round-states 3"
  "tests/inputs/limits/range_2p32.spec.sb tests/inputs/limits/range_2p32.impl.sb --max-states 1"
)

# One case, its files under $work/N.*; a failure leaves $work/N.fail. mpirun takes 1 to 2 s to
# end a job whose ranks exit non-zero (it waits odls_base_sigkill_timeout, docs/distributed.md),
# and most cases do (a violation 1, a limit 3): four cases run at a time, so that the waits
# overlap. Without the wait (the timeout 0) the test took as long and more CPU: Open MPI's ranks
# poll while they wait for each other, and more of them ran at once.
one_case() {
  local n=$1 c=$2
  read -r -a args <<<"$c"
  # --round-states is the distributed tool's own; the one process does not take it.
  local plain=() skip=0 a
  for a in "${args[@]}"; do
    if [ $skip = 1 ]; then skip=0; continue; fi
    if [ "$a" = --round-states ]; then skip=1; continue; fi
    plain+=("$a")
  done
  "$tool" check --json -q --threads 1 "${plain[@]}" >"$work/$n.one.json" 2>"$work/$n.one.err"
  local want=$?
  "${launch[@]}" "$mpi_tool" check --json -q "${args[@]}" >"$work/$n.many.json" 2>"$work/$n.many.err"
  local got=$?
  if [ "$got" != "$want" ]; then
    { echo "case $n ($c): exit $got with $ranks ranks, $want in one process"; cat "$work/$n.many.err"; } >"$work/$n.fail"
    return
  fi
  python3 - "$work/$n.one.json" "$work/$n.many.json" "$c" >"$work/$n.out" 2>&1 <<'PY' || cp "$work/$n.out" "$work/$n.fail"
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
}

fail=0
n=0
for c in "${cases[@]}"; do
  n=$((n + 1))
  while [ "$(jobs -rp | wc -l)" -ge 4 ]; do wait -n; done
  one_case "$n" "$c" &
done
wait
for i in $(seq 1 "$n"); do
  if [ -f "$work/$i.fail" ]; then cat "$work/$i.fail"; fail=1
  elif [ -f "$work/$i.out" ]; then cat "$work/$i.out"
  else echo "case $i: no result"; fail=1; fi
done

# A state with 2^33 steps (both engines choose a trip of 0..4294967295) under --max-seconds and
# --max-memory alone: the slices keep a round's memory bounded and the limits are checked between
# them, so the search stops inconclusive, naming the limit, within a virtual-memory cap of 4 GiB a
# process (the old whole-fan-out round died of it: bad_alloc or a message past 2^31 bytes).
for lim in "--max-seconds 2:max-seconds 2" "--max-memory 64M:max-memory 64M"; do
  read -r -a opt <<<"${lim%%:*}"
  want_limit=${lim#*:}
  (ulimit -v 4194304; timeout 120 "${launch[@]}" "$mpi_tool" check --json tests/inputs/limits/range_2p32.spec.sb \
    tests/inputs/limits/range_2p32.impl.sb "${opt[@]}" >"$work/wide.json" 2>"$work/wide.err")
  got=$?
  if [ "$got" != 3 ] || ! python3 - "$work/wide.json" "$want_limit" <<'PY'; then
import json, sys
j = json.load(open(sys.argv[1]))
assert j["verdict"] == "inconclusive" and not j["exhaustive"] and j["limit"] == sys.argv[2], j
assert j["states"] > 1 and j["transitions"] == j["states"] - 1 and j["violations"] == [], j
print("ok: a state with 2^33 steps ->", j["verdict"], "limit:", j["limit"], j["states"], "states")
PY
    echo "a state with 2^33 steps, ${opt[*]}: exit $got with $ranks ranks, expected 3 with the limit named"
    cat "$work/wide.err"; fail=1
  fi
done

# An allocation that fails in an exchange (docs/distributed.md "Limits"): rank 0 gets 150 MB of
# virtual memory (it needs about 70 to start), rank 1, which holds the initial state (2^33 steps,
# expanded in slices of 8 x 524288 successors), sends it a round of about 100 MB. Both ranks stop,
# inconclusive, the limit named; before, rank 0's bad_alloc in the exchange's buffers ended the
# job through MPI_Abort (exit 2) while rank 1 waited in MPI_Alltoallv. Two ranks only: which rank
# holds the initial state depends on their number.
if [ "$ranks" = 2 ]; then
  run_on=("$mpiexec" --oversubscribe)
  [ "$(id -u)" = 0 ] && run_on+=(--allow-run-as-root)
  wide=(check --json tests/inputs/limits/range_2p32.spec.sb tests/inputs/limits/range_2p32.impl.sb
        --round-states 524288 --max-seconds 30)
  timeout 120 "${run_on[@]}" -np 1 bash -c 'ulimit -v 150000; exec "$@"' rank0 "$mpi_tool" "${wide[@]}" : \
    -np 1 "$mpi_tool" "${wide[@]}" >"$work/oom.json" 2>"$work/oom.err"
  got=$?
  if [ "$got" != 3 ] || ! python3 - "$work/oom.json" <<'PY'; then
import json, sys
j = json.load(open(sys.argv[1]))
assert j["verdict"] == "inconclusive" and j["limit"] == "memory (an allocation failed)", j
print("ok: rank 0 out of memory in an exchange ->", j["verdict"], "limit:", j["limit"], j["states"], "states")
PY
    echo "rank 0 out of memory in an exchange: exit $got, expected 3 with limit memory"; cat "$work/oom.err"; fail=1
  fi
fi

# The widths are checked as syncbisim check checks them (exit 2, rank 0's message once).
for bad in "--register-bits 0" "--register-bits 65" "--semaphore-bits 1"; do
  read -r -a b <<<"$bad"
  "${launch[@]}" "$mpi_tool" check corpus/figures/fig7_fig8.json corpus/figures/fig8_per_loop.impl.json "${b[@]}" \
    >"$work/bad.out" 2>"$work/bad.err"
  got=$?
  if [ "$got" != 2 ] || [ "$(grep -c -- "${b[0]}" "$work/bad.err")" != 1 ]; then
    echo "$bad: exit $got with $ranks ranks, expected 2 and one message naming ${b[0]}"; cat "$work/bad.err"; fail=1
  else
    echo "ok: $bad refused"
  fi
done
exit $fail
