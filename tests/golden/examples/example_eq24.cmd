simplify ../../../examples/tau_lop_2015.tlop eq24 --assume 'P = 2^p, p >= 1'
