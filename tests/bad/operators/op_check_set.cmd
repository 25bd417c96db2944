check op_model.tlop --set op=prod
