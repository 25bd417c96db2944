eval ev.tlop 'T(1KiB)' --max-memory 256MiB
