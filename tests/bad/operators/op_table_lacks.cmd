eval op_model.tlop red --set m=1KiB,P=3,op=prod
