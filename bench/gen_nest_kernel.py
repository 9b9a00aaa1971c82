#!/usr/bin/env python3
"""Writes a spec (text format) of N sequential loop nests, for bench_nests.sh and
tests/allocator/nest_kernels_test.sh (GitHub issue 39, "Production-scale kernels").

Each nest n is D nested loops (D = --depth, default 2), the outermost `loop L<n>_0 trip 1..4`, every
loop below it `trip 1..3` (range rules: the trip is chosen when the loop starts; --outer-trips and
--inner-trips set others, e.g. `1..2` for a spec small enough for check's exhaustive search):

  loop L<n>_0 trip 1..4 {
    E1: ...                 instructions before the inner loop (a "pre" slot)
    loop L<n>_1 trip 1..3 {
      E0: ... E2: ...       the innermost body
    }
    E3: ...                 instructions after the inner loop (a "post" slot)
  }

The --instructions of a nest (default 14) go to the slots at random (the innermost body gets at least
one and about a third), each on a random engine (E0 .. E<E-1>); a slot is one block, one line per
engine (so no line of one engine sits between two of another's, which `show` would warn about).
Program order is the order written: slot by slot, within a slot engine by engine.

Dependencies (--deps per nest, default 7, plus one between consecutive nests) are all allocatable
(docs/semantics.md §6) and acyclic at offset 0. For p -> c inside one nest, S is the innermost loop
around both and P p's parent loop; the distance is only at S, offset k:
  * P = S: any k in 0..--max-offset, k = 0 only when p comes before c in program order;
  * P below S (p nested deeper than c): k = 0 when p's loop comes before c (nested forward),
    k = 1 when it comes after (nested backward; needs --max-offset >= 1).
k is also kept below S's largest trip, so that every dependency can bind. About half of the
dependencies pair instructions of one engine, half of different engines (where the nest allows).
The first instruction of nest n > 0 depends on the last instruction of nest n-1 (S = @top, a nested
forward dependency at offset 0): the nests run one after the other.

Deterministic: the same options and --seed give the same file.
"""
import argparse
import re
import random
import sys


def build(nests, engines, depth, instrs, deps, max_offset, seed, outer="1..4", inner_rule="1..3"):
    rng = random.Random(seed)
    out = ["syncbisim spec/1", "engines " + " ".join(f"E{e}" for e in range(engines))]
    dep_lines = []
    prev_last = None
    # Slots in program order: pre_0 .. pre_{D-2}, body_{D-1}, post_{D-2} .. post_0. Slot level = the
    # depth of the loop the slot's instructions sit directly in (0 = outermost loop of the nest).
    slots = [("pre", d) for d in range(depth - 1)] + [("body", depth - 1)] + \
            [("post", d) for d in reversed(range(depth - 1))]
    inner = depth - 1
    for n in range(nests):
        loops = [f"L{n}_{d}" for d in range(depth)]
        trips = [int(outer.split("..")[-1])] + [int(inner_rule.split("..")[-1])] * (depth - 1)  # largest trip per level
        # Place the instructions: at least one in the innermost body, then about a third there.
        counts = [0] * len(slots)
        counts[inner] = 1
        for _ in range(instrs - 1):
            if rng.random() < 1 / 3 or len(slots) == 1:
                counts[inner] += 1
            else:
                counts[rng.randrange(len(slots))] += 1
        ins = []  # (name, engine, level) in program order
        lines = []  # per slot: its block lines, one per engine
        for s, (kind, level) in enumerate(slots):
            es = sorted(rng.randrange(engines) for _ in range(counts[s]))
            per = {}
            for e in es:
                name = f"I{n}_{len(ins)}"
                ins.append((name, e, level))
                per.setdefault(e, []).append(name)
            lines.append(["  " * (level + 1) + f"E{e}: " + " ".join(per[e]) for e in sorted(per)])
        # Write the nest.
        for s, (kind, level) in enumerate(slots):
            if kind in ("pre", "body"):
                rule = outer if level == 0 else inner_rule
                out.append("  " * level + f"loop {loops[level]} trip {rule} {{")
            out += lines[s]
            if kind in ("post", "body"):
                out.append("  " * level + "}")
        # The chain between nests.
        if prev_last is not None:
            dep_lines.append(f"dep {prev_last} -> {ins[0][0]}")
        prev_last = ins[-1][0]
        # The nest's own dependencies.
        seen = set()
        for t in range(deps * 20):  # draws, most succeed at once
            if len(seen) >= deps:
                break
            ci = rng.randrange(len(ins))
            same = t % 2 == 0  # alternate same-engine and cross-engine wishes
            cands = [pi for pi in range(len(ins))
                     if pi != ci and (ins[pi][1] == ins[ci][1]) == same]
            if not cands:
                cands = [pi for pi in range(len(ins)) if pi != ci]
            if not cands:
                break
            pi = rng.choice(cands)
            lp, lc = ins[pi][2], ins[ci][2]
            s_level = min(lp, lc)
            kmax = min(max_offset, trips[s_level] - 1)
            forward = pi < ci
            if lp == s_level:  # P = S
                lo = 0 if forward else 1
                if lo > kmax:
                    continue
                k = rng.randint(lo, kmax)
            else:  # P below S: forward k = 0, backward k = 1
                k = 0 if forward else 1
                if k > kmax:
                    continue
            key = (pi, ci)
            if key in seen:
                continue
            seen.add(key)
            dist = f" distance {loops[s_level]}={k}" if k else ""
            dep_lines.append(f"dep {ins[pi][0]} -> {ins[ci][0]}{dist}")
    return "\n".join(out + dep_lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nests", type=int, default=20)
    ap.add_argument("--engines", type=int, default=4)
    ap.add_argument("--depth", type=int, default=2, help="loops per nest (outer trips 1..4, the others 1..3)")
    ap.add_argument("--instructions", type=int, default=14, help="instructions per nest")
    ap.add_argument("--deps", type=int, default=7, help="dependencies per nest (besides the chain between nests)")
    ap.add_argument("--max-offset", type=int, default=2, help="largest offset at S")
    ap.add_argument("--outer-trips", default="1..4", help="trip rule of each nest's outermost loop (N or MIN..MAX)")
    ap.add_argument("--inner-trips", default="1..3", help="trip rule of the loops below it")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", default="-", help="file to write (default: stdout)")
    a = ap.parse_args()
    if a.nests < 1 or a.engines < 1 or a.depth < 1 or a.instructions < 1 or a.deps < 0 or a.max_offset < 0:
        ap.error("--nests, --engines, --depth and --instructions must be at least 1, --deps and --max-offset at least 0")
    if not all(re.fullmatch(r"[1-9][0-9]*(\.\.[1-9][0-9]*)?", t) for t in (a.outer_trips, a.inner_trips)):
        ap.error("--outer-trips and --inner-trips take N or MIN..MAX, at least 1")
    text = build(a.nests, a.engines, a.depth, a.instructions, a.deps, a.max_offset, a.seed, a.outer_trips, a.inner_trips)
    if a.output == "-":
        sys.stdout.write(text)
    else:
        with open(a.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
