eval --frob ev.tlop 'flat(1KiB, 4)'
