check pf_check_two_platforms.tlop --platform a
