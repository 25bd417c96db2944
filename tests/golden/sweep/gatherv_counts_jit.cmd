sweep ../../../examples/gatherv.tlop gatherv_counts --grid m=512,1KiB --grid P=1,2,3,4 --set skew=1 --params chan.txt --engine jit
