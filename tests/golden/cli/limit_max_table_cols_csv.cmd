eval ev.tlop 'T(1KiB)' --params chan.csv --max-table-cols 2
