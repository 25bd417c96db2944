explain ../../../examples/gatherv.tlop gatherv_counts --set m=1KiB,P=4,skew=1 --params chan.txt
