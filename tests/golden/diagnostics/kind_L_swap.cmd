check kind_L_swap.tlop
