eval flows.tlop 'to_itself()'
