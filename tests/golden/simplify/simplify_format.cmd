simplify simplify.tlop rda_iter --format mathml
