eval ev.tlop 'L(1KiB, 2)' --params tab_m_count_negative.txt
