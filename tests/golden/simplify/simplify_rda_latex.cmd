simplify simplify.tlop rda_iter --assume 'P = 2^p, p >= 1, m = k*S/P' --format latex
