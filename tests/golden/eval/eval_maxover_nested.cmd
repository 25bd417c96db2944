eval maxover.tlop 'nested(4)'
