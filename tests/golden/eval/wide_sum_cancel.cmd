eval wide_sums.tlop 'cancel_beyond(8 KiB, 12000)'
