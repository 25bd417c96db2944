/* fuzz_table.c — libFuzzer target: the parameter-table reader (tab_parse, src/eval/table.h) on
 * arbitrary bytes, then look-ups in every table it accepts.
 *
 * Properties, besides "no crash, no sanitizer report, no leak, no hang":
 *  - tab_parse returns the number of problems it reported, and a table exactly when that
 *    number is 0 (with or without a report function);
 *  - every report has a message, and a line between 0 and the number of lines;
 *  - an accepted table is what table.h promises: rows ≥ 1, columns ≥ 1 (a channel: o and
 *    at least L(m,1)), m strictly increasing, finite and ≥ 0, values finite and ≥ 0,
 *    a name per column;
 *  - look-ups at sizes up to 10^12 B and τ up to 2T + 1 give a number ≥ 0 (not NaN), an
 *    exact row gives that row's value, and between two rows the value lies between
 *    theirs. */
#include "fuzz_common.h"

#include "eval/table.h"

#include <math.h>

typedef struct {
  int reports;
  int max_line;
  const char *last;
} reports;

static void on_report(void *user, int line, const char *message) {
  reports *r = user;
  FUZZ_CHECK(message && *message, (fuzz_diags *)NULL, "a report without a message");
  FUZZ_CHECK(line >= 0 && line <= r->max_line, (fuzz_diags *)NULL,
             "report at line %d of a text of %d lines: %s", line, r->max_line, message);
  r->reports++;
  r->last = message;
}

/* A property with a name (tests/fuzz/known-bugs lists those an open bug keeps off). */
#define PROPERTY(name, cond, ...)                                                           \
  do {                                                                                      \
    if (!fuzz_known(name))                                                                  \
      FUZZ_CHECK(cond, (fuzz_diags *)NULL, "[" name "] " __VA_ARGS__);                      \
  } while (0)

static void check_value(double y, const char *what, double m, double tau) {
  PROPERTY("lookup-range", !isnan(y) && y >= 0, "%s(m=%.17g, tau=%.17g) = %.17g", what, m, tau, y);
}

static void check_table(const tab_table *t) {
  FUZZ_CHECK(t->nrows >= 1 && t->ncols >= 1, (fuzz_diags *)NULL, "%d rows, %d columns",
             t->nrows, t->ncols);
  if (t->kind == TAB_CHANNEL)
    FUZZ_CHECK(t->ncols >= 2 && tab_ntau(t) == t->ncols - 1, (fuzz_diags *)NULL,
               "a channel table with %d columns", t->ncols);
  for (int c = 0; c < t->ncols; c++)
    FUZZ_CHECK(t->colnames && t->colnames[c], (fuzz_diags *)NULL, "column %d has no name", c);
  for (int i = 0; i < t->nrows; i++) {
    FUZZ_CHECK(isfinite(t->m[i]) && t->m[i] >= 0, (fuzz_diags *)NULL, "m[%d] = %.17g", i,
               t->m[i]);
    if (i)
      FUZZ_CHECK(t->m[i] > t->m[i - 1], (fuzz_diags *)NULL, "m[%d] = %.17g after %.17g", i,
                 t->m[i], t->m[i - 1]);
    for (int c = 0; c < t->ncols; c++) {
      double v = t->v[(size_t)i * (size_t)t->ncols + (size_t)c];
      FUZZ_CHECK(isfinite(v) && v >= 0, (fuzz_diags *)NULL, "v[%d][%d] = %.17g", i, c, v);
    }
  }

  /* Sizes: each row, between rows, below the first, beyond the last, far beyond. */
  int n = t->nrows;
  double last = t->m[n - 1];
  for (int i = 0; i < n && i < 64; i++) {
    double ms[3] = {t->m[i], i + 1 < n ? (t->m[i] + t->m[i + 1]) / 2 : last * 2.5,
                    i ? t->m[i] * 0.75 : t->m[0] / 2};
    for (int k = 0; k < 3; k++) {
      double m = ms[k];
      if (!(m >= 0 && m <= 1e12))
        continue;
      unsigned flags = 0;
      for (int c = 0; c < t->ncols; c++) {
        double y = tab_column_at(t, c, m, &flags);
        check_value(y, "column", m, c);
        if (k == 0) {
          double row = t->v[(size_t)i * (size_t)t->ncols + (size_t)c];
          FUZZ_CHECK(y == row, (fuzz_diags *)NULL, "column %d at row %d (m=%.17g): %.17g, not %.17g",
                     c, i, m, y, row);
        } else if (k == 1 && i + 1 < n) {
          double a = t->v[(size_t)i * (size_t)t->ncols + (size_t)c];
          double b = t->v[(size_t)(i + 1) * (size_t)t->ncols + (size_t)c];
          double lo = a < b ? a : b, hi = a < b ? b : a;
          PROPERTY("lookup-range", y >= lo * (1 - 1e-12) && y <= hi * (1 + 1e-12),
                     "column %d at m=%.17g between rows %d and %d: %.17g not in [%.17g, %.17g]",
                     c, m, i, i + 1, y, lo, hi);
        }
      }
      if (t->kind == TAB_CHANNEL) {
        int T = tab_ntau(t);
        check_value(tab_o(t, m, &flags), "o", m, 0);
        double taus[] = {1, 1.5, T, T + 0.5, 2.0 * T + 1};
        for (size_t j = 0; j < sizeof taus / sizeof *taus; j++) {
          check_value(tab_L(t, m, taus[j], TAB_TAU_PROPORTIONAL, &flags), "L", m, taus[j]);
          check_value(tab_L(t, m, taus[j], TAB_TAU_CLAMP, &flags), "L clamp", m, taus[j]);
        }
      }
    }
  }
  if (t->kind == TAB_GAMMA)
    for (int c = 0; c < t->ncols; c++)
      FUZZ_CHECK(tab_gamma_column(t, t->colnames[c]) >= 0, (fuzz_diags *)NULL,
                 "operator '%s' not found by name", t->colnames[c]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > (4u << 20))
    return 0;
  int lines = 1;
  for (size_t i = 0; i < size; i++)
    lines += data[i] == '\n';

  reports r = {0, lines, NULL};
  tab_table *t = NULL;
  int problems = tab_parse((const char *)data, size, &t, on_report, &r);
  FUZZ_CHECK(problems >= 0 && problems == r.reports, (fuzz_diags *)NULL,
             "tab_parse returned %d, reported %d", problems, r.reports);
  FUZZ_CHECK((problems == 0) == (t != NULL), (fuzz_diags *)NULL, "%d problems but table %p",
             problems, (void *)t);

  /* Without a report function: the same verdict. */
  tab_table *t2 = NULL;
  int problems2 = tab_parse((const char *)data, size, &t2, NULL, NULL);
  FUZZ_CHECK(problems2 == problems, (fuzz_diags *)NULL, "%d problems without a report function, %d with",
             problems2, problems);
  tab_free(t2);

  if (t)
    check_table(t);
  tab_free(t);
  return 0;
}
