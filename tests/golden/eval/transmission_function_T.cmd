eval transmission.tlop 'function_T(1 B)'
