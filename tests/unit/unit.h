/* unit.h — the tiny assertion layer of the unit tests: each test binary runs its checks,
 * prints every failure with file:line, and exits non-zero when any failed. */
#ifndef TLOP_UNIT_H
#define TLOP_UNIT_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int unit_failures;
static int unit_checks;

#define CHECK(cond)                                                                 \
  do {                                                                              \
    unit_checks++;                                                                  \
    if (!(cond)) {                                                                  \
      unit_failures++;                                                              \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);      \
    }                                                                               \
  } while (0)

/* Relative closeness: |a-b| <= tol·max(|a|,|b|), or both exactly equal. */
#define CHECK_NEAR(a, b, tol)                                                       \
  do {                                                                              \
    double unit_a_ = (a), unit_b_ = (b);                                            \
    double unit_s_ = fmax(fabs(unit_a_), fabs(unit_b_));                            \
    unit_checks++;                                                                  \
    if (!(unit_a_ == unit_b_ || fabs(unit_a_ - unit_b_) <= (tol) * unit_s_)) {      \
      unit_failures++;                                                              \
      fprintf(stderr, "%s:%d: %s = %.17g, expected %s = %.17g\n", __FILE__,         \
              __LINE__, #a, unit_a_, #b, unit_b_);                                  \
    }                                                                               \
  } while (0)

#define CHECK_STR(a, b)                                                             \
  do {                                                                              \
    const char *unit_x_ = (a), *unit_y_ = (b);                                      \
    unit_checks++;                                                                  \
    if (!unit_x_ || !unit_y_ || strcmp(unit_x_, unit_y_) != 0) {                    \
      unit_failures++;                                                              \
      fprintf(stderr, "%s:%d: %s = \"%s\", expected \"%s\"\n", __FILE__, __LINE__,  \
              #a, unit_x_ ? unit_x_ : "(null)", unit_y_ ? unit_y_ : "(null)");      \
    }                                                                               \
  } while (0)

/* `TEST ROOT --real` runs only the checks on ../shared/params (the measured tables are not
 * part of the project): they exit 77, which ctest reports as skipped, when it is absent. */
static inline int unit_real_mode(int argc, char **argv) {
  return argc > 2 && strcmp(argv[2], "--real") == 0;
}

#define UNIT_SKIPPED 77

static inline int unit_report(const char *name) {
  printf("%s: %d checks, %d failed\n", name, unit_checks, unit_failures);
  return unit_failures ? 1 : 0;
}

#endif
