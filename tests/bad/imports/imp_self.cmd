check imp_self.tlop
