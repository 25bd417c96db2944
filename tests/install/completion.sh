#!/bin/bash
# The bash completion of tlop (src/cli/tlop.bash-completion), driven as bash drives it:
# COMP_WORDS and COMP_CWORD set, _tlop called, COMPREPLY compared.
# Usage: completion.sh TLOP SOURCE_DIR
set -u
tlop=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/m.tlop" <<'MODEL'
platform cluster { channel net = loggp(1us, 1us, 1ns, 1ns); }
platform laptop { channel shm = loggp(1us, 1us, 1ns, 1ns); }
algorithm bcast_flat(m: size, P: count) = (P - 1) * L(m, 1);
algorithm bcast_tree(m: size, P: count) = ceil(log2(P)) * L(m, 1);
algorithm reduce_flat(m: size, P: count) = (P - 1) * L(m, 1);
MODEL
# shellcheck source=../../src/cli/tlop.bash-completion
source "$src/src/cli/tlop.bash-completion"
passed=0 failed=0
# expect "WORDS…" "EXPECTED COMPLETIONS" [TLOP]: the last word is the one being completed
expect() {
  read -r -a COMP_WORDS <<<"$1"
  [[ $1 == *" " ]] && COMP_WORDS+=("")
  COMP_WORDS[0]=${3:-$tlop}
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  _tlop
  local got
  got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ')
  if [[ ${got% } == "$2" ]]; then
    passed=$((passed + 1))
  else
    echo "completing '$1': expected '$2', got '${got% }'"
    failed=$((failed + 1))
  fi
}
expect "tlop ch" "check"
expect "tlop s" "simplify sweep"
expect "tlop sweep --pla" "--platform"
expect "tlop sweep --max-p" "--max-points"
expect "tlop lint --for" "--format"
expect "tlop sweep $tmp/m.tlop bcast" "bcast_flat bcast_tree"
expect "tlop eval $tmp/m.tlop r" "reduce_flat"
expect "tlop sweep $tmp/m.tlop bcast_flat --platform " "cluster laptop"
# the stdlib's platforms, from the share/ directory beside an installed tlop
mkdir -p "$tmp/tree/bin" "$tmp/tree/share/tlop/stdlib"
ln -s "$(realpath "$tlop")" "$tmp/tree/bin/tlop"
ln -s "$(realpath "$src/stdlib/platforms")" "$tmp/tree/share/tlop/stdlib/platforms"
expect "tlop sweep --platform l" "loggps" "$tmp/tree/bin/tlop"
expect "tlop sweep $tmp/m.tlop --platform l" "laptop loggps" "$tmp/tree/bin/tlop"
echo "$passed passed, $failed failed"
[[ $failed == 0 ]]
