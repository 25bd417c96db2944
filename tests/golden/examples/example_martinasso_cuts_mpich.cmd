eval ../../../examples/martinasso.tlop 'second_done()' --set cut1=0.75,cut2=4/3
