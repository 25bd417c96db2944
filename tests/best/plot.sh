#!/usr/bin/env bash
# plot.sh TLOP ROOT — `tlop plot` draws each kind of figure through gnuplot: the costs
# against m (SVG and PNG) and the best-algorithm map (SVG). Each SVG must be whole (XML
# header, closing tag), hold one plot series per algorithm (gnuplot's gnuplot_plot_N groups)
# with each algorithm's name in the legend, and the map must show the crossover that
# `tlop best` finds on tests/best/reader.tlop (both algorithms win somewhere). The PNG must
# be a PNG. Bad requests fail with a message. Skipped (77) without gnuplot.
set -uo pipefail
tlop=$1 root=$2
model=$root/tests/best/reader.tlop
command -v gnuplot >/dev/null || { echo "skipped: no gnuplot"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

svg_ok() { # FILE NSERIES NAME...: a whole SVG with NSERIES series and these names
  local f=$1 n=$2
  shift 2
  head -c 200 "$f" | grep -q '^<?xml' || fail "$f does not start as XML"
  tail -c 100 "$f" | grep -q '</svg>' || fail "$f is cut short (no </svg>)"
  local got
  got=$(grep -o 'id="gnuplot_plot_[0-9]*"' "$f" | sort -u | wc -l)
  [ "$got" = "$n" ] || fail "$f has $got series, not $n"
  for name in "$@"; do grep -q ">$name<" "$f" || fail "$f has no legend entry $name"; done
}

"$tlop" plot "$model" bcast_binomial bcast_scatter_rda bcast_scatter_ring --grid m=1KiB..1MiB:*2 \
  --set P=2 -o "$work/costs.svg" || fail "tlop plot (costs, svg)"
svg_ok "$work/costs.svg" 3 bcast_binomial bcast_scatter_rda bcast_scatter_ring
grep -q "cost (µs)\|cost (ms)" "$work/costs.svg" || fail "the cost axis names no time unit"
grep -q ">1 KiB<" "$work/costs.svg" || fail "the size axis is not labelled in binary units"
# the title names the algorithms, and below them the platform and the values of --set
grep -q ">bcast_binomial, bcast_scatter_rda, bcast_scatter_ring<" "$work/costs.svg" ||
  fail "the title does not name the algorithms"
grep -q ">on square; P=2<" "$work/costs.svg" || fail "the subtitle names no platform or --set"
echo "ok: costs figure (svg), 3 series"

# 2^0 .. 2^19 takes every second power of two: the last one, 512 KiB, is labelled too
"$tlop" plot "$model" bcast_binomial --grid m=1..512KiB:*2 --set P=2 -o "$work/ticks.svg" ||
  fail "tlop plot (ticks)"
grep -q ">512 KiB<" "$work/ticks.svg" || fail "the last x tick (512 KiB) is not labelled"
echo "ok: the last x tick is labelled"

"$tlop" plot "$model" bcast_binomial bcast_scatter_rda --grid m=1KiB..1MiB:*2 --set P=2 \
  -o "$work/costs.png" || fail "tlop plot (costs, png)"
[ "$(head -c 8 "$work/costs.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
  fail "costs.png is not a PNG"
echo "ok: costs figure (png)"

"$tlop" plot "$model" bcast_binomial bcast_scatter_rda --map --grid P=2,4 --grid m=1KiB..1MiB:*2 \
  -o "$work/map.svg" || fail "tlop plot --map"
svg_ok "$work/map.svg" 2 bcast_binomial bcast_scatter_rda
# each series draws its points as <use> marks, one of them the legend's sample: both
# algorithms must win somewhere, so each has more than that one
for n in 1 2; do
  marks=$(awk -v id="id=\"gnuplot_plot_$n\"" 'index($0, "id=\"gnuplot_plot_") { on = index($0, id) > 0 }
                                              on && /<use/ { k++ } END { print k + 0 }' "$work/map.svg")
  [ "$marks" -gt 1 ] || fail "series $n of the map has no points ($marks marks)"
done
echo "ok: best-algorithm map (svg), 2 series"

# at P = 2 bcast_scatter_ring costs what bcast_scatter_rda does, and is listed after it:
# it wins nowhere, so the legend leaves it out
"$tlop" plot "$model" bcast_binomial bcast_scatter_rda bcast_scatter_ring --map --grid P=2 \
  --grid m=1KiB..1MiB:*2 -o "$work/map3.svg" || fail "tlop plot --map (3 algorithms)"
svg_ok "$work/map3.svg" 2 bcast_binomial bcast_scatter_rda
grep -q ">bcast_scatter_ring<" "$work/map3.svg" && fail "the map's legend lists bcast_scatter_ring, which wins nowhere"
echo "ok: the map's legend lists only algorithms that win somewhere"

# allgather_rda refuses P = 12 (not a power of two): the map skips it at those points with
# a note, and allgather_ring takes them
"$tlop" plot "$root/stdlib/mpich/bcast.tlop" allgather_ring allgather_rda --map --grid P=8,12 \
  --grid m=1KiB,1MiB --set map=round_robin -o "$work/nodes.svg" 2> "$work/err" ||
  fail "tlop plot --map with map and a refused point"
grep -q "allgather_rda left out at 2 of 4 grid points: log2 of 0" "$work/err" ||
  fail "the refused points were not noted"
svg_ok "$work/nodes.svg" 2 allgather_ring allgather_rda
echo "ok: the map skips a refused algorithm where it refuses"
# a line per node count (--grid M=1,2), round robin: best_one_node.tlop's candidate takes
# no node count, so at M = 2 it is left out rather than priced on one node
"$tlop" plot "$root/tests/golden/best/best_one_node.tlop" allgather_ring_ompi allgather_linear_one_node \
  --grid m=1KiB..4KiB:*2 --grid M=1,2 --set P=8,map=round_robin -o "$work/nodes2.svg" 2> "$work/err" ||
  fail "tlop plot with --grid M=1,2"
grep -q "allgather_linear_one_node left out at 3 of 6 grid points: it takes no node count M" "$work/err" ||
  fail "the candidate without M was not refused at M = 2: $(cat "$work/err")"
svg_ok "$work/nodes2.svg" 4 "allgather_ring_ompi, M = 1" "allgather_linear_one_node, M = 1" "allgather_ring_ompi, M = 2"
echo "ok: a line per node count; on 2 nodes a candidate without M is left out"

"$tlop" plot "$model" bcast_binomial --grid m=1KiB..4KiB:*2 --set P=2 -o "$work/fig.pdf" 2> "$work/err"
[ $? = 1 ] && grep -q "must end in .svg or .png" "$work/err" || fail "a .pdf figure was not refused"
"$tlop" plot "$model" bcast_binomial --map --grid m=1KiB..4KiB:*2 -o "$work/m.svg" 2> "$work/err"
[ $? = 2 ] || fail "--map without a P axis was not a usage error"
echo "ok: bad requests refused"
