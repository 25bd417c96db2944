prove prove_evidence.tlop --grid P=2,4,8,16 --grid m=1KiB,1MiB --platform tiny
