explain op_reduce.tlop reduce_binomial --set m=1KiB,P=3,op=max
