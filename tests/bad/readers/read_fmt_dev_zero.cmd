fmt /dev/zero
