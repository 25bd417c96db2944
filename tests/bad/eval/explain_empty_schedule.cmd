explain explain_empty_schedule.tlop 'bcast_sm(0 B, 8, 2)'
