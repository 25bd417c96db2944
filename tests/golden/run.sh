#!/usr/bin/env bash
# run.sh — runs golden cases of the `tlop` command and compares their output.
#
#   run.sh TLOP ROOT [NAME...]          check the cases (ctest runs one NAME each; all without)
#   run.sh --update TLOP ROOT [NAME...] rewrite the expected files (all cases without NAME)
#
# A case NAME is tests/golden/cases/NAME.cmd: the arguments of tlop on one line, split
# like shell words (quotes work; nothing is expanded; an empty line is no argument). The command runs inside cases/ so
# that file names in messages are short and stable, with stdin from /dev/null, LC_ALL
# set to C.UTF-8, TLOP_PATH unset, and at most 10 s. Its standard output, standard error
# and exit status must equal NAME.stdout, NAME.stderr and NAME.status. A missing expected
# file, a time-out or a crash (a signal) is a failure; --update refuses to record the
# last two. On a mismatch the unified diff (expected → actual) is printed and the exit
# status is 1; 2 means run.sh itself was misused.
set -u

update=0
if [[ ${1-} == --update ]]; then
  update=1
  shift
fi
if (($# < 2)); then
  echo "usage: run.sh [--update] TLOP ROOT [NAME...]" >&2
  exit 2
fi

tlop=$1 root=$2
shift 2
case $tlop in /*) ;; *) tlop=$PWD/$tlop ;; esac
cases=$root/tests/golden/cases
if [[ ! -x $tlop ]]; then
  echo "run.sh: '$tlop' is not an executable" >&2
  exit 2
fi
if [[ ! -d $cases ]]; then
  echo "run.sh: no directory '$cases'" >&2
  exit 2
fi

export LC_ALL=C.UTF-8
unset TLOP_PATH
TIMEOUT=10

if (($# == 0)); then
  for f in "$cases"/*.cmd; do
    n=${f##*/}
    set -- "$@" "${n%.cmd}"
  done
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tlop-golden.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

# run_case NAME: runs it into $tmp/NAME.{stdout,stderr,status}; 1 when it could not.
run_case() {
  local name=$1 line
  if [[ ! -f $cases/$name.cmd ]]; then
    echo "golden $name: no file cases/$name.cmd" >&2
    return 1
  fi
  # An empty line runs tlop with no arguments.
  IFS= read -r line <"$cases/$name.cmd" || true
  # Shell-word splitting without expansion: xargs honours quotes and backslashes only.
  local -a args=()
  local word
  if ! xargs -r printf '%s\0' <<<"$line" >"$tmp/$name.args" 2>"$tmp/$name.xargs"; then
    echo "golden $name: cannot split the command of cases/$name.cmd:" >&2
    cat "$tmp/$name.xargs" >&2
    return 1
  fi
  while IFS= read -r -d '' word; do
    args+=("$word")
  done <"$tmp/$name.args"
  local status
  (cd "$cases" && exec timeout -k 2 "$TIMEOUT" "$tlop" "${args[@]}") \
    </dev/null >"$tmp/$name.stdout" 2>"$tmp/$name.stderr"
  status=$?
  echo "$status" >"$tmp/$name.status"
  if ((status == 124 || status == 137)); then
    echo "golden $name: tlop did not finish within ${TIMEOUT} s (status $status)" >&2
    return 1
  fi
  if ((status > 128)); then
    echo "golden $name: tlop was killed by signal $((status - 128)) (crash)" >&2
    cat "$tmp/$name.stderr" >&2
    return 1
  fi
  return 0
}

failed=0
for name in "$@"; do
  name=${name%.cmd}
  if ! run_case "$name"; then
    failed=1
    continue
  fi
  if ((update)); then
    for part in stdout stderr status; do
      if ! cmp -s "$tmp/$name.$part" "$cases/$name.$part" 2>/dev/null; then
        [[ -f $cases/$name.$part ]] && diff -u --label "expected $name.$part" \
          --label "actual $name.$part" "$cases/$name.$part" "$tmp/$name.$part"
        cp "$tmp/$name.$part" "$cases/$name.$part"
        echo "golden $name: wrote $name.$part"
      fi
    done
    continue
  fi
  bad=0
  for part in stdout stderr status; do
    if [[ ! -f $cases/$name.$part ]]; then
      echo "golden $name: missing expected file cases/$name.$part; the output was:" >&2
      cat "$tmp/$name.$part" >&2
      bad=1
    elif ! diff -u --label "expected $name.$part" --label "actual $name.$part" \
      "$cases/$name.$part" "$tmp/$name.$part"; then
      bad=1
    fi
  done
  if ((bad)); then
    failed=1
    echo "golden $name: FAILED (cd tests/golden/cases && tlop $(<"$cases/$name.cmd"))" >&2
  fi
done
exit "$failed"
