eval sched.tlop 'ring(1MiB, 32, 0)'
