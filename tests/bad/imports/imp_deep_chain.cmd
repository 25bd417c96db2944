check imp_deep_chain.tlop
