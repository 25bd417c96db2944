#!/usr/bin/env bash
# check.sh — the stage folders of src/ call and include only what is before them.
#
#   check.sh ROOT BUILD
#
# The order is the pipeline (docs/architecture.md): a folder may include the header of,
# and call a function defined in, a folder of a lower rank; folders of one rank (jit,
# tune, measure) see none of each other. Includes are read from the sources (grammar/
# counts as front), and another folder's header must be the one named after it (eval/eval.h,
# not eval/table.h); calls from the symbols of the built objects (nm), so a call through a
# declaration written by hand is caught too. It also fails on a private header of more
# than 400 lines. Exit 1 naming every violation; 2 when it cannot run.
set -u
root=${1:?usage: check.sh ROOT BUILD} build=${2:?usage: check.sh ROOT BUILD}
declare -A rank=([base]=0 [front]=1 [ir]=2 [print]=3 [eval]=4 [simplify]=5 [prove]=6
                 [api]=7 [jit]=8 [tune]=8 [measure]=8 [lsp]=8 [cli]=9 [python]=9)
command -v nm >/dev/null || { echo "check.sh: no nm" >&2; exit 2; }
bad=0
violation() { echo "layers: $*"; bad=1; }

# Every folder of src/ has a rank, and its header (when it has one) is named after it.
for dir in "$root"/src/*/; do
  folder=$(basename "$dir")
  [[ -n ${rank[$folder]+x} ]] || violation "src/$folder/ has no place in the order (tests/layers/check.sh)"
done

# ---- includes ----
folder_of_file() { # src/eval/eval.c → eval; grammar/… → front
  case $1 in
    grammar/*) echo front ;;
    src/*/*) local f=${1#src/}; echo "${f%%/*}" ;;
    *) echo "" ;;
  esac
}
while IFS= read -r file; do
  rel=${file#"$root"/}
  from=$(folder_of_file "$rel")
  [[ -n $from ]] || continue
  while IFS=: read -r line target; do
    to=${target%%/*}
    [[ $target == */* && -n ${rank[$to]+x} ]] || continue
    if [[ $to != "$from" ]] && ((rank[$to] >= rank[$from])); then
      violation "$rel:$line includes \"$target\": $from may not see $to"
    elif [[ $to != "$from" && $target != "$to/$to.h" && -f $root/src/$to/$to.h ]]; then
      violation "$rel:$line includes \"$target\": other folders see $to through $to/$to.h only"
    fi
  done < <(awk -F'"' '/^[ \t]*#[ \t]*include[ \t]*"/ { print FNR ":" $2 }' "$file")
done < <(find "$root/src" "$root/grammar" -type f \( -name '*.c' -o -name '*.h' -o -name '*.y' -o -name '*.l' \))

# ---- private headers: at most 400 lines ----
while IFS= read -r header; do
  n=$(wc -l <"$header")
  ((n <= 400)) || violation "${header#"$root"/} has $n lines (at most 400)"
done < <(find "$root/src" -name '*.h')

# ---- calls: which folder defines each symbol, which folders use it ----
objects=$(find "$build/CMakeFiles" -path '*/src/*' -name '*.c.o' \
            \( -path '*/tlop_objects.dir/*' -o -path '*/tlop_jit_objects.dir/*' -o -path '*/tlop.dir/*' \))
generated=$(find "$build/CMakeFiles/tlop_objects.dir" -maxdepth 1 \( -name 'parser.c.o' -o -name 'lexer.c.o' -o -name 'stdlib_data.c.o' \))
if [[ -z $objects ]]; then
  echo "check.sh: no objects under $build/CMakeFiles (build first)" >&2
  exit 2
fi
listing=$(mktemp) && trap 'rm -f "$listing"' EXIT
for obj in $objects $generated; do
  case $obj in
    */src/*) f=${obj#*/src/}; folder=${f%%/*} ;;
    *) folder=front ;; # the scanner, the parser and the embedded stdlib
  esac
  nm "$obj" | awk -v folder="$folder" -v obj="${obj##*/}" '
    $1 == "U" { print "U", folder, $2, obj; next }
    NF == 3 && $2 ~ /^[TDBRC]$/ { print "D", folder, $3, obj }'
done >"$listing"
while read -r from sym obj to; do
  violation "${obj%.o} ($from) calls $sym, defined in $to: $from may not reach $to"
done < <(awk -v order="$(for k in "${!rank[@]}"; do printf '%s=%s ' "$k" "${rank[$k]}"; done)" '
  BEGIN { n = split(order, kv, " "); for (i = 1; i <= n; i++) { split(kv[i], p, "="); r[p[1]] = p[2] } }
  $1 == "D" { def[$3] = $2; next }
  { use[NR] = $0 }
  END {
    for (i in use) {
      split(use[i], u, " ")
      to = def[u[3]]
      if (to != "" && to != u[2] && r[to] >= r[u[2]]) print u[2], u[3], u[4], to
    }
  }' "$listing" | sort -u)

((bad)) || echo "layers: every include and call goes down the pipeline"
exit $bad
