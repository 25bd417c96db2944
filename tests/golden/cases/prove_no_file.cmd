prove
