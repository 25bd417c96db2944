simplify --format tlop maxover.tlop 'nested(n)'
