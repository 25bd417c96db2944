eval ev.tlop 'o(-1KiB)'
