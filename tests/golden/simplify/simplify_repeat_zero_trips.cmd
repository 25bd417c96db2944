simplify ../../bad/eval/ev.tlop 'repeat P - 1 { L(m / (P - 1), 1) }' --format tlop
