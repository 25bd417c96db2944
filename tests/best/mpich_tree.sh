# mpich_tree.sh — what real_mpich.sh and mpich_obey.sh share, sourced as
#   . mpich_tree.sh TLOP ROOT PROGRAM COLLECTIVES
# skips (77) without Debian's MPICH (mpicc.mpich, mpirun.mpich, mpiexec.mpich); sets tlop,
# here (tests/best), work (a directory removed at exit), skip and fail; builds
# tests/best/PROGRAM.c as $work/PROGRAM; and writes to $work/tree.json the MPICH tree that
# `tlop best` decides for COLLECTIVES of tests/best/real.tlop at P = 2, 3, 4 (refined).
set -uo pipefail
tlop=$1 here=$2/tests/best

skip() { echo "skipped: $*"; exit 77; }
for t in mpicc.mpich mpirun.mpich mpiexec.mpich; do command -v $t >/dev/null || skip "no $t"; done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

mpicc.mpich -O2 -o "$work/$3" "$here/$3.c" || fail "cannot build $3.c"
"$tlop" best "$here/real.tlop" --collective "$4" --grid m=1..1MiB:*4 --grid P=2,3,4 --refine \
  --emit mpich-json -o "$work/tree.json" > "$work/best.out" 2>&1 ||
  { cat "$work/best.out"; fail "tlop best --emit mpich-json"; }
