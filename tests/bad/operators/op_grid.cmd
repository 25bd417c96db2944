sweep op_model.tlop red --grid op=max,sum --grid m=1KiB --grid P=3
