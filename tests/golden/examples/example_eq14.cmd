simplify ../../../examples/tau_lop_2015.tlop eq14
