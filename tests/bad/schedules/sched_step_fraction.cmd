eval sched.tlop 'step_at(1.5)'
