eval counted_real.tlop 'scaled(m, P, x)' --set m=8B,P=4,x=0.5
