eval flows.tlop 'cut_negative()'
