#!/usr/bin/env bash
# Runs one command-line case. A .case file holds lines:
#   args: <arguments after the tool, relative to the source tree>
#   exit: <expected status>
#   stdout: <regex that some line of stdout must match>     (any number)
#   stderr: <regex that some line of stderr must match>     (any number)
#   stderr-lines: <exact number of stderr lines>
#   env: NAME=VALUE                                           (any number; set for the command)
#   ulimit-v: <KiB>            (virtual memory limit of the command: a blow-up fails fast, never hangs)
#   ulimit-t: <seconds>        (CPU time limit of the command: a runaway fails fast; no timing is asserted)
set -u
tool=$1; case_file=$2
args=$(sed -n 's/^args: //p' "$case_file")
want_exit=$(sed -n 's/^exit: //p' "$case_file")
while IFS= read -r kv; do export "$kv"; done < <(sed -n 's/^env: //p' "$case_file")
out=$(mktemp); err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
vmem=$(sed -n 's/^ulimit-v: //p' "$case_file")
cpu=$(sed -n 's/^ulimit-t: //p' "$case_file")
(
  if [ -n "$vmem" ]; then ulimit -v "$vmem"; fi
  if [ -n "$cpu" ]; then ulimit -t "$cpu"; fi
  eval "\"$tool\" $args"
) >"$out" 2>"$err" </dev/null
got=$?
fail=0
if [ "$got" != "$want_exit" ]; then echo "exit status $got, expected $want_exit"; fail=1; fi
while IFS= read -r re; do
  grep -Eq -- "$re" "$out" || { echo "stdout does not match: $re"; fail=1; }
done < <(sed -n 's/^stdout: //p' "$case_file")
while IFS= read -r re; do
  grep -Eq -- "$re" "$err" || { echo "stderr does not match: $re"; fail=1; }
done < <(sed -n 's/^stderr: //p' "$case_file")
n=$(sed -n 's/^stderr-lines: //p' "$case_file")
if [ -n "$n" ] && [ "$(wc -l < "$err")" != "$n" ]; then echo "stderr has $(wc -l < "$err") lines, expected $n"; fail=1; fi
if [ $fail != 0 ]; then echo "--- stdout"; head -c 4000 "$out"; echo "--- stderr"; head -c 4000 "$err"; exit 1; fi
exit 0
