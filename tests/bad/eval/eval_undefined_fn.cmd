eval ev.tlop 'nosuch(1KiB)'
