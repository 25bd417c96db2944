eval ev.tlop 'share(1KiB)'
