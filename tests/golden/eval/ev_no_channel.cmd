eval ev_chan.tlop 'hop(1KiB)'
