" ftplugin/tlop.vim — comments and indentation of .tlop files, as `tlop fmt` lays them out.
if exists('b:did_ftplugin')
  finish
endif
let b:did_ftplugin = 1
setlocal commentstring=#\ %s comments=:#,://
setlocal expandtab shiftwidth=2 softtabstop=2
" `gq` and `=` over a whole file: tlop fmt
setlocal formatprg=tlop\ fmt
let b:undo_ftplugin = 'setlocal commentstring< comments< expandtab< shiftwidth< softtabstop< formatprg<'
