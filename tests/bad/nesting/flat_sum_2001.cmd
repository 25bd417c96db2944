eval flat_sum_2001.tlop x
