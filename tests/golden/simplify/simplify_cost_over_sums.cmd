simplify -f tlop simplify.tlop 'L(m, P) / ((a + b) * (c - 4))'
