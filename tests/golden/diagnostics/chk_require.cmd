check chk_require.tlop
