eval ev.tlop 'repeat 1e999 { L(1KiB, 1) }'
