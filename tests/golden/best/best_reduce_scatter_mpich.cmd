best best_reduce_scatter.tlop --collective reduce_scatter --grid m=1KiB --grid P=4 --emit mpich-json -o -
