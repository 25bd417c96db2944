frobnicate ev.tlop
