eval eval_listed.tlop 'which(4) + 10 * which(4, 2, round_robin) + 100 * which(4, 2, nodes(0, 1, 1, 0))'
