eval flows.tlop 'start_negative()'
