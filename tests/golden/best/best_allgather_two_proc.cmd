eval ../../../stdlib/openmpi/allgather.tlop allgather_two_proc --set m=1KiB --set P=3
