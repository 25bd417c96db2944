eval ev.tlop 'repeat 10^18 { L(1KiB, 1) }'
