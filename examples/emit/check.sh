#!/usr/bin/env bash
# check.sh TLOP EXAMPLE BAKED SOURCE_DIR — the test of the emit examples: each prints the
# same CSV, to the bit, as `tlop sweep` evaluating the same grid with the interpreter.
set -euo pipefail
tlop=$1 example=$2 baked=$3 src=$4
table=$src/examples/emit/shm.txt
expected=$("$tlop" sweep "$src/stdlib/mpich/bcast.tlop" bcast_binomial allgather_rda \
  --grid m=1KiB..4MiB:*4 --grid P=2..64:*2 --params "$table" --engine interp 2>/dev/null)
[ "$(echo "$expected" | wc -l)" -eq 43 ] || { echo "unexpected sweep output"; exit 1; }
# the same doubles: tlop writes the shortest text that reads back, the examples %.17g
same_numbers() {
  paste -d'|' <(echo "$expected") - | awk -F'|' '{
    n = split($1, a, ","); if (split($2, b, ",") != n) { print "row " NR ": " $0; exit 1 }
    for (i = 1; i <= n; i++) if (a[i] != b[i] && a[i] + 0 != b[i] + 0) { print "row " NR ": " $0; exit 1 }
  } END { if (NR != 43) { print NR " rows"; exit 1 } }'
}
"$example" "$table" | same_numbers
"$baked" | same_numbers
echo "emit examples: 42 points, 2 algorithms, runtime and baked tables: identical to the interpreter"
