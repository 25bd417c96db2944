eval ../../../examples/gatherv.tlop 'gatherv_counts(1KiB, 3, 0) - gatherv_linear(1KiB, 3)' --params chan.txt --format plain
