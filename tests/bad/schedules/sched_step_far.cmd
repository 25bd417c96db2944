eval sched.tlop 'step_at(10^9)'
