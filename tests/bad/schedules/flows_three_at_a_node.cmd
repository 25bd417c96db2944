eval flows.tlop 'three_at_a_node()'
