simplify simplify.tlop rda_iter --params nosuch.txt
