#!/usr/bin/env bash
# The SVG pictures render (rsvg-convert, Debian librsvg2-bin) and hold what they must: a
# simulation's timeline and a counterexample's (docs/timing.md "Pictures").
set -eu
tool=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "svg_render: $*"; exit 1; }
well_formed() { python3 -c "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])" "$1" || fail "$1 is not well-formed XML"; }
render() {
  rsvg-convert "$1" -o "$1.png" || fail "rsvg-convert failed on $1"
  [ "$(stat -c %s "$1.png")" -gt 2000 ] || fail "$1.png is too small to show anything"
}
# a simulation with a stall held by a dependency (Figure 1 barrier-free, unit costs)
"$tool" simulate corpus/figures/fig1_motivating.json corpus/good/fig1_per_loop.impl.sb \
  --costs tests/timing/unit_costs.json --svg "$dir/sim.svg" > /dev/null
well_formed "$dir/sim.svg"; render "$dir/sim.svg"
for want in '>E0</text>' '>E2</text>' 'stalled at a wait' 'marker-end="url(#head)"' '>cycles</text>' 'A=3'; do
  grep -q -- "$want" "$dir/sim.svg" || fail "sim.svg lacks $want"
done
# barriers: shaded spans and dashed releases (Figure 1 with barriers)
"$tool" simulate corpus/figures/fig1_motivating.json corpus/good/fig1_barrier.impl.sb --svg "$dir/bar.svg" > /dev/null
well_formed "$dir/bar.svg"; render "$dir/bar.svg"
grep -q 'stroke-dasharray="5,4"' "$dir/bar.svg" || fail "bar.svg has no dashed barrier line"
grep -q 'barrier (dashed: release)' "$dir/bar.svg" || fail "bar.svg has no barrier legend"
# a counterexample: the parting step and the broken dependency with both sides' numbers
set +e
"$tool" check corpus/figures/fig7_fig8.json corpus/bugs/fig8_nk_off_by_one.sb --svg "$dir/cx.svg" > /dev/null
status=$?
set -e
[ "$status" = 1 ] || fail "check exited $status"
well_formed "$dir/cx.svg"; render "$dir/cx.svg"
for want in 'here the two sides part' 'spec: R(I1) = 0, owed 1' 'impl: s0 = 1, wait s0 &gt;= 1' 'url(#headhl)' 'steps of the trace'; do
  grep -q -- "$want" "$dir/cx.svg" || fail "cx.svg lacks $want"
done
# a kernel's timeline: boxes too narrow for their names are named in the legend under the plot;
# no two arrow labels (white boxes) cover each other
"$tool" allocate corpus/footprints/flash_attention.sb --strategy per-loop --text > "$dir/fa.impl.sb" 2> /dev/null
"$tool" simulate corpus/footprints/flash_attention.sb "$dir/fa.impl.sb" --svg "$dir/fa.svg" > /dev/null 2>&1
well_formed "$dir/fa.svg"; render "$dir/fa.svg"
grep -q 'too narrow to be named inside (hover over a box for its tooltip): DMA0: load_q ×' "$dir/fa.svg" ||
  fail "fa.svg names no narrow box in its legend"
for f in "$dir/fa.svg" "$dir/sim.svg" "$dir/cx.svg"; do
  python3 - "$f" <<'PY' || fail "$f: arrow labels overlap"
import re, sys
rects = [tuple(float(v) for v in m) for m in re.findall(
    r'<rect x="([-0-9.]+)" y="([-0-9.]+)" width="([-0-9.]+)" height="([-0-9.]+)" fill="white" fill-opacity="0\.(?:85|95)"',
    open(sys.argv[1]).read())]
for i, a in enumerate(rects):
    for b in rects[i + 1:]:
        if a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]:
            sys.exit(f"{a} and {b}")
PY
done
# a bisimilar pair: nothing to draw, no file, said on stderr
"$tool" check corpus/figures/fig1_motivating.json corpus/good/fig1_per_loop.impl.sb --svg "$dir/none.svg" 2> "$dir/err" > /dev/null
[ ! -e "$dir/none.svg" ] || fail "a bisimilar pair drew a picture"
grep -q 'no violation' "$dir/err" || fail "no word on stderr for a bisimilar pair"
echo "svg_render: ok"
