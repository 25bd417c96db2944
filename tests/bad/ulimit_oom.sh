#!/bin/sh
# Under a bound of the address space (ulimit -v) smaller than --max-memory's, running out
# of memory names that bound: "--max-memory" there sent the user to the wrong knob. The
# axis of 4·10^7 values (320 MB) cannot fit; a sweep streams the rest, and the command
# links LLVM statically (no 100 MB libLLVM mapping), so 10^7 points now fit in 300 MB.
# Usage: ulimit_oom.sh TLOP SOURCE_DIR
tlop=$1 src=$2
err=$( (ulimit -v 300000 && exec "$tlop" sweep "$src/tests/bad/eval/ev.tlop" flat \
  --grid m=1..4e7:+1 --set P=4) 2>&1 >/dev/null)
status=$?
expected="tlop: out of memory: more than 300000 KiB (the address space's limit, ulimit -v)"
if [ "$status" != 1 ] || [ "$err" != "$expected" ]; then
  printf 'expected status 1 and\n  %s\ngot status %s and\n  %s\n' "$expected" "$status" "$err"
  exit 1
fi
echo "1 passed, 0 failed"
