sweep eval_node_of.tlop nodes_summed --grid P=1,5,10 --grid M=1,4 --set map=round_robin
