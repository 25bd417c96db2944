explain ../../../examples/martinasso_flows.tlop decompositions
