eval flows.tlop 'node_negative()'
