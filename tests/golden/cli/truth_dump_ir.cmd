dump-ir truth.tlop 'm > 1 B and true or false'
