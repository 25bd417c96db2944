eval ev.tlop 'share(1KiB, 2 - 2)'
