eval sched.tlop 'half_src(1KiB, 3)'
