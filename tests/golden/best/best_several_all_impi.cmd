best best_several.tlop --collective all --grid m=1KiB..4MiB:*16 --grid P=2,8 --refine --emit impi -o -
