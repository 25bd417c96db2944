eval ev.tlop '(-8)^(1/3)'
