check stdlib_together.tlop
