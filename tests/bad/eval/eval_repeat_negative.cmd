eval ev.tlop 'repeat -3 { L(1KiB, 1) }'
