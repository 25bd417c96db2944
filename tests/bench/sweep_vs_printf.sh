#!/bin/sh
# sweep_vs_printf.sh BUILD ROOT [TABLE] — `tlop sweep` end to end against the hand-written
# C that prints with printf("%.17g") (hand_sweep.c), in one run, as ratios (README.md here):
#  1. MPICH's four building blocks over 322 000 points (P = 2..1024 ×2, m = 1..32200 B) to
#     CSV: wall and CPU (user + system) of tlop -j 1, tlop -j 2 and the hand C, medians of 3,
#     and whether every number of tlop's CSV is the hand C's (the same doubles);
#  2. 10^7 points of bcast_binomial to CSV: wall, CPU and peak memory with -j 1 and -j 2;
#  3. the fixed cost of a process: a 1-point sweep (interpreted) and one compiled (--engine
#     jit, the object in the cache).
# Wall-time ratios mean something only on a quiet machine: the load average is printed.
set -eu
build=$1 root=$2
table=${3:-$root/../shared/params/lusitania/SHM.txt}
[ -f "$table" ] || { echo "skipped: no table $table"; exit 77; }
tlop=$build/tlop hand=$build/tests/bench/tlop_hand_sweep
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# "wall cpu maxrss_kib" of a command, its output to $tmp/out
timed() {
  /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$@" > "$tmp/out"
  awk '{ printf "%s %.3f %s\n", $1, $2 + $3, $4 }' "$tmp/time"
}
# the median of three runs of a command (by wall), as timed prints it
median3() {
  for i in 1 2 3; do timed "$@"; done | sort -n | sed -n 2p
}

algos="bcast_binomial scatter_binomial allgather_rda allgather_ring"
sweep="$tlop sweep $root/stdlib/mpich/bcast.tlop $algos --grid P=2..1024:*2 --grid m=1..32200:+1
       --params $table --no-progress"
echo "machine: $(uname -m), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
$sweep -o /dev/null 2>/dev/null || true # the JIT's cache warm, as for a user's second run
hand_t=$(median3 "$hand" "$table" 2 1024 2 1 32200 1)
cp "$tmp/out" "$tmp/hand.csv"
j1_t=$(median3 $sweep -j 1)
j2_t=$(median3 $sweep -j 2)
cp "$tmp/out" "$tmp/tlop.csv"
echo "322 000 points, 4 algorithms, CSV   wall s  cpu s  peak KiB"
echo "  hand C, printf %.17g              $hand_t"
echo "  tlop sweep -j 1                   $j1_t"
echo "  tlop sweep -j 2                   $j2_t"
echo "$hand_t $j1_t $j2_t" | awk '{ printf "  ratios to the hand C: -j 1 wall %.2f cpu %.2f; -j 2 wall %.2f cpu %.2f\n",
  $4 / $1, $5 / $2, $7 / $1, $8 / $2 }'
python3 - "$tmp/hand.csv" "$tmp/tlop.csv" <<'EOF'
import sys
hand, tlop = (open(p).read().split("\n") for p in sys.argv[1:3])
assert hand[0] == tlop[0] and len(hand) == len(tlop), "not the same rows"
same = sum(float(a) == float(b) for h, t in zip(hand[1:], tlop[1:]) if h
           for a, b in zip(h.split(","), t.split(",")))
total = sum(len(h.split(",")) for h in hand[1:] if h)
print(f"  the same doubles: {same} of {total} numbers")
EOF

big="$tlop sweep $root/stdlib/mpich/bcast.tlop bcast_binomial --grid P=2..1001:+1
     --grid m=1..10000:+1 --params $table --no-progress"
# to standard output, as above: the shell empties the last run's 300 MB before the clock
# starts (an -o FILE over it: the kernel frees its pages inside the timed open, ≈ 0.05 s)
b1=$(median3 $big -j 1 2>/dev/null)
b2=$(median3 $big -j 2 2>/dev/null)
echo "10^7 points, bcast_binomial, CSV    wall s  cpu s  peak KiB"
echo "  tlop sweep -j 1                   $b1"
echo "  tlop sweep -j 2                   $b2"
echo "$b1 $b2" | awk '{ printf "  -j 2 speed-up: %.2f (wall)\n", $1 / $4 }'
one="$tlop sweep $root/stdlib/mpich/bcast.tlop bcast_binomial --grid P=8 --grid m=1024
     --params $table --no-progress"
$one --engine jit >/dev/null # its object in the cache
echo "1 point, bcast_binomial             wall s  cpu s  peak KiB"
echo "  interpreted                       $(median3 $one)"
echo "  compiled (cache hit)              $(median3 $one --engine jit)"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
