explain ../../../stdlib/openmpi/bcast.tlop bcast_chain --set m=1MiB,P=9,M=3,map=round_robin,ompi_bcast_segsize=256KiB
