eval ../../../examples/martinasso.tlop 'second_done() - later * 1 s' --set later=0.5,cut1=1,cut2=1
