explain ../../../examples/martinasso_flows.tlop pairs
