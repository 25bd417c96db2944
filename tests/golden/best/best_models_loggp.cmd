best best_models.tlop --collective bcast loggp_rda_of loggp_scatter_of --grid m=64KiB..4MiB:*4 --grid P=4,16,64
