#!/usr/bin/env bash
# example_commands.sh — every command in the header of an example runs in the tests.
#
#   example_commands.sh ROOT
#
# The header of examples/NAME.tlop is its leading block of `#` lines; a command is a line
# of it whose text starts with `tlop ` (a line ending in `\` continues on the next). Each
# must be the command of a golden case, tests/golden/FOLDER/*.cmd, word for word: a case runs
# inside its folder, so a path the header gives from the repository's root is written
# there as ../../../PATH (tests/golden/FOLDER/FILE as FILE, by a case of FOLDER). A line
# that names a command elsewhere than at its start (`…: tlop eval examples/…`) is an error
# too: this script could not see it. Prints each command no case runs; exit 1 if any, 2 on
# misuse.
set -u

if (($# != 1)) || [[ ! -d $1/examples || ! -d $1/tests/golden ]]; then
  echo "usage: example_commands.sh ROOT (the repository, with examples/ and tests/golden/)" >&2
  exit 2
fi
root=$1
golden=$root/tests/golden

# words TEXT: its shell words (quotes honoured, nothing expanded, as run_cases.sh splits a .cmd),
# each %q-quoted, so that two commands compare equal when they run the same words.
words() {
  local -a w=()
  mapfile -d '' w < <(xargs -r printf '%s\0' <<<"$1" 2>/dev/null)
  printf '%q ' "${w[@]}"
}

# The commands of the cases that run an example, each with the folders of the cases that
# run it ("/eval/examples/").
declare -A ran=()
while IFS= read -r -d '' f; do
  IFS= read -r line <"$f" || true
  folder=${f%/*}
  folder=${folder##*/}
  key=$(words "$line")
  ran[$key]="${ran[$key]-/}$folder/"
done < <(grep -lZ 'examples/' "$golden"/*/*.cmd)

missing=0 commands=0
for ex in "$root"/examples/*.tlop; do
  name=examples/${ex##*/}
  cmd='' n=0
  while IFS= read -r line; do
    n=$((n + 1))
    [[ $line == '#'* ]] || break
    text=${line#\#}
    text=${text#"${text%%[![:space:]]*}"}
    if [[ -n $cmd ]]; then
      cmd+=" $text"
    elif [[ $text == 'tlop '* ]]; then
      cmd=$text
    elif [[ $text =~ (^|[^\`])tlop\ [a-z-]+\ .*examples/ ]]; then
      echo "$name:$n: a command not at the start of its line: $text" >&2
      missing=$((missing + 1))
      continue
    else
      continue
    fi
    if [[ $cmd == *'\' ]]; then
      cmd=${cmd%\\}
      continue
    fi
    commands=$((commands + 1))
    # The command as a case writes it: without `tlop`, paths from the case's folder; a
    # file of tests/golden/FOLDER must be run by a case of FOLDER.
    args=${cmd#tlop }
    want=$(grep -oE '(^|[ ="'\''])tests/golden/[^/ ]+/' <<<"$args" | sed -E 's#.*tests/golden/##' | sort -u)
    args=$(sed -E 's#(^|[ ="'\''])tests/golden/[^/ ]+/#\1#g; s#(^|[ ="'\''])(examples|stdlib)/#\1../../../\2/#g' <<<"$args")
    key=$(words "$args")
    ok=${ran[$key]+x}
    for folder in $want; do
      [[ ${ran[$key]-} == *"/$folder" ]] || ok=''
    done
    if [[ -z $ok ]]; then
      echo "$name:$n: no golden case runs: $cmd" >&2
      missing=$((missing + 1))
    fi
    cmd=''
  done <"$ex"
done

if ((commands == 0)); then
  echo "example_commands.sh: no command found in the headers of $root/examples" >&2
  exit 1
fi
echo "example_commands.sh: $commands commands in the examples' headers, $missing problems"
((missing == 0))
