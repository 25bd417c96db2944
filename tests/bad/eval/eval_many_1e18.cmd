eval ev.tlop 'many(1KiB, 10^18)' --max-terms 1000
