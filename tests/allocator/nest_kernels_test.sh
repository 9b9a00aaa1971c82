#!/usr/bin/env bash
# Kernels of sequential loop nests from bench/gen_nest_kernel.py (GitHub issue 39) at small sizes:
# 2, 3 and 5 nests, two seeds each. The generator is deterministic and writes what its help says
# (each nest after the first depends on the one before; same-engine and cross-engine
# dependencies); the spec loads without a warning; per-loop, per-engine and auto allocate it
# exactly (no decision says "not exact", docs/allocator.md "Budgets"); `prove` proves it (exit 0,
# docs/prover.md "Output and exit status") and 100 random walks of `check` find no violation
# (inconclusive, exit 3: the exhaustive search of even 2 default nests, trips 1..4 and 1..3 on 4
# engines, does not end in a minute). The exhaustive `check` says bisimilar (exit 0,
# docs/checker.md "Verdicts and exit status") on smaller nests: 2 and 3 nests of 6 instructions on
# 3 engines, 3 dependencies each, trips 1..2 (5 such nests take more than 20 s).
# The same with registers and semaphores reused by liveness (--reuse always), every strategy: still
# exact, proved, and bisimilar on the small nests.
# With --footprints: `deps --no-reduce` derives exactly the written graph and `deps --compare`
# calls it ordered, at several shapes (depth, offsets, engines).
# One process at a time (check --threads 1, prove --jobs 1).
# Usage: nest_kernels_test.sh SYNCBISIM SOURCE_DIR
set -u
tool=$1
src=$2
gen=$src/bench/gen_nest_kernel.py
# Debian's python3 (a python3 earlier on PATH may be a slow shim); no time limits here: CTest's
# timeout catches a hang, and a busy machine must not fail the test.
if [ -x /usr/bin/python3 ]; then python3() { /usr/bin/python3 "$@"; }; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
run() {  # want-exit, want-stdout-regex, command...
  local want=$1 re=$2
  shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [ "$got" != "$want" ] || ! grep -Eq -- "$re" "$tmp/out"; then
    bad "$* (exit $got, wanted $want and /$re/)"
    head -20 "$tmp/out" "$tmp/err"
  fi
}

# allocate_exactly SPEC IMPL ALLOCATE-ARGS...: allocates; a failure or a decision that is not
# exact fails the test (exit 1 when there is no impl to go on with).
allocate_exactly() {
  local spec=$1 impl=$2
  shift 2
  if ! "$tool" allocate "$spec" "$@" -o "$impl" 2>"$tmp/alloc.err"; then
    bad "allocate $spec $*"
    tail -3 "$tmp/alloc.err"
    return 1
  fi
  if grep -q 'not exact' "$tmp/alloc.err"; then
    bad "allocate $spec $* is not exact: $(grep 'not exact' "$tmp/alloc.err" | head -2)"
  fi
  return 0
}

# Determinism: the same options give the same file, another seed another.
python3 "$gen" --nests 3 --seed 7 -o "$tmp/a.sb" && python3 "$gen" --nests 3 --seed 7 >"$tmp/b.sb" ||
  bad "the generator failed"
cmp -s "$tmp/a.sb" "$tmp/b.sb" || bad "the same seed gives different files"
python3 "$gen" --nests 3 --seed 8 -o "$tmp/c.sb"
cmp -s "$tmp/a.sb" "$tmp/c.sb" && bad "seeds 7 and 8 give the same file"

for nests in 2 3 5; do
  for seed in 1 2; do
    spec=$tmp/n$nests.s$seed.sb
    if ! python3 "$gen" --nests "$nests" --seed "$seed" -o "$spec"; then
      bad "gen_nest_kernel.py --nests $nests --seed $seed"
      continue
    fi
    # The shape: 14 instructions a nest on 4 engines, 7 dependencies a nest plus the chain, the
    # chain from nest n-1 to the first instruction of nest n, both kinds of engine pairs.
    python3 - "$spec" "$nests" <<'EOF' || bad "$spec: not the shape the generator promises"
import re, sys
text, nests = open(sys.argv[1]).read(), int(sys.argv[2])
engine, errors = {}, []
for line in text.splitlines():
    m = re.match(r"\s*(E\d+): (.*)", line)
    if m:
        for name in m.group(2).split():
            engine[name] = m.group(1)
deps = re.findall(r"^dep (\S+) -> (\S+)", text, re.M)
nest = lambda name: int(name[1:].split("_")[0])
if len(engine) != 14 * nests:
    errors.append(f"{len(engine)} instructions")
if set(engine.values()) != {"E0", "E1", "E2", "E3"}:
    errors.append(f"engines {sorted(set(engine.values()))}")
if len(deps) != 8 * nests - 1:
    errors.append(f"{len(deps)} dependencies")
for n in range(1, nests):
    if (f"I{n - 1}_13", f"I{n}_0") not in deps:
        errors.append(f"no chain into nest {n}")
same = sum(engine[p] == engine[c] for p, c in deps)
if not 0 < same < len(deps):
    errors.append(f"{same} of {len(deps)} dependencies on one engine")
if any(nest(p) != nest(c) and not (nest(p) + 1 == nest(c) and c.endswith("_0")) for p, c in deps):
    errors.append("a dependency between nests other than the chain")
if errors:
    print("; ".join(errors))
sys.exit(1 if errors else 0)
EOF
    run 0 '' "$tool" show "$spec"
    [ -s "$tmp/err" ] && bad "show $spec warns: $(head -3 "$tmp/err")"
    for strategy in per-loop per-engine auto; do
      impl=$tmp/n$nests.s$seed.$strategy.impl.json
      allocate_exactly "$spec" "$impl" --strategy "$strategy" || continue
      run 0 '^proved' "$tool" prove "$spec" "$impl" --jobs 1
      run 3 '^inconclusive$' "$tool" check "$spec" "$impl" -q --threads 1 --random 100 --seed "$seed"
    done
    # Registers and semaphores reused by liveness (docs/allocator.md "Reusing registers and
    # semaphores"), every strategy: still exact, a reuse note, proved.
    for strategy in per-loop per-instruction per-engine expert mixed; do
      impl=$tmp/n$nests.s$seed.$strategy.reused.json
      allocate_exactly "$spec" "$impl" --strategy "$strategy" --reuse always || continue
      grep -Eq '^note: reused by liveness: ([0-9]+) -> ' "$tmp/alloc.err" ||
        bad "allocate $spec --strategy $strategy --reuse always has no reuse note"
      run 0 '^proved' "$tool" prove "$spec" "$impl" --jobs 1
    done
    # Smaller nests, exhaustively checked.
    [ "$nests" = 5 ] && continue
    small=$tmp/small$nests.s$seed.sb
    python3 "$gen" --nests "$nests" --seed "$seed" --instructions 6 --engines 3 --deps 3 \
      --outer-trips 1..2 --inner-trips 1..2 -o "$small" || bad "gen_nest_kernel.py (small) --nests $nests"
    for args in per-loop per-engine auto "per-loop --reuse always" "per-instruction --reuse always" \
      "per-engine --reuse always" "expert --reuse always"; do
      impl=$tmp/small$nests.s$seed.${args// /_}.impl.json
      # shellcheck disable=SC2086 # a strategy and its options, split on purpose
      allocate_exactly "$small" "$impl" --strategy $args || continue
      run 0 '^bisimilar$' "$tool" check "$small" "$impl" -q --threads 1
      run 0 '^proved' "$tool" prove "$small" "$impl" --jobs 1
    done
  done
done
# Per-engine segmented (docs/allocator.md "The per-engine decode", "Many top-level statements"):
# 12 one-loop nests on 2 engines, so each engine has instructions in more loops than a budget of
# 10 registers; per-engine then counts per top-level statement (s_E0_L0_0, ...), the statements'
# semaphores are joined by reuse, and the whole is exact, proved and bisimilar.
seg=$tmp/segmented.sb
python3 "$gen" --nests 12 --depth 1 --engines 2 --instructions 4 --deps 2 --outer-trips 1..2 --seed 3 -o "$seg" ||
  bad "gen_nest_kernel.py (segmented)"
if allocate_exactly "$seg" "$tmp/seg.impl" --strategy per-engine --max-registers 10 --text; then
  grep -q '^note: reused by liveness' "$tmp/alloc.err" || bad "segmented per-engine was not reused"
  grep -q 'per-loop with reuse does' "$tmp/alloc.err" && bad "segmented per-engine fell back to per-loop"
  grep -Eq '\{s_E0_L[0-9]+_0 >= ' "$tmp/seg.impl" || bad "no wait on a segment's semaphore: $(head -5 "$tmp/seg.impl")"
  run 0 '^proved' "$tool" prove "$seg" "$tmp/seg.impl" --jobs 1
  run 0 '^bisimilar$' "$tool" check "$seg" "$tmp/seg.impl" -q --threads 1
fi
# A longer chain of reused semaphores (20 nests, the default shape and budget, reuse by default):
# every consumer proved, none unknown, and every register's overflow question answered by the
# bounds alone (docs/prover.md "Overflow": the base registers read themselves). Before the
# drained-prefix landmark (docs/prover.md "Retirements") the consumer I16_0 was unknown here.
long=$tmp/long.sb
python3 "$gen" --nests 20 -o "$long" || bad "gen_nest_kernel.py --nests 20"
if allocate_exactly "$long" "$tmp/long.impl" --strategy per-loop --text; then
  grep -q '^note: reused by liveness' "$tmp/alloc.err" || bad "20 nests were not reused"
  run 0 '^proved' "$tool" prove "$long" "$tmp/long.impl" --jobs 1
  "$tool" prove "$long" "$tmp/long.impl" --jobs 1 --json >"$tmp/long.prove.json" || true
  python3 - "$tmp/long.prove.json" <<'PY' || bad "20 nests: a register's overflow question went past the bounds"
import json, sys
d = json.load(open(sys.argv[1]))
regs = [o for o in d["overflows"] if o["kind"] == "register"]
assert regs, "no register questions"
z3 = [o["name"] + " on " + o["engine"] for o in regs if o["found_by"] != "trip bounds"]
assert not z3, z3
PY
fi
# Budgets below the peak (docs/allocator.md "Below the peak"): 30 nests (420 dependencies, past
# the search's 64) under registers and semaphores fewer than are ever live at once. Each answer is
# within its budget, names the dependencies that lost exactness (only a few: the ones crossing a
# resetting barrier between nests), and no run of the pair finds an under-synchronization. The
# small nests the same under 3 registers and 3 semaphores, checked exhaustively.
below=$tmp/below.sb
python3 "$gen" --nests 30 --seed 4 -o "$below" || bad "gen_nest_kernel.py --nests 30"
for budget in "--max-registers 12" "--max-semaphores 6" "--max-registers 8 --max-semaphores 6"; do
  impl=$tmp/below.${budget// /_}.json
  # shellcheck disable=SC2086 # a budget's options, split on purpose
  if ! "$tool" allocate "$below" --strategy per-loop $budget -o "$impl" 2>"$tmp/alloc.err"; then
    bad "allocate 30 nests $budget: $(tail -2 "$tmp/alloc.err")"
    continue
  fi
  grep -Eq '^note: budget: .* with reuse.* in [0-9]+ allocations' "$tmp/alloc.err" ||
    bad "30 nests $budget: not fitted by pressure: $(grep '^note' "$tmp/alloc.err" | head -3)"
  inexact=$(grep -Eo '^note: budget: [0-9]+ dependencies not exact' "$tmp/alloc.err" | grep -Eo '[0-9]+' | head -1)
  [ "${inexact:-0}" -le 60 ] || bad "30 nests $budget: $inexact dependencies not exact, more than 2 a nest"
  "$tool" stats "$impl" --json >"$tmp/below.stats.json" || bad "stats 30 nests $budget"
  python3 - "$tmp/below.stats.json" $budget <<'PY' || bad "30 nests $budget: over the budget"
import json, sys
d = json.load(open(sys.argv[1]))
args = sys.argv[2:]
limits = {args[k]: int(args[k + 1]) for k in range(0, len(args), 2)}
assert d["registers_max"] <= limits.get("--max-registers", 64), d["registers_max"]
assert d["semaphores"] <= limits.get("--max-semaphores", 256), d["semaphores"]
PY
  "$tool" check "$below" "$impl" --threads 1 --random 40 --seed 4 >"$tmp/below.check" 2>&1
  grep -q 'under-sync' "$tmp/below.check" && bad "30 nests $budget: an under-synchronization: $(grep -m1 under-sync "$tmp/below.check")"
done
small=$tmp/below_small.sb
python3 "$gen" --nests 5 --seed 2 --instructions 6 --engines 3 --deps 3 --outer-trips 1..2 --inner-trips 1..2 -o "$small" ||
  bad "gen_nest_kernel.py (small, below the peak)"
for budget in "--max-registers 3" "--max-semaphores 3"; do
  impl=$tmp/below_small.${budget// /_}.json
  # shellcheck disable=SC2086 # a budget's options, split on purpose
  "$tool" allocate "$small" --strategy per-loop $budget -o "$impl" 2>"$tmp/alloc.err" ||
    { bad "allocate small $budget: $(tail -2 "$tmp/alloc.err")"; continue; }
  "$tool" check "$small" "$impl" --threads 1 >"$tmp/below.check" 2>&1
  grep -q 'exhaustive' "$tmp/below.check" || bad "small $budget: the check was not exhaustive"
  grep -q 'under-sync' "$tmp/below.check" && bad "small $budget: an under-synchronization: $(grep -m1 under-sync "$tmp/below.check")"
done

# Footprints: the derivation gets the written graph back, dependency for dependency.
for shape in "--nests 12 --seed 1" "--nests 6 --seed 2 --depth 3 --max-offset 1" "--nests 8 --seed 3 --depth 1 --engines 2" \
             "--nests 5 --seed 4 --deps 12 --max-offset 2"; do
  fp=$tmp/fp.sb
  # shellcheck disable=SC2086 # generator options, split on purpose
  python3 "$gen" $shape --footprints -o "$fp" || { bad "gen_nest_kernel.py $shape --footprints"; continue; }
  "$tool" deps "$fp" --no-reduce -o "$tmp/fp.derived.sb" 2>"$tmp/fp.err" || { bad "deps $shape: $(tail -2 "$tmp/fp.err")"; continue; }
  written=$(grep '^dep ' "$fp" | sort)
  derived=$(grep '^dep ' "$tmp/fp.derived.sb" | sed 's/ *#.*//' | sort)  # without the reasons
  [ -n "$written" ] || bad "footprints $shape: no written dependency"
  [ "$written" = "$derived" ] ||
    bad "footprints $shape: derived graph differs: $(diff <(echo "$written") <(echo "$derived") | head -4 | tr '\n' ' ')"
  run 0 '^ordered' "$tool" deps "$fp" --compare
done
exit $fail
