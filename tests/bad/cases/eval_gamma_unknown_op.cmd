eval ev.tlop 'gamma(nosuchop, 1KiB, 1)'
