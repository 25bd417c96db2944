check param_self.tlop
