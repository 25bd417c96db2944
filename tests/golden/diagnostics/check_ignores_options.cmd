check ev.tlop --params nosuch.txt --platform nowhere
