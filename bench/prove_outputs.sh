#!/usr/bin/env bash
# prove's answers on every impl with a `# spec:` line under tests/inputs/prover and corpus/: one
# text file (stdout and stderr) and one JSON file (stdout, without its "seconds", the only part
# that differs from run to run) per impl, and each exit status. Run it with the build before a
# change and after, and `diff -r` the two folders, for a change that must not alter one answer
# (docs/prover.md "Complexity").
# Usage: bench/prove_outputs.sh TOOL OUT   (TOOL: a syncbisim executable; OUT: a new folder)
set -u
tool=$(realpath "$1"); out=$2
cd "$(dirname "$0")/.." || exit 2
mkdir -p "$out"; out=$(realpath "$out")
: > "$out/status"
n=0
for impl in $(grep -rl '^# spec:' tests/inputs/prover corpus | sort); do
  spec=$(sed -n 's/^# spec: *//p' "$impl" | head -1)
  name=$(echo "$impl" | tr '/' '_')
  timeout 300 "$tool" prove "$spec" "$impl" > "$out/$name.txt" 2>&1
  echo "$impl $?" >> "$out/status"
  timeout 300 "$tool" prove "$spec" "$impl" --json 2>/dev/null | python3 -c '
import json, sys
text = sys.stdin.read()
try:
    doc = json.loads(text)
except ValueError:
    print(text, end="")
    sys.exit()
def without_seconds(x):
    if isinstance(x, dict): return {k: without_seconds(v) for k, v in x.items() if k != "seconds"}
    if isinstance(x, list): return [without_seconds(v) for v in x]
    return x
print(json.dumps(without_seconds(doc), indent=1, sort_keys=True))' > "$out/$name.json"
  n=$((n + 1))
done
echo "$n impls: $out"
