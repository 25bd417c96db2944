# man.awk — writes the man page tlop.1 (roff, man macros) from docs/commands.md.
#   awk -v version=0.1.0 -f docs/man.awk docs/commands.md > tlop.1
# It knows what commands.md uses, nothing more: "## " sections, "### " subsections,
# paragraphs, "- " items (an item opening with `a code span` and " — " is a tagged
# paragraph, as an option's), ``` blocks, `code`, **bold**, *italic*, [links](target)
# (their text only), and <!-- comments --> (left out). The "# " title is left out too.
# POSIX awk: Debian's mawk runs it.

BEGIN {
  print ".\\\" -*- coding: utf-8 -*-"
  print ".\\\" Generated from docs/commands.md by docs/man.awk: edit those, not this file."
  printf ".TH TLOP 1 \"\" \"tlop %s\" \"User Commands\"\n", version
  print ".nh"
  new_paragraph = 1
}

/^<!--/ { in_comment = 1 }
in_comment { if ($0 ~ /-->/) in_comment = 0; next }

/^```/ {
  if (in_code) { print ".fi"; print ".RE"; new_paragraph = 1 }
  else { print ".PP"; print ".RS 4"; print ".nf"; after_heading = 0 }
  in_code = !in_code
  next
}
in_code { print safe_start(literal($0)); next }

# A code span cut by a line break would come out garbled: refuse it.
{
  if (gsub(/`/, "`") % 2) {
    printf "%s:%d: a `code span` must not cross a line break\n", FILENAME, FNR > "/dev/stderr"
    exit 1
  }
}
/^# / { next }
/^## / {
  section = substr($0, 4)
  print ".SH \"" inline(toupper(section)) "\""
  new_paragraph = 1; in_item = 0; after_heading = 1
  next
}
/^### / {
  print ".SS \"" inline(substr($0, 5)) "\""
  new_paragraph = 1; in_item = 0; after_heading = 1
  next
}
/^[ \t]*$/ { new_paragraph = 1; in_item = 0; next }

/^- / {
  item = substr($0, 3)
  after_heading = 0
  if (item ~ /^`[^`]*` — /) {
    tag_end = index(substr(item, 2), "`") + 1
    print ".TP"
    print inline(substr(item, 1, tag_end))
    text = substr(item, tag_end + 1)
    sub(/^ — /, "", text)
    print inline(text)
  } else {
    print ".IP \\(bu 2"
    print inline(item)
  }
  in_item = 1; new_paragraph = 0
  next
}
in_item && /^  / { sub(/^ +/, ""); print inline($0); next }

{
  if (new_paragraph && !after_heading) print ".PP"
  new_paragraph = after_heading = 0
  line = inline($0)
  if (section == "Name") gsub(/ — /, " \\- ", line)
  print line
}

# Markdown inline markup to roff: code spans bold and literal, the rest through prose().
function inline(s,    out, left, right) {
  out = ""
  while ((left = index(s, "`")) > 0 && (right = index(substr(s, left + 1), "`")) > 0) {
    out = out prose(substr(s, 1, left - 1)) "\\fB" literal(substr(s, left + 1, right - 1)) "\\fR"
    s = substr(s, left + right + 1)
  }
  return safe_start(out prose(s))
}

# Text outside code spans: links become their text, **x** bold, *x* italic.
function prose(s,    out) {
  s = escape(s)
  while (match(s, /\[[^]]*\]\([^)]*\)/)) {
    out = substr(s, RSTART + 1)
    s = substr(s, 1, RSTART - 1) substr(out, 1, index(out, "]") - 1) substr(s, RSTART + RLENGTH)
  }
  while (match(s, /\*\*[^*]+\*\*/))
    s = substr(s, 1, RSTART - 1) "\\fB" substr(s, RSTART + 2, RLENGTH - 4) "\\fR" substr(s, RSTART + RLENGTH)
  while (match(s, /\*[^* ][^*]*\*/))
    s = substr(s, 1, RSTART - 1) "\\fI" substr(s, RSTART + 1, RLENGTH - 2) "\\fR" substr(s, RSTART + RLENGTH)
  return s
}

# A code span: typed as it is, so a hyphen is a minus sign (options copy and paste).
function literal(s) { s = escape(s); gsub(/-/, "\\-", s); return s }

function escape(s) { gsub(/\\/, "\\e", s); return s }

# A line opening with . or ' would be read as a request.
function safe_start(s) { return (s ~ /^[.']/) ? "\\&" s : s }
