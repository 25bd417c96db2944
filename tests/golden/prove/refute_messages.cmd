prove refute_messages.tlop
