eval ../../../examples/gatherv.tlop 'gatherv_counts(m, P, 0) - gatherv_linear(m, P)' --set m=64KiB,P=8
