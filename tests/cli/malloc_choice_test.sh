#!/usr/bin/env bash
# Which malloc a run uses (cli/malloc_choice.h, docs/choices.md "Memory allocator"): glibc's for
# small inputs, so that a short run does not pay tcmalloc's set-up; tcmalloc, preloaded by a
# second start, for inputs of 256 KiB or more and for fuzz; SYNCBISIM_MALLOC overrides. The
# dynamic loader's own log (LD_DEBUG=files, inherited by the second start) says what was loaded.
# Usage: malloc_choice_test.sh SYNCBISIM SOURCE_DIR TCMALLOC_PATH (empty: built without it)
set -u
tool=$1
src=$2
tcmalloc=${3:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
check() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; fi; }
# loaded ENV... -- ARGS: does a run load tcmalloc?
loaded() { env "$@" LD_DEBUG=files "$tool" "${args[@]}" 2>&1 >/dev/null | grep -q 'file=.*libtcmalloc'; }

small=corpus/figures/fig1_motivating.json
python3 "$src/bench/gen_nest_kernel.py" --nests 600 -o "$work/large.sb" || exit 2
size=$(stat -c %s "$work/large.sb")
check "the large spec is at least 256 KiB ($size bytes)" '[ "$size" -ge 262144 ]'

if [ -n "$tcmalloc" ]; then
  args=(--version);              check "--version: glibc" '! loaded SYNCBISIM_MALLOC=auto'
  args=(show "$small");          check "show small: glibc" '! loaded SYNCBISIM_MALLOC=auto'
  args=(show "$work/large.sb");  check "show large: tcmalloc" 'loaded SYNCBISIM_MALLOC=auto'
  check "show large, SYNCBISIM_MALLOC=system: glibc" '! loaded SYNCBISIM_MALLOC=system'
  args=(show "$small");          check "show small, SYNCBISIM_MALLOC=tcmalloc: tcmalloc" 'loaded SYNCBISIM_MALLOC=tcmalloc'
  args=(fuzz --help);            check "fuzz: tcmalloc" 'loaded SYNCBISIM_MALLOC=auto'
  # A preload of the user's own stays in the second start, beside tcmalloc.
  args=(show "$work/large.sb")
  check "the user's LD_PRELOAD kept" \
    'env LD_PRELOAD=libm.so.6 LD_DEBUG=files "$tool" "${args[@]}" 2>&1 >/dev/null | grep -q "file=libm.so.6 .*generating link map"'
else
  args=(show "$work/large.sb");  check "built without tcmalloc: glibc" '! loaded SYNCBISIM_MALLOC=tcmalloc'
fi

# The same answers either way: output and exit status.
for m in system tcmalloc; do
  SYNCBISIM_MALLOC=$m "$tool" show "$work/large.sb" > "$work/show_$m.txt"; echo $? > "$work/status_$m"
  SYNCBISIM_MALLOC=$m "$tool" show "$work/nowhere.sb" 2> "$work/err_$m.txt"; echo $? >> "$work/status_$m"
done
check "same output" 'cmp -s "$work/show_system.txt" "$work/show_tcmalloc.txt"'
check "same errors" 'cmp -s "$work/err_system.txt" "$work/err_tcmalloc.txt"'
check "same exit statuses" 'cmp -s "$work/status_system" "$work/status_tcmalloc"'
check "the output is the program" 'head -1 "$work/show_system.txt" | grep -q "^syncbisim spec/1"'
[ $fail = 0 ] && echo "malloc choice: all checks passed"
exit $fail
