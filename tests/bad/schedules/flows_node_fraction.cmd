eval flows.tlop 'node_fraction()'
