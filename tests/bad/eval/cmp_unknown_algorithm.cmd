compare ev.tlop flat nosuch
