/* poly.c — the normal form of scalar expressions: polynomials over canonical factors with
 * integer exponents, and exponentials b^E with a polynomial exponent. Equal polynomials
 * have equal monomial lists, so their IR is one hash-consed node. Exponentials of base 2
 * are kept in the papers' shape: a power-of-two coefficient is absorbed into the exponent
 * (2·2^i is 2^(i+1), k/2·2^−i is k/2^(i+1)), any other coefficient keeps a bare exponent. */
#include "simplify/simplify.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_MONO_EXPONENT = 4096 };

typedef struct pfac {
  ir_node *base; /* canonical, not a number, not a numeric-base exponential */
  int e;
} pfac;

typedef struct pexp {
  double b;      /* > 0, != 1 */
  poly *E;       /* no constant term, unless absorbed from a power-of-two coefficient */
  ir_node *eir;  /* canonical IR of E: equality by pointer */
} pexp;

typedef struct mono {
  double c;
  int nf, nx;
  pfac *f; /* sorted by base */
  pexp *x; /* sorted by b */
} mono;

struct poly {
  int n;
  mono *m; /* canonical order, distinct keys, no zero coefficient */
};


/* An opaque factor that is a sum (kept for denominators; a positive power of it is
 * multiplied out). */
static bool sum_base(const ir_node *b) { return b->op == IR_ADD || b->op == IR_SUB || b->op == IR_NEG; }

/* The monomial 1: no coefficient, factor or exponential to take out. */
static bool mono_is_one(const mono *m) { return m->c == 1 && m->nf == 0 && m->nx == 0; }

static void *alloc(simp *s, size_t n) { return arena_alloc(simp_arena(s), n ? n : 1); }

/* qsort, which may not be given a NULL array even to sort nothing */
static void sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  if (n > 1)
    qsort(base, n, size, cmp);
}

static poly *poly_of(simp *s, int n) {
  poly *p = alloc(s, sizeof *p);
  p->n = n;
  p->m = alloc(s, (size_t)n * sizeof *p->m);
  return p;
}

poly *poly_num(simp *s, double c) {
  poly *p = poly_of(s, c != 0);
  if (c != 0)
    p->m[0].c = c;
  return p;
}

bool poly_is_num(const poly *p, double *v) {
  if (p->n == 0) {
    *v = 0;
    return true;
  }
  if (p->n == 1 && p->m[0].nf == 0 && p->m[0].nx == 0) {
    *v = p->m[0].c;
    return true;
  }
  return false;
}

bool poly_is_zero(const poly *p) { return p->n == 0; }
bool poly_leading_negative(const poly *p) { return p->n && p->m[0].c < 0; }
int poly_terms(const poly *p) { return p->n; }

/* ---- monomials ---- */

static int exp_cmp(const pexp *a, const pexp *b) {
  if (a->b != b->b)
    return a->b < b->b ? -1 : 1;
  return ir_cmp(a->eir, b->eir);
}

static bool negative_exponent(const poly *E) { return E->n && E->m[0].c < 0; }

/* Signed: a denominator lowers the degree, so 2k comes before 2k/P and P before 1. */
static int degree(const mono *m) {
  int d = 0;
  for (int i = 0; i < m->nf; i++)
    d += m->f[i].e;
  for (int i = 0; i < m->nx; i++)
    d += negative_exponent(m->x[i].E) ? -1 : 1;
  return d;
}

/* Canonical order: higher degree first, then factor by factor; constants last. */
static int key_cmp(const mono *a, const mono *b) {
  int da = degree(a), db = degree(b);
  if (da != db)
    return da > db ? -1 : 1;
  for (int i = 0; i < a->nf && i < b->nf; i++) {
    int c = ir_cmp(a->f[i].base, b->f[i].base);
    if (c)
      return c;
    if (a->f[i].e != b->f[i].e)
      return a->f[i].e > b->f[i].e ? -1 : 1;
  }
  if (a->nf != b->nf)
    return a->nf > b->nf ? -1 : 1;
  for (int i = 0; i < a->nx && i < b->nx; i++) {
    int c = exp_cmp(&a->x[i], &b->x[i]);
    if (c)
      return c;
  }
  return (a->nx < b->nx) - (a->nx > b->nx);
}

static bool key_eq(const mono *a, const mono *b) {
  if (a->nf != b->nf || a->nx != b->nx)
    return false;
  for (int i = 0; i < a->nf; i++)
    if (a->f[i].base != b->f[i].base || a->f[i].e != b->f[i].e)
      return false;
  for (int i = 0; i < a->nx; i++)
    if (a->x[i].b != b->x[i].b || a->x[i].eir != b->x[i].eir)
      return false;
  return true;
}

static int fac_sort(const void *a, const void *b) { return ir_cmp(((const pfac *)a)->base, ((const pfac *)b)->base); }
static int exp_sort(const void *a, const void *b) {
  double x = ((const pexp *)a)->b, y = ((const pexp *)b)->b;
  return (x > y) - (x < y);
}

/* The constant term of a polynomial. */
static double constant_of(const poly *p) {
  for (int i = 0; i < p->n; i++)
    if (p->m[i].nf == 0 && p->m[i].nx == 0)
      return p->m[i].c;
  return 0;
}

/* Moves the constant terms of the exponents into the coefficient: 2^(i+1) → 2·2^i.
 * Monomials are compared and combined in this raw shape. A constant whose power leaves
 * the range of the coefficient (2^(2^21 − x)) stays in the exponent, of base 2 as a
 * multiple of 1024. */
static void unabsorb(simp *s, mono *m) {
  int k = 0;
  for (int i = 0; i < m->nx; i++) {
    pexp x = m->x[i];
    double c0 = constant_of(x.E);
    /* c·b^c0 in two halves where b^c0 alone leaves the range: 0.001·2^1024 is 1.8e302 */
    double half = pow(x.b, c0 / 2), c = m->c * pow(x.b, c0);
    if (!isnormal(c))
      c = m->c * half * half;
    if (c0 != 0 && isnormal(c)) {
      m->c = c;
      x.E = poly_sub(s, x.E, poly_num(s, c0));
    } else if (c0 != 0 && x.b == 2 && c0 == floor(c0) && fabs(c0) < 0x1p40) {
      /* out of range: the constant rounded to a multiple of 1024, the rest moved into
       * the coefficient, so that like terms meet: 2^−65535 + 2^−65536 is 3·2^−65536 */
      double ref = 1024 * round(c0 / 1024);
      c = ldexp(m->c, (int)(c0 - ref));
      if (isnormal(c) && ref != c0) {
        m->c = c;
        x.E = poly_sub(s, x.E, poly_num(s, c0 - ref));
      }
    }
    if (!poly_is_zero(x.E)) {
      x.eir = poly_to_ir(s, x.E, false);
      m->x[k++] = x;
    }
  }
  m->nx = k;
}

/* The papers' shape: a power-of-two coefficient absorbed into the base-2 exponent,
 * 2·2^i → 2^(i+1), k/2·2^−i → k·2^(−i−1). */
static void absorb(simp *s, mono *m) {
  for (int i = 0; i < m->nx; i++) {
    pexp *x = &m->x[i];
    int ex;
    double v;
    if (x->b != 2 || m->c == 0)
      continue;
    if (frexp(fabs(m->c), &ex) == 0.5 && ex != 1) {
      x->E = poly_add(s, x->E, poly_num(s, ex - 1));
      m->c = m->c < 0 ? -1 : 1;
    } else if (poly_is_num(x->E, &v) && !isnormal(m->c * exp2(v))) {
      /* a number out of range, k·2^j·2^E with k odd: k·2^(E + j), 7/2^2930 */
      int j = ilogb(m->c);
      double k = ldexp(m->c, -j);
      while (k != floor(k))
        k *= 2, j--;
      x->E = poly_add(s, x->E, poly_num(s, j));
      m->c = k;
    } else {
      continue;
    }
    x->eir = poly_to_ir(s, x->E, false);
  }
}

/* Puts a monomial in canonical shape: merged factors, exponentials without constant
 * exponent terms, then a power-of-two coefficient absorbed into the base-2 exponent. */
static void mono_norm(simp *s, mono *m) {
  sort(m->f, (size_t)m->nf, sizeof *m->f, fac_sort);
  int k = 0;
  for (int i = 0; i < m->nf; i++) {
    if (k && m->f[k - 1].base == m->f[i].base)
      m->f[k - 1].e += m->f[i].e;
    else
      m->f[k++] = m->f[i];
    if (m->f[k - 1].e == 0)
      k--;
  }
  m->nf = k;
  sort(m->x, (size_t)m->nx, sizeof *m->x, exp_sort);
  k = 0;
  for (int i = 0; i < m->nx; i++) {
    if (k && m->x[k - 1].b == m->x[i].b)
      m->x[k - 1].E = poly_add(s, m->x[k - 1].E, m->x[i].E);
    else
      m->x[k++] = m->x[i];
  }
  m->nx = k;
  unabsorb(s, m);
  absorb(s, m);
}

static mono mono_copy(simp *s, const mono *a, int extra_f, int extra_x) {
  mono m = *a;
  m.f = alloc(s, (size_t)(a->nf + extra_f) * sizeof *m.f);
  m.x = alloc(s, (size_t)(a->nx + extra_x) * sizeof *m.x);
  if (a->nf)
    memcpy(m.f, a->f, (size_t)a->nf * sizeof *m.f);
  if (a->nx)
    memcpy(m.x, a->x, (size_t)a->nx * sizeof *m.x);
  return m;
}

/* m's coefficient set to x·y, or x/y with `divide`; one out of range ((2^256)^4, as a
 * let bound to 256 makes 2^i·2^i·2^i·2^i) keeps its power of two as an exponential, as
 * the evaluator's wide range has it. m->x has room for one more; whether it was used. */
static bool set_coefficient(simp *s, mono *m, double x, double y, bool divide) {
  m->c = divide ? x / y : x * y;
  if (isfinite(m->c) || !isfinite(x) || !isfinite(y) || (divide && y == 0))
    return false;
  int ex, ey;
  double fx = frexp(x, &ex), fy = frexp(y, &ey);
  m->c = divide ? fx / fy : fx * fy;
  m->x[m->nx++] = (pexp){2, poly_num(s, divide ? ex - ey : ex + ey), NULL};
  return true;
}

static mono mono_mul(simp *s, const mono *a, const mono *b) {
  mono m = mono_copy(s, a, b->nf, b->nx + 1);
  if (b->nf)
    memcpy(m.f + a->nf, b->f, (size_t)b->nf * sizeof *m.f);
  if (b->nx)
    memcpy(m.x + a->nx, b->x, (size_t)b->nx * sizeof *m.x);
  m.nf = a->nf + b->nf;
  m.nx = a->nx + b->nx;
  set_coefficient(s, &m, a->c, b->c, false);
  mono_norm(s, &m);
  return m;
}

static int mono_sort(const void *a, const void *b) { return key_cmp(a, b); }

static mono mono_copy(simp *s, const mono *a, int extra_f, int extra_x);

/* A coefficient within a few ulps of a small fraction a/q is that fraction, so that
 * 5/3 reached by different roundings is one number and its forms compare equal. Only
 * below 10^9, where two such fractions (1/65536 apart at least) are never both within
 * those ulps: snapping a snapped number again must leave it as it is. */
static double snapped(double c) {
  if (c == floor(c) || !(fabs(c) < 1e9))
    return c;
  for (double q = 2; q <= 256; q++) {
    double a = round(c * q);
    if (a != 0 && fabs(a) < 1e15 && fabs(a / q - c) <= 4 * DBL_EPSILON * fabs(c))
      return a / q;
  }
  return c;
}

static void unabsorb(simp *s, mono *m);
static void absorb(simp *s, mono *m);

/* A polynomial from monomials in any order: sorted, like terms combined, zeros dropped.
 * Like terms are found in the raw shape (32a·2^p and a·2^p/3 are both a·2^p), then each
 * monomial takes the papers' shape again; two raw keys never meet after that, as raw
 * exponents have no constant term. */
static poly *collect(simp *s, mono *ms, int n) {
  for (int i = 0; i < n; i++)
    if (ms[i].nx) {
      ms[i] = mono_copy(s, &ms[i], 0, 0);
      unabsorb(s, &ms[i]);
    }
  sort(ms, (size_t)n, sizeof *ms, mono_sort);
  poly *p = poly_of(s, n);
  int k = 0;
  for (int i = 0; i < n; i++) {
    ms[i].c = snapped(ms[i].c);
    if (ms[i].c == 0)
      continue;
    if (k && key_eq(&p->m[k - 1], &ms[i])) {
      p->m[k - 1].c = snapped(p->m[k - 1].c + ms[i].c);
      if (p->m[k - 1].c == 0)
        k--;
    } else {
      p->m[k++] = ms[i];
    }
  }
  p->n = k;
  for (int i = 0; i < p->n; i++)
    absorb(s, &p->m[i]);
  sort(p->m, (size_t)p->n, sizeof *p->m, mono_sort);
  return p;
}

static poly *single(simp *s, mono m) {
  mono *ms = alloc(s, sizeof *ms);
  ms[0] = m;
  return collect(s, ms, 1);
}

poly *poly_factor(simp *s, ir_node *base) {
  if (base->op == IR_NUM)
    return poly_num(s, base->num);
  mono m = {.c = 1, .nf = 1};
  m.f = alloc(s, sizeof *m.f);
  m.f[0] = (pfac){base, 1};
  return single(s, m);
}

/* b^E as a polynomial (b numeric, > 0, != 1). */
static poly *exponential(simp *s, double b, const poly *E) {
  mono m = {.c = 1, .nx = 1};
  m.x = alloc(s, sizeof *m.x);
  m.x[0] = (pexp){b, (poly *)E, NULL};
  mono_norm(s, &m);
  return single(s, m);
}

poly *poly_power_of(simp *s, double b, double e) { return exponential(s, b, poly_num(s, e)); }

poly *poly_number_pow(simp *s, double b, double e) {
  double v = pow(b, e);
  bool out_of_range = b > 0 && b != 1 && isfinite(e) && (!isfinite(v) || v == 0);
  return out_of_range ? poly_power_of(s, b, e) : poly_num(s, v);
}

/* ---- arithmetic ---- */

poly *poly_add(simp *s, const poly *a, const poly *b) {
  mono *ms = alloc(s, (size_t)(a->n + b->n) * sizeof *ms);
  if (a->n)
    memcpy(ms, a->m, (size_t)a->n * sizeof *ms);
  if (b->n)
    memcpy(ms + a->n, b->m, (size_t)b->n * sizeof *ms);
  return collect(s, ms, a->n + b->n);
}

/* a·c, or a/c with `divide` (dividing, not multiplying by a rounded 1/c, keeps 7/6 the
 * same double however it is reached). */
static poly *scaled(simp *s, const poly *a, double c, bool divide) {
  if (c == 0 && !divide)
    return poly_num(s, 0);
  mono *ms = alloc(s, (size_t)a->n * sizeof *ms);
  for (int i = 0; i < a->n; i++) {
    ms[i] = mono_copy(s, &a->m[i], 0, 1);
    if (set_coefficient(s, &ms[i], a->m[i].c, c, divide))
      mono_norm(s, &ms[i]);
  }
  return collect(s, ms, a->n); /* 2·2^p is 2^(p+1) */
}

static poly *scale(simp *s, const poly *a, double c) { return scaled(s, a, c, false); }

poly *poly_sub(simp *s, const poly *a, const poly *b) { return poly_add(s, a, scale(s, b, -1)); }
poly *poly_negate(simp *s, const poly *p) { return scale(s, p, -1); }

static poly *monic_part(simp *s, const poly *p, mono *g);
static poly *multiplied(simp *s, const poly *a, const poly *b);
static mono mono_pow(simp *s, const mono *a, int k);

/* An opaque factor standing for a polynomial that does not multiply out; its base is
 * the expanded sum, so that a positive power of it is recognized and multiplied out. The
 * common monomial and scale stay outside, so that 896k·A and A times 896k are one form. */
static poly *opaque(simp *s, const poly *p, int e) {
  mono g, m = {.c = 1, .nf = 1};
  poly *rest = monic_part(s, p, &g);
  m.f = alloc(s, sizeof *m.f);
  m.f[0] = (pfac){poly_to_ir(s, rest, false), e};
  return multiplied(s, single(s, mono_pow(s, &g, e)), single(s, m));
}

/* The product, term by term. */
static poly *multiplied(simp *s, const poly *a, const poly *b) {
  if ((long)a->n * b->n > POLY_MAX_TERMS)
    return poly_mul(s, opaque(s, a, 1), b->n > 1 ? opaque(s, b, 1) : b);
  mono *ms = alloc(s, (size_t)(a->n * b->n) * sizeof *ms);
  int k = 0;
  for (int i = 0; i < a->n; i++)
    for (int j = 0; j < b->n; j++)
      ms[k++] = mono_mul(s, &a->m[i], &b->m[j]);
  return collect(s, ms, k);
}

static poly *expanded(simp *s, mono m);

/* a, a monomial with a denominator D, times b, a multiple of D: D cancels once
 * (P/(a + 1)·(a + 1) is P), as in poly_div; NULL when a and b are not such. */
static poly *cancelled(simp *s, const poly *a, const poly *b) {
  if (a->n != 1 || b->n < 2)
    return NULL;
  bool denominator = false;
  for (int i = 0; i < a->m[0].nf; i++)
    denominator |= a->m[0].f[i].e < 0 && sum_base(a->m[0].f[i].base);
  if (!denominator)
    return NULL;
  mono g;
  ir_node *d = poly_to_ir(s, monic_part(s, b, &g), false);
  for (int i = 0; i < a->m[0].nf; i++)
    if (a->m[0].f[i].base == d && a->m[0].f[i].e < 0) {
      mono m = mono_copy(s, &a->m[0], 0, 0);
      m.f[i].e++;
      return expanded(s, mono_mul(s, &m, &g));
    }
  return NULL;
}

poly *poly_mul(simp *s, const poly *a, const poly *b) {
  poly *r = cancelled(s, a, b);
  if (!r)
    r = cancelled(s, b, a);
  return r ? r : multiplied(s, a, b);
}

/* m^k for a monomial, any integer k. */
static mono mono_pow(simp *s, const mono *a, int k) {
  mono m = mono_copy(s, a, 0, 0);
  m.c = pow(a->c, k);
  for (int i = 0; i < m.nf; i++)
    m.f[i].e *= k;
  for (int i = 0; i < m.nx; i++)
    m.x[i].E = scale(s, a->x[i].E, k);
  mono_norm(s, &m);
  return m;
}

/* 1/g without its coefficient, which the caller divides by: multiplying by the
 * reciprocal is not exact (197300060160·(1/49) is 4026531839.9999995). */
static mono unit_inverse(simp *s, const mono *g) {
  mono u = *g;
  u.c = 1;
  return mono_pow(s, &u, -1);
}

/* A coefficient as a fraction a/q with a small denominator (k/2, 3k/4, 7/6), when a/q is
 * exactly c, so that printing it as a/q reads back as the same number; else q = 1. */
static double denominator_of(double c) {
  /* above 10^9 a rounded a/q meets almost any c: 2.5^27 is not 46074255521944/830 */
  if (c == floor(c) || !(fabs(c) < 1e9))
    return 1;
  for (double q = 2; q <= 1024; q++) {
    double a = round(c * q);
    if (fabs(a) < 1e15 && a / q == c)
      return q;
  }
  return 1;
}

/* The common monomial of a polynomial: positive integer gcd of the coefficients (1 when
 * any is not an integer), the least exponent of every factor (missing counts as 0), and
 * the exponentials every monomial shares. */
static mono common(simp *s, const poly *p) {
  mono g = {.c = 1};
  if (p->n < 2)
    return p->n ? p->m[0] : g;
  /* the gcd of the coefficients as fractions over their common denominator q */
  double q = 1;
  for (int i = 0; i < p->n && q <= 1024; i++) {
    double d = denominator_of(fabs(p->m[i].c));
    if (d == 1 && p->m[i].c != floor(p->m[i].c))
      q = 2048; /* not a small fraction: no common coefficient */
    else
      for (double k = 1; k <= d; k++)
        if (fmod(q * k, d) == 0) {
          q *= k;
          break;
        }
  }
  double gc = 0;
  bool ints = q <= 1024;
  for (int i = 0; i < p->n && ints; i++) {
    double c = round(fabs(p->m[i].c) * q);
    ints = c < 9007199254740992.0;
    for (double x = gc, y = c; ints && y != 0;) {
      double t = fmod(x, y);
      x = y;
      y = t;
      gc = x;
    }
  }
  g.c = ints && gc > 0 ? gc / q : 1;
  int nmax = 0;
  for (int i = 0; i < p->n; i++)
    nmax += p->m[i].nf;
  g.f = alloc(s, (size_t)nmax * sizeof *g.f);
  for (int i = 0; i < p->n; i++)
    for (int j = 0; j < p->m[i].nf; j++) {
      ir_node *base = p->m[i].f[j].base;
      bool done = false;
      for (int k = 0; k < g.nf && !done; k++)
        done = g.f[k].base == base;
      if (done)
        continue;
      /* A sum's least power in the denominators: taking out more would leave it with a
       * positive power in some term, which reads back multiplied out. */
      bool sum = sum_base(base);
      int e = 0;
      for (int r = 0; r < p->n; r++) {
        int er = 0;
        for (int t = 0; t < p->m[r].nf; t++)
          if (p->m[r].f[t].base == base)
            er = p->m[r].f[t].e;
        if (r == 0 || (sum ? er > e : er < e))
          e = er;
      }
      /* A factor in every monomial is common; so is a variable's denominator in some.
       * A denominator that is itself a sum is common only if every monomial has it, or
       * the division would leave it unexpanded in the others. */
      bool in_all = true;
      for (int r = 0; r < p->n && in_all; r++) {
        bool has = false;
        for (int t = 0; t < p->m[r].nf; t++)
          has |= p->m[r].f[t].base == base;
        in_all = has;
      }
      if (e != 0 && (in_all || !sum))
        g.f[g.nf++] = (pfac){base, e};
    }
  /* An exponential b^E in every monomial is common with the least E, when the others
   * are provably not smaller: 2^p and 2^(2p) share 2^p for p ≥ 0. Compared in the raw
   * shape, their constants in the coefficients: 2^(p − P − 9) and 9·2^(−P)/512 share
   * 2^(−P). */
  mono *raw = alloc(s, (size_t)p->n * sizeof *raw);
  for (int r = 0; r < p->n; r++) {
    raw[r] = mono_copy(s, &p->m[r], 0, 0);
    unabsorb(s, &raw[r]);
  }
  g.x = alloc(s, (size_t)raw[0].nx * sizeof *g.x);
  for (int j = 0; j < raw[0].nx; j++) {
    pexp least = raw[0].x[j];
    bool all = true;
    for (int r = 1; r < p->n && all; r++) {
      const pexp *same = NULL;
      for (int t = 0; t < raw[r].nx; t++)
        if (raw[r].x[t].b == least.b)
          same = &raw[r].x[t];
      if (!same) {
        all = false;
      } else if (same->eir != least.eir) {
        poly *d = poly_sub(s, same->E, least.E);
        if (simp_nonneg(s, d))
          continue;
        if (simp_nonneg(s, poly_sub(s, least.E, same->E)))
          least = *same;
        else
          all = false;
      }
    }
    if (all)
      g.x[g.nx++] = least;
  }
  sort(g.f, (size_t)g.nf, sizeof *g.f, fac_sort);
  return g;
}

/* A monomial whose opaque sum factors (kept for denominators) have a positive exponent
 * after a power or an inversion: those factors are multiplied out again. */
static poly *expanded(simp *s, mono m) {
  poly *r = NULL;
  int k = 0;
  for (int i = 0; i < m.nf; i++) {
    ir_node *b = m.f[i].base;
    bool sum = sum_base(b);
    if (sum && m.f[i].e > 0) {
      poly *f = simp_poly(s, b);
      for (int e = 0; e < m.f[i].e; e++)
        r = r ? poly_mul(s, r, f) : f;
    } else {
      m.f[k++] = m.f[i];
    }
  }
  m.nf = k;
  poly *rest = single(s, m);
  return r ? poly_mul(s, rest, r) : rest;
}

/* What p is divided by to have one form however it was scaled: its leading coefficient;
 * with a base-2 exponential there, whose coefficient is absorbed (2^p + 5/2 and
 * 2^(p+1) + 5 are one sum up to 2), the coefficient before absorption, then the least
 * power of two that makes every coefficient whole: both are 2^(p+1) + 5. Leading and
 * coefficients in the raw shape: absorbing (2·2^−j is 2^(1−j)) may reorder the terms,
 * and 1/2^(j + k) − 2/2^j and its multiples must still have one form. */
static double monic_scale(simp *s, const poly *p) {
  mono *raw = alloc(s, (size_t)p->n * sizeof *raw);
  int lead = 0;
  for (int i = 0; i < p->n; i++) {
    raw[i] = mono_copy(s, &p->m[i], 0, 0);
    unabsorb(s, &raw[i]);
    if (key_cmp(&raw[i], &raw[lead]) < 0)
      lead = i;
  }
  bool two = false;
  for (int i = 0; i < raw[lead].nx; i++)
    two |= raw[lead].x[i].b == 2;
  if (!two)
    return raw[lead].c;
  for (int j = 0; j <= 10; j++) {
    double c = raw[lead].c / ldexp(1, j);
    bool whole = true;
    for (int i = 0; i < p->n && whole; i++) {
      double v = raw[i].c / c;
      whole = v == floor(v) && fabs(v) < 1e15;
    }
    if (whole)
      return c;
  }
  return raw[lead].c;
}

/* p = g·rest, g its common monomial and rest monic (leading coefficient 1), so that a
 * denominator has one form however it was scaled: a/2 + 1/2 and a + 1 are both (a + 1). */
static poly *monic_part(simp *s, const poly *p, mono *g) {
  *g = common(s, p);
  poly *rest = scaled(s, multiplied(s, p, single(s, unit_inverse(s, g))), g->c, true);
  double c = monic_scale(s, rest);
  /* g's coefficient is a fraction a/q: a·c/q, not (a/q)·c, is 1 for 1/49 and 49 */
  double q = denominator_of(g->c);
  g->c = q > 1 ? round(g->c * q) * c / q : g->c * c;
  return scaled(s, rest, c, true);
}

poly *poly_div(simp *s, const poly *a, const poly *b) {
  double v;
  if (poly_is_num(b, &v) && v != 0)
    return scaled(s, a, v, true);
  if (b->n == 0) { /* a/0 stays as written: it fails where it is evaluated, as it did */
    /* a number a as one literal (0.25, not 1/4, which reads back as 0.25) */
    ir_node *num = poly_is_num(a, &v) ? ir_num(simp_ctx(s), v) : poly_to_ir(s, a, true);
    return poly_factor(s, ir_bin(simp_ctx(s), IR_DIV, num, ir_num(simp_ctx(s), 0)));
  }
  if (b->n == 1)
    return poly_mul(s, a, expanded(s, mono_pow(s, &b->m[0], -1)));
  mono g;
  poly *rest = monic_part(s, b, &g);
  /* a multiple of the denominator cancels: 2P·(X + 1)/(X + 1) is 2P, as X/X is 1 */
  if (a->n == b->n) {
    mono ga, inv = unit_inverse(s, &g);
    if (poly_to_ir(s, monic_part(s, a, &ga), false) == poly_to_ir(s, rest, false)) {
      ga.c /= g.c;
      return expanded(s, mono_mul(s, &ga, &inv));
    }
  }
  return poly_mul(s, scaled(s, poly_mul(s, a, expanded(s, unit_inverse(s, &g))), g.c, true),
                  opaque(s, rest, -1));
}

/* c^k a normal number: (1/1024)^200 is not 0. */
static bool coefficient_power_fits(double c, double k) {
  return fpclassify(pow(c, k)) == FP_NORMAL;
}

/* m^k as a monomial beyond k = 64: a product of powers of factors that are not sums (a
 * sum's power is multiplied out), whose exponents stay within what products of monomials
 * reach (P^81 · P^162 = P^243), so that P^243 or log₂P^81 written out reads back as the
 * same monomial; and whose coefficient's power fits. */
static bool power_fits(const mono *m, double k) {
  if (fabs(k) > MAX_MONO_EXPONENT || !coefficient_power_fits(m->c, k))
    return false;
  for (int i = 0; i < m->nf; i++)
    if (sum_base(m->f[i].base) || fabs(m->f[i].e * k) > MAX_MONO_EXPONENT)
      return false;
  return true;
}

/* base^expo as an opaque factor: a power that does not multiply out. */
static poly *kept_power(simp *s, const poly *base, const poly *expo) {
  return poly_factor(s, ir_bin(simp_ctx(s), IR_POW, poly_to_ir(s, base, true),
                               poly_to_ir(s, expo, true)));
}

poly *poly_pow(simp *s, const poly *base, const poly *expo) {
  double k, b;
  if (poly_is_num(expo, &k)) {
    if (poly_is_num(base, &b))
      return poly_number_pow(s, b, k);
    if (k == 1) /* x^1 of a sum too long to multiply out is x, not an opaque power */
      return (poly *)base;
    if (k == floor(k) && (fabs(k) <= 64 || (base->n == 1 && power_fits(&base->m[0], k)))) {
      /* (P/10^6)^60's coefficient, 10^−360, is not 0: kept as a power */
      if (base->n == 1 && coefficient_power_fits(base->m[0].c, k))
        return expanded(s, mono_pow(s, &base->m[0], (int)k));
      if (k >= 0 && k <= MAX_SUM_POWER && base->n <= 8) {
        poly *r = poly_num(s, 1);
        for (int i = 0; i < (int)k; i++)
          r = poly_mul(s, r, base);
        return r;
      }
      if (k < 0) {
        /* 1/(a + 1)^2 keeps its base: (a + 1) with exponent −2 */
        poly *inv = poly_div(s, poly_num(s, 1), base);
        poly *r = poly_num(s, 1);
        for (int i = 0; i < (int)-k; i++)
          r = poly_mul(s, r, inv);
        return r;
      }
    }
  }
  if (poly_is_num(base, &b) && b > 0) {
    if (b == 1)
      return poly_num(s, 1);
    return exponential(s, b, expo);
  }
  /* (c·Π b^E)^X = c^X · Π b^(E·X) when the base has no other factor. */
  if (base->n == 1 && base->m[0].nf == 0 && base->m[0].c > 0) {
    const mono *m = &base->m[0];
    poly *r = m->c == 1 ? poly_num(s, 1) : exponential(s, m->c, expo);
    for (int i = 0; i < m->nx; i++)
      r = poly_mul(s, r, exponential(s, m->x[i].b, poly_mul(s, m->x[i].E, expo)));
    return r;
  }
  /* (g·A)^k with g the common monomial, k whole: g^k·A^k, as a quotient by it reads
   * (1/(P·A)^3 is 1/(P^3·A^3)), so that the power printed reads back the same */
  if (base->n > 1 && poly_is_num(expo, &k) && k == floor(k)) {
    mono g;
    poly *rest = monic_part(s, base, &g);
    if (!mono_is_one(&g) && power_fits(&g, k))
      return poly_mul(s, expanded(s, mono_pow(s, &g, (int)k)), kept_power(s, rest, expo));
  }
  return kept_power(s, base, expo);
}

/* ---- variables ---- */

static bool mono_uses(const mono *m, sym var) {
  for (int i = 0; i < m->nf; i++)
    if (ir_uses(m->f[i].base, var))
      return true;
  for (int i = 0; i < m->nx; i++)
    if (poly_uses(m->x[i].E, var))
      return true;
  return false;
}

bool poly_uses(const poly *p, sym var) {
  for (int i = 0; i < p->n; i++)
    if (mono_uses(&p->m[i], var))
      return true;
  return false;
}

static int add_var(sym *out, int n, int max, sym v) {
  for (int i = 0; i < n; i++)
    if (out[i] == v)
      return n;
  if (n < max)
    out[n++] = v;
  return n;
}

int poly_vars(const poly *p, sym *out, int max) {
  int n = 0;
  for (int i = 0; i < p->n; i++) {
    for (int j = 0; j < p->m[i].nf; j++)
      if (p->m[i].f[j].base->op == IR_VAR)
        n = add_var(out, n, max, p->m[i].f[j].base->name);
    for (int j = 0; j < p->m[i].nx; j++) {
      sym inner[16];
      int k = poly_vars(p->m[i].x[j].E, inner, 16);
      for (int t = 0; t < k; t++)
        n = add_var(out, n, max, inner[t]);
    }
  }
  return n;
}

bool poly_is_integer(const poly *p, bool (*is_int)(simp *s, const ir_node *base), simp *s) {
  for (int i = 0; i < p->n; i++) {
    const mono *m = &p->m[i];
    if (m->c != floor(m->c))
      return false;
    for (int j = 0; j < m->nf; j++)
      if (m->f[j].e < 0 || !is_int(s, m->f[j].base))
        return false;
    for (int j = 0; j < m->nx; j++)
      if (m->x[j].b != floor(m->x[j].b) || !poly_is_integer(m->x[j].E, is_int, s) ||
          !simp_nonneg(s, m->x[j].E))
        return false;
  }
  return true;
}

bool poly_monomial_over(simp *s, const poly *p, double least, bool at_least_one,
                        bool (*factor_ok)(simp *s, const ir_node *base, int e)) {
  if (p->n != 1 || p->m[0].c < least)
    return false;
  const mono *m = &p->m[0];
  for (int i = 0; i < m->nf; i++)
    if (!factor_ok(s, m->f[i].base, m->f[i].e))
      return false;
  for (int i = 0; i < m->nx && at_least_one; i++)
    if (!simp_nonneg(s, m->x[i].b > 1 ? m->x[i].E : scale(s, m->x[i].E, -1)))
      return false;
  return true;
}

bool poly_linear_in(simp *s, const poly *p, sym var, double *a, poly **rest) {
  mono *ms = alloc(s, (size_t)p->n * sizeof *ms);
  int k = 0;
  *a = 0;
  for (int i = 0; i < p->n; i++) {
    const mono *m = &p->m[i];
    if (!mono_uses(m, var)) {
      ms[k++] = *m;
      continue;
    }
    if (m->nf != 1 || m->nx != 0 || m->f[0].e != 1 || m->f[0].base->op != IR_VAR ||
        m->f[0].base->name != var)
      return false;
    *a += m->c;
  }
  *rest = collect(s, ms, k);
  return true;
}

bool poly_two_powers(simp *s, const poly *p, double *c1, poly **e1, double *c2, poly **e2) {
  (void)s;
  if (p->n != 2)
    return false;
  for (int i = 0; i < 2; i++) {
    const mono *m = &p->m[i];
    bool pure = m->nf == 0 && (m->nx == 0 || (m->nx == 1 && m->x[0].b == 2));
    if (!pure)
      return false;
  }
  *c1 = p->m[0].c;
  *c2 = p->m[1].c;
  *e1 = p->m[0].nx ? p->m[0].x[0].E : poly_num(s, 0);
  *e2 = p->m[1].nx ? p->m[1].x[0].E : poly_num(s, 0);
  return true;
}

static poly *mono_poly(simp *s, const mono *m) { return single(s, mono_copy(s, m, 0, 0)); }

poly *poly_subst(simp *s, const poly *p, sym var, const poly *value) {
  poly *r = poly_num(s, 0);
  tlop_ctx *ctx = simp_ctx(s);
  for (int i = 0; i < p->n; i++) {
    const mono *m = &p->m[i];
    if (!mono_uses(m, var)) {
      r = poly_add(s, r, mono_poly(s, m));
      continue;
    }
    poly *t = poly_num(s, m->c);
    for (int j = 0; j < m->nf; j++) {
      ir_node *b = m->f[j].base;
      poly *f;
      if (b->op == IR_VAR && b->name == var)
        f = (poly *)value;
      else if (ir_uses(b, var))
        f = simp_poly(s, ir_subst(ctx, b, var, poly_to_ir(s, value, false)));
      else
        f = poly_factor(s, b);
      t = poly_mul(s, t, poly_pow(s, f, poly_num(s, m->f[j].e)));
    }
    for (int j = 0; j < m->nx; j++)
      t = poly_mul(s, t, exponential(s, m->x[j].b, poly_subst(s, m->x[j].E, var, value)));
    r = poly_add(s, r, t);
  }
  return r;
}

poly *poly_unpow2(simp *s, const poly *p, sym expo, ir_node *base) {
  mono *ms = alloc(s, (size_t)p->n * sizeof *ms);
  for (int i = 0; i < p->n; i++) {
    mono m = mono_copy(s, &p->m[i], p->m[i].nx, 0);
    for (int j = 0; j < m.nx; j++) {
      double a;
      poly *rest;
      if (m.x[j].b != 2 || !poly_linear_in(s, m.x[j].E, expo, &a, &rest) || a != floor(a) ||
          a == 0)
        continue;
      m.f[m.nf++] = (pfac){base, (int)a};
      m.x[j].E = rest;
    }
    mono_norm(s, &m);
    ms[i] = m;
  }
  return collect(s, ms, p->n);
}

/* log_base(p) of a one-monomial p = c·base^E·rest (c > 0, rest its other factors), an
 * identity wherever p > 0: log_base(c) + E, returned, and *rest with coefficient 1; NULL
 * when p is no such monomial, has no other factor (poly_log's case) or nothing splits off. */
poly *poly_log_parts(simp *s, const poly *p, double base, poly **rest) {
  if (p->n != 1 || p->m[0].c <= 0 || p->m[0].nf == 0)
    return NULL;
  const mono *m = &p->m[0];
  mono r = mono_copy(s, m, 0, 0);
  r.c = 1;
  r.nx = 0;
  poly *part = poly_num(s, base == 2 ? log2(m->c) : log(m->c) / log(base));
  for (int i = 0; i < m->nx; i++) {
    if (m->x[i].b == base)
      part = poly_add(s, part, m->x[i].E);
    else
      r.x[r.nx++] = m->x[i];
  }
  if (m->c == 1 && r.nx == m->nx)
    return NULL;
  *rest = single(s, r);
  return part;
}

/* The constant term of p (0 when it has none). */
double poly_constant(const poly *p) { return constant_of(p); }

bool poly_log(simp *s, const poly *p, double base, poly **out) {
  if (p->n != 1 || p->m[0].nf != 0 || p->m[0].c <= 0)
    return false;
  const mono *m = &p->m[0];
  poly *r = poly_num(s, base == 2 ? log2(m->c) : log(m->c) / log(base));
  for (int i = 0; i < m->nx; i++) {
    if (m->x[i].b != base)
      return false;
    r = poly_add(s, r, m->x[i].E);
  }
  *out = r;
  return true;
}

/* Accumulates the offset c of every exponent a·var + a·c in p (the shift that would make
 * them a·var); false when two disagree or var occurs other than in such an exponent. */
bool poly_shift_of(simp *s, const poly *p, sym var, double *off, bool *seen) {
  for (int i = 0; i < p->n; i++) {
    const mono *m = &p->m[i];
    for (int j = 0; j < m->nf; j++)
      if (ir_uses(m->f[j].base, var))
        return false;
    for (int j = 0; j < m->nx; j++) {
      double a;
      poly *rest;
      if (!poly_uses(m->x[j].E, var))
        continue;
      if (!poly_linear_in(s, m->x[j].E, var, &a, &rest))
        return false;
      /* 2^(p − i − 1) = 2^(−(i + 1) + p): the numeric part gives the shift */
      double c = constant_of(rest) / a;
      if (*seen && c != *off)
        return false;
      *off = c;
      *seen = true;
    }
  }
  return true;
}

/* ---- closed sums ---- */

/* Σ_{i=lo}^{hi} of one index-dependent monomial shape; NULL when there is no closed form. */
static poly *sum_shape(simp *s, sym var, const poly *lo, const poly *hi, const mono *m) {
  poly *one = poly_num(s, 1);
  poly *count = poly_add(s, poly_sub(s, hi, lo), one);
  int power = -1;
  for (int j = 0; j < m->nf; j++) {
    const pfac *f = &m->f[j];
    if (!ir_uses(f->base, var))
      continue;
    if (f->base->op != IR_VAR || power >= 0 || f->e < 1 || f->e > 2)
      return NULL;
    power = f->e;
  }
  /* The exponentials: b^(a·var) contributes r = b^a to a geometric ratio. */
  double ratio_b = 0, ratio_a = 0;
  for (int j = 0; j < m->nx; j++) {
    double a;
    poly *rest;
    if (!poly_uses(m->x[j].E, var))
      continue;
    if (!poly_linear_in(s, m->x[j].E, var, &a, &rest) || ratio_a != 0 || a == 0)
      return NULL;
    ratio_b = m->x[j].b;
    ratio_a = a;
  }
  if (ratio_a != 0 && power > 0)
    return NULL; /* arithmetico-geometric: left as a sum */
  if (ratio_a != 0) {
    /* Σ r^i = (r^(hi+1) − r^lo)/(r − 1), r = b^a */
    double r = pow(ratio_b, ratio_a);
    if (r == 1)
      return count;
    poly *a = poly_num(s, ratio_a);
    poly *top = poly_sub(s, exponential(s, ratio_b, poly_mul(s, a, poly_add(s, hi, one))),
                         exponential(s, ratio_b, poly_mul(s, a, (poly *)lo)));
    return scale(s, top, 1 / (r - 1));
  }
  if (power < 0)
    return count;
  poly *sum_hi, *sum_lo;
  poly *lom1 = poly_sub(s, lo, one);
  if (power == 1) {
    /* Σ_{i=lo}^{hi} i = (hi(hi+1) − (lo−1)lo)/2 */
    sum_hi = poly_mul(s, hi, poly_add(s, hi, one));
    sum_lo = poly_mul(s, lom1, (poly *)lo);
    return scale(s, poly_sub(s, sum_hi, sum_lo), 0.5);
  }
  /* Σ i² = n(n+1)(2n+1)/6 between the bounds */
  poly *two = poly_num(s, 2);
  sum_hi = poly_mul(s, poly_mul(s, hi, poly_add(s, hi, one)), poly_add(s, poly_mul(s, two, hi), one));
  sum_lo = poly_mul(s, poly_mul(s, lom1, (poly *)lo), poly_sub(s, poly_mul(s, two, lo), one));
  return scale(s, poly_sub(s, sum_hi, sum_lo), 1.0 / 6);
}

/* The part of a monomial that does not depend on var (coefficient included). */
static mono split_indep(simp *s, const mono *m, sym var, mono *dep) {
  mono in = mono_copy(s, m, 0, m->nx);
  *dep = mono_copy(s, m, 0, 0);
  dep->c = 1;
  in.nf = dep->nf = 0;
  for (int j = 0; j < m->nf; j++)
    if (ir_uses(m->f[j].base, var))
      dep->f[dep->nf++] = m->f[j];
    else
      in.f[in.nf++] = m->f[j];
  in.nx = dep->nx = 0;
  for (int j = 0; j < m->nx; j++) {
    double a;
    poly *rest;
    if (!poly_uses(m->x[j].E, var)) {
      in.x[in.nx++] = m->x[j];
    } else if (poly_linear_in(s, m->x[j].E, var, &a, &rest) && !poly_is_zero(rest)) {
      /* b^(a·i + R) = b^R · b^(a·i) */
      in.x[in.nx++] = (pexp){m->x[j].b, rest, NULL};
      dep->x[dep->nx++] = (pexp){m->x[j].b, poly_sub(s, m->x[j].E, rest), NULL};
    } else {
      dep->x[dep->nx++] = m->x[j];
    }
  }
  mono_norm(s, &in);
  mono_norm(s, dep);
  return in;
}

poly *poly_free_of(simp *s, const poly *p, sym var) {
  poly *r = poly_num(s, 0);
  for (int i = 0; i < p->n; i++)
    if (!mono_uses(&p->m[i], var))
      r = poly_add(s, r, mono_poly(s, &p->m[i]));
  return r;
}

bool poly_split(simp *s, const poly *p, sym var, poly **indep, poly **dep) {
  if (p->n != 1)
    return false;
  mono d;
  mono in = split_indep(s, &p->m[0], var, &d);
  *indep = mono_poly(s, &in);
  *dep = mono_poly(s, &d);
  return true;
}

poly *poly_sum(simp *s, sym var, const poly *lo, const poly *hi, const poly *body) {
  poly *closed = poly_num(s, 0), *open = poly_num(s, 0);
  for (int i = 0; i < body->n; i++) {
    mono dep;
    mono in = split_indep(s, &body->m[i], var, &dep);
    poly *sum = sum_shape(s, var, lo, hi, &dep);
    if (sum)
      closed = poly_add(s, closed, poly_mul(s, mono_poly(s, &in), sum));
    else
      open = poly_add(s, open, mono_poly(s, &body->m[i]));
  }
  if (poly_is_zero(open))
    return closed;
  tlop_ctx *ctx = simp_ctx(s);
  ir_node *sum = ir_make(ctx, IR_SUM, var, 0, poly_to_ir(s, lo, true), poly_to_ir(s, hi, true),
                         poly_to_ir(s, open, true));
  return poly_add(s, closed, poly_factor(s, sum));
}

/* ---- back to IR ---- */

static ir_node *mul(tlop_ctx *ctx, ir_node *a, ir_node *b) {
  if (!a)
    return b;
  return ir_bin(ctx, IR_MUL, a, b);
}

/* A monomial without its sign: numerator and denominator products (NULL when empty). */
static void mono_parts(simp *s, const mono *m, ir_node **num, ir_node **den) {
  tlop_ctx *ctx = simp_ctx(s);
  *num = *den = NULL;
  double q = denominator_of(fabs(m->c)), a = fabs(m->c) * q;
  if (a != 1)
    *num = ir_num(ctx, a);
  if (q != 1)
    *den = ir_num(ctx, q);
  for (int i = 0; i < m->nf; i++) {
    int e = abs(m->f[i].e);
    ir_node *f = e == 1 ? m->f[i].base : ir_bin(ctx, IR_POW, m->f[i].base, ir_num(ctx, e));
    if (m->f[i].e > 0)
      *num = mul(ctx, *num, f);
    else
      *den = mul(ctx, *den, f);
  }
  for (int i = 0; i < m->nx; i++) {
    bool neg = negative_exponent(m->x[i].E);
    poly *E = neg ? scale(s, m->x[i].E, -1) : m->x[i].E;
    ir_node *f = ir_bin(ctx, IR_POW, ir_num(ctx, m->x[i].b), poly_to_ir(s, E, false));
    if (neg)
      *den = mul(ctx, *den, f);
    else
      *num = mul(ctx, *num, f);
  }
}

static ir_node *quotient(tlop_ctx *ctx, ir_node *num, ir_node *den) {
  if (!num)
    num = ir_num(ctx, 1);
  return den ? ir_bin(ctx, IR_DIV, num, den) : num;
}

/* Σ of monomials with their signs: a + b − c. */
static ir_node *sum_ir(simp *s, const poly *p) {
  tlop_ctx *ctx = simp_ctx(s);
  ir_node *r = NULL;
  for (int i = 0; i < p->n; i++) {
    ir_node *num, *den;
    mono_parts(s, &p->m[i], &num, &den);
    ir_node *t = quotient(ctx, num, den);
    bool neg = p->m[i].c < 0;
    if (!r)
      r = neg ? ir_un(ctx, IR_NEG, t) : t;
    else
      r = ir_bin(ctx, neg ? IR_SUB : IR_ADD, r, t);
  }
  return r ? r : ir_num(ctx, 0);
}

ir_node *poly_to_ir(simp *s, const poly *p, bool factored) {
  tlop_ctx *ctx = simp_ctx(s);
  if (!factored || p->n < 2)
    return sum_ir(s, p);
  mono g = common(s, p);
  if (mono_is_one(&g))
    return sum_ir(s, p);
  poly *rest = scaled(s, poly_mul(s, p, single(s, unit_inverse(s, &g))), g.c, true);
  ir_node *num, *den;
  mono_parts(s, &g, &num, &den);
  return quotient(ctx, mul(ctx, num, sum_ir(s, rest)), den);
}

/* The factor f of a monomial c·f (f its only factor, to the power 1), else NULL. */
static const ir_node *lone_factor(const mono *m) {
  return m->nf == 1 && m->nx == 0 && m->f[0].e == 1 ? m->f[0].base : NULL;
}

/* A lower bound of p with each lone c·⌈e⌉ or c·⌊e⌋ (no other factor) replaced by the
 * bound of its sign: ⌈e⌉ ≥ e, ⌊e⌋ ≤ e, ⌈e⌉ < e + 1, ⌊e⌋ > e − 1; `of` gives e's poly.
 * NULL when p has no such term. */
poly *poly_round_lower(simp *s, const poly *p, poly *(*of)(simp *s, const ir_node *n)) {
  poly *r = poly_num(s, 0);
  bool any = false;
  for (int i = 0; i < p->n; i++) {
    const mono *m = &p->m[i];
    const ir_node *b = lone_factor(m);
    if (b && (b->op == IR_CEIL || b->op == IR_FLOOR)) {
      bool up = b->op == IR_CEIL;
      /* c > 0 wants the least value: e for ⌈e⌉, e − 1 for ⌊e⌋; c < 0 the greatest */
      double shift = m->c > 0 ? (up ? 0 : -1) : (up ? 1 : 0);
      r = poly_add(s, r, scale(s, poly_add(s, of(s, b->kid[0]), poly_num(s, shift)), m->c));
      any = true;
    } else {
      r = poly_add(s, r, mono_poly(s, m));
    }
  }
  return any ? r : NULL;
}

/* The lone factor of a monomial c·f(e) with f non-decreasing (⌈⌉, ⌊⌋, log₂), else NULL. */
static const ir_node *lone_monotone(const mono *m) {
  const ir_node *b = lone_factor(m);
  return b && (b->op == IR_CEIL || b->op == IR_FLOOR || b->op == IR_LOG2) ? b : NULL;
}

bool poly_monotone_pair(simp *s, const poly *p, int k, const ir_node **a, const ir_node **b,
                        poly **rest) {
  for (int i = 0; i < p->n; i++)
    for (int j = 0; j < p->n; j++) {
      const ir_node *fa = lone_monotone(&p->m[i]), *fb = lone_monotone(&p->m[j]);
      if (!fa || !fb || fa->op != fb->op || !(p->m[i].c > 0 && p->m[j].c < 0) || k-- > 0)
        continue;
      /* d·(f(a) − f(b)), d the smaller magnitude; the rest keeps the other's excess */
      double d = fmin(p->m[i].c, -p->m[j].c);
      poly *pair = poly_add(s, scale(s, mono_poly(s, &p->m[i]), d / p->m[i].c),
                            scale(s, mono_poly(s, &p->m[j]), d / -p->m[j].c));
      *a = fa->kid[0], *b = fb->kid[0], *rest = poly_sub(s, p, pair);
      return true;
    }
  return false;
}

