#!/bin/bash
# simplified.sh TLOP SOURCE_DIR [SEED] — ctest paste.simplified.
# Every algorithm of stdlib/ and examples/ pasted back as `tlop simplify --format tlop`
# prints it: the form checks as an algorithm's body, and `tlop eval` of it as a
# command-line expression (its free names m, P, … given by --set) equals `tlop eval` of
# the algorithm at random points of its parameters (relative difference ≤ 1e-9, or within
# 1e-15 s where the value is 0: a form expanded to a·P − a leaves its rounding, 1e-20 s,
# where the algorithm's (P − 1)·a gives 0 at P = 1). A point
# the algorithm itself refuses (P not a power of two, …), or where the file's assumptions
# do not hold (the form is simplified under them: P = 2^p, p >= 1), is skipped; an
# algorithm whose every point is skipped fails, and so does one whose form does not
# parse, check or evaluate where the algorithm does.
set -u
tlop=$1 src=$2
RANDOM=${3:-19}
points=${TLOP_PASTE_POINTS:-4}
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$src" || exit 1

failed=0 passed=0 compared=0
fail() { echo "FAIL $1: $2"; failed=$((failed + 1)); }

# A value in the domain of a parameter of kind $1 named $2 at the point $3, in $value: P is
# 2 at the first point, a power of two at the second (models that take no other P), any
# after; the other counts powers of two at those (Q dividing P), any after. (Set, not
# echoed: a $(…) subshell draws from a reseeded RANDOM, and the points would not be the
# seed's.)
random_value() {
  case $1:$2:$3 in
    size:*) value=$(((1 + RANDOM % 1000) << (RANDOM % 12))) ;;
    count:P:0) value=2 ;;
    count:P:1) value=$((4 << (RANDOM % 5))) ;;
    count:P:*) value=$((1 + RANDOM % 64)) ;;
    *:[01]) value=$((1 << (RANDOM % 2))) ;;
    *) value=$((1 + RANDOM % 8)) ;;
  esac
}

# The facts of a file's `assume`s, one a line: the simplified form holds where they do.
facts_of() {
  sed -nE 's/^[[:space:]]*assume[[:space:]]+(.*);.*/\1/p' "$1" | tr ',' '\n' | tr -d ' '
}

# The values of the names the facts declare (p of P = 2^p), added to $sets, or failure
# when the point breaks a fact (P not a power of two, p >= 1 with P = 1).
satisfy_facts() {
  local fact name value
  for fact in "${facts[@]}"; do
    if [[ $fact =~ ^([A-Za-z_][A-Za-z_0-9]*)=2\^([A-Za-z_][A-Za-z_0-9]*)$ ]]; then
      value=$(value_in "${BASH_REMATCH[1]}") || continue
      ((value > 0 && (value & (value - 1)) == 0)) || return 1
      name=${BASH_REMATCH[2]} value=$(awk -v v="$value" 'BEGIN { print log(v) / log(2) }')
      sets+=",$name=$value"
    elif [[ $fact =~ ^([A-Za-z_][A-Za-z_0-9]*)\>=([0-9]+)$ ]]; then
      value=$(value_in "${BASH_REMATCH[1]}") || continue
      ((value >= BASH_REMATCH[2])) || return 1
    fi
  done
}

value_in() { # the value $sets gives the name $1
  [[ ,$sets, =~ ,$1=([0-9]+), ]] && echo "${BASH_REMATCH[1]}"
}

# The names the facts declare, as parameters of the pasted algorithm.
declared_by_facts() {
  local fact
  for fact in "${facts[@]}"; do
    [[ $fact =~ ^[A-Za-z_][A-Za-z_0-9]*=2\^([A-Za-z_][A-Za-z_0-9]*)$ ]] && echo "${BASH_REMATCH[1]}: count"
  done
}

# The algorithms of a file, one per line: NAME then its parameters as NAME:KIND
# (KIND empty when the source leaves it to the checker), a defaulted one left out.
algorithms() {
  grep -hoE '^[[:space:]]*algorithm[[:space:]]+[A-Za-z_][A-Za-z_0-9]*[[:space:]]*\([^)]*\)' "$1" |
    sed -E 's/^[[:space:]]*algorithm[[:space:]]+//; s/[[:space:]]*\(/ /; s/\)$//' |
    awk '{ name = $1; $1 = ""; n = split($0, ps, ","); line = name
           for (i = 1; i <= n; i++) {
             p = ps[i]; if (p ~ /=/) continue
             gsub(/[[:space:]]/, "", p); if (p == "") continue
             if (p !~ /:/) p = p ":"
             line = line " " p }
           print line }'
}

# The values of a --set list "a=1,b=2" whose names TEXT uses: tlop refuses a name that
# nothing evaluated has (a form may have lost m, the call never names the facts' p).
sets_used_by() {
  local text=$1 set out=""
  local IFS=,
  for set in $2; do
    [[ $text =~ (^|[^A-Za-z_0-9])${set%%=*}([^A-Za-z_0-9]|$) ]] && out+="${out:+,}$set"
  done
  echo "$out"
}

value_of() { # FILE TEXT SETS: the plain number `tlop eval` prints, or nothing when it refuses
  local used
  used=$(sets_used_by "$2" "$3")
  "$tlop" eval "$1" "$2" ${used:+--set "$used"} --format plain 2>"$work/err" || return 1
}

check_algorithm() {
  local file=$1 name=$2; shift 2
  local args=() sig=() binds=() p pname pkind
  for p in "$@"; do
    pname=${p%%:*} pkind=${p#*:}
    if [ "$pkind" = bool ]; then
      if ((RANDOM % 2)); then args+=(true); else args+=(false); fi
    else
      args+=("$pname") sig+=("$pname${pkind:+: $pkind}") binds+=("$pname:$pkind")
    fi
  done
  local call joined
  joined=$(IFS=,; echo "${args[*]}")
  call="$name($joined)"
  local form
  if ! form=$("$tlop" simplify "$file" "$call" --format tlop 2>"$work/err"); then
    fail "$file $call" "simplify refused: $(head -1 "$work/err")"
    return
  fi
  # the form as an algorithm's body, in a file beside nothing but an import of the model
  local module=${file##*/} declared
  while read -r declared; do sig+=("$declared"); done < <(declared_by_facts)
  printf 'import "%s";\nalgorithm pasted__(%s) = %s;\n' "${module%.tlop}" \
    "$(IFS=,; echo "${sig[*]}")" "$form" >"$work/pasted.tlop"
  if ! "$tlop" check -I "$(dirname "$file")" "$work/pasted.tlop" 2>"$work/err"; then
    fail "$file $call" "its form does not check: $(head -4 "$work/err" | tr '\n' ' ')"
    return
  fi
  local i b sets want got value evaluated=0
  for ((i = 0; i < points; i++)); do
    sets=""
    for b in "${binds[@]}"; do
      random_value "${b#*:}" "${b%%:*}" $i
      sets+="${sets:+,}${b%%:*}=$value"
    done
    satisfy_facts || continue
    want=$(value_of "$file" "$call" "$sets") || continue
    if ! got=$(value_of "$file" "$form" "$sets"); then
      fail "$file $call at $sets" "the form does not evaluate: $(head -4 "$work/err" | tr '\n' ' ')"
      return
    fi
    if ! awk -v a="$want" -v b="$got" 'BEGIN { d = a - b; if (d < 0) d = -d
           s = (a < 0 ? -a : a) > (b < 0 ? -b : b) ? (a < 0 ? -a : a) : (b < 0 ? -b : b)
           exit !(d <= 1e-9 * s + 1e-15) }'; then
      fail "$file $call at $sets" "$want, but its form gives $got"
      return
    fi
    evaluated=$((evaluated + 1))
  done
  if [ $evaluated = 0 ]; then
    fail "$file $call" "refused all $points points (last: $(head -1 "$work/err"))"
    return
  fi
  echo "ok $file $call: equal at $evaluated of $points points"
  compared=$((compared + evaluated))
  passed=$((passed + 1))
}

for file in $(find stdlib examples -name '*.tlop' | sort); do
  mapfile -t facts < <(facts_of "$file")
  while read -r name params; do
    # shellcheck disable=SC2086  # the parameters are one word each
    check_algorithm "$file" "$name" $params
  done < <(algorithms "$file")
done
echo "paste: $passed algorithms equal their simplified form at $compared points, $failed failed"
[ $failed = 0 ] && [ $passed -gt 0 ]
