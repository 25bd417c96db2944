eval flows.tlop 'alone_negative()'
