#!/usr/bin/env bash
# interrupt.sh TLOP — Ctrl-C on `tlop measure -o FILE` leaves no file behind (neither the
# table, its JSON, nor a temporary), and exits 130; τ beyond the cores is refused (exit 2)
# without measuring. Never oversubscribes.
set -uo pipefail
tlop=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# a run long enough to be interrupted: every cell sampled 100000 times
"$tlop" measure --max-tau 1 --sizes 1,64 --reps 100000 -o "$work/t.txt" --no-progress &
pid=$!
sleep 0.5
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || fail "interrupted measure exited $rc, not 130"
left=$(ls -A "$work")
[ -z "$left" ] || fail "left behind: $left"

cores=$(nproc)
"$tlop" measure --max-tau $((cores + 1)) --sizes 1 -o "$work/t.txt" 2> "$work/err"
rc=$?
[ $rc = 2 ] || fail "τ beyond the cores: exit $rc, not 2"
grep -q -- "--oversubscribe" "$work/err" || fail "the refusal does not name --oversubscribe"
[ ! -e "$work/t.txt" ] || fail "a refused run wrote a table"

# a complete run: the table, its sidecar, nothing else
"$tlop" measure --max-tau 1 --sizes 1,8KiB,16KiB --reps 5 --min-time 0.2ms -o "$work/t.txt" \
  --no-progress || fail "measure"
[ "$(ls -A "$work" | grep -v err | tr '\n' ' ')" = "t.txt t.txt.json " ] ||
  fail "files: $(ls -A "$work")"
grep -q '"cpu_model"' "$work/t.txt.json" || fail "no machine in the sidecar"
head -3 "$work/t.txt" | grep -q "^#tau	1$" || fail "header: $(head -3 "$work/t.txt")"
echo "1 passed, 0 failed"
