eval flows.tlop 'size_negative()'
