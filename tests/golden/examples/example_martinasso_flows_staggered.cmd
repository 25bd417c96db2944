explain ../../../examples/martinasso_flows.tlop staggered
