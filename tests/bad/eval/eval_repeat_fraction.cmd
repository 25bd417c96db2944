eval ev.tlop 'repeat 2.5 { L(1KiB, 1) }'
