/* test_ir.c — unit tests of the hash-consed cost IR: structural sharing, the scalar
 * arithmetic of ir_apply, substitution, and the printer: exact strings in both formats,
 * and the print → parse round trip (the TLOP text of an expression parses back to the
 * very same node) over a few hundred random expressions. */
#define _POSIX_C_SOURCE 200809L
#include "api/api.h"
#include "print/print.h"
#include "unit.h"

#include <float.h>
#include <stdint.h>
#include <stdlib.h>

/* ---- diagnostics ---- */

static unit_diags D; /* unit.h's recorder: D.errors, D.last_error (its message) */

static tlop_ctx *ctx;
static tlop_model *model; /* a platform and taulop/transmission (T, exch) */
static tlop_platform *pf;
static tlop_env *env;     /* m = 1 MiB, P = 8, k = 3 (counts), tau = 2, x = 5 (a number) */

static const char *SOURCE =
    "import \"taulop/transmission\";\n"
    "platform t {\n"
    "  channel shm { L(m, τ) = m / 1 B * τ * 1 s; o(m) = 1 s; p(m) = 3 s; }\n"
    "  channel net { L(m, τ) = 10 * m / 1 B * τ * 1 s; o(m) = 2 s; }\n"
    "  gamma(m, τ) = m / 1 B * τ * 1 ms;\n"
    "}\n";

static const ir_node *node_of(const char *text) {
  tlop_expr *e = NULL;
  if (tlop_expr_parse(model, text, env, &e) != TLOP_OK) {
    fprintf(stderr, "  cannot parse \"%s\": %s\n", text, D.last_error);
    return NULL;
  }
  return e->node;
}

static sym S(const char *name) { return ctx_sym(ctx, name); }

static double eval_node_env(const ir_node *n, const tlop_env *with, bool *ok) {
  tlop_expr e = {.node = (ir_node *)n, .model = model, .k = KIND_TIME};
  double v = NAN;
  *ok = tlop_eval(&e, pf, with, &v) == TLOP_OK;
  return v;
}

/* ---- hash-consing ---- */

static void test_hash_consing(void) {
  sym x = S("x"), y = S("y"), net = S("net");
  ir_node *one = ir_num(ctx, 1), *two = ir_num(ctx, 2);
  ir_node *vx = ir_var(ctx, x), *vy = ir_var(ctx, y);

  /* equal structure, one node */
  ir_node *a1 = ir_bin(ctx, IR_ADD, vx, one);
  ir_node *a2 = ir_bin(ctx, IR_ADD, ir_var(ctx, x), ir_num(ctx, 1));
  CHECK(a1 == a2);
  CHECK(ir_num(ctx, 1) == one);
  CHECK(ir_var(ctx, x) == vx);
  CHECK(ir_make(ctx, IR_ADD, NULL, 0, vx, one, NULL) == a1);

  /* different structure, different nodes */
  CHECK(one != two);
  CHECK(vx != vy);
  CHECK(ir_bin(ctx, IR_ADD, one, vx) != a1); /* operand order matters */
  CHECK(ir_bin(ctx, IR_SUB, vx, one) != a1);
  CHECK(ir_bin(ctx, IR_ADD, vx, two) != a1);
  CHECK(ir_bin(ctx, IR_ADD, vy, one) != a1);
  CHECK(ir_un(ctx, IR_CEIL, vx) != ir_un(ctx, IR_FLOOR, vx));
  CHECK(ir_num(ctx, 1e-300) != ir_num(ctx, 0));
  CHECK(ir_num(ctx, 0.1 + 0.2) != ir_num(ctx, 0.3));

  /* transfers: the channel name is part of the node */
  ir_node *L = ir_make(ctx, IR_L, NULL, 0, vx, one, NULL);
  ir_node *Lnet = ir_make(ctx, IR_L, net, 0, vx, one, NULL);
  CHECK(L != Lnet);
  CHECK(ir_make(ctx, IR_L, net, 0, vx, one, NULL) == Lnet);
  CHECK(ir_make(ctx, IR_L, NULL, 0, vx, one, NULL) == L);
  CHECK(ir_make(ctx, IR_O, NULL, 0, vx, NULL, NULL) != ir_make(ctx, IR_PACK, NULL, 0, vx, NULL, NULL));
  CHECK(ir_make(ctx, IR_SUM, S("i"), 0, one, two, vx) != ir_make(ctx, IR_SUM, S("j"), 0, one, two, vx));

  /* one zero: −0 and +0 are the same constant, and it is +0 */
  ir_node *pz = ir_num(ctx, 0.0), *nz = ir_num(ctx, -0.0);
  CHECK(pz == nz);
  CHECK(!signbit(nz->num));
  CHECK(ir_bin(ctx, IR_MUL, vx, ir_num(ctx, -0.0)) == ir_bin(ctx, IR_MUL, vx, pz));
  /* a NaN constant is still one node (bits, not ==, decide) */
  CHECK(ir_num(ctx, NAN) == ir_num(ctx, NAN));

  /* the flags and the depth */
  CHECK(a1->depth == 2 && one->depth == 1);
  CHECK(!ir_has_cost(a1));
  CHECK(ir_has_cost(ir_bin(ctx, IR_ADD, a1, L)));
  CHECK(!ir_has_stage(L));
  CHECK(ir_has_stage(ir_bin(ctx, IR_ADD, one, ir_make(ctx, IR_STAGE, NULL, 0, L, NULL, NULL))));
  CHECK(ir_mentions(a1, x));
  CHECK(!ir_mentions(one, x));
  CHECK(!ir_mentions(ir_bin(ctx, IR_ADD, one, two), y));

  /* thousands of nodes (the table grows and rehashes): all still found */
  {
    enum { N = 20000 };
    ir_node **made = malloc(N * sizeof *made);
    for (int i = 0; i < N; i++) made[i] = ir_bin(ctx, IR_MUL, ir_num(ctx, i + 0.5), vy);
    int same = 0, distinct = 1;
    for (int i = 0; i < N; i++) same += ir_bin(ctx, IR_MUL, ir_num(ctx, i + 0.5), vy) == made[i];
    for (int i = 1; i < N; i++) distinct &= made[i] != made[i - 1];
    CHECK(same == N);
    CHECK(distinct);
    free(made);
  }

  /* through the front end: the same text twice, and equal subterms, are one node */
  const ir_node *p1 = node_of("x + 1"), *p2 = node_of("x + 1");
  CHECK(p1 != NULL && p1 == p2);
  CHECK(p1 == a1); /* and it is the node built by hand */
  CHECK(node_of("x + 1") != node_of("1 + x"));
  CHECK(node_of("4 ∥ L(m, 1)") == node_of("4 || L(m, 1)"));
  CHECK(node_of("4 ∥ L(m, 1)") != node_of("4 ∥[shm] L(m, 1)"));
  CHECK(node_of("L(m, 1)") != node_of("L[shm](m, 1)"));
  const ir_node *tt = node_of("T(m) + T(m)");
  CHECK(tt && tt->op == IR_ADD && tt->kid[0] == tt->kid[1]);
  const ir_node *lt = node_of("let a = m * 2 in L(a, 1) + o(a)");
  CHECK(lt && lt->kid[0]->kid[0] == lt->kid[1]->kid[0]);
  /* T(m) = o(m) + 2·L(m,1) inlined is exactly that expression */
  CHECK(node_of("T(m)") == node_of("o(m) + 2 * L(m, 1)"));
  CHECK(node_of("exch(m)") == node_of("T(m)"));
}

/* ---- ir_apply: the one arithmetic ---- */

static void test_apply(void) {
  CHECK(ir_apply(IR_ADD, 2, 3) == 5);
  CHECK(ir_apply(IR_SUB, 2, 3) == -1);
  CHECK(ir_apply(IR_MUL, 2.5, 4) == 10);
  CHECK(ir_apply(IR_DIV, 7, 2) == 3.5);
  CHECK(isinf(ir_apply(IR_DIV, 1, 0)));
  CHECK(ir_apply(IR_MOD, 7, 3) == 1);
  CHECK(ir_apply(IR_MOD, -7, 3) == -1);
  CHECK(ir_apply(IR_MOD, 7.5, 2) == 1.5);
  CHECK(ir_apply(IR_POW, 2, 10) == 1024);
  CHECK(ir_apply(IR_POW, 2, -1) == 0.5);
  CHECK(ir_apply(IR_POW, 9, 0.5) == 3);
  CHECK(ir_apply(IR_NEG, 3, 0) == -3);
  CHECK(ir_apply(IR_MIN, 3, -4) == -4);
  CHECK(ir_apply(IR_MIN, -4, 3) == -4);
  CHECK(ir_apply(IR_MAX, 3, -4) == 3);
  CHECK(ir_apply(IR_MAX, -4, 3) == 3);
  CHECK(ir_apply(IR_LOG2, 8, 0) == 3);
  CHECK(ir_apply(IR_LOG2, 1048576, 0) == 20);
  CHECK(ir_apply(IR_LOG2, 1, 0) == 0);
  CHECK(ir_apply(IR_LOG2, 0.5, 0) == -1);
  CHECK_NEAR(ir_apply(IR_LOG2, 12, 0), 3.5849625007211561, 1e-15);
  /* log(b, x) is exact when x is a power of b */
  CHECK(ir_apply(IR_LOG, 3, 27) == 3);
  CHECK(ir_apply(IR_LOG, 2, 536870912.0) == 29); /* 2^29 */
  CHECK(ir_apply(IR_LOG, 10, 1000) == 3);
  CHECK(ir_apply(IR_LOG, 5, 125) == 3);
  CHECK(ir_apply(IR_LOG, 3, 3486784401.0) == 20); /* 3^20 */
  CHECK(ir_apply(IR_LOG, 7, 282475249.0) == 10);  /* 7^10 */
  CHECK(ir_apply(IR_LOG, 4, 2) == 0.5);
  CHECK(ir_apply(IR_LOG, 3, 1) == 0);
  CHECK(ceil(ir_apply(IR_LOG, 3, 27)) == 3);      /* the tree height that motivated it */
  CHECK_NEAR(ir_apply(IR_LOG, 3, 28), 3.033103256304337, 1e-14);
  CHECK(ir_apply(IR_CEIL, 2.1, 0) == 3);
  CHECK(ir_apply(IR_CEIL, -2.1, 0) == -2);
  CHECK(ir_apply(IR_FLOOR, 2.9, 0) == 2);
  CHECK(ir_apply(IR_FLOOR, -2.1, 0) == -3);
  CHECK(ir_apply(IR_ABS, -2.5, 0) == 2.5);
  CHECK(ir_apply(IR_SQRT, 16, 0) == 4);
  CHECK(isnan(ir_apply(IR_SQRT, -1, 0)));
  CHECK(ir_apply(IR_LT, 1, 2) == 1 && ir_apply(IR_LT, 2, 2) == 0);
  CHECK(ir_apply(IR_LE, 2, 2) == 1 && ir_apply(IR_LE, 3, 2) == 0);
  CHECK(ir_apply(IR_GT, 3, 2) == 1 && ir_apply(IR_GT, 2, 2) == 0);
  CHECK(ir_apply(IR_GE, 2, 2) == 1 && ir_apply(IR_GE, 1, 2) == 0);
  CHECK(ir_apply(IR_EQ, 2, 2) == 1 && ir_apply(IR_EQ, 2, 3) == 0);
  CHECK(ir_apply(IR_NE, 2, 3) == 1 && ir_apply(IR_NE, 2, 2) == 0);
  CHECK(ir_apply(IR_AND, 1, 2) == 1 && ir_apply(IR_AND, 1, 0) == 0 && ir_apply(IR_AND, 0, 1) == 0);
  CHECK(ir_apply(IR_OR, 0, 2) == 1 && ir_apply(IR_OR, 0, 0) == 0);
  CHECK(ir_apply(IR_NOT, 0, 0) == 1 && ir_apply(IR_NOT, 5, 0) == 0);
  /* not a scalar operator */
  CHECK(isnan(ir_apply(IR_L, 1, 1)));
  CHECK(isnan(ir_apply(IR_SUM, 1, 1)));
}

/* ---- substitution ---- */

static void test_subst(void) {
  sym x = S("x"), y = S("y"), z = S("zz"), i = S("i");
  ir_node *vx = ir_var(ctx, x), *vy = ir_var(ctx, y), *two = ir_num(ctx, 2);
  ir_node *e = ir_bin(ctx, IR_ADD, vx, ir_bin(ctx, IR_MUL, vy, vx)); /* x + y·x */
  ir_node *want = ir_bin(ctx, IR_ADD, two, ir_bin(ctx, IR_MUL, vy, two));
  CHECK(ir_subst(ctx, e, x, two) == want);
  CHECK(ir_subst(ctx, e, z, two) == e); /* not mentioned: unchanged */
  CHECK(ir_subst(ctx, ir_subst(ctx, e, x, two), y, ir_num(ctx, 3)) ==
        ir_bin(ctx, IR_ADD, two, ir_bin(ctx, IR_MUL, ir_num(ctx, 3), two)));
  /* a value that is itself an expression */
  ir_node *yy = ir_bin(ctx, IR_POW, vy, two);
  CHECK(ir_subst(ctx, e, x, yy) == ir_bin(ctx, IR_ADD, yy, ir_bin(ctx, IR_MUL, vy, yy)));

  /* under a sum: a free variable is replaced in bounds and body; the index is not */
  ir_node *vi = ir_var(ctx, i);
  ir_node *s = ir_make(ctx, IR_SUM, i, 0, ir_num(ctx, 1), vx, ir_bin(ctx, IR_MUL, vi, vx));
  CHECK(ir_subst(ctx, s, x, ir_num(ctx, 3)) ==
        ir_make(ctx, IR_SUM, i, 0, ir_num(ctx, 1), ir_num(ctx, 3),
                ir_bin(ctx, IR_MUL, vi, ir_num(ctx, 3))));
  CHECK(ir_subst(ctx, s, i, ir_num(ctx, 5)) == s);
  /* inside transfers */
  ir_node *L = ir_make(ctx, IR_L, NULL, 0, vx, vy, NULL);
  CHECK(ir_subst(ctx, L, y, two) == ir_make(ctx, IR_L, NULL, 0, vx, two, NULL));

  /* substitution agrees with evaluation: e[v := a] evaluates as e with v = a. A sum
   * whose index has the name of a free variable of its bounds (the bound is the outer
   * one: `sum i = 1 .. i : i` with i = 3 is 1 + 2 + 3) included. */
  {
    static const char *texts[] = {
        "sum j = 1 .. k : j * k",
        "L(m, k) + (k ∥ o(m))",
        "sum i = 1 .. i : i",
        "sum i = i .. i + 2 : i * k",
    };
    tlop_env *e3 = tlop_env_new(ctx);
    tlop_env_set(e3, "k", 3, TLOP_KIND_COUNT);
    tlop_env_set(e3, "i", 3, TLOP_KIND_COUNT);
    tlop_env_set(e3, "m", 1024, TLOP_KIND_SIZE);
    tlop_env *only_m = tlop_env_new(ctx);
    tlop_env_set(only_m, "m", 1024, TLOP_KIND_SIZE);
    static const double want_v[] = {18, 1024 * 3 + 1, 6, 3 * (3 + 4 + 5)};
    for (size_t t = 0; t < sizeof texts / sizeof *texts; t++) {
      tlop_expr *pe = NULL;
      CHECK(tlop_expr_parse(model, texts[t], e3, &pe) == TLOP_OK);
      if (!pe) continue;
      bool ok1, ok2;
      double v1 = eval_node_env(pe->node, e3, &ok1);
      const char *var = strstr(texts[t], "sum i") ? "i" : "k";
      ir_node *sub = ir_subst(ctx, ir_subst(ctx, pe->node, S("k"), ir_num(ctx, 3)), S(var),
                              ir_num(ctx, 3));
      double v2 = eval_node_env(sub, only_m, &ok2);
      CHECK(ok1 && v1 == want_v[t]);
      CHECK(ok2 && v2 == want_v[t]);
      if (!(ok1 && ok2 && v1 == want_v[t] && v2 == want_v[t]))
        fprintf(stderr, "  \"%s\": evaluated %g, substituted %g (%s), expected %g\n", texts[t],
                v1, v2, ok2 ? "ok" : D.last_error, want_v[t]);
    }
    /* values substituted by tlop_simplify agree with evaluation too (i = k = 3) */
    static const char *stexts[] = {"sum j = 1 .. i : j", "sum i = 1 .. k : i", "sum i = 1 .. k : L(m, i)"};
    static const double swant[] = {6, 6, 1024 * 6 + 0};
    for (size_t t = 0; t < sizeof stexts / sizeof *stexts; t++) {
      tlop_expr *pe = NULL, *se = NULL;
      CHECK(tlop_expr_parse(model, stexts[t], e3, &pe) == TLOP_OK);
      if (!pe) continue;
      tlop_simp_opts o;
      memset(&o, 0, sizeof o);
      o.env = e3;
      o.platform = pf;
      bool ok1 = false, ok2 = false;
      double v1 = eval_node_env(pe->node, e3, &ok1), v2 = NAN;
      if (tlop_simplify(pe, &o, &se) == TLOP_OK) v2 = eval_node_env(se->node, e3, &ok2);
      CHECK(ok1 && v1 == swant[t]);
      CHECK(ok2 && v2 == swant[t]);
      if (!(ok2 && v2 == swant[t])) {
        char *txt = se ? tlop_expr_print(ctx, se, TLOP_FORMAT_TLOP) : NULL;
        fprintf(stderr, "  simplify \"%s\" with i = k = 3: %s = %g, expected %g\n", stexts[t],
                txt ? txt : "(failed)", v2, swant[t]);
        free(txt);
      }
    }
    tlop_env_free(e3);
    tlop_env_free(only_m);
  }
}

/* ---- the printer: exact strings ---- */

static void expect_print(const char *text, tlop_format f, const char *want) {
  const ir_node *n = node_of(text);
  CHECK(n != NULL);
  if (!n) return;
  char *got = prt_expr(ctx, n, f);
  CHECK_STR(got, want);
  free(got);
  /* the public entry point prints the same */
  tlop_expr *e = NULL;
  if (tlop_expr_parse(model, text, env, &e) == TLOP_OK) {
    char *pub = tlop_expr_print(ctx, e, f);
    got = prt_expr(ctx, n, f);
    CHECK_STR(pub, got);
    free(pub);
    free(got);
  }
}

static void test_print_exact(void) {
  const tlop_format U = TLOP_FORMAT_UNICODE, A = TLOP_FORMAT_TLOP;
  /* the papers' notation */
  expect_print("4 ∥ L(m, 2)", U, "4 ∥ L(m, 2)");
  /* truth literals print as written, in every format, and parse back */
  expect_print("if m > 4 B and true then m else 2 * m", U, "if m > 4 B and true then m else 2m");
  expect_print("if m > 4 B or false then m else 2 * m", A,
               "if m > 4 B or false then m else 2 * m");
  expect_print("4 ∥ L(1 MiB, 2)", U, "4 ∥ L(1 MiB, 2)");
  expect_print("L(3 MiB, 1)", U, "L(3 MiB, 1)");
  expect_print("L(1 KiB, 1)", U, "L(1 KiB, 1)");
  expect_print("L(1536, 1)", U, "L(1536 B, 1)");
  expect_print("L(0.5, 1)", U, "L(0.5 B, 1)");
  expect_print("o(0)", U, "o(0 B)");
  expect_print("L(m / 2, 1)", U, "L(m/2, 1)");
  /* a positive number before a term that starts with a letter is juxtaposed: 2L(m, P) */
  expect_print("2 * L(m, P)", U, "2L(m, P)");
  expect_print("0.5 * P", U, "0.5P");
  expect_print("2 * (P + 1)", U, "2·(P + 1)");
  expect_print("P * 2", U, "P·2");
  expect_print("P % k", U, "P mod k");
  expect_print("L(m, tau)", U, "L(m, τ)");
  expect_print("ceil(log2(P))", U, "⌈log₂P⌉"); /* log₂ of a name without parentheses */
  expect_print("log2(P + 1)", U, "log₂(P + 1)");
  expect_print("floor(P / 3)", U, "⌊P/3⌋");
  expect_print("sum i = 0 .. P - 1 : 2^i ∥ L(m, 1)", U, "Σ_{i=0}^{P − 1} (2^i ∥ L(m, 1))");
  expect_print("sum i = 1 .. 3 : i + 1", U, "Σ_{i=1}^{3} (i + 1)");
  expect_print("sum i = 1 .. 3 : 2^i", U, "Σ_{i=1}^{3} 2^i");
  /* a sum under ∥ is parenthesized, as the papers write it: A ∥ (X + Y) */
  expect_print("repeat P - 1 { P ∥ exch(m) }", U, "(P − 1) × (P ∥ (o(m) + 2L(m, 1)))");
  expect_print("2 ∥ T(m)", U, "2 ∥ (o(m) + 2L(m, 1))");
  expect_print("2 ∥ T(m)", A, "2 || (o(m) + 2 * L(m, 1))");
  expect_print("2 ∥ 3 ∥ L(m, 1)", U, "2 ∥ (3 ∥ L(m, 1))");
  expect_print("L[net](m, 1) ∥ L[net](m, 2)", U, "L[net](m, 1) ∥ L[net](m, 2)");
  expect_print("2 ∥[net] o[net](m)", U, "2 ∥[net] o[net](m)");
  expect_print("gamma(sum, m, 1)", U, "γ(sum, m, 1)");
  expect_print("p(m)", U, "p(m)");
  expect_print("if P <= 4 then 1 else 2", U, "if P ≤ 4 then 1 else 2");
  expect_print("if P >= k then 1 else 2", U, "if P ≥ k then 1 else 2");
  expect_print("if P != k then 1 else 2", U, "if P ≠ k then 1 else 2");
  expect_print("if not (P < 4) then 1 else 2", U, "if not P < 4 then 1 else 2");
  expect_print("P - -k", U, "P − −k");
  expect_print("stages { L(m, 1); L(m, 2); }", U, "L(m, 1) + L(m, 2)");
  expect_print("max(P, k, 2)", U, "max(max(P, k), 2)");
  expect_print("log(3, P)", U, "log(3, P)");
  expect_print("integer(P / 2)", U, "P/2 == ⌊P/2⌋");
  expect_print("integer(P / 2)", A, "P/2 == floor(P/2)");
  {
    char *neg = prt_expr(ctx, ir_num(ctx, -3), U);
    CHECK_STR(neg, "−3");
    free(neg);
    neg = prt_expr(ctx, ir_num(ctx, -3), A);
    CHECK_STR(neg, "-3");
    free(neg);
  }
  /* LaTeX */
  expect_print("4 ∥ L(1 MiB, 2)", TLOP_FORMAT_LATEX, "4 \\parallel L(\\text{1 MiB}, 2)");
  expect_print("ceil(log2(P))", TLOP_FORMAT_LATEX, "\\lceil \\log_2 P \\rceil");
  expect_print("m / P", TLOP_FORMAT_LATEX, "\\frac{m}{P}");
  /* .tlop source */
  expect_print("4 ∥ L(1 MiB, 2)", A, "4 || L(1048576 B, 2)");
  expect_print("2 ∥[net] o[net](m)", A, "2 ||[net] o[net](m)");
  expect_print("2 * L(m, tau)", A, "2 * L(m, tau)");
  expect_print("ceil(log2(P))", A, "ceil(log2(P))");
  expect_print("if P ≤ k then 1 else 2", A, "if P <= k then 1 else 2");
  expect_print("sum i = 1 .. P : i", A, "sum i = 1 .. P : i");
  expect_print("stages i = 1 .. P { L(m, i) }", A, "stages i = 1 .. P { L(m, i) }");
  expect_print("stages { \"first\": L(m, 1); L(m, 2); }", A,
               "stages { \"first\": L(m, 1); L(m, 2); }");
  expect_print("repeat 3 { L(m, 1) }", A, "repeat 3 { L(m, 1) }");
  expect_print("(2^3)^2", A, "(2^3)^2");
  expect_print("2^3^2", A, "2^3^2");
  expect_print("-2^2", A, "-2^2");
  expect_print("(-2)^2", A, "(-2)^2");
  expect_print("2^-1", A, "2^(-1)");
  expect_print("P - (k - 1)", A, "P - (k - 1)");
  expect_print("(P - k) - 1", A, "P - k - 1");
  expect_print("P / (k * 2)", A, "P/(k * 2)");
  expect_print("(P + k) * 2", A, "(P + k) * 2");
  expect_print("P + k ∥ L(m, 1)", A, "P + k || L(m, 1)");
  expect_print("(L(m, 1) ∥ L(m, 2)) ∥ L(m, 3)", A, "(L(m, 1) || L(m, 2)) || L(m, 3)");
  expect_print("sum i = 1 .. 2 : sum i = 1 .. i : i", A, "sum i = 1 .. 2 : sum i' = 1 .. i : i'");
  expect_print("(if P < k then 1 else 2) + 1", A, "(if P < k then 1 else 2) + 1");
}

/* ---- the print → parse round trip over random expressions ---- */

static uint64_t lcg_state = 987654321;

static unsigned rnd(unsigned n) {
  lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (unsigned)(lcg_state >> 33) % n;
}

typedef enum { G_COUNT, G_SIZE, G_TIME, G_BOOL } gkind;

typedef struct {
  int units; /* 0: no literal with a unit (sizes and times come from m and transfers) */
  strbuf b;
  const char *counts[8]; /* names in scope with a count value: sum indices, lets */
  int ncounts;
  int fresh;
} gen;

static void g(gen *st, gkind k, int depth);

static void put(gen *st, const char *s) { sb_puts(&st->b, s); }

static void g_count_leaf(gen *st) {
  static const char *nums[] = {"0", "1", "2", "3", "4", "8", "0.5", "1.25", "1e3", "16"};
  static const char *vars[] = {"P", "k", "x"};
  unsigned c = rnd(st->ncounts ? 3 : 2);
  if (c == 0)
    put(st, nums[rnd(10)]);
  else if (c == 1)
    put(st, vars[rnd(3)]);
  else
    put(st, st->counts[rnd((unsigned)st->ncounts)]);
}

static void g_binder(gen *st, const char *head, gkind body, int depth, const char *sep,
                     const char *close) {
  static const char *names[] = {"i", "j", "i", "q"};
  const char *name = names[rnd(4)];
  put(st, head);
  put(st, name);
  put(st, " = ");
  g(st, G_COUNT, depth - 2);
  put(st, " .. ");
  g(st, G_COUNT, depth - 2);
  put(st, sep);
  if (st->ncounts < 8) st->counts[st->ncounts++] = name;
  g(st, body, depth - 1);
  st->ncounts--;
  put(st, close);
}

static void g_transfers(gen *st, int depth) {
  /* a set of transfers for binary ∥: L terms, counts ∥ transfer sets */
  unsigned c = depth <= 0 ? 0 : rnd(3);
  if (c == 0) {
    put(st, rnd(2) ? "L(" : "L[net](");
    g(st, G_SIZE, depth - 1);
    put(st, ", ");
    g(st, G_COUNT, depth - 1);
    put(st, ")");
  } else if (c == 1) {
    put(st, "(");
    g_transfers(st, depth - 1);
    put(st, " ∥ ");
    g_transfers(st, depth - 1);
    put(st, ")");
  } else {
    put(st, "(");
    g(st, G_COUNT, depth - 1);
    put(st, " ∥ ");
    g_transfers(st, depth - 1);
    put(st, ")");
  }
}

static void g(gen *st, gkind k, int depth) {
  if (depth <= 0) {
    switch (k) {
    case G_COUNT: g_count_leaf(st); return;
    case G_SIZE: {
      static const char *s[] = {"m", "8 KiB", "64 B", "1 MiB", "m"};
      put(st, st->units ? s[rnd(5)] : "m");
      return;
    }
    case G_TIME: {
      static const char *s[] = {"L(m, 1)", "o(m)", "L[net](m, k)", "p(m)", "T(m)",
                                "gamma(sum, m, 1)", "o[net](64 B)", "1 us", "exch(8 KiB)"};
      put(st, s[rnd(st->units ? 9 : 6)]);
      return;
    }
    case G_BOOL:
      put(st, rnd(2) ? "P < k" : "k <= 3");
      return;
    }
  }
  static const char *arith[] = {" + ", " - ", " * ", " / ", " % ", " − ", " × ", " · "};
  static const char *cmp[] = {" < ", " <= ", " > ", " >= ", " == ", " != ", " ≤ ", " ≥ ", " ≠ "};
  switch (k) {
  case G_COUNT:
    switch (rnd(16)) {
    case 0: case 1: case 2:
      put(st, "(");
      g(st, G_COUNT, depth - 1);
      put(st, arith[rnd(8)]);
      g(st, G_COUNT, depth - 1);
      put(st, ")");
      return;
    case 3:
      put(st, "(");
      g(st, G_COUNT, depth - 1);
      put(st, "^");
      put(st, rnd(2) ? "2" : "(0 - 1)");
      put(st, ")");
      return;
    case 4:
      put(st, rnd(2) ? "min(" : "max(");
      g(st, G_COUNT, depth - 1);
      put(st, ", ");
      g(st, G_COUNT, depth - 1);
      if (rnd(3) == 0) {
        put(st, ", ");
        g(st, G_COUNT, depth - 1);
      }
      put(st, ")");
      return;
    case 5: {
      static const char *f[] = {"ceil(", "floor(", "log2(", "abs(", "sqrt(", "⌈", "⌊"};
      static const char *c[] = {")", ")", ")", ")", ")", "⌉", "⌋"};
      unsigned w = rnd(7);
      put(st, f[w]);
      g(st, G_COUNT, depth - 1);
      put(st, c[w]);
      return;
    }
    case 6:
      put(st, "(-");
      g(st, G_COUNT, depth - 1);
      put(st, ")");
      return;
    case 7:
      put(st, "(if ");
      g(st, G_BOOL, depth - 1);
      put(st, " then ");
      g(st, G_COUNT, depth - 1);
      put(st, " else ");
      g(st, G_COUNT, depth - 1);
      put(st, ")");
      return;
    case 8:
      g_binder(st, "(sum ", G_COUNT, depth, " : ", ")");
      return;
    case 9: {
      static const char *lets[] = {"v0", "v1", "v2", "v3"};
      const char *nm = lets[st->fresh++ % 4];
      put(st, "(let ");
      put(st, nm);
      put(st, " = ");
      g(st, G_COUNT, depth - 1);
      put(st, " in ");
      if (st->ncounts < 8) st->counts[st->ncounts++] = nm;
      g(st, G_COUNT, depth - 1);
      st->ncounts--;
      put(st, ")");
      return;
    }
    case 10:
      put(st, "(");
      g(st, G_SIZE, depth - 1);
      put(st, " / ");
      g(st, G_SIZE, depth - 1);
      put(st, ")");
      return;
    case 11:
      put(st, "log(");
      g(st, G_COUNT, depth - 1);
      put(st, ", ");
      g(st, G_COUNT, depth - 1);
      put(st, ")");
      return;
    default:
      g(st, G_COUNT, 0);
      return;
    }
  case G_SIZE:
    switch (rnd(8)) {
    case 0:
      put(st, "(");
      g(st, G_SIZE, depth - 1);
      put(st, rnd(2) ? " + " : " - ");
      g(st, G_SIZE, depth - 1);
      put(st, ")");
      return;
    case 1:
      put(st, "(");
      g(st, G_COUNT, depth - 1);
      put(st, " * ");
      g(st, G_SIZE, depth - 1);
      put(st, ")");
      return;
    case 2:
      put(st, "(");
      g(st, G_SIZE, depth - 1);
      put(st, " / ");
      g(st, G_COUNT, depth - 1);
      put(st, ")");
      return;
    case 3:
      put(st, rnd(2) ? "min(" : "max(");
      g(st, G_SIZE, depth - 1);
      put(st, ", ");
      g(st, G_SIZE, depth - 1);
      put(st, ")");
      return;
    case 4:
      put(st, "ceil(");
      g(st, G_SIZE, depth - 1);
      put(st, ")");
      return;
    case 5:
      put(st, "(if ");
      g(st, G_BOOL, depth - 1);
      put(st, " then ");
      g(st, G_SIZE, depth - 1);
      put(st, " else ");
      g(st, G_SIZE, depth - 1);
      put(st, ")");
      return;
    default:
      g(st, G_SIZE, 0);
      return;
    }
  case G_TIME:
    switch (rnd(16)) {
    case 0: case 1:
      put(st, "(");
      g(st, G_TIME, depth - 1);
      put(st, rnd(3) ? " + " : " - ");
      g(st, G_TIME, depth - 1);
      put(st, ")");
      return;
    case 2:
      put(st, "(");
      g(st, G_COUNT, depth - 1);
      put(st, " * ");
      g(st, G_TIME, depth - 1);
      put(st, ")");
      return;
    case 3:
      put(st, "(");
      g(st, G_TIME, depth - 1);
      put(st, " / ");
      g(st, G_COUNT, depth - 1);
      put(st, ")");
      return;
    case 4: case 5:
      put(st, "(");
      g(st, G_COUNT, depth - 1);
      put(st, rnd(2) ? " ∥ " : " || ");
      g(st, G_TIME, depth - 1);
      put(st, ")");
      return;
    case 6:
      put(st, "(");
      g(st, G_COUNT, depth - 1);
      put(st, rnd(2) ? " ∥[net] " : " ||[shm] ");
      g(st, G_TIME, depth - 1);
      put(st, ")");
      return;
    case 7:
      g_transfers(st, depth);
      return;
    case 8:
      g_binder(st, "(sum ", G_TIME, depth, " : ", ")");
      return;
    case 9:
      put(st, "(if ");
      g(st, G_BOOL, depth - 1);
      put(st, " then ");
      g(st, G_TIME, depth - 1);
      put(st, " else ");
      g(st, G_TIME, depth - 1);
      put(st, ")");
      return;
    case 10:
      put(st, "L(");
      g(st, G_SIZE, depth - 1);
      put(st, ", ");
      g(st, G_COUNT, depth - 1);
      put(st, ")");
      return;
    case 11:
      put(st, rnd(2) ? "o(" : "T(");
      g(st, G_SIZE, depth - 1);
      put(st, ")");
      return;
    case 12:
      put(st, "repeat ");
      g(st, G_COUNT, depth - 1);
      put(st, " { ");
      g(st, G_TIME, depth - 1);
      put(st, " }");
      return;
    case 13: {
      int n = 1 + (int)rnd(3);
      put(st, "stages {");
      for (int i = 0; i < n; i++) {
        put(st, " ");
        g(st, G_TIME, depth - 1);
        put(st, ";");
      }
      put(st, " }");
      return;
    }
    case 14:
      g_binder(st, "stages ", G_TIME, depth, " { ", " }");
      return;
    default:
      put(st, "max(");
      g(st, G_TIME, depth - 1);
      put(st, ", ");
      g(st, G_TIME, depth - 1);
      put(st, ")");
      return;
    }
  case G_BOOL:
    switch (rnd(6)) {
    case 0: case 1:
      put(st, "(");
      g(st, G_COUNT, depth - 1);
      put(st, cmp[rnd(9)]);
      g(st, G_COUNT, depth - 1);
      put(st, ")");
      return;
    case 2:
      put(st, "(");
      g(st, G_SIZE, depth - 1);
      put(st, cmp[rnd(9)]);
      g(st, G_SIZE, depth - 1);
      put(st, ")");
      return;
    case 3:
      put(st, "(");
      g(st, G_BOOL, depth - 1);
      put(st, rnd(2) ? " and " : " or ");
      g(st, G_BOOL, depth - 1);
      put(st, ")");
      return;
    case 4:
      put(st, "(not ");
      g(st, G_BOOL, depth - 1);
      put(st, ")");
      return;
    default:
      put(st, "integer(");
      g(st, G_COUNT, depth - 1);
      put(st, ")");
      return;
    }
  }
}

static int round_trip(const char *text, int verbose) {
  tlop_expr *e1 = NULL, *e2 = NULL;
  D.errors = 0;
  if (tlop_expr_parse(model, text, env, &e1) != TLOP_OK) {
    if (verbose) fprintf(stderr, "  generated text does not parse: %s\n    %s\n", D.last_error, text);
    return -1;
  }
  char *printed = tlop_expr_print(ctx, e1, TLOP_FORMAT_TLOP);
  int ok = tlop_expr_parse(model, printed, env, &e2) == TLOP_OK && e2->node == e1->node;
  if (!ok && verbose) {
    fprintf(stderr, "  round trip differs:\n    source:  %s\n    printed: %s\n", text, printed);
    if (e2) {
      char *again = tlop_expr_print(ctx, e2, TLOP_FORMAT_TLOP);
      fprintf(stderr, "    again:   %s\n", again);
      free(again);
    } else {
      fprintf(stderr, "    reparse: %s\n", D.last_error);
    }
  }
  free(printed);
  /* the papers' notation prints too (it is not meant to parse back) */
  char *u = tlop_expr_print(ctx, e1, TLOP_FORMAT_UNICODE);
  ok &= u != NULL && u[0] != 0 && strchr(u, '?') == NULL;
  free(u);
  return ok;
}

static void test_round_trip(void) {
  /* First with no literal that carries a unit, then with sizes and times written with
   * their units (8 KiB, 1 us) among the leaves. */
  for (int units = 0; units <= 1; units++) {
    int generated = 0, bad_parse = 0, failed = 0, shown = 0;
    for (int iter = 0; iter < 400; iter++) {
      gen st = {0};
      st.units = units;
      gkind k = (gkind)rnd(3); /* count, size or time */
      g(&st, k, 1 + (int)rnd(5));
      char *text = sb_take(&st.b);
      int r = round_trip(text, shown < 3);
      generated++;
      if (r < 0) bad_parse++;
      if (r == 0) failed++;
      if (r <= 0) shown++;
      free(text);
    }
    CHECK(bad_parse == 0);
    CHECK(failed == 0);
    printf("ir: %d random expressions %s, %d failed the round trip, %d did not parse\n",
           generated, units ? "with unit literals" : "without unit literals", failed, bad_parse);
  }

  /* hand-picked shapes */
  static const char *fixed[] = {
      "stages { \"first\": L(m, 1); L(m, 2); \"third\": 2 ∥ L(m, 1); }",
      "stages { L(m, 1); } + stages { L(m, 2); }",
      "o(m) + stages { L(m, 1); }",
      "stages i = 1 .. P { L(m, i) }",
      "repeat P - 1 { P ∥ exch(m) }",
      "sum i = 1 .. 2 : sum i = 1 .. i : i ∥ L(m, i)",
      "(L(m, 1) ∥ L(m, 2)) ∥ (2 ∥ L(m, 3))",
      "2 ∥ (L(m, 1) ∥ L(m, 1))",
      "-(-P)",
      "- -P + --k",
      "2^-1 + (-2)^2 + -2^2",
      "P / -k",
      "1e-300 + 1.7976931348623157e308 + 0.1",
      "not (P < k) and (k <= 3 or not not (P == 8))",
      "if P < 4 then L(m, 1) else if P < 8 then L(m, 2) else L(m, 3)",
      "let a = m / 2 in let b = a / 2 in L(a, 1) + L(b, 1) + o(a)",
      "sum i = 1 .. P : stages { \"inner\": L(m, i); }",
      "stages i = 1 .. P { stages { \"a\": L(m, i); \"b\": o(m); } }",
      "gamma(sum, m, P) + gamma(max, m, 1)",
      "P % k + 7 % 2 * 3",
      "log(3, 27) + log2(P) + sqrt(P) + abs(0 - k)",
      /* literals with units inside arithmetic */
      "T(1 MiB / P)",
      "L(8 KiB * k, 1) + o(8 KiB / k)",
      "(m / 1 us) * 2 us",
      /* flows stages: their two bound names, starts given, left out, or a plain 0 */
      "flows under 1 alone Q * 1 s / 1 B { send 0 -> 1 : m; send 2 -> 1 : m at 1 us; }",
      "flows under (if entry == 3 then 0 else 3) alone o(Q) { for i = 0 .. P - 1 { send i -> i + 1 : m at 0; } }",
      "sum i = 0 .. 2 : flows under entry / 2 + k alone L(Q, 1) { for j = 0 .. 2^i - 1 { send j -> j + 2^i : m; } }",
      "let Q = 2 in flows under Q alone T(m) { if P > 2 { send 0 -> 1 : m; } else { send 1 -> 0 : 2 * m; } }",
  };
  for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) {
    int r = round_trip(fixed[i], 1);
    CHECK(r == 1);
  }
}

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  ctx = tlop_ctx_new();
  tlop_ctx_set_diag(ctx, unit_diag, &D);
  if (tlop_load_source(ctx, "ir.tlop", SOURCE, strlen(SOURCE), &model) != TLOP_OK ||
      tlop_platform_open(model, NULL, &pf) != TLOP_OK) {
    fprintf(stderr, "ir: cannot load the model: %s\n", D.last_error);
    return 1;
  }
  env = tlop_env_new(ctx);
  CHECK(tlop_env_set_text(env, "m", "1 MiB") == TLOP_OK);
  tlop_env_set(env, "P", 8, TLOP_KIND_COUNT);
  tlop_env_set(env, "k", 3, TLOP_KIND_COUNT);
  tlop_env_set(env, "tau", 2, TLOP_KIND_COUNT);
  CHECK(tlop_env_set_text(env, "x", "5") == TLOP_OK);
  test_hash_consing();
  test_apply();
  test_subst();
  test_print_exact();
  test_round_trip();
  tlop_platform_free(pf);
  tlop_env_free(env);
  tlop_ctx_free(ctx);
  return unit_report("ir");
}
