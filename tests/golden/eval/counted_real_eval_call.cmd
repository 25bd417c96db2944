eval counted_real.tlop 'scaled(8 B, 4, 0.5) - overlapped(8 B, 4)'
