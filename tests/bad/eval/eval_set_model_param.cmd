eval ev.tlop 'flat(1KiB, 4)' --set S=2KiB
