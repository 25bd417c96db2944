simplify simplify_wide_power.tlop 'big(m, P) + cancels(m, P) + underflow(m) + coefficients(m)'
