simplify --format tlop ../eval/transmission.tlop 'calls(m)'
