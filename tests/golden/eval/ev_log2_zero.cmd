eval ev.tlop 'depth(0)'
