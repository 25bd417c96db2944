/* simplify.c — the symbolic engine: the form the papers derive by hand. ∥ is pushed into
 * the τ of the transfers (o and p unaffected, a channel-scoped ∥ only on its channel,
 * L(m,a) ∥ L(m,b) = L(m,a+b)); a cost becomes scalar coefficients (polys) times cost
 * atoms, like terms combined, in canonical order; a sum is split by linearity, its
 * index-free factors pulled out, its index shifted to the papers' shape, and closed when a
 * closed form exists; assumptions substitute (m = k·S), name powers of two (P = 2^p) and
 * bound variables, which decides min, max and if. Nothing depends on the values of the
 * parameters, and a sum with symbolic bounds is never unrolled.
 * Requires: lowered IR. Guarantees: the same value for every valuation that satisfies
 * the assumptions. */
#include "simplify/simplify.h"
#include "print/print.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Concrete sums up to this many values are written out when unrolling, within
 * --max-unroll (unroll_begin); the sums beyond it are kept. */
#define UNROLL_MAX 64

typedef struct subst {
  sym var;
  poly *value;
} subst;

typedef struct pow2 {
  sym big, expo; /* big = 2^expo */
} pow2;

typedef struct bound {
  sym var;
  poly *lo, *hi; /* NULL when open */
} bound;

typedef simp_term term;

typedef struct lin {
  term *t;
  int n;
} lin;

typedef struct par_scope {
  sym ch; /* NULL: every channel */
  poly *a;
  const struct par_scope *up;
} par_scope;

/* An assumed order of two costs (L[net](m,1) >= L[shm](m,Q−1)): decides their max. */
typedef struct order {
  ir_node *big, *small;
} order;

struct simp {
  tlop_ctx *ctx;
  arena *ar;
  order *orders;
  size_t norders, orders_cap;
  bool expand, unroll;
  bool quiet; /* a case's session: its facts' problems are not reported */
  char **error; /* set: the first problem of its facts is kept there, not reported */
  double unrolled; /* terms of the sums being written out around the current node */
  sym default_ch;
  subst *subs;
  size_t nsubs, subs_cap;
  pow2 *pows;
  size_t npows, pows_cap;
  bound *bounds; /* assumptions, then the indices of the sums being walked */
  size_t nbounds, bounds_cap;
  sym *ints;
  size_t nints, ints_cap;
  sym *fragile; /* atoms of kept lets whose value may fail (not defined everywhere) */
  size_t nfragile, fragile_cap;
  poly **scoped; /* counts of the channel-scoped ∥ kept whole around the node: evaluated,
                    each may multiply the τ of its transfers */
  size_t nscoped, scoped_cap;
  ptrmap memo; /* scalar node that uses no index in scope → poly */
  ptrmap let_values; /* the values of the kept lets, each an atom in memo */
  int sums;    /* sums being walked */
  int depth;   /* of the proof search */
  unsigned facts; /* the sign_facts of the sign proof so far */
};

arena *simp_arena(simp *s) { return s->ar; }
tlop_ctx *simp_ctx(simp *s) { return s->ctx; }

static poly *scalar(simp *s, const ir_node *n);
static poly *scalar_of(simp *s, const ir_node *n) { return scalar(s, n); }
static lin norm(simp *s, const ir_node *n, const par_scope *par);
static ir_node *extremum(simp *s, const ir_node *n, const par_scope *par);

/* ---- variables: substitutions, powers of two, bounds, integers ---- */

static const subst *subst_of(const simp *s, sym v) {
  for (size_t i = s->nsubs; i-- > 0;)
    if (s->subs[i].var == v)
      return &s->subs[i];
  return NULL;
}

static const bound *bound_of(const simp *s, sym v) {
  for (size_t i = s->nbounds; i-- > 0;)
    if (s->bounds[i].var == v)
      return &s->bounds[i];
  return NULL;
}

static bool is_int_base(simp *s, const ir_node *b) {
  if (b->op == IR_CEIL || b->op == IR_FLOOR)
    return true;
  if (b->op != IR_VAR)
    return false;
  for (size_t i = 0; i < s->nints; i++)
    if (s->ints[i] == b->name)
      return true;
  return false;
}

bool simp_is_integer(simp *s, const poly *p) { return poly_is_integer(p, is_int_base, s); }

/* Does n use an index of the sums being walked (so its form depends on the scope)? The
 * bounds of the assumptions, first, hold everywhere. */
static bool uses_scope(const simp *s, const ir_node *n) {
  for (size_t i = s->nbounds - (size_t)s->sums; i < s->nbounds; i++)
    if (ir_mentions(n, s->bounds[i].var))
      return true;
  return false;
}

/* A sum's index hides any substitution of a variable of the same name in its body. */
static void push_index(simp *s, sym idx, poly *lo, poly *hi, bool integer) {
  bound b = {idx, lo, hi};
  VEC_PUSH(s->bounds, s->nbounds, s->bounds_cap, b);
  VEC_PUSH(s->ints, s->nints, s->ints_cap, integer ? idx : NULL);
  subst hide = {idx, NULL};
  VEC_PUSH(s->subs, s->nsubs, s->subs_cap, hide);
  s->sums++;
}

static void pop_index(simp *s) {
  s->sums--;
  s->nbounds--;
  s->nints--;
  s->nsubs--;
}

/* One value of an unrolled sum: the index is in scope (so nothing using it is memoized)
 * and stands for the number. */
static void unroll_push(simp *s, sym idx, double v) {
  poly *p = poly_num(s, v);
  push_index(s, idx, p, p, v == floor(v));
  s->subs[s->nsubs - 1].value = p;
}

static void unroll_pop(simp *s) { pop_index(s); }

/* Whether a sum over lo..hi has no values (numbers, hi < lo); else whether its closed
 * forms apply: whole bounds and at least no values (hi − lo + 1 ≥ 0). */
static bool range_empty(simp *s, const poly *lo, const poly *hi, bool *closable) {
  double a, b;
  if (poly_is_num(lo, &a) && poly_is_num(hi, &b) && b < a)
    return true;
  *closable = simp_is_integer(s, lo) && simp_is_integer(s, hi) &&
              simp_nonneg(s, poly_add(s, poly_sub(s, hi, lo), poly_num(s, 1)));
  return false;
}

/* Whether a sum over lo..hi may be written out: numbers a..b, at most UNROLL_MAX values. */
static bool unrollable(simp *s, const poly *lo, const poly *hi, double *a, double *b) {
  return s->unroll && poly_is_num(lo, a) && poly_is_num(hi, b) && *b - *a < UNROLL_MAX;
}

/* Whether the sum over a..b whose body, the index a symbol, has the normal form `body` is
 * written out; if so, its values join s->unrolled until unroll_end. Its values times the
 * body's terms, what it writes out, stay within --max-unroll: simplifying the result
 * again decides the same (a kept sum's body, merged with others, only grows). So do the
 * values of the nest of sums being written out, which bounds the work where terms
 * collapse. A body without the index is not written out: it is count·body. */
static bool unroll_begin(simp *s, double a, double b, const ir_node *body, int terms, sym idx) {
  double values = fmax(b - a + 1, 1), nest = s->unrolled * values;
  if (!ir_uses(body, idx) || values * fmax(terms, 1) > s->ctx->max_unroll ||
      nest > s->ctx->max_unroll)
    return false;
  s->unrolled = nest;
  return true;
}

static void unroll_end(simp *s, double a, double b) { s->unrolled /= fmax(b - a + 1, 1); }

/* ---- the proof of p ≥ 0 that decides min, max, if and closed sums ---- */

/* ok, noting that its proof used `fact` */
static bool with_fact(simp *s, unsigned fact, bool ok) {
  if (ok)
    s->facts |= fact;
  return ok;
}

/* ok; a failed attempt's facts are dropped (those from before it were `saved`) */
static bool kept(simp *s, unsigned saved, bool ok) {
  if (!ok)
    s->facts = saved;
  return ok;
}

/* A factor known to be ≥ 0 (> 0 with `strict`): a variable bounded below by 0, ⌈x⌉ or
 * ⌊x⌋ of an x ≥ 0, log₂x of an x ≥ 1 (log(g, x) too, g > 1), or a sum of terms ≥ 0. */
static bool positive_var(simp *s, const ir_node *b, bool strict) {
  double lo;
  switch (b->op) {
  case IR_VAR: {
    const bound *bd = bound_of(s, b->name);
    if (!bd || !bd->lo)
      return false;
    if (poly_is_num(bd->lo, &lo))
      return strict ? lo > 0 : lo >= 0;
    return strict ? simp_positive(s, bd->lo) : simp_nonneg(s, bd->lo);
  }
  case IR_CEIL:
    return with_fact(s, SIGN_ROUNDING, (strict ? simp_positive : simp_nonneg)(s, scalar(s, b->kid[0])));
  case IR_FLOOR:
    return with_fact(s, SIGN_ROUNDING,
                     simp_nonneg(s, poly_sub(s, scalar(s, b->kid[0]), poly_num(s, strict ? 1 : 0))));
  case IR_LOG2:
    return with_fact(s, SIGN_MONOTONE, (strict ? simp_positive : simp_nonneg)(
                                           s, poly_sub(s, scalar(s, b->kid[0]), poly_num(s, 1))));
  case IR_LOG: /* log(g, x) = log₂x / log₂g: of the sign of log₂x where g > 1 */
    return with_fact(s, SIGN_MONOTONE,
                     simp_positive(s, poly_sub(s, scalar(s, b->kid[0]), poly_num(s, 1))) &&
                         (strict ? simp_positive : simp_nonneg)(
                             s, poly_sub(s, scalar(s, b->kid[1]), poly_num(s, 1))));
  case IR_SUM: /* a sum of terms ≥ 0 is ≥ 0 however many (none: 0); its index unbounded here */
    return !strict && simp_nonneg(s, scalar(s, b->kid[2]));
  case IR_MAXOVER: { /* one of its terms (it has one, or fails): of their sign, in its range */
    poly *lo = scalar(s, b->kid[0]);
    push_index(s, b->name, lo, scalar(s, b->kid[1]), simp_is_integer(s, lo));
    bool ok = (strict ? simp_positive : simp_nonneg)(s, scalar(s, b->kid[2]));
    pop_index(s);
    return with_fact(s, SIGN_MAXIMUM, ok);
  }
  case IR_MAX: /* the count of a sum's values, max(hi − lo + 1, 0) */
    return (strict ? simp_positive : simp_nonneg)(s, scalar(s, b->kid[1])) ||
           (strict ? simp_positive : simp_nonneg)(s, scalar(s, b->kid[0]));
  default:
    return false;
  }
}

/* Every monomial ≥ 0 (and one > 0 with `strict`): read off the expanded IR (a sum of
 * products and quotients). */
static bool terms_sign(simp *s, const ir_node *t, bool strict) {
  switch (t->op) {
  case IR_ADD:
    if (!strict)
      return terms_sign(s, t->kid[0], false) && terms_sign(s, t->kid[1], false);
    unsigned saved = s->facts; /* read before the attempt that may add to them */
    return kept(s, saved, terms_sign(s, t->kid[0], true) && terms_sign(s, t->kid[1], false)) ||
           (terms_sign(s, t->kid[0], false) && terms_sign(s, t->kid[1], true));
  case IR_MUL:
  case IR_DIV:
    return terms_sign(s, t->kid[0], strict) && terms_sign(s, t->kid[1], strict);
  case IR_NUM:
    return strict ? t->num > 0 : t->num >= 0;
  case IR_POW:
    return (t->kid[0]->op == IR_NUM && t->kid[0]->num > 0) || positive_var(s, t->kid[0], strict);
  default:
    return positive_var(s, t, strict);
  }
}

/* Linear in a bounded variable: the worst case is at one of its bounds. */
static bool linear_sign(simp *s, const poly *p, bool strict) {
  sym vars[16];
  int nv = poly_vars(p, vars, 16);
  for (int i = 0; i < nv; i++) {
    const bound *bd = bound_of(s, vars[i]);
    double a;
    poly *rest;
    if (!bd || !poly_linear_in(s, p, vars[i], &a, &rest))
      continue;
    poly *at = a > 0 ? bd->lo : bd->hi;
    if (at && (strict ? simp_positive : simp_nonneg)(s, poly_add(s, rest, poly_mul(s, poly_num(s, a), at))))
      return true;
  }
  return false;
}

/* a·log₂x + c with a > 0 and c numbers: log₂ increases, so it is ≥ 0 (> 0) where x is at
 * least (above) 2^(−c/a). */
static bool log_sign(simp *s, const poly *p, bool strict) {
  double c = poly_constant(p), a = 1;
  const ir_node *t = poly_to_ir(s, poly_sub(s, p, poly_num(s, c)), false);
  if (t->op == IR_MUL && t->kid[0]->op == IR_NUM)
    a = t->kid[0]->num, t = t->kid[1];
  if (t->op != IR_LOG2 || !(a > 0))
    return false;
  poly *d = poly_sub(s, scalar(s, t->kid[0]), poly_num(s, exp2(-c / a)));
  return with_fact(s, SIGN_MONOTONE, (strict ? simp_positive : simp_nonneg)(s, d));
}

/* A product of factors (the common monomial taken out: 2m·(P − 1)/S) has the sign of its
 * factors, each decided on its own. */
static bool factors_sign(simp *s, const ir_node *t, bool strict) {
  if (t->op != IR_MUL && t->op != IR_DIV)
    return false;
  bool ok = true;
  for (int i = 0; i < 2 && ok; i++) {
    const ir_node *f = t->kid[i];
    ok = f->op == IR_MUL || f->op == IR_DIV ? factors_sign(s, f, strict)
                                             : (strict ? simp_positive : simp_nonneg)(s, scalar(s, f));
  }
  return ok;
}

bool simp_positive(simp *s, const poly *p) {
  double v;
  if (poly_is_num(p, &v))
    return v > 0;
  if (s->depth > 12)
    return false;
  s->depth++;
  unsigned saved = s->facts;
  bool ok = kept(s, saved, terms_sign(s, poly_to_ir(s, p, false), true)) ||
            kept(s, saved, factors_sign(s, poly_to_ir(s, p, true), true)) ||
            kept(s, saved, linear_sign(s, p, true)) || kept(s, saved, log_sign(s, p, true));
  s->depth--;
  return ok;
}

bool simp_nonneg(simp *s, const poly *p) {
  double v;
  if (poly_is_num(p, &v))
    return v >= 0;
  if (s->depth > 12)
    return false;
  s->depth++;
  unsigned saved = s->facts;
  bool ok = kept(s, saved, terms_sign(s, poly_to_ir(s, p, false), false));
  /* c1·2^E1 + c2·2^E2 ≥ 0 with c1 > 0 > c2  ⇔  E1 − E2 ≥ log2(−c2/c1) */
  double c1, c2;
  poly *e1, *e2;
  if (!ok && poly_two_powers(s, p, &c1, &e1, &c2, &e2) && c1 * c2 < 0) {
    if (c1 < 0) {
      double ct = c1;
      poly *et = e1;
      c1 = c2, e1 = e2, c2 = ct, e2 = et;
    }
    ok = kept(s, saved, with_fact(s, SIGN_MONOTONE,
                                  simp_nonneg(s, poly_sub(s, poly_sub(s, e1, e2), poly_num(s, log2(-c2 / c1))))));
  }
  if (!ok)
    ok = kept(s, saved, linear_sign(s, p, false)) || kept(s, saved, log_sign(s, p, false));
  if (!ok)
    ok = kept(s, saved, factors_sign(s, poly_to_ir(s, p, true), false));
  if (!ok) { /* ⌈x⌉ ≥ x, ⌊x⌋ ≤ x: the bound of each rounding, by its coefficient's sign */
    poly *lower = poly_round_lower(s, p, scalar_of);
    ok = lower && kept(s, saved, with_fact(s, SIGN_ROUNDING, simp_nonneg(s, lower)));
  }
  /* f(a) − f(b) ≥ 0 where a ≥ b, f non-decreasing: ⌈log₂(P + 1)⌉ ≥ ⌈log₂P⌉ */
  const ir_node *a, *b;
  poly *rest;
  for (int k = 0; !ok && poly_monotone_pair(s, p, k, &a, &b, &rest); k++)
    ok = kept(s, saved, with_fact(s, SIGN_MONOTONE,
                                  simp_nonneg(s, poly_sub(s, scalar_of(s, a), scalar_of(s, b))) &&
                                      simp_nonneg(s, rest)));
  s->depth--;
  return ok;
}

bool simp_nonneg_facts(simp *s, const poly *p, unsigned *facts) {
  s->facts = 0;
  bool ok = simp_nonneg(s, p);
  *facts = ok ? s->facts : 0;
  return ok;
}

/* For integers a < b ⇔ b − a − 1 ≥ 0. */
int simp_compare(simp *s, const poly *a, const poly *b) {
  poly *d = poly_sub(s, a, b);
  if (simp_nonneg(s, d))
    return 1;
  if (simp_positive(s, poly_sub(s, b, a)) ||
      (simp_is_integer(s, d) && simp_nonneg(s, poly_sub(s, poly_sub(s, b, a), poly_num(s, 1)))))
    return -1;
  return 0;
}

/* ---- canonical IR of polys (with the powers of two named again) ---- */

static poly *renamed(simp *s, const poly *p) {
  for (size_t i = 0; i < s->npows; i++)
    p = poly_unpow2(s, p, s->pows[i].expo, ir_var(s->ctx, s->pows[i].big));
  return (poly *)p;
}

ir_node *simp_canon(simp *s, const poly *p) { return poly_to_ir(s, renamed(s, p), !s->expand); }

/* ---- scalars ---- */

static poly *opaque(simp *s, ir_op op, const ir_node *n, poly *a, poly *b) {
  ir_node *x = a ? simp_canon(s, a) : NULL, *y = b ? simp_canon(s, b) : NULL;
  /* min and max are commutative: one order for both */
  if ((op == IR_MIN || op == IR_MAX) && ir_cmp(x, y) > 0) {
    ir_node *t = x;
    x = y, y = t;
  }
  return poly_factor(s, ir_make(s->ctx, op, n->name, 0, x, y, NULL));
}

static poly *truth(simp *s, bool v) { return poly_num(s, v ? 1 : 0); }

/* Is v named by an assumption: bounded, substituted, or in another's bound? */
static bool assumed_name(const simp *s, sym v) {
  if (bound_of(s, v) || subst_of(s, v))
    return true;
  for (size_t i = 0; i < s->nbounds; i++)
    if ((s->bounds[i].lo && poly_uses(s->bounds[i].lo, v)) ||
        (s->bounds[i].hi && poly_uses(s->bounds[i].hi, v)))
      return true;
  return false;
}

/* The canonical index of a sum: i, else i′, i″ … the first its body does not use and
 * no enclosing sum takes, so that equal sums are one node. While simplifying, the indices
 * of enclosing sums are taken: a ∥ factor from outside may use them, and an output that
 * keeps both sums must tell them apart. */
static sym canonical_index(const simp *s, const ir_node *sum) {
  sym want = ctx_sym(s->ctx, "i");
  while (assumed_name(s, want) || (want != sum->name && ir_uses(sum->kid[2], want)))
    want = ir_primed(s->ctx, want);
  return want;
}

static const ir_node *canonical_sum(simp *s, const ir_node *n) {
  sym want = canonical_index(s, n);
  if (want == n->name)
    return n;
  /* a sum inside over `want` would hide this one's index (the parser renames such a
   * sum): it moves aside, and takes its own canonical name when it is simplified */
  ir_node *body = n->kid[2];
  sym aside = ir_primed(s->ctx, want);
  while (ir_uses(body, aside))
    aside = ir_primed(s->ctx, aside);
  body = ir_rebind(s->ctx, body, want, aside);
  body = ir_subst(s->ctx, body, n->name, ir_var(s->ctx, want));
  return ir_make(s->ctx, (ir_op)n->op, want, 0, n->kid[0], n->kid[1], body);
}

/* ---- what a repeat or a sum with no trips leaves unevaluated ---- */

/* A parameter: a variable that is neither a sum index nor given a value nor bounded by an
 * assumption. Deciding what is defined, parameters are the sizes and counts of the models:
 * > 0, and a count ≥ 1. */
static bool parameter(simp *s, const ir_node *b) {
  return b->op == IR_VAR && !bound_of(s, b->name) && !subst_of(s, b->name);
}

static bool positive_factor(simp *s, const ir_node *b, int e) {
  (void)e;
  return parameter(s, b) || positive_var(s, b, true);
}

static bool count_factor(simp *s, const ir_node *b, int e) {
  return e > 0 && (parameter(s, b) || simp_nonneg(s, poly_sub(s, scalar(s, b), poly_num(s, 1))));
}

static bool surely_positive(simp *s, const poly *p) {
  return simp_positive(s, p) || poly_monomial_over(s, p, DBL_MIN, false, positive_factor);
}

static bool surely_size(simp *s, const poly *m) { return simp_nonneg(s, m) || surely_positive(s, m); }

/* A τ ≥ 1: proved, or a product of counts. */
static bool surely_concurrency(simp *s, const poly *tau) {
  return simp_nonneg(s, poly_sub(s, tau, poly_num(s, 1))) ||
         poly_monomial_over(s, tau, 1, true, count_factor);
}

static bool defined_sum(simp *s, const ir_node *n, ptrmap *proven);

/* Whether n, a normal form, evaluates at every valuation the assumptions allow: divisions
 * by what is not 0, logarithms of what is > 0, powers of a positive number or to a whole
 * exponent ≥ 0, transfers of sizes ≥ 0 and τ ≥ 1. False when it cannot tell. (Overflow
 * is not considered.) */
static bool defined_everywhere(simp *s, const ir_node *n, ptrmap *proven) {
  if (ptrmap_get(proven, n))
    return true; /* a DAG: each node once */
  bool ok;
  switch (n->op) {
  case IR_NUM: return isfinite(n->num);
  case IR_VAR:
    for (size_t i = 0; i < s->nfragile; i++)
      if (s->fragile[i] == n->name)
        return false;
    return true;
  case IR_DIV: {
    poly *d = scalar(s, n->kid[1]);
    ok = surely_positive(s, d) || surely_positive(s, poly_negate(s, d));
    break;
  }
  case IR_LOG2: ok = surely_positive(s, scalar(s, n->kid[0])); break;
  case IR_POW:
    ok = (n->kid[0]->op == IR_NUM && n->kid[0]->num > 0) ||
         (n->kid[1]->op == IR_NUM && n->kid[1]->num >= 0 && n->kid[1]->num == floor(n->kid[1]->num));
    break;
  case IR_L:
  case IR_TX:
  case IR_GAMMA: {
    poly *tau = scalar(s, n->kid[1]);
    for (size_t i = 0; i < s->nscoped && n->op != IR_GAMMA; i++)
      tau = poly_mul(s, tau, s->scoped[i]);
    ok = surely_concurrency(s, tau) && surely_size(s, scalar(s, n->kid[0]));
    break;
  }
  case IR_O:
  case IR_PACK: ok = surely_size(s, scalar(s, n->kid[0])); break;
  case IR_SUM: return defined_sum(s, n, proven);
  case IR_ADD: case IR_SUB: case IR_MUL: case IR_NEG: case IR_MIN: case IR_MAX: case IR_ABS:
  case IR_CEIL: case IR_FLOOR: case IR_LT: case IR_LE: case IR_GT: case IR_GE: case IR_EQ:
  case IR_NE: case IR_AND: case IR_OR: case IR_NOT: case IR_IF: case IR_CONC: ok = true; break;
  default: return false;
  }
  for (int i = 0; i < n->nkids && ok; i++)
    ok = defined_everywhere(s, n->kid[i], proven);
  if (ok && !uses_scope(s, n)) /* what an index's bounds proved holds only in its sum */
    ptrmap_put(proven, n, (void *)n);
  return ok;
}

/* A sum evaluates its body only for indices within its bounds. */
static bool defined_sum(simp *s, const ir_node *n, ptrmap *proven) {
  if (!defined_everywhere(s, n->kid[0], proven) || !defined_everywhere(s, n->kid[1], proven))
    return false;
  poly *lo = scalar(s, n->kid[0]);
  push_index(s, n->name, lo, scalar(s, n->kid[1]), simp_is_integer(s, lo));
  bool ok = defined_everywhere(s, n->kid[2], proven);
  pop_index(s);
  return ok;
}

static bool never_fails(simp *s, const ir_node *n) {
  ptrmap proven = {0};
  bool ok = defined_everywhere(s, n, &proven);
  ptrmap_free(&proven);
  return ok;
}

/* count × body is written count·body, its body taken out, when the count is a number
 * (0 × body is no term), provably ≥ 1, or the body is defined everywhere: at count 0 the
 * body is not evaluated, and 0·body would fail where the body does. Otherwise the repeat
 * stays. */
static bool body_taken_out(simp *s, const poly *count, const ir_node *body) {
  double v;
  return poly_is_num(count, &v) || simp_nonneg(s, poly_sub(s, count, poly_num(s, 1))) ||
         never_fails(s, body);
}

/* A sum whose terms fail where it may be empty stays whole (for the same reason). */
static bool sum_opened(simp *s, const poly *lo, const poly *hi, const ir_node *body) {
  return simp_nonneg(s, poly_sub(s, hi, lo)) || never_fails(s, body);
}

/* The number of values of a sum over whole bounds lo..hi, max(hi − lo + 1, 0): Σ c =
 * count·c when c is free of the index though the closed forms do not apply (hi − lo + 1
 * not known ≥ 0); the max goes where the bounds decide it. */
static poly *values_count(simp *s, const poly *lo, const poly *hi) {
  tlop_ctx *ctx = s->ctx;
  ir_node *span = ir_bin(ctx, IR_SUB, simp_canon(s, hi), simp_canon(s, lo));
  ir_node *values = ir_bin(ctx, IR_ADD, span, ir_num(ctx, 1));
  return scalar(s, ir_bin(ctx, IR_MAX, values, ir_num(ctx, 0)));
}

/* Σ_{idx=lo}^{hi} c with c not closed by the closed forms: count·c when c is free of the
 * index and the bounds are whole, else the sum kept as a factor. */
static poly *open_sum(simp *s, sym idx, const poly *lo, const poly *hi, poly *c) {
  if (!poly_uses(c, idx) && simp_is_integer(s, lo) && simp_is_integer(s, hi))
    return poly_mul(s, values_count(s, lo, hi), c);
  return poly_factor(s, ir_make(s->ctx, IR_SUM, idx, 0, simp_canon(s, lo), simp_canon(s, hi),
                                simp_canon(s, c)));
}

static poly *scalar_sum(simp *s, const ir_node *n) {
  n = canonical_sum(s, n);
  sym idx = n->name;
  poly *lo = scalar(s, n->kid[0]), *hi = scalar(s, n->kid[1]);
  double a, b;
  bool closable;
  if (range_empty(s, lo, hi, &closable))
    return poly_num(s, 0);
  push_index(s, idx, lo, hi, simp_is_integer(s, lo));
  poly *body = scalar(s, n->kid[2]);
  ir_node *body_ir = simp_canon(s, body);
  bool opened = sum_opened(s, lo, hi, body_ir);
  pop_index(s);
  if (unrollable(s, lo, hi, &a, &b) && unroll_begin(s, a, b, body_ir, poly_terms(body), idx)) {
    poly *r = poly_num(s, 0);
    for (double i = a; i <= b; i++) {
      unroll_push(s, idx, i);
      r = poly_add(s, r, scalar(s, n->kid[2]));
      unroll_pop(s);
    }
    unroll_end(s, a, b);
    return r;
  }
  if (closable && opened)
    return poly_sum(s, idx, lo, hi, body);
  if (opened)
    return open_sum(s, idx, lo, hi, body);
  return poly_factor(s, ir_make(s->ctx, IR_SUM, idx, 0, simp_canon(s, lo), simp_canon(s, hi), simp_canon(s, body)));
}

/* Whether a maximum over lo..hi may be written out: whole numbers a ≤ b (else it fails),
 * few enough to unroll. */
static bool max_written_out(simp *s, const poly *lo, const poly *hi, double *a, double *b) {
  return unrollable(s, lo, hi, a, b) && *a == floor(*a) && *b == floor(*b) && *a <= *b;
}

/* A maximum over a range: written out as max(t₀, t₁, …) in the loop's order where its
 * bounds are whole numbers a ≤ b within --max-unroll, else kept, what is free of its
 * index taken out of it (below). Its range's facts hold in its body. */
static poly *scalar_maxover(simp *s, const ir_node *n) {
  n = canonical_sum(s, n);
  sym idx = n->name;
  poly *lo = scalar(s, n->kid[0]), *hi = scalar(s, n->kid[1]);
  push_index(s, idx, lo, hi, simp_is_integer(s, lo));
  poly *body = scalar(s, n->kid[2]);
  ir_node *body_ir = simp_canon(s, body);
  pop_index(s);
  double a, b;
  bool small = max_written_out(s, lo, hi, &a, &b);
  if (small && !poly_uses(body, idx))
    return body;
  if (small && unroll_begin(s, a, b, body_ir, poly_terms(body), idx)) {
    ir_node *r = NULL;
    for (double i = a; i <= b; i++) {
      unroll_push(s, idx, i);
      ir_node *t = simp_canon(s, scalar(s, n->kid[2]));
      unroll_pop(s);
      r = r ? ir_bin(s->ctx, IR_MAX, r, t) : t;
    }
    unroll_end(s, a, b);
    return scalar(s, r);
  }
  /* max(c + e) = c + max e, the terms c free of the index (the range left to fail); then
   * max(c·e) = c·max e where c ≥ 0 is proved, c free of the index */
  bool indexed = poly_uses(body, idx);
  poly *added = indexed ? poly_free_of(s, body, idx) : poly_num(s, 0);
  poly *varying = poly_sub(s, body, added), *factor, *dep;
  if (indexed && poly_split(s, varying, idx, &factor, &dep) && simp_nonneg(s, factor))
    varying = dep;
  else
    factor = poly_num(s, 1);
  ir_node *kept = ir_make(s->ctx, IR_MAXOVER, idx, 0, simp_canon(s, lo), simp_canon(s, hi),
                          simp_canon(s, varying));
  return poly_add(s, added, poly_mul(s, factor, poly_factor(s, kept)));
}

static poly *scalar_var(simp *s, const ir_node *n) {
  const subst *sb = subst_of(s, n->name);
  if (sb && !sb->value)
    return poly_factor(s, (ir_node *)n); /* a sum index */
  if (sb)
    return sb->value;
  for (size_t i = 0; i < s->npows; i++)
    if (s->pows[i].big == n->name)
      return poly_pow(s, poly_num(s, 2), poly_factor(s, ir_var(s->ctx, s->pows[i].expo)));
  return poly_factor(s, (ir_node *)n);
}

/* Decided comparisons and logic: a truth value, or NULL. */
static poly *decide(simp *s, ir_op op, poly *a, poly *b) {
  int c;
  double x, y;
  switch (op) {
  case IR_GE: c = simp_compare(s, a, b); return c ? truth(s, c > 0) : NULL;
  case IR_LT: c = simp_compare(s, a, b); return c ? truth(s, c < 0) : NULL;
  case IR_LE: c = simp_compare(s, b, a); return c ? truth(s, c > 0) : NULL;
  case IR_GT: c = simp_compare(s, b, a); return c ? truth(s, c < 0) : NULL;
  case IR_EQ:
  case IR_NE: {
    poly *d = poly_sub(s, a, b);
    bool differ = poly_is_num(d, &x) ? x != 0 : simp_compare(s, a, b) < 0 || simp_compare(s, b, a) < 0;
    if (poly_is_zero(d) || differ)
      return truth(s, poly_is_zero(d) == (op == IR_EQ));
    return NULL;
  }
  case IR_NOT: return poly_is_num(a, &x) ? truth(s, x == 0) : NULL;
  case IR_AND:
    if ((poly_is_num(a, &x) && x == 0) || (poly_is_num(b, &y) && y == 0))
      return truth(s, false);
    /* true and c = c: a truth value printed as a number would not check as one */
    return poly_is_num(a, &x) ? b : poly_is_num(b, &y) ? a : NULL;
  case IR_OR:
    if ((poly_is_num(a, &x) && x != 0) || (poly_is_num(b, &y) && y != 0))
      return truth(s, true);
    return poly_is_num(a, &x) ? b : poly_is_num(b, &y) ? a : NULL;
  default: return NULL;
  }
}

/* a / d, dividing by each factor of d in turn so that a denominator (a + 1)^2 keeps its
 * base rather than being multiplied out before the division. A number to a power is
 * divided by as a number: 0^1 is a/0, kept as written, not a/0 computed as a·∞. */
/* A number to a power out of range (7^729): *b and *e. */
static bool power_out_of_range(simp *s, const ir_node *d, double *b, double *e) {
  return d->op == IR_POW && poly_is_num(scalar(s, d->kid[0]), b) &&
         poly_is_num(scalar(s, d->kid[1]), e) && !isfinite(ir_apply(IR_POW, *b, *e)) &&
         isfinite(*b) && *b != 0 && isfinite(*e) && (*b > 0 || *e == floor(*e));
}

/* A product or quotient led by such a power: (2^2930/2^k)/y. */
static bool led_out_of_range(simp *s, const ir_node *d) {
  double b, e;
  if (power_out_of_range(s, d, &b, &e))
    return true;
  return (d->op == IR_MUL || d->op == IR_DIV) &&
         (led_out_of_range(s, d->kid[0]) || (d->op == IR_MUL && led_out_of_range(s, d->kid[1])));
}

static poly *divide(simp *s, poly *a, const ir_node *d) {
  /* a kept let's value is its atom, not the factors it is written with */
  if (ptrmap_get(&s->let_values, d))
    return poly_div(s, a, scalar(s, d));
  if (d->op == IR_MUL)
    return divide(s, divide(s, a, d->kid[0]), d->kid[1]);
  double b, e;
  /* a number to a power out of range (7^729) divides as the evaluator divides by it, in
   * the wide range: a times the reciprocal 7^−729, which may underflow to 0; and a/(x/y)
   * with such an x is a·y/x (a y of 0 stays, to fail) */
  if (power_out_of_range(s, d, &b, &e)) {
    double r = ir_apply(IR_POW, b, -e);
    /* a positive base: times b^−e, an exponential the evaluator computes in the wide
     * range, which cancels b^e in a (2^i·m/2^i at i = 2^21 is m) */
    if (b > 0 && b != 1)
      return poly_mul(s, a, poly_power_of(s, b, -e));
    /* a reciprocal that underflows to 0 keeps the quotient: (−7)^1001 is not 0 where
     * something is divided by it */
    if (r == 0 && !poly_is_zero(a))
      return poly_factor(s, ir_bin(s->ctx, IR_DIV, simp_canon(s, a),
                                   ir_bin(s->ctx, IR_POW, ir_num(s->ctx, b), ir_num(s->ctx, e))));
    return poly_mul(s, a, poly_num(s, r));
  }
  if (d->op == IR_DIV && led_out_of_range(s, d->kid[0]) && !poly_is_zero(scalar(s, d->kid[1])))
    return divide(s, poly_mul(s, a, scalar(s, d->kid[1])), d->kid[0]);
  double k = d->op == IR_POW && d->kid[1]->op == IR_NUM ? d->kid[1]->num : 0, v;
  if (k == floor(k) && k > 0 && k <= 64 && !poly_is_num(scalar(s, d->kid[0]), &v))
    return poly_mul(s, a, poly_pow(s, scalar(s, d->kid[0]), poly_num(s, -k)));
  return poly_div(s, a, scalar(s, d));
}

static poly *scalar_op(simp *s, const ir_node *n, poly *a, poly *b) {
  poly *r;
  switch (n->op) {
  case IR_ADD: return poly_add(s, a, b);
  case IR_SUB: return poly_sub(s, a, b);
  case IR_MUL: return poly_mul(s, a, b);
  case IR_DIV: return divide(s, a, n->kid[1]);
  case IR_NEG: return poly_sub(s, poly_num(s, 0), a);
  case IR_POW: return poly_pow(s, a, b);
  case IR_LOG2: {
    poly *rest;
    if (poly_log(s, a, 2, &r))
      return r;
    /* log₂(2P) = 1 + log₂P, so that ⌈log₂(2P)⌉ = 1 + ⌈log₂P⌉ below */
    r = poly_log_parts(s, a, 2, &rest);
    return r ? poly_add(s, r, opaque(s, IR_LOG2, n, rest, NULL)) : opaque(s, IR_LOG2, n, a, NULL);
  }
  case IR_LOG: {
    double base;
    return poly_is_num(a, &base) && base > 0 && base != 1 && poly_log(s, b, base, &r)
               ? r
               : opaque(s, IR_LOG, n, a, b);
  }
  case IR_CEIL:
  case IR_FLOOR: {
    if (simp_is_integer(s, a))
      return a;
    /* ⌈k + x⌉ = k + ⌈x⌉ for a whole k (the same for ⌊⌋) */
    double k = poly_constant(a);
    poly *whole = poly_num(s, k == floor(k) ? k : 0);
    return poly_add(s, whole, opaque(s, (ir_op)n->op, n, poly_sub(s, a, whole), NULL));
  }
  case IR_ABS:
    if (simp_nonneg(s, a))
      return a;
    if (simp_nonneg(s, poly_sub(s, poly_num(s, 0), a)))
      return poly_sub(s, poly_num(s, 0), a);
    return opaque(s, IR_ABS, n, a, NULL);
  case IR_MOD:
    /* a mod b = 0 when a is a whole multiple of b ≠ 0 (2^p mod 2^(i+1), i < p) */
    if (simp_positive(s, b) && simp_is_integer(s, poly_div(s, a, b)))
      return poly_num(s, 0);
    r = decide(s, IR_MOD, a, b);
    return r ? r : opaque(s, IR_MOD, n, a, b);
  case IR_MIN:
  case IR_MAX:
    if (simp_nonneg(s, poly_sub(s, b, a)))
      return n->op == IR_MIN ? a : b;
    if (simp_nonneg(s, poly_sub(s, a, b)))
      return n->op == IR_MIN ? b : a;
    return opaque(s, (ir_op)n->op, n, a, b);
  default:
    r = decide(s, (ir_op)n->op, a, b);
    return r ? r : opaque(s, (ir_op)n->op, n, a, b);
  }
}

static poly *scalar_repeat(simp *s, const ir_node *n) {
  poly *count = scalar(s, n->kid[0]), *body = scalar(s, n->kid[1]);
  ir_node *body_ir = simp_canon(s, body);
  if (body_taken_out(s, count, body_ir))
    return poly_mul(s, count, body);
  return poly_factor(s, ir_bin(s->ctx, IR_REPEAT, simp_canon(s, count), body_ir));
}

static poly *scalar(simp *s, const ir_node *n) {
  /* inside a sum, a sum's canonical index depends on the indices in scope */
  bool memo = !uses_scope(s, n) && !(ir_has_sum(n) && s->sums);
  poly *r = memo ? ptrmap_get(&s->memo, n) : NULL;
  if (r)
    return r;
  double x, y;
  switch (n->op) {
  case IR_NUM: r = poly_num(s, n->num); break;
  case IR_VAR: r = scalar_var(s, n); break;
  case IR_SUM: r = scalar_sum(s, n); break;
  case IR_MAXOVER: r = scalar_maxover(s, n); break;
  case IR_STAGE: r = scalar(s, n->kid[0]); break;
  case IR_REPEAT: r = scalar_repeat(s, n); break;
  /* a stage the interpreter prices (the prover writing out a sum of them) is one unknown:
   * its sends, placements and flows are not numbers to combine */
  case IR_MSGS:
  case IR_SCHED:
  case IR_FLOWS: r = poly_factor(s, (ir_node *)n); break;
  case IR_IF: {
    poly *c = scalar(s, n->kid[0]);
    if (poly_is_num(c, &x)) {
      r = scalar(s, n->kid[x != 0 ? 1 : 2]);
    } else {
      ir_node *t = simp_canon(s, scalar(s, n->kid[1])), *f = simp_canon(s, scalar(s, n->kid[2]));
      r = poly_factor(s, ir_make(s->ctx, IR_IF, NULL, 0, simp_canon(s, c), t, f));
    }
    break;
  }
  default: {
    poly *a = scalar(s, n->kid[0]);
    poly *b = n->nkids > 1 ? scalar(s, n->kid[1]) : NULL;
    if (poly_is_num(a, &x) && (!b || poly_is_num(b, &y))) {
      double v = ir_apply((ir_op)n->op, x, b ? y : 0);
      /* not a number (10^300 · 10^300, 1/0): kept as written, to fail where it is
       * evaluated, as it did, and not where a branch that is not taken holds it */
      ir_node *kept = ir_make(s->ctx, (ir_op)n->op, n->name, 0, ir_num(s->ctx, x),
                              b ? ir_num(s->ctx, y) : NULL, NULL);
      /* a power out of range is an exponential, as the evaluator's wide range has it
       * (0 B/2^−2929 is 0 B) */
      poly *p = n->op == IR_POW ? poly_number_pow(s, x, y) : poly_num(s, v);
      double pv;
      r = poly_is_num(p, &pv) && !isfinite(pv) ? poly_factor(s, kept) : p;
      break;
    }
    r = scalar_op(s, n, a, b);
  }
  }
  if (memo)
    ptrmap_put(&s->memo, n, r);
  return r;
}

poly *simp_poly(simp *s, const ir_node *n) { return scalar(s, n); }

/* ---- costs: linear combinations of atoms ---- */

/* The papers write the overhead first, then the transfers. */
static int atom_rank(const ir_node *a) {
  switch (a->op) {
  case IR_O: return 0;
  case IR_PACK: return 1;
  case IR_L: return 2;
  case IR_TX: return 3;
  case IR_GAMMA: return 4;
  default: return 5;
  }
}

static int atom_cmp(const ir_node *a, const ir_node *b) {
  if (!a || !b)
    return (a == NULL) - (b == NULL);
  int ra = atom_rank(a), rb = atom_rank(b);
  return ra != rb ? ra - rb : ir_cmp(a, b);
}

static int term_sort(const void *x, const void *y) {
  return atom_cmp(((const term *)x)->atom, ((const term *)y)->atom);
}

static lin collect(simp *s, term *t, int n) {
  qsort(t, (size_t)n, sizeof *t, term_sort);
  lin r = {arena_alloc(s->ar, (size_t)(n ? n : 1) * sizeof *t), 0};
  for (int i = 0; i < n; i++) {
    if (r.n && r.t[r.n - 1].atom == t[i].atom)
      r.t[r.n - 1].c = poly_add(s, r.t[r.n - 1].c, t[i].c);
    else
      r.t[r.n++] = t[i];
  }
  int k = 0;
  for (int i = 0; i < r.n; i++)
    if (!poly_is_zero(r.t[i].c))
      r.t[k++] = r.t[i];
  r.n = k;
  return r;
}

static lin lin_term(simp *s, ir_node *atom, poly *c) {
  if (atom && atom->op == IR_NUM) { /* a min or max of costs decided to a number */
    c = poly_mul(s, c, poly_num(s, atom->num));
    atom = NULL;
  }
  term *t = arena_alloc(s->ar, sizeof *t);
  t->atom = atom;
  t->c = c;
  return collect(s, t, 1);
}

/* Terms gathered for one collect: a long sum added one lin_add at a time would copy and
 * sort the growing sum at every step (n terms: n² copied). */
typedef struct terms {
  term *t;
  int n;
  size_t cap;
} terms;

static void terms_add(simp *s, terms *acc, lin b, double sign) {
  for (int i = 0; i < b.n; i++) {
    term t = {b.t[i].atom, sign == 1 ? b.t[i].c : poly_mul(s, poly_num(s, sign), b.t[i].c)};
    VEC_PUSH(acc->t, acc->n, acc->cap, t);
  }
}

static lin terms_done(simp *s, terms *acc) {
  lin r = acc->n ? collect(s, acc->t, acc->n) : (lin){0};
  free(acc->t);
  return r;
}

static lin lin_add(simp *s, lin a, lin b, double sign) {
  terms acc = {0};
  terms_add(s, &acc, a, 1);
  terms_add(s, &acc, b, sign);
  return terms_done(s, &acc);
}

static lin lin_scale(simp *s, lin a, poly *c) {
  term *t = arena_alloc(s->ar, (size_t)(a.n + 1) * sizeof *t);
  for (int i = 0; i < a.n; i++)
    t[i] = (term){a.t[i].atom, poly_mul(s, a.t[i].c, c)};
  return collect(s, t, a.n);
}

/* c·atom as IR; a coefficient that is only a denominator is written atom/den. */
static ir_node *term_ir(simp *s, const term *t, bool *negative) {
  tlop_ctx *ctx = s->ctx;
  poly *c = renamed(s, t->c);
  double v;
  *negative = false;
  if (!t->atom)
    return poly_to_ir(s, c, !s->expand);
  if (poly_leading_negative(c)) {
    *negative = true;
    c = poly_negate(s, c);
  }
  if (poly_is_num(c, &v) && v == 1)
    return t->atom;
  ir_node *ci = poly_to_ir(s, c, !s->expand);
  if (ci->op == IR_DIV && ci->kid[0]->op == IR_NUM && ci->kid[0]->num == 1)
    return ir_bin(ctx, IR_DIV, t->atom, ci->kid[1]);
  return ir_bin(ctx, IR_MUL, ci, t->atom);
}

static ir_node *lin_ir(simp *s, lin l) {
  ir_node *r = NULL;
  for (int i = 0; i < l.n; i++) {
    bool neg;
    ir_node *t = term_ir(s, &l.t[i], &neg);
    if (!r)
      r = neg ? ir_un(s->ctx, IR_NEG, t) : t;
    else
      r = ir_bin(s->ctx, neg ? IR_SUB : IR_ADD, r, t);
  }
  return r ? r : ir_num(s->ctx, 0);
}

static sym channel_of(const simp *s, const ir_node *n) { return n->name ? n->name : s->default_ch; }

/* Whether ∥ scope p counts a transfer on channel ch: an unscoped ∥ counts every one, γ's
 * (ch NULL) too. */
static bool par_applies(const par_scope *p, sym ch) { return !p->ch || p->ch == ch; }

/* The product of the ∥ counts that apply to a transfer on channel ch. */
static poly *par_factor(simp *s, const par_scope *par, sym ch) {
  poly *a = poly_num(s, 1);
  for (const par_scope *p = par; p; p = p->up)
    if (par_applies(p, ch))
      a = poly_mul(s, a, p->a);
  return a;
}

/* τ times the ∥ counts that apply on channel ch (par_applies), as IR. A
 * product of numbers that overflows (10^200 ∥ 10^200 ∥ L(m, 3)) is not folded to inf:
 * multiplied left to right, as scalar folds numbers, the product that overflows is kept
 * as written, the later counts multiplying it, to fail where it is evaluated, as it did,
 * and not where a branch not taken holds it. */
static ir_node *scaled_tau(simp *s, poly *tau, const par_scope *par, sym ch) {
  poly *t = poly_mul(s, tau, par_factor(s, par, ch));
  double v, acc, f, rest = 1;
  if (!poly_is_num(t, &v) || isfinite(v) || !poly_is_num(tau, &acc))
    return simp_canon(s, t);
  ir_node *kept = NULL;
  for (const par_scope *p = par; p; p = p->up) {
    if (!par_applies(p, ch) || !poly_is_num(p->a, &f))
      continue;
    if (kept)
      rest *= f;
    else if (isfinite(acc * f))
      acc *= f;
    else
      kept = ir_bin(s->ctx, IR_MUL, ir_num(s->ctx, acc), ir_num(s->ctx, f));
  }
  return kept ? simp_canon(s, poly_mul(s, poly_num(s, rest), poly_factor(s, kept))) : simp_canon(s, t);
}

/* A transfer on the default channel, when that channel's name is not known, cannot tell
 * whether a channel-scoped ∥ applies to it. */
static bool unnamed_transfer(const simp *s, const ir_node *n) {
  if (s->default_ch || !ir_has_cost(n))
    return false;
  if (n->op == IR_L)
    return n->name == NULL;
  for (int i = 0; i < n->nkids; i++)
    if (unnamed_transfer(s, n->kid[i]))
      return true;
  return false;
}

static lin norm_transfer(simp *s, const ir_node *n, const par_scope *par) {
  tlop_ctx *ctx = s->ctx;
  ir_node *m = simp_canon(s, scalar(s, n->kid[0]));
  if (n->op == IR_O || n->op == IR_PACK)
    return lin_term(s, ir_make(ctx, (ir_op)n->op, n->name, 0, m, NULL, NULL), poly_num(s, 1));
  /* γ is on no channel: only an unscoped ∥ multiplies its τ */
  ir_node *tau = scaled_tau(s, scalar(s, n->kid[1]), par, n->op != IR_GAMMA ? channel_of(s, n) : NULL);
  return lin_term(s, ir_make(ctx, (ir_op)n->op, n->name, 0, m, tau, NULL), poly_num(s, 1));
}

/* L(m,a) ∥ L(m,b) = L(m,a+b) on one channel; anything else stays a node. */
static lin norm_conc(simp *s, const ir_node *n, const par_scope *par) {
  lin a = norm(s, n->kid[0], par), b = norm(s, n->kid[1], par);
  double ca, cb;
  if (a.n == 1 && b.n == 1 && a.t[0].atom && b.t[0].atom && a.t[0].atom->op == IR_L &&
      b.t[0].atom->op == IR_L && poly_is_num(a.t[0].c, &ca) && ca == 1 &&
      poly_is_num(b.t[0].c, &cb) && cb == 1 && channel_of(s, a.t[0].atom) == channel_of(s, b.t[0].atom) &&
      a.t[0].atom->kid[0] == b.t[0].atom->kid[0]) {
    ir_node *x = a.t[0].atom, *y = b.t[0].atom;
    poly *tau = poly_add(s, scalar(s, x->kid[1]), scalar(s, y->kid[1]));
    return lin_term(s, ir_make(s->ctx, IR_L, x->name, 0, x->kid[0], simp_canon(s, tau), NULL),
                    poly_num(s, 1));
  }
  ir_node *x = lin_ir(s, a), *y = lin_ir(s, b);
  if (ir_cmp(x, y) > 0) {
    ir_node *t = x;
    x = y, y = t;
  }
  return lin_term(s, ir_bin(s->ctx, IR_CONC, x, y), poly_num(s, 1));
}

/* A schedule whose inputs are all numbers is the sum of its steps, L(S, τ_t); otherwise
 * it stays a node (its placements are not values). */
static lin norm_schedule(simp *s, const ir_node *n, const par_scope *par) {
  tlop_ctx *ctx = s->ctx;
  poly *size = scalar(s, n->kid[0]);
  double m;
  eval_state *es = eval_new(ctx, NULL);
  for (size_t i = 0; i < s->nsubs; i++)
    if (s->subs[i].value && poly_is_num(s->subs[i].value, &m))
      eval_bind(es, s->subs[i].var, m);
  const double *taus;
  size_t steps;
  lin r = {0};
  /* a schedule that does not evaluate is not an error: it stays symbolic */
  bool ok = poly_is_num(size, &m) && eval_schedule_taus(es, n, &taus, &steps);
  if (!ok) {
    eval_free(es);
    ir_node *sched = ir_make(ctx, IR_SCHED, n->name, 0, simp_canon(s, size), n->kid[1], NULL);
    return lin_term(s, sched, poly_num(s, 1));
  }
  for (size_t t = 1; t < steps; t++)
    if (taus[t] > 0) {
      ir_node *l = ir_make(ctx, IR_L, n->name, 0, ir_num(ctx, m),
                           scaled_tau(s, poly_num(s, taus[t]), par, channel_of(s, n)), NULL);
      r = lin_add(s, r, lin_term(s, l, poly_num(s, 1)), 1);
    }
  eval_free(es);
  return r;
}

/* An evaluator with the numeric substitutions of the session bound; its failures are not
 * reported (a stage that is not numeric stays symbolic: not an error). */
static eval_state *numeric_eval(simp *s) {
  eval_state *es = eval_new(s->ctx, NULL);
  double v;
  for (size_t i = 0; i < s->nsubs; i++)
    if (s->subs[i].value && poly_is_num(s->subs[i].value, &v))
      eval_bind(es, s->subs[i].var, v);
  return es;
}

/* A stage the interpreter prices (messages, flows) as an opaque cost, with the values
 * known here put in: the indices of unrolled sums, instantiated variables. */
static ir_node *known_values(simp *s, const ir_node *n) {
  ir_node *r = ir_make(s->ctx, (ir_op)n->op, n->name, n->num, n->kid[0], n->kid[1], n->kid[2]);
  for (size_t i = s->nsubs; i-- > 0;) {
    bool hidden = false; /* by a sum over the same name inside */
    for (size_t j = i + 1; j < s->nsubs && !hidden; j++)
      hidden = s->subs[j].var == s->subs[i].var;
    if (!hidden && s->subs[i].value)
      r = ir_subst(s->ctx, r, s->subs[i].var, simp_canon(s, s->subs[i].value));
  }
  return r;
}

/* A flows stage is priced by the interpreter: its time when everything in it is known. */
static lin norm_flows(simp *s, const ir_node *n) {
  eval_state *es = numeric_eval(s);
  double v;
  bool ok = eval_node(es, n, &v);
  eval_free(es);
  return ok ? lin_term(s, NULL, poly_num(s, v)) : lin_term(s, known_values(s, n), poly_num(s, 1));
}

/* A messages stage with numbers for everything is its τ-Lop expression: per shared
 * resource (a channel towards a node) the messages of one size are one L(m, τ), of
 * several sizes their ∥; resources do not contend, so the stage is their max. */
static lin norm_messages(simp *s, const ir_node *n, const par_scope *par) {
  tlop_ctx *ctx = s->ctx;
  eval_state *es = numeric_eval(s);
  msg *ms;
  size_t nm;
  bool ok = eval_messages(es, n, &ms, &nm);
  ir_node *stage = NULL;
  for (size_t i = 0; ok && i < nm; i++) {
    if (ms[i].count < 0)
      continue; /* taken */
    ir_node *group = NULL;
    for (size_t j = i; j < nm; j++) {
      if (ms[j].count < 0 || ms[j].net != ms[i].net || ms[j].node != ms[i].node)
        continue;
      double c = 0;
      for (size_t k = j; k < nm; k++)
        if (ms[k].count >= 0 && ms[k].net == ms[j].net && ms[k].node == ms[j].node &&
            ms[k].size == ms[j].size && k != j) {
          c += ms[k].count;
          ms[k].count = -1;
        }
      c += ms[j].count;
      double size = ms[j].size;
      ms[j].count = -1;
      sym ch = ctx_sym(ctx, ms[i].net ? "net" : "shm");
      /* a transmission's sizes would progress together by its T, which binary ∥ (of
       * transfers) does not write: such a stage stays whole */
      ok = n->num != 0 || !group;
      ir_node *l = ir_make(ctx, n->num ? IR_L : IR_TX, ch, 0, ir_num(ctx, size),
                           simp_canon(s, poly_mul(s, poly_num(s, c), par_factor(s, par, ch))), NULL);
      group = group ? ir_bin(ctx, IR_CONC, group, l) : l;
    }
    stage = stage ? ir_bin(ctx, IR_MAX, stage, group) : group;
  }
  eval_free(es);
  if (!ok || !stage)
    return ok ? lin_term(s, NULL, poly_num(s, 0))
              : lin_term(s, known_values(s, n), poly_num(s, 1));
  return norm(s, stage, NULL);
}

/* Shifts a sum's index so that its exponents read 2^i rather than 2^(i+1) throughout. */
static bool index_shift(simp *s, lin dep, sym idx, double *off) {
  bool seen = false;
  *off = 0;
  for (int i = 0; i < dep.n; i++) {
    if (!poly_shift_of(s, dep.t[i].c, idx, off, &seen))
      return false;
    const ir_node *a = dep.t[i].atom;
    /* only transfers: the kids of a stage (messages, flows) are not scalars */
    if (a->op != IR_L && a->op != IR_TX && a->op != IR_O && a->op != IR_GAMMA && a->op != IR_PACK)
      return false;
    for (int k = 0; k < a->nkids; k++)
      if (ir_uses(a->kid[k], idx) && !poly_shift_of(s, scalar(s, a->kid[k]), idx, off, &seen))
        return false;
  }
  return seen && *off != 0 && *off == floor(*off);
}

/* A sum or repeat kept whole: a cost atom, or a scalar factor when its body became plain
 * time, as simplifying it again would make it. */
static lin kept_whole(simp *s, ir_node *n) {
  return ir_has_cost(n) ? lin_term(s, n, poly_num(s, 1)) : norm(s, n, NULL);
}

static lin norm_sum(simp *s, const ir_node *n, const par_scope *par, bool shifted) {
  n = canonical_sum(s, n);
  sym idx = n->name;
  poly *lo = scalar(s, n->kid[0]), *hi = scalar(s, n->kid[1]);
  double a, b;
  bool closable;
  if (range_empty(s, lo, hi, &closable))
    return (lin){0};
  push_index(s, idx, lo, hi, simp_is_integer(s, lo));
  lin body = norm(s, n->kid[2], par);
  ir_node *body_ir = lin_ir(s, body);
  bool opened = sum_opened(s, lo, hi, body_ir);
  pop_index(s);
  if (unrollable(s, lo, hi, &a, &b) && unroll_begin(s, a, b, body_ir, body.n, idx)) {
    terms acc = {0};
    for (double i = a; i <= b; i++) {
      unroll_push(s, idx, i);
      terms_add(s, &acc, norm(s, n->kid[2], par), 1);
      unroll_pop(s);
    }
    unroll_end(s, a, b);
    return terms_done(s, &acc);
  }
  terms outs = {0}, deps = {0};
  ir_node *lo_ir = simp_canon(s, lo), *hi_ir = simp_canon(s, hi);
  if (!opened)
    return kept_whole(s, ir_make(s->ctx, IR_SUM, idx, 0, lo_ir, hi_ir, body_ir));
  for (int i = 0; i < body.n; i++) {
    term t = body.t[i];
    if (t.atom && ir_uses(t.atom, idx)) {
      terms_add(s, &deps, lin_term(s, t.atom, t.c), 1);
      continue;
    }
    /* Σ c(i)·atom = atom · Σ c(i) */
    poly *c = closable ? poly_sum(s, idx, lo, hi, t.c) : open_sum(s, idx, lo, hi, t.c);
    terms_add(s, &outs, lin_term(s, t.atom, c), 1);
  }
  lin out = terms_done(s, &outs), dep = terms_done(s, &deps);
  if (dep.n == 0)
    return out;
  double off;
  if (!shifted && index_shift(s, dep, idx, &off)) {
    /* Σ_{i=lo}^{hi} f(i) = Σ_{i=lo+c}^{hi+c} f(i − c) */
    ir_node *moved = ir_subst(s->ctx, n->kid[2], idx,
                              ir_bin(s->ctx, IR_SUB, ir_var(s->ctx, idx), ir_num(s->ctx, off)));
    ir_node *bound_lo = ir_bin(s->ctx, IR_ADD, n->kid[0], ir_num(s->ctx, off));
    ir_node *bound_hi = ir_bin(s->ctx, IR_ADD, n->kid[1], ir_num(s->ctx, off));
    /* the whole body is shifted, its index-free terms included */
    return norm_sum(s, ir_make(s->ctx, IR_SUM, idx, 0, bound_lo, bound_hi, moved), par, true);
  }
  /* One term: its index-free factor comes out of the sum. */
  poly *coef = poly_num(s, 1), *in, *d;
  if (dep.n == 1 && !s->expand && poly_split(s, dep.t[0].c, idx, &in, &d)) {
    coef = in;
    dep.t[0].c = d;
  }
  ir_node *sum = ir_make(s->ctx, IR_SUM, idx, 0, lo_ir, hi_ir, lin_ir(s, dep));
  return lin_add(s, out, lin_term(s, sum, coef), 1);
}

static lin norm_repeat(simp *s, const ir_node *n, const par_scope *par) {
  poly *count = scalar(s, n->kid[0]);
  lin body = norm(s, n->kid[1], par);
  ir_node *body_ir = lin_ir(s, body);
  if (body_taken_out(s, count, body_ir))
    return lin_scale(s, body, count);
  return kept_whole(s, ir_bin(s->ctx, IR_REPEAT, simp_canon(s, count), body_ir));
}

/* The sum of terms t[0..n) as a balanced tree: thousands of sums merged stay shallow. */
static ir_node *balanced_sum(tlop_ctx *ctx, ir_node **t, int n) {
  if (n == 1)
    return t[0];
  return ir_bin(ctx, IR_ADD, balanced_sum(ctx, t, n / 2), balanced_sum(ctx, t + n / 2, n - n / 2));
}

/* Σ_{i=a}^{b} x + Σ_{j=a}^{b} y = Σ_{i=a}^{b} (x + y): sums over one range are one sum, so
 * that Σx + Σy and Σ(x + y) have one normal form. The coefficients go inside, so they must
 * not use the index (i·Σ_i L(m, i) is not Σ_i i·L(m, i)), nor may another body once renamed;
 * the bodies are normal forms already, so no ∥ applies again. Each range's sums are merged
 * at once (merged pairwise, n sums would normalize a growing body n times), and again
 * while merging made new sums that may join. */
static lin merge_sums(simp *s, lin l) {
  tlop_ctx *ctx = s->ctx;
  bool *taken = xcalloc((size_t)l.n + 1, sizeof *taken);
  ir_node **bodies = xcalloc((size_t)l.n + 1, sizeof *bodies);
  terms out = {0};
  bool merged = false;
  for (int i = 0; i < l.n; i++) {
    if (taken[i])
      continue;
    ir_node *a = l.t[i].atom;
    int nb = 0;
    if (a && a->op == IR_SUM && !poly_uses(l.t[i].c, a->name)) {
      bodies[nb++] = ir_bin(ctx, IR_MUL, simp_canon(s, l.t[i].c), a->kid[2]);
      for (int j = i + 1; j < l.n; j++) {
        ir_node *b = l.t[j].atom;
        if (taken[j] || !b || b->op != IR_SUM || b->kid[0] != a->kid[0] || b->kid[1] != a->kid[1] ||
            poly_uses(l.t[j].c, a->name) || (b->name != a->name && ir_uses(b->kid[2], a->name)))
          continue;
        ir_node *body = b->name == a->name ? b->kid[2] : ir_subst(ctx, b->kid[2], b->name, ir_var(ctx, a->name));
        bodies[nb++] = ir_bin(ctx, IR_MUL, simp_canon(s, l.t[j].c), body);
        taken[j] = true;
      }
    }
    if (nb < 2) {
      terms_add(s, &out, (lin){&l.t[i], 1}, 1);
      continue;
    }
    merged = true;
    ir_node *sum = ir_make(ctx, IR_SUM, a->name, 0, a->kid[0], a->kid[1], balanced_sum(ctx, bodies, nb));
    terms_add(s, &out, norm_sum(s, sum, NULL, false), 1);
  }
  free(taken);
  free(bodies);
  lin r = terms_done(s, &out);
  return merged ? merge_sums(s, r) : r;
}

/* The terms of a chain of + and − of costs, gathered for one collect and one merge of its
 * sums (merged at each + of a chain of n sums, one sum's body would be normalized n times
 * as it grew). x + x (a let used twice) is normalized once: nested doublings are a DAG. */
static void addends(simp *s, const ir_node *n, const par_scope *par, double sign, terms *acc) {
  if (!ir_has_cost(n) || (n->op != IR_ADD && n->op != IR_SUB)) {
    terms_add(s, acc, norm(s, n, par), sign);
    return;
  }
  double second = n->op == IR_SUB ? -sign : sign;
  if (n->kid[1] == n->kid[0]) {
    lin x = norm(s, n->kid[0], par);
    terms_add(s, acc, x, sign);
    terms_add(s, acc, x, second);
    return;
  }
  addends(s, n->kid[0], par, sign, acc);
  addends(s, n->kid[1], par, second, acc);
}

/* scalar_maxover's for a maximum of costs (the ∥ around it applied in its terms): the
 * terms free of its index taken out, no factor. */
static lin norm_maxover(simp *s, const ir_node *n, const par_scope *par) {
  n = canonical_sum(s, n);
  sym idx = n->name;
  poly *lo = scalar(s, n->kid[0]), *hi = scalar(s, n->kid[1]);
  push_index(s, idx, lo, hi, simp_is_integer(s, lo));
  lin body = norm(s, n->kid[2], par);
  ir_node *body_ir = lin_ir(s, body);
  pop_index(s);
  double a, b;
  bool small = max_written_out(s, lo, hi, &a, &b);
  if (small && !ir_uses(body_ir, idx))
    return body;
  if (small && unroll_begin(s, a, b, body_ir, body.n, idx)) {
    ir_node *r = NULL;
    for (double i = a; i <= b; i++) {
      unroll_push(s, idx, i);
      ir_node *t = lin_ir(s, norm(s, n->kid[2], par));
      unroll_pop(s);
      r = r ? ir_bin(s->ctx, IR_MAX, r, t) : t;
    }
    unroll_end(s, a, b);
    return norm(s, r, NULL);
  }
  /* max(c + e) = c + max e, the terms c free of the index, where e has terms */
  terms added = {0}, varying = {0};
  for (int i = 0; i < body.n; i++) {
    term t = body.t[i];
    terms *to = (t.atom && ir_uses(t.atom, idx)) || poly_uses(t.c, idx) ? &varying : &added;
    VEC_PUSH(to->t, to->n, to->cap, t);
  }
  if (varying.n == 0) { /* nothing taken out of a body free of the index */
    free(varying.t);
    varying = added;
    added = (terms){0};
  }
  ir_node *kept = ir_make(s->ctx, IR_MAXOVER, idx, 0, simp_canon(s, lo), simp_canon(s, hi),
                          lin_ir(s, terms_done(s, &varying)));
  terms_add(s, &added, lin_term(s, kept, poly_num(s, 1)), 1);
  return terms_done(s, &added);
}

static lin norm(simp *s, const ir_node *n, const par_scope *par) {
  if (!ir_has_cost(n))
    return lin_term(s, NULL, scalar(s, n));
  switch (n->op) {
  case IR_L:
  case IR_TX:
  case IR_O:
  case IR_PACK:
  case IR_GAMMA:
    return norm_transfer(s, n, par);
  case IR_PAR: {
    poly *a = scalar(s, n->kid[0]);
    const ir_node *body = n->kid[1];
    /* simplifying the body may drop those transfers (a decided if): look again after.
     * The body kept is simplified afresh under the outer ∥ and, where its sums and
     * repeats ask whether every τ ≥ 1, under this count too, which evaluation applies */
    if (n->name && unnamed_transfer(s, body) && unnamed_transfer(s, lin_ir(s, norm(s, body, NULL)))) {
      VEC_PUSH(s->scoped, s->nscoped, s->scoped_cap, a);
      ir_node *kept = lin_ir(s, norm(s, body, par));
      s->nscoped--;
      return lin_term(s, ir_make(s->ctx, IR_PAR, n->name, 0, simp_canon(s, a), kept, NULL), poly_num(s, 1));
    }
    par_scope p = {n->name, a, par};
    return norm(s, body, &p);
  }
  case IR_CONC:
    return norm_conc(s, n, par);
  case IR_SCHED:
    return norm_schedule(s, n, par);
  case IR_MSGS:
    return norm_messages(s, n, par);
  case IR_FLOWS:
    return norm_flows(s, n);
  case IR_ADD:
  case IR_SUB: {
    terms acc = {0};
    addends(s, n, par, 1, &acc);
    return merge_sums(s, terms_done(s, &acc));
  }
  case IR_NEG:
    return lin_scale(s, norm(s, n->kid[0], par), poly_num(s, -1));
  case IR_REPEAT:
    return norm_repeat(s, n, par);
  case IR_MUL:
    if (!ir_has_cost(n->kid[0]))
      return lin_scale(s, norm(s, n->kid[1], par), scalar(s, n->kid[0]));
    if (!ir_has_cost(n->kid[1]))
      return lin_scale(s, norm(s, n->kid[0], par), scalar(s, n->kid[1]));
    break;
  case IR_DIV:
    if (!ir_has_cost(n->kid[1]))
      return lin_scale(s, norm(s, n->kid[0], par), divide(s, poly_num(s, 1), n->kid[1]));
    break;
  case IR_STAGE:
    return norm(s, n->kid[0], par);
  case IR_SUM:
    return norm_sum(s, n, par, false);
  case IR_MAXOVER:
    return norm_maxover(s, n, par);
  case IR_IF: {
    poly *c = scalar(s, n->kid[0]);
    double v;
    if (poly_is_num(c, &v))
      return norm(s, n->kid[v != 0 ? 1 : 2], par);
    lin lt = norm(s, n->kid[1], par);
    ir_node *t = lin_ir(s, lt), *f = lin_ir(s, norm(s, n->kid[2], par));
    if (t == f)
      return lt;
    /* branches of plain times: the if is a scalar */
    ir_node *r = ir_make(s->ctx, IR_IF, NULL, 0, simp_canon(s, c), t, f);
    return ir_has_cost(r) ? lin_term(s, r, poly_num(s, 1)) : norm(s, r, NULL);
  }
  default:
    break;
  }
  if (n->op == IR_MIN || n->op == IR_MAX) {
    /* one operand left (a normal form: its terms), or plain times compared as scalars */
    ir_node *m = extremum(s, n, par);
    return m->op == n->op && ir_has_cost(m) ? lin_term(s, m, poly_num(s, 1)) : norm(s, m, NULL);
  }
  /* products of costs: an atom of their normal forms */
  ir_node *x = lin_ir(s, norm(s, n->kid[0], par));
  ir_node *y = n->nkids > 1 ? lin_ir(s, norm(s, n->kid[1], par)) : NULL;
  if ((n->op == IR_MIN || n->op == IR_MAX || n->op == IR_MUL) && ir_cmp(x, y) > 0) {
    ir_node *t = x;
    x = y, y = t;
  }
  return lin_term(s, ir_make(s->ctx, (ir_op)n->op, n->name, 0, x, y, NULL), poly_num(s, 1));
}

/* max(max(a, b), a) of costs: its distinct operands, in canonical order, one max. */
static void operands(simp *s, const ir_node *n, ir_op op, const par_scope *par, ir_node ***out,
                     size_t *count, size_t *cap) {
  if (n->op == op) {
    operands(s, n->kid[0], op, par, out, count, cap);
    operands(s, n->kid[1], op, par, out, count, cap);
    return;
  }
  ir_node *x = lin_ir(s, norm(s, n, par));
  if (x->op == op) { /* the normal form is itself a max: take its operands */
    operands(s, x, op, NULL, out, count, cap);
    return;
  }
  for (size_t i = 0; i < *count; i++)
    if ((*out)[i] == x)
      return;
  VEC_PUSH(*out, *count, *cap, x);
}

static int node_order(const void *a, const void *b) {
  return ir_cmp(*(ir_node *const *)a, *(ir_node *const *)b);
}

/* Is x ≥ y assumed (directly, or through one operand ≥ the other's copy)? */
static bool assumed_ge(const simp *s, const ir_node *x, const ir_node *y) {
  for (size_t i = 0; i < s->norders; i++)
    if (s->orders[i].big == x && s->orders[i].small == y)
      return true;
  return false;
}

static ir_node *extremum(simp *s, const ir_node *n, const par_scope *par) {
  ir_node **xs = NULL;
  size_t count = 0, cap = 0;
  operands(s, n, (ir_op)n->op, par, &xs, &count, &cap);
  /* an operand that an assumption puts below (max) or above (min) another one goes */
  for (size_t i = 0; i < count; i++)
    for (size_t j = 0; j < count; j++) {
      bool drop = i != j && (n->op == IR_MAX ? assumed_ge(s, xs[i], xs[j]) : assumed_ge(s, xs[j], xs[i]));
      if (drop) {
        xs[j] = xs[--count];
        i = (size_t)-1; /* start over */
        break;
      }
    }
  if (count > 1)
    qsort(xs, count, sizeof *xs, node_order);
  ir_node *r = xs[0];
  for (size_t i = 1; i < count; i++)
    r = ir_bin(s->ctx, (ir_op)n->op, r, xs[i]);
  free(xs);
  return r;
}

/* ---- assumptions ---- */

/* A failure of the simplifier: reported, or kept in *error (the first one) when the caller
 * takes it as a value (the prover's reason for leaving a claim undecided). */
static void fail_at(tlop_ctx *ctx, char **error, span at, const char *fmt, ...)
    TLOP_PRINTF(4, 5);
static void fail_at(tlop_ctx *ctx, char **error, span at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (!error) {
    diag_emit(ctx, TLOP_ERROR, at, fmt, ap);
  } else if (!*error) {
    strbuf b = {0};
    sb_vprintf(&b, fmt, ap);
    *error = sb_take(&b);
  }
  va_end(ap);
}

static bool is_var(const ir_node *n) { return n->op == IR_VAR; }

/* var ≥ value (lower) or var ≤ value: the other side of an earlier bound stays. */
static void add_bound(simp *s, const ir_node *f, sym var, bool lower, poly *value) {
  bound bd = {var, lower ? value : NULL, lower ? NULL : value};
  const bound *old = bound_of(s, var);
  if (old)
    bd.lo = bd.lo ? bd.lo : old->lo, bd.hi = bd.hi ? bd.hi : old->hi;
  double lo, hi;
  if (bd.lo && bd.hi && poly_is_num(bd.lo, &lo) && poly_is_num(bd.hi, &hi) && lo > hi) {
    /* from contradictory facts anything would follow */
    char l[40], h[40];
    fmt_double(l, sizeof l, lo);
    fmt_double(h, sizeof h, hi);
    if (!s->quiet)
      fail_at(s->ctx, s->error, f->origin,
              "the assumptions contradict each other (%s ≥ %s and %s ≤ %s)", var->name, l,
              var->name, h);
  }
  VEC_PUSH(s->bounds, s->nbounds, s->bounds_cap, bd);
}

/* A linear order over several variables, o + l ≤ o' + l' + c, as a bound of one of them,
 * o ≤ o' + l' + c − l, on a side that no other fact bounds (a later fact would replace
 * it, and every variable of a claim already has its lower bound 0): an upper bound where
 * one is free, else a lower one. lower: the relation on entry (a ≥ b), the bound's side
 * on return. */
static bool solved_bound(simp *s, const ir_node *a, const ir_node *b, bool *lower, sym *var,
                         poly **value) {
  sym vars[16];
  poly *d = poly_sub(s, scalar(s, a), scalar(s, b));
  int n = poly_vars(d, vars, 16);
  bool ge = *lower;
  for (int want_lower = 0; want_lower < 2; want_lower++)
    for (int i = 0; i < n; i++) {
      double c;
      poly *rest;
      if (!poly_linear_in(s, d, vars[i], &c, &rest) || c == 0 || poly_uses(rest, vars[i]))
        continue;
      bool lo = ge == (c > 0); /* c·x + rest ≥ 0 bounds x from below when c > 0 */
      const bound *old = bound_of(s, vars[i]);
      if (lo != want_lower || (old && (lo ? old->lo : old->hi)))
        continue;
      *var = vars[i];
      *value = poly_div(s, poly_negate(s, rest), poly_num(s, c));
      *lower = lo;
      return true;
    }
  return false;
}

/* a ≥ b (lower) or a ≤ b, b an expression, where a number already bounds a on that side
 * (g ≥ 2, then a case's g > P − 1): kept as a bound of another of its variables on a free
 * side (P ≤ g + 1), so that neither fact replaces the other. False when there is none. */
static bool bound_elsewhere(simp *s, const ir_node *f, const ir_node *a, const ir_node *b, bool lower) {
  const bound *old = bound_of(s, a->name);
  poly *held = old ? (lower ? old->lo : old->hi) : NULL;
  double x;
  sym var;
  poly *value;
  if (!held || !poly_is_num(held, &x) || poly_is_num(scalar(s, b), &x) ||
      !solved_bound(s, a, b, &lower, &var, &value))
    return false;
  add_bound(s, f, var, lower, value);
  return true;
}

static void assume(simp *s, const ir_node *f, int pass) {
  tlop_ctx *ctx = s->ctx;
  if (f->op == IR_AND) {
    assume(s, f->kid[0], pass);
    assume(s, f->kid[1], pass);
    return;
  }
  const ir_node *a = f->nkids > 0 ? f->kid[0] : NULL, *b = f->nkids > 1 ? f->kid[1] : NULL;
  /* Pass 0: powers of two and integers; pass 1: substitutions; pass 2: bounds; pass 3:
   * linear orders, on the sides the bounds left free, and the facts of no use. */
  if (f->op == IR_EQ && b && is_var(a) && b->op == IR_FLOOR && b->kid[0] == a) {
    if (pass == 0)
      VEC_PUSH(s->ints, s->nints, s->ints_cap, a->name);
    return;
  }
  if (f->op == IR_EQ && b && !is_var(a) && is_var(b)) {
    const ir_node *t = a;
    a = b, b = t;
  }
  if (f->op == IR_EQ && is_var(a) && b->op == IR_POW && b->kid[0]->op == IR_NUM &&
      b->kid[0]->num == 2 && is_var(b->kid[1])) {
    if (pass == 0) {
      pow2 p = {a->name, b->kid[1]->name};
      VEC_PUSH(s->pows, s->npows, s->pows_cap, p);
      VEC_PUSH(s->ints, s->nints, s->ints_cap, p.expo);
    }
    return;
  }
  if (f->op == IR_EQ && is_var(a) && !ir_uses(b, a->name)) {
    if (pass == 1) {
      subst sb = {a->name, scalar(s, b)};
      VEC_PUSH(s->subs, s->nsubs, s->subs_cap, sb);
    }
    return;
  }
  bool lower = f->op == IR_GE || f->op == IR_GT, upper = f->op == IR_LE || f->op == IR_LT;
  if ((lower || upper) && b && ir_has_cost(a) && ir_has_cost(b)) {
    /* an order of two costs, compared in their normal forms */
    if (pass == 2) {
      order o = {lin_ir(s, norm(s, lower ? a : b, NULL)), lin_ir(s, norm(s, lower ? b : a, NULL))};
      VEC_PUSH(s->orders, s->norders, s->orders_cap, o);
    }
    return;
  }
  if ((lower || upper) && b && !is_var(a) && is_var(b)) {
    const ir_node *t = a;
    a = b, b = t;
    lower = !lower, upper = !upper;
  }
  if ((lower || upper) && is_var(a) && !ir_uses(b, a->name)) {
    if (pass == 2 && !bound_elsewhere(s, f, a, b, lower))
      add_bound(s, f, a->name, lower, scalar(s, b));
    return;
  }
  sym x;
  poly *value;
  if ((lower || upper) && b && !ir_has_cost(a) && !ir_has_cost(b) && pass == 3 &&
      solved_bound(s, a, b, &lower, &x, &value)) {
    add_bound(s, f, x, lower, value);
    return;
  }
  if (pass == 3 && !s->quiet && !ptrmap_get(&ctx->unused_facts, f)) {
    /* once per context: the prover opens a session per case with the same facts */
    ptrmap_put(&ctx->unused_facts, f, (void *)f);
    char *text = prt_expr(ctx, f, TLOP_FORMAT_TLOP);
    diag_warning(ctx, f->origin, "assumption '%s' is not of a form the simplifier uses "
                 "(x = e, x = 2^y, x >= e, x <= e, a linear order, integer(x))", text);
    free(text);
  }
}

static simp *simp_new(tlop_ctx *ctx, bool expand, bool unroll, sym default_ch) {
  simp *s = xcalloc(1, sizeof *s);
  s->ctx = ctx;
  s->ar = arena_new();
  s->expand = expand;
  s->unroll = unroll;
  s->unrolled = 1;
  s->default_ch = default_ch;
  return s;
}

static void simp_free(simp *s) {
  free(s->subs);
  free(s->pows);
  free(s->bounds);
  free(s->ints);
  free(s->orders);
  free(s->fragile);
  free(s->scoped);
  ptrmap_free(&s->memo);
  ptrmap_free(&s->let_values);
  arena_free(s->ar);
  free(s);
}

static simp *open_session(tlop_ctx *ctx, ir_node *const *facts, size_t nfacts,
                          const tlop_simp_opts *o, bool quiet, char **error) {
  sym def = o->platform && o->platform->nch ? o->platform->ch[0].name : NULL;
  simp *s = simp_new(ctx, o->expand, o->unroll, def);
  s->quiet = quiet;
  s->error = error;
  for (int pass = 0; pass < 4; pass++)
    for (size_t i = 0; i < nfacts; i++)
      assume(s, facts[i], pass);
  /* values given explicitly come last, so they win over an assumption's substitution */
  for (size_t i = 0; o->env && i < o->env->n; i++) {
    subst sb = {o->env->names[i], poly_num(s, o->env->values[i])};
    VEC_PUSH(s->subs, s->nsubs, s->subs_cap, sb);
  }
  ptrmap_free(&s->memo); /* forms computed for the facts may use a value given since */
  return s;
}

simp *simp_open(tlop_ctx *ctx, ir_node *const *facts, size_t nfacts, const tlop_simp_opts *o) {
  return open_session(ctx, facts, nfacts, o, false, NULL);
}

simp *simp_open_quiet(tlop_ctx *ctx, ir_node *const *facts, size_t nfacts,
                      const tlop_simp_opts *o) {
  return open_session(ctx, facts, nfacts, o, true, NULL);
}

void simp_close(simp *s) { simp_free(s); }

int simp_terms(simp *s, const ir_node *n, const simp_term **out) {
  lin l = norm(s, n, NULL);
  *out = l.t;
  return l.n;
}

ir_node *simp_terms_ir(simp *s, const simp_term *t, int n) {
  return lin_ir(s, (lin){(term *)t, n});
}

void simp_push_index(simp *s, sym idx, poly *lo, poly *hi) {
  push_index(s, idx, lo, hi, simp_is_integer(s, lo));
}

void simp_pop_index(simp *s) { pop_index(s); }

/* ---- lets kept: a value multiplied out at every use would copy its terms ---- */

/* A let whose value's normal form has LET_MIN_TERMS terms or more, and which the normal
 * form uses more than once, stays a let: expanded in products and quotients at each use,
 * it copies its terms into every term it meets (simp_let_blowup: 541 characters, 506 KB).
 * So does a shorter sum used more than MAX_SUM_POWER times: its product with itself
 * multiplied out would be a power no poly_pow multiplies out. */

typedef struct let_cand {
  sym name;
  const ir_node *value;
  kind k;
  size_t uses;   /* in the expression simplified */
  bool short_sum; /* fewer than LET_MIN_TERMS terms: kept only while used often */
  sym atom;      /* the opaque variable that stands for it while simplifying */
  ir_node *form; /* its normal form, in the atoms of the lets before it */
  bool on;       /* kept so far */
} let_cand;

static int cand_sort(const void *x, const void *y) {
  const let_cand *a = x, *b = y;
  if (a->value->depth != b->value->depth)
    return a->value->depth < b->value->depth ? -1 : 1;
  return ir_cmp(a->value, b->value);
}

/* A session in which each let still kept is an atom: a variable known to equal its
 * normal form (its bounds), an integer when that is, defined where its form is. A let
 * whose form is short is dropped for good. */
static simp *open_lets(tlop_ctx *ctx, ir_node *const *facts, size_t nfacts,
                       const tlop_simp_opts *o, let_cand *c, size_t nc, char **error) {
  simp *s = open_session(ctx, facts, nfacts, o, false, error);
  for (size_t i = 0; i < nc; i++) {
    if (!c[i].on)
      continue;
    poly *p = scalar(s, c[i].value);
    c[i].form = simp_canon(s, p);
    size_t terms = poly_terms(p);
    c[i].short_sum = terms < LET_MIN_TERMS;
    if (c[i].short_sum && (terms < 2 || c[i].uses <= MAX_SUM_POWER)) {
      c[i].on = false;
      continue;
    }
    if (!never_fails(s, c[i].form))
      VEC_PUSH(s->fragile, s->nfragile, s->fragile_cap, c[i].atom);
    bound b = {c[i].atom, p, p};
    VEC_PUSH(s->bounds, s->nbounds, s->bounds_cap, b);
    if (simp_is_integer(s, p))
      VEC_PUSH(s->ints, s->nints, s->ints_cap, c[i].atom);
    ptrmap_put(&s->memo, c[i].value, poly_factor(s, ir_var(ctx, c[i].atom)));
    ptrmap_put(&s->let_values, c[i].value, &c[i]);
  }
  return s;
}

/* Uses of the let v in r and in the forms of the other lets kept: a^40 multiplied out is a
 * product of 40. */
static size_t uses_of(tlop_ctx *ctx, const ir_node *r, sym v, const let_cand *c, size_t nc) {
  ptrmap memo = {0};
  ir_node *var = ir_var(ctx, v);
  size_t k = ir_tree_count(r, var, &memo);
  for (size_t j = 0; j < nc; j++)
    if (c[j].on && c[j].atom != v)
      k += ir_tree_count(c[j].form, var, &memo);
  ptrmap_free(&memo);
  return k;
}

enum { NORMAL_FORM_PASSES = 4 };

/* r with a let's atom wherever its form stands, or NULL when it holds none. A let of i^2
 * and a max(1, i·i) elsewhere meet only in their forms; printed, that max reads max(1, j),
 * and read back it is ordered as the atom, so it must be ordered so here. */
static ir_node *atoms_for_forms(tlop_ctx *ctx, ir_node *r, const let_cand *c, size_t nc) {
  ir_node *to = r;
  for (size_t i = 0; i < nc; i++)
    if (c[i].on)
      to = ir_replace(ctx, to, c[i].form, ir_var(ctx, c[i].atom));
  return to == r ? NULL : to;
}

/* The normal form of n, simplified again until it stops changing: what simplify prints
 * must simplify to itself. A second pass names again a sum named while inside one that
 * was closed away, orders a let's form standing in r as its atom, and reads the form as
 * its print reads: 49·(A)·(B) multiplies 49 into A, which may round a coefficient, and
 * A·(k·B + C) multiplies k·B + C out, where the first pass kept B and C apart. */
static ir_node *normal_form(tlop_ctx *ctx, const ir_node *n, ir_node *const *facts,
                            size_t nfacts, const tlop_simp_opts *o, let_cand *c, size_t nc,
                            char **error) {
  ir_node *r = (ir_node *)n;
  for (int pass = 0; pass < NORMAL_FORM_PASSES; pass++) {
    ir_node *with_atoms = pass ? atoms_for_forms(ctx, r, c, nc) : NULL;
    simp *s = open_lets(ctx, facts, nfacts, o, c, nc, error);
    ir_node *next = lin_ir(s, norm(s, with_atoms ? with_atoms : r, NULL));
    simp_free(s);
    if (next == r)
      break;
    r = next;
  }
  return r;
}

ir_node *simp_simplify(tlop_ctx *ctx, const ir_node *n, ir_node *const *facts, size_t nfacts,
                       const tlop_simp_opts *o, const expr_let *lets, size_t nlets,
                       expr_let **kept, size_t *nkept, char **error) {
  /* the candidates: lets of scalar values without sums, each value once */
  let_cand *c = xcalloc(nlets ? nlets : 1, sizeof *c);
  size_t nc = 0;
  ir_names indices = {0};
  if (kept && nlets)
    ir_collect_indices(n, &indices);
  for (size_t i = 0; kept && i < nlets; i++) {
    const ir_node *v = lets[i].value;
    bool ok = v->nkids && !(v->flags & (IR_HAS_COST | IR_HAS_STAGE | IR_HAS_AT | IR_HAS_SUM));
    for (size_t j = 0; ok && j < nc; j++)
      if (!(ok = c[j].value != v))
        c[j].k = kind_agreed(c[j].k, lets[i].k);
    for (size_t j = 0; ok && j < indices.n; j++)
      ok = !ir_mentions(v, indices.v[j]);
    if (ok) {
      ptrmap memo = {0};
      c[nc++] = (let_cand){.name = lets[i].name, .value = v, .k = lets[i].k,
                           .uses = ir_tree_count(n, v, &memo), .on = true};
      ptrmap_free(&memo);
    }
  }
  free(indices.v);
  qsort(c, nc, sizeof *c, cand_sort);
  for (size_t i = 0; i < nc; i++) {
    char name[32];
    snprintf(name, sizeof name, "let#%zu", i);
    c[i].atom = ctx_sym(ctx, name);
  }
  /* a let the normal form uses once or not at all is inlined: simplify again without it;
   * so is a short sum it uses no more often than a power of it would multiply out, as
   * the printed form, simplified again, would */
  ir_node *r;
  for (;;) {
    r = normal_form(ctx, n, facts, nfacts, o, c, nc, error);
    bool dropped = false;
    for (size_t i = 0; i < nc; i++) {
      size_t uses = c[i].on ? uses_of(ctx, r, c[i].atom, c, nc) : 0;
      if (c[i].on && (uses < 2 || (c[i].short_sum && uses <= MAX_SUM_POWER)))
        c[i].on = false, dropped = true;
    }
    if (!dropped)
      break;
  }
  /* the atoms replaced by their values, the kept lets named apart from what r uses */
  size_t nk = 0;
  for (size_t i = 0; i < nc; i++)
    if (c[i].on)
      nk++;
  if (kept) {
    *kept = nk ? arena_alloc(ctx->ar, nk * sizeof **kept) : NULL;
    *nkept = nk;
  }
  size_t k = 0;
  for (size_t i = 0; i < nc; i++) {
    if (!c[i].on)
      continue;
    ir_node *v = c[i].form;
    for (size_t j = 0; j < k; j++)
      v = ir_subst(ctx, v, c[j].atom, (*kept)[j].value);
    c[k] = c[i];
    (*kept)[k++] = (expr_let){c[i].name, v, c[i].k};
  }
  for (size_t i = 0; i < nk; i++)
    r = ir_subst(ctx, r, c[i].atom, (*kept)[i].value);
  for (size_t i = 0; i < nk; i++) {
    sym name = (*kept)[i].name;
    bool taken = true;
    while (taken) {
      taken = ir_mentions(r, name);
      for (size_t j = 0; j < i && !taken; j++)
        taken = (*kept)[j].name == name;
      if (taken)
        name = ir_primed(ctx, name);
    }
    (*kept)[i].name = name;
  }
  free(c);
  return r;
}

/* ---- numbers that overflow ---- */

static bool all_finite(const ir_node *n, ptrmap *seen) {
  if (ptrmap_get(seen, n))
    return true;
  ptrmap_put(seen, n, (void *)n);
  if (n->op == IR_NUM)
    return isfinite(n->num);
  for (int i = 0; i < n->nkids; i++)
    if (!all_finite(n->kid[i], seen))
      return false;
  return true;
}

/* Whether kid i of n is evaluated only at some valuations: a branch of an if, the right
 * of and/or, the body of a sum or a repeat. */
static bool conditional_kid(const ir_node *n, int i) {
  switch (n->op) {
  case IR_IF: return i > 0;
  case IR_AND:
  case IR_OR:
  case IR_REPEAT: return i == 1;
  case IR_SUM: case IR_MAXOVER: return i == 2;
  default: return false;
  }
}

/* An operation on numbers only (2^100000, 1e300 * 1e300) whose value is not finite; with
 * `evaluated`, only one evaluated wherever n is. A power where the evaluator works in the
 * wide range (`wide`: 7/(P·2^2930), 2^1024·L(m, 1)) is not: it is the number it is. */
static const ir_node *overflowing_constant(const ir_node *n, bool evaluated, bool wide,
                                           ptrmap *seen) {
  /* a node shared by a product and a sum (2^1024·L(m, 1) + 2^1024) is checked in both:
   * once seen outside the wide range, it has been checked the strict way */
  enum { NARROW = 1, WIDE = 2 };
  uintptr_t how = (uintptr_t)ptrmap_get(seen, n);
  if ((how & NARROW) || (wide && (how & WIDE)))
    return NULL;
  ptrmap_put(seen, n, (void *)(how | (wide ? WIDE : NARROW)));
  for (int i = 0; i < n->nkids; i++) {
    bool below = wide ? ir_keeps_wide(n->op) : ir_starts_wide(n);
    const ir_node *c = evaluated && conditional_kid(n, i)
                           ? NULL
                           : overflowing_constant(n->kid[i], evaluated, below, seen);
    if (c)
      return c;
  }
  bool numbers = n->nkids == 1 || n->nkids == 2;
  for (int i = 0; i < n->nkids && numbers; i++)
    numbers = n->kid[i]->op == IR_NUM;
  if (!numbers)
    return NULL;
  double a = n->kid[0]->num, b = n->nkids > 1 ? n->kid[1]->num : 0, v = ir_apply(n->op, a, b);
  bool by_zero = n->op == IR_DIV && b == 0; /* kept as written, as a/0 is */
  bool in_range = wide && (n->op == IR_POW ? ir_wide_power(a, b) : ir_keeps_wide(n->op));
  return isinf(v) && !by_zero && !in_range ? n : NULL;
}

static const ir_node *find_overflow(const ir_node *n, bool evaluated) {
  ptrmap seen = {0};
  const ir_node *c = overflowing_constant(n, evaluated, false, &seen);
  ptrmap_free(&seen);
  return c;
}

/* A normal form holds no infinite number, and no overflowing operation on numbers where
 * it is always evaluated (one in a branch is kept as written: see scalar). */
bool simp_finite(tlop_ctx *ctx, const ir_node *n, const ir_node *r, char **error) {
  ptrmap seen = {0};
  bool finite = all_finite(r, &seen);
  ptrmap_free(&seen);
  const ir_node *kept = find_overflow(r, true);
  if (finite && !kept)
    return true;
  /* named where the input has it, else by its normal form at the whole expression */
  const ir_node *c = find_overflow(n, false), *at = c ? c : n;
  if (!c)
    c = kept;
  strbuf b = {0};
  if (c) {
    prt_expr_to(&b, c, TLOP_FORMAT_UNICODE);
    fail_at(ctx, error, at->origin, "%s overflows to infinity: no normal form holds it", b.s);
  } else {
    fail_at(ctx, error, n->origin, "a number of the normal form overflows to infinity");
  }
  free(b.s);
  return false;
}

/* ---- what --expand could not do ---- */

/* A sum raised to a whole power ≥ 2 that the result still holds. */
static const ir_node *power_of_sum(const ir_node *n, ptrmap *seen) {
  if (ptrmap_get(seen, n))
    return NULL;
  ptrmap_put(seen, n, (void *)n);
  if (n->op == IR_POW && (n->kid[0]->op == IR_ADD || n->kid[0]->op == IR_SUB) &&
      n->kid[1]->op == IR_NUM && n->kid[1]->num >= 2 && n->kid[1]->num == floor(n->kid[1]->num))
    return n;
  for (int i = 0; i < n->nkids; i++) {
    const ir_node *p = power_of_sum(n->kid[i], seen);
    if (p)
      return p;
  }
  return NULL;
}

void simp_note_unexpanded(tlop_ctx *ctx, const ir_node *n, const ir_node *r) {
  ptrmap seen = {0};
  const ir_node *p = power_of_sum(r, &seen);
  ptrmap_free(&seen);
  if (!p)
    return;
  strbuf b = {0};
  prt_expr_to(&b, p, TLOP_FORMAT_UNICODE);
  diag_note(ctx, n->origin, "--expand left %s as it is: too large to multiply out (a "
            "product stops at %d terms)", b.s, POLY_MAX_TERMS);
  free(b.s);
}

/* ---- numbers substituted: a stage of `explain` ---- */

static void bind_vars(simp *s, eval_state *es, const ir_node *n, ptrmap *seen) {
  if (ptrmap_get(seen, n))
    return;
  ptrmap_put(seen, n, (void *)n);
  if (n->op == IR_VAR && !subst_of(s, n->name)) {
    bool found;
    double v = eval_lookup_var(es, n->name, &found);
    if (found) {
      subst sb = {n->name, poly_num(s, v)};
      VEC_PUSH(s->subs, s->nsubs, s->subs_cap, sb);
    }
  }
  for (int i = 0; i < n->nkids; i++)
    bind_vars(s, es, n->kid[i], seen);
}

ir_node *simp_instantiate(eval_state *es, const ir_node *n, double par) {
  tlop_ctx *ctx = eval_ctx(es);
  const tlop_platform *pf = eval_platform(es);
  simp *s = simp_new(ctx, false, true, pf && pf->nch ? pf->ch[0].name : NULL);
  ptrmap seen = {0};
  bind_vars(s, es, n, &seen);
  ptrmap_free(&seen);
  const ir_node *x = par == 1 ? n : ir_make(ctx, IR_PAR, NULL, 0, ir_num(ctx, par), (ir_node *)n, NULL);
  ir_node *r = lin_ir(s, norm(s, x, NULL));
  simp_free(s);
  return r;
}
