eval sched.tlop 'ring(1MiB, 10^7, 8)'
