eval pf_self_platform_param.tlop 'L(1KiB, 1)' --set P=-1
