simplify ev.tlop 'L(m, P)' --assume 'P >= 4, P <= 2'
