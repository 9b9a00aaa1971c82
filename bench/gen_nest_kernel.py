#!/usr/bin/env python3
"""Writes a spec (text format) of N sequential loop nests, for bench_nests.sh, bench_nest_deps.sh and
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

--footprints (for `syncbisim deps`, docs/footprints.md; bench_nest_deps.sh) gives every instruction
footprints from which the derivation (`deps --no-reduce`) gets exactly the written graph: the same
producer, consumer, loop and offset, nothing more. Each written dependency p -> c gets a buffer of
its own, indexed by p's loops L<n>_0 .. L<n>_lp (the iteration numbers, from 0), S's dimension k
longer:
  * p writes one element per instance, S's index shifted by k:  `d<n>_<j>[L<n>_0, .., L<n>_S + k, .., L<n>_lp]`
  * c reads S's row, whole in the dimensions of p's loops below S: `d<n>_<j>[L<n>_0, .., L<n>_S, :, .., :]`
    (P = S: no such dimension; nested forward or backward: c waits for the whole inner loop).
So c's instance at iteration v of the common loops conflicts (RAW) with exactly p's instances at
v - k in S (and every iteration of p's loops below S), and with none at other iterations: the
derivation's one dependency for the pair is carried by S with distance k (the same iteration at
k = 0, where p precedes c). No other pair conflicts: p writes each element once (no WAW between
its own instances), c only reads (no WAR: p's write of c's row comes k iterations of S earlier, or
earlier in program order), and no two dependencies share a buffer. The chain between nests: nest
n-1's last instruction writes `c<n>[L<n-1>_0, ..]` (one element per instance), the first
instruction of nest n reads all of it, `c<n>[:, ..]` (no common loop: a dependency in program
order). An instruction in no dependency reads `x<n>[L<n>_0]`, a buffer of its nest that nobody
writes. Each instruction is then a line of its own (engine by engine as without footprints: the
same program order). The written graph can hold dependencies that others imply (one engine's
in-order issue and retirement, chains): `deps` without --no-reduce drops those, `deps --compare`
lists them as implied; the derived graph before reduction is still the written one.

Deterministic: the same options and --seed give the same file; without --footprints the file is
the same as before the option existed (the footprints draw nothing at random).
"""
import argparse
import re
import random
import sys


def build(nests, engines, depth, instrs, deps, max_offset, seed, outer="1..4", inner_rule="1..3",
          footprints=False):
    rng = random.Random(seed)
    out = ["syncbisim spec/1", "engines " + " ".join(f"E{e}" for e in range(engines))]
    buffer_lines = []  # with footprints: every buffer, declared after the engines line
    dep_lines = []
    prev_last = None
    prev_last_level = None  # with footprints: the loop level of nest n-1's last instruction
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
        slot_of = []  # per instruction: its slot
        lines = []  # per slot: its block lines, one per engine
        for s, (kind, level) in enumerate(slots):
            es = sorted(rng.randrange(engines) for _ in range(counts[s]))
            per = {}
            for e in es:
                name = f"I{n}_{len(ins)}"
                ins.append((name, e, level))
                slot_of.append(s)
                per.setdefault(e, []).append(name)
            lines.append(["  " * (level + 1) + f"E{e}: " + " ".join(per[e]) for e in sorted(per)])
        nest_lines = []  # the nest's loops and block lines, written once its dependencies are drawn
        for s, (kind, level) in enumerate(slots):
            if kind in ("pre", "body"):
                rule = outer if level == 0 else inner_rule
                nest_lines.append("  " * level + f"loop {loops[level]} trip {rule} {{")
            nest_lines.append(s)  # the slot's block lines
            if kind in ("post", "body"):
                nest_lines.append("  " * level + "}")
        # The chain between nests.
        if prev_last is not None:
            dep_lines.append(f"dep {prev_last} -> {ins[0][0]}")
        prev_last = ins[-1][0]
        drawn = []  # (pi, ci, s_level, k) of the nest's own dependencies, in the order written
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
            drawn.append((pi, ci, s_level, k))
        # Write the nest (no more random draws: the footprints follow from what was drawn).
        fp = None
        if footprints:
            fp = footprints_of(n, n + 1 < nests, prev_last_level, ins, loops, trips, drawn, buffer_lines)
            prev_last_level = ins[-1][2]
        for x in nest_lines:
            if isinstance(x, str):
                out.append(x)
            elif fp is None:
                out += lines[x]
            else:  # one line per instruction, engine by engine as above: the same program order
                level = slots[x][1]
                out += ["  " * (level + 1) + f"E{ins[i][1]}: {ins[i][0]}{fp[i]}"
                        for i in range(len(ins)) if slot_of[i] == x]
    return "\n".join(out[:2] + buffer_lines + out[2:] + dep_lines) + "\n"


def footprints_of(n, chained, prev_last_level, ins, loops, trips, drawn, buffer_lines):
    """The footprint clauses (" reads ... writes ...") of nest n's instructions, so that the
    dependencies derived from them are exactly the written ones (see the module docstring); the
    buffers they touch are appended to buffer_lines. `chained`: a nest n+1 follows;
    prev_last_level: the level of nest n-1's last instruction (None for the first nest)."""
    reads = [[] for _ in ins]
    writes = [[] for _ in ins]

    def idx(levels, shift_level=None, shift=0):
        return [loops[d] + (f" + {shift}" if d == shift_level and shift else "") for d in levels]

    # The chain from nest n-1: its last instruction wrote one element per instance of c<n>.
    if prev_last_level is not None:
        reads[0].append(f"c{n}[{', '.join([':'] * (prev_last_level + 1))}]")
    for j, (pi, ci, s_level, k) in enumerate(drawn):
        lp = ins[pi][2]
        name = f"d{n}_{j}"
        shape = [trips[d] + (k if d == s_level else 0) for d in range(lp + 1)]
        buffer_lines.append(f"buffer {name} sbuf [{', '.join(map(str, shape))}]")
        # p writes one element per instance, S's index shifted by k; c reads S's row (whole below S).
        writes[pi].append(f"{name}[{', '.join(idx(range(lp + 1), s_level, k))}]")
        reads[ci].append(f"{name}[{', '.join(idx(range(s_level + 1)) + [':'] * (lp - s_level))}]")
    if chained:
        last = len(ins) - 1
        lvl = ins[last][2]
        buffer_lines.append(f"buffer c{n + 1} hbm [{', '.join(str(trips[d]) for d in range(lvl + 1))}]")
        writes[last].append(f"c{n + 1}[{', '.join(idx(range(lvl + 1)))}]")
    needs_input = [i for i in range(len(ins)) if not reads[i] and not writes[i]]
    if needs_input:  # instructions in no dependency: a read of the nest's own input, no conflict
        buffer_lines.append(f"buffer x{n} hbm [{trips[0]}]")
        for i in needs_input:
            reads[i].append(f"x{n}[{loops[0]}]")
    out = []
    for i in range(len(ins)):
        text = ""
        if reads[i]:
            text += " reads " + ", ".join(reads[i])
        if writes[i]:
            text += " writes " + ", ".join(writes[i])
        out.append(text)
    return out


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
    ap.add_argument("--footprints", action="store_true",
                    help="give every instruction footprints (buffers it reads and writes) from which `syncbisim deps` "
                         "derives exactly the written dependencies")
    ap.add_argument("-o", "--output", default="-", help="file to write (default: stdout)")
    a = ap.parse_args()
    if a.nests < 1 or a.engines < 1 or a.depth < 1 or a.instructions < 1 or a.deps < 0 or a.max_offset < 0:
        ap.error("--nests, --engines, --depth and --instructions must be at least 1, --deps and --max-offset at least 0")
    if not all(re.fullmatch(r"[1-9][0-9]*(\.\.[1-9][0-9]*)?", t) for t in (a.outer_trips, a.inner_trips)):
        ap.error("--outer-trips and --inner-trips take N or MIN..MAX, at least 1")
    text = build(a.nests, a.engines, a.depth, a.instructions, a.deps, a.max_offset, a.seed, a.outer_trips, a.inner_trips,
                 a.footprints)
    if a.output == "-":
        sys.stdout.write(text)
    else:
        with open(a.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
