eval ../../../examples/martinasso.tlop 'pattern_data()'
