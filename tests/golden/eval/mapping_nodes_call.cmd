eval transmission.tlop 'ring_listed(1 B)' --platform tc41
