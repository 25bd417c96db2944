/* unit.h — the tiny assertion layer of the unit tests: each test binary runs its checks,
 * prints every failure with file:line, and exits non-zero when any failed; and the
 * recorder of the diagnostics a context reports, which the tests share. */
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

/* ---- the diagnostic recorder, for a test that includes tlop.h (or a header that does)
 * before this one: tlop_ctx_set_diag(ctx, unit_diag, &rec) keeps in rec, a unit_diags,
 * what the context reports. ---- */
#ifdef TLOP_H
#define UNIT_MAX_DIAGS 64

typedef struct {
  int n, errors, warnings, notes;     /* every diagnostic, also past UNIT_MAX_DIAGS */
  tlop_severity sev[UNIT_MAX_DIAGS];  /* the first UNIT_MAX_DIAGS: severity, line, message */
  int line[UNIT_MAX_DIAGS];
  char msg[UNIT_MAX_DIAGS][600];
  char last_text[1024];               /* the last diagnostic as printed (its text) */
  char last_error[1024];              /* the last error: its message */
  char last_error_text[1024];         /* ... and as printed */
} unit_diags;

static inline void unit_diag(void *user, const tlop_diag *d) {
  unit_diags *r = user;
  if (r->n < UNIT_MAX_DIAGS) {
    r->sev[r->n] = d->severity;
    r->line[r->n] = d->line;
    snprintf(r->msg[r->n], sizeof r->msg[r->n], "%s", d->message);
  }
  r->n++;
  snprintf(r->last_text, sizeof r->last_text, "%s", d->text);
  if (d->severity == TLOP_ERROR) {
    r->errors++;
    snprintf(r->last_error, sizeof r->last_error, "%s", d->message);
    snprintf(r->last_error_text, sizeof r->last_error_text, "%s", d->text);
  } else if (d->severity == TLOP_WARNING) {
    r->warnings++;
  } else {
    r->notes++;
  }
}

static inline void unit_diags_reset(unit_diags *r) { memset(r, 0, sizeof *r); }

/* Whether one of the recorded diagnostics has severity SEV, is at LINE (any line when 0)
 * and its message contains SUB. */
static inline int unit_diags_has(const unit_diags *r, tlop_severity sev, int line,
                                 const char *sub) {
  for (int i = 0; i < r->n && i < UNIT_MAX_DIAGS; i++)
    if (r->sev[i] == sev && (line == 0 || r->line[i] == line) && strstr(r->msg[i], sub))
      return 1;
  return 0;
}

/* Prints the recorded diagnostics on stderr, one a line: [severity] line N: message. */
static inline void unit_diags_dump(const unit_diags *r) {
  for (int i = 0; i < r->n && i < UNIT_MAX_DIAGS; i++)
    fprintf(stderr, "    [%d] line %d: %s\n", (int)r->sev[i], r->line[i], r->msg[i]);
}
#endif

#endif
