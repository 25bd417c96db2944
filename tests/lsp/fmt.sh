#!/usr/bin/env bash
# fmt.sh — `tlop fmt` over every .tlop the front end's fuzzer is seeded with (stdlib/,
# examples/, the case folders of tests/golden, tests/bad, tests/latex), copied: in each
# operator style a file that parses is laid out, and laying it out again changes nothing
# (--check names no file); one that does not is refused with its diagnostics, never a crash,
# and no layout is refused for changing the tokens. The layout means the same: the first
# algorithm of each stdlib and example file simplifies to the same text after
# `fmt --ascii` and `fmt --unicode` as before (the first algorithm of each: a command
# starts in ~0.1 s, and the tokens are checked for all of them). The stdlib and the
# examples are laid out already.
#
#   fmt.sh TLOP ROOT
set -u
tlop=${1:?usage: fmt.sh TLOP ROOT} root=${2:?usage: fmt.sh TLOP ROOT}
tlop=$(cd "$(dirname "$tlop")" && pwd)/$(basename "$tlop")
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
fail=0
failed() { echo "fmt.sh: $*"; fail=1; }

mapfile -t files < <(cd "$root" && find stdlib examples tests/golden tests/bad tests/latex \
                       -name '*.tlop' -type f | sort)
for style in keep --ascii --unicode; do
  dir=$tmp/$style
  mkdir -p "$dir" && (cd "$root" && cp --parents "${files[@]}" "$dir")
  opt=() && [[ $style != keep ]] && opt=("$style")
  (cd "$dir" && "$tlop" fmt "${opt[@]}" "${files[@]}") >"$tmp/out" 2>"$tmp/err"
  rc=$?
  ((rc <= 1)) || { failed "$style: exit $rc"; cat "$tmp/err"; }
  grep -q "would change" "$tmp/err" && { failed "$style: a layout changes the tokens"; grep "would change" "$tmp/err"; }
  refused=$(grep -o '^[^: ]*\.tlop:[0-9]*:[0-9]*: error' "$tmp/err" | cut -d: -f1 | sort -u | wc -l)
  (cd "$dir" && "$tlop" fmt --check "${opt[@]}" "${files[@]}") >"$tmp/again" 2>/dev/null
  rc=$?
  ((rc <= 1)) || failed "$style --check: exit $rc"
  [[ -s $tmp/again ]] && { failed "$style: not idempotent:"; cat "$tmp/again"; }
  echo "fmt.sh: $style: ${#files[@]} files, $((${#files[@]} - refused)) laid out and idempotent, $refused refused (they do not parse)"
  ((${#files[@]} - refused > 100)) || failed "$style: too few files laid out"
done

compared=0
for f in "${files[@]}"; do
  case $f in stdlib/* | examples/*) ;; *) continue ;; esac
  for algo in $(sed -n 's/^algorithm \([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' "$root/$f" | head -1); do
    want=$("$tlop" simplify "$root/$f" "$algo" 2>&1)
    for style in --ascii --unicode; do
      got=$("$tlop" simplify -I "$root/$(dirname "$f")" "$tmp/$style/$f" "$algo" 2>&1 |
            sed "s|$tmp/$style/|$root/|g")
      [[ $want == "$got" ]] || failed "$f $style: $algo simplifies differently after fmt"
      compared=$((compared + 1))
    done
  done
done
# the project's own models are kept in the layout (issue 25): fmt --check names none
(cd "$root" && "$tlop" fmt --check stdlib/*/*.tlop examples/*.tlop) >"$tmp/own" 2>&1 ||
  { failed "not laid out by tlop fmt (run tlop fmt on them):"; cat "$tmp/own"; }
echo "fmt.sh: $compared simplified forms compared"
((compared > 30)) || failed "too few algorithms compared"
exit $fail
