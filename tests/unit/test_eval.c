/* test_eval.c — unit tests of the definitional semantics of the evaluator on an analytic
 * platform written in the test (L = m·τ seconds on shm, 10·m·τ on net, o = 1 s and 2 s,
 * so every value below is exact): ∥ as a multiplier of τ, nested and channel-scoped ∥,
 * binary ∥ of transfer sets, sums as loops and products, the term budget, evaluation
 * errors and their diagnostics, parameter defaults, batches, explain, and channels backed
 * by a table the test writes. */
#define _POSIX_C_SOURCE 200809L
#include "api/api.h"
#include "unit.h"

#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* ---- recording diagnostics ---- */

static unit_diags D; /* unit.h's recorder */

static void dreset(void) { unit_diags_reset(&D); }

static int dhas(tlop_severity sev, const char *sub) { return unit_diags_has(&D, sev, 0, sub); }

static void ddump(void) { unit_diags_dump(&D); }

#define EXPECT_DIAG(sev, sub)                                                          \
  do {                                                                                 \
    unit_checks++;                                                                     \
    if (!dhas((sev), (sub))) {                                                         \
      unit_failures++;                                                                 \
      fprintf(stderr, "%s:%d: no diagnostic containing \"%s\"; got:\n", __FILE__,       \
              __LINE__, (sub));                                                        \
      ddump();                                                                         \
    }                                                                                  \
  } while (0)

/* ---- the model ---- */

static const char *SOURCE =
    "import \"taulop/transmission\";\n"
    "platform t {\n"
    "  channel shm { L(m, τ) = m / 1 B * τ * 1 s; o(m) = 1 s; }\n"
    "  channel net { L(m, τ) = 10 * m / 1 B * τ * 1 s; o(m) = 2 s; }\n"
    "}\n"
    "param P: count = 8;\n"
    "param msg: size = 1 KiB;\n"
    "param half: size = msg / 2;\n"
    "param depth: count = log2(P);\n"
    "param noval: count;\n"
    "algorithm withparams() = depth * L(half, 1);\n"
    "algorithm st(m: size) = stages { \"a\": L(m, 1); \"b\": 2 ∥ L(m, 1); L(m, 3); };\n"
    "algorithm ist(m: size) = stages i = 1 .. 3 { i ∥ L(m, 1) };\n"
    "algorithm rep(m: size) = repeat 4 { 2 ∥ L(m, 1) };\n"
    "algorithm nested(m: size) = stages { L(m, 1); repeat 3 { L(m, 2) }; };\n";

static tlop_ctx *ctx;
static tlop_model *model;
static tlop_platform *pf;
static tlop_env *env; /* n = 3 (a count) */

static tlop_expr *parse(const char *text, const tlop_env *e) {
  tlop_expr *x = NULL;
  if (tlop_expr_parse(model, text, e, &x) != TLOP_OK) {
    fprintf(stderr, "  cannot parse \"%s\":\n", text);
    ddump();
    return NULL;
  }
  return x;
}

/* Value of text on platform p with environment e; NAN on failure (reported). */
static double evp(const tlop_platform *p, const tlop_env *e, const char *text) {
  tlop_expr *x = parse(text, e);
  double v = NAN;
  if (!x) return NAN;
  if (tlop_eval(x, p, e, &v) != TLOP_OK) {
    fprintf(stderr, "  cannot evaluate \"%s\":\n", text);
    ddump();
    return NAN;
  }
  return v;
}

static double ev(const char *text) { return evp(pf, env, text); }

#define CHECK_EV(text, want)                                                           \
  do {                                                                                 \
    double got_ = ev(text);                                                            \
    unit_checks++;                                                                     \
    if (got_ != (want)) {                                                              \
      unit_failures++;                                                                 \
      fprintf(stderr, "%s:%d: %s = %.17g, expected %.17g\n", __FILE__, __LINE__, text,  \
              got_, (double)(want));                                                   \
    }                                                                                  \
  } while (0)

/* ---- ∥ as a multiplier of τ ---- */

static void test_par(void) {
  CHECK_EV("L(8, 2)", 16);
  CHECK_EV("o(8)", 1);
  CHECK_EV("L[net](8, 2)", 160);
  CHECK_EV("o[net](8)", 2);
  CHECK_EV("L[shm](8, 2)", 16);

  /* A ∥ L(m,τ) = L(m, A·τ) */
  CHECK_EV("3 ∥ L(8, 2)", 48);
  CHECK_EV("0.5 ∥ L(8, 2)", 8);
  CHECK_EV("n ∥ L(8, 1)", 24);
  /* nested ∥ multiply */
  CHECK_EV("2 ∥ 3 ∥ L(8, 1)", 48);
  CHECK_EV("(2 + 1) ∥ (2 ∥ L(8, 1))", 48);
  CHECK_EV("2 ∥ sum i = 1 .. 2 : i ∥ L(8, 1)", 16 + 32);
  /* o is not affected */
  CHECK_EV("4 ∥ o(8)", 1);
  CHECK_EV("4 ∥ (o(8) + L(8, 1))", 1 + 32);
  CHECK_EV("4 ∥ T(8)", 1 + 2 * 32);
  CHECK_EV("2 ∥ 4 ∥ o[net](8)", 2);
  /* ∥ reaches into function bodies and through arithmetic: 2·(3 ∥ L) */
  CHECK_EV("3 ∥ (2 * L(8, 1))", 2 * 24);
  CHECK_EV("3 ∥ (L(8, 1) / 2)", 12);
  CHECK_EV("2 ∥ (if n > 2 then L(8, 1) else o(8))", 16);
  /* ∥[net] touches only net transfers; ∥[shm] only shm (the default channel) */
  CHECK_EV("2 ∥[net] (L(8, 1) + L[net](8, 1))", 8 + 160);
  CHECK_EV("2 ∥[shm] (L(8, 1) + L[net](8, 1))", 16 + 80);
  CHECK_EV("2 ∥[net] o[net](8)", 2);
  CHECK_EV("3 ∥ 2 ∥[net] L[net](8, 1)", 480);
  CHECK_EV("3 ∥ 2 ∥[net] L(8, 1)", 24);
  /* binary ∥ of same-size transfers on one channel adds their τ */
  CHECK_EV("L(8, 2) ∥ L(8, 4) ∥ L(8, 1)", 56);
  CHECK_EV("(2 ∥ L(8, 1)) ∥ L(8, 1)", 24);
  CHECK_EV("3 ∥ (L(8, 1) ∥ L(8, 1))", 48);
  CHECK_EV("L(8, 1) ∥ L[shm](8, 1)", 16);
  /* across channels it is the slowest */
  CHECK_EV("L(8, 2) ∥ L[net](8, 1)", 80);
  CHECK_EV("L(8, 20) ∥ L[net](8, 1)", 160);
  CHECK_EV("L(8, 1) ∥ L(8, 1) ∥ L[net](8, 1) ∥ L[net](8, 2)", 240);
  CHECK_EV("2 ∥[net] (L(8, 1) ∥ L[net](8, 1))", 160);
  /* different sizes on one channel progress together: at τ = 2 the 8 finishes at 16 and
   * the 16 has moved 8; alone it needs 8 more: the fair share, 24 */
  CHECK_EV("L(8, 1) ∥ L(16, 1)", 24);
  CHECK_EV("L(8, 1) ∥ L(16, 1) ∥ L[net](8, 1)", 80);
}

/* ---- sums ---- */

static void test_sums(void) {
  CHECK_EV("sum i = 1 .. 4 : L(8, i)", 8 * (1 + 2 + 3 + 4));
  CHECK_EV("sum i = 1 .. 4 : L(8, i)", ev("L(8, 1) + L(8, 2) + L(8, 3) + L(8, 4)"));
  CHECK_EV("sum i = 0 .. 3 : 2^i ∥ L(8, 1)", 8 * (1 + 2 + 4 + 8));
  CHECK_EV("sum i = 0 .. n - 1 : L(8, i + 1)", 8 * 6);
  CHECK_EV("sum i = 1 .. 3 : sum j = i .. 3 : L(8, j)", 8 * (6 + 5 + 3));
  CHECK_EV("sum i = 2 .. 1 : L(8, i)", 0);
  CHECK_EV("sum i = 1 .. 3.5 : L(8, i)", 8 * 6);   /* 1, 2, 3 */
  CHECK_EV("sum i = 0.5 .. 2 : L(8, 2 * i)", 8 * (1 + 3)); /* 0.5, 1.5 */
  /* a body that ignores its index is a product: no loop, no term budget */
  CHECK_EV("sum i = 1 .. 1000000000 : L(8, 1)", 8e9);
  CHECK_EV("sum i = 1 .. 1e15 : o(8)", 1e15);
  CHECK_EV("sum i = 1 .. 3 : sum j = 1 .. 1e9 : L(8, i)", 1e9 * 8 * 6);
  CHECK_EV("repeat 3 { L(8, 2) }", 48);
  CHECK_EV("repeat 0 { L(8, 2) }", 0);
}

/* ---- the term budget ---- */

static void test_max_terms(void) {
  tlop_expr *x;
  double v = 0;
  clock_t t0 = clock();
  tlop_ctx_set_max_terms(ctx, 1000);
  /* exactly at the limit is fine; one more term is refused */
  CHECK_EV("sum i = 1 .. 1000 : i", 500500);
  x = parse("sum i = 1 .. 1001 : i", env);
  dreset();
  CHECK(x && tlop_eval(x, pf, env, &v) == TLOP_ERR_EVAL);
  CHECK(D.errors == 1);
  EXPECT_DIAG(TLOP_ERROR, "the sum has 1001 terms, more than the limit of 1000 (--max-terms)");
  /* the budget is per evaluation: two evaluations of 600 terms each are fine */
  CHECK_EV("sum i = 1 .. 600 : i", 180300);
  CHECK_EV("sum i = 1 .. 600 : i", 180300);
  /* and counts every term of nested sums: 40 + 40·40 > 1000 */
  x = parse("sum i = 1 .. 40 : sum j = 1 .. 40 : i * j", env);
  dreset();
  CHECK(x && tlop_eval(x, pf, env, &v) == TLOP_ERR_EVAL);
  EXPECT_DIAG(TLOP_ERROR, "more than the limit of 1000");
  /* … known before they run when the inner bounds do not use the outer index */
  EXPECT_DIAG(TLOP_ERROR, "the sums of this evaluation add 1640 terms");
  /* a triangle is counted as it runs: 40 + 820 terms fit (40·40 would not) */
  CHECK_EV("sum i = 1 .. 40 : sum j = 1 .. 41 - i : j", 11480);
  /* an inner sum reached on some iterations only is not projected: 40 + 2·40 terms */
  CHECK_EV("sum i = 1 .. 40 : if i > 38 then sum j = 1 .. 40 : j else 0", 1640);
  /* a huge sum is refused at once */
  x = parse("sum i = 1 .. 1e15 : L(8, i)", env);
  dreset();
  CHECK(x && tlop_eval(x, pf, env, &v) == TLOP_ERR_EVAL);
  EXPECT_DIAG(TLOP_ERROR, "the sum has 1e+15 terms");
  tlop_ctx_set_max_terms(ctx, 1e8);
  CHECK_EV("sum i = 1 .. 40 : sum j = 1 .. 40 : i * j", 820.0 * 820.0);
  /* with the default budget a 10^15-term sum is still refused, not run */
  x = parse("sum i = 1 .. 1e15 : i", env);
  dreset();
  CHECK(x && tlop_eval(x, pf, env, &v) == TLOP_ERR_EVAL);
  printf("eval: term budget checks took %.3f s\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
}

/* ---- evaluation errors name the expression ---- */

static void expect_eval_error(const char *text, const char *what, const char *shown) {
  tlop_expr *x = parse(text, env);
  double v = 0;
  dreset();
  tlop_status st = x ? tlop_eval(x, pf, env, &v) : TLOP_ERR_INTERNAL;
  CHECK(st == TLOP_ERR_EVAL);
  CHECK(D.errors == 1);
  if (st != TLOP_ERR_EVAL || D.errors != 1)
    fprintf(stderr, "  \"%s\": status %d, value %g, %d errors\n", text, (int)st, v, D.errors);
  EXPECT_DIAG(TLOP_ERROR, what);
  if (shown) EXPECT_DIAG(TLOP_ERROR, shown);
}

static void test_errors(void) {
  expect_eval_error("log2(0)", "log2 of 0", "in log₂(0)");
  expect_eval_error("log2(n - n)", "log2 of 0", "in log₂(n − n) where n = 3");
  expect_eval_error("log(1, 8)", "log of 8 in base 1", "in log(1, 8)");
  expect_eval_error("log(2, 0 - 8)", "log of -8 in base 2", NULL);
  expect_eval_error("1 / (n - 3)", "division by zero", "in 1/(n − 3) where n = 3");
  expect_eval_error("L(8, 1) / (n - 3)", "division by zero", NULL);
  expect_eval_error("n % 0", "remainder of a division by zero", NULL);
  expect_eval_error("10^400", "overflows to infinity", "in 10^400");
  expect_eval_error("sqrt(0 - 1)", "sqrt of -1", "in sqrt(0 − 1)");
  expect_eval_error("(0 - 8)^0.5", "not a number", "in (0 − 8)^0.5");
  expect_eval_error("L(8 - 16, 1)", "message size -8 B is negative", "in L(8 − 16, 1)");
  expect_eval_error("o(n * 1 B - 5 B)", "message size -2 B is negative", "where n = 3");
  expect_eval_error("L(inf_size, 1)", "is not finite", NULL);
  expect_eval_error("0 ∥ L(8, 1)", "the count of ∥ is 0; it must be positive", "in 0 ∥ L(8 B, 1)");
  expect_eval_error("L(8, 0)", "concurrency τ = 0 is below 1", "in L(8 B, 0)");
  expect_eval_error("sum i = 1 .. inf_count : L(8, i)", "the bounds of the sum are not finite", NULL);
  expect_eval_error("repeat inf_count { L(8, 1) }", "repeat count inf is not finite", NULL);
  expect_eval_error("repeat n / 2 { L(8, 1) }", "repeat count 1.5 is not a whole number", NULL);
  expect_eval_error("inf_count ∥ L(8, 1)", "the count of ∥ is inf: not finite", NULL);
  expect_eval_error("L(8, 0.5)", "concurrency τ = 0.5 is below 1", NULL);
  expect_eval_error("repeat n - 4 { L(8, 1) }", "repeat count -1 is negative", NULL);
  expect_eval_error("noval + 1", "'noval' has no value", NULL);
  expect_eval_error("L[ib](8, 1)", "has no channel 'ib'", NULL);
  /* the same failure twice in a row is reported twice */
  expect_eval_error("log2(0)", "log2 of 0", "in log₂(0)");
  expect_eval_error("log2(0)", "log2 of 0", "in log₂(0)");
  /* explain without a platform says why it refuses */
  {
    tlop_expr *x = parse("L(8, 1)", env);
    tlop_stage *rows = (tlop_stage *)&rows;
    size_t nrows = 7;
    dreset();
    CHECK(x && tlop_explain(x, NULL, env, &rows, &nrows) != TLOP_OK);
    CHECK(rows == NULL && nrows == 0);
    CHECK(D.errors == 1);
  }
  /* a cost without a platform */
  {
    tlop_expr *x = parse("L(8, 1)", env);
    double v;
    dreset();
    CHECK(x && tlop_eval(x, NULL, env, &v) == TLOP_ERR_ARG);
    EXPECT_DIAG(TLOP_ERROR, "needs a platform");
  }
}

/* ---- quotients whose denominator leaves the range of doubles ---- */

/* A quotient is computed as a number m·2^e when its denominator, a product or a power,
 * overflows or underflows to 0: simplify writes m/2^i/2^i/2^i as m/2^(3i), and at
 * 2^i = 2^784 the original's three finite divisions and the simplified form's one must
 * agree (regressions/simplify/overflow-exponent-1). */
static void test_wide_quotients(void) {
  CHECK_EV("2^1000 / 2^1030", ldexp(1, -30));
  CHECK_EV("2^1000 / (2^1010 * 2^20)", ldexp(1, -30));
  CHECK_EV("2^1000 / (2^1100 / 0.5)", ldexp(1, -101)); /* as units print 2·2^i: 2^i/0.5 s */
  CHECK_EV("2^(0 - 1000) / (2^(0 - 600) * 2^(0 - 600))", ldexp(1, 200));
  CHECK_EV("n / 2^(3 * 784)", 0);
  CHECK_EV("n / 7^400", 0);
  CHECK_EV("0 / 2^2000", 0);
  CHECK_EV("1 / (0 - 2)^1025", -ldexp(1, -1025));
  /* the numerator too, its sums and products: c·2^i + d over 2^(2i), as a common
   * denominator writes 1/2^i + d/2^(2i) (regressions/simplify/overflow-numerator-1) */
  CHECK_EV("2^1500 / 2^1400", ldexp(1, 100));
  CHECK_EV("(3 * 2^1500 + 2^1400) / (2 * 2^1500)", 1.5);
  CHECK_EV("(2^1500 - 2^1500 + 1) / (2 * 2^10)", ldexp(1, -11));
  expect_eval_error("2^1500 / 2", "overflows to infinity", "in 2^1500"); /* a plain divisor */
  expect_eval_error("2^1500 / 2^100", "overflows to infinity", NULL); /* the quotient */
  /* a let used twice in the denominator is evaluated once, as elsewhere */
  CHECK_EV("let a = 2^600 in let b = a * a in let c = b * b in 2^1000 / (c * c)", ldexp(1, -3800));
  /* what a range only does not explain still fails */
  expect_eval_error("1 / 2^(0 - 1100)", "overflows to infinity", "in 1/2^(0 − 1100)");
  expect_eval_error("1 / (n - 3)^2", "division by zero", NULL);
  expect_eval_error("1 / (0 - 2)^0.5", "not a number", NULL);
  /* the same values through the simplifier: m/2^i/2^i/2^i and m/2^(3i) */
  tlop_env *e = tlop_env_new(ctx);
  tlop_env_set(e, "P", 7, TLOP_KIND_COUNT);
  tlop_env_set(e, "mm", 8192, TLOP_KIND_SIZE);
  tlop_expr *x = parse("let i = 16 * P^2 in mm / 2^i / 2^i / 2^i", e), *s = NULL;
  double v0 = NAN, v1 = NAN;
  CHECK(x && tlop_eval(x, pf, e, &v0) == TLOP_OK);
  CHECK(x && tlop_simplify(x, NULL, &s) == TLOP_OK);
  CHECK(s && tlop_eval(s, pf, e, &v1) == TLOP_OK);
  CHECK(v0 == v1);
  /* a number to a power out of range divides as the evaluator divides by it: n·7^−729,
   * not 7^729 kept to overflow, also inside a quotient (fails-overflow-1, -3) */
  x = parse("P / (P^243)^3 + P / 7^729 + P / ((2^(P * 400) / 2^P) / 3)", e);
  s = NULL;
  CHECK(x && tlop_eval(x, pf, e, &v0) == TLOP_OK && v0 == 0);
  tlop_simp_opts with_values = {.env = e};
  CHECK(x && tlop_simplify(x, &with_values, &s) == TLOP_OK);
  CHECK(s && tlop_eval(s, pf, e, &v1) == TLOP_OK && v1 == 0);
  tlop_env_free(e);
}

/* ---- parameters and their defaults ---- */

static void test_params(void) {
  tlop_env *e = tlop_env_new(ctx);
  /* depth = log2(8) = 3, half = 1 KiB / 2 = 512: 3·L(512, 1) = 1536 */
  CHECK(evp(pf, e, "withparams()") == 1536);
  CHECK(evp(pf, e, "depth") == 3);
  CHECK(evp(pf, e, "half") == 512);
  /* a default follows the parameter it depends on */
  tlop_env_set(e, "P", 16, TLOP_KIND_COUNT);
  CHECK(evp(pf, e, "withparams()") == 4 * 512);
  CHECK(tlop_env_set_text(e, "msg", "4 KiB") == TLOP_OK);
  CHECK(evp(pf, e, "withparams()") == 4 * 2048);
  /* a value given for a defaulted parameter wins over its default */
  tlop_env_set(e, "half", 100, TLOP_KIND_SIZE);
  CHECK(evp(pf, e, "withparams()") == 4 * 100);
  tlop_env_free(e);

  /* in a batch the defaults follow every point: P = 2, 4, 8, 16 */
  tlop_expr *x = parse("withparams()", NULL);
  if (x) {
    const char *names[] = {"P"};
    double pts[] = {2, 4, 8, 16}, out[4] = {0};
    CHECK(tlop_eval_batch(x, pf, NULL, names, 1, pts, 4, out) == TLOP_OK);
    CHECK(out[0] == 512 && out[1] == 1024 && out[2] == 1536 && out[3] == 2048);
    const char *names2[] = {"msg", "P"};
    double pts2[] = {2048, 4, 2048, 8, 512, 8}, out2[3] = {0};
    CHECK(tlop_eval_batch(x, pf, NULL, names2, 2, pts2, 3, out2) == TLOP_OK);
    CHECK(out2[0] == 2 * 1024 && out2[1] == 3 * 1024 && out2[2] == 3 * 256);
  }
}

/* ---- batches equal single evaluations ---- */

static void test_batch(void) {
  const char *text = "sum i = 0 .. ceil(log2(q)) - 1 : min(2^i, q - 2^i) ∥ T(sz)";
  tlop_env *kinds = tlop_env_new(ctx);
  tlop_env_set(kinds, "sz", 8, TLOP_KIND_SIZE);
  tlop_env_set(kinds, "q", 2, TLOP_KIND_COUNT);
  tlop_expr *x = parse(text, kinds);
  if (!x) {
    tlop_env_free(kinds);
    return;
  }
  static const double sizes[] = {8, 64, 1000, 1536};
  static const double procs[] = {1, 2, 3, 8, 12};
  enum { NS = 4, NP = 5 };
  double pts[NS * NP * 2], out[NS * NP];
  int k = 0;
  for (int a = 0; a < NS; a++)
    for (int b = 0; b < NP; b++, k++) {
      pts[2 * k] = sizes[a];
      pts[2 * k + 1] = procs[b];
    }
  const char *names[] = {"sz", "q"};
  CHECK(tlop_eval_batch(x, pf, kinds, names, 2, pts, NS * NP, out) == TLOP_OK);
  int same = 0;
  for (k = 0; k < NS * NP; k++) {
    tlop_env *e = tlop_env_new(ctx);
    tlop_env_set(e, "sz", pts[2 * k], TLOP_KIND_SIZE);
    tlop_env_set(e, "q", pts[2 * k + 1], TLOP_KIND_COUNT);
    double v = NAN;
    CHECK(tlop_eval(x, pf, e, &v) == TLOP_OK);
    same += v == out[k];
    tlop_env_free(e);
  }
  CHECK(same == NS * NP);
  /* by hand, with T(m) = o + 2·L(m, 1), A ∥ T(m) = 1 + 2·m·A:
   * q = 3: stages i = 0, 1 with min(1, 2) = 1 and min(2, 1) = 1: 2·(1 + 2·8) = 34
   * q = 12: i = 0..3, A = 1, 2, 4, 4: 4 + 2·8·(1 + 2 + 4 + 4) = 180
   * q = 1: no stage */
  CHECK(out[0 * NP + 2] == 34);
  CHECK(out[0 * NP + 4] == 180);
  CHECK(out[1 * NP + 0] == 0);
  CHECK(out[3 * NP + 3] == 3 + 2 * 1536 * (1 + 2 + 4)); /* q = 8, sz = 1536 */

  /* a batch stops at the first failing point; the points before it are done */
  double bad[] = {8, 2, 8, 3, -8, 2, 8, 4}, out2[4] = {-1, -1, -1, -1};
  dreset();
  CHECK(tlop_eval_batch(x, pf, kinds, names, 2, bad, 4, out2) == TLOP_ERR_EVAL);
  CHECK(out2[0] == 17 && out2[1] == 34);
  CHECK(D.errors == 1);
  EXPECT_DIAG(TLOP_ERROR, "message size -8 B is negative");
  tlop_env_free(kinds);
}

/* ---- explain ---- */

typedef struct {
  const char *index, *label, *expr;
  double times, cost, cumulative;
} row_want;

static void expect_rows(const char *text, const tlop_env *e, const row_want *want, size_t n) {
  tlop_expr *x = parse(text, e);
  tlop_stage *rows = NULL;
  size_t nrows = 0;
  if (!x) {
    CHECK(x != NULL);
    return;
  }
  dreset();
  tlop_status st = tlop_explain(x, pf, e, &rows, &nrows);
  CHECK(st == TLOP_OK);
  CHECK(nrows == n);
  if (st != TLOP_OK || nrows != n) {
    fprintf(stderr, "  explain \"%s\": status %d, %zu rows\n", text, (int)st, nrows);
    ddump();
  }
  for (size_t i = 0; i < n && i < nrows; i++) {
    CHECK_STR(rows[i].index, want[i].index);
    if (want[i].label)
      CHECK_STR(rows[i].label, want[i].label);
    else
      CHECK(rows[i].label == NULL);
    if (want[i].expr) CHECK_STR(rows[i].expr, want[i].expr);
    CHECK(rows[i].times == want[i].times);
    CHECK(rows[i].cost == want[i].cost);
    CHECK(rows[i].cumulative == want[i].cumulative);
  }
  /* the last cumulative cost is the value of the whole expression */
  double v = NAN;
  if (nrows > 0 && tlop_eval(x, pf, e, &v) == TLOP_OK) CHECK(rows[nrows - 1].cumulative == v);
  tlop_stages_free(rows, nrows);
}

static void test_explain(void) {
  /* a stages block with labels: L(8,1) = 8, 2 ∥ L(8,1) = 16, L(8,3) = 24 */
  static const row_want st[] = {{"1", "a", "L(8 B, 1)", 1, 8, 8},
                                {"2", "b", "L(8 B, 2)", 1, 16, 24},
                                {"3", NULL, "L(8 B, 3)", 1, 24, 48}};
  expect_rows("st(8)", env, st, 3);
  /* an indexed stage: one row per index, i ∥ L(8,1) = 8·i */
  static const row_want ist[] = {{"1", NULL, "L(8 B, 1)", 1, 8, 8},
                                 {"2", NULL, "L(8 B, 2)", 1, 16, 24},
                                 {"3", NULL, "L(8 B, 3)", 1, 24, 48}};
  expect_rows("ist(8)", env, ist, 3);
  /* a repeat: one row standing for 4 equal stages of 2 ∥ L(8,1) = 16 */
  static const row_want rep[] = {{"1..4", NULL, "L(8 B, 2)", 4, 16, 64}};
  expect_rows("rep(8)", env, rep, 1);
  /* a repeat inside a stage is numbered under it: 8, then 3 × 16 */
  static const row_want nested[] = {{"1", NULL, "L(8 B, 1)", 1, 8, 8},
                                    {"2.1..3", NULL, "L(8 B, 2)", 3, 16, 56}};
  expect_rows("nested(8)", env, nested, 2);
  /* 4 ∥ T(1 MiB) as the papers write it (print.c juxtaposes 2L): o(1 MiB) + 2L(1 MiB, 4)
   * = 1 + 2·4·2^20 */
  static const row_want t[] = {{"1", NULL, "o(1 MiB) + 2L(1 MiB, 4)", 1, 8388609, 8388609}};
  expect_rows("4 ∥ T(1 MiB)", env, t, 1);
  /* a stage that sums over an index with the name of a free variable (i = 2 outside):
   * Σ_{i=1}^{2} L(8,1) = 16, then L(8, i) = L(8, 2) = 16 */
  {
    tlop_env *e = tlop_env_new(ctx);
    tlop_env_set(e, "i", 2, TLOP_KIND_COUNT);
    static const row_want shadow[] = {{"1", NULL, NULL, 1, 16, 16}, {"2", NULL, "L(8 B, 2)", 1, 16, 32}};
    expect_rows("stages { sum i = 1 .. 2 : L(8, 1); L(8, i); }", e, shadow, 2);
    static const row_want shadow2[] = {{"1", NULL, "L(8 B, 1) + L(8 B, 2)", 1, 24, 24},
                                       {"2", NULL, "L(8 B, 2)", 1, 16, 40}};
    expect_rows("stages { sum i = 1 .. 2 : L(8, i); L(8, i); }", e, shadow2, 2);
    /* Σ_{i=1}^{20} 8·i = 1680, and its text does not depend on an outside i */
    static const row_want longsum[] = {{"1", NULL, NULL, 1, 1680, 1680}};
    expect_rows("sum i = 1 .. 20 : L(8, i)", env, longsum, 1);
    expect_rows("sum i = 1 .. 20 : L(8, i)", e, longsum, 1);
    {
      tlop_stage *r1 = NULL, *r2 = NULL;
      size_t n1 = 0, n2 = 0;
      tlop_expr *x1 = parse("sum i = 1 .. 20 : L(8, i)", env), *x2 = parse("sum i = 1 .. 20 : L(8, i)", e);
      CHECK(x1 && tlop_explain(x1, pf, env, &r1, &n1) == TLOP_OK);
      CHECK(x2 && tlop_explain(x2, pf, e, &r2, &n2) == TLOP_OK);
      CHECK(n1 == 1 && n2 == 1);
      if (n1 == 1 && n2 == 1) {
        CHECK_STR(r2[0].expr, r1[0].expr);
        CHECK(strstr(r1[0].expr, "L(8 B, 20)") || strstr(r1[0].expr, "L(8 B, i)"));
      }
      tlop_stages_free(r1, n1);
      tlop_stages_free(r2, n2);
    }
    tlop_env_free(e);
  }
}

/* ---- a table-backed channel ---- */

static char table_path[64];

/* o(m) and L(m, τ) for τ = 1, 2 at m = 1, 2, 4 */
static const char *TABLE =
    "#m 3\n"
    "#tau 2\n"
    "#m\to(m)\tL(m,1)\tL(m,2)\n"
    "1\t0.5\t10\t30\n"
    "2\t1\t20\t50\n"
    "4\t2\t40\t100\n";

static int write_temp(char *path, size_t n, const char *text) {
  snprintf(path, n, "/tmp/tlop_test_evalXXXXXX");
  int fd = mkstemp(path);
  if (fd < 0) return 0;
  size_t len = strlen(text);
  int ok = write(fd, text, len) == (ssize_t)len;
  close(fd);
  return ok;
}

static void test_table(void) {
  tlop_platform *tp = NULL;
  CHECK(write_temp(table_path, sizeof table_path, TABLE));
  CHECK(tlop_platform_open(model, "t", &tp) == TLOP_OK);
  if (!tp) return;
  dreset();
  CHECK(tlop_platform_bind_table(tp, NULL, table_path) == TLOP_OK);
  CHECK(D.errors == 0);
  /* exact rows */
  CHECK(evp(tp, env, "L(2, 1)") == 20);
  CHECK(evp(tp, env, "L(4, 2)") == 100);
  CHECK(evp(tp, env, "L(1, 2)") == 30);
  CHECK(evp(tp, env, "o(1)") == 0.5);
  CHECK(evp(tp, env, "2 ∥ L(2, 1)") == 50);
  CHECK(evp(tp, env, "L(2, 1) ∥ L(2, 1)") == 50);
  CHECK(evp(tp, env, "3 ∥ o(4)") == 2);
  /* between rows: linear in m; between columns: linear in τ */
  CHECK(evp(tp, env, "L(3, 1)") == 30);
  CHECK(evp(tp, env, "o(3)") == 1.5);
  CHECK(evp(tp, env, "L(1.5, 2)") == 40);
  CHECK(evp(tp, env, "L(3, 2)") == 75);
  CHECK(evp(tp, env, "1.5 ∥ L(2, 1)") == 35);
  /* below the first row: the first row */
  dreset();
  CHECK(evp(tp, env, "L(0.5, 1)") == 10);
  CHECK(D.warnings == 1);
  EXPECT_DIAG(TLOP_WARNING, "below the table's first message size");
  CHECK(evp(tp, env, "o(0)") == 0.5);
  /* τ beyond the last column, proportional (the default): L(m,T)·τ/T */
  dreset();
  CHECK(evp(tp, env, "L(2, 4)") == 100);
  CHECK(D.warnings == 1);
  EXPECT_DIAG(TLOP_WARNING, "beyond the table's last τ column");
  EXPECT_DIAG(TLOP_WARNING, "proportional");
  CHECK(evp(tp, env, "L(2, 3)") == 75);
  CHECK(evp(tp, env, "2 ∥ L(4, 2)") == 200);
  /* … and clamped: L(m,T) */
  tlop_ctx_set_tau_rule(ctx, TLOP_TAU_CLAMP);
  dreset();
  CHECK(evp(tp, env, "L(2, 4)") == 50);
  EXPECT_DIAG(TLOP_WARNING, "clamp");
  CHECK(evp(tp, env, "L(2, 3)") == 50);
  CHECK(evp(tp, env, "2 ∥ L(4, 2)") == 100);
  CHECK(evp(tp, env, "L(6, 4)") == 150); /* beyond both: L(6,2) = 100 + 50 */
  tlop_ctx_set_tau_rule(ctx, TLOP_TAU_PROPORTIONAL);
  CHECK(evp(tp, env, "L(6, 4)") == 300);
  /* beyond the last row: v(m) = q·v(m_last) + v(r) */
  dreset();
  CHECK(evp(tp, env, "L(6, 1)") == 40 + 20);
  EXPECT_DIAG(TLOP_WARNING, "beyond the table's last message size");
  CHECK(evp(tp, env, "L(8, 1)") == 80);
  CHECK(evp(tp, env, "L(5, 1)") == 50);
  CHECK(evp(tp, env, "L(7, 1)") == 70);  /* 40 + v(3) = 40 + 30 */
  CHECK(evp(tp, env, "L(10, 2)") == 250); /* 2·100 + 50 */
  CHECK(evp(tp, env, "o(9)") == 4.5);     /* 2·2 + 0.5 */
  /* the net channel is still analytic */
  CHECK(evp(tp, env, "L[net](8, 1)") == 80);
  /* a table starts at τ = 1 */
  dreset();
  tlop_expr *x = parse("L(2, 0.5)", env);
  double v;
  CHECK(x && tlop_eval(x, tp, env, &v) == TLOP_ERR_EVAL);
  EXPECT_DIAG(TLOP_ERROR, "concurrency τ = 0.5 is below 1");
  /* a table may back a new channel */
  CHECK(tlop_platform_bind_table(tp, "ib", table_path) == TLOP_OK);
  CHECK(evp(tp, env, "L[ib](4, 1) + o[ib](2)") == 41);
  /* the analytic platform is untouched */
  CHECK(evp(pf, env, "L(2, 1)") == 2);

  /* tables that cannot back a channel */
  char gamma_path[64], bad_path[64];
  CHECK(write_temp(gamma_path, sizeof gamma_path, "#m: 1\n#tau_op: 1\n#m sum\n1 1\n"));
  dreset();
  CHECK(tlop_platform_bind_table(tp, NULL, gamma_path) == TLOP_ERR_TABLE);
  EXPECT_DIAG(TLOP_ERROR, "this is a gamma table");
  CHECK(write_temp(bad_path, sizeof bad_path, "#m 2\n#tau 1\n#m o L1\n1 1 1\n1 2 x\n"));
  dreset();
  CHECK(tlop_platform_bind_table(tp, NULL, bad_path) == TLOP_ERR_TABLE);
  CHECK(D.errors == 2); /* line 5: duplicate m 1, and 'x' is not a number */
  dreset();
  CHECK(tlop_platform_bind_table(tp, NULL, "/nonexistent/tlop/table.txt") == TLOP_ERR_TABLE);
  EXPECT_DIAG(TLOP_ERROR, "cannot read '/nonexistent/tlop/table.txt'");
  /* a failed bind leaves the channel as it was */
  CHECK(evp(tp, env, "L(2, 1)") == 20);
  unlink(gamma_path);
  unlink(bad_path);
  unlink(table_path);
  tlop_platform_free(tp);
}

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  ctx = tlop_ctx_new();
  tlop_ctx_set_diag(ctx, unit_diag, &D);
  if (tlop_load_source(ctx, "eval.tlop", SOURCE, strlen(SOURCE), &model) != TLOP_OK ||
      tlop_platform_open(model, NULL, &pf) != TLOP_OK) {
    fprintf(stderr, "eval: cannot load the model\n");
    ddump();
    return 1;
  }
  env = tlop_env_new(ctx);
  tlop_env_set(env, "n", 3, TLOP_KIND_COUNT);
  /* infinities come only from outside (a literal that overflows is a parse error) */
  tlop_env_set(env, "inf_size", INFINITY, TLOP_KIND_SIZE);
  tlop_env_set(env, "inf_count", INFINITY, TLOP_KIND_COUNT);
  test_par();
  test_sums();
  test_max_terms();
  test_errors();
  test_wide_quotients();
  test_params();
  test_batch();
  test_explain();
  test_table();
  tlop_platform_free(pf);
  tlop_env_free(env);
  tlop_ctx_free(ctx);
  return unit_report("eval");
}
