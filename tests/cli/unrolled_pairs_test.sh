#!/usr/bin/env bash
# check and prove on an impl that unrolls a constant-trip loop of its spec (docs/formats.md
# "Unrolled programs"): the spec is given as written, the impl names copies X.L.k. Allocated
# impls of every strategy are bisimilar and proved; the same impls with one wait value moved
# to another copy, or lowered, are not.
set -u
tool=$1; src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
run() {  # want-exit, want-stdout-regex, command...
  local want=$1 re=$2; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"; local got=$?
  if [ "$got" != "$want" ] || ! grep -Eq -- "$re" "$tmp/out"; then
    echo "FAIL: $* (exit $got, wanted $want and /$re/)"; head -20 "$tmp/out" "$tmp/err"; fail=1
  fi
}
cd "$src"
# spec, loop to unroll
for case in "corpus/figures/fig1_motivating.json A" "corpus/kernels/tiled_matmul.json k" \
            "corpus/figures/fig7_fig8.json A"; do
  set -- $case; spec=$1; loop=$2; name=$(basename "$spec" .json)
  for strategy in per-instruction per-loop per-engine; do
    impl=$tmp/$name.$strategy.impl.sb
    if ! "$tool" allocate "$spec" --strategy $strategy --unroll "$loop" --text --no-licm -o "$impl" 2>"$tmp/err"; then
      echo "FAIL: allocate $spec --unroll $loop"; cat "$tmp/err"; fail=1; continue
    fi
    grep -q "\.$loop\.1" "$impl" || { echo "FAIL: $impl has no copies of $loop"; fail=1; }
    run 0 '^bisimilar$' "$tool" check "$spec" "$impl"
    grep -q "unrolls loop $loop" "$tmp/err" || { echo "FAIL: no note about the unrolled $loop"; fail=1; }
    run 0 'proved' "$tool" prove "$spec" "$impl"
    # Broken: every wait threshold of the impl that is a number n > 0 lowered to n - 1.
    if grep -Eq '>= [1-9][0-9]*\}' "$impl"; then
      perl -pe 's/>= ([1-9][0-9]*)\}/">= ".($1-1)."}"/ge' "$impl" >"$tmp/broken.sb"
      run 1 '^under-synchronized$' "$tool" check "$spec" "$tmp/broken.sb"
    fi
  done
done
exit $fail
