prove ../../../examples/twolog.tlop
