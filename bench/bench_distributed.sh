#!/usr/bin/env bash
# syncbisim-mpi on this machine (docs/distributed.md "Measured"): states/s with 1, 2 and 3 ranks
# beside one process (syncbisim check), reduced and unreduced, on stress_5engine allocated per
# loop, and the bytes sent between ranks per state. Usage: bench/bench_distributed.sh [BUILD]
set -eu
build=${1:-build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
spec=corpus/kernels/stress_5engine.json
"$build/syncbisim" allocate "$spec" --strategy per-loop -o "$work/impl.json" >/dev/null 2>&1
launch=(mpirun --oversubscribe)
[ "$(id -u)" = 0 ] && launch+=(--allow-run-as-root)
row() {  # label, JSON file, wall seconds
  python3 - "$@" <<'PY'
import json, sys
label, path, wall = sys.argv[1], sys.argv[2], float(sys.argv[3])
j = json.load(open(path))
d = j.get("distributed", {})
sent = d.get("sent_bytes", 0)
print(f"{label:<26} {j['verdict']:<12} {j['states']:>10} states {j['transitions']:>10} transitions "
      f"{j['seconds']:7.2f} s search ({j['states'] / j['seconds'] / 1e6:5.2f} M states/s), {wall:6.2f} s wall, "
      f"{j['bytes'] / j['states']:6.1f} B/state stored, {sent / j['states']:6.1f} B/state sent")
PY
}
for mode in "" --no-reduction; do
  name=${mode:-reduced}
  t0=$EPOCHREALTIME
  "$build/syncbisim" check "$spec" "$work/impl.json" --json -q $mode >"$work/one.json" || true
  row "$name, one process" "$work/one.json" "$(python3 -c "print($EPOCHREALTIME - $t0)")"
  for n in 1 2 3; do
    t0=$EPOCHREALTIME
    "${launch[@]}" -np $n "$build/syncbisim-mpi" check "$spec" "$work/impl.json" --json -q $mode >"$work/mpi.json" 2>/dev/null || true
    row "$name, $n ranks" "$work/mpi.json" "$(python3 -c "print($EPOCHREALTIME - $t0)")"
  done
done
