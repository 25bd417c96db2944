eval - 'one(x, 4)'
