#!/usr/bin/env bash
# run.sh — runs the hostile-input cases of tests/bad and checks their diagnostics, their
# time and their memory (tests/bad/README.md).
#
#   run.sh TLOP ROOT [NAME...]            check the cases (ctest runs one NAME each; all without)
#   run.sh --update TLOP ROOT [NAME...]   rewrite the expected files (refused for a case
#                                         that crashes, hangs, is slow or takes too much memory)
#   run.sh --times TLOP ROOT [NAME...]    check, and print "NAME wall_ms peak_rss_KiB" per case
#
# As tests/golden/run.sh: cases/NAME.cmd holds the arguments of tlop on one line (shell-like
# quoting, no expansion) and NAME.stdout, NAME.stderr, NAME.status what it must print and
# return. Differences:
#  - each case runs in a fresh directory holding a copy of the inputs of cases/, so messages name inputs
#    by their short names and nothing a case does can touch the repository;
#  - NAME.gen, when present, is a bash script run there first to make inputs too large to
#    commit (a 10 MB line, 100 000-deep nesting); its time is not counted;
#  - tlop runs under tlop_limit (built beside tlop: BUILD/tests/bad/tlop_limit, or
#    $TLOP_LIMIT), which measures its wall time and peak memory. A case fails when tlop
#    crashes (a signal), runs longer than TLOP_BAD_TIME_MS (default 1000 ms; it is killed
#    at 10 s), or its peak RSS passes TLOP_BAD_RSS_MB (default 256 MiB);
#  - tlop is given --max-memory TLOP_BAD_RSS_MB MiB, so that it stops itself, with a
#    message, before the bound measured from outside.
# Environment of tlop: LC_ALL=C.UTF-8, no TLOP_PATH, stdin /dev/null, XDG_CACHE_HOME inside
# the case's directory. Exit status 1 when a case failed, 2 when run.sh was misused.
set -u

mode=check
case ${1-} in
  --update) mode=update; shift ;;
  --times) mode=times; shift ;;
esac
if (($# < 2)); then
  echo "usage: run.sh [--update|--times] TLOP ROOT [NAME...]" >&2
  exit 2
fi

tlop=$1 root=$2
shift 2
case $tlop in /*) ;; *) tlop=$PWD/$tlop ;; esac
cases=${TLOP_BAD_CASES:-$root/tests/bad/cases}
if [[ ! -x $tlop ]]; then
  echo "run.sh: '$tlop' is not an executable" >&2
  exit 2
fi
if [[ ! -d $cases ]]; then
  echo "run.sh: no directory '$cases'" >&2
  exit 2
fi
limit=${TLOP_LIMIT:-$(dirname "$tlop")/tests/bad/tlop_limit}
if [[ ! -x $limit ]]; then
  echo "run.sh: no tlop_limit at '$limit' (build it, or set TLOP_LIMIT)" >&2
  exit 2
fi
time_ms=${TLOP_BAD_TIME_MS:-1000}
rss_mb=${TLOP_BAD_RSS_MB:-256}
KILL_S=10

export LC_ALL=C.UTF-8
unset TLOP_PATH

if (($# == 0)); then
  for f in "$cases"/*.cmd; do
    n=${f##*/}
    set -- "$@" "${n%.cmd}"
  done
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tlop-bad.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

# run_case NAME: runs it into $tmp/out/NAME.{stdout,stderr,status,measure}; 1 when the
# case could not be run, or tlop crashed, hung, was slow or too big (said on stderr).
run_case() {
  local name=$1 line
  if [[ ! -f $cases/$name.cmd ]]; then
    echo "bad $name: no file cases/$name.cmd" >&2
    return 1
  fi
  IFS= read -r line <"$cases/$name.cmd" || true
  local -a args=()
  local word
  if ! xargs -r printf '%s\0' <<<"$line" >"$tmp/args" 2>"$tmp/xargs"; then
    echo "bad $name: cannot split the command of cases/$name.cmd:" >&2
    cat "$tmp/xargs" >&2
    return 1
  fi
  while IFS= read -r -d '' word; do
    args+=("$word")
  done <"$tmp/args"
  # tlop bounds its own memory as well (--max-memory, put after the command; a case's own
  # --max-memory, later on its line, wins): past the bound it says so and exits 1.
  if ((${#args[@]})) && [[ ${args[0]} != -* ]]; then
    args=("${args[0]}" --max-memory "${rss_mb}MiB" "${args[@]:1}")
  fi

  local work=$tmp/work/$name out=$tmp/out
  rm -rf "$work"
  mkdir -p "$work" "$out"
  # The inputs only (not the expected outputs of every case).
  find "$cases" -maxdepth 1 -type f ! -name '*.stdout' ! -name '*.stderr' ! -name '*.status' \
    ! -name '*.cmd' ! -name '*.why' -exec cp -t "$work" {} +
  if [[ -f $cases/$name.gen ]] && ! (cd "$work" && bash "./$name.gen") >"$tmp/gen" 2>&1; then
    echo "bad $name: cases/$name.gen failed:" >&2
    cat "$tmp/gen" >&2
    return 1
  fi
  (cd "$work" && XDG_CACHE_HOME=$work/.cache exec "$limit" "$out/$name.measure" "$KILL_S" \
    "$tlop" "${args[@]}") </dev/null >"$out/$name.stdout" 2>"$out/$name.stderr"
  if [[ ! -s $out/$name.measure ]]; then
    echo "bad $name: tlop_limit could not run tlop" >&2
    return 1
  fi
  local wall rss how code
  read -r wall rss how code <"$out/$name.measure"
  rm -rf "$work"
  if [[ $how == signal ]]; then
    echo "$((128 + code))" >"$out/$name.status"
    if ((wall >= KILL_S * 1000)); then
      echo "bad $name: tlop did not finish within $KILL_S s (killed)" >&2
    else
      echo "bad $name: tlop was killed by signal $code (crash); its stderr ends with:" >&2
      tail -n 20 "$out/$name.stderr" >&2
    fi
    return 1
  fi
  echo "$code" >"$out/$name.status"
  [[ $mode == times ]] && printf '%-28s %6d ms %8d KiB\n' "$name" "$wall" "$rss"
  local bad=0
  if ((wall > time_ms)); then
    echo "bad $name: tlop took $wall ms, more than the limit of $time_ms ms" >&2
    bad=1
  fi
  if ((rss > rss_mb * 1024)); then
    echo "bad $name: tlop's peak memory was $((rss / 1024)) MiB, more than the limit of $rss_mb MiB" >&2
    bad=1
  fi
  return $bad
}

failed=0 npass=0 nfail=0
for name in "$@"; do
  name=${name%.cmd}
  if ! run_case "$name"; then
    failed=1 nfail=$((nfail + 1))
    echo "bad $name: FAILED (cd tests/bad/cases && tlop $(<"$cases/$name.cmd"))" >&2
    continue
  fi
  if [[ $mode == update ]]; then
    for part in stdout stderr status; do
      if ! cmp -s "$tmp/out/$name.$part" "$cases/$name.$part" 2>/dev/null; then
        [[ -f $cases/$name.$part ]] && diff -u --label "expected $name.$part" \
          --label "actual $name.$part" "$cases/$name.$part" "$tmp/out/$name.$part"
        cp "$tmp/out/$name.$part" "$cases/$name.$part"
        echo "bad $name: wrote $name.$part"
      fi
    done
    npass=$((npass + 1))
    continue
  fi
  bad=0
  for part in stdout stderr status; do
    if [[ ! -f $cases/$name.$part ]]; then
      echo "bad $name: missing expected file cases/$name.$part; the output was:" >&2
      head -c 4000 "$tmp/out/$name.$part" >&2
      bad=1
    elif ! diff -u --label "expected $name.$part" --label "actual $name.$part" \
      "$cases/$name.$part" "$tmp/out/$name.$part" >"$tmp/diff"; then
      head -n 200 "$tmp/diff"
      bad=1
    fi
  done
  if ((bad)); then
    failed=1 nfail=$((nfail + 1))
    echo "bad $name: FAILED (cd tests/bad/cases && tlop $(<"$cases/$name.cmd"))" >&2
  else
    npass=$((npass + 1))
  fi
done
(($# > 1)) && echo "bad: $npass passed, $nfail failed"
exit "$failed"
