eval ev.tlop 'T(1KiB - 2KiB)'
