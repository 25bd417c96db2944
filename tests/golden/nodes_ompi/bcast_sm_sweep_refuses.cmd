sweep ../../../stdlib/openmpi/bcast_sm.tlop bcast_sm --grid m=64KiB,1MiB --set P=8,g=2 --grid M=1,2
