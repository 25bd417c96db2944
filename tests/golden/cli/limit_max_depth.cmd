check ev.tlop --max-depth 3
