/* refute.c — claims tested by numbers: a counterexample searched among the extremal L the
 * axioms allow at small parameter values, and the evidence of a measured platform over a
 * grid. Both evaluate the claim's two sides with the reference evaluator, so what they
 * report is what the model computes. */
#include "prove/prove.h"

#include <math.h>
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

/* Shapes of o(m) and p(m): ≥ 0 always; the decreasing and stepped ones only where the
 * axiom that makes them non-decreasing in m is off. */
enum { SHAPE_ZERO, SHAPE_ONE, SHAPE_M, SHAPE_DECREASING, SHAPE_STEP_DOWN, NSHAPES };
static const char *const SHAPE_NAME[NSHAPES] = {"0", "1", "m", "1/(1 + m)", "(if m < 4 then 1 else 0)"};

static ir_node *shape(tlop_ctx *ctx, int k, sym m) {
  ir_node *M = ir_var(ctx, m), *one = ir_num(ctx, 1);
  switch (k) {
  case SHAPE_ZERO: return ir_num(ctx, 0);
  case SHAPE_ONE: return one;
  case SHAPE_M: return M;
  case SHAPE_DECREASING: return ir_bin(ctx, IR_DIV, one, ir_bin(ctx, IR_ADD, one, M));
  default: return ir_make(ctx, IR_IF, NULL, 0, ir_bin(ctx, IR_LT, M, ir_num(ctx, 4)), one, ir_num(ctx, 0));
  }
}

/* Shapes of γ(m, τ): ≥ 0; decreasing in τ without gamma-monotone, super-linear in τ
 * without gamma-sublinear. */
enum { GSHAPE_ZERO, GSHAPE_ONE, GSHAPE_TAU, GSHAPE_DECREASING, GSHAPE_SQUARE, NGSHAPES };
static const char *const GSHAPE_NAME[NGSHAPES] = {"0", "1", "τ", "1/max(1, τ)", "τ²"};

static ir_node *gshape(tlop_ctx *ctx, int k, sym tau) {
  ir_node *T = ir_var(ctx, tau), *one = ir_num(ctx, 1);
  switch (k) {
  case GSHAPE_ZERO: return ir_num(ctx, 0);
  case GSHAPE_ONE: return one;
  case GSHAPE_TAU: return T;
  case GSHAPE_DECREASING: return ir_bin(ctx, IR_DIV, one, ir_bin(ctx, IR_MAX, one, T));
  default: return ir_bin(ctx, IR_MUL, T, T);
  }
}

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
        VEC_PUSH(v, *n, cap, ((variant){f, o, SHAPE_ZERO, GSHAPE_ZERO}));
  *nfirst = *n;
  for (size_t f = FIRST_FAMILIES; f < NFAMILIES; f++)
    for (int o = 0; o < 2; o++)
      if (ALLOWED(f))
        VEC_PUSH(v, *n, cap, ((variant){f, o, SHAPE_ZERO, GSHAPE_ZERO}));
  for (int k = SHAPE_M; k < NSHAPES; k++) {
    bool down = k >= SHAPE_DECREASING;
    for (size_t f = 0; f < NFAMILIES; f++) {
      if (!ALLOWED(f) || (f != 0 && f != 2 && f != 8)) /* a few L with each shape */
        continue;
      if (has_o && !(down && (axioms & AX_BIT(AX_O_MONO))))
        VEC_PUSH(v, *n, cap, ((variant){f, k, SHAPE_ZERO, GSHAPE_ZERO}));
      if (has_p && !(down && (axioms & AX_BIT(AX_P_MONO))))
        VEC_PUSH(v, *n, cap, ((variant){f, SHAPE_ZERO, k, GSHAPE_ZERO}));
    }
  }
  if (has_p)
    VEC_PUSH(v, *n, cap, ((variant){0, SHAPE_ZERO, SHAPE_ONE, GSHAPE_ZERO}));
  for (int k = GSHAPE_ONE; has_g && k < NGSHAPES; k++) {
    if ((k == GSHAPE_DECREASING && (axioms & AX_BIT(AX_GAMMA_MONO))) ||
        (k == GSHAPE_SQUARE && (axioms & AX_BIT(AX_GAMMA_SUBLINEAR))))
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

bool refute_search(tlop_model *model, ir_node *const *facts, size_t nfacts, const ir_node *lhs,
                   ir_op op, const ir_node *rhs, unsigned axioms, bool rhs_positive, double deadline,
                   refutation *out) {
  tlop_ctx *ctx = model->ctx;
  ir_names vars = {0}, channels = {0};
  const ir_node *parts[2] = {lhs, rhs};
  ir_collect_names(parts, 2, &vars, &channels);
  ir_collect_names((const ir_node *const *)facts, nfacts, &vars, &channels);
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
        pf->gamma_expr = gshape(ctx, x->g, tau);
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
                              free_ch ? pf->ch[free_ch - 1].name->name : NULL, SHAPE_NAME[x->o],
                              x->p != SHAPE_ZERO ? SHAPE_NAME[x->p] : NULL,
                              x->g != GSHAPE_ZERO ? GSHAPE_NAME[x->g] : NULL,
                              ir_has_cost(lhs) || ir_has_cost(rhs), l, r};
        }
      }
      more = advance(at, count, vars.n);
    }
  }
  grid_close(&g);
  free(vs);
  free(vars.v);
  free(channels.v);
  tlop_platform_free(pf);
  return found;
}

bool refute_least_ratio(tlop_model *model, ir_node *const *facts, size_t nfacts, const ir_node *lhs,
                        const ir_node *rhs, unsigned axioms, double deadline, double *out) {
  tlop_ctx *ctx = model->ctx;
  ir_names vars = {0}, channels = {0};
  const ir_node *parts[2] = {lhs, rhs};
  ir_collect_names(parts, 2, &vars, &channels);
  ir_collect_names((const ir_node *const *)facts, nfacts, &vars, &channels);
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
      pf->gamma_expr = gshape(ctx, x->g, tau);
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
