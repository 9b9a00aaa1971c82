#!/usr/bin/env bash
# Limits that hold and resources the machine refuses (issue 43 items 3 to 6): each command ends
# with one clear line and its documented exit status, whatever it was asked. Nothing here measures
# time: a command that ignored its limit would hang until the `timeout` safety net (a failure).
set -u
tool=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
check() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; fi; }
spec=corpus/figures/fig1_motivating.json
impl=corpus/good/fig1_per_loop.impl.sb

# --max-seconds counts from the process's start and covers reading a FIFO that nobody writes.
mkfifo "$work/no_writer"
timeout 120 "$tool" check "$work/no_writer" "$impl" --max-seconds 1 >"$work/out" 2>"$work/err"
status=$?
check "FIFO read cut: exit 3" '[ $status = 3 ]'
check "FIFO read cut: the limit and the phase named" 'grep -q "^syncbisim check: stopped at --max-seconds 1 while reading" "$work/err"'
check "FIFO read cut: nothing on stdout" '[ ! -s "$work/out" ]'
timeout 120 "$tool" check "$work/no_writer" "$impl" --all-trips --max-seconds 1 >/dev/null 2>"$work/err"
check "all-trips FIFO read cut: exit 3" '[ $? = 3 ]'
check "all-trips FIFO read cut: message" 'grep -q "^syncbisim check: stopped at --max-seconds 1" "$work/err"'
timeout 120 "$tool" shrink "$work/no_writer" --strategy per-loop --max-seconds 1 >/dev/null 2>"$work/err"
check "shrink FIFO read cut: exit 3" '[ $? = 3 ]'
check "shrink FIFO read cut: message" 'grep -q "^syncbisim shrink: stopped at --max-seconds 1" "$work/err"'

# A fuzz campaign of 10^9 runs starts in bounded memory (its runs are computed, not listed: a
# list of them was 8 GB) and SIGTERM ends it with the summary so far, exit 3.
(
  ulimit -v 4000000
  exec "$tool" fuzz --strategy per-loop --runs 1000000000 --json -q
) >"$work/fuzz.json" 2>"$work/fuzz.err" &
pid=$!
for _ in $(seq 1 600); do
  # Started when its threads are up (it ran some runs or is running one): then stop it.
  [ -d "/proc/$pid" ] || break
  [ "$(ls /proc/$pid/task 2>/dev/null | wc -l)" -ge 2 ] && break
  sleep 0.1
done
sleep 0.5
kill -TERM $pid
wait $pid
status=$?
check "fuzz SIGTERM: exit 3" '[ $status = 3 ]'
check "fuzz SIGTERM: valid JSON summary, interrupted" \
  'python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d[\"interrupted\"] is True" "$work/fuzz.json"'

# An allocator that declines with invalid UTF-8 and terminal escapes: valid JSON, escaped text.
cat > "$work/decline.sh" <<'SH'
printf 'no\377 \033[31mred\033[0m\n' >&2
exit 1
SH
"$tool" fuzz --allocator "sh $work/decline.sh" --runs 3 --json -q >"$work/d.json" 2>/dev/null
check "invalid UTF-8 reason: exit 0 (declines are no failures)" '[ $? = 0 ]'
check "invalid UTF-8 reason: valid JSON" 'python3 -c "import json,sys; json.load(open(sys.argv[1], encoding=\"utf-8\"))" "$work/d.json"'
"$tool" fuzz --allocator "sh $work/decline.sh" --runs 3 -q >"$work/d.txt" 2>&1
check "escape bytes: none reach the terminal" '! grep -q $'"'"'\x1b'"'"' "$work/d.txt"'
check "escape bytes: shown escaped" 'grep -qF "\\x1B[31mred" "$work/d.txt"'

# An allocator that writes more than --allocator-max-output: a fault, its group killed.
"$tool" fuzz --allocator "head -c 3000000 /dev/zero" --allocator-max-output 1 --runs 1 --no-shrink -q \
  >"$work/big.txt" 2>&1
check "output cap: a failure (exit 1)" '[ $? = 1 ]'
check "output cap: named" 'grep -q "more than 1 MiB of output on one stream" "$work/big.txt"'

# Threads the system refuses (no address space for their stacks): one line or fewer threads.
(
  ulimit -v 600000
  exec "$tool" check "$spec" "$impl" --threads 1000 -q
) >/dev/null 2>"$work/err"
status=$?
check "threads refused: exit 2 or a verdict" '[ $status = 2 ] || [ $status = 0 ]'
check "threads refused: no abort" '[ $status != 134 ]'
if [ $status = 2 ]; then check "threads refused: named" 'grep -q "could not start the threads asked for" "$work/err"'; fi
(
  ulimit -v 800000
  exec "$tool" fuzz --strategy per-loop --runs 200 --jobs 1000 -q
) >/dev/null 2>"$work/err"
status=$?
# With the address space this small, the threads that did start may leave too little for a run:
# then the answer is "out of memory", exit 2; either way one line, never an abort.
check "fuzz jobs refused: an answer, no abort (exit 0 or 2)" '[ $status = 0 ] || [ $status = 2 ]'
check "fuzz jobs refused: no terminate" '! grep -q "terminate called" "$work/err"'
check "fuzz jobs refused: said which" 'grep -q "^syncbisim: note: ran on [0-9]* threads: the system refused\|^syncbisim: out of memory" "$work/err"'

# A picture of a long run holds one page: the next page is named.
"$tool" simulate corpus/kernels/flash_attention.json corpus/good/flash_attention_per_loop.impl.sb \
  --svg "$work/p.svg" --svg-range 0:100000000 >/dev/null 2>"$work/err"
check "svg page: exit 0" '[ $? = 0 ]'
check "svg page: next page named" 'grep -q "^note: --svg: the picture holds the first 2000 instructions" "$work/err" || [ $(grep -c "<rect" "$work/p.svg") -lt 4000 ]'
check "svg page: bounded" '[ $(grep -o "<rect" "$work/p.svg" | wc -l) -lt 10000 ]'

exit $fail
