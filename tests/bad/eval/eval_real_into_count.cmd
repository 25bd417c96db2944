eval counted_real.tlop 'forwarded(8 B, 2.5)'
