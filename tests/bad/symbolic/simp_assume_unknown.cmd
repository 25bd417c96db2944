simplify ev.tlop 'L(m, P)' --assume 'P = nosuch(2)'
