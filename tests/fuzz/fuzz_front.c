/* fuzz_front.c — libFuzzer target: the lexer, parser and checker on arbitrary bytes, through
 * the public API only (tlop.h), then what a loaded model offers: platforms, a few fixed
 * expressions, every algorithm of the file, evaluated, explained, printed.
 *
 * Properties, besides "no crash, no sanitizer report, no leak, no hang":
 *  - a call that fails has reported at least one error (never fail silently);
 *  - a call that succeeds returns its object (model, platform, expression);
 *  - a value that evaluates is a number (the evaluator reports NaN instead of returning it).
 *
 * Imports and platform tables named by the input are read from disk relative to the
 * working directory, as the command would; the stdlib comes from the copy built in. */
#include "fuzz_common.h"

#include <math.h>

/* Most terms one evaluation may add up: small, so that a sum of 10^7 terms, which the
 * command does in well under a second, does not make the fuzzer slow. */
#define FUZZ_MAX_TERMS 1e5

static const char *const fixed_exprs[] = {
    "1",
    "m / 2 + 1 KiB",
    "L(m, 1)",
    "o(m) + 2 * L(m, P)",
    "P ∥ L(m, 1)",
    "sum i = 0 .. ceil(log2(P)) - 1 : 2^i ∥ L(m / 2^(i + 1), 1)",
    "min(L(m, 2), 2 * L(m, 1)) + max(o(m), 1us)",
};

static void status_reported(tlop_status st, const fuzz_diags *db, int before, const char *what) {
  FUZZ_CHECK(st == TLOP_OK || db->errors > before, db, "%s failed (%s) without an error", what,
             tlop_status_name(st));
}

static void use_expr(tlop_ctx *ctx, tlop_expr *e, const tlop_platform *pf, const tlop_env *env,
                     fuzz_diags *db) {
  double v = 0;
  int before = db->errors;
  tlop_status st = tlop_eval(e, pf, env, &v);
  status_reported(st, db, before, "tlop_eval");
  if (st == TLOP_OK)
    FUZZ_CHECK(!isnan(v), db, "tlop_eval returned NaN without an error");

  tlop_stage *rows = NULL;
  size_t nrows = 0;
  before = db->errors;
  st = tlop_explain(e, pf, env, &rows, &nrows);
  status_reported(st, db, before, "tlop_explain");
  tlop_stages_free(rows, nrows);

  for (int f = TLOP_FORMAT_UNICODE; f <= TLOP_FORMAT_LATEX; f++)
    free(tlop_expr_print(ctx, e, (tlop_format)f));
  free(tlop_expr_dump(ctx, e));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > (1u << 20))
    return 0;
  static fuzz_diags db;
  db.len = 0;
  db.text[0] = 0;
  db.errors = db.warnings = db.notes = 0;

  tlop_ctx *ctx = tlop_ctx_new();
  FUZZ_CHECK(ctx, &db, "tlop_ctx_new returned NULL");
  tlop_ctx_set_diag(ctx, fuzz_diag_fn, &db);
  tlop_ctx_set_max_terms(ctx, FUZZ_MAX_TERMS);

  tlop_model *model = NULL;
  tlop_status st = tlop_load_source(ctx, "fuzz.tlop", (const char *)data, size, &model);
  status_reported(st, &db, 0, "tlop_load_source");
  FUZZ_CHECK((st == TLOP_OK) == (model != NULL), &db, "status %s but model %p",
             tlop_status_name(st), (void *)model);
  FUZZ_CHECK(tlop_ctx_errors(ctx) == db.errors, &db, "tlop_ctx_errors %d, handler saw %d",
             tlop_ctx_errors(ctx), db.errors);
  if (st != TLOP_OK) {
    tlop_ctx_free(ctx);
    return 0;
  }

  /* The default platform, then each platform the file declares. */
  tlop_platform *pf = NULL;
  int before = db.errors;
  st = tlop_platform_open(model, NULL, &pf);
  status_reported(st, &db, before, "tlop_platform_open(NULL)");
  FUZZ_CHECK((st == TLOP_OK) == (pf != NULL), &db, "platform status %s but %p",
             tlop_status_name(st), (void *)pf);
  const char **pnames = NULL;
  size_t np = tlop_model_platforms(model, &pnames);
  for (size_t i = 0; i < np && i < 8; i++) {
    tlop_platform *other = NULL;
    before = db.errors;
    st = tlop_platform_open(model, pnames[i], &other);
    status_reported(st, &db, before, "tlop_platform_open(name)");
    if (other)
      (void)tlop_platform_name(other);
    tlop_platform_free(other);
  }

  tlop_env *env = tlop_env_new(ctx);
  tlop_env_set(env, "m", 65536, TLOP_KIND_SIZE);
  tlop_env_set(env, "P", 12, TLOP_KIND_COUNT);
  for (size_t i = 0; i < sizeof fixed_exprs / sizeof *fixed_exprs; i++) {
    tlop_expr *e = NULL;
    before = db.errors;
    st = tlop_expr_parse(model, fixed_exprs[i], env, &e);
    status_reported(st, &db, before, "tlop_expr_parse");
    if (st == TLOP_OK && pf)
      use_expr(ctx, e, pf, env, &db);
  }

  /* Every algorithm of the file, its parameters bound to small numbers. */
  const char **anames = NULL;
  size_t na = tlop_model_algorithms(model, &anames);
  for (size_t a = 0; a < na && a < 16; a++) {
    size_t nparams = 0;
    const char *const *params = tlop_algorithm_params(model, anames[a], &nparams);
    FUZZ_CHECK(params, &db, "algorithm '%s' is listed but has no parameters list", anames[a]);
    tlop_env *aenv = tlop_env_new(ctx);
    for (size_t j = 0; j < nparams; j++)
      tlop_env_set(aenv, params[j], j == 0 ? 4096 : 8, TLOP_KIND_NUMBER);
    tlop_expr *e = NULL;
    before = db.errors;
    st = tlop_algorithm_expr(model, anames[a], aenv, &e);
    status_reported(st, &db, before, "tlop_algorithm_expr");
    if (st == TLOP_OK && pf)
      use_expr(ctx, e, pf, aenv, &db);
    tlop_env_free(aenv);
  }

  tlop_env_free(env);
  tlop_platform_free(pf);
  tlop_ctx_free(ctx);
  return 0;
}
