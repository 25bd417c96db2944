#!/usr/bin/env python3
"""Writes shortest_pow10.h, the table of shortest.c (Schubfach, Giulietti 2020, section 9.8):
for each decimal exponent k of a double's formatting, g(k) = floor(10^-k * 2^(125 - r)) + 1
with r = floor(log2(10^-k)), so g lies in [2^125, 2^126), split as g1 * 2^63 + g0.
Exact integer arithmetic; run it again only to check the checked-in table:
    python3 src/base/shortest_pow10.py > src/base/shortest_pow10.h"""

K_MIN, K_MAX = -324, 292  # floor(log10(2^q)) for a double's exponents q = -1074..971


def floor_log2_pow10(e):
    """floor(log2(10^e)), exactly; checked against the shortcut shortest.c uses."""
    exact = (10**e).bit_length() - 1 if e >= 0 else -((10**-e).bit_length())
    assert exact == (e * 913124641741) >> 38, e
    return exact


print("/* shortest_pow10.h — written by shortest_pow10.py (see there): g(k) for k = %d..%d,"
      % (K_MIN, K_MAX))
print(" * as {g1, g0} with g = g1·2^63 + g0 = floor(10^-k · 2^(125 - floor(log2 10^-k))) + 1. */")
print("#define SHORTEST_K_MIN (%d)" % K_MIN)
print("static const uint64_t shortest_g[%d][2] = {" % (K_MAX - K_MIN + 1))
entries = []
for k in range(K_MIN, K_MAX + 1):
    e = -k
    shift = 125 - floor_log2_pow10(e)
    num, den = (10**e, 1) if e >= 0 else (1, 10**-e)
    g = (num << shift) // den + 1 if shift >= 0 else num // (den << -shift) + 1
    assert 2**125 <= g < 2**126, k
    entries.append("{0x%016x, 0x%016x}," % (g >> 63, g & (2**63 - 1)))
for i in range(0, len(entries), 2):  # two a line: a private header stays under 400 lines
    print("    " + " ".join(entries[i:i + 2]))
print("};")
