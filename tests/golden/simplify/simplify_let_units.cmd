simplify -f tlop simplify_let_units.tlop 'lets(m, P) + power(m, P, k)'
