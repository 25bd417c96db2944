#!/bin/sh
# nvim.sh — a real client: Debian's Neovim (0.7) started headless with its built-in LSP
# client on `tlop lsp` (nvim_client.lua) dumps the diagnostics it shows for nvim_model.tlop
# (0-based lines, byte columns, as Neovim keeps them) and hover's first line; they must be
# nvim.expected. Then the Vim files of editors/vim: .tlop detected as tlop, the syntax file
# loaded without an error. Skipped (77) without nvim.
#
#   nvim.sh TLOP ROOT
tlop=${1:?usage: nvim.sh TLOP ROOT} root=${2:?usage: nvim.sh TLOP ROOT}
command -v nvim >/dev/null || { echo "nvim.sh: no nvim: skipped"; exit 77; }
here=$root/tests/lsp
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp XDG_STATE_HOME=$tmp XDG_DATA_HOME=$tmp XDG_CONFIG_HOME=$tmp
fail=0

TLOP=$tlop TLOP_MODEL=$here/nvim_model.tlop TLOP_OUT=$tmp/diagnostics \
  TLOP_STDLIB=$root/stdlib timeout 60 nvim --headless --clean -u NONE \
  -c "luafile $here/nvim_client.lua" >"$tmp/log" 2>&1
if ! diff -u "$here/nvim.expected" "$tmp/diagnostics"; then
  echo "nvim.sh: Neovim's LSP client did not show tlop's diagnostics (above)"
  cat "$tmp/log"
  fail=1
fi

# The syntax: filetype detected, syntax loaded, no error message.
OUT=$tmp/syntax
export OUT
timeout 60 nvim --headless --clean -u NONE --cmd "set rtp^=$root/editors/vim" \
  -c 'filetype plugin on' -c 'syntax on' -c "edit $root/examples/binomial.tlop" \
  -c 'call writefile([&filetype, get(b:, "current_syntax", ""), v:errmsg, synIDattr(synID(7, 1, 1), "name")], $OUT)' \
  -c 'qa!' >"$tmp/log" 2>&1 </dev/null
printf 'tlop\ntlop\n\ntlopDeclaration\n' >"$tmp/want"
if ! diff -u "$tmp/want" "$tmp/syntax"; then
  echo "nvim.sh: editors/vim: filetype, syntax, error message, group of 'algorithm' (above)"
  cat "$tmp/log"
  fail=1
fi
exit $fail
