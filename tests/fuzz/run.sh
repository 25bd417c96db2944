#!/usr/bin/env bash
# run.sh — fuzzes each target of a TLOP_FUZZ build for a bounded time (tests/fuzz/README.md).
#
#   run.sh BUILD SECONDS [TARGET...]     TARGET: front, table, simplify, bench, jit, prove (all without)
#
# Each target runs SECONDS seconds (-max_total_time) with at most 2048 MB of memory and
# 5 s per input, starting from its seeds (BUILD/tests/fuzz/seeds/TARGET), its regressions
# (tests/fuzz/regressions/TARGET) and what earlier runs kept (BUILD/tests/fuzz/corpus/TARGET,
# where new inputs go). It runs in an empty directory, so that imports and tables named by
# inputs do not depend on where it is started. A finding (crash, sanitizer report, leak,
# time-out, memory limit, failed property) stops that target and leaves the input in
# BUILD/tests/fuzz/artifacts/TARGET/; the exit status is then 1. Open bugs listed in
# tests/fuzz/known-bugs are not findings (TLOP_FUZZ_KNOWN). The last line is
# "fuzz: N passed, N failed"; the log of each target is BUILD/tests/fuzz/logs/TARGET.log.
set -u
if (($# < 2)); then
  echo "usage: run.sh BUILD SECONDS [TARGET...]" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd) || exit 2
secs=$2
shift 2
(($# == 0)) && set -- front table simplify bench jit prove

fz=$build/tests/fuzz
mkdir -p "$fz/logs"
# Open bugs: the first word of each line of known-bugs that starts a line (not a comment).
export TLOP_FUZZ_KNOWN=$(sed -e 's/#.*//' "$here/known-bugs" 2>/dev/null | awk '/^[^ \t]/ && NF { printf "%s,", $1 }')
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
work=$(mktemp -d "${TMPDIR:-/tmp}/tlop-fuzz.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT

passed=0 failed=0
for t in "$@"; do
  exe=$fz/fuzz_$t
  if [[ ! -x $exe ]]; then
    echo "fuzz $t: no fuzzer $exe (configure with -DTLOP_FUZZ=ON and build tlop_fuzzers)" >&2
    failed=$((failed + 1))
    continue
  fi
  mkdir -p "$fz/corpus/$t" "$fz/artifacts/$t"
  dirs=("$fz/corpus/$t" "$fz/seeds/$t")
  [[ -d $here/regressions/$t ]] && dirs+=("$here/regressions/$t")
  dict=()
  case $t in
    front) dict=(-dict="$here/tlop.dict") ;;
    table) dict=(-dict="$here/table.dict") ;;
    bench) dict=(-dict="$here/bench.dict") ;;
  esac
  log=$fz/logs/$t.log
  echo "=== fuzz $t: ${secs} s ==="
  (cd "$work" && exec "$exe" -max_total_time="$secs" -rss_limit_mb=2048 -timeout=5 \
    -print_final_stats=1 -artifact_prefix="$fz/artifacts/$t/" "${dict[@]}" "${dirs[@]}") \
    >"$log" 2>&1
  status=$?
  # The figures: executions, their rate, the corpus kept.
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  corpus=$(find "$fz/corpus/$t" -type f | wc -l)
  echo "fuzz $t: status $status, ${execs:-?} executions, ${rate:-?}/s, corpus $corpus files"
  if ((status != 0)); then
    failed=$((failed + 1))
    echo "fuzz $t: FINDING — the log ($log) ends with:" >&2
    tail -n 60 "$log" >&2
    ls -l "$fz/artifacts/$t/" >&2
  else
    passed=$((passed + 1))
  fi
done
echo "fuzz: $passed passed, $failed failed"
((failed == 0))
