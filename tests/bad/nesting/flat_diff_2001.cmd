eval flat_diff_2001.tlop x
