#!/usr/bin/env bash
# How malloc is set up for a run (cli/malloc_choice.h, docs/choices.md "Memory allocator"): glibc
# as it comes for small inputs, so that a short run does not start twice; tuned (huge pages, no
# trimming: GLIBC_TUNABLES, by a second start) for inputs of 256 KiB or more and for fuzz;
# SYNCBISIM_MALLOC overrides; the user's own GLIBC_TUNABLES come after ours and stay. The run says
# which it was with SYNCBISIM_MALLOC_SAY=1.
# Usage: malloc_choice_test.sh SYNCBISIM SOURCE_DIR
set -u
tool=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
check() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; fi; }
# said ENV... : what the run with args "${args[@]}" says of its malloc (one line)
said() { env "$@" SYNCBISIM_MALLOC_SAY=1 "$tool" "${args[@]}" 2>&1 >/dev/null | grep '^syncbisim: malloc: '; }

small=corpus/figures/fig1_motivating.json
python3 "$src/bench/gen_nest_kernel.py" --nests 600 -o "$work/large.sb" || exit 2
size=$(stat -c %s "$work/large.sb")
check "the large spec is at least 256 KiB ($size bytes)" '[ "$size" -ge 262144 ]'

args=(--version);              check "--version: system" '[ "$(said)" = "syncbisim: malloc: system" ]'
args=(show "$small");          check "show small: system" '[ "$(said)" = "syncbisim: malloc: system" ]'
args=(show "$work/large.sb");  check "show large: tuned" 'said | grep -q "^syncbisim: malloc: tuned, GLIBC_TUNABLES=glibc.malloc.hugetlb=1:"'
check "show large, SYNCBISIM_MALLOC=system: system" '[ "$(said SYNCBISIM_MALLOC=system)" = "syncbisim: malloc: system" ]'
args=(show "$small");          check "show small, SYNCBISIM_MALLOC=tuned: tuned" 'said SYNCBISIM_MALLOC=tuned | grep -q "^syncbisim: malloc: tuned"'
args=(fuzz --help);            check "fuzz: tuned" 'said | grep -q "^syncbisim: malloc: tuned"'
# The user's tunables last (the last setting of a tunable is the one glibc keeps).
args=(show "$work/large.sb")
check "the user's GLIBC_TUNABLES kept, after ours" \
  'said GLIBC_TUNABLES=glibc.malloc.hugetlb=0 | grep -q "GLIBC_TUNABLES=glibc.malloc.hugetlb=1:.*:glibc.malloc.hugetlb=0$"'
# Under Valgrind no second start (its launcher refuses it, and what started would not be under it):
# its preload in LD_PRELOAD says so (a name the loader cannot find only draws its warning).
check "Valgrind's preload: system" '[ "$(said LD_PRELOAD=/nowhere/vgpreload_core-amd64-linux.so)" = "syncbisim: malloc: system" ]'
if command -v valgrind >/dev/null; then
  check "under valgrind: system, and the run ends well" \
    'SYNCBISIM_MALLOC_SAY=1 valgrind --tool=none -q "$tool" show "$work/large.sb" 2>"$work/vg.err" >/dev/null && grep -q "^syncbisim: malloc: system$" "$work/vg.err"'
fi
# The second start gives the environment back: an allocator `fuzz` runs sees none of it.
cat > "$work/alloc.sh" <<'SH'
#!/bin/sh
env | grep -E '^(GLIBC_TUNABLES|SYNCBISIM_MALLOC_TUNED|SYNCBISIM_MALLOC_TUNABLES_WAS)=' >> "$ENV_OUT"
exit 1
SH
chmod +x "$work/alloc.sh"
ENV_OUT=$work/env.txt "$tool" fuzz --runs 2 --allocator "$work/alloc.sh" >/dev/null 2>&1
check "fuzz ran the allocator" '[ -f "$work/env.txt" ]'
check "the allocator inherits no tunables" '[ ! -s "$work/env.txt" ]'
ENV_OUT=$work/env2.txt GLIBC_TUNABLES=glibc.malloc.check=0 "$tool" fuzz --runs 1 --allocator "$work/alloc.sh" >/dev/null 2>&1
check "the allocator inherits the user's tunables as they were" '[ "$(cat "$work/env2.txt")" = "GLIBC_TUNABLES=glibc.malloc.check=0" ]'

# The same answers either way: output and exit status.
for m in system tuned; do
  SYNCBISIM_MALLOC=$m "$tool" show "$work/large.sb" > "$work/show_$m.txt"; echo $? > "$work/status_$m"
  SYNCBISIM_MALLOC=$m "$tool" show "$work/nowhere.sb" 2> "$work/err_$m.txt"; echo $? >> "$work/status_$m"
done
check "same output" 'cmp -s "$work/show_system.txt" "$work/show_tuned.txt"'
check "same errors" 'cmp -s "$work/err_system.txt" "$work/err_tuned.txt"'
check "same exit statuses" 'cmp -s "$work/status_system" "$work/status_tuned"'
check "the output is the program" 'head -1 "$work/show_system.txt" | grep -q "^syncbisim spec/1"'
[ $fail = 0 ] && echo "malloc choice: all checks passed"
exit $fail
