eval sched.tlop 'ring(1MiB, 100, 8)' --max-messages 50
