explain explain_labels.tlop scatter_allgather --set m=4KiB,P=4 --params chan.txt
