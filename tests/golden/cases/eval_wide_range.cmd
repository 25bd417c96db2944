sweep eval_wide_range.tlop zero scaled numerator underflow --grid i=1024,1040 --engine interp
