eval pf_transmission_channel.tlop 'x(1 B)'
