simplify ev.tlop 'flat(m, P)' --set p=16
