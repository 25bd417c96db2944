#!/bin/sh
# man.sh TLOP MANPAGE SOURCE_DIR — ctest docs.man.
# 1. Every command `tlop --help` lists, its general options, and every option
#    `tlop COMMAND --help` prints are described in docs/commands.md, in that command's
#    section (the general options anywhere) or in a group of shared options the section
#    links to (#loading-options, …); and every option the section or its groups describe
#    is one the command prints (no option documented where it is not taken). The man
#    page, generated from that file, has every command and option too.
# 2. The man page renders without a warning (groff -ww, else man -l); without either the
#    test is skipped (77) once the check above has passed.
set -u
tlop=$1 man_page=$2 src=$3
doc=$src/docs/commands.md
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT

[ -s "$man_page" ] || { echo "no man page at $man_page"; exit 1; }

# The commands, from the general help's "Commands:" list.
"$tlop" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }' \
  > "$work/commands"
[ -s "$work/commands" ] || { echo "no commands in 'tlop --help'"; exit 1; }

# An option as a help line or a list item writes it: "-I, --include" or "--max-errors".
option_of_help='/^ +(-[A-Za-z], )?--[a-z][a-z-]*/ {
  match($0, /(-[A-Za-z], )?--[a-z][a-z-]*/); print substr($0, RSTART, RLENGTH) }'

# The options docs/commands.md gives COMMAND: its section's "- `OPTION …` — " items, and
# the items of each "### … options" group its paragraph "Options: the …" or "Also the …"
# links to.
documented_options() {
  awk -v want="tlop $1" '
    function option_of_item(s) {
      if (!match(s, /^- `(-[A-Za-z], )?--[a-z][a-z-]*/)) return ""
      return substr(s, RSTART + 3, RLENGTH - 3)
    }
    /^#+ / { heading = $0; sub(/^#+ /, "", heading) }
    /^### .* options$/ { group = tolower($2) }
    /^#/ && !/^### .* options$/ { group = "" }
    { option = option_of_item($0) }
    option != "" && group != "" { in_group[group] = in_group[group] " " option "|" }
    heading == want && option != "" { print option }
    /^$/ { listing = 0 }
    /^(Options: the|Also the) / { listing = 1 }    # the paragraph naming the groups it takes
    heading == want && listing {
      line = $0
      while (match(line, /\(#[a-z]+-options\)/)) {
        linked[substr(line, RSTART + 2, RLENGTH - 11)] = 1
        line = substr(line, RSTART + RLENGTH)
      }
    }
    END {
      for (g in linked) {
        if (!(g in in_group)) { print "MISSING-GROUP " g; continue }
        n = split(in_group[g], items, "|")
        for (i = 1; i <= n; i++) { sub(/^ /, "", items[i]); if (items[i] != "") print items[i] }
      }
    }' "$doc" | sort -u
}

# The man page as plain text: fonts dropped, \- a hyphen.
sed 's/\\f[BIRP]//g; s/\\-/-/g; s/\\(bu//g' "$man_page" > "$work/man.txt"

failures=0
fail() { echo "$*"; failures=$((failures + 1)); }

while read -r command; do
  grep -q "^### tlop $command\$" "$doc" || fail "docs/commands.md: no section '### tlop $command'"
  grep -q "^\.SS \"tlop $command\"\$" "$work/man.txt" || fail "$man_page: no section for tlop $command"
  "$tlop" "$command" --help | awk "$option_of_help" | grep -v -e '--help$' | sort -u > "$work/help"
  documented_options "$command" > "$work/doc"
  grep '^MISSING-GROUP' "$work/doc" | while read -r _ group; do
    echo "docs/commands.md: tlop $command links to #$group-options, which has no options"
  done
  comm -23 "$work/help" "$work/doc" | while read -r option; do
    echo "docs/commands.md: tlop $command takes '$option' (its --help says so), not described in its section"
  done
  comm -13 "$work/help" "$work/doc" | grep -v '^MISSING-GROUP' | while read -r option; do
    echo "docs/commands.md: tlop $command's section describes '$option', which its --help does not print"
  done
  while read -r option; do
    grep -q -e "^$option\( \|\$\)" "$work/man.txt" || echo "$man_page: no tagged paragraph for '$option' (tlop $command)"
  done < "$work/help"
done < "$work/commands" > "$work/report"
# The general options ("Options: --help, --version.").
for option in $("$tlop" --help | sed -n 's/.*Options: //p' | tr -c 'a-z-' ' '); do
  grep -qE -- "(^|[^a-z-])$option([^a-z-]|\$)" "$doc" || echo "$doc: no $option (tlop --help)"
  grep -qE -- "(^|[^a-z-])$option([^a-z-]|\$)" "$work/man.txt" || echo "$man_page: no $option (tlop --help)"
done >> "$work/report"
[ -s "$work/report" ] && { cat "$work/report"; failures=$((failures + 1)); }
[ "$failures" -eq 0 ] || { echo "FAIL: the man page or docs/commands.md is out of step with tlop's help"; exit 1; }
echo "docs/commands.md and $man_page describe every command and option of tlop's help"

# Rendering.
if command -v groff >/dev/null 2>&1; then
  groff -k -man -Tutf8 -ww -z "$man_page" 2> "$work/render" || fail "groff failed"
elif command -v man >/dev/null 2>&1; then
  MANWIDTH=80 man -l "$man_page" > /dev/null 2> "$work/render" || fail "man -l failed"
else
  echo "neither groff nor man is installed: the man page is not rendered (skipped)"
  exit 77
fi
if [ -s "$work/render" ]; then cat "$work/render"; fail "rendering $man_page gave warnings"; fi
[ "$failures" -eq 0 ] || exit 1
echo "$man_page renders without a warning"
