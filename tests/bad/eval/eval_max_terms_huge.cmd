eval ev.tlop 'many(1KiB, 10^9)' --max-terms 1e999
