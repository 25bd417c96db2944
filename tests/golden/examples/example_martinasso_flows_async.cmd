explain ../../../examples/martinasso_flows.tlop two_flows --set later=0.5,cut1=1,cut2=1
