eval pf_no_channels.tlop 'L(1KiB, 1)'
