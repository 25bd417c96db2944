" syntax/tlop.vim — τ-Lop models (.tlop), after grammar/lexer.l: keywords, kinds, units,
" the operators with their Unicode twins (∥ ||, Σ sum, τ tau, γ gamma, ≤ <=, …), strings
" and the three kinds of comments.
if exists('b:current_syntax')
  finish
endif

syntax keyword tlopDeclaration import param fn algorithm platform channel table assume claim axiom
syntax keyword tlopStatement strict when let in if then else stages repeat schedule for at messages send flows under alone on
syntax keyword tlopOperatorWord and or not mod sum gamma
syntax keyword tlopKind size count time real number bandwidth rate bool op
syntax keyword tlopBuiltin L o p log2 log sqrt ceil floor abs min max integer require node_of listed
syntax match tlopOperator "∥\|||\|‖\|Σ\|τ\|γ\|≤\|≥\|≠\|→\|->\|×\|·\|⋅\|−\|⌈\|⌉\|⌊\|⌋\|…\|\.\.\|∧\|∨\|¬\|log₂"
syntax match tlopOperator "[-+*/%^=<>!]"
" the papers' max_{i=a}^{b} (`max i = a .. b : e` is highlighted as the builtin max)
syntax match tlopOperator "\<max_{"
syntax match tlopNumber "\<\d\+\(\.\d\+\)\=\([eE][+-]\=\d\+\)\="
syntax match tlopUnit "\(\d\s*\)\@<=\(KiB\|MiB\|GiB\|TiB\|kB\|KB\|MB\|GB\|TB\|B\|ms\|us\|µs\|μs\|ns\|s\)\(/s\)\=\>"
syntax region tlopString start=+"+ end=+"+ oneline
syntax match tlopDirective "tlop: set .*" contained
syntax keyword tlopTodo TODO FIXME XXX contained
syntax match tlopComment "#.*$" contains=tlopTodo,tlopDirective
syntax match tlopComment "//.*$" contains=tlopTodo,tlopDirective
syntax region tlopComment start="/\*" end="\*/" contains=tlopTodo

highlight default link tlopDeclaration Keyword
highlight default link tlopStatement Statement
highlight default link tlopOperatorWord Operator
highlight default link tlopKind Type
highlight default link tlopBuiltin Function
highlight default link tlopOperator Operator
highlight default link tlopNumber Number
highlight default link tlopUnit Constant
highlight default link tlopString String
highlight default link tlopComment Comment
highlight default link tlopDirective PreProc
highlight default link tlopTodo Todo

let b:current_syntax = 'tlop'
