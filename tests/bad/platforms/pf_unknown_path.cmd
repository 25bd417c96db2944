eval ev.tlop 'flat(1KiB, 4)' --platform ../../../etc/passwd
