simplify two_level.tlop bcast_two_level --format tlop
