eval transmission.tlop 'calls(1 B)'
