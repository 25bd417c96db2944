eval maxover.tlop 'squares(5)'
