eval ev.tlop 'many(1KiB, 20)' --max-terms 10
