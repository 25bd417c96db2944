eval ev.tlop 'T(1KiB)' --params chan.txt --max-table-cols 2
