eval ev.tlop 'o[nosuch](1KiB)'
