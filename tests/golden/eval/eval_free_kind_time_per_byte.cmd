eval ../../../stdlib/models/hockney.tlop 'ceil(log2(P)) * (beta_h * m + alpha_h)' --set m=1000,P=5
