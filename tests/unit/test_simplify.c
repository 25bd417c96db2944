/* test_simplify.c — the symbolic engine. (1) Every symbolic transformation of the τ-Lop
 * papers that the catalog lists (τ-Lop 2015 eqs. 12–15, 17, 18, 21–24; contention paper
 * eqs. 1–4, U8, U9; CATALOG §8 TC01–TC06, TC13, TC17–TC21, TC28) as input → exact printed
 * form. (2) Properties on thousands of random expressions: simplified ≡ original on random
 * values and random monotone L tables (relative error ≤ 1e-12), simplify is idempotent,
 * and the .tlop form parses back to the same DAG node. */
#define _POSIX_C_SOURCE 200809L
#include "api/api.h"
#include "unit.h"

#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

static unit_diags D; /* unit.h's recorder: D.errors, D.last_error_text */

static const char model_src[] =
    "param S = 8 KiB;\n"
    "fn T(m: size) = o(m) + 2 * L(m, 1);\n"
    "platform t { channel shm { L(m, τ) = m * τ / 1 GB/s; o(m) = 1 us; } channel net { L(m, τ) = 3 * m * τ / 1 GB/s + 1 us; } }\n";

static tlop_ctx *ctx;
static tlop_model *model;

/* Simplifies `text` under `assume` (and unrolling when unroll is set), in unicode. */
static char *simplified(const char *text, const char *assume, int unroll, tlop_format f) {
  tlop_expr *e, *r;
  if (tlop_expr_parse_symbolic(model, text, &e) != TLOP_OK) {
    fprintf(stderr, "cannot parse %s: %s\n", text, D.last_error_text);
    return NULL;
  }
  tlop_simp_opts o = {assume, 0, unroll, NULL, NULL};
  if (tlop_simplify(e, &o, &r) != TLOP_OK)
    return NULL;
  return tlop_expr_print(ctx, r, f);
}

#define CHECK_SIMP(text, assume, unroll, expect)                                        \
  do {                                                                                  \
    char *got_ = simplified(text, assume, unroll, TLOP_FORMAT_UNICODE);                 \
    CHECK_STR(got_, expect);                                                            \
    free(got_);                                                                         \
  } while (0)

static void paper_equations(void) {
  /* TC01, the definition of ∥ (τ-Lop §3.3) */
  CHECK_SIMP("4 ∥ L(S, 2)", NULL, 0, "L(S, 8)");
  CHECK_SIMP("A ∥ L(m, t)", NULL, 0, "L(m, A·t)");
  /* TC02, eq. 12: distributive over +, past scalars, nesting, 1 ∥ X = X */
  CHECK_SIMP("A ∥ (L(m, t1) + L(m, t2))", NULL, 0, "L(m, A·t1) + L(m, A·t2)");
  CHECK_SIMP("A ∥ (c * L(m, t))", NULL, 0, "c·L(m, A·t)");
  CHECK_SIMP("A ∥ (B ∥ L(m, t))", NULL, 0, "L(m, A·B·t)");
  CHECK_SIMP("1 ∥ L(m, t)", NULL, 0, "L(m, t)");
  /* TC03, eq. 14: the segmented binomial broadcast, P symbolic, the sum kept */
  CHECK_SIMP("sum i = 0 .. ceil(log2(P)) - 1 : 2^i ∥ (2 * L(S, 1) + (k - 1) * L(S, 2))", NULL, 0,
             "Σ_{i=0}^{⌈log₂P⌉ − 1} (2L(S, 2^i) + (k − 1)·L(S, 2^(i + 1)))");
  /* TC04, eq. 15, symbolic and unrolled at P = 8 */
  CHECK_SIMP("sum i = 0 .. ceil(log2(P)) - 1 : 2^i ∥ 2 * L(m, 1)", NULL, 0,
             "2·Σ_{i=0}^{⌈log₂P⌉ − 1} L(m, 2^i)");
  CHECK_SIMP("sum i = 0 .. ceil(log2(8)) - 1 : 2^i ∥ 2 * L(m, 1)", NULL, 1,
             "2L(m, 1) + 2L(m, 2) + 2L(m, 4)");
  /* TC05, contention paper §3 and eq. 2: the overhead is not affected */
  CHECK_SIMP("A ∥ o(m)", NULL, 0, "o(m)");
  CHECK_SIMP("2^i ∥ (o(m) + 2 * L(m, 1))", NULL, 0, "o(m) + 2L(m, 2^i)");
  CHECK_SIMP("P ∥ (o(m) + 2 * k * L(S, 1))", NULL, 0, "o(m) + 2k·L(S, P)");
  /* TC06, Fig. 14: binary ∥ adds τ on one channel; channels do not merge */
  CHECK_SIMP("L(S, 2) ∥ L(S, 4) ∥ L(S, 1)", NULL, 0, "L(S, 7)");
  CHECK_SIMP("L[shm](m, 7) ∥ L[net](m, 1)", NULL, 0, "L[net](m, 1) ∥ L[shm](m, 7)");
  /* TC13, eq. 13 at P = 8 with T(m) = o(m) + 2L(m,1) */
  CHECK_SIMP("sum i = 0 .. ceil(log2(8)) - 1 : 2^i ∥ T(m)", NULL, 1,
             "3o(m) + 2L(m, 1) + 2L(m, 2) + 2L(m, 4)");
  /* P002 U3 under P = 2^p: the overhead sums to p stages */
  CHECK_SIMP("sum i = 0 .. ceil(log2(P)) - 1 : 2^i ∥ T(m)", "P = 2^p, p >= 1", 0,
             "p·o(m) + 2·Σ_{i=0}^{p − 1} L(m, 2^i)");
  /* The binomial's min(2^i, P − 2^i) is 2^i on a full tree (decided from i ≤ p − 1) */
  CHECK_SIMP("sum i = 0 .. ceil(log2(P)) - 1 : min(2^i, P - 2^i) ∥ T(m)", "P = 2^p, p >= 1", 0,
             "p·o(m) + 2·Σ_{i=0}^{p − 1} L(m, 2^i)");
  /* TC17, eq. 23 (k per block): the index shifted to j = i + 1, the constants pulled out */
  CHECK_SIMP("sum i = 0 .. log2(P) - 1 : 2^i ∥ ((P / 2^(i + 1)) * k * L(S, 2))",
             "P = 2^p, p >= 1", 0, "P·k·Σ_{i=1}^{p} L(S, 2^i)/2^i");
  CHECK_SIMP("sum i = 0 .. log2(8) - 1 : 2^i ∥ ((8 / 2^(i + 1)) * k * L(S, 2))", NULL, 1,
             "4k·L(S, 2) + 2k·L(S, 4) + k·L(S, 8)");
  /* TC18, eq. 24: Σ 2^(i+1) closes to 2P − 2 */
  CHECK_SIMP("sum i = 0 .. log2(P) - 1 : P ∥ (2^(i + 1) * k * L(S, 1))", "P = 2^p, p >= 1", 0,
             "2k·(P − 1)·L(S, P)");
  CHECK_SIMP("sum i = 0 .. log2(8) - 1 : 8 ∥ (2^(i + 1) * k * L(S, 1))", NULL, 0,
             "14k·L(S, 8)");
  /* TC19, contention paper eq. 3 / U8 (k total), U9, and eq. 4 at P = 8 */
  CHECK_SIMP("sum i = 0 .. log2(P) - 1 : P ∥ (2 * (2^i * m / S) * L(S, 1))",
             "P = 2^p, p >= 1, m = k*S/P", 0, "2k·(P − 1)/P·L(S, P)");
  CHECK_SIMP("sum j = 1 .. log2(P) : k / 2^j * L(S, P)", "P = 2^p, p >= 1", 0,
             "k·(P − 1)/P·L(S, P)");
  CHECK_SIMP("(sum i = 0 .. log2(P) - 1 : P ∥ (2 * (2^i * k / P) * L(S, 1))) - 2 * sum j = 1 .. log2(P) : k / 2^j * L(S, P)",
             "P = 2^p, p >= 1", 0, "0");
  CHECK_SIMP("sum j = 1 .. 3 : k / 2^j * L(S, 2^j)", NULL, 1,
             "k/2·L(S, 2) + k/4·L(S, 4) + k/8·L(S, 8)");
  /* contention paper eqs. 1 → 4: the iterative scatter, k = m/S the total segments */
  CHECK_SIMP("sum i = 0 .. log2(P) - 1 : 2^i ∥ ((m / 2^(i + 1)) / S * L(S, 2))", "m = k*S", 0,
             "k·Σ_{i=1}^{log₂P} L(S, 2^i)/2^i");
  /* TC20, eq. 21: the ring */
  CHECK_SIMP("(P - 1) * (P ∥ 2 * k * L(S, 1))", NULL, 0, "2k·(P − 1)·L(S, P)");
  CHECK_SIMP("(8 - 1) * (8 ∥ 2 * k * L(S, 1))", NULL, 0, "14k·L(S, 8)");
  /* TC21: RDA (24) and Ring (21) are the same cost for P = 2^p */
  CHECK_SIMP("(sum i = 0 .. log2(P) - 1 : P ∥ (2^(i + 1) * k * L(S, 1))) - (P - 1) * (P ∥ 2 * k * L(S, 1))",
             "P = 2^p, p >= 1", 0, "0");
  /* TC28: MPICH's medium broadcast at P = 8, k per block: scatter (23) + RDA (24) */
  CHECK_SIMP("(sum i = 0 .. 2 : 2^i ∥ ((8 / 2^(i + 1)) * k * L(S, 2))) + "
             "(sum i = 0 .. 2 : 8 ∥ (2^(i + 1) * k * L(S, 1)))", NULL, 1,
             "4k·L(S, 2) + 2k·L(S, 4) + 15k·L(S, 8)");
  /* closed forms of scalar sums: geometric, arithmetic, constant; empty sums */
  CHECK_SIMP("sum i = 0 .. n - 1 : 2^i", "n >= 0, integer(n)", 0, "2^n − 1");
  CHECK_SIMP("sum i = 1 .. n : i", "n >= 0, integer(n)", 0, "n·(n + 1)/2");
  CHECK_SIMP("sum i = 3 .. 2 : L(m, i)", NULL, 0, "0");
  /* without a bound on n the sum may be empty or fractional: it stays a sum */
  CHECK_SIMP("sum i = 0 .. n - 1 : 2^i", NULL, 0, "Σ_{i=0}^{n − 1} 2^i");
  /* assumptions: log2 of a power of two, m/S, ceil of an integer */
  CHECK_SIMP("log2(P) + ceil(log2(P)) + m / S", "P = 2^p, m = k*S", 0, "k + 2p");
  /* canonical: equal costs written differently are one node */
  static const char *same[][2] = {
      {"(sum i = 0 .. n : L(m, 2^i)) + (sum j = 0 .. n : 3 * o(m * 2^j))",
       "sum i = 0 .. n : (3 * o(m * 2^i) + L(m, 2^i))"},
      {"2 ∥ (L(S, 1) + L(S, 1))", "2 * L(S, 2)"},
      {"sum i = 1 .. n : k * L(S, 2^i)", "k * sum j = 0 .. n - 1 : L(S, 2^(j + 1))"},
      {"(P - 1) * 2 * k / P", "2 * k - 2 * k / P"},
      {"L(S, 2) ∥ L(S, 4) ∥ L(S, 1)", "7 ∥ L(S, 1)"}};
  for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
    tlop_expr *x, *y, *rx, *ry;
    tlop_simp_opts o = {NULL, 0, 0, NULL, NULL};
    CHECK(tlop_expr_parse_symbolic(model, same[i][0], &x) == TLOP_OK &&
          tlop_expr_parse_symbolic(model, same[i][1], &y) == TLOP_OK &&
          tlop_simplify(x, &o, &rx) == TLOP_OK && tlop_simplify(y, &o, &ry) == TLOP_OK &&
          rx->node == ry->node);
  }
  /* TC40: eq. 7 of the contention paper when the network transfer dominates */
  CHECK_SIMP("(P - 1) * (L[shm](m, Q) + max(L[shm](m, Q - 1), L[net](m, 1)) + L[shm](m, 1))",
             "L[net](m, 1) >= L[shm](m, Q - 1)", 0,
             "(P − 1)·L[net](m, 1) + (P − 1)·L[shm](m, Q) + (P − 1)·L[shm](m, 1)");
  /* LaTeX of eq. 14 */
  char *tex = simplified("sum i = 0 .. ceil(log2(P)) - 1 : 2^i ∥ (2 * L(S, 1) + (k - 1) * L(S, 2))",
                         NULL, 0, TLOP_FORMAT_LATEX);
  CHECK_STR(tex, "\\sum_{i=0}^{\\lceil \\log_2 P \\rceil - 1} \\left(2L(S, 2^{i}) + \\left(k - "
                 "1\\right) \\cdot L(S, 2^{i + 1})\\right)");
  free(tex);
}

/* ---- random expressions ---- */

static uint64_t rng = 0x9e3779b97f4a7c15u;
static unsigned rnd(unsigned n) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (unsigned)(rng % n);
}
static double rnd01(void) { return (double)rnd(1u << 30) / (double)(1u << 30); }

typedef struct { char *s; size_t n, cap; } buf;
static void out(buf *b, const char *s) {
  size_t k = strlen(s);
  if (b->n + k + 1 > b->cap) {
    b->cap = 2 * (b->n + k + 1);
    b->s = realloc(b->s, b->cap);
  }
  memcpy(b->s + b->n, s, k + 1);
  b->n += k;
}

/* A positive count over a, b, c, the index i (when in a sum) and P = 2^p. */
static void gen_count(buf *b, int depth, int in_sum) {
  switch (depth <= 0 ? rnd(4) : rnd(12)) {
  case 0: out(b, (const char *[]){"1", "2", "3", "4", "0.5"}[rnd(5)]); return;
  case 1: out(b, (const char *[]){"a", "b", "c", "P"}[rnd(4)]); return;
  case 2: out(b, in_sum ? "2^i" : "2^p"); return;
  case 3: out(b, in_sum ? "(i + 1)" : "(a + 1)"); return;
  case 4: case 5: out(b, "("); gen_count(b, depth - 1, in_sum); out(b, " + "); gen_count(b, depth - 1, in_sum); out(b, ")"); return;
  case 6: case 7: out(b, "("); gen_count(b, depth - 1, in_sum); out(b, " * "); gen_count(b, depth - 1, in_sum); out(b, ")"); return;
  case 8: out(b, "("); gen_count(b, depth - 1, in_sum); out(b, " / "); gen_count(b, depth - 1, in_sum); out(b, ")"); return;
  case 9: out(b, "max("); gen_count(b, depth - 1, in_sum); out(b, ", "); gen_count(b, depth - 1, in_sum); out(b, ")"); return;
  case 10: out(b, "min("); gen_count(b, depth - 1, in_sum); out(b, ", "); gen_count(b, depth - 1, in_sum); out(b, ")"); return;
  default: out(b, "ceil(log2("); gen_count(b, depth - 1, in_sum); out(b, " + 1))"); return;
  }
}

/* A cost: transfers, overheads, ∥, scalar multiples, sums with concrete or symbolic bounds. */
static void gen_cost(buf *b, int depth, int in_sum) {
  switch (depth <= 0 ? rnd(3) : rnd(11)) {
  case 0:
    out(b, rnd(4) ? "L(" : "L[net](");
    out(b, (const char *[]){"m", "S", "m / 2", "(m + 100)", "m * 2^i"}[rnd(in_sum ? 5 : 4)]);
    out(b, ", ");
    gen_count(b, 1, in_sum);
    out(b, " + 1)");
    return;
  case 1: out(b, "o(m)"); return;
  case 2: out(b, "L(S, 2)"); return;
  case 3: case 4: out(b, "("); gen_cost(b, depth - 1, in_sum); out(b, " + "); gen_cost(b, depth - 1, in_sum); out(b, ")"); return;
  case 5: out(b, "("); gen_count(b, depth - 1, in_sum); out(b, " * "); gen_cost(b, depth - 1, in_sum); out(b, ")"); return;
  case 6: case 7: out(b, "("); gen_count(b, depth - 1, in_sum); out(b, rnd(4) ? " ∥ " : " ∥[net] "); gen_cost(b, depth - 1, in_sum); out(b, ")"); return;
  case 8: out(b, "max("); gen_cost(b, depth - 1, in_sum); out(b, ", "); gen_cost(b, depth - 1, in_sum); out(b, ")"); return;
  default:
    if (in_sum) {
      gen_cost(b, depth - 1, in_sum);
      return;
    }
    out(b, rnd(3) ? "(sum i = " : "(max i = "); /* a maximum over the range too */
    out(b, (const char *[]){"0 .. p - 1 : ", "0 .. 3 : ", "1 .. c : ", "0 .. log2(P) - 1 : "}[rnd(4)]);
    gen_cost(b, depth - 1, 1);
    out(b, ")");
    return;
  }
}

/* A random table with L non-decreasing in m and τ: a random positive increment per cell. */
static char *random_table(void) {
  static char path[] = "/tmp/tlop_simp_XXXXXX";
  strcpy(path, "/tmp/tlop_simp_XXXXXX");
  int fd = mkstemp(path);
  FILE *f = fdopen(fd, "w");
  int rows = 6 + (int)rnd(5), taus = 3 + (int)rnd(6);
  fprintf(f, "#m %d\n#tau %d\n#m o", rows, taus);
  for (int t = 1; t <= taus; t++)
    fprintf(f, " L%d", t);
  fprintf(f, "\n");
  double m = 1, base = 1e-7;
  double *col = calloc((size_t)taus, sizeof *col);
  for (int r = 0; r < rows; r++) {
    base += rnd01() * 1e-6;
    fprintf(f, "%.17g %.17g", m, 2e-7 + rnd01() * 1e-7);
    double v = base;
    for (int t = 0; t < taus; t++) {
      v += rnd01() * 1e-6;
      col[t] = v > col[t] ? v : col[t] + 1e-9;
      fprintf(f, " %.17g", col[t]);
    }
    fprintf(f, "\n");
    m *= 2 + rnd(8);
  }
  free(col);
  fclose(f);
  return path;
}

static bool eval_text(tlop_expr *e, tlop_platform *pf, tlop_env *env, double *v) {
  return tlop_eval(e, pf, env, v) == TLOP_OK;
}

static void properties(int cases) {
  int equal = 0, skipped = 0;
  tlop_platform *pf = NULL;
  for (int n = 0; n < cases; n++) {
    if (n % 200 == 0) {
      tlop_platform_free(pf);
      tlop_platform_open(model, "t", &pf);
      char *path = random_table();
      tlop_platform_bind_table(pf, NULL, path);
      unlink(path);
    }
    buf b = {0};
    gen_cost(&b, 3 + (int)rnd(3), 0);
    int p = 1 + (int)rnd(6);
    const char *assume = rnd(2) ? "P = 2^p, p >= 1, c >= 1, integer(c)" : NULL;
    tlop_expr *e, *r, *r2, *back;
    if (tlop_expr_parse_symbolic(model, b.s, &e) != TLOP_OK) {
      fprintf(stderr, "generator produced %s: %s\n", b.s, D.last_error_text);
      unit_failures++;
      free(b.s);
      continue;
    }
    tlop_simp_opts o = {assume, (int)rnd(2), 0, pf, NULL};
    CHECK(tlop_simplify(e, &o, &r) == TLOP_OK);
    /* idempotent: the normal form is a fixed point */
    CHECK(tlop_simplify(r, &o, &r2) == TLOP_OK);
    if (r2->node != r->node && !o.expand) {
      char *x = tlop_expr_print(ctx, r, TLOP_FORMAT_UNICODE), *y = tlop_expr_print(ctx, r2, TLOP_FORMAT_UNICODE);
      fprintf(stderr, "not idempotent: %s\n  once:  %s\n  twice: %s\n", b.s, x, y);
      unit_failures++;
      free(x), free(y);
    }
    /* print → parse gives the same DAG node, in each of the three formats */
    static const tlop_format formats[] = {TLOP_FORMAT_TLOP, TLOP_FORMAT_UNICODE, TLOP_FORMAT_LATEX};
    for (int f = 0; f < 3; f++) {
      char *src = tlop_expr_print(ctx, r, formats[f]);
      bool same = tlop_expr_parse_format(model, src, formats[f], &back) == TLOP_OK && back->node == r->node;
      if (!same) {
        char *again = back ? tlop_expr_print(ctx, back, formats[f]) : NULL;
        fprintf(stderr, "round trip (format %d): %s\n  printed: %s\n  read:    %s %s\n", f, b.s,
                src, again ? again : "(error)", again ? "" : D.last_error_text);
        free(again);
        unit_failures++;
      }
      unit_checks++;
      back = NULL;
      free(src);
    }
    /* the same value on a valuation that satisfies the assumptions */
    tlop_env *env = tlop_env_new(ctx);
    tlop_env_set(env, "a", 1 + rnd01() * 7, TLOP_KIND_NUMBER);
    tlop_env_set(env, "b", 1 + rnd01() * 7, TLOP_KIND_NUMBER);
    tlop_env_set(env, "c", 1 + rnd(5), TLOP_KIND_NUMBER);
    tlop_env_set(env, "p", p, TLOP_KIND_NUMBER);
    tlop_env_set(env, "P", assume ? (double)(1 << p) : 1 + rnd01() * 100, TLOP_KIND_NUMBER);
    tlop_env_set(env, "m", 1 + rnd(1 << 20), TLOP_KIND_SIZE);
    double v1, v2;
    int before = D.errors;
    bool ok1 = eval_text(e, pf, env, &v1), ok2 = eval_text(r, pf, env, &v2);
    if (!ok1 || !ok2) {
      /* both fail (e.g. a sum too large) or it is a bug */
      CHECK(ok1 == ok2);
      skipped++;
      D.errors = before;
    } else {
      double err = fabs(v1 - v2) / fmax(fmax(fabs(v1), fabs(v2)), 1e-300);
      if (err > 1e-12) {
        char *x = tlop_expr_print(ctx, r, TLOP_FORMAT_UNICODE);
        fprintf(stderr, "differs (%g vs %g, rel %g): %s\n  assume %s\n  simplified %s\n", v1, v2,
                err, b.s, assume ? assume : "-", x);
        free(x);
        unit_failures++;
      } else {
        equal++;
      }
      unit_checks++;
    }
    tlop_env_free(env);
    free(b.s);
  }
  tlop_platform_free(pf);
  printf("simplify: %d random expressions equal after simplification, %d not evaluable\n", equal,
         skipped);
  CHECK(equal > cases * 9 / 10);
}

/* A let of a long value used more than once stays a let (simp_let_blowup): printed once,
 * named at its uses; the same value as the original; simplifying its .tlop print again
 * gives it back. A short value, or one used once, is inlined as before. */
static void kept_lets(void) {
  CHECK_SIMP("let q = P - 1 in q * L(m, q) + q * o(m)", NULL, 0, "(P − 1)·o(m) + (P − 1)·L(m, P − 1)");
  const char *text = "let i = (P + k + 1.5 + 1 / P)^3 in i * L(m, 1) / max(k^4, i) + i^2 * o(m) / max(P^4, i)";
  char *once = simplified(text, "P >= 1, k >= 1", 0, TLOP_FORMAT_TLOP);
  CHECK(once && strncmp(once, "let i = ", 8) == 0);
  CHECK(once && strlen(once) < 600);
  char *twice = once ? simplified(once, "P >= 1, k >= 1", 0, TLOP_FORMAT_TLOP) : NULL;
  CHECK_STR(twice, once ? once : "");
  /* its unicode and LaTeX prints (let … in, \mathrm{let} … \mathrm{in}) read back too */
  static const tlop_format shown[] = {TLOP_FORMAT_UNICODE, TLOP_FORMAT_LATEX};
  for (int f = 0; f < 2; f++) {
    char *print = simplified(text, "P >= 1, k >= 1", 0, shown[f]);
    tlop_expr *back = NULL, *again = NULL;
    tlop_simp_opts o = {"P >= 1, k >= 1", 0, 0, NULL, NULL};
    CHECK(print && tlop_expr_parse_format(model, print, shown[f], &back) == TLOP_OK &&
          tlop_simplify(back, &o, &again) == TLOP_OK);
    char *read = again ? tlop_expr_print(ctx, again, TLOP_FORMAT_TLOP) : NULL;
    if (!read)
      fprintf(stderr, "format %d does not read back: %s\n  %s\n", (int)shown[f], D.last_error_text,
              print ? print : "");
    CHECK_STR(read, once ? once : "");
    free(read);
    free(print);
  }
  /* the same value where the let is kept and where it is inlined */
  tlop_platform *pf = NULL;
  tlop_env *env = tlop_env_new(ctx);
  tlop_env_set(env, "m", 4096, TLOP_KIND_SIZE);
  tlop_env_set(env, "P", 7, TLOP_KIND_COUNT);
  tlop_env_set(env, "k", 3, TLOP_KIND_COUNT);
  tlop_expr *a = NULL, *b = NULL;
  double va = 0, vb = 1;
  CHECK(tlop_platform_open(model, "t", &pf) == TLOP_OK);
  CHECK(tlop_expr_parse(model, text, env, &a) == TLOP_OK && once &&
        tlop_expr_parse(model, once, env, &b) == TLOP_OK);
  CHECK(a && b && tlop_eval(a, pf, env, &va) == TLOP_OK && tlop_eval(b, pf, env, &vb) == TLOP_OK);
  CHECK(fabs(va - vb) <= 1e-12 * fabs(va));
  tlop_platform_free(pf);
  tlop_env_free(env);
  free(once);
  free(twice);
}

int main(int argc, char **argv) {
  (void)argc, (void)argv;
  ctx = tlop_ctx_new();
  tlop_ctx_set_diag(ctx, unit_diag, &D);
  if (tlop_load_source(ctx, "simp.tlop", model_src, strlen(model_src), &model) != TLOP_OK) {
    fprintf(stderr, "model: %s\n", D.last_error_text);
    return 1;
  }
  paper_equations();
  kept_lets();
  const char *n = getenv("TLOP_PROPERTY_CASES");
  properties(n ? atoi(n) : 10000);
  tlop_ctx_free(ctx);
  return unit_report("simplify");
}
