#!/usr/bin/env bash
# run_cases.sh — runs cases of the `tlop` command and compares their output: the golden
# cases (tests/golden/FOLDER) and the hostile ones (tests/bad/FOLDER), one runner for both
# (tests/README.md).
#
#   run_cases.sh [MODE] [--skip GLOB]... TLOP WHAT...
#     MODE      (none)    check the cases
#               --update  rewrite the expected files (refused for a case that crashes,
#                         hangs, or in a hostile folder is slow or takes too much memory)
#               --times   check, and print "NAME wall_ms peak_rss_KiB" per case
#     --skip G  do not run the cases whose name matches the glob G (counted as skipped)
#     TLOP      the tlop command (build/tlop)
#     WHAT      a case folder (all its cases), or one case: FOLDER/NAME or FOLDER/NAME.cmd
#
# A case NAME is FOLDER/NAME.cmd: the arguments of tlop on one line, split like shell words
# (quotes and backslashes work; nothing is expanded; an empty line is no argument). Its
# standard output, standard error and exit status must equal NAME.stdout, NAME.stderr and
# NAME.status. tlop runs with LC_ALL=C.UTF-8, TLOP_PATH unset and stdin NAME.stdin when
# there is one (a model read from `-`), else /dev/null. A
# missing expected file, a time-out (10 s) or a crash (a signal) is a failure.
#
# The folder decides how a case runs:
#  - golden (any folder not hostile): the command runs inside the folder, so messages
#    name inputs by short names and the paths in the expected files are relative to it;
#  - hostile (a folder under tests/bad/, or holding a file named .hostile):
#    * each case runs in a fresh directory holding a copy of the folder's inputs (its files
#      other than .cmd/.stdout/.stderr/.status/.why/.stdin; symbolic links are copied as the
#      files they name), so nothing a case does can touch the repository;
#    * NAME.gen, when present, is a bash script run there first to make inputs too large
#      to commit (a 10 MB line, 100 000-deep nesting); its time is not counted;
#    * tlop runs under tlop_limit (built beside tlop: BUILD/tests/bad/tlop_limit, or
#      $TLOP_LIMIT), which measures its wall time and peak memory. A case fails when tlop
#      runs longer than TLOP_BAD_TIME_MS (default 1000 ms; it is killed at 10 s) or its
#      peak RSS passes TLOP_BAD_RSS_MB (default 256 MiB);
#    * tlop is given --max-memory TLOP_BAD_RSS_MB MiB after the command word (a case's own
#      --max-memory, later on its line, wins), so that it stops itself, with a message,
#      before the bound measured from outside; XDG_CACHE_HOME is inside the directory.
#
# Prints the diff (expected → actual) of each failed case and a line naming it, then
# "N passed, N failed[, N skipped]". Exit status 1 when a case failed, 2 when run_cases.sh
# was misused.
set -u

usage() {
  echo "usage: run_cases.sh [--update|--times] [--skip GLOB]... TLOP FOLDER|FOLDER/NAME..." >&2
  exit 2
}
mode=check
skips=()
while (($#)); do
  case $1 in
    --update) mode='update' ;;
    --times) mode='times' ;;
    --skip) (($# >= 2)) || usage; skips+=("$2"); shift ;;
    --) shift; break ;;
    -*) usage ;;
    *) break ;;
  esac
  shift
done
(($# >= 2)) || usage

tlop=$1
shift
case $tlop in /*) ;; *) tlop=$PWD/$tlop ;; esac
if [[ ! -x $tlop ]]; then
  echo "run_cases.sh: '$tlop' is not an executable" >&2
  exit 2
fi

export LC_ALL=C.UTF-8
unset TLOP_PATH
TIMEOUT=10
time_ms=${TLOP_BAD_TIME_MS:-1000}
rss_mb=${TLOP_BAD_RSS_MB:-256}
limit=${TLOP_LIMIT:-$(dirname "$tlop")/tests/bad/tlop_limit}
case $limit in /*) ;; *) limit=$PWD/$limit ;; esac

# The cases to run, as "DIR<TAB>NAME" lines, DIR absolute.
list=()
for what in "$@"; do
  if [[ -d $what ]]; then
    dir=$(cd "$what" && pwd -P) || exit 2
    found=0
    for f in "$dir"/*.cmd; do
      [[ -f $f ]] || continue
      n=${f##*/}
      list+=("$dir	${n%.cmd}")
      found=1
    done
    if ((!found)); then
      echo "run_cases.sh: no case (NAME.cmd) in '$what'" >&2
      exit 2
    fi
  else
    what=${what%.cmd}
    if [[ ! -f $what.cmd ]]; then
      echo "run_cases.sh: no case '$what' (no file $what.cmd)" >&2
      exit 2
    fi
    dir=$(cd "$(dirname "$what")" && pwd -P) || exit 2
    list+=("$dir	${what##*/}")
  fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tlop-cases.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out
mkdir -p "$out"

# hostile DIR: true when the cases of DIR run as hostile inputs.
hostile() {
  [[ -e $1/.hostile || $1/ == */tests/bad/* ]]
}

# label DIR NAME: how messages name a case (tests/golden/eval/NAME, or DIR/NAME).
label() {
  local d=$1
  [[ $d == */tests/* ]] && d=tests/${d##*/tests/}
  printf '%s/%s' "$d" "$2"
}

# split DIR NAME: the words of DIR/NAME.cmd into the array args; 1 when it cannot.
split() {
  local line word
  args=()
  IFS= read -r line <"$1/$2.cmd" || true
  # Shell-word splitting without expansion: xargs honours quotes and backslashes only.
  if ! xargs -r printf '%s\0' <<<"$line" >"$tmp/args" 2>"$tmp/xargs"; then
    echo "$(label "$1" "$2"): cannot split the command of $2.cmd:" >&2
    cat "$tmp/xargs" >&2
    return 1
  fi
  while IFS= read -r -d '' word; do
    args+=("$word")
  done <"$tmp/args"
}

# stdin_of DIR NAME: what the case's tlop reads as standard input.
stdin_of() {
  if [[ -f $1/$2.stdin ]]; then echo "$1/$2.stdin"; else echo /dev/null; fi
}

# run_golden DIR NAME: runs the case in DIR into $out/NAME.{stdout,stderr,status}; 1 when
# it could not, or tlop crashed or hung (said on stderr).
run_golden() {
  local dir=$1 name=$2 status start
  split "$dir" "$name" || return 1
  start=${EPOCHREALTIME/[.,]/}
  (cd "$dir" && exec timeout -k 2 "$TIMEOUT" "$tlop" "${args[@]}") \
    <"$(stdin_of "$dir" "$name")" >"$out/$name.stdout" 2>"$out/$name.stderr"
  status=$?
  echo "$status" >"$out/$name.status"
  if ((status == 124 || status == 137)); then
    echo "$(label "$dir" "$name"): tlop did not finish within ${TIMEOUT} s (status $status)" >&2
    return 1
  fi
  if ((status > 128)); then
    echo "$(label "$dir" "$name"): tlop was killed by signal $((status - 128)) (crash); its stderr ends with:" >&2
    tail -n 20 "$out/$name.stderr" >&2
    return 1
  fi
  [[ $mode == times ]] &&
    printf '%-36s %6d ms %8s KiB\n' "$name" $(((${EPOCHREALTIME/[.,]/} - start) / 1000)) -
  return 0
}

# run_hostile DIR NAME: the same for a hostile case, under tlop_limit in a fresh directory;
# 1 also when tlop was slow or too big.
run_hostile() {
  local dir=$1 name=$2 lab
  lab=$(label "$dir" "$name")
  if [[ ! -x $limit ]]; then
    echo "$lab: no tlop_limit at '$limit' (build it, or set TLOP_LIMIT)" >&2
    return 1
  fi
  split "$dir" "$name" || return 1
  # tlop bounds its own memory as well (--max-memory, put after the command; a case's own
  # --max-memory, later on its line, wins): past the bound it says so and exits 1.
  if ((${#args[@]})) && [[ ${args[0]} != -* ]]; then
    args=("${args[0]}" --max-memory "${rss_mb}MiB" "${args[@]:1}")
  fi
  local work=$tmp/work/$name
  rm -rf "$work"
  mkdir -p "$work"
  # The inputs only (not the expected outputs of every case); cp copies what a link names.
  find "$dir" -maxdepth 1 \( -type f -o -type l \) ! -name '*.stdout' ! -name '*.stderr' \
    ! -name '*.status' ! -name '*.cmd' ! -name '*.why' ! -name '*.stdin' ! -name .hostile \
    -exec cp -t "$work" {} +
  if [[ -f $dir/$name.gen ]] && ! (cd "$work" && bash "./$name.gen") >"$tmp/gen" 2>&1; then
    echo "$lab: $name.gen failed:" >&2
    cat "$tmp/gen" >&2
    return 1
  fi
  (cd "$work" && XDG_CACHE_HOME=$work/.cache exec "$limit" "$out/$name.measure" "$TIMEOUT" \
    "$tlop" "${args[@]}") <"$(stdin_of "$dir" "$name")" >"$out/$name.stdout" 2>"$out/$name.stderr"
  if [[ ! -s $out/$name.measure ]]; then
    echo "$lab: tlop_limit could not run tlop" >&2
    return 1
  fi
  local wall rss how code
  read -r wall rss how code <"$out/$name.measure"
  rm -rf "$work"
  if [[ $how == signal ]]; then
    echo "$((128 + code))" >"$out/$name.status"
    if ((wall >= TIMEOUT * 1000)); then
      echo "$lab: tlop did not finish within $TIMEOUT s (killed)" >&2
    else
      echo "$lab: tlop was killed by signal $code (crash); its stderr ends with:" >&2
      tail -n 20 "$out/$name.stderr" >&2
    fi
    return 1
  fi
  echo "$code" >"$out/$name.status"
  [[ $mode == times ]] && printf '%-36s %6d ms %8d KiB\n' "$name" "$wall" "$rss"
  local bad=0
  if ((wall > time_ms)); then
    echo "$lab: tlop took $wall ms, more than the limit of $time_ms ms" >&2
    bad=1
  fi
  if ((rss > rss_mb * 1024)); then
    echo "$lab: tlop's peak memory was $((rss / 1024)) MiB, more than the limit of $rss_mb MiB" >&2
    bad=1
  fi
  return $bad
}

npass=0 nfail=0 nskip=0
for entry in "${list[@]}"; do
  dir=${entry%%	*} name=${entry#*	}
  skip=0
  for g in "${skips[@]+"${skips[@]}"}"; do
    # shellcheck disable=SC2053
    [[ $name == $g ]] && skip=1
  done
  if ((skip)); then
    nskip=$((nskip + 1))
    continue
  fi
  lab=$(label "$dir" "$name")
  hint="(cd ${lab%/*} && tlop $(<"$dir/$name.cmd"))"
  if hostile "$dir"; then
    run_hostile "$dir" "$name"
  else
    run_golden "$dir" "$name"
  fi
  if (($?)); then
    nfail=$((nfail + 1))
    echo "$lab: FAILED $hint" >&2
    continue
  fi
  if [[ $mode == update ]]; then
    for part in stdout stderr status; do
      if ! cmp -s "$out/$name.$part" "$dir/$name.$part" 2>/dev/null; then
        [[ -f $dir/$name.$part ]] && diff -u --label "expected $name.$part" \
          --label "actual $name.$part" "$dir/$name.$part" "$out/$name.$part"
        cp "$out/$name.$part" "$dir/$name.$part"
        echo "$lab: wrote $name.$part"
      fi
    done
    npass=$((npass + 1))
    continue
  fi
  bad=0
  for part in stdout stderr status; do
    if [[ ! -f $dir/$name.$part ]]; then
      echo "$lab: missing expected file $name.$part; the output was:" >&2
      head -c 4000 "$out/$name.$part" >&2
      bad=1
    elif ! diff -u --label "expected $name.$part" --label "actual $name.$part" \
      "$dir/$name.$part" "$out/$name.$part" >"$tmp/diff"; then
      head -n 200 "$tmp/diff"
      (($(wc -l <"$tmp/diff") > 200)) && echo "… (the diff goes on: $(wc -l <"$tmp/diff") lines)"
      bad=1
    fi
  done
  if ((bad)); then
    nfail=$((nfail + 1))
    echo "$lab: FAILED $hint" >&2
  else
    npass=$((npass + 1))
  fi
done
summary="$npass passed, $nfail failed"
((nskip)) && summary+=", $nskip skipped"
echo "$summary"
((nfail == 0))
