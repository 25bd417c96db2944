#!/bin/bash
# A 50 MB model of 676 000 small `fn`s: `tlop check` within a memory bound and a CPU-time
# bound, both generous (905 MiB and 7.5 s of CPU here; 1.2 GiB before the syntax tree's
# nodes took only their kind's room and the arena its chunks from fresh mappings). CPU
# time, not wall time: the machine is shared.
# Usage: big_model.sh TLOP TLOP_LIMIT
set -u
tlop=$1 limit=$2
max_rss_mib=1100 max_cpu_s=40
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
awk 'BEGIN { for (i = 0; i < 676000; i++)
  printf "fn f%d(m: size, P: count) = 2 * m + %d * m * P - m * log2(P) + 1;\n", i, i }' \
  >"$dir/big.tlop"
TIMEFORMAT='%U %S'
{ time "$limit" "$dir/measure" 120 "$tlop" check "$dir/big.tlop" >"$dir/out" 2>"$dir/err"; } \
  2>"$dir/cpu"
read -r _wall rss how code <"$dir/measure"
read -r user sys <"$dir/cpu"
cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", u + s }')
echo "check of $(wc -c <"$dir/big.tlop") bytes: $((rss / 1024)) MiB, ${cpu} s of CPU ($how $code)"
fail=0
if [ "$how $code" != "exit 0" ] || [ -s "$dir/err" ]; then
  echo "expected exit 0 and no message, got $how $code:"; head -5 "$dir/err"; fail=1
fi
if [ $((rss / 1024)) -gt $max_rss_mib ]; then
  echo "peak RSS over $max_rss_mib MiB"; fail=1
fi
if awk -v c="$cpu" -v m="$max_cpu_s" 'BEGIN { exit !(c > m) }'; then
  echo "CPU time over $max_cpu_s s"; fail=1
fi
[ $fail = 0 ] && echo "1 passed, 0 failed"
exit $fail
