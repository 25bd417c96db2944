eval ../../../examples/martinasso.tlop 'martinasso_bcast_A(0, 10 MB)'
