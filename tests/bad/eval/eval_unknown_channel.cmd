eval ev.tlop 'L[nosuch](1KiB, 1)'
