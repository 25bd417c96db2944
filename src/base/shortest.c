/* shortest.c — a double as the shortest decimal that reads back to it (tlop_format_double):
 * the Schubfach method of Raffaello Giulietti, "The Schubfach way to render doubles" (2020,
 * https://drive.google.com/file/d/1gp5xv4CAa78SVgCeWfGqqI4FfYYYuNFb), as in his Java
 * DoubleToDecimal. Why not printf: "%.17g" costs ≈ 1 µs a value in glibc and prints digits
 * a reader does not need; this is a few dozen ns. Every output reads back bit-identical
 * through strtod and is as short as any that does (tests/unit/test_shortest.c holds both).
 *
 * A finite v > 0 is c·2^q (c < 2^53). Its rounding interval R — the reals that round to v —
 * is bounded by the midpoints to its neighbours, c ± 1/2 in units of 2^q (c - 1/4 below a
 * power of two, where the spacing halves). With k = floor(log10 2^q) (or of 3/4·2^q below a
 * power of two), at most one of the 10 multiples of 10^(k+1) can lie in R, so the method
 * computes vb ≈ 4c·2^q·10^-k and the bounds vbl, vbr the same way, by one 128-bit product
 * with g(k) ≈ 10^-k (shortest_pow10.h, exact to the last bit, rounded to odd so that
 * comparisons stay exact), then picks from s = floor(v·10^-k) and s + 1, or their tens,
 * the one in R, the nearer to v on a tie of length (the even one on an exact tie). */
#include "base.h"

#include <stdint.h>
#include <string.h>

#include "shortest_pow10.h"

__extension__ typedef unsigned __int128 u128; /* gcc and clang on 64-bit targets */

enum {
  SIG_BITS = 53,      /* P: the significand's bits, the hidden one included */
  Q_MIN = -1074,      /* the exponent of the subnormals */
  EXP_MASK = 0x7ff,
  C_TINY = 3,         /* below it a subnormal's interval holds several multiples of 10^k */
};
#define C_MIN ((uint64_t)1 << (SIG_BITS - 1))
#define MASK_63 (((uint64_t)1 << 63) - 1)

/* floor(log10 2^e), floor(log10 (3/4)·2^e), floor(log2 10^e) for the exponents of doubles,
 * by fixed-point products (Giulietti, section 9.6; >> on a negative is arithmetic in gcc and
 * clang, which is the floor). */
static int floor_log10_pow2(int e) { return (int)((int64_t)e * 661971961083 >> 41); }
static int floor_log10_three_quarters_pow2(int e) {
  return (int)(((int64_t)e * 661971961083 - 274743187321) >> 41);
}
static int floor_log2_pow10(int e) { return (int)((int64_t)e * 913124641741 >> 38); }

/* floor(cp·g·2^-127), with its last bit set when the product was not exact (round to odd). */
static uint64_t round_to_odd(uint64_t g1, uint64_t g0, uint64_t cp) {
  u128 x = (u128)g0 * cp, y = (u128)g1 * cp;
  uint64_t z = ((uint64_t)y >> 1) + (uint64_t)(x >> 64);
  uint64_t vbp = (uint64_t)(y >> 64) + (z >> 63);
  return vbp | (((z & MASK_63) + MASK_63) >> 63);
}

static const char two_digits[] = "00010203040506070809101112131415161718192021222324252627282930"
                                 "31323334353637383940414243444546474849505152535455565758596061"
                                 "62636465666768697071727374757677787980818283848586878889909192"
                                 "939495969798990";

/* The digits of f, ending just before p, two at a time: in 32-bit arithmetic (each / and %
 * a multiply and a shift), cheaper than 64-bit. */
static void write_pairs(char *p, uint32_t f) {
  while (f >= 100) {
    p -= 2;
    memcpy(p, two_digits + 2 * (f % 100), 2);
    f /= 100;
  }
  if (f >= 10)
    memcpy(p - 2, two_digits + 2 * f, 2);
  else
    p[-1] = (char)('0' + f);
}

/* v (< 10^8) as exactly eight digits at p. */
static void write_eight(char *p, uint32_t v) {
  uint32_t hi = v / 10000, lo = v % 10000;
  memcpy(p, two_digits + 2 * (hi / 100), 2);
  memcpy(p + 2, two_digits + 2 * (hi % 100), 2);
  memcpy(p + 4, two_digits + 2 * (lo / 100), 2);
  memcpy(p + 6, two_digits + 2 * (lo % 100), 2);
}

/* The digits of f (f > 0, at most 17 of them), ending just before end: eight at a time
 * from the last while more remain, so that every pair is cut in 32-bit arithmetic. */
static void write_digits(char *end, uint64_t f) {
  while (f >= 100000000) {
    end -= 8;
    write_eight(end, (uint32_t)(f % 100000000));
    f /= 100000000;
  }
  write_pairs(end, (uint32_t)f);
}

/* The number of digits of f (f > 0): from its bit length (log10 2 ≈ 1233/4096), one
 * comparison to settle it. */
static int digit_count(uint64_t f) {
  static const uint64_t pow10[19] = {
      1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000, 10000000000,
      100000000000, 1000000000000, 10000000000000, 100000000000000, 1000000000000000,
      10000000000000000, 100000000000000000, 1000000000000000000};
  int t = (64 - __builtin_clzll(f)) * 1233 >> 12;
  return t + (f >= pow10[t]);
}

/* f·10^e written as printf's %.17g would lay it out (fixed from 1e-4 to below 1e17, else
 * d.ddde±XX), with f's trailing zeros dropped. The digits go straight to their place; a
 * point inside them is made room for by moving the digits before it. */
static size_t write_decimal(char *out, uint64_t f, int e) {
  while (f % 10 == 0) {
    f /= 10;
    e++;
  }
  int len = digit_count(f), x = e + len - 1; /* x: the exponent of the first digit */
  if (x >= -4 && x < 0) { /* 0.000ddd */
    memcpy(out, "0.0000", 6);
    write_digits(out + 1 - x + len, f);
    return (size_t)(1 - x + len);
  }
  if (x >= 0 && x < 17 && len <= x + 1) { /* ddd000 */
    write_digits(out + len, f);
    for (int i = len; i <= x; i++) /* a few bytes: no call to memset */
      out[i] = '0';
    return (size_t)x + 1;
  }
  int point = x >= 0 && x < 17 ? x + 1 : 1; /* digits before the point */
  write_digits(out + 1 + len, f);
  for (int i = 0; i < point; i++) /* at most 17 bytes: no call to memmove */
    out[i] = out[i + 1];
  out[point] = '.';
  size_t n = (size_t)len + (len > point);
  if (x >= 0 && x < 17)
    return n;
  if (len == 1) /* d, not "d." */
    n = 1;
  char *o = out + n;
  *o++ = 'e';
  *o++ = x < 0 ? '-' : '+';
  unsigned ax = (unsigned)(x < 0 ? -x : x);
  if (ax >= 100)
    *o++ = (char)('0' + ax / 100);
  memcpy(o, two_digits + 2 * (ax % 100), 2);
  return (size_t)(o + 2 - out);
}

/* c·2^q, c ≥ C_TINY. */
static size_t schubfach(char *out, int q, uint64_t c) {
  uint64_t odd = c & 1; /* an odd c's interval is open: its ends round to the neighbours */
  uint64_t cb = c << 2, cbr = cb + 2, cbl;
  int k;
  if (c != C_MIN || q == Q_MIN) {
    cbl = cb - 2;
    k = floor_log10_pow2(q);
  } else { /* a power of two: the spacing below is half the spacing above */
    cbl = cb - 1;
    k = floor_log10_three_quarters_pow2(q);
  }
  int h = q + floor_log2_pow10(-k) + 2;
  uint64_t g1 = shortest_g[k - SHORTEST_K_MIN][0], g0 = shortest_g[k - SHORTEST_K_MIN][1];
  uint64_t vb = round_to_odd(g1, g0, cb << h), vbl = round_to_odd(g1, g0, cbl << h),
           vbr = round_to_odd(g1, g0, cbr << h);
  uint64_t s = vb >> 2;
  if (s >= 10) { /* one digit fewer: a multiple of ten in R (Java's s >= 100 keeps two) */
    uint64_t sp10 = 10 * (s / 10), tp10 = sp10 + 10;
    bool upin = vbl + odd <= sp10 << 2, wpin = (tp10 << 2) + odd <= vbr;
    if (upin != wpin)
      return write_decimal(out, upin ? sp10 : tp10, k);
  }
  uint64_t t = s + 1;
  bool uin = vbl + odd <= s << 2, win = (t << 2) + odd <= vbr;
  if (uin != win)
    return write_decimal(out, uin ? s : t, k);
  /* both in R: the nearer to v, the even one on a tie */
  int64_t cmp = (int64_t)(vb - ((s + t) << 1));
  return write_decimal(out, cmp < 0 || (cmp == 0 && (s & 1) == 0) ? s : t, k);
}

size_t tlop_format_double(char *buf, double v) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  char *o = buf;
  if (bits >> 63)
    *o++ = '-';
  uint64_t t = bits & (C_MIN - 1);
  int bq = (int)(bits >> (SIG_BITS - 1)) & EXP_MASK;
  size_t n;
  if (bq == EXP_MASK) { /* as glibc's printf writes them */
    memcpy(o, t ? "nan" : "inf", 3);
    n = 3;
  } else if (bq != 0) {
    int mq = -Q_MIN + 1 - bq; /* -q */
    uint64_t c = C_MIN | t;
    if (mq > 0 && mq < SIG_BITS && (c >> mq) << mq == c) { /* an integer below 2^53 */
      n = (size_t)digit_count(c >> mq); /* below 10^17: its digits, as printf writes it */
      write_digits(o + n, c >> mq);
    } else
      n = schubfach(o, -mq, c);
  } else if (t >= C_TINY)
    n = schubfach(o, Q_MIN, t);
  else if (t != 0) /* the two least subnormals, whose intervals hold several one-digit
                    * decimals: 5e-324 in (2.47e-324, 7.41e-324), 1e-323 in [7.41, 12.35]e-324 */
    n = write_decimal(o, t == 1 ? 5 : 1, t == 1 ? -324 : -323);
  else {
    *o = '0';
    n = 1;
  }
  o[n] = 0;
  return (size_t)(o - buf) + n;
}
