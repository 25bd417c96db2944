sweep op_reduce.tlop reduce_linear reduce_binomial --grid m=512,1KiB --grid P=3 --set op=max --engine jit
