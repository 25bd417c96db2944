check chk_undefined.tlop
