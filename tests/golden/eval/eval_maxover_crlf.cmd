eval maxover_crlf.tlop 'crlf(4)'
