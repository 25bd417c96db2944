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
# each line's points are marked, with characters that the SVG holds as text (gnuplot's own
# point symbols are <use> references, which some viewers leave out): a □ at each of the
# 11 sizes of the first line, a ■ at each of the second's, beside the legend's samples
for mark in □ ■; do
  [ "$(grep -o "$mark" "$work/costs.svg" | wc -l)" -ge 12 ] || fail "costs.svg lacks the marks $mark"
done
grep -q "<use xlink:href='#gpPt[0-9]*' transform" "$work/costs.svg" &&
  fail "costs.svg marks points with <use> references"
echo "ok: costs figure (svg), 3 series, marked points"

# 2^0 .. 2^19 takes every second power of two: the last one, 512 KiB, is labelled too
"$tlop" plot "$model" bcast_binomial --grid m=1..512KiB:*2 --set P=2 -o "$work/ticks.svg" ||
  fail "tlop plot (ticks)"
grep -q ">512 KiB<" "$work/ticks.svg" || fail "the last x tick (512 KiB) is not labelled"
echo "ok: the last x tick is labelled"

"$tlop" plot "$model" bcast_binomial bcast_scatter_rda --grid m=1KiB..1MiB:*2 --set P=2 \
  -o "$work/costs.png" || fail "tlop plot (costs, png)"
png_ok() { # FILE: a PNG (its signature), of 900 × 600 pixels (its IHDR)
  [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$1 is not a PNG"
  [ "$(od -An -j16 -N8 -tu1 "$1" | tr -s ' ' | sed 's/^ //')" = "0 0 3 132 0 0 2 88" ] ||
    fail "$1 is not 900 × 600"
}
png_ok "$work/costs.png"
echo "ok: costs figure (png)"

"$tlop" plot "$model" bcast_binomial bcast_scatter_rda --map --grid P=2,4 --grid m=1KiB..1MiB:*2 \
  -o "$work/map.svg" || fail "tlop plot --map"
svg_ok "$work/map.svg" 2 bcast_binomial bcast_scatter_rda
# each series fills its algorithm's region with polygons, the first the legend's sample:
# both algorithms win somewhere, so each has more; together they fill the plot, a
# rectangle (filled regions, not marks at the grid points)
map_ok() { # FILE NSERIES
  awk -v n="$2" '
    index($0, "id=\"gnuplot_plot_") { series++; first = 1 }
    series && /<polygon fill/ {
      if (first) { first = 0; next }  # the legend sample
      polys[series]++
      split($0, q, "points = \x27"); split(q[2], xy, "[ ,\x27]+")
      x0 = x1 = xy[1]; y0 = y1 = xy[2]
      for (i = 3; i < 9; i += 2) { x0 = xy[i] < x0 ? xy[i] : x0; x1 = xy[i] > x1 ? xy[i] : x1 }
      for (i = 4; i < 9; i += 2) { y0 = xy[i] < y0 ? xy[i] : y0; y1 = xy[i] > y1 ? xy[i] : y1 }
      area += (x1 - x0) * (y1 - y0)
      X0 = !seen || x0 < X0 ? x0 : X0; X1 = !seen || x1 > X1 ? x1 : X1
      Y0 = !seen || y0 < Y0 ? y0 : Y0; Y1 = !seen || y1 > Y1 ? y1 : Y1; seen = 1
    }
    END {
      for (s = 1; s <= n; s++) if (polys[s] < 1) { print "series " s " fills nothing"; exit 1 }
      box = (X1 - X0) * (Y1 - Y0)
      if (!(box > 0) || area < 0.99 * box || area > 1.01 * box) {
        print "the regions cover " area " of the plot'"'"'s " box; exit 1 }
    }' "$1" || fail "$1: the map is not filled regions"
  grep -q "<use xlink:href='#gpPt[0-9]*' transform" "$1" && fail "$1 marks grid points"
}
map_ok "$work/map.svg" 2
echo "ok: best-algorithm map (svg), 2 series, filled regions"
# the legend outside leaves the map two thirds of the width: 6 of the 11 sizes labelled, so
# that labels do not run into each other, the last (1 MiB) among them
labels=$(grep -o '>[0-9]* [KM]iB<' "$work/map.svg" | sort -u | wc -l)
[ "$labels" -le 7 ] && grep -q '>1 MiB<' "$work/map.svg" ||
  fail "the map labels $labels sizes along m (at most 7 fit), or not the last"
echo "ok: the map's size labels fit its width"
"$tlop" plot "$model" bcast_binomial bcast_scatter_rda --map --grid P=2,4 --grid m=1KiB..1MiB:*2 \
  -o "$work/map.png" || fail "tlop plot --map (png)"
png_ok "$work/map.png"
echo "ok: best-algorithm map (png)"

# at P = 2 bcast_scatter_ring costs what bcast_scatter_rda does, and is listed after it:
# it wins nowhere, so the legend leaves it out
"$tlop" plot "$model" bcast_binomial bcast_scatter_rda bcast_scatter_ring --map --grid P=2 \
  --grid m=1KiB..1MiB:*2 -o "$work/map3.svg" || fail "tlop plot --map (3 algorithms)"
svg_ok "$work/map3.svg" 2 bcast_binomial bcast_scatter_rda
map_ok "$work/map3.svg" 2
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
