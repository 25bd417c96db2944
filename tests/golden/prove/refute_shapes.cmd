prove refute_shapes.tlop
