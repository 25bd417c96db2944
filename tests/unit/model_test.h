/* model_test.h — what the tests of stdlib models share (test_papers.c, test_models.c): a
 * model loaded from the test's own source, the text of the last error, an expression's
 * value on one of the model's platforms, and main: the checks, or with `--real` the
 * checks on ../shared/params (skipped, exit 77, when it is absent). */
#ifndef TLOP_MODEL_TEST_H
#define TLOP_MODEL_TEST_H

#include "api/api.h"
#include "unit.h"

static unit_diags diags; /* unit.h's recorder: diags.last_error_text, the last error */
static tlop_ctx *ctx;
static tlop_model *model;

/* TEXT evaluated on platform PF_NAME of the model with the values of ENV (NULL: the
 * defaults); NaN (and the error on stderr) if it does not evaluate. */
static double value_in(const char *pf_name, const char *text, const tlop_env *env) {
  tlop_platform *pf;
  tlop_expr *e;
  double v = NAN;
  if (tlop_platform_open(model, pf_name, &pf) != TLOP_OK) {
    fprintf(stderr, "platform %s: %s\n", pf_name ? pf_name : "(default)", diags.last_error_text);
    return NAN;
  }
  if (tlop_expr_parse(model, text, env, &e) != TLOP_OK || tlop_eval(e, pf, env, &v) != TLOP_OK)
    fprintf(stderr, "%s: %s\n", text, diags.last_error_text);
  tlop_platform_free(pf);
  return v;
}

static double value(const char *pf_name, const char *text) { return value_in(pf_name, text, NULL); }

#define CHECK_VALUE(pf, text, expect) CHECK_NEAR(value(pf, text), (double)(expect), 1e-12)

/* Loads SRC as tests/unit/NAME.tlop (so its relative imports resolve), then runs CHECKS,
 * or REAL(root) with `--real` (it returns 0 when ../shared/params is absent). */
static int model_test_main(int argc, char **argv, const char *name, const char *src,
                           int (*real)(const char *root), void (*checks)(void)) {
  const char *root = argc > 1 ? argv[1] : ".";
  char path[4096];
  ctx = tlop_ctx_new();
  tlop_ctx_set_diag(ctx, unit_diag, &diags);
  snprintf(path, sizeof path, "%s/tests/unit/%s.tlop", root, name);
  if (tlop_load_source(ctx, path, src, strlen(src), &model) != TLOP_OK) {
    fprintf(stderr, "%s: %s\n", name, diags.last_error_text);
    return 1;
  }
  char report[64];
  if (unit_real_mode(argc, argv)) {
    int ran = real(root);
    tlop_ctx_free(ctx);
    snprintf(report, sizeof report, "%s (real tables)", name);
    return ran ? unit_report(report) : UNIT_SKIPPED;
  }
  checks();
  tlop_ctx_free(ctx);
  return unit_report(name);
}

#endif
