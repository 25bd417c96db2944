check assume_garbage.tlop
