prove prove_products.tlop
