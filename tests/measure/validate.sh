#!/usr/bin/env bash
# validate.sh TLOP — `tlop validate` on made-up data with an analytic platform, so every
# number is known: the per-size errors, the mean relative and proportional errors, the
# CSV/JSON forms, --bench/--procs/--stat, --max-error, --plot with and without gnuplot,
# and file:line diagnostics for a malformed benchmark file.
set -uo pipefail
tlop=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat > "$work/toy.tlop" <<'TLOP'
platform toy { channel shm { L(m, τ) = 1 us; o(m) = 0 us; } }
algorithm two(m: size) = 2 * L(m, 1);          # 2 µs whatever the size
algorithm four(m: size, P: count) = P * 2 * L(m, 1);
TLOP
cat > "$work/imb.txt" <<'IMB'
# Benchmarking PingPong
# #processes = 2
       #bytes #repetitions      t[usec]   Mbytes/sec
            1         1000         1.00         1.00
            2         1000         2.00         1.00
            4         1000         4.00         1.00

# Benchmarking Bcast
# #processes = 2
       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]
            8         1000         1.00         4.00         2.00
IMB

# errors +100 %, 0 %, −50 %: mean relative 50 %, mean proportional (2 + 1 + 2)/3
out=$("$tlop" validate "$work/toy.tlop" two --measured "$work/imb.txt" --bench PingPong -f csv) ||
  fail "validate csv"
expected="bytes,measured,two,two_rel_error
1,1e-06,2e-06,1
2,2e-06,2e-06,0
4,4e-06,2e-06,-0.5
mean_relative_error,,,0.5
mean_proportional_error,,,1.66667"
[ "$out" = "$expected" ] || fail "csv: $out"
"$tlop" validate "$work/toy.tlop" two four --measured "$work/imb.txt" --bench pingpong \
  -f json > "$work/v.json" || fail "json"
grep -q '"name": "four", "mean_relative_error": 1.33333333,' "$work/v.json" || fail "P from #processes: $(cat "$work/v.json")"
"$tlop" validate "$work/toy.tlop" two --measured "$work/imb.txt" --bench PingPong > "$work/t.txt" ||
  fail "table"
grep -q "mean relative error *50.0%" "$work/t.txt" || fail "table: $(cat "$work/t.txt")"
grep -q "one-way time" "$work/t.txt" || fail "PingPong is not said to be one way"

# --max-error: a gate
"$tlop" validate "$work/toy.tlop" two --measured "$work/imb.txt" --bench PingPong --max-error 40% \
  > /dev/null 2> "$work/err" && fail "--max-error 40% passed"
grep -q "exceeds --max-error" "$work/err" || fail "no message: $(cat "$work/err")"
"$tlop" validate "$work/toy.tlop" two --measured "$work/imb.txt" --bench PingPong --max-error 0.6 \
  > /dev/null || fail "--max-error 0.6 failed"

# two benchmarks in the file: the choice is the user's
"$tlop" validate "$work/toy.tlop" two --measured "$work/imb.txt" > /dev/null 2> "$work/err"
[ $? = 2 ] || fail "ambiguous file: not exit 2"
grep -q "Bcast (IMB, 2 processes" "$work/err" || fail "the choices are not listed: $(cat "$work/err")"
# --stat picks t_max / t_min
v=$("$tlop" validate "$work/toy.tlop" two --measured "$work/imb.txt" --bench Bcast --stat max -f csv |
    sed -n 2p)
[ "$v" = "8,4e-06,2e-06,-0.5" ] || fail "--stat max: $v"
"$tlop" validate "$work/toy.tlop" two --measured "$work/imb.txt" --bench PingPong --stat max \
  > /dev/null 2>&1
[ $? = 2 ] || fail "--stat max of PingPong (no t_max) is not refused"

# a malformed file: file:line
printf '#bytes #repetitions t[usec] x\n1 1 oops 1\n' > "$work/bad.txt"
"$tlop" validate "$work/toy.tlop" two --measured "$work/bad.txt" 2> "$work/err" > /dev/null
[ $? = 1 ] || fail "malformed file: not exit 1"
grep -q "bad.txt:2: error: 'oops' is not a finite decimal number" "$work/err" ||
  fail "diagnostic: $(cat "$work/err")"

# --plot: a figure with gnuplot; without it, a clear message and exit 1
if command -v gnuplot > /dev/null; then
  "$tlop" validate "$work/toy.tlop" two --measured "$work/imb.txt" --bench PingPong \
    --plot "$work/f.svg" > /dev/null || fail "--plot"
  grep -q "<svg" "$work/f.svg" && grep -q "mean rel. error 50.0%" "$work/f.svg" ||
    fail "the figure has no svg or no legend"
fi
mkdir "$work/bin"
ln -s "$(command -v bash)" "$work/bin/bash"
PATH=$work/bin "$tlop" validate "$work/toy.tlop" two --measured "$work/imb.txt" --bench PingPong \
  --plot "$work/g.svg" > "$work/t.txt" 2> "$work/err"
[ $? = 1 ] || fail "--plot without gnuplot: not exit 1"
grep -q "needs gnuplot" "$work/err" || fail "no message about gnuplot: $(cat "$work/err")"
grep -q "mean relative error" "$work/t.txt" || fail "the table is not printed without gnuplot"
[ ! -e "$work/g.svg" ] || fail "a figure appeared without gnuplot"
echo "1 passed, 0 failed"
