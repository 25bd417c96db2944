sweep eval_wide_range.tlop zero scaled numerator underflow zero_sum over_max cancelled --grid i=1024,1040 --engine interp
