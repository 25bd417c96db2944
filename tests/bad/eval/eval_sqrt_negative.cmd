eval ev.tlop 'sqrt(-1)'
