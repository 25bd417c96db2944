/* test_shortest.c — tlop_format_double (src/base/shortest.c) against strtod: every text it
 * writes reads back to the same bits, and none shorter does. Millions of random bit patterns,
 * every power of two and its neighbours, the subnormals' ends, powers of ten, integers
 * around 2^53, and values like those a sweep prints (costs, sizes, a geometric axis). */
#include "tlop.h"
#include "unit.h"

#include <float.h>
#include <stdint.h>
#include <stdlib.h>

/* Under AddressSanitizer everything is ≈ 10× slower: fewer random values, the same kinds. */
#if defined(__SANITIZE_ADDRESS__)
#define RANDOM_VALUES 1000000
#else
#define RANDOM_VALUES 10000000
#endif
/* One in this many values also gets the full check of shortness (a printf per length). */
#define SHORTNESS_EVERY 100

static uint64_t bits_of(double v) {
  uint64_t b;
  memcpy(&b, &v, sizeof b);
  return b;
}

static double of_bits(uint64_t b) {
  double v;
  memcpy(&v, &b, sizeof v);
  return v;
}

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t next_random(void) { /* xorshift64* */
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return rng * 2685821657736338717u;
}

/* The significant digits of a text as printf writes it, without the leading and trailing
 * zeros ("-0.00125" → "125", "1.5e-07" → "15", "36028797018963970" → "3602879701896397"). */
static void significant_digits(const char *s, char *digits) {
  char *d = digits;
  for (; *s && *s != 'e'; s++)
    if (*s >= '0' && *s <= '9' && (d > digits || *s != '0'))
      *d++ = *s;
  while (d > digits && d[-1] == '0')
    d--;
  *d = 0;
}

static int mismatches;

/* v's text reads back to v; with `shortness`, no printf precision below its length reads
 * back, and its digits are printf's at that length (the correctly rounded ones) unless those
 * do not read back (an asymmetric interval at a power of two). */
static void check_value(double v, int shortness) {
  char buf[TLOP_FORMAT_DOUBLE_MAX];
  size_t len = tlop_format_double(buf, v);
  int ok = len == strlen(buf) && len < TLOP_FORMAT_DOUBLE_MAX;
  double back = strtod(buf, NULL);
  if (v != v)
    ok = ok && back != back && (bits_of(v) >> 63) == (buf[0] == '-');
  else
    ok = ok && bits_of(back) == bits_of(v);
  if (ok && shortness && v == v && v != 0 && !isinf(v)) {
    char digits[TLOP_FORMAT_DOUBLE_MAX], ref[320], ref_digits[320];
    significant_digits(buf, digits);
    int p = (int)strlen(digits);
    for (int shorter = 1; shorter < p && ok; shorter++) {
      snprintf(ref, sizeof ref, "%.*e", shorter - 1, v);
      ok = bits_of(strtod(ref, NULL)) != bits_of(v);
    }
    snprintf(ref, sizeof ref, "%.*e", p - 1, v);
    significant_digits(ref, ref_digits);
    if (ok && strcmp(ref_digits, digits) != 0)
      ok = bits_of(strtod(ref, NULL)) != bits_of(v);
  }
  unit_checks++;
  if (!ok && mismatches++ < 20) {
    unit_failures++;
    fprintf(stderr, "%s:%d: %.17g (bits %016llx) written \"%s\"\n", __FILE__, __LINE__, v,
            (unsigned long long)bits_of(v), buf);
  } else if (!ok)
    unit_failures++;
}

static void check_with_neighbours(double v) {
  check_value(v, 1);
  check_value(nextafter(v, INFINITY), 1);
  check_value(nextafter(v, -INFINITY), 1);
}

int main(void) {
  char buf[TLOP_FORMAT_DOUBLE_MAX];
  /* the layout of printf's %.17g, at the ends of each form */
  static const struct {
    double v;
    const char *text;
  } layouts[] = {{0, "0"},          {-0.0, "-0"},           {1, "1"},
                 {1024, "1024"},    {0.5, "0.5"},           {0.1, "0.1"},
                 {1e-4, "0.0001"},  {1.5e-5, "1.5e-05"},    {123.25, "123.25"},
                 {1e16, "10000000000000000"},               {1e17, "1e+17"},
                 {-2.5e-300, "-2.5e-300"},                  {DBL_MAX, "1.7976931348623157e+308"},
                 {5e-324, "5e-324"},       {0.30000000000000004, "0.30000000000000004"},
                 {INFINITY, "inf"}, {-INFINITY, "-inf"},    {9007199254740993.0, "9007199254740992"}};
  for (size_t i = 0; i < sizeof layouts / sizeof *layouts; i++) {
    tlop_format_double(buf, layouts[i].v);
    CHECK_STR(buf, layouts[i].text);
  }
  tlop_format_double(buf, NAN);
  CHECK(!strcmp(buf, "nan") || !strcmp(buf, "-nan"));

  for (int e = -1074; e <= 1023; e++)
    check_with_neighbours(ldexp(1, e));
  for (int e = -323; e <= 308; e++)
    check_with_neighbours(strtod((snprintf(buf, sizeof buf, "1e%d", e), buf), NULL));
  for (uint64_t b = 1; b < 100000; b++) { /* the subnormals' ends, and the normals' start */
    check_value(of_bits(b), b < 1000);
    check_value(of_bits(0x0010000000000000u - b), b < 1000);
    check_value(of_bits(0x0010000000000000u + b), b < 1000);
  }
  for (int64_t i = -100000; i <= 100000; i++) {
    check_value((double)i, 0);
    check_value(0x1p53 + (double)i * 2, 1);
  }
  check_with_neighbours(DBL_MAX);
  check_with_neighbours(DBL_MIN);
  /* values like a sweep's: a geometric axis, sizes, costs in seconds */
  double m = 1;
  for (int i = 0; i < 2000; i++, m *= 1.02)
    check_with_neighbours(m);
  for (int i = 0; i < 200000; i++) {
    double cost = 1e-7 * exp((double)(next_random() >> 11) * 0x1p-53 * 20);
    check_value(cost, i % SHORTNESS_EVERY == 0);
    check_value(round(cost * 1e9), 0);
  }
  for (int i = 0; i < RANDOM_VALUES; i++)
    check_value(of_bits(next_random()), i % SHORTNESS_EVERY == 0);
  return unit_report("shortest");
}
