#!/usr/bin/env python3
"""Writes a spec (text format) with one long straight-line block per engine, for bench_long_block.sh.

Shapes (all deterministic):
  chain   E engines, N instructions each, instruction j of engine e depends on instruction j of
          engine e-1 (a chain across engines), at the top level.
  many    like chain, plus every instruction of the last engine depends on the D instructions
          before it on every other engine (many dependencies per consumer).
  loop    the block sits inside `loop A trip 3`; each chain dependency alternates distance A=0
          and A=1 (same iteration and carried), and the first engine's block follows a small
          nested loop B so that nested-forward producers appear too.
"""
import argparse
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shape", choices=["chain", "many", "loop"], default="chain")
    ap.add_argument("--instrs", type=int, default=16000, help="instructions per engine")
    ap.add_argument("--engines", type=int, default=2)
    ap.add_argument("--deps-per", type=int, default=3, help="'many': producers per consumer and engine")
    a = ap.parse_args()
    n, ne = a.instrs, a.engines
    out = ["syncbisim spec/1", "engines " + " ".join(f"E{e}" for e in range(ne))]
    name = lambda e, j: f"I{e}_{j}"
    indent = ""
    if a.shape == "loop":
        out.append("loop A trip 3 {")
        indent = "  "
        out.append(indent + "loop B trip 2 {")
        out.append(indent + "  E0: B0")
        out.append(indent + "}")
    for e in range(ne):
        out.append(indent + f"E{e}: " + " ".join(name(e, j) for j in range(n)))
    if a.shape == "loop":
        out.append("}")
    for e in range(1, ne):
        for j in range(n):
            dist = f" distance A={j % 2}" if a.shape == "loop" else ""
            out.append(f"dep {name(e - 1, j)} -> {name(e, j)}{dist}")
    if a.shape == "loop":
        out.append(f"dep B0 -> {name(ne - 1, 0)}")
    if a.shape == "many":
        last = ne - 1
        for j in range(n):
            for e in range(last):
                for d in range(1, a.deps_per + 1):
                    if j - d >= 0:
                        out.append(f"dep {name(e, j - d)} -> {name(last, j)}")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
