eval sched.tlop 'ring(1MiB, 32, 8)' --max-steps 0
