simplify -f tlop simplify_let_scope.tlop 'scope(m)'
