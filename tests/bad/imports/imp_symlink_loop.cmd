check imp_symlink_loop.tlop
