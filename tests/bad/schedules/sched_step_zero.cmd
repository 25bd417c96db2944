eval sched.tlop 'step_at(0)'
