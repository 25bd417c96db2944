simplify ../../../stdlib/models/loggps.tlop 'loggps_p2p(k)' --assume 'k >= s_gps + 1, k <= S_gps'
