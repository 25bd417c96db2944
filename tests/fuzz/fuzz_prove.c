/* fuzz_prove.c — libFuzzer target: the prover's soundness. The input's bytes choose a claim
 * (the stdlib's algorithms, transfers, overheads, γ, p, the operators +, ·, max, min, if,
 * ∥, Σ, ⌈⌉, facts) and the optional axioms switched on (`axiom NAME;`, `claim strict`);
 * the public API decides it. Every `proved` is then evaluated by the reference evaluator
 * (tlop_eval) at points where its facts hold, under platforms whose L, o, p and γ are
 * random members of the active axiom set, one draw per channel: a point where the claim
 * fails is a finding (an axiom the prover used and does not have, or a wrong step).
 *
 * Besides: no crash, no sanitizer report, no leak, no hang; a call that fails reported an
 * error. FUZZ_PROVE_MAIN builds a program that prints the claim and platforms an input
 * stands for (fuzz_prove_show). */
#include "fuzz_common.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <time.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#define NPLATFORMS 3 /* random platforms per proved claim */
#define NPOINTS 10   /* random points per platform */

/* The figures of a run (the sweep prints them). */
static struct {
  size_t inputs, loaded, proved, refuted, unknown, points;
} fuzz_prove_counts;

/* ---- the input as a stream of choices ---- */

typedef struct bytes {
  const uint8_t *p;
  size_t n;
} bytes;

static unsigned pick(bytes *b, unsigned n) { /* 0 … n − 1; 0 once the input is spent */
  if (!b->n || n <= 1)
    return 0;
  unsigned v = *b->p++;
  b->n--;
  return v % n;
}

typedef struct text {
  char s[8192];
  size_t n;
  int overflow;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(t->s + t->n, sizeof t->s - t->n, fmt, ap);
  va_end(ap);
  if (k < 0 || (size_t)k >= sizeof t->s - t->n)
    t->overflow = 1, t->s[t->n] = 0;
  else
    t->n += (size_t)k;
}

/* ---- the claim ---- */

static const char *const ALGORITHMS[] = {
    "bcast_binomial", "bcast_binomial_mpich", "scatter_binomial", "allgather_rda",
    "allgather_ring", "bcast_binomial_iter", "scatter_binomial_iter", "allgather_rda_iter",
    "allgather_ring_iter", "bcast_scatter_rda", "bcast_scatter_ring",
};
#define NALG (sizeof ALGORITHMS / sizeof *ALGORITHMS)

/* A message size; in_sum: the index i may appear. */
static void size_of(bytes *b, text *t, int in_sum) {
  static const char *const plain[] = {"m", "m / 2", "2 * m", "m / P", "m * P", "1 B", "m + 1 B", "k * m"};
  static const char *const indexed[] = {"m / 2^i", "m * 2^i", "i * m", "m / (i + 1)"};
  unsigned n = sizeof plain / sizeof *plain;
  unsigned c = pick(b, n + (in_sum ? 4 : 0));
  put(t, "%s", c < n ? plain[c] : indexed[c - n]);
}

/* A τ ≥ 1 where the facts make it so (P ≥ 1 is not assumed: L(m, P) at P = 0 fails to
 * evaluate, which skips the point). */
static void tau_of(bytes *b, text *t, int in_sum) {
  static const char *const plain[] = {"1", "2", "3", "P", "P - 1", "P / 2", "k", "ceil(P / 2)", "2 * P"};
  static const char *const indexed[] = {"i", "2^i", "P - i", "i * k"};
  unsigned n = sizeof plain / sizeof *plain;
  unsigned c = pick(b, n + (in_sum ? 4 : 0));
  put(t, "%s", c < n ? plain[c] : indexed[c - n]);
}

static void count_of(bytes *b, text *t) {
  static const char *const c[] = {"P", "3", "k", "P - 1", "2"};
  put(t, "%s", c[pick(b, 5)]);
}

static void scalar_of(bytes *b, text *t) {
  static const char *const c[] = {"2", "1/2", "3", "P", "k", "(P - 1)", "ceil(P / 3)", "floor(k / 2)"};
  put(t, "%s", c[pick(b, 8)]);
}

static void cost(bytes *b, text *t, int depth, int in_sum) {
  unsigned c = pick(b, depth >= 3 ? 7 : 16);
  switch (c) {
  case 0: put(t, "%s(", ALGORITHMS[pick(b, NALG)]); size_of(b, t, in_sum); put(t, ", P)"); break;
  case 1: put(t, "L("); size_of(b, t, in_sum); put(t, ", "); tau_of(b, t, in_sum); put(t, ")"); break;
  case 2: put(t, "L[net]("); size_of(b, t, in_sum); put(t, ", "); tau_of(b, t, in_sum); put(t, ")"); break;
  case 3: put(t, "o("); size_of(b, t, in_sum); put(t, ")"); break;
  case 4: put(t, "p("); size_of(b, t, in_sum); put(t, ")"); break;
  case 5: put(t, "gamma(sum, "); size_of(b, t, in_sum); put(t, ", "); tau_of(b, t, in_sum); put(t, ")"); break;
  case 6: put(t, "%s", pick(b, 2) ? "1 s" : "0 s"); break;
  case 7: case 8: put(t, "("); cost(b, t, depth + 1, in_sum); put(t, " + "); cost(b, t, depth + 1, in_sum); put(t, ")"); break;
  case 9: put(t, "("); scalar_of(b, t); put(t, " * "); cost(b, t, depth + 1, in_sum); put(t, ")"); break;
  case 10: put(t, "%s(", pick(b, 2) ? "max" : "min"); cost(b, t, depth + 1, in_sum); put(t, ", "); cost(b, t, depth + 1, in_sum); put(t, ")"); break;
  case 11: put(t, "("); count_of(b, t); put(t, " ∥ "); cost(b, t, depth + 1, in_sum); put(t, ")"); break;
  case 12:
    if (in_sum) { /* one index: nested sums would shadow it */
      cost(b, t, depth + 1, in_sum);
      break;
    }
    put(t, "(sum i = %s .. ", pick(b, 2) ? "0" : "1");
    count_of(b, t);
    put(t, " : ");
    cost(b, t, depth + 1, 1);
    put(t, ")");
    break;
  case 13: put(t, "(if P >= 4 then "); cost(b, t, depth + 1, in_sum); put(t, " else "); cost(b, t, depth + 1, in_sum); put(t, ")"); break;
  case 14: put(t, "(L%s(", pick(b, 2) ? "[shm]" : ""); size_of(b, t, in_sum); put(t, ", "); tau_of(b, t, in_sum); put(t, ") ∥ L[net]("); size_of(b, t, in_sum); put(t, ", "); tau_of(b, t, in_sum); put(t, "))"); break;
  default: put(t, "(ceil(m / 3 B) * "); cost(b, t, depth + 1, in_sum); put(t, ")"); break;
  }
}

/* The facts of a claim and a sampler of points where they hold. */
enum { FACTS_NONE, FACTS_POW2, FACTS_P2, FACTS_M1, FACTS_K, NFACTS };
static const char *const FACTS[NFACTS] = {
    "", " when P = 2^q, q >= 1", " when P >= 2", " when m >= 1 B", " when k >= 1, k = floor(k)"};

/* The optional axioms, by bit. */
static const char *const OPTIONAL[] = {"o-monotone", "p-monotone", "gamma-monotone", "gamma-sublinear",
                                       "L-subadditive"};
enum { O_MONO = 1, P_MONO = 2, G_MONO = 4, G_SUB = 8, L_SUBADD = 16 };
#define NOPTIONAL 5

typedef struct claim {
  text src;     /* the model: imports, axioms, platforms, the claim */
  text lhs, rhs;
  const char *rel;
  int facts, strict;
  unsigned axioms;
} claim;

/* ---- random members of the axiom set ---- */

typedef struct rng {
  uint64_t s;
} rng;

static double uniform(rng *r) { /* [0, 1) */
  r->s = r->s * 6364136223846793005u + 1442695040888963407u;
  return (double)(r->s >> 11) / 9007199254740992.0;
}

/* L(m, τ) in seconds over x = m / 1 B: a + b·x^q + c·(1 + x^q)·g(τ), g(τ) = τ^e (e ≤ 1),
 * min(τ, K) or max(1, τ/K) — ≥ 0, non-decreasing in m and τ, sub-linear in τ; strictly
 * increasing with c > 0 and g = τ^e, e > 0; q ≤ 1 (sub-additive in m) under L-subadditive,
 * else up to 2, or a step in m. */
static void random_L(rng *r, text *t, unsigned axioms, int strict) {
  double a = uniform(r), bb = uniform(r), c = strict ? 0.1 + uniform(r) : uniform(r) < 0.2 ? 0 : uniform(r);
  double q = (axioms & L_SUBADD) ? uniform(r) : 2 * uniform(r);
  int g = strict ? 0 : (int)(uniform(r) * 3);
  char tau[96];
  if (g == 0)
    snprintf(tau, sizeof tau, "τ^%.3f", strict ? 0.1 + 0.9 * uniform(r) : uniform(r));
  else if (g == 1)
    snprintf(tau, sizeof tau, "min(τ, %d)", 1 + (int)(uniform(r) * 6));
  else
    snprintf(tau, sizeof tau, "max(1, τ / %d)", 1 + (int)(uniform(r) * 6));
  if (!(axioms & L_SUBADD) && uniform(r) < 0.25) /* a step in m */
    put(t, "(if m >= %d B then %.3f else 0) * 1 s + ", 1 + (int)(uniform(r) * 8), 1 + uniform(r));
  put(t, "(%.3f + %.3f * (m / 1 B)^%.3f + %.3f * (1 + (m / 1 B)^%.3f) * %s) * 1 s", a, bb, q, c, q, tau);
}

/* o(m) or p(m) ≥ 0: a + b·x^q; falling (a + b/(1 + x)) or stepped down without its
 * monotone axiom. */
static void random_op(rng *r, text *t, int monotone) {
  double a = uniform(r), bb = uniform(r);
  int shape = monotone ? 0 : (int)(uniform(r) * 3);
  if (shape == 0)
    put(t, "(%.3f + %.3f * (m / 1 B)^%.3f) * 1 s", a, bb, uniform(r));
  else if (shape == 1)
    put(t, "(%.3f + %.3f / (1 + m / 1 B)) * 1 s", a, bb);
  else
    put(t, "(if m < %d B then %.3f else %.3f) * 1 s", 1 + (int)(uniform(r) * 8), a + bb, a);
}

/* γ(m, τ) ≥ 0: (a + b·x)·τ^e with e in [0, 1] under both γ axioms; e < 0 (falling) without
 * gamma-monotone, e up to 2 without gamma-sublinear. */
static void random_gamma(rng *r, text *t, unsigned axioms) {
  double lo = (axioms & G_MONO) ? 0 : -1, hi = (axioms & G_SUB) ? 1 : 2;
  double e = lo + (hi - lo) * uniform(r);
  put(t, "(%.3f + %.3f * m / 1 B) * max(1, τ)^%.3f * 1 s", uniform(r), uniform(r), e);
}

static void platforms(rng *r, text *t, unsigned axioms, int strict) {
  for (int k = 0; k < NPLATFORMS; k++) {
    put(t, "platform rnd%d {\n", k);
    static const char *const ch[] = {"shm", "net"};
    for (int c = 0; c < 2; c++) { /* each channel its own draw */
      put(t, "  channel %s { L(m, τ) = ", ch[c]);
      random_L(r, t, axioms, strict);
      put(t, "; o(m) = ");
      random_op(r, t, axioms & O_MONO);
      put(t, "; p(m) = ");
      random_op(r, t, axioms & P_MONO);
      put(t, "; }\n");
    }
    put(t, "  gamma(m, τ) = ");
    random_gamma(r, t, axioms);
    put(t, ";\n}\n");
  }
}

static void build(const uint8_t *data, size_t size, claim *c, rng *r) {
  memset(c, 0, sizeof *c);
  bytes b = {data, size};
  c->axioms = pick(&b, 1u << NOPTIONAL);
  c->strict = pick(&b, 4) == 0;
  c->facts = (int)pick(&b, NFACTS);
  static const char *const rels[] = {">=", "<=", ">", "<", "="};
  c->rel = rels[pick(&b, 5)];
  /* shapes that are often true, so that many claims are proved and checked: A + B vs A,
   * 2A vs A, A vs A with its sizes halved or τ doubled; else two random sides */
  text a = {0};
  cost(&b, &a, 0, 0);
  unsigned shape = pick(&b, 6);
  put(&c->lhs, "%s", a.s);
  if (shape == 0) {
    put(&c->lhs, " + ");
    cost(&b, &c->lhs, 1, 0);
    put(&c->rhs, "%s", a.s);
  } else if (shape == 1) {
    put(&c->rhs, "%s * (%s)", pick(&b, 2) ? "2" : "1/2", a.s);
  } else if (shape == 2 || shape == 3) { /* the same with each m (or each P) replaced */
    const char *from = shape == 2 ? "m" : "P", *to = shape == 2 ? "(m / 2)" : "(2 * P)";
    for (const char *q = a.s; *q; q++) {
      int word = *q == from[0] && (q == a.s || !(isalnum((unsigned char)q[-1]) || q[-1] == '_')) &&
                 !(isalnum((unsigned char)q[1]) || q[1] == '_' || q[1] == '(' || q[1] == '[');
      if (word)
        put(&c->rhs, "%s", to);
      else
        put(&c->rhs, "%c", *q);
    }
  } else if (shape == 4) { /* a side of no cost: a bound by a constant */
    put(&c->rhs, "%s", pick(&b, 2) ? "0 s" : "1 s");
  } else {
    cost(&b, &c->rhs, 0, 0);
  }
  uint64_t h = 1469598103934665603u; /* the points and platforms follow from the input */
  for (size_t i = 0; i < size; i++)
    h = (h ^ data[i]) * 1099511628211u;
  r->s = h;
  text *s = &c->src;
  put(s, "import \"mpich/bcast\";\n");
  for (int i = 0; i < NOPTIONAL; i++)
    if (c->axioms & (1u << i))
      put(s, "axiom %s;\n", OPTIONAL[i]);
  platforms(r, s, c->axioms, c->strict);
  /* the variables get their kinds from a call, whichever of them the sides leave out:
   * m a size, P and k whole counts, as the points give them */
  put(s, "algorithm _uses(m: size, P: count, k: count) = 0 s;\n");
  put(s, "claim %s%s + _uses(m, P, k) %s %s%s;\n", c->strict ? "strict " : "", c->lhs.s, c->rel, c->rhs.s,
      FACTS[c->facts]);
}

/* ---- the check ---- */

/* A point where the claim's facts hold: m, P, k, q. */
static void point(rng *r, int facts, double *m, double *P, double *k, double *q) {
  static const double sizes[] = {0, 1, 2, 3, 4, 5, 7, 8, 16, 100, 1024, 65536};
  *m = uniform(r) < 0.7 ? sizes[(int)(uniform(r) * 12)] : floor(uniform(r) * 5000) / 4;
  *P = (double)(int)(uniform(r) * 40);
  *k = (double)(int)(uniform(r) * 10);
  *q = 1 + (double)(int)(uniform(r) * 6);
  switch (facts) {
  case FACTS_POW2: *P = pow(2, *q); break;
  case FACTS_P2: *P = fmax(*P, 2); break;
  case FACTS_M1: *m = fmax(*m, 1); break;
  case FACTS_K: *k = fmax(*k, 1); break;
  default: break;
  }
}

static int holds(const char *rel, double l, double r) {
  double tol = 1e-9 * fmax(1, fmax(fabs(l), fabs(r)));
  if (!strcmp(rel, ">="))
    return l >= r - tol;
  if (!strcmp(rel, "<="))
    return l <= r + tol;
  if (!strcmp(rel, ">")) /* strictness within rounding is not checked, only the order */
    return l >= r - tol;
  if (!strcmp(rel, "<"))
    return l <= r + tol;
  return fabs(l - r) <= tol;
}

static int side(tlop_model *model, const tlop_platform *pf, const char *expr, double m, double P,
                double k, double q, double *out) {
  char buf[9000];
  int n = snprintf(buf, sizeof buf, "let m = %.17g B in let P = %.17g in let k = %.17g in let q = %.17g in (%s)",
                   m, P, k, q, expr);
  if (n < 0 || (size_t)n >= sizeof buf)
    return 0;
  tlop_expr *e = NULL;
  if (tlop_expr_parse(model, buf, NULL, &e) != TLOP_OK)
    return 0;
  int ok = tlop_eval(e, pf, NULL, out) == TLOP_OK && isfinite(*out);
  return ok;
}

static void check_proved(tlop_model *model, const claim *c, rng *r, fuzz_diags *db) {
  for (int k = 0; k < NPLATFORMS; k++) {
    char name[16];
    snprintf(name, sizeof name, "rnd%d", k);
    tlop_platform *pf = NULL;
    if (tlop_platform_open(model, name, &pf) != TLOP_OK)
      continue;
    for (int i = 0; i < NPOINTS; i++) {
      double m, P, kk, q, l, rr;
      point(r, c->facts, &m, &P, &kk, &q);
      if (!side(model, pf, c->lhs.s, m, P, kk, q, &l) || !side(model, pf, c->rhs.s, m, P, kk, q, &rr))
        continue; /* not defined here (τ < 1, a division by 0): no value to compare */
      fuzz_prove_counts.points++;
      FUZZ_CHECK(holds(c->rel, l, rr), db,
                 "proved, but false on %s at m = %g B, P = %g, k = %g, q = %g: left = %.17g, right = %.17g\n"
                 "--- the model ---\n%s",
                 name, m, P, kk, q, l, rr, c->src.s);
    }
    tlop_platform_free(pf);
  }
}

static void run(const uint8_t *data, size_t size, int show) {
  static claim c;
  rng r;
  build(data, size, &c, &r);
  if (c.src.overflow || c.lhs.overflow || c.rhs.overflow)
    return;
  if (show) {
    fputs(c.src.s, stdout);
    return;
  }
  static fuzz_diags db;
  db.len = 0;
  db.errors = db.warnings = db.notes = 0;
  tlop_ctx *ctx = tlop_ctx_new();
  tlop_ctx_set_diag(ctx, fuzz_diag_fn, &db);
  tlop_ctx_set_max_terms(ctx, 1e5);
  tlop_model *model = NULL;
  tlop_status st = tlop_load_source(ctx, "claim.tlop", c.src.s, c.src.n, &model);
  fuzz_prove_counts.inputs++;
  fuzz_prove_counts.loaded += st == TLOP_OK;
  FUZZ_CHECK(st == TLOP_OK || db.errors > 0, &db, "tlop_load_source failed without an error");
  if (st == TLOP_OK && tlop_model_claims(model) == 1) {
    tlop_prove_opts o = {.timeout = 0.25}; /* a hard claim is unknown, not slow */
    tlop_proof *p = NULL;
    int before = db.errors;
    st = tlop_prove_claim(model, 0, &o, &p);
    FUZZ_CHECK(st == TLOP_OK || db.errors > before, &db, "tlop_prove_claim failed without an error");
    FUZZ_CHECK(st != TLOP_OK || p, &db, "tlop_prove_claim succeeded without a proof");
    tlop_verdict v = p ? tlop_proof_verdict(p) : TLOP_UNKNOWN;
    fuzz_prove_counts.proved += v == TLOP_PROVED;
    fuzz_prove_counts.refuted += v == TLOP_REFUTED;
    fuzz_prove_counts.unknown += v == TLOP_UNKNOWN;
    if (p && tlop_proof_verdict(p) == TLOP_PROVED && !fuzz_known("prove-unsound"))
      check_proved(model, &c, &r, &db);
    tlop_proof_free(p);
  }
  tlop_ctx_free(ctx);
}

#if defined FUZZ_PROVE_SWEEP
/* The sweep (ctest fuzz.prove.sweep): the same generator over N inputs of random bytes
 * drawn from a seed, without libFuzzer, in the release build; then the files named. */
int main(int argc, char **argv) {
  unsigned long long n = 100000, seed = 1;
  int first = 1;
  for (; first + 1 < argc && argv[first][0] == '-'; first += 2) {
    if (!strcmp(argv[first], "--claims"))
      n = strtoull(argv[first + 1], NULL, 10);
    else if (!strcmp(argv[first], "--seed"))
      seed = strtoull(argv[first + 1], NULL, 10);
    else
      break;
  }
  if (first < argc && argv[first][0] == '-') {
    fprintf(stderr, "usage: fuzz_prove_sweep [--claims N] [--seed S] [INPUT...]\n");
    return 2;
  }
#ifdef __GLIBC__
  /* Each simplifier session takes a 64 KiB arena chunk and frees it; glibc would give the
   * top of its heap back to the kernel each time and ask for it again (half the run's time
   * in brk and TLB flushes). Keep it. */
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
  mallopt(M_TOP_PAD, 16 << 20);
#endif
  clock_t start = clock();
  rng r = {seed};
  for (unsigned long long i = 0; i < n; i++) {
    uint8_t input[48];
    for (size_t j = 0; j < sizeof input; j++)
      input[j] = (uint8_t)(uniform(&r) * 256);
    run(input, sizeof input, 0);
  }
  for (int i = first; i < argc; i++) {
    size_t len = 0;
    const uint8_t *input = fuzz_read_file(argv[i], &len);
    if (!input)
      return 1;
    run(input, len, 0);
  }
  printf("fuzz_prove_sweep: %zu claims, %zu loaded, %zu proved, %zu refuted, %zu unknown, "
         "%zu points checked, %.1f s, no violation\n",
         fuzz_prove_counts.inputs, fuzz_prove_counts.loaded, fuzz_prove_counts.proved,
         fuzz_prove_counts.refuted, fuzz_prove_counts.unknown, fuzz_prove_counts.points,
         (double)(clock() - start) / CLOCKS_PER_SEC);
  return 0;
}
#elif defined FUZZ_PROVE_MAIN
int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    size_t n = 0;
    const uint8_t *buf = fuzz_read_file(argv[i], &n);
    if (!buf)
      return 1;
    run(buf, n, 1);
  }
  return 0;
}
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4096)
    return 0;
  run(data, size, 0);
  return 0;
}
#endif
