#!/usr/bin/env bash
# The installed C++ package, used as a new user would (docs/api.md): `cmake --install` into a
# fresh prefix; examples/cmake_consumer built against it with find_package(syncbisim) and, apart,
# with pkg-config; the consumer's own allocator passes, its planted bug is found, shrunk and
# written, and the written pair re-checks as a violation with the installed command.
# Usage: install_consumer_test.sh BUILD_DIR (run from the source tree)
set -u
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
prefix=$tmp/prefix

cmake --install "$build" --prefix "$prefix" > "$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; exit 1; }
header=$prefix/include/syncbisim/syncbisim.h
[ -f "$header" ] || bad "no installed header"
[ "$(ls "$prefix/include/syncbisim")" = syncbisim.h ] || bad "more than the one public header installed"
grep -Eq '#include [<"](z3|rapidcheck|nlohmann|model/|checker/|fuzz/)' "$header" && bad "the public header reaches a dependency"
[ -x "$prefix/bin/syncbisim" ] || bad "no installed command"
[ -f "$prefix/lib/cmake/syncbisim/syncbisimConfig.cmake" ] || bad "no CMake package"
[ -f "$prefix/lib/pkgconfig/syncbisim.pc" ] || bad "no pkg-config file"
# Installed stripped (docs/api.md "Installing and using the C++ package"): no symbol table, no
# debug sections, in the command, the library and the Python module.
for f in "$prefix/bin/syncbisim" "$prefix"/lib/libsyncbisim.so.*.* "$prefix"/lib/python3/dist-packages/syncbisim*.so; do
  [ -f "$f" ] || continue
  if readelf -S --wide "$f" | grep -Eq ' \.(symtab|debug_[a-z]+) '; then bad "$f is not stripped"; fi
done
size=$(stat -c %s "$prefix/bin/syncbisim")
[ "$size" -lt 20000000 ] || bad "the installed command is $size bytes"
# Only the API is exported from the library: no symbol of the internal namespaces, Z3 or RapidCheck.
if nm -DC --defined-only "$prefix"/lib/libsyncbisim.so | grep -Eq 'syncbisim::(model|checker|fuzz|semantics|prover|allocator)::|rc::|z3::'; then
  bad "internal symbols exported"
fi

# find_package(syncbisim CONFIG REQUIRED)
cmake -S examples/cmake_consumer -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
  > "$tmp/configure.log" 2>&1 || { bad "configure"; cat "$tmp/configure.log"; }
cmake --build "$tmp/consumer" > "$tmp/build.log" 2>&1 || { bad "build"; cat "$tmp/build.log"; }
consumer=$tmp/consumer/consumer
size=$(stat -c %s "$consumer" 2>/dev/null || echo 0)
[ "$size" -gt 0 ] && [ "$size" -lt 5000000 ] || bad "consumer binary is $size bytes"

"$consumer" > "$tmp/good.out"
[ $? = 0 ] || bad "the consumer's allocator without its bug fails: $(tail -3 "$tmp/good.out")"
grep -q '^runs 500, failures 0,' "$tmp/good.out" || bad "good run: $(tail -1 "$tmp/good.out")"

"$consumer" --plant-bug "$tmp/out" > "$tmp/bug.out"
[ $? = 1 ] || bad "the planted bug is not reported as a failure"
grep -q ': over-sync at ' "$tmp/bug.out" || bad "planted bug: $(head -3 "$tmp/bug.out")"
grep -q '^check: over-synchronized$' "$tmp/bug.out" || bad "the consumer's own re-check: $(tail -2 "$tmp/bug.out")"
spec=$(ls "$tmp"/out/f*.spec.json 2>/dev/null | head -1)
if [ -n "$spec" ]; then
  "$prefix/bin/syncbisim" check "$spec" "${spec%.spec.json}.impl.json" > "$tmp/recheck.out"
  [ $? = 1 ] || bad "the written pair does not re-check as a violation"
  [ "$(head -1 "$tmp/recheck.out")" = over-synchronized ] || bad "re-check: $(head -1 "$tmp/recheck.out")"
else
  bad "no failure files written"
fi

# pkg-config --cflags --libs syncbisim
flags=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs syncbisim) || bad "pkg-config"
g++ -O1 -o "$tmp/pc" examples/cmake_consumer/main.cpp $flags 2> "$tmp/pc.log" || { bad "pkg-config build"; cat "$tmp/pc.log"; }
"$tmp/pc" > /dev/null
[ $? = 0 ] || bad "the pkg-config build does not run"
# The installed Python module finds the installed library.
pydir=$(ls -d "$prefix"/lib/python3/dist-packages 2>/dev/null)
if [ -n "$pydir" ]; then
  src=$PWD
  out=$(cd "$tmp" && PYTHONPATH=$pydir /usr/bin/python3 -c "
import syncbisim
r = syncbisim.check(syncbisim.load('$src/corpus/figures/fig7_fig8.json'), syncbisim.load('$src/corpus/figures/fig8_per_loop.impl.json'))
print(syncbisim.__file__.startswith('$pydir'), r.verdict)" 2>&1)
  [ "$out" = "True bisimilar" ] || bad "installed Python module: $out"
else
  bad "no installed Python module"
fi
exit $fail
