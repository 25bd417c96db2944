eval eval_node_of.tlop 'nodes_summed(10, 4) + 100 * nodes_summed(5, 3, nodes(2, 2, 0, 1, 1, 7))'
