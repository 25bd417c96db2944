explain ../../../examples/fig14_schedule.tlop fig14 --platform generic
