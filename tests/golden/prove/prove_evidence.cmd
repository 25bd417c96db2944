prove prove_evidence.tlop --grid m=1KiB,64KiB,1MiB --platform tiny
