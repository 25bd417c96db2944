explain ../../../examples/gatherv.tlop gatherv_counts --set m=64KiB,P=8,skew=1
