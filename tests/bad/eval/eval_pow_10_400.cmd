eval ev.tlop '10^400'
