#!/usr/bin/env bash
# Runs one reader's libFuzzer target for a while (docs/fuzzing.md "Fuzzing the readers"):
#   fuzz/readers/run.sh BUILD_DIR READER SECONDS [WORK]
#   fuzz/readers/run.sh BUILD_DIR READER runs:N [WORK]
# With runs:N (what CTest's smoke tests use) the fuzzer stops after N inputs past its seeds, and an
# input counts as a hang only after 120 s: a count of work, never a clock, so that a busy machine
# cannot fail it (a genuine hang still does).
# BUILD_DIR holds the fuzz_<READER> binaries (build/fuzz-readers); READER is json_spec,
# json_impl, text or expr. Seeds come from corpus/ and tests/inputs (copied into
# WORK/READER/seeds, WORK being BUILD_DIR/work unless given); what the fuzzer finds new is kept
# in WORK/READER/found for the next run; a crash, a hang or a broken promise is written there as crash-*/timeout-*
# and the script fails with the fuzzer's status. Copy such a file into tests/inputs/bad/.
set -u
dir=$1 reader=$2 seconds=$3 work_root=${4:-$1/work}
src=$(cd "$(dirname "$0")/../.." && pwd)
bin=$dir/fuzz_$reader
[ -x "$bin" ] || { echo "no fuzzer $bin (build the fuzz_readers target)"; exit 2; }
work=$work_root/$reader
seeds=$work/seeds found=$work/found
rm -rf "$seeds"
mkdir -p "$seeds" "$found"

seed() {  # copies each file named on stdin (one per line) into the seed folder, by content
  while IFS= read -r f; do cp "$f" "$seeds/$(sha1sum < "$f" | cut -c1-16)"; done
}
case $reader in
  json_spec) { grep -rl --include='*.json' '"spec/1"' "$src/corpus" "$src/tests/inputs"
               find "$src/tests/inputs/bad" -name '*.json'; } | seed ;;
  json_impl) { grep -rl --include='*.json' '"impl/1"' "$src/corpus" "$src/tests/inputs"
               find "$src/tests/inputs/bad" -name '*.json'; } | seed ;;
  text)      find "$src/corpus" "$src/tests/inputs" -name '*.sb' | seed ;;
  expr)      # every expression of the impls, one per seed file
             n=0
             { grep -rhoE '\[[A-Za-z_][A-Za-z0-9_.]* := [^]]*\]' "$src/corpus" "$src/tests/inputs" --include='*.sb' |
                 sed -E 's/^\[[^:]*:= (.*)\]$/\1/'
               grep -rhoE '"expr": *"[^"]*"' "$src/corpus" "$src/tests/inputs" --include='*.json' |
                 sed -E 's/^"expr": *"(.*)"$/\1/'; } | sort -u |
               while IFS= read -r e; do n=$((n + 1)); printf '%s' "$e" > "$seeds/e$n"; done
             find "$src/tests/inputs/bad" -name 'bad-expr__*' | seed ;;
  *) echo "unknown reader $reader"; exit 2 ;;
esac

dict=$src/fuzz/readers/$reader.dict
[ "$reader" = json_impl ] && dict=$src/fuzz/readers/json_spec.dict
case $seconds in
  runs:*) budget=(-runs="${seconds#runs:}" -timeout=120); what="${seconds#runs:} runs" ;;
  *) budget=(-max_total_time="$seconds" -timeout=10); what="${seconds}s" ;;
esac
echo "fuzz_$reader: $(ls "$seeds" | wc -l) seeds, $(ls "$found" | wc -l) found before, $what"
"$bin" "${budget[@]}" -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
  -artifact_prefix="$work/" -dict="$dict" "$found" "$seeds" 2>"$work/log"
status=$?
grep -E '^(Done|stat::number_of_executed_units|stat::new_units_added)|ERROR|broken promise|SUMMARY' "$work/log"
if [ $status != 0 ]; then
  tail -n 40 "$work/log"
  ls "$work"/crash-* "$work"/timeout-* "$work"/oom-* 2>/dev/null
fi
exit $status
