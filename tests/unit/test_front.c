/* test_front.c — unit tests of the front end through the public API: the lexer (numbers
 * with units, Unicode operators and their ASCII twins, comments), the parser (precedence,
 * sums, let, if, stages, repeat, import, error recovery, nesting limits) and the checker
 * (names, kinds, unannotated parameters checked per call, recursion), plus hostile input.
 * Expected values are worked out by hand from the formulas in the comments. */
#define _POSIX_C_SOURCE 200809L
#include "api/api.h"
#include "unit.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- recording diagnostics ---- */

static unit_diags D; /* unit.h's recorder */

static void dreset(void) { unit_diags_reset(&D); }

/* Some error diagnostic contains `sub` (at `line`, unless line is 0). */
static int dhas(int line, const char *sub) { return unit_diags_has(&D, TLOP_ERROR, line, sub); }

static void ddump(const char *why) {
  fprintf(stderr, "  diagnostics (%s):\n", why);
  unit_diags_dump(&D);
}

#define EXPECT_DIAG(line, sub)                                                        \
  do {                                                                                \
    unit_checks++;                                                                    \
    if (!dhas((line), (sub))) {                                                       \
      unit_failures++;                                                                \
      fprintf(stderr, "%s:%d: no error diagnostic containing \"%s\"\n", __FILE__,      \
              __LINE__, (sub));                                                       \
      ddump("expected one");                                                          \
    }                                                                                 \
  } while (0)

/* ---- a context, a model and an analytic platform ---- */

/* L(m,τ) = m·τ seconds on shm, 10·m·τ on net; o = 1 s and 2 s. All values exact. */
static const char *PLATFORM =
    "platform t {\n"
    "  channel shm { L(m, τ) = m / 1 B * τ * 1 s; o(m) = 1 s; }\n"
    "  channel net { L(m, τ) = 10 * m / 1 B * τ * 1 s; o(m) = 2 s; }\n"
    "}\n";

static tlop_ctx *ctx;
static tlop_model *base;     /* the platform above and nothing else */
static tlop_platform *pf;
static tlop_env *env;        /* i = 2, n = 3, tau = 3 (counts) */
static int name_counter;

static tlop_ctx *new_ctx(void) {
  tlop_ctx *c = tlop_ctx_new();
  tlop_ctx_set_diag(c, unit_diag, &D);
  return c;
}

/* Loads a source under a fresh name (the context caches modules by name). */
static tlop_status load(tlop_ctx *c, const char *text, tlop_model **out) {
  char name[64];
  snprintf(name, sizeof name, "src%d.tlop", ++name_counter);
  return tlop_load_source(c, name, text, strlen(text), out);
}

static tlop_status parse(tlop_model *m, const char *text, tlop_expr **out) {
  return tlop_expr_parse(m, text, env, out);
}

/* Parses and evaluates `text` in model m; NAN when either step fails. */
static double evalm(tlop_model *m, const tlop_platform *p, const char *text) {
  tlop_expr *e = NULL;
  double v = NAN;
  if (parse(m, text, &e) != TLOP_OK) {
    fprintf(stderr, "  cannot parse \"%s\"\n", text);
    ddump("parse");
    return NAN;
  }
  if (tlop_eval(e, p, env, &v) != TLOP_OK) {
    fprintf(stderr, "  cannot evaluate \"%s\"\n", text);
    ddump("eval");
    return NAN;
  }
  return v;
}

static double ev(const char *text) { return evalm(base, pf, text); }

static const ir_node *node_of(tlop_model *m, const char *text) {
  tlop_expr *e = NULL;
  if (parse(m, text, &e) != TLOP_OK) return NULL;
  return e->node;
}

/* ---- numbers and units ---- */

static void test_numbers(void) {
  static const struct {
    const char *text;
    double v;
    tlop_kind k;
  } cases[] = {
      {"8 KiB", 8192, TLOP_KIND_SIZE},
      {"8KiB", 8192, TLOP_KIND_SIZE},
      {"64KB", 65536, TLOP_KIND_SIZE},
      {"1 kB", 1000, TLOP_KIND_SIZE},
      {"3 B", 3, TLOP_KIND_SIZE},
      {"1 MiB", 1048576, TLOP_KIND_SIZE},
      {"1 MB", 1048576, TLOP_KIND_SIZE},
      {"2 GiB", 2147483648.0, TLOP_KIND_SIZE},
      {"1 TiB", 1099511627776.0, TLOP_KIND_SIZE},
      {"3.5 us", 3.5e-6, TLOP_KIND_TIME},
      {"10 ns", 1e-8, TLOP_KIND_TIME},
      {"250 \xC2\xB5s", 2.5e-4, TLOP_KIND_TIME}, /* µ U+00B5 */
      {"250 \xCE\xBCs", 2.5e-4, TLOP_KIND_TIME}, /* μ U+03BC */
      {"2 ms", 2e-3, TLOP_KIND_TIME},
      {"2 s", 2, TLOP_KIND_TIME},
      {"1.5e3 us", 1.5e-3, TLOP_KIND_TIME},
      {"42", 42, TLOP_KIND_NUMBER},
      {"2.5e2", 250, TLOP_KIND_NUMBER},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    double v = NAN;
    tlop_kind k = TLOP_KIND_OTHER;
    dreset();
    tlop_status st = tlop_value_parse(ctx, cases[i].text, &v, &k);
    CHECK(st == TLOP_OK);
    CHECK_NEAR(v, cases[i].v, 1e-15);
    CHECK(k == cases[i].k);
    if (st != TLOP_OK || k != cases[i].k) fprintf(stderr, "  (value \"%s\")\n", cases[i].text);
    CHECK(D.errors == 0);
  }

  /* 6 GB/s is a bandwidth (B/s); a size over it is a time: 3 GB / 6 GB/s = 0.5 s. */
  {
    double v = 0;
    tlop_kind k = TLOP_KIND_NUMBER;
    CHECK(tlop_value_parse(ctx, "6 GB/s", &v, &k) == TLOP_OK);
    CHECK(k == TLOP_KIND_OTHER);
    CHECK(v == 6.0 * 1073741824.0);
    tlop_env *e2 = tlop_env_new(ctx);
    CHECK(tlop_env_set_text(e2, "m", "3 GB") == TLOP_OK);
    tlop_expr *x = NULL;
    CHECK(tlop_expr_parse(base, "m / 6 GB/s", e2, &x) == TLOP_OK);
    if (x) {
      CHECK(tlop_expr_kind(x) == TLOP_KIND_TIME);
      v = 0;
      CHECK(tlop_eval(x, NULL, e2, &v) == TLOP_OK);
      CHECK(v == 0.5);
    }
    /* bandwidth × time is a size: 6 GB/s · 2 s = 12 GB */
    x = NULL;
    CHECK(tlop_expr_parse(base, "6 GB/s * 2 s", e2, &x) == TLOP_OK);
    if (x) {
      CHECK(tlop_expr_kind(x) == TLOP_KIND_SIZE);
      CHECK(tlop_eval(x, NULL, e2, &v) == TLOP_OK && v == 12.0 * 1073741824.0);
    }
    /* a size over a time is not a time: it cannot be added to one */
    dreset();
    x = NULL;
    CHECK(tlop_expr_parse(base, "m / 6 GB/s + 1 B", e2, &x) == TLOP_ERR_CHECK);
    CHECK(D.errors == 1);
    tlop_env_free(e2);
  }

  /* a unit binds only right after a number; a longer word is an identifier */
  CHECK(ev("let us = 3 in 2 * us") == 6);
  CHECK(ev("let KiBs = 5 in KiBs + 1") == 6);
  dreset();
  tlop_expr *x = NULL;
  CHECK(parse(base, "2 KiBx", &x) == TLOP_ERR_SYNTAX);
  CHECK(D.errors >= 1);

  /* units through expressions: 8 KiB + 512 B = 8704 B; 1 ms + 250 µs = 1.25 ms */
  CHECK(ev("8 KiB + 512 B") == 8704);
  CHECK_NEAR(ev("1 ms + 250 µs"), 1.25e-3, 1e-15);
  CHECK(ev("L(1 KiB, 2)") == 2048); /* shm: m·τ */
}

/* ---- Unicode operators equal their ASCII forms ---- */

static void test_unicode_aliases(void) {
  static const struct {
    const char *uni, *ascii;
    double v;
  } cases[] = {
      {"2 ∥ L(8, 1)", "2 || L(8, 1)", 16},
      {"2 ‖ L(8, 1)", "2 || L(8, 1)", 16},
      {"Σ i = 1 .. 4 : i", "sum i = 1 .. 4 : i", 10},
      {"Σ i = 1 … 3 : i", "sum i = 1 .. 3 : i", 6},
      {"τ * 2", "tau * 2", 6},
      {"3 × 4", "3 * 4", 12},
      {"3 · 4", "3 * 4", 12},
      {"3 ⋅ 4", "3 * 4", 12},
      {"if 2 ≤ 3 then 1 else 0", "if 2 <= 3 then 1 else 0", 1},
      {"if 3 ≤ 3 then 1 else 0", "if 3 <= 3 then 1 else 0", 1},
      {"if 4 ≤ 3 then 1 else 0", "if 4 <= 3 then 1 else 0", 0},
      {"if 3 ≥ 2 then 1 else 0", "if 3 >= 2 then 1 else 0", 1},
      {"if 3 ≥ 3 then 1 else 0", "if 3 >= 3 then 1 else 0", 1},
      {"if 2 ≥ 3 then 1 else 0", "if 2 >= 3 then 1 else 0", 0},
      {"if 1 ≠ 2 then 1 else 0", "if 1 != 2 then 1 else 0", 1},
      {"if 1 < 2 ∧ 3 < 2 then 1 else 0", "if 1 < 2 and 3 < 2 then 1 else 0", 0},
      {"if 1 < 2 && 2 < 3 then 1 else 0", "if 1 < 2 and 2 < 3 then 1 else 0", 1},
      {"if 3 < 2 ∨ 2 < 3 then 1 else 0", "if 3 < 2 or 2 < 3 then 1 else 0", 1},
      {"if ¬(1 < 2) then 1 else 0", "if not (1 < 2) then 1 else 0", 0},
      {"if !(1 < 2) then 1 else 0", "if not (1 < 2) then 1 else 0", 0},
      {"⌈2.5⌉", "ceil(2.5)", 3},
      {"⌈2⌉", "ceil(2)", 2},
      {"⌈-2.5⌉", "ceil(-2.5)", -2},
      {"⌊2.5⌋", "floor(2.5)", 2},
      {"⌊−2.5⌋", "floor(-2.5)", -3},
      {"5 − 3", "5 - 3", 2},
      {"−2^2", "-2^2", -4},
      {"log₂(8)", "log2(8)", 3},
      {"⌈log₂(12)⌉", "ceil(log2(12))", 4},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    double u = ev(cases[i].uni), a = ev(cases[i].ascii);
    CHECK(u == cases[i].v);
    CHECK(a == cases[i].v);
    if (u != cases[i].v || a != cases[i].v)
      fprintf(stderr, "  \"%s\" = %g, \"%s\" = %g, expected %g\n", cases[i].uni, u,
              cases[i].ascii, a, cases[i].v);
    /* and they are one expression: the same hash-consed node */
    const ir_node *nu = node_of(base, cases[i].uni), *na = node_of(base, cases[i].ascii);
    CHECK(nu != NULL && nu == na);
  }
}

/* ---- precedence and associativity ---- */

static void test_precedence(void) {
  /* 2^i ∥ X is (2^i) ∥ X: i = 2, so L(8, 4) = 32 */
  CHECK(ev("2^i ∥ L(8, 1)") == 32);
  CHECK(node_of(base, "2^i ∥ L(8, 1)") == node_of(base, "(2^i) ∥ L(8, 1)"));
  /* a + b ∥ X is (a + b) ∥ X: L(8, 3) = 24 (1 + (2 ∥ L(8,1)) would be 17) */
  CHECK(ev("1 + 2 ∥ L(8, 1)") == 24);
  CHECK(node_of(base, "1 + 2 ∥ L(8, 1)") == node_of(base, "(1 + 2) ∥ L(8, 1)"));
  CHECK(node_of(base, "1 + 2 ∥ L(8, 1)") != node_of(base, "1 + (2 ∥ L(8, 1))"));
  CHECK(ev("1 + (2 ∥ L(8, 1))") == 17);
  /* ∥ is looser than +: 2 ∥ (L + L) = 16 + 16 */
  CHECK(ev("2 ∥ L(8, 1) + L(8, 1)") == 32);
  CHECK(ev("(2 ∥ L(8, 1)) + L(8, 1)") == 24);
  /* ∥ nests to the right: 2 ∥ (3 ∥ L(8,1)) = L(8, 6) */
  CHECK(ev("2 ∥ 3 ∥ L(8, 1)") == 48);
  /* powers */
  CHECK(ev("-2^2") == -4);
  CHECK(ev("2^3^2") == 512);
  CHECK(ev("(2^3)^2") == 64);
  CHECK(ev("2 * 3^2") == 18);
  CHECK(ev("2^-1") == 0.5);
  /* the usual arithmetic */
  CHECK(ev("2 + 3 * 4") == 14);
  CHECK(ev("2 * 3 + 4") == 10);
  CHECK(ev("10 - 3 - 2") == 5);
  CHECK(ev("16 / 4 / 2") == 2);
  CHECK(ev("7 % 4 * 2") == 6);
  CHECK(ev("-3 * -2") == 6);
  CHECK(ev("- - 3") == 3);
  /* comparisons bind looser than arithmetic, `and` tighter than `or` */
  CHECK(ev("if 1 + 1 < 3 then 1 else 0") == 1);
  CHECK(ev("if 1 < 2 or 2 < 1 and 3 < 2 then 1 else 0") == 1);
  CHECK(ev("if (1 < 2 or 2 < 1) and 3 < 2 then 1 else 0") == 0);
  CHECK(ev("if not 2 < 1 then 1 else 0") == 1);
  /* the else branch of `if` extends right */
  CHECK(ev("if 1 < 2 then 1 else 2 + 10") == 1);
  CHECK(ev("if 1 > 2 then 1 else 2 + 10") == 12);
  CHECK(ev("(if 1 < 2 then 1 else 2) + 10") == 11);
  CHECK(ev("1 + if 1 < 2 then 1 else 2") == 2);
  /* a sum body extends right: Σ_{i=1}^{3} (i + 1) = 9, (Σ i) + 1 = 7 */
  CHECK(ev("sum i = 1 .. 3 : i + 1") == 9);
  CHECK(ev("(sum i = 1 .. 3 : i) + 1") == 7);
  /* let bodies too: x·x + 1 = 10 */
  CHECK(ev("let x = 3 in x * x + 1") == 10);
  CHECK(ev("(let x = 3 in x * x) + 1") == 10);
  CHECK(ev("let x = 3 in x + let y = 2 in x * y") == 9);
}

/* ---- comments ---- */

static void test_comments(void) {
  tlop_model *m = NULL;
  dreset();
  tlop_status st = load(ctx,
                        "# a hash comment\n"
                        "// a slash comment\n"
                        "/* a block\n"
                        "   comment * / with stars ** */ fn f(x: count) = x + /* inline */ 1; # tail\n"
                        "algorithm a(m: size) = L(m, f(1)); // tail\n"
                        "platform t { channel shm { L(m, τ) = m / 1 B * τ * 1 s; # c\n"
                        "  o(m) = 1 s; /* c */ } }\n",
                        &m);
  CHECK(st == TLOP_OK);
  CHECK(D.errors == 0);
  if (m) {
    tlop_platform *p = NULL;
    CHECK(tlop_platform_open(m, NULL, &p) == TLOP_OK);
    CHECK(evalm(m, p, "a(8)") == 16); /* L(8, 2) */
    tlop_platform_free(p);
  }
  CHECK(ev("1 + 2 # three") == 3);
  CHECK(ev("1 + 2 // three") == 3);
  CHECK(ev("1 + /* two */ 2") == 3);
  CHECK(ev("1 // c\n + 2") == 3);
  CHECK(ev("1 # c\n + 2") == 3);
  CHECK(ev("/**/1/**/") == 1);

  tlop_expr *x = NULL;
  dreset();
  CHECK(parse(base, "1 + /* 2", &x) == TLOP_ERR_SYNTAX);
  EXPECT_DIAG(0, "unterminated comment");
}

/* ---- sums, let, if, stages, repeat ---- */

static void test_constructs(void) {
  /* sum bounds are inclusive; hi < lo is empty */
  CHECK(ev("sum i = 1 .. 4 : i") == 10);
  CHECK(ev("sum i = 3 .. 3 : i") == 3);
  CHECK(ev("sum i = 5 .. 4 : i") == 0);
  CHECK(ev("sum i = 0 .. -1 : 1") == 0);
  CHECK(ev("sum i = -2 .. 2 : i * i") == 10);
  CHECK(ev("sum i = 1..4 : i") == 10); /* "1..4" is 1 .. 4, not the number 1. */
  CHECK(ev("sum i = 0.5..2 : i") == 2); /* 0.5 + 1.5 */
  CHECK(ev("sum i = 1 .. n : sum j = 1 .. i : 1") == 6); /* n = 3: 1 + 2 + 3 */
  CHECK(ev("sum i = 1 .. 2 : sum i = 1 .. 3 : i") == 12); /* inner i shadows: 2·6 */
  CHECK(ev("sum i = 1 .. 3 : L(8, i)") == 48);            /* 8·(1+2+3) */
  /* a sum index does not capture a free variable of the same name (i = 2 outside):
   * Σ_{i'=1}^{3} k with k = i·i = 4 is 12 (captured it would be 1 + 4 + 9 = 14) */
  CHECK(ev("let k = i * i in sum i = 1 .. 3 : k") == 12);
  CHECK(ev("sum j = 1 .. 3 : i") == 6);

  /* let and if */
  CHECK(ev("let a = 2 in let b = a + 1 in a * b") == 6);
  CHECK(ev("let a = 2 in let a = a + 1 in a") == 3);
  CHECK(ev("if 2 > 1 then 10 else 20") == 10);
  CHECK(ev("if 2 < 1 then 10 else 20") == 20);
  CHECK(ev("if n == 3 then L(8, 1) else o(8)") == 8);

  /* stages with labels, indexed stages, repeat */
  tlop_model *m = NULL;
  char src[2048];
  snprintf(src, sizeof src,
           "%s"
           "algorithm s(m: size) = stages { \"first\": L(m, 1); L(m, 2); \"third\": 2 ∥ L(m, 1); };\n"
           "algorithm si(m: size) = stages i = 1 .. 3 { L(m, i) };\n"
           "algorithm r(m: size, k: count) = repeat k { L(m, 2) };\n"
           "fn g(x) = sum i = 1 .. 2 : x * x;\n",
           PLATFORM);
  dreset();
  CHECK(load(ctx, src, &m) == TLOP_OK);
  CHECK(D.errors == 0);
  if (!m) return;
  const char **names = NULL;
  size_t na = tlop_model_algorithms(m, &names);
  CHECK(na == 3);
  if (na == 3) {
    CHECK_STR(names[0], "s");
    CHECK_STR(names[1], "si");
    CHECK_STR(names[2], "r");
  }
  size_t np = 0;
  const char *const *params = tlop_algorithm_params(m, "r", &np);
  CHECK(params != NULL && np == 2);
  if (params && np == 2) {
    CHECK_STR(params[0], "m");
    CHECK_STR(params[1], "k");
  }
  tlop_platform *p = NULL;
  CHECK(tlop_platform_open(m, NULL, &p) == TLOP_OK);
  if (!p) return;
  CHECK(evalm(m, p, "s(8)") == 40);     /* 8 + 16 + 16 */
  CHECK(evalm(m, p, "si(8)") == 48);    /* 8 + 16 + 24 */
  CHECK(evalm(m, p, "r(8, 3)") == 48);  /* 3 · 16 */
  CHECK(evalm(m, p, "r(8, 0)") == 0);
  CHECK(evalm(m, p, "repeat 2 { stages { L(8, 1); L(8, 1); } }") == 32);
  /* an inlined body's index does not capture the caller's i = 2: 2·(2·2) = 8, not 1 + 4 */
  CHECK(evalm(m, p, "g(i)") == 8);
  CHECK(evalm(m, p, "sum i = 1 .. 2 : g(i)") == 2 * 1 + 2 * 4);

  /* the labels survive to explain */
  tlop_expr *x = NULL;
  tlop_stage *rows = NULL;
  size_t nrows = 0;
  CHECK(parse(m, "s(8)", &x) == TLOP_OK);
  if (x && tlop_explain(x, p, env, &rows, &nrows) == TLOP_OK) {
    CHECK(nrows == 3);
    if (nrows == 3) {
      CHECK_STR(rows[0].label, "first");
      CHECK(rows[1].label == NULL);
      CHECK_STR(rows[2].label, "third");
      CHECK(rows[0].cost == 8 && rows[1].cost == 16 && rows[2].cost == 16);
    }
  } else {
    CHECK(!"explain s(8)");
  }
  tlop_stages_free(rows, nrows);
  tlop_platform_free(p);
}

/* ---- import ---- */

static void test_import(void) {
  tlop_model *m = NULL;
  char src[2048];
  snprintf(src, sizeof src,
           "import \"mpich/bcast\";\n%s"
           "algorithm mine(m: size) = bcast_binomial(m, 2);\n",
           PLATFORM);
  dreset();
  CHECK(load(ctx, src, &m) == TLOP_OK);
  CHECK(D.errors == 0);
  if (m) {
    tlop_platform *p = NULL;
    CHECK(tlop_platform_open(m, "t", &p) == TLOP_OK);
    /* P = 2: one stage, min(1, 1) ∥ T(8) = o(8) + 2·L(8,1) = 1 + 16 */
    CHECK(evalm(m, p, "mine(8)") == 17);
    /* T and exch come in through bcast's own import */
    CHECK(evalm(m, p, "T(8)") == 17);
    CHECK(evalm(m, p, "4 ∥ exch(8)") == 65); /* 1 + 2·32 */
    /* only the root file's algorithms are listed */
    const char **names = NULL;
    CHECK(tlop_model_algorithms(m, &names) == 1);
    size_t np = 0;
    CHECK(tlop_algorithm_params(m, "bcast_binomial", &np) != NULL && np == 3);
    tlop_platform_free(p);
  }
  /* an import that does not exist */
  dreset();
  m = NULL;
  CHECK(load(ctx, "import \"no/such/module\";\n", &m) == TLOP_ERR_CHECK);
  CHECK(m == NULL);
  CHECK(D.errors == 1);
  EXPECT_DIAG(1, "cannot find 'no/such/module.tlop'");
}

/* ---- sources given as text, loaded again under the same name ---- */

static void test_reload(void) {
  /* A source that failed to parse, fixed and loaded again under its name, is read again:
   * a status without a diagnostic would say nothing about what is wrong. */
  tlop_model *m = NULL;
  static const char *bad = "algorithm a(m: size) = L(m, 1) +;\n";
  static const char *good = "algorithm a(m: size) = L(m, 1);\n";
  static const char *other = "algorithm b(m: size) = o(m);\n";
  dreset();
  CHECK(tlop_load_source(ctx, "buffer.tlop", bad, strlen(bad), &m) == TLOP_ERR_SYNTAX);
  CHECK(D.errors == 1);
  dreset();
  tlop_status st = tlop_load_source(ctx, "buffer.tlop", good, strlen(good), &m);
  CHECK(st == TLOP_OK);
  CHECK(st == TLOP_OK || D.errors > 0);
  /* a different text under a name already loaded is that text, not the first one */
  tlop_model *m1 = NULL, *m2 = NULL;
  dreset();
  CHECK(tlop_load_source(ctx, "buffer2.tlop", good, strlen(good), &m1) == TLOP_OK);
  CHECK(tlop_load_source(ctx, "buffer2.tlop", other, strlen(other), &m2) == TLOP_OK);
  if (m1 && m2) {
    const char **names = NULL;
    size_t n = tlop_model_algorithms(m2, &names);
    CHECK(n == 1 && strcmp(names[0], "b") == 0);
    n = tlop_model_algorithms(m1, &names);
    CHECK(n == 1 && strcmp(names[0], "a") == 0);
  }
}

/* ---- grid axes ---- */

static void test_axes(void) {
  tlop_axis ax;
  CHECK(tlop_axis_parse(ctx, "m=1..1024:*2", &ax) == TLOP_OK);
  CHECK_STR(ax.name, "m");
  CHECK(ax.count == 11);
  if (ax.count == 11) CHECK(ax.values[0] == 1 && ax.values[3] == 8 && ax.values[10] == 1024);
  CHECK(ax.kind == TLOP_KIND_NUMBER);
  tlop_axis_free(&ax);
  CHECK(tlop_axis_parse(ctx, "m=8 KiB..1 MiB:*2", &ax) == TLOP_OK);
  CHECK(ax.count == 8);
  if (ax.count == 8) CHECK(ax.values[0] == 8192 && ax.values[7] == 1048576);
  CHECK(ax.kind == TLOP_KIND_SIZE);
  tlop_axis_free(&ax);
  CHECK(tlop_axis_parse(ctx, "m=1..1000:*10", &ax) == TLOP_OK);
  CHECK(ax.count == 4);
  if (ax.count == 4) CHECK(ax.values[3] == 1000);
  tlop_axis_free(&ax);
  CHECK(tlop_axis_parse(ctx, "P=2..10:+4", &ax) == TLOP_OK);
  CHECK(ax.count == 3);
  if (ax.count == 3) CHECK(ax.values[0] == 2 && ax.values[1] == 6 && ax.values[2] == 10);
  tlop_axis_free(&ax);
  CHECK(tlop_axis_parse(ctx, "t=1 us,2.5 us,1 ms", &ax) == TLOP_OK);
  CHECK(ax.count == 3 && ax.kind == TLOP_KIND_TIME);
  if (ax.count == 3) CHECK_NEAR(ax.values[1], 2.5e-6, 1e-15);
  tlop_axis_free(&ax);
  CHECK(tlop_axis_parse(ctx, "P=4", &ax) == TLOP_OK);
  CHECK(ax.count == 1 && ax.values && ax.values[0] == 4);
  tlop_axis_free(&ax);
  /* mistakes */
  static const char *bad[] = {"=1,2", "m", "m=8..1:*2", "m=0..8:*2", "m=1..8:*1", "m=1..8:+0",
                              "m=1..8:/2", "m=1,x,3"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    dreset();
    tlop_status st = tlop_axis_parse(ctx, bad[i], &ax);
    CHECK(st != TLOP_OK);
    CHECK(D.errors >= 1);
    CHECK(ax.values == NULL && ax.count == 0);
    if (st == TLOP_OK || D.errors < 1) fprintf(stderr, "  axis \"%s\": status %d\n", bad[i], (int)st);
    tlop_axis_free(&ax);
  }
  dreset();
  CHECK(tlop_axis_parse(ctx, "m=1..1e12:+1", &ax) == TLOP_ERR_LIMIT);
  CHECK(D.errors == 1);
  tlop_axis_free(&ax);
}

/* ---- errors: statuses and counts ---- */

static void expect_parse_error(tlop_model *m, const char *text, tlop_status want, int nerrors,
                               const char *sub) {
  tlop_expr *x = (tlop_expr *)&x;
  dreset();
  tlop_status st = parse(m, text, &x);
  CHECK(st == want);
  CHECK(x == NULL);
  CHECK(D.errors == nerrors);
  if (st != want || D.errors != nerrors)
    fprintf(stderr, "  \"%s\": status %d, %d errors\n", text, (int)st, D.errors);
  if (sub) EXPECT_DIAG(0, sub);
}

static void expect_load_error(const char *text, tlop_status want, int nerrors, int line,
                              const char *sub) {
  tlop_model *m = (tlop_model *)&m;
  dreset();
  tlop_status st = load(ctx, text, &m);
  CHECK(st == want);
  CHECK(m == NULL);
  CHECK(D.errors == nerrors);
  if (st != want || D.errors != nerrors)
    fprintf(stderr, "  source: status %d, %d errors:\n%s\n", (int)st, D.errors, text);
  if (sub) EXPECT_DIAG(line, sub);
}

static void test_errors(void) {
  /* syntax */
  expect_parse_error(base, "1 +", TLOP_ERR_SYNTAX, 1, "unexpected end of input");
  expect_parse_error(base, "(1 + 2", TLOP_ERR_SYNTAX, 1, "unexpected end of input");
  expect_parse_error(base, "1 2", TLOP_ERR_SYNTAX, 1, "unexpected number");
  expect_parse_error(base, "1 + $", TLOP_ERR_SYNTAX, 2, "unexpected character '$'");
  expect_parse_error(base, "sum i = 1 .. 3 i", TLOP_ERR_SYNTAX, 1, NULL);
  /* the same mistake twice in a row is reported twice: each failing call reports what
   * went wrong (tlop.h), even when the text of the report is the same */
  expect_parse_error(base, "2 *", TLOP_ERR_SYNTAX, 1, "unexpected end of input");
  expect_parse_error(base, "2 *", TLOP_ERR_SYNTAX, 1, "unexpected end of input");
  expect_parse_error(base, "qqq", TLOP_ERR_CHECK, 1, "undefined name 'qqq'");
  expect_parse_error(base, "qqq", TLOP_ERR_CHECK, 1, "undefined name 'qqq'");

  /* several syntax errors in one source are all reported, each on its line */
  expect_load_error("fn a(x) = x + ;\n"
                    "fn b(x) = * x;\n"
                    "fn c(x) = x;\n"
                    "param p = );\n"
                    "algorithm d(m: size) = L(m, 1);\n",
                    TLOP_ERR_SYNTAX, 3, 1, "unexpected ';'");
  EXPECT_DIAG(2, "unexpected '*'");
  EXPECT_DIAG(4, "unexpected ')'");
  expect_load_error("algorithm a(m: size) = L(m, 1)\nalgorithm b(m: size) = o(m);\n",
                    TLOP_ERR_SYNTAX, 1, 2, "unexpected 'algorithm'");
  expect_load_error("param x: sizes = 1;\n", TLOP_ERR_SYNTAX, 1, 1, "unknown kind 'sizes'");

  /* names */
  expect_load_error("algorithm a(m: size) = L(mm, 1);\n", TLOP_ERR_CHECK, 1, 1,
                    "undefined name 'mm'; did you mean 'm'?");
  expect_parse_error(base, "foo(1)", TLOP_ERR_CHECK, 1, "undefined function 'foo'");
  expect_parse_error(base, "L(1)", TLOP_ERR_CHECK, 1, "L takes 2 arguments, but 1 is given");
  expect_parse_error(base, "zzz + 1", TLOP_ERR_CHECK, 1, "undefined name 'zzz'");
  expect_load_error("fn f(x) = x;\nfn f(y) = y;\n", TLOP_ERR_CHECK, 1, 2,
                    "function 'f' is defined twice");
  expect_load_error("fn L(m, t) = m;\n", TLOP_ERR_CHECK, 1, 1,
                    "'L' is a builtin function and cannot be redefined");
  expect_load_error("fn f(x, y) = x + y;\nalgorithm a() = f(1);\n", TLOP_ERR_CHECK, 1, 2,
                    "'f' takes 2 arguments, but 1 is given");

  /* kinds: time + size */
  expect_parse_error(base, "1 us + 1 B", TLOP_ERR_CHECK, 1, "cannot add a time and a size");
  expect_load_error("algorithm a(m: size) = L(m, 1) + m;\n", TLOP_ERR_CHECK, 1, 1,
                    "cannot add a time and a size");
  /* L(size, count) with its arguments swapped: both are wrong */
  {
    tlop_env *e2 = tlop_env_new(ctx);
    tlop_env_set(e2, "m", 1024, TLOP_KIND_SIZE);
    tlop_env_set(e2, "P", 4, TLOP_KIND_COUNT);
    tlop_expr *x = NULL;
    dreset();
    CHECK(tlop_expr_parse(base, "L(P, m)", e2, &x) == TLOP_ERR_CHECK);
    CHECK(D.errors == 2);
    EXPECT_DIAG(0, "the message size of L must be a size, but this is a count");
    EXPECT_DIAG(0, "the concurrency τ of L must be a count, but this is a size");
    dreset();
    CHECK(tlop_expr_parse(base, "L(m, P)", e2, &x) == TLOP_OK);
    CHECK(D.errors == 0);
    tlop_env_free(e2);
  }
  expect_load_error("algorithm a(m: size, P: count) = L(P, m);\n", TLOP_ERR_CHECK, 2, 1,
                    "the message size of L must be a size, but this is a count");
  /* count ∥ needs a count (or a cost) on its left, a cost on its right */
  expect_parse_error(base, "1 B ∥ L(8, 1)", TLOP_ERR_CHECK, 1,
                     "the left of ∥ must be a count (how many run at once) or a cost, but this "
                     "is a size");
  expect_parse_error(base, "2 ∥ 3 B", TLOP_ERR_CHECK, 1,
                     "the right of ∥ (what runs concurrently) must be a time, but this is a size");
  expect_parse_error(base, "o(1 us)", TLOP_ERR_CHECK, 1,
                     "the message size of o must be a size, but this is a time");
  expect_parse_error(base, "if 1 then 2 else 3", TLOP_ERR_CHECK, 1,
                     "the condition of 'if' must be a truth value");
  expect_parse_error(base, "if 1 < 2 then 1 B else 1 s", TLOP_ERR_CHECK, 1,
                     "cannot choose between a size and a time");

  /* an unannotated parameter takes the kind of each call's argument */
  {
    tlop_model *m = NULL;
    dreset();
    CHECK(load(ctx, "fn f(x) = x + 1 us;\nalgorithm good() = f(2 us);\n", &m) == TLOP_OK);
    CHECK(D.errors == 0);
    if (m) {
      double v = evalm(m, NULL, "good()");
      CHECK_NEAR(v, 3e-6, 1e-15);
      tlop_expr *x = NULL;
      dreset();
      CHECK(parse(m, "f(5 us)", &x) == TLOP_OK);
      if (x) CHECK(tlop_expr_kind(x) == TLOP_KIND_TIME);
      dreset();
      x = NULL;
      CHECK(parse(m, "f(2 B)", &x) == TLOP_ERR_CHECK);
      CHECK(D.errors == 1);
      EXPECT_DIAG(1, "cannot add a size and a time");
      CHECK(D.notes >= 1); /* "in this call of 'f'" */
    }
    expect_load_error("fn f(x) = x + 1 us;\nalgorithm bad() = f(2 B);\n", TLOP_ERR_CHECK, 1, 1,
                      "cannot add a size and a time");
    /* the same function at two kinds in one file: one good call, one bad */
    expect_load_error("fn f(x) = x + 1 us;\nalgorithm g() = f(1 us) + f(1 B);\n",
                      TLOP_ERR_CHECK, 1, 1, "cannot add a size and a time");
  }

  /* recursion, direct and mutual */
  expect_load_error("fn f(x: count) = f(x) + 1;\n", TLOP_ERR_CHECK, 1, 1,
                    "'f' calls itself: recursion is not allowed");
  expect_load_error("fn f(x) = g(x);\nfn g(x) = f(x) + 1;\n", TLOP_ERR_CHECK, 1, 0,
                    "recursion");
  EXPECT_DIAG(0, "not allowed");
  expect_load_error("param a: count = b;\nparam b: count = a + 1;\n", TLOP_ERR_CHECK, 1, 0,
                    "depends on itself");
}

/* ---- nesting limits ---- */

static char *repeat_text(const char *open, const char *mid, const char *close, int n) {
  size_t lo = strlen(open), lc = strlen(close), lm = strlen(mid);
  char *s = malloc((lo + lc) * (size_t)n + lm + 1);
  size_t k = 0;
  for (int i = 0; i < n; i++, k += lo) memcpy(s + k, open, lo);
  memcpy(s + k, mid, lm);
  k += lm;
  for (int i = 0; i < n; i++, k += lc) memcpy(s + k, close, lc);
  s[k] = 0;
  return s;
}

/* ---- reduction operators ---- */

/* An operator parameter (op: op = sum) is a name: passed on through calls, left out for
 * its default, bound by a free name of the expression; γ of the IR holds the operator. */
static void test_operators(void) {
  tlop_model *m = NULL;
  char src[1024];
  snprintf(src, sizeof src,
           "platform g { channel shm { L(m, τ) = m / 1 B * τ * 1 s; } gamma(m, τ) = 2 * τ * 1 s; }\n"
           "fn red(m: size, op: op) = L(m, 1) + gamma(op, m, 1);\n"
           "algorithm a(m: size, P: count, op: op = sum) = (P - 1) * red(m, op);\n");
  dreset();
  CHECK(load(ctx, src, &m) == TLOP_OK);
  CHECK(D.errors == 0);
  if (!m) return;
  size_t np = 0;
  CHECK(tlop_algorithm_params(m, "a", &np) && np == 2); /* m, P: op is no number */
  CHECK(tlop_model_has_op_param(m, "op") && !tlop_model_has_op_param(m, "m"));
  /* the default, sum as an argument, another operator: γ is analytic here, 2 s each */
  CHECK(node_of(m, "a(8, 3)") == node_of(m, "a(8, 3, sum)"));
  CHECK(node_of(m, "a(8, 3)") != node_of(m, "a(8, 3, max)"));
  CHECK(node_of(m, "a(8, 3, max)") == node_of(m, "(3 - 1) * (L(8, 1) + gamma(max, 8, 1))"));
  tlop_env *with = tlop_env_new(ctx);
  tlop_expr *e = NULL, *back = NULL;
  CHECK(tlop_env_set_op(with, "op", "max") == TLOP_OK);
  CHECK(tlop_expr_parse(m, "a(8, 3, op)", with, &e) == TLOP_OK);
  CHECK(e && e->node == node_of(m, "a(8, 3, max)"));
  CHECK(tlop_algorithm_expr(m, "a", with, &e) == TLOP_OK);
  /* printed as .tlop source, the operator reads back to the same node */
  char *text = e ? tlop_expr_print(ctx, e, TLOP_FORMAT_TLOP) : NULL;
  CHECK(text && strstr(text, "gamma(max, m, 1)"));
  CHECK(text && tlop_expr_parse_symbolic(m, text, &back) == TLOP_OK && back->node == e->node);
  free(text);
  tlop_env_free(with);
  tlop_platform *g = NULL;
  CHECK(tlop_platform_open(m, "g", &g) == TLOP_OK);
  if (g) CHECK(evalm(m, g, "a(8, 3, max)") == 2 * (8 + 2));
  tlop_platform_free(g);
  /* an operator is not a number, and a number is not an operator */
  expect_parse_error(m, "red(8, 3)", TLOP_ERR_CHECK, 1, "argument 'op' of red must be a reduction operator");
  expect_parse_error(m, "a(8)", TLOP_ERR_CHECK, 1, "'a' takes 2 to 3 arguments, but 1 is given");
}

/* Nesting n deep is refused with a message containing `what`. */
static void deep_expr_says(const char *open, const char *mid, const char *close, int n,
                           const char *what) {
  char *s = repeat_text(open, mid, close, n);
  tlop_expr *x = NULL;
  dreset();
  tlop_status st = parse(base, s, &x);
  CHECK(st == TLOP_ERR_SYNTAX);
  CHECK(D.errors >= 1);
  CHECK(dhas(0, what));
  if (st != TLOP_ERR_SYNTAX || !dhas(0, what))
    fprintf(stderr, "  deep \"%s…%s…%s\" × %d: status %d\n", open, mid, close, n, (int)st);
  free(s);
}

static void deep_expr(const char *open, const char *mid, const char *close, int n) {
  deep_expr_says(open, mid, close, n, "nested too deeply");
}

/* Runs fn in a child process: a crash there is a failed check, not a dead test. */
static int survives(void (*fn)(void)) {
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) return 0;
  if (pid == 0) {
    fn();
    fflush(stdout);
    _exit(unit_failures ? 3 : 0);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return 0;
  if (WIFSIGNALED(status))
    fprintf(stderr, "  child killed by signal %d\n", WTERMSIG(status));
  else if (WEXITSTATUS(status) != 0)
    fprintf(stderr, "  child exited with %d\n", WEXITSTATUS(status));
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* A chain of N functions, f_k(x) = f_{k-1}(x) + 1, declared last-first: checking f_N
 * instantiates f_{N-1} and so on down. Either it is fine or it is refused with a
 * diagnostic ("too deep"); it must not overflow the stack. */
static int chain_n;
static int chain_reversed;

static void function_chain(void) {
  int n = chain_n;
  size_t cap = (size_t)n * 48 + 64, len = 0;
  char *s = malloc(cap);
  len += (size_t)sprintf(s + len, "fn f0(x) = x + 1;\n");
  for (int k = 1; k <= n; k++) {
    int i = chain_reversed ? n + 1 - k : k;
    len += (size_t)sprintf(s + len, "fn f%d(x) = f%d(x) + 1;\n", i, i - 1);
  }
  tlop_model *m = NULL;
  dreset();
  tlop_status st = tlop_load_source(ctx, chain_reversed ? "chain_r.tlop" : "chain.tlop", s, len,
                                    &m);
  CHECK(st == TLOP_OK || st == TLOP_ERR_CHECK);
  CHECK((st == TLOP_OK) == (D.errors == 0));
  if (m) {
    char call[32];
    snprintf(call, sizeof call, "f%d(1)", n);
    tlop_expr *x = NULL;
    dreset();
    st = parse(m, call, &x);
    CHECK(st == TLOP_OK || st == TLOP_ERR_CHECK);
    CHECK((st == TLOP_OK) == (D.errors == 0));
    if (st != TLOP_OK) CHECK(dhas(0, "too deep"));
    if (x) {
      double v = 0;
      dreset();
      st = tlop_eval(x, NULL, NULL, &v);
      CHECK(st == TLOP_OK);
      CHECK(v == n + 2); /* 1 + 1 for f0 + 1 per level */
    }
  }
  free(s);
}

static void chain_forward_19000(void) { chain_n = 19000, chain_reversed = 0, function_chain(); }
static void chain_reverse_19000(void) { chain_n = 19000, chain_reversed = 1, function_chain(); }
static void chain_forward_100000(void) { chain_n = 100000, chain_reversed = 0, function_chain(); }
static void chain_reverse_100000(void) { chain_n = 100000, chain_reversed = 1, function_chain(); }

static void deep_source(void) {
  /* the same 100000-deep nesting inside a file */
  char *inner = repeat_text("(", "1", ")", 100000);
  size_t n = strlen(inner);
  char *s = malloc(n + 64);
  sprintf(s, "algorithm a() = %s * 1 s;\n", inner);
  tlop_model *m = NULL;
  dreset();
  tlop_status st = load(ctx, s, &m);
  CHECK(st == TLOP_ERR_SYNTAX);
  CHECK(m == NULL);
  CHECK(dhas(1, "nested too deeply"));
  free(inner);
  free(s);
}

static void test_nesting(void) {
  deep_expr("(", "1", ")", 100000);
  deep_expr("-", "1", "", 100000);
  deep_expr("2^", "2", "", 100000);
  deep_expr("not ", "1 < 2", "", 100000);
  /* left-nested: the AST depth limit, told as a chain of one operator … */
  deep_expr_says("", "1", " - 1", 100000, "too long: more than 2000 operators in a row");
  /* … but a sum is rebuilt balanced, of any length */
  {
    char *s = repeat_text("", "1", " + 1", 100000);
    CHECK(ev(s) == 100001);
    free(s);
  }
  deep_expr("⌈", "1", "⌉", 100000);
  deep_expr("let a = 1 in ", "a", "", 100000);
  deep_expr("sum i = 1 .. 2 : ", "i", "", 100000);
  deep_expr("max(1, ", "1", ")", 100000);
  deep_expr("2 ∥ ", "L(8, 1)", "", 100000);
  deep_source();
  /* below the limits all is well: 1000 parentheses, 1000 additions */
  {
    char *s = repeat_text("(", "1", ")", 1000);
    CHECK(ev(s) == 1);
    free(s);
    s = repeat_text("", "1", " + 1", 1000);
    CHECK(ev(s) == 1001);
    free(s);
  }
  /* deep function chains: a diagnostic or a value, never a crash */
  CHECK(survives(chain_forward_19000));
  CHECK(survives(chain_reverse_19000));
  CHECK(survives(chain_forward_100000));
  CHECK(survives(chain_reverse_100000));
}

/* ---- hostile input: random bytes and random token soup never crash ---- */

static uint64_t lcg_state = 20240611;

static unsigned lcg(void) {
  lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (unsigned)(lcg_state >> 33);
}

static void test_random(void) {
  static const char *tokens[] = {
      "fn ", "algorithm ", "param ", "platform ", "channel ", "import ", "let ", "in ", "if ",
      "then ", "else ", "sum ", "Σ ", "stages ", "repeat ", "gamma", "table ", "assume ",
      "claim ", "and ", "or ", "not ", "x", "m", "P", "i", "tau", "τ", "L", "o", "p", "f", "(",
      ")", "{", "}", "[", "]", ",", ";", ":", "=", "==", "<", "<=", "≤", ">", "..", "∥",
      "||", "+", "-", "−", "*", "×", "/", "^", "%", "1", "2", "0", "8 KiB", "1 us", "3.5",
      "1e400", "\"a\"", "\"mpich/bcast\"", "size", "count", "time", "⌈", "⌉", "⌊", "⌋",
      "/*", "*/", "#", "\n", " ", "log2", "min", "max", "ceil", "\xC3", "\xFF", "\xE2\x88",
  };
  const size_t ntok = sizeof tokens / sizeof *tokens;
  char buf[2048];
  int bad_status = 0, silent = 0, loaded = 0;
  tlop_ctx_set_max_terms(ctx, 1e5); /* a random sum must not run for long */
  for (int iter = 0; iter < 4000; iter++) {
    size_t len = 0;
    int mode = iter % 2;
    if (mode == 0) {
      len = lcg() % 400;
      for (size_t i = 0; i < len; i++) buf[i] = (char)(lcg() & 0xff);
    } else {
      int n = (int)(lcg() % 60);
      for (int k = 0; k < n; k++) {
        const char *t = tokens[lcg() % ntok];
        size_t tl = strlen(t);
        if (len + tl >= sizeof buf) break;
        memcpy(buf + len, t, tl);
        len += tl;
      }
    }
    char name[64];
    snprintf(name, sizeof name, "fuzz%d.tlop", iter);
    /* exactly len bytes on the heap, so that reading past the end is caught by ASan */
    char *copy = malloc(len ? len : 1);
    memcpy(copy, buf, len);
    tlop_model *m = NULL;
    int before = tlop_ctx_errors(ctx);
    dreset();
    tlop_status st = tlop_load_source(ctx, name, copy, len, &m);
    free(copy);
    if (!(st == TLOP_OK || st == TLOP_ERR_SYNTAX || st == TLOP_ERR_CHECK)) bad_status++;
    if ((st == TLOP_OK) != (m != NULL)) bad_status++;
    if (st != TLOP_OK && tlop_ctx_errors(ctx) == before) silent++;
    if (m) loaded++;
    /* the same soup as a lone expression */
    if (mode == 1) {
      buf[len] = 0;
      tlop_expr *x = NULL;
      before = tlop_ctx_errors(ctx);
      st = parse(base, buf, &x);
      if (!(st == TLOP_OK || st == TLOP_ERR_SYNTAX || st == TLOP_ERR_CHECK)) bad_status++;
      if ((st == TLOP_OK) != (x != NULL)) bad_status++;
      if (st != TLOP_OK && tlop_ctx_errors(ctx) == before) silent++;
      if (x) {
        double v;
        (void)tlop_eval(x, pf, env, &v);
        char *t = tlop_expr_print(ctx, x, TLOP_FORMAT_UNICODE);
        free(t);
      }
    }
  }
  CHECK(bad_status == 0);
  CHECK(silent == 0);
  if (silent) fprintf(stderr, "  %d failures without an error diagnostic\n", silent);
  printf("front: %d of 4000 random sources loaded\n", loaded);
  tlop_ctx_set_max_terms(ctx, 1e8);
}

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  ctx = new_ctx();
  env = tlop_env_new(ctx);
  tlop_env_set(env, "i", 2, TLOP_KIND_COUNT);
  tlop_env_set(env, "n", 3, TLOP_KIND_COUNT);
  tlop_env_set(env, "tau", 3, TLOP_KIND_COUNT);
  dreset();
  if (load(ctx, PLATFORM, &base) != TLOP_OK || tlop_platform_open(base, NULL, &pf) != TLOP_OK) {
    ddump("base model");
    fprintf(stderr, "front: cannot load the base model\n");
    return 1;
  }
  test_numbers();
  test_unicode_aliases();
  test_precedence();
  test_comments();
  test_constructs();
  test_operators();
  test_import();
  test_errors();
  test_reload();
  test_axes();
  test_nesting();
  test_random();
  tlop_platform_free(pf);
  tlop_env_free(env);
  tlop_ctx_free(ctx);
  return unit_report("front");
}
