simplify ../../../examples/martinasso_flows.tlop 'martinasso_bcast_B_flows(0, m)' --format tlop
