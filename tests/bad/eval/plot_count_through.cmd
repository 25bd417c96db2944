plot count_through.tlop half_linear --grid m=8,16 --set P=5 -o x.svg
