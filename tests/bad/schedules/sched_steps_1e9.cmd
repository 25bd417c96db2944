eval sched.tlop 'steps(10^9)'
