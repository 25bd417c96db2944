#!/usr/bin/env bash
# compile.sh TLOP SRC — renders the τ-Lop paper's equations 13–24 (examples/tau_lop_2015.tlop) with
# `tlop simplify --format latex`, under P = 2^p where the paper assumes it, and the
# derivations of `tlop prove --format latex` for the example claims, and compiles them
# into one document with pdflatex. Exit 77 (skipped) when pdflatex is absent.
set -u
tlop=$1 dir=$2
command -v pdflatex >/dev/null || { echo "latex: pdflatex not found, compile check skipped"; exit 77; }
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
{
  printf '\\documentclass{article}\n\\usepackage{amsmath}\n\\begin{document}\n'
  for n in $(seq 13 24); do
    assume=""
    case $n in 18|20|23|24) assume="P = 2^p, p >= 1" ;; esac
    if ! tex=$("$tlop" simplify "$dir/examples/tau_lop_2015.tlop" "eq$n" --format latex ${assume:+--assume "$assume"}); then
      echo "latex: tlop simplify failed on eq$n" >&2
      exit 1
    fi
    printf '%% (%s)\n\\begin{equation}\n%s\n\\tag{%s}\n\\end{equation}\n' "$n" "$tex" "$n"
  done
  for f in rda_vs_scatter claims; do
    # exit 1: some claims are refuted, as they should be
    "$tlop" prove --format latex "$dir/examples/$f.tlop"
    (($? <= 1)) || { echo "latex: tlop prove failed on $f" >&2; exit 1; }
  done
  printf '\\end{document}\n'
} > "$work/eqs.tex" || exit 1
if ! (cd "$work" && pdflatex -interaction=nonstopmode -halt-on-error eqs.tex >log.txt 2>&1); then
  echo "latex: pdflatex failed:"; grep -A3 '^!' "$work/log.txt" | head -20; cat "$work/eqs.tex"
  exit 1
fi
echo "latex: equations 13-24 and derivations compiled ($(grep -c begin.equation "$work/eqs.tex") equations, $(grep -c begin.itemize "$work/eqs.tex") derivations)"
