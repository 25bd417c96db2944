eval ../../../examples/loggps.tlop 'relative_error(7.668 s, 4.528 s)' --format plain
