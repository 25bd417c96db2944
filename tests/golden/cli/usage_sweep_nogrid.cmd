sweep ev.tlop flat
