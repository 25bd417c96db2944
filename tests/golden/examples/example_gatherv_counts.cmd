eval ../../../examples/gatherv.tlop 'gatherv_counts(m, P, 1)' --set m=64KiB,P=8
