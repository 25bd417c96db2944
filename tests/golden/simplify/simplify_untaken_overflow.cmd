simplify ../../bad/eval/ev.tlop 'sum i = 0 .. 1 : (if P > k / i^1 then o(m) else o(10^300 * 10^300))' --unroll --format tlop
