eval ev.tlop 'L[nosuch](1KiB, 2)' --params shm=tab_good.txt
