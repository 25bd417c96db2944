eval ev.tlop '1/(0*(2∥L(1KiB,1))*(2∥L(1KiB,2))*(2∥L(1KiB,3))*(2∥L(1KiB,4))*(2∥L(1KiB,5))*(2∥L(1KiB,6))*(2∥L(1KiB,7))*(2∥L(1KiB,8)))'
