#!/usr/bin/env bash
# lusitania.sh TLOP ROOT — issue 8's example on a measured machine: `tlop best` over the
# MPICH broadcasts with lusitania's shared-memory table (../shared/params), every export
# format written, linted and read back at all 175 grid points, and the decisions the
# τ-Lop papers lead one to expect: the binomial tree for small messages at every P, the
# scatter-ring allgather for 16 MiB on 128 processes. Skipped (77) without ../shared.
set -uo pipefail
tlop=$1 root=$2
table=$root/../shared/params/lusitania/SHM.txt
[ -f "$table" ] || { echo "skipped: no $table"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

for fmt in ompi-json ompi-rules ompi-rules-v1 mpich-json impi; do
  "$tlop" best "$root/stdlib/mpich/bcast.tlop" --collective bcast --params "$table" \
    --grid m=1..16MiB:*2 --grid P=2..128:*2 --refine --emit $fmt -o "$work/bcast.$fmt" \
    > "$work/table" 2> "$work/err" || { cat "$work/err"; fail "tlop best --emit $fmt"; }
  grep -q "linted and read back: same winner at all 175 points" "$work/err" ||
    fail "$fmt: not read back at every point: $(grep -v '^warning' "$work/err")"
  "$tlop" lint --format $fmt "$work/bcast.$fmt" > /dev/null || fail "tlop lint rejects its own $fmt file"
done
cat "$work/table"
# the first run of every P is the binomial tree, from 1 B
[ "$(grep -c '^ *[0-9]\+ \+1 B .*bcast_binomial' "$work/table")" = 7 ] ||
  fail "the binomial tree does not win the smallest messages at every P"
# P = 128's last run (to the end of the grid) is the scatter-ring allgather
awk '$1 == 128 { p = 1 } p && /…/ { print; exit }' "$work/table" | grep -q bcast_scatter_ring ||
  fail "at P = 128 the largest messages do not go to bcast_scatter_ring"
echo "ok: lusitania, 5 formats written, linted and read back; binomial small, scatter-ring large"
