eval ../../../examples/loggps.tlop 'relative_error(43.795 s, 39.682 s)'
