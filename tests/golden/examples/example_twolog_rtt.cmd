explain ../../../examples/twolog.tlop parameters_from_rtt
