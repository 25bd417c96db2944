sweep ../../../examples/martinasso.tlop first_done second_done --grid cut1=0,0.5,0.75,1 --grid cut2=0,1,2,3
