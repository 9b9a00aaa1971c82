#!/usr/bin/env bash
# Kernels of N sequential loop nests (GitHub issue 39, "Production-scale kernels"): for each N,
# bench/gen_nest_kernel.py writes the spec (by default 14 instructions on 4 engines and 7
# dependencies with offsets 0..2 a nest, an outer loop of trips 1..4 around an inner one of 1..3,
# each nest depending on the one before), then `syncbisim allocate --strategy S` runs for S in
# per-loop, per-engine, auto, expert under GNU time, in the default budget (256 semaphores, 64
# registers per engine) unless ALLOC_ARGS says otherwise. Prints one markdown table row per
# allocation: seconds (elapsed) and peak MiB (maximum resident set), whether the allocation is
# exact and how many dependencies are not (decision lines on stderr that say "not exact",
# docs/allocator.md "Budgets"; a recycling note "(not exact: ...)" makes the whole inexact too),
# the semaphores and the largest engine's registers (`syncbisim stats --json`: budget), and for
# per-loop the time and verdict of `syncbisim prove SPEC IMPL --jobs 1`. In brackets beside the
# semaphores and registers: how many are live at once at most (a register of an engine, or a
# semaphore, is counted live from the first top-level statement of the impl that names it to the
# last; a nest is one top-level loop), what an allocator that reused them across nests would need.
#
# Usage: bash bench/bench_nests.sh SYNCBISIM [NESTS...]      default NESTS: 20 30 40 100
# Environment:
#   TIMEOUT        seconds before an allocation is cut off (default 60): the row says "timeout"
#   PROVE_TIMEOUT  seconds before prove is cut off (default TIMEOUT)
#   NO_PROVE=1     skip prove
#   STRATEGIES     default "per-loop per-engine auto expert"
#   SEED           generator seed (default 1)
#   GEN_ARGS       more generator options (--engines 8 --depth 3 --max-offset 1 ...)
#   ALLOC_ARGS     more allocate options (--max-registers 128 --max-semaphores 1024 ...)
#   KEEP=DIR       keep the specs, impls and stderr logs in DIR (default: a temporary directory, removed)
# One process at a time (prove with --jobs 1), every command under `timeout`.
set -u
if [ $# -lt 1 ]; then
  echo "usage: bash bench/bench_nests.sh SYNCBISIM [NESTS...]" >&2
  exit 2
fi
sb=$1
shift
nests=${*:-20 30 40 100}
limit=${TIMEOUT:-60}
prove_limit=${PROVE_TIMEOUT:-$limit}
strategies=${STRATEGIES:-per-loop per-engine auto expert}
seed=${SEED:-1}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/bench_common.sh
. "$here/bench_common.sh"
bench_workdir

# "exact inexact semaphores registers" of one allocation: from its allocate stderr log (decision
# lines that say "not exact"; a recycling note "(not exact: ...)" makes the whole inexact) and from
# `stats --json` of its impl. One python3 start per row (a start takes most of a second on a busy
# machine).
summary() {
  timeout "$limit" "$sb" stats "$2" --json >"$work/stats.json" 2>/dev/null
  python3 - "$1" "$work/stats.json" "$2" <<'EOF'
import json, re, sys
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
inexact, whole = 0, True
for line in open(sys.argv[1], errors="replace"):
    if re.match(r"\S+ -> \S+ \{", line):  # a decision line
        if "not exact" in line:
            inexact += 1
    elif line.startswith("note:") and "(not exact:" in line:  # recycling barriers
        whole = False
def names(expr):
    if isinstance(expr, str):
        return [t for t in IDENT.findall(expr) if t != "isgt"]
    return []
def walk(stmts, top, regs, sems):
    for st in stmts:
        if "block" in st:
            for e, items in st["block"].items():
                for it in items:
                    if isinstance(it, str):
                        continue
                    if "set" in it:
                        for r in [it["set"]] + names(it["expr"]):
                            regs.setdefault((e, r), []).append(top)
                    for w in it.get("wait", []):
                        sems.setdefault(w["sem"], []).append(top)
                        for r in names(w["ge"]):
                            regs.setdefault((e, r), []).append(top)
                    sig = it.get("signal")
                    if sig is not None:
                        sems.setdefault(sig if isinstance(sig, str) else sig["sem"], []).append(top)
        for key in ("body", "then", "else"):
            if key in st:
                walk(st[key], top, regs, sems)
def peak(intervals, n):
    delta = [0] * (n + 1)
    for a, b in intervals:
        delta[a] += 1
        delta[b + 1] -= 1
    best = cur = 0
    for d in delta:
        cur += d
        best = max(best, cur)
    return best
try:
    st = json.load(open(sys.argv[2]))
    res = f"{st['semaphores']} {st['registers_max']}"
except Exception:
    res = "? ?"
try:  # peak live: a register (per engine) or semaphore is live from the first top-level statement
    impl = json.load(open(sys.argv[3]))  # that names it to the last (a nest is one statement)
    regs, sems = {}, {}
    for i, stmt in enumerate(impl["program"]):
        walk([stmt], i, regs, sems)
    n, per_engine = len(impl["program"]), {}
    for (e, r), at in regs.items():
        per_engine.setdefault(e, []).append((min(at), max(at)))
    live = f"{max((peak(v, n) for v in per_engine.values()), default=0)} {peak([(min(a), max(a)) for a in sems.values()], n)}"
except Exception:
    live = "? ?"
print("yes" if inexact == 0 and whole else "no", inexact, res, live)
EOF
}

echo "| nests | instructions | deps | strategy | seconds | peak MiB | exact | inexact deps | semaphores (live) | registers max/engine (live) | prove |"
echo "| ---: | ---: | ---: | --- | ---: | ---: | --- | ---: | ---: | ---: | --- |"
for n in $nests; do
  spec=$work/nests$n.sb
  # shellcheck disable=SC2086
  python3 "$here/gen_nest_kernel.py" --nests "$n" --seed "$seed" ${GEN_ARGS:-} -o "$spec" || exit 2
  ninstr=$(python3 -c '
import sys
n = 0
for line in open(sys.argv[1]):
    head, sep, rest = line.strip().partition(": ")
    if sep and not head.startswith(("dep", "loop", "#")):
        n += len(rest.split())
print(n)' "$spec")
  ndeps=$(grep -c '^dep ' "$spec")
  for s in $strategies; do
    impl=$work/nests$n.$s.json
    rm -f "$impl"
    # shellcheck disable=SC2086
    timed "$limit" "$sb" allocate "$spec" --strategy "$s" ${ALLOC_ARGS:-} -o "$impl" 2>"$work/nests$n.$s.err" >/dev/null
    prove="-"
    if [ "$t_rc" = 124 ]; then
      printf '| %s | %s | %s | %s | timeout (>%s) | %s | - | - | - | - | - |\n' "$n" "$ninstr" "$ndeps" "$s" "$limit" "$t_mib"
      continue
    elif [ "$t_rc" != 0 ]; then
      why=$(grep -v '^\S* -> ' "$work/nests$n.$s.err" | tail -n 1 | cut -c1-80)
      printf '| %s | %s | %s | %s | %s (exit %s: %s) | %s | - | - | - | - | - |\n' "$n" "$ninstr" "$ndeps" "$s" "$t_sec" "$t_rc" "$why" "$t_mib"
      continue
    fi
    sec=$t_sec mib=$t_mib
    read -r exact inexact sems regs live_regs live_sems < <(summary "$work/nests$n.$s.err" "$impl")
    if [ "$s" = per-loop ] && [ -z "${NO_PROVE:-}" ]; then
      timed "$prove_limit" "$sb" prove "$spec" "$impl" --jobs 1 >"$work/nests$n.prove.out" 2>"$work/nests$n.prove.err"
      if [ "$t_rc" = 124 ]; then
        prove="timeout (>$prove_limit s)"
      else
        prove="$t_sec s, $t_mib MiB, $(head -n 1 "$work/nests$n.prove.out" | cut -c1-40) (exit $t_rc)"
      fi
    fi
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$n" "$ninstr" "$ndeps" "$s" "$sec" "$mib" "$exact" "$inexact" "$sems ($live_sems)" "$regs ($live_regs)" "$prove"
  done
done
