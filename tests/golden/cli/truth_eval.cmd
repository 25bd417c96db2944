eval truth.tlop both(m,P) --set m=3,P=4
