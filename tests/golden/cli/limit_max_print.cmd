dump-ir ev.tlop 'chunks(1KiB, 4)' --format unicode --max-print 5
