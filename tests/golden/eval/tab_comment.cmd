eval ../../../stdlib/mpich/bcast.tlop 'bcast_binomial(1KiB, 2)' --params tab_comment.txt --format plain
