eval flows.tlop 'many(3)' --max-messages 4
