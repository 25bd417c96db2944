eval ev.tlop 'flat(1KiB, 4)' --tau-beyond=wrap
