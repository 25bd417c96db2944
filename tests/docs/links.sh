#!/bin/sh
# links.sh SOURCE_DIR — ctest docs.links: every relative link of README.md, docs/*.md and
# tests/*/README.md, [text](target) or ![alt](target), names a file or folder that exists,
# and its #anchor, if any, a heading of the target (GitHub's rule, ASCII headings).
set -u
cd "$1" || exit 1
links=$(mktemp) || exit 1
trap 'rm -f "$links"' EXIT

for page in README.md docs/*.md tests/*/README.md; do
  awk -v page="$page" '
    /^```/ { code = !code; next }
    code { next }
    {
      line = $0
      gsub(/`[^`]*`/, "", line)                # a link shown as code is not a link
      while (match(line, /\]\([^)]*\)/)) {
        print page "\t" FNR "\t" substr(line, RSTART + 2, RLENGTH - 3)
        line = substr(line, RSTART + RLENGTH)
      }
    }' "$page"
done > "$links"

# The anchors of a page's headings: lower case, punctuation dropped, spaces as hyphens.
anchors() {
  awk '/^```/ { code = !code; next }
       !code && /^#+ / { s = tolower($0); sub(/^#+ /, "", s); gsub(/[^a-z0-9 _-]/, "", s)
                         gsub(/ /, "-", s); print s }' "$1"
}

bad=0
while IFS="$(printf '\t')" read -r page line target; do
  case $target in http://* | https://* | mailto:*) continue ;; esac
  file=${target%%#*}
  anchor=
  case $target in *#*) anchor=${target#*#} ;; esac
  if [ -z "$file" ]; then path=$page; else path=$(dirname "$page")/$file; fi
  if [ ! -e "$path" ]; then
    echo "$page:$line: link to '$target': no such file"; bad=1; continue
  fi
  if [ -n "$anchor" ] && [ -f "$path" ] && ! anchors "$path" | grep -qx -- "$anchor"; then
    echo "$page:$line: link to '$target': no heading with that anchor in $path"; bad=1
  fi
done < "$links"
[ "$bad" -eq 0 ] || exit 1
echo "every relative link of README.md, docs/ and tests/*/README.md resolves ($(wc -l < "$links") links)"
