#!/usr/bin/env bash
# fuzz --allocator and shrink --allocator end to end (docs/fuzzing.md "An allocator as a command"):
# a planted bug in an external allocator is found, shrunk and written, and every failure written
# reproduces from its files alone; each failure class (crash, hang, garbage, a changed tree) is
# written with its own class; --jobs gives the result of one job; Ctrl-C stops a campaign with
# what it found; gen prints the specs the campaign hands to the allocator.
# Usage: external_allocator_test.sh SYNCBISIM (run from the source tree)
set -u
tool=$1
py=/usr/bin/python3
alloc="$py examples/allocators/per_instruction.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# 1. The planted bug (only nested backward dependencies) is found and shrunk; each written
#    failure re-checks as a real violation from the written files.
"$tool" fuzz --allocator "$alloc --bug backward" --specs allocatable --runs 400 --seed 1 --jobs 2 \
  --max-failures 2 --out "$tmp/bug" -q > "$tmp/bug.out"
[ $? = 1 ] || bad "planted bug: fuzz did not exit 1"
n=$(ls "$tmp"/bug/f*.repro.sh 2>/dev/null | wc -l)
[ "$n" = 2 ] || bad "planted bug: expected 2 failures written, found $n"
for r in "$tmp"/bug/f*.repro.sh; do
  grep -q '"class": "under-sync"' "${r%.repro.sh}.failure.json" || bad "$r: not an under-sync"
  line=$(head -1 "$r")
  case "$line" in "syncbisim check "*) ;; *) bad "$r: first line is not a check: $line" ;; esac
  "$tool" ${line#syncbisim } > "$tmp/recheck.out"
  [ $? = 1 ] || bad "$r: the written pair does not re-check as a violation"
  grep -q '^under-synchronized$' "$tmp/recheck.out" || bad "$r: re-check verdict: $(head -1 "$tmp/recheck.out")"
  # The replay line regenerates the same failure.
  replay=$(sed -n 2p "$r")
  eval "\"$tool\" ${replay#syncbisim } -q" > "$tmp/replay.out"
  [ $? = 1 ] || bad "$r: the replay command does not fail"
done
# The shrunk case is small: at most 2 engines.
grep -q 'to [12] engines*, ' "$tmp/bug.out" || bad "planted bug: not shrunk to <= 2 engines: $(cat "$tmp/bug.out")"

# 2. shrink --allocator (derive mode) keeps the failure and writes a pair that re-checks.
spec=$(ls "$tmp"/bug/f*.spec.json | head -1)
"$tool" shrink "$spec" --allocator "$alloc --bug backward" -o "$tmp/min" -q > "$tmp/shrink.out"
[ $? = 0 ] || bad "shrink --allocator failed: $(cat "$tmp/shrink.out")"
grep -q '^failure: under-sync' "$tmp/shrink.out" || bad "shrink --allocator: $(head -1 "$tmp/shrink.out")"
min=$(ls "$tmp"/min/*.min.spec.json | head -1)
"$tool" check "$min" "${min%.spec.json}.impl.json" > /dev/null
[ $? = 1 ] || bad "shrink --allocator: the minimized pair is not a violation"

# 3. Each failure class, written with its files, and reproduced from them.
klass() { sed -n 's/.*"class": "\([^"]*\)".*/\1/p' "$1"; }
"$tool" fuzz --allocator 'kill -SEGV $$' --runs 2 --out "$tmp/crash" -q > /dev/null
[ "$(klass "$tmp/crash/f0.failure.json")" = crash ] || bad "crash: class $(klass "$tmp/crash/f0.failure.json")"
(eval "$(head -1 "$tmp/crash/f0.repro.sh")") > /dev/null 2>&1
[ $? -ge 128 ] || bad "crash: the repro line does not crash"
start=$(date +%s)
"$tool" fuzz --allocator 'sleep 61.25 & sleep 61.25' --allocator-timeout 0.5 --runs 2 --jobs 2 --out "$tmp/hang" -q > /dev/null
[ $(( $(date +%s) - start )) -lt 20 ] || bad "hang: the campaign took too long"
[ "$(klass "$tmp/hang/f1.failure.json")" = timeout ] || bad "hang: class $(klass "$tmp/hang/f1.failure.json")"
# (a unique command line: other tests run beside this one; killed orphans are reaped by init soon after)
for _ in $(seq 20); do pgrep -f '^sleep 61.25$' > /dev/null || break; sleep 0.1; done
pgrep -f '^sleep 61.25$' > /dev/null && bad "hang: a sleep of the killed allocator survived"
"$tool" fuzz --allocator 'echo "{ not json"' --runs 1 --out "$tmp/garbage" -q > /dev/null
[ "$(klass "$tmp/garbage/f0.failure.json")" = bad-output ] || bad "garbage: class $(klass "$tmp/garbage/f0.failure.json")"
[ "$(cat "$tmp/garbage/f0.allocator.out")" = "{ not json" ] || bad "garbage: the raw output is not kept"
(eval "$(head -1 "$tmp/garbage/f0.repro.sh")") > "$tmp/garbage.again"
"$tool" check "$tmp/garbage/f0.spec.json" "$tmp/garbage.again" 2> /dev/null
[ $? = 2 ] || bad "garbage: its output re-read is not bad input"
cat > "$tmp/reverse.py" <<'EOF'
import json, sys
spec = json.load(sys.stdin)
# An instruction the spec does not have: a tree that differs on every spec.
extra = {"block": {spec["engines"][0]: ["not_in_the_spec"]}}
json.dump({"syncbisim": "impl/1", "engines": spec["engines"], "program": spec["program"] + [extra]}, sys.stdout)
EOF
"$tool" fuzz --allocator "$py $tmp/reverse.py" --runs 20 --max-failures 1 --out "$tmp/tree" -q > "$tmp/tree.out"
f=$(ls "$tmp"/tree/f*.failure.json | head -1)
[ "$(klass "$f")" = tree-mismatch ] || bad "tree: class $(klass "$f"): $(cat "$tmp/tree.out")"
"$tool" check "${f%.failure.json}.spec.json" "${f%.failure.json}.impl.json" 2> "$tmp/tree.err"
[ $? = 2 ] || bad "tree: the written pair is not refused as non-corresponding"
grep -q 'impl-' "$tmp/tree.err" || bad "tree: the refusal does not name the rule: $(cat "$tmp/tree.err")"

# 4. --jobs 3 prints the result of one job.
strip() { grep -v '"seconds"\|"runs_per_second"\|"jobs"'; }
"$tool" fuzz --allocator "$alloc --bug mask" --specs allocatable --runs 100 --seed 1 --json -q --max-seconds 0 | strip > "$tmp/j1"
"$tool" fuzz --allocator "$alloc --bug mask" --specs allocatable --runs 100 --seed 1 --json -q --max-seconds 0 --jobs 3 | strip > "$tmp/j3"
cmp -s "$tmp/j1" "$tmp/j3" || { bad "--jobs 3 differs from one job"; diff "$tmp/j1" "$tmp/j3" | head; }
grep -q '"failures": 0' "$tmp/j1" && bad "--jobs: the mask bug was not found in 100 runs"

# 5. Ctrl-C: the campaign stops at once and reports what it found.
"$tool" fuzz --allocator 'sleep 0.05; kill -SEGV $$' --runs 100000 --no-shrink --out "$tmp/int" > "$tmp/int.out" 2> "$tmp/int.err" &
pid=$!
sleep 1.5
kill -INT $pid
for _ in $(seq 50); do kill -0 $pid 2> /dev/null || break; sleep 0.1; done
if kill -0 $pid 2> /dev/null; then bad "Ctrl-C: still running 5 s later"; kill -9 $pid; fi
wait $pid
status=$?
# Interrupted: the summary so far, failures included, and exit 3 (issue 43: not finished).
[ $status = 3 ] || bad "Ctrl-C: exit status $status (3: interrupted, whatever was found)"
grep -q ', interrupted$' "$tmp/int.out" || bad "Ctrl-C: no 'interrupted' summary: $(tail -1 "$tmp/int.out")"
found=$(sed -n 's/^runs [0-9]*, failures \([0-9]*\),.*/\1/p' "$tmp/int.out")
written=$(ls "$tmp"/int/f*.failure.json | wc -l)
[ -n "$found" ] && [ "$found" -gt 0 ] && [ "$found" = "$written" ] || bad "Ctrl-C: $found failures reported, $written written"

# 6. gen prints exactly the specs the campaign gives the allocator.
"$tool" gen --seed 9 --start 3 --runs 2 -o "$tmp/gen" 2> /dev/null
"$tool" fuzz --allocator "cp \"\$SYNCBISIM_SPEC\" $tmp/seen.json; exit 1" --seed 9 --start 4 --runs 1 -q > /dev/null
cmp -s "$tmp/gen/s4.spec.json" "$tmp/seen.json" || bad "gen: s4 differs from what fuzz run 4 handed the allocator"
[ "$("$tool" gen --seed 9 --runs 5 | wc -l)" = 5 ] || bad "gen: not one JSON document per line"

exit $fail
