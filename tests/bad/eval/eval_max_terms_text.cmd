eval ev.tlop 'flat(1KiB, 4)' --max-terms lots
