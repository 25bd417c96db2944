eval ev.tlop 'flat(1KiB, 0)'
