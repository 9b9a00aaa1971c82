#!/usr/bin/env bash
# No command replaces what is not a regular file (docs/formats.md "Output files", issue 43 item 2):
# a symlink is written through, a FIFO is written into, /dev/null stays a device, `-` is stdout,
# and a write that fails leaves the old file as it was.
set -u
tool=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
spec=corpus/figures/fig1_motivating.json
fail=0
check() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; fi; }

# A symlink to a regular file: the link stays, its target gets the impl.
echo old > "$work/real.sb"
ln -s real.sb "$work/link.sb"
"$tool" allocate "$spec" --strategy per-loop --text -o "$work/link.sb" 2>/dev/null
check "symlink kept" '[ -L "$work/link.sb" ]'
check "symlink target written" 'grep -q "^syncbisim impl/1" "$work/real.sb"'

# A FIFO: written into, still a FIFO afterwards.
mkfifo "$work/pipe"
cat "$work/pipe" > "$work/from_pipe" &
reader=$!
"$tool" allocate "$spec" --strategy per-loop --text -o "$work/pipe" 2>/dev/null
wait $reader
check "FIFO kept" '[ -p "$work/pipe" ]'
check "FIFO read the impl" 'grep -q "^syncbisim impl/1" "$work/from_pipe"'

# `-`: standard output.
check "dash is stdout" '"$tool" allocate "$spec" --strategy per-loop --text -o - 2>/dev/null | grep -q "^syncbisim impl/1"'

# Every output option onto /dev/null: still a character device.
"$tool" check "$spec" corpus/good/fig1_barrier.impl.sb --trace-out /dev/null --svg /dev/null -q >/dev/null 2>&1
"$tool" allocate "$spec" -o /dev/null --spec-out /dev/null 2>/dev/null
check "/dev/null is a device" '[ -c /dev/null ]'

# A failed write (/dev/full): exit 2, one line naming the file.
"$tool" allocate "$spec" -o /dev/full 2>"$work/err" >/dev/null
status=$?
check "/dev/full exits 2" '[ $status = 2 ]'
check "/dev/full message" 'grep -q "^/dev/full: cannot write it" "$work/err"'

# A regular file in a directory where no temporary can be made: the old file stays as it was.
mkdir "$work/ro" && echo keep > "$work/ro/impl.sb" && chmod 555 "$work/ro"
if [ "$(id -u)" != 0 ]; then
  "$tool" allocate "$spec" -o "$work/ro/impl.sb" 2>/dev/null
  check "read-only dir: exit 2" '[ $? = 2 ]'
  check "read-only dir: old file kept" '[ "$(cat "$work/ro/impl.sb")" = keep ]'
fi
chmod 755 "$work/ro"

# Every output option of every command, onto each kind of target: a device stays a device, a
# FIFO is written into and stays a FIFO, a symlink stays a link and its file gets the output.
bug=corpus/bugs/fig1_offset_too_large.sb
bug_spec=$(sed -n 's/^# spec: //p' "$bug" | head -1)
"$tool" check "$bug_spec" "$bug" --trace-out "$work/trace.json" -q >/dev/null 2>&1
outputs=(
  "allocate $spec --strategy per-loop -o OUT"
  "allocate $spec --strategy per-loop -o $work/impl.json --spec-out OUT"
  "check $spec corpus/good/fig1_per_loop.impl.sb --trace-out OUT -q"
  "check $bug_spec $bug --svg OUT -q"
  "check $spec corpus/good/fig1_per_loop.impl.sb --all-trips --trace-out OUT"
  "prove $bug_spec $bug --trace-out OUT"
  "run $spec corpus/good/fig1_per_loop.impl.sb --svg OUT"
  "replay $bug_spec $bug $work/trace.json --svg OUT"
  "simulate $spec corpus/good/fig1_per_loop.impl.sb --svg OUT"
  "deps corpus/footprints/double_buffer.sb -o OUT"
)
for line in "${outputs[@]}"; do
  # /dev/null
  eval "\"$tool\" ${line//OUT//dev/null}" >/dev/null 2>&1
  check "$line onto /dev/null: still a device" '[ -c /dev/null ]'
  # a FIFO with a reader
  rm -f "$work/out.fifo" "$work/fifo.got"
  mkfifo "$work/out.fifo"
  cat "$work/out.fifo" > "$work/fifo.got" &
  reader=$!
  eval "\"$tool\" ${line//OUT/$work/out.fifo}" >/dev/null 2>&1
  # A command that wrote nothing leaves the reader waiting: open the FIFO once to release it.
  # Read-write, which never blocks (a write-only open would wait forever for a reader that ended
  # between the check and the open).
  if kill -0 $reader 2>/dev/null; then exec 9<>"$work/out.fifo"; exec 9>&-; fi
  wait $reader
  check "$line onto a FIFO: still a FIFO" '[ -p "$work/out.fifo" ]'
  check "$line onto a FIFO: it got the output" '[ -s "$work/fifo.got" ]'
  # a symlink
  rm -f "$work/target.out" "$work/link.out"
  echo old > "$work/target.out"
  ln -s target.out "$work/link.out"
  eval "\"$tool\" ${line//OUT/$work/link.out}" >/dev/null 2>&1
  check "$line onto a symlink: still a link" '[ -L "$work/link.out" ]'
  check "$line onto a symlink: its file written" '[ "$(cat "$work/target.out")" != old ]'
done

# A directory is refused.
"$tool" allocate "$spec" -o "$work" 2>"$work/err2" >/dev/null
check "directory refused" '[ $? = 2 ] && grep -q "is a directory" "$work/err2"'

if [ $fail = 0 ]; then echo "1 passed, 0 failed"; else exit 1; fi
