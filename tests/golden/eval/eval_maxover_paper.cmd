eval maxover.tlop 'paper(3)'
