/* refute.c — claims tested by numbers: a counterexample searched among the extremal L the
 * axioms allow at small parameter values, and the evidence of a measured platform over a
 * grid. Both evaluate the claim's two sides with the reference evaluator, so what they
 * report is what the model computes. */
#include "prove/prove.h"
#include "print/print.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Values the search gives each variable, smallest first. */
static const double VALUES[] = {1, 2, 4, 3, 8, 16, 0};
#define NVALUES (sizeof VALUES / sizeof *VALUES)

/* Families of L(m, τ) that satisfy the default axioms: ≥ 0, non-decreasing in m and τ,
 * and L(m, A·τ) ≤ A·L(m, τ) for A ≥ 1. A step in τ breaks the last one for A just above
 * 1, so the saturating min(τ, 2), the concave envelope of a step, stands for the steps;
 * max(1, τ/c) is flat and then linear. Steps in m are allowed: convex (m²·τ), concave
 * (√m·τ) and stepped L break claims that hold only for L linear in m. The first
 * FIRST_FAMILIES are searched first, over every point, before the others. */
static const struct {
  const char *name;
  bool strict;      /* strictly increasing in τ */
  bool subadditive; /* L(m + n, τ) ≤ L(m, τ) + L(n, τ) */
} FAMILIES[] = {
    {"L(m, τ) = 1", false, true},      {"L(m, τ) = 0", false, true},
    {"L(m, τ) = τ", true, true},       {"L(m, τ) = 1 + τ", true, true},
    {"L(m, τ) = m", false, true},      {"L(m, τ) = (1 + m)·τ", true, true},
    {"L(m, τ) = min(τ, 2)", false, true}, {"L(m, τ) = log₂(1 + τ)", true, true},
    {"L(m, τ) = m²·τ", false, false},  {"L(m, τ) = √m·τ", false, true},
    {"L(m, τ) = (if m ≥ 4 then τ else 0)", false, false},
    {"L(m, τ) = max(1, τ/2)", false, true}, {"L(m, τ) = max(1, τ/4)", false, true},
    {"L(m, τ) = max(1, τ/8)", false, true}, {"L(m, τ) = (1 + m²)·log₂(1 + τ)", true, false},
    {"L(m, τ) = min(τ, 4)", false, true},
};
#define NFAMILIES (sizeof FAMILIES / sizeof *FAMILIES)
#define FIRST_FAMILIES 8

static ir_node *family(tlop_ctx *ctx, size_t f, sym m, sym tau) {
  ir_node *M = ir_var(ctx, m), *T = ir_var(ctx, tau), *one = ir_num(ctx, 1);
  switch (f) {
  case 0: return one;
  case 1: return ir_num(ctx, 0);
  case 2: return T;
  case 3: return ir_bin(ctx, IR_ADD, one, T);
  case 4: return M;
  case 5: return ir_bin(ctx, IR_MUL, ir_bin(ctx, IR_ADD, one, M), T);
  case 6: return ir_bin(ctx, IR_MIN, T, ir_num(ctx, 2));
  case 7: return ir_un(ctx, IR_LOG2, ir_bin(ctx, IR_ADD, one, T));
  case 8: return ir_bin(ctx, IR_MUL, ir_bin(ctx, IR_MUL, M, M), T);
  case 9: return ir_bin(ctx, IR_MUL, ir_un(ctx, IR_SQRT, M), T);
  case 10: return ir_make(ctx, IR_IF, NULL, 0, ir_bin(ctx, IR_GE, M, ir_num(ctx, 4)), T, ir_num(ctx, 0));
  case 11: return ir_bin(ctx, IR_MAX, one, ir_bin(ctx, IR_DIV, T, ir_num(ctx, 2)));
  case 12: return ir_bin(ctx, IR_MAX, one, ir_bin(ctx, IR_DIV, T, ir_num(ctx, 4)));
  case 13: return ir_bin(ctx, IR_MAX, one, ir_bin(ctx, IR_DIV, T, ir_num(ctx, 8)));
  case 14:
    return ir_bin(ctx, IR_MUL, ir_bin(ctx, IR_ADD, one, ir_bin(ctx, IR_MUL, M, M)),
                  ir_un(ctx, IR_LOG2, ir_bin(ctx, IR_ADD, one, T)));
  default: return ir_bin(ctx, IR_MIN, T, ir_num(ctx, 4));
  }
}

/* Shapes of one variable x, for o(m) and p(m) (x = m) and γ's τ part (x = τ): ≥ 0 always;
 * the falling ones only where no axiom makes the function non-decreasing (o-monotone,
 * p-monotone, gamma-monotone), the square only where none makes it sub-linear
 * (gamma-sublinear). */
enum { SHAPE_ZERO, SHAPE_ONE, SHAPE_X, SHAPE_DECREASING, SHAPE_STEP_DOWN, SHAPE_SQUARE, NSHAPES };
static const struct {
  const char *of_m, *of_tau;
} SHAPE_NAME[NSHAPES] = {{"0", "0"},
                         {"1", "1"},
                         {"m", "τ"},
                         {"1/(1 + m)", "1/(1 + τ)"},
                         {"(if m < 4 then 1 else 0)", "(if τ < 4 then 1 else 0)"},
                         {"m²", "τ²"}};

static ir_node *shape(tlop_ctx *ctx, int k, sym x) {
  ir_node *X = ir_var(ctx, x), *one = ir_num(ctx, 1);
  switch (k) {
  case SHAPE_ZERO: return ir_num(ctx, 0);
  case SHAPE_ONE: return one;
  case SHAPE_X: return X;
  case SHAPE_DECREASING: return ir_bin(ctx, IR_DIV, one, ir_bin(ctx, IR_ADD, one, X));
  case SHAPE_STEP_DOWN: return ir_make(ctx, IR_IF, NULL, 0, ir_bin(ctx, IR_LT, X, ir_num(ctx, 4)), one, ir_num(ctx, 0));
  default: return ir_bin(ctx, IR_MUL, X, X);
  }
}

static bool falls(int k) { return k == SHAPE_DECREASING || k == SHAPE_STEP_DOWN; }

/* One choice of the search: L's family, the shapes of o, p and γ. */
typedef struct variant {
  size_t f;
  int o, p, g;
} variant;

static bool uses_op(const ir_node *n, ir_op op) {
  if (!n)
    return false;
  if (n->op == op)
    return true;
  for (int i = 0; i < n->nkids; i++)
    if (uses_op(n->kid[i], op))
      return true;
  return false;
}

/* The variants the active axioms allow for this claim, in the order they are tried: the
 * first families with o = 0 then o = 1 (as the search always began), then the other
 * families, then the other shapes of o, p and γ where the claim has them. *nfirst: how
 * many belong to the first pass. */
static variant *variants(unsigned axioms, const ir_node *lhs, const ir_node *rhs, size_t *n,
                         size_t *nfirst) {
  bool strict = axioms & AX_BIT(AX_L_STRICT), subadd = axioms & AX_BIT(AX_L_SUBADDITIVE);
  bool has_o = uses_op(lhs, IR_O) || uses_op(rhs, IR_O), has_p = uses_op(lhs, IR_PACK) || uses_op(rhs, IR_PACK);
  bool has_g = uses_op(lhs, IR_GAMMA) || uses_op(rhs, IR_GAMMA);
  variant *v = NULL;
  size_t cap = 0;
  *n = 0;
#define ALLOWED(f) (!(strict && !FAMILIES[f].strict) && !(subadd && !FAMILIES[f].subadditive))
  for (int o = 0; o < 2; o++)
    for (size_t f = 0; f < FIRST_FAMILIES; f++)
      if (ALLOWED(f))
        VEC_PUSH(v, *n, cap, ((variant){f, o, SHAPE_ZERO, SHAPE_ZERO}));
  *nfirst = *n;
  for (size_t f = FIRST_FAMILIES; f < NFAMILIES; f++)
    for (int o = 0; o < 2; o++)
      if (ALLOWED(f))
        VEC_PUSH(v, *n, cap, ((variant){f, o, SHAPE_ZERO, SHAPE_ZERO}));
  for (int k = SHAPE_X; k < SHAPE_SQUARE; k++) {
    bool down = falls(k);
    for (size_t f = 0; f < NFAMILIES; f++) {
      if (!ALLOWED(f) || (f != 0 && f != 2 && f != 8)) /* a few L with each shape */
        continue;
      if (has_o && !(down && (axioms & AX_BIT(AX_O_MONO))))
        VEC_PUSH(v, *n, cap, ((variant){f, k, SHAPE_ZERO, SHAPE_ZERO}));
      if (has_p && !(down && (axioms & AX_BIT(AX_P_MONO))))
        VEC_PUSH(v, *n, cap, ((variant){f, SHAPE_ZERO, k, SHAPE_ZERO}));
    }
  }
  if (has_p)
    VEC_PUSH(v, *n, cap, ((variant){0, SHAPE_ZERO, SHAPE_ONE, SHAPE_ZERO}));
  for (int k = SHAPE_ONE; has_g && k < NSHAPES; k++) {
    if ((falls(k) && (axioms & AX_BIT(AX_GAMMA_MONO))) || (k == SHAPE_SQUARE && (axioms & AX_BIT(AX_GAMMA_SUBLINEAR))))
      continue;
    for (size_t f = 0; f < 3; f++)
      if (ALLOWED(f))
        VEC_PUSH(v, *n, cap, ((variant){f, SHAPE_ZERO, SHAPE_ZERO, k}));
  }
#undef ALLOWED
  return v;
}

/* A platform whose channels all price L by one family and o, p by one shape, γ by one. */
static tlop_platform *axiom_platform(tlop_ctx *ctx, const ir_names *channels, sym m, sym tau) {
  tlop_platform *pf = xcalloc(1, sizeof *pf);
  pf->ctx = ctx;
  pf->name = ctx_sym(ctx, "axioms");
  pf_add_channel(pf, ctx_sym(ctx, "default"));
  for (size_t i = 0; i < channels->n; i++)
    pf_add_channel(pf, channels->v[i]);
  for (size_t i = 0; i < pf->nch; i++) {
    pf_channel *ch = &pf->ch[i];
    ch->L_m = ch->o_m = ch->p_m = m;
    ch->L_tau = tau;
    ch->p = ir_num(ctx, 0);
  }
  pf->gamma_expr = ir_num(ctx, 0);
  pf->gamma_m = m;
  pf->gamma_tau = tau;
  return pf;
}

void refutation_free(refutation *r) {
  free(r->where);
  free(r->tables);
  free(r->source);
}

/* The search's platform as tlop source, sizes in bytes and costs in seconds as the search
 * priced them: "platform counterexample { channel NAME { L(m, τ) = …; o(m) = …; p(m) = …; }
 * … gamma(m, τ) = …; }", its first channel the default one. */
static char *platform_source(tlop_ctx *ctx, const tlop_platform *pf) {
  sym m = pf->ch[0].L_m;
  ir_node *bytes = ir_bin(ctx, IR_DIV, ir_var(ctx, m), ir_make(ctx, IR_NUM, ctx_sym(ctx, "B"), 1, NULL, NULL, NULL));
  strbuf b = {0};
  sb_puts(&b, "platform counterexample {\n");
  for (size_t c = 0; c <= pf->nch; c++) {
    const ir_node *f[4] = {NULL, NULL, NULL, pf->gamma_expr};
    if (c < pf->nch)
      f[0] = pf->ch[c].L, f[1] = pf->ch[c].o, f[2] = pf->ch[c].p, f[3] = NULL;
    const char *head[4] = {"    L(m, τ) = ", "    o(m) = ", "    p(m) = ", "  gamma(m, τ) = "};
    if (c < pf->nch)
      sb_printf(&b, "  channel %s {\n", c ? pf->ch[c].name->name : "default_channel");
    for (int i = 0; i < 4; i++) {
      if (!f[i])
        continue;
      char *e = prt_expr(ctx, ir_subst(ctx, (ir_node *)f[i], m, bytes), TLOP_FORMAT_TLOP);
      sb_printf(&b, "%s(%s) * 1 s;\n", head[i], e);
      free(e);
    }
    if (c < pf->nch)
      sb_puts(&b, "  }\n");
  }
  sb_puts(&b, "}\n");
  return sb_take(&b);
}

static bool facts_hold(eval_state *es, ir_node *const *facts, size_t nfacts, bool unknown_holds) {
  for (size_t i = 0; i < nfacts; i++) {
    double v;
    if (!eval_node(es, facts[i], &v)) {
      if (!unknown_holds)
        return false;
    } else if (v == 0) {
      return false;
    }
  }
  return true;
}

/* Does lhs op rhs fail? Equal within rounding counts as equal. */
static bool violated(ir_op op, double l, double r) {
  double tol = 1e-9 * fmax(1, fmax(fabs(l), fabs(r)));
  switch (op) {
  case IR_GE: return l < r - tol;
  case IR_GT: return l <= r + tol;
  case IR_LE: return l > r + tol;
  case IR_LT: return l >= r - tol;
  case IR_EQ: return fabs(l - r) > tol;
  /* refute_defined_point's points where both sides are defined: one where a side is not 0
   * tells more than one where both are (P = 1), so it is looked for first */
  case IR_VAR: return l != 0 || r != 0;
  case IR_NUM: return true;
  default: return fabs(l - r) <= tol;
  }
}

static char *point_text(const ir_names *vars, const double *v) {
  strbuf b = {0};
  for (size_t i = 0; i < vars->n; i++) {
    char num[40];
    fmt_double(num, sizeof num, v[i]);
    sb_printf(&b, "%s%s = %s", i ? ", " : "", vars->v[i]->name, num);
  }
  return sb_take(&b);
}

/* A walk over a grid of n variables (at: the indices, count: their ranges, v: the
 * values): a point whose evaluation fails is skipped, its failure not reported. */
typedef struct grid {
  size_t *at, *count;
  double *v;
} grid;

static void grid_open(grid *g, size_t n) {
  *g = (grid){xcalloc(n + 1, sizeof *g->at), xcalloc(n + 1, sizeof *g->count),
              xcalloc(n + 1, sizeof *g->v)};
}

static void grid_close(grid *g) {
  free(g->at);
  free(g->count);
  free(g->v);
}

/* The next point of a grid: an odometer over the indices; false after the last. */
static bool advance(size_t *at, const size_t *count, size_t n) {
  size_t i = 0;
  while (i < n && ++at[i] == count[i])
    at[i++] = 0;
  return i < n;
}

/* Both sides at one point; false when either cannot be evaluated. */
static bool sides(tlop_ctx *ctx, tlop_model *model, const tlop_platform *pf, const tlop_env *env,
                  const ir_names *vars, const double *v, ir_node *const *facts, size_t nfacts,
                  bool unknown_holds, const ir_node *lhs, const ir_node *rhs, double *l, double *r,
                  bool *skip) {
  eval_state *es = eval_new(ctx, pf);
  eval_use_env(es, env, model);
  for (size_t i = 0; i < vars->n; i++)
    eval_bind(es, vars->v[i], v[i]);
  *skip = !facts_hold(es, facts, nfacts, unknown_holds);
  bool ok = !*skip && eval_node(es, lhs, l) && eval_node(es, rhs, r);
  eval_free(es);
  return ok;
}

/* ---- the random search: per channel a table drawn from the axiom set, improved locally ---- */

#define RESTARTS 16 /* random starting points of the local search */
#define MOVES 24    /* local moves from each */
#define NRAMPS 3
#define NLINES 3

/* A function of m ≥ 0 by a table of ramps: base + Σ slope·min(max(m − knot, 0), width),
 * width 0 meaning unbounded (a small width is a step). Non-decreasing with every slope ≥ 0;
 * concave, and so sub-additive with base ≥ 0, with every knot 0 and width unbounded. */
typedef struct ramps {
  double base, slope[NRAMPS], knot[NRAMPS], width[NRAMPS];
} ramps;

/* What a table must satisfy: ≥ 0 always; non-decreasing (MONOTONE); sub-additive too. */
enum { ANY, MONOTONE, SUBADDITIVE };

/* g(τ) = max(c₀ + d₀·τ, min(c₁ + d₁·τ, c₂ + d₂·τ)), every c, d ≥ 0: lines are ≥ 0,
 * non-decreasing and sub-linear in τ (g(A·τ) ≤ A·g(τ) for A ≥ 1), and so are the max and
 * min of such; concave (min(τ, 4)) or flat then linear (max(1, τ/4)); strictly increasing
 * when every d > 0. */
typedef struct lines {
  double c[NLINES], d[NLINES];
} lines;

/* One channel: L(m, τ) = a(m) + b(m)·g(τ); o(m) and p(m) tables. */
typedef struct channel_draw {
  ramps a, b, o, p;
  lines g;
} channel_draw;

/* The whole draw: a table per channel; γ(m, τ) = gm(m)·h(τ), h the lines of g under both
 * of γ's optional axioms, else max(1, τ)^ge; and the point. */
typedef struct draw {
  channel_draw *ch;
  ramps gm;
  lines h;
  double ge;
  double *v;
} draw;

typedef struct rng {
  uint64_t s;
} rng;

static double uniform(rng *r) { /* [0, 1) */
  r->s = r->s * 6364136223846793005u + 1442695040888963407u;
  return (double)(r->s >> 11) / 9007199254740992.0;
}

static size_t below(rng *r, size_t n) { return (size_t)(uniform(r) * (double)n); }

/* Table entries: quarters up to 4, so that a printed counterexample reads easily. */
static double entry(rng *r) { return (double)(1 + below(r, 16)) / 4; }

static const double KNOTS[] = {0, 1, 2, 3, 4, 8, 16, 64};
static const double WIDTHS[] = {0, 0, 0.25, 1, 4, 16}; /* 0: unbounded */
/* 1.5 and 2.5 for variables no count makes whole: a sum over 0 .. p − 1 has ⌊p⌋ terms */
static const double POINT_VALUES[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 15, 16, 17, 31, 32, 33, 64, 65, 100, 1024, 1.5, 2.5};
#define NPOINT_VALUES (sizeof POINT_VALUES / sizeof *POINT_VALUES)
#define NENTRIES (3 * NRAMPS + 1)

/* Draws entry `which` of a table (all of them when which < 0), then makes it what kind
 * requires. */
static void ramps_move(rng *r, ramps *t, int kind, int which) {
  for (int i = which < 0 ? 0 : which; i <= (which < 0 ? NENTRIES - 1 : which); i++) {
    int j = (i - 1) % NRAMPS;
    if (i == 0)
      t->base = uniform(r) < 0.25 ? 0 : entry(r);
    else if (i <= NRAMPS)
      t->slope[j] = uniform(r) < 0.4 ? 0 : (kind == ANY && uniform(r) < 0.5 ? -entry(r) : entry(r));
    else if (i <= 2 * NRAMPS)
      t->knot[j] = KNOTS[below(r, sizeof KNOTS / sizeof *KNOTS)];
    else
      t->width[j] = WIDTHS[below(r, sizeof WIDTHS / sizeof *WIDTHS)];
  }
  for (int j = 0; j < NRAMPS && kind == SUBADDITIVE; j++)
    t->knot[j] = 0, t->width[j] = 0;
}

static ir_node *ramps_ir(tlop_ctx *ctx, const ramps *t, sym m, int kind) {
  ir_node *sum = ir_num(ctx, t->base);
  for (int j = 0; j < NRAMPS; j++) {
    if (t->slope[j] == 0)
      continue;
    ir_node *x = ir_var(ctx, m);
    if (t->knot[j] > 0)
      x = ir_bin(ctx, IR_MAX, ir_bin(ctx, IR_SUB, x, ir_num(ctx, t->knot[j])), ir_num(ctx, 0));
    if (t->width[j] > 0)
      x = ir_bin(ctx, IR_MIN, x, ir_num(ctx, t->width[j]));
    ir_node *term = ir_bin(ctx, IR_MUL, ir_num(ctx, fabs(t->slope[j])), x);
    sum = ir_bin(ctx, t->slope[j] < 0 ? IR_SUB : IR_ADD, sum, term);
  }
  /* a table that may fall is kept ≥ 0 */
  return kind == ANY ? ir_bin(ctx, IR_MAX, sum, ir_num(ctx, 0)) : sum;
}

/* What the active axioms require of each table. */
typedef struct constraints {
  int L, o, p, gm; /* ANY, MONOTONE or SUBADDITIVE */
  bool strict;
  double ge_lo, ge_hi; /* the range of γ's exponent of τ */
  bool gamma_lines;    /* γ's τ part as g's: under gamma-monotone and gamma-sublinear */
} constraints;

static void lines_move(rng *r, lines *g, bool strict) {
  for (int j = 0; j < NLINES; j++) {
    g->c[j] = uniform(r) < 0.3 ? 0 : entry(r);
    g->d[j] = !strict && uniform(r) < 0.3 ? 0 : entry(r) / 4;
  }
}

/* Draws table `which` of a channel (0 a, 1 b, 2 o, 3 p: one entry of it; 4: the lines of
 * g), or all of it when which < 0. */
static void channel_move(rng *r, channel_draw *c, const constraints *k, int which) {
  ramps *tables[4] = {&c->a, &c->b, &c->o, &c->p};
  int kinds[4] = {k->L, k->L, k->o, k->p};
  for (int t = 0; t < 4; t++)
    if (which < 0 || which == t)
      ramps_move(r, tables[t], kinds[t], which < 0 ? -1 : (int)below(r, NENTRIES));
  if (which < 0 || which == 4)
    lines_move(r, &c->g, k->strict);
  if (k->strict && c->b.base == 0) /* b > 0 everywhere: L strictly increasing in τ */
    c->b.base = 0.25;
}

static ir_node *lines_ir(tlop_ctx *ctx, const lines *g, sym tau) {
  ir_node *line[NLINES];
  for (int j = 0; j < NLINES; j++) {
    ir_node *slope = ir_bin(ctx, IR_MUL, ir_num(ctx, g->d[j]), ir_var(ctx, tau));
    line[j] = g->d[j] == 0   ? ir_num(ctx, g->c[j])
              : g->c[j] == 0 ? slope
                             : ir_bin(ctx, IR_ADD, ir_num(ctx, g->c[j]), slope);
  }
  return ir_bin(ctx, IR_MAX, line[0], ir_bin(ctx, IR_MIN, line[1], line[2]));
}

static ir_node *channel_L(tlop_ctx *ctx, const channel_draw *c, sym m, sym tau, int kind) {
  ir_node *b = ir_bin(ctx, IR_MUL, ramps_ir(ctx, &c->b, m, kind), lines_ir(ctx, &c->g, tau));
  return ir_bin(ctx, IR_ADD, ramps_ir(ctx, &c->a, m, kind), b);
}

static void gamma_move(rng *r, draw *d, const constraints *k, int which) {
  ramps_move(r, &d->gm, k->gm, which);
  lines_move(r, &d->h, false);
  d->ge = k->ge_lo + (k->ge_hi - k->ge_lo) * (double)below(r, 5) / 4;
}

/* Puts the draw's tables into the platform. */
static void install(tlop_ctx *ctx, tlop_platform *pf, const draw *d, const constraints *k, sym m, sym tau) {
  for (size_t c = 0; c < pf->nch; c++) {
    pf->ch[c].L = channel_L(ctx, &d->ch[c], m, tau, k->L);
    pf->ch[c].o = ramps_ir(ctx, &d->ch[c].o, m, k->o);
    pf->ch[c].p = ramps_ir(ctx, &d->ch[c].p, m, k->p);
  }
  ir_node *t = ir_bin(ctx, IR_MAX, ir_num(ctx, 1), ir_var(ctx, tau));
  ir_node *h = k->gamma_lines ? lines_ir(ctx, &d->h, tau) : ir_bin(ctx, IR_POW, t, ir_num(ctx, d->ge));
  pf->gamma_expr = ir_bin(ctx, IR_MUL, ramps_ir(ctx, &d->gm, m, k->gm), h);
}

/* A local move: a variable's value, or one entry of one table of one channel or of γ. */
static void move(rng *r, draw *d, size_t nvars, size_t nch, const constraints *k) {
  if (nvars && uniform(r) < 0.5) {
    double *x = &d->v[below(r, nvars)];
    switch (below(r, 4)) {
    case 0: *x *= 2; break;
    case 1: *x = floor(*x / 2); break;
    case 2: *x = fmax(0, *x + (uniform(r) < 0.5 ? -1 : 1)); break;
    default: *x = POINT_VALUES[below(r, NPOINT_VALUES)]; break;
    }
  } else if (uniform(r) < 0.15) {
    gamma_move(r, d, k, (int)below(r, NENTRIES));
  } else {
    channel_move(r, &d->ch[below(r, nch)], k, (int)below(r, 5));
  }
}

/* How far lhs op rhs is from holding, relative to the sides: what the local search raises. */
static double badness(ir_op op, double l, double r) {
  double scale = fmax(1e-300, fabs(l) + fabs(r));
  switch (op) {
  case IR_GE: case IR_GT: return (r - l) / scale;
  case IR_LE: case IR_LT: return (l - r) / scale;
  case IR_EQ: return fabs(l - r) / scale;
  default: return -fabs(l - r) / scale;
  }
}

/* The channels that price a messages stage: within a node and between nodes. */
static const char *const MESSAGE_CHANNELS[] = {"shm", "net"};

static bool message_channel(sym ch) {
  for (size_t i = 0; i < sizeof MESSAGE_CHANNELS / sizeof *MESSAGE_CHANNELS; i++)
    if (!strcmp(ch->name, MESSAGE_CHANNELS[i]))
      return true;
  return false;
}

static void add_channel(ir_names *channels, sym ch) {
  for (size_t i = 0; i < channels->n; i++)
    if (channels->v[i] == ch)
      return;
  VEC_PUSH(channels->v, channels->n, channels->cap, ch);
}

/* Does n use op (L, o or p) on the channel ch (dflt: ch is the default, which a transfer
 * without a channel names)? A messages stage uses L and o on shm and net. */
static bool uses_on(const ir_node *n, ir_op op, sym ch, bool dflt) {
  if (!n)
    return false;
  if (n->op == op && (n->name == ch || (!n->name && dflt)))
    return true;
  if (n->op == IR_MSGS && op != IR_PACK && message_channel(ch))
    return true;
  for (int i = 0; i < n->nkids; i++)
    if (uses_on(n->kid[i], op, ch, dflt))
      return true;
  return false;
}

/* The tables of a counterexample that the claim uses: "L[shm](m, τ) = …, o[shm](m) = …,
 * …, γ(m, τ) = …". */
static char *draw_text(tlop_ctx *ctx, const tlop_platform *pf, const ir_node *lhs, const ir_node *rhs) {
  strbuf b = {0};
  const ir_op ops[3] = {IR_L, IR_O, IR_PACK};
  const char *name[3] = {"L", "o", "p"}, *args[3] = {"(m, τ)", "(m)", "(m)"};
  for (size_t c = 0; c < pf->nch; c++) {
    const char *ch = pf->nch > 1 ? pf->ch[c].name->name : NULL;
    const ir_node *f[3] = {pf->ch[c].L, pf->ch[c].o, pf->ch[c].p};
    for (int i = 0; i < 3; i++) {
      if (!uses_on(lhs, ops[i], pf->ch[c].name, c == 0) && !uses_on(rhs, ops[i], pf->ch[c].name, c == 0))
        continue;
      char *e = prt_expr(ctx, f[i], TLOP_FORMAT_UNICODE);
      sb_printf(&b, "%s%s%s%s%s%s = %s", b.len ? ", " : "", name[i], ch ? "[" : "", ch ? ch : "", ch ? "]" : "",
                args[i], e);
      free(e);
    }
  }
  if (uses_op(lhs, IR_GAMMA) || uses_op(rhs, IR_GAMMA)) {
    char *e = prt_expr(ctx, pf->gamma_expr, TLOP_FORMAT_UNICODE);
    sb_printf(&b, "%sγ(m, τ) = %s", b.len ? ", " : "", e);
    free(e);
  }
  return sb_take(&b);
}

/* After the grid: random tables that satisfy the active axioms, drawn for each channel on
 * its own, at random points, each improved by local moves that keep the sides as far from
 * the claim as they got. The same claim draws the same tables: a run repeats. */
static bool random_search(tlop_model *model, ir_node *const *facts, size_t nfacts, const ir_node *lhs,
                          ir_op op, const ir_node *rhs, unsigned axioms, bool rhs_positive, double deadline,
                          const ir_names *vars, tlop_platform *pf, refutation *out) {
  tlop_ctx *ctx = model->ctx;
  sym m = pf->ch[0].L_m, tau = pf->ch[0].L_tau;
  constraints k = {axioms & AX_BIT(AX_L_SUBADDITIVE) ? SUBADDITIVE : MONOTONE,
                   axioms & AX_BIT(AX_O_MONO) ? MONOTONE : ANY,
                   axioms & AX_BIT(AX_P_MONO) ? MONOTONE : ANY,
                   ANY,
                   (axioms & AX_BIT(AX_L_STRICT)) != 0,
                   axioms & AX_BIT(AX_GAMMA_MONO) ? 0 : -1,
                   axioms & AX_BIT(AX_GAMMA_SUBLINEAR) ? 1 : 2,
                   (axioms & AX_BIT(AX_GAMMA_MONO)) && (axioms & AX_BIT(AX_GAMMA_SUBLINEAR))};
  size_t n = vars->n, nch = pf->nch;
  draw cur = {.ch = xcalloc(nch, sizeof *cur.ch), .v = xcalloc(n + 1, sizeof *cur.v)};
  draw next = {.ch = xcalloc(nch, sizeof *next.ch), .v = xcalloc(n + 1, sizeof *next.v)};
  rng r = {0x9e3779b97f4a7c15u};
  bool found = false;
  for (int start = 0; start < RESTARTS && !found && clock_seconds() < deadline; start++) {
    for (size_t c = 0; c < nch; c++)
      channel_move(&r, &cur.ch[c], &k, -1);
    gamma_move(&r, &cur, &k, -1);
    for (size_t i = 0; i < n; i++)
      cur.v[i] = POINT_VALUES[below(&r, NPOINT_VALUES)];
    double score = -INFINITY;
    for (int step = 0; step <= MOVES && !found; step++) {
      draw *try = &cur;
      if (step > 0) { /* a neighbour of the current draw */
        memcpy(next.ch, cur.ch, nch * sizeof *cur.ch);
        memcpy(next.v, cur.v, n * sizeof *cur.v);
        next.gm = cur.gm, next.h = cur.h, next.ge = cur.ge;
        move(&r, &next, n, nch, &k);
        try = &next;
      }
      install(ctx, pf, try, &k, m, tau);
      double l, rv;
      bool skip;
      if (!sides(ctx, model, pf, NULL, vars, try->v, facts, nfacts, false, lhs, rhs, &l, &rv, &skip))
        continue;
      if (violated(op, l, rv) && (!rhs_positive || rv > 0)) {
        *out = (refutation){.where = point_text(vars, try->v), .transfers = true, .lhs = l, .rhs = rv,
                            .tables = draw_text(ctx, pf, lhs, rhs), .source = platform_source(ctx, pf)};
        found = true;
      } else if (badness(op, l, rv) >= score) { /* the neighbour becomes the current draw */
        score = badness(op, l, rv);
        if (try == &next) {
          draw keep = cur;
          cur = next, next = keep;
        }
      }
    }
  }
  free(cur.ch), free(cur.v), free(next.ch), free(next.v);
  return found;
}

/* The claim's free variables and the channels its search prices: those its transfers
 * name, and shm and net for a messages stage, which names none. */
static void claim_names(tlop_ctx *ctx, ir_node *const *facts, size_t nfacts, const ir_node *lhs,
                        const ir_node *rhs, ir_names *vars, ir_names *channels) {
  const ir_node *parts[2] = {lhs, rhs};
  ir_collect_names(parts, 2, vars, channels);
  ir_collect_names((const ir_node *const *)facts, nfacts, vars, channels);
  if (uses_op(lhs, IR_MSGS) || uses_op(rhs, IR_MSGS))
    for (size_t i = 0; i < sizeof MESSAGE_CHANNELS / sizeof *MESSAGE_CHANNELS; i++)
      add_channel(channels, ctx_sym(ctx, MESSAGE_CHANNELS[i]));
}

bool refute_search(tlop_model *model, ir_node *const *facts, size_t nfacts, const ir_node *lhs,
                   ir_op op, const ir_node *rhs, unsigned axioms, bool rhs_positive, double deadline,
                   refutation *out) {
  tlop_ctx *ctx = model->ctx;
  ir_names vars = {0}, channels = {0};
  claim_names(ctx, facts, nfacts, lhs, rhs, &vars, &channels);
  size_t per = NVALUES;
  while (per > 2 && pow((double)per, (double)vars.n) > 4096)
    per--;
  sym m = ctx_sym(ctx, "m"), tau = ctx_sym(ctx, "τ");
  tlop_platform *pf = axiom_platform(ctx, &channels, m, tau);
  bool strict = axioms & AX_BIT(AX_L_STRICT);
  size_t nv, nfirst;
  variant *vs = variants(axioms, lhs, rhs, &nv, &nfirst);
  grid g;
  grid_open(&g, vars.n);
  size_t *at = g.at, *count = g.count;
  double *v = g.v;
  bool found = false;
  /* two passes over the points: the first variants (the search as it began), the rest */
  for (int pass = 0; pass < 2 && !found; pass++) {
    size_t from = pass ? nfirst : 0, to = pass ? nv : nfirst;
    for (size_t i = 0; i < vars.n; i++)
      count[i] = per, at[i] = 0;
    for (bool more = true; more && !found && clock_seconds() < deadline;) {
      for (size_t i = 0; i < vars.n; i++)
        v[i] = VALUES[at[i]];
      /* each variant; with channels, each one free (L = 0) in turn */
      size_t per_ch = to - from, total = per_ch * (channels.n ? pf->nch + 1 : 1);
      for (size_t k = 0; k < total && !found && clock_seconds() < deadline; k++) {
        const variant *x = &vs[from + k % per_ch];
        size_t free_ch = k / per_ch;
        ir_node *L = family(ctx, x->f, m, tau), *o = shape(ctx, x->o, m), *p = shape(ctx, x->p, m);
        for (size_t c = 0; c < pf->nch; c++)
          pf->ch[c].L = c + 1 == free_ch && !strict ? ir_num(ctx, 0) : L, pf->ch[c].o = o, pf->ch[c].p = p;
        pf->gamma_expr = shape(ctx, x->g, tau);
        double l, r;
        bool skip;
        if (!sides(ctx, model, pf, NULL, &vars, v, facts, nfacts, false, lhs, rhs, &l, &r, &skip)) {
          if (skip)
            break; /* the facts do not hold here, whatever L */
          continue;
        }
        if (violated(op, l, r) && (!rhs_positive || r > 0)) {
          found = true;
          *out = (refutation){point_text(&vars, v), FAMILIES[x->f].name,
                              free_ch ? pf->ch[free_ch - 1].name->name : NULL, SHAPE_NAME[x->o].of_m,
                              x->p != SHAPE_ZERO ? SHAPE_NAME[x->p].of_m : NULL,
                              x->g != SHAPE_ZERO ? SHAPE_NAME[x->g].of_tau : NULL,
                              ir_has_cost(lhs) || ir_has_cost(rhs), l, r, NULL, platform_source(ctx, pf)};
        }
      }
      more = advance(at, count, vars.n);
    }
  }
  if (!found)
    found = random_search(model, facts, nfacts, lhs, op, rhs, axioms, rhs_positive, deadline, &vars, pf, out);
  grid_close(&g);
  free(vs);
  free(vars.v);
  free(channels.v);
  tlop_platform_free(pf);
  return found;
}

bool refute_defined_point(tlop_model *model, ir_node *const *facts, size_t nfacts,
                          const ir_node *lhs, const ir_node *rhs, unsigned axioms, double deadline,
                          refutation *out) {
  return refute_search(model, facts, nfacts, lhs, IR_VAR, rhs, axioms, false, deadline, out) ||
         refute_search(model, facts, nfacts, lhs, IR_NUM, rhs, axioms, false,
                       fmax(deadline, clock_seconds() + 1), out);
}

bool refute_least_ratio(tlop_model *model, ir_node *const *facts, size_t nfacts, const ir_node *lhs,
                        const ir_node *rhs, unsigned axioms, double deadline, double *out) {
  tlop_ctx *ctx = model->ctx;
  ir_names vars = {0}, channels = {0};
  claim_names(ctx, facts, nfacts, lhs, rhs, &vars, &channels);
  size_t per = NVALUES;
  while (per > 2 && pow((double)per, (double)vars.n) > 1024)
    per--;
  sym m = ctx_sym(ctx, "m"), tau = ctx_sym(ctx, "τ");
  tlop_platform *pf = axiom_platform(ctx, &channels, m, tau);
  size_t nv, nfirst;
  variant *vs = variants(axioms, lhs, rhs, &nv, &nfirst);
  grid g;
  grid_open(&g, vars.n);
  for (size_t i = 0; i < vars.n; i++)
    g.count[i] = per;
  bool any = false;
  *out = INFINITY;
  for (bool more = true; more && clock_seconds() < deadline;) {
    for (size_t i = 0; i < vars.n; i++)
      g.v[i] = VALUES[g.at[i]];
    for (size_t k = 0; k < nv && clock_seconds() < deadline; k++) {
      const variant *x = &vs[k];
      ir_node *L = family(ctx, x->f, m, tau), *o = shape(ctx, x->o, m), *p = shape(ctx, x->p, m);
      for (size_t c = 0; c < pf->nch; c++)
        pf->ch[c].L = L, pf->ch[c].o = o, pf->ch[c].p = p;
      pf->gamma_expr = shape(ctx, x->g, tau);
      double l, r;
      bool skip;
      if (!sides(ctx, model, pf, NULL, &vars, g.v, facts, nfacts, false, lhs, rhs, &l, &r, &skip)) {
        if (skip)
          break;
        continue;
      }
      if (r > 0 && isfinite(l / r) && l / r < *out)
        *out = l / r, any = true;
    }
    more = advance(g.at, g.count, vars.n);
  }
  grid_close(&g);
  free(vs);
  free(vars.v);
  free(channels.v);
  tlop_platform_free(pf);
  return any;
}

bool refute_evidence(tlop_model *model, ir_node *const *facts, size_t nfacts, const ir_node *lhs,
                     const ir_node *rhs, const tlop_prove_opts *o, double deadline, evidence *out) {
  tlop_ctx *ctx = model->ctx;
  ir_names vars = {0};
  for (size_t i = 0; i < o->naxes; i++)
    VEC_PUSH(vars.v, vars.n, vars.cap, ctx_sym(ctx, o->axes[i].name));
  grid g;
  grid_open(&g, vars.n);
  size_t *at = g.at, *count = g.count;
  double *v = g.v;
  for (size_t i = 0; i < vars.n; i++)
    count[i] = o->axes[i].count;
  *out = (evidence){0};
  for (bool more = true; more && clock_seconds() < deadline;) {
    for (size_t i = 0; i < vars.n; i++)
      v[i] = o->axes[i].values[at[i]];
    double l, r;
    bool skip;
    if (sides(ctx, model, o->platform, o->env, &vars, v, facts, nfacts, true, lhs, rhs, &l, &r, &skip) &&
        r != 0) {
      double q = l / r;
      if (!out->points || q < out->min) {
        free(out->min_at);
        out->min = q, out->min_at = point_text(&vars, v);
      }
      if (!out->points || q > out->max) {
        free(out->max_at);
        out->max = q, out->max_at = point_text(&vars, v);
      }
      out->points++;
    }
    more = advance(at, count, vars.n);
  }
  grid_close(&g);
  free(vars.v);
  return out->points > 0;
}
