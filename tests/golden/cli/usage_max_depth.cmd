check ev.tlop --max-depth 0
