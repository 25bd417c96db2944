eval sched.tlop 'half_step(3)'
