eval flat_sum_100000.tlop x
