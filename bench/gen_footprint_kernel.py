#!/usr/bin/env python3
"""Writes a spec with footprints (text format) of N sequential loop nests, for bench_deps.sh.

Each nest is a tiled matmul-like pipeline over its own rotating tiles (docs/footprints.md):
  loop mN trip 1..4 {
    loop kN trip 1..3 {
      DMA: load_a reads A[...] writes ta[kN mod 2, ...]     (two slots, reused across kN's restart)
      DMA: load_b ...                      PE: mm reads ta, tb accumulates acc[...]
    }
    ACT: evac reads acc writes st[mN mod 2, ...]   DVE: scale (in place)   DMA: store reads st writes OUT[...]
  }
and nest n also reads what nest n-1 stored (a chain through HBM). Buffers: the nests share a
pool of `--buffers` buffers round robin, each nest in slots of its own (as an allocator places
tiles), so one buffer is touched by many nests (11 instructions a nest, 100 buffers for 1,000
nests by default). `--shared-slots` makes every nest of a group reuse the same slots instead:
then every pair of those nests conflicts, and the derived graph grows with the square of the nests.
"""
import argparse


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nests", type=int, default=100)
    ap.add_argument("--buffers", type=int, default=100, help="buffers in the pool (at least 8)")
    ap.add_argument("--shared-slots", action="store_true", help="nests of a group reuse the same tile slots")
    a = ap.parse_args()
    pool = max(8, a.buffers)
    out = ["syncbisim spec/1", "engines DMA PE ACT DVE"]
    # The pool: groups of 8 buffers (input A, B, tiles ta, tb, psum acc, staging st, out O, tmp).
    groups = pool // 8
    per = 1 if a.shared_slots else (a.nests + groups - 1) // groups  # slot pairs per buffer
    for g in range(groups):
        out += [f"buffer A{g} hbm [{4 * 128 * a.nests // groups + 512}, 128]",
                f"buffer B{g} hbm [3, 128, 128]",
                f"buffer ta{g} sbuf [{2 * per}, 128, 128]",
                f"buffer tb{g} sbuf [{2 * per}, 128, 128]",
                f"buffer acc{g} psum [{2 * per}, 128]",
                f"buffer st{g} sbuf [{2 * per}, 128]",
                f"buffer O{g} hbm [{4 * a.nests // groups + 8}, 128]",
                f"buffer tmp{g} sbuf [{2 * per}, 128]"]
    for n in range(a.nests):
        g = n % groups
        base = (n // groups) * 4  # this nest's rows in its group's A and O
        slot = 0 if a.shared_slots else 2 * (n // groups)  # this nest's first slot in the group's tiles
        m, k = f"m{n}", f"k{n}"
        out.append(f"loop {m} trip 1..4 {{")
        out.append(f"  loop {k} trip 1..3 {{")
        out.append(f"    DMA: la{n} reads A{g}[({base} + {m})*128 : ({base} + {m})*128 + 128, :] writes ta{g}[{slot} + {k} mod 2, :, :]")
        out.append(f"    DMA: lb{n} reads B{g}[{k}, :, :] writes tb{g}[{slot} + {k} mod 2, :, :]")
        out.append(f"    PE: mm{n} reads ta{g}[{slot} + {k} mod 2, :, :], tb{g}[{slot} + {k} mod 2, :, :] accumulates acc{g}[{slot} + {m} mod 2, :]")
        out.append("  }")
        out.append(f"  ACT: ev{n} reads acc{g}[{slot} + {m} mod 2, :] writes st{g}[{slot} + {m} mod 2, :]")
        out.append(f"  DVE: sc{n} reads st{g}[{slot} + {m} mod 2, :] writes st{g}[{slot} + {m} mod 2, :]")
        out.append(f"  ACT: bi{n} reads st{g}[{slot} + {m} mod 2, :] writes st{g}[{slot} + {m} mod 2, :]")
        if n > 0:
            pg = (n - 1) % groups
            pbase = ((n - 1) // groups) * 4
            out.append(f"  DVE: rd{n} reads O{pg}[{pbase} + {m}, :] writes tmp{g}[{slot} + {m} mod 2, :]")
            out.append(f"  ACT: ad{n} reads tmp{g}[{slot} + {m} mod 2, :], st{g}[{slot} + {m} mod 2, :] writes st{g}[{slot} + {m} mod 2, :]")
        out.append(f"  DMA: so{n} reads st{g}[{slot} + {m} mod 2, :] writes O{g}[{base} + {m}, :]")
        out.append(f"  ACT: cl{n} writes acc{g}[{slot} + {m} mod 2, :]")
        out.append("}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
