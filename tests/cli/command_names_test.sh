#!/usr/bin/env bash
# A run registers only the command its first argument names (cli/commands.h, commands_to_register):
# every command that `syncbisim --help` lists (registered by its own add_<name>) must work when it is
# the only one registered, under the name the table gives it; --version needs none; a misspelt
# command is still answered with the list of them.
set -u
tool=$1
fail=0
names=$("$tool" --help | awk '/^Subcommands:/{on=1; next} on && /^  [a-z0-9]+/{print $1}')
count=$(printf '%s\n' "$names" | grep -c .)
[ "$count" = 14 ] || { echo "--help lists $count commands, expected 14:"; echo "$names"; fail=1; }
for n in $names; do
  out=$("$tool" "$n" --help 2>&1); st=$?
  if [ $st != 0 ] || ! printf '%s\n' "$out" | grep -Eq "^Usage: .*syncbisim $n( |$)"; then
    echo "'$n --help' (status $st) does not show its own usage:"; printf '%s\n' "$out" | head -5; fail=1
  fi
done
v=$("$tool" --version); st=$?
[ $st = 0 ] && [ "$v" = "syncbisim 0.1" ] || { echo "--version gave status $st: $v"; fail=1; }
err=$("$tool" shwo x 2>&1); st=$?
[ $st = 2 ] || { echo "a misspelt command gave status $st, expected 2"; fail=1; }
printf '%s\n' "$err" | grep -q "Run with --help" || { echo "a misspelt command's message: $err"; fail=1; }
exit $fail
