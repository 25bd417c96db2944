eval sched.tlop 'one(1KiB, -1, 0)'
