sweep ring_nodes.tlop eq7_difference eq8_difference --platform tc41 --grid m=1,1KiB --grid P=16..64:*2 --grid Q=2..8:*2
