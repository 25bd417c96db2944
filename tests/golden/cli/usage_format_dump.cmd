dump-ir ev.tlop 'flat(1KiB, 4)' --format json
