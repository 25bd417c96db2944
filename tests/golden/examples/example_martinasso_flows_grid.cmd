sweep ../../../examples/martinasso_flows.tlop two_flows two_flows_by_hand difference --grid cut1=0,0.5,1 --grid cut2=0,3 --grid later=0,0.5,2 --grid size2=0.5,1,3
