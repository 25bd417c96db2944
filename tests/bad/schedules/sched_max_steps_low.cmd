eval sched.tlop 'step_at(100)' --max-steps 50
