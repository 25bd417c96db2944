sweep ../../../examples/twolog.tlop linear_log3p linear_2log binomial_log3p binomial_2log --grid rr=0,1
