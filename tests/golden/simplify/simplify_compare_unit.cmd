simplify simplify_compare_unit.tlop 'eager(m, P)'
