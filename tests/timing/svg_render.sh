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
# a bisimilar pair: nothing to draw, no file, said on stderr
"$tool" check corpus/figures/fig1_motivating.json corpus/good/fig1_per_loop.impl.sb --svg "$dir/none.svg" 2> "$dir/err" > /dev/null
[ ! -e "$dir/none.svg" ] || fail "a bisimilar pair drew a picture"
grep -q 'no violation' "$dir/err" || fail "no word on stderr for a bisimilar pair"
echo "svg_render: ok"
