eval maxover.tlop 'commented(4)'
