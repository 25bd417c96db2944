eval sched.tlop 'one(-1KiB, 0, 1)'
