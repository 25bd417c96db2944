compare ../../../examples/claims.tlop 'loggp_rda(k, P)' 'loggp_scatter(k, P)'
