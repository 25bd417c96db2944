check imp_huge_sparse.tlop
