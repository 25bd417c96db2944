eval maxover.tlop 'spread(1 KiB, 3)'
