check chk_node_of.tlop
