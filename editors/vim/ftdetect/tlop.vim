" ftdetect/tlop.vim — .tlop files are τ-Lop models (tlop, docs/editors.md).
autocmd BufNewFile,BufRead *.tlop setfiletype tlop
