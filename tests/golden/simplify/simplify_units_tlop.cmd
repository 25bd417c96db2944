simplify ../../bad/eval/ev.tlop 'L(m, S/1 KiB) + (S - 1 MiB + S) / 1 KiB * L(m, 1) + L(m, 1) * 2 KiB / S' --format tlop
