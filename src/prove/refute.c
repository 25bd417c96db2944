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

/* Families of L(m, τ) that satisfy every axiom: ≥ 0, non-decreasing in m and τ, and
 * L(m, A·τ) ≤ A·L(m, τ) for A ≥ 1. A step function breaks the last one for A just above 1,
 * so the saturating min(τ, 2), the concave envelope of a step, stands for the steps. */
static const struct {
  const char *name;
  bool strict; /* strictly increasing in τ */
} FAMILIES[] = {
    {"L(m, τ) = 1", false},      {"L(m, τ) = 0", false},          {"L(m, τ) = τ", true},
    {"L(m, τ) = 1 + τ", true},   {"L(m, τ) = m", false},          {"L(m, τ) = (1 + m)·τ", true},
    {"L(m, τ) = min(τ, 2)", false}, {"L(m, τ) = log₂(1 + τ)", true},
};
#define NFAMILIES (sizeof FAMILIES / sizeof *FAMILIES)

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
  default: return ir_un(ctx, IR_LOG2, ir_bin(ctx, IR_ADD, one, T));
  }
}

/* A platform whose channels all price L by one family, o by 0 or 1, and p, γ as 0. */
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
                   ir_op op, const ir_node *rhs, bool strict, double deadline, refutation *out) {
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
  grid g;
  grid_open(&g, vars.n);
  size_t *at = g.at, *count = g.count;
  double *v = g.v;
  for (size_t i = 0; i < vars.n; i++)
    count[i] = per;
  bool found = false;
  for (bool more = true; more && !found && clock_seconds() < deadline;) {
    for (size_t i = 0; i < vars.n; i++)
      v[i] = VALUES[at[i]];
    /* each family with o = 0, then with o = 1; with channels, each one free in turn */
    size_t variants = 2 * NFAMILIES * (channels.n ? pf->nch + 1 : 1);
    for (size_t k = 0; k < variants && !found && clock_seconds() < deadline; k++) {
      size_t f = k % (2 * NFAMILIES), free_ch = k / (2 * NFAMILIES);
      if (strict && !FAMILIES[f % NFAMILIES].strict)
        continue;
      ir_node *L = family(ctx, f % NFAMILIES, m, tau), *o = ir_num(ctx, f < NFAMILIES ? 0 : 1);
      for (size_t c = 0; c < pf->nch; c++)
        pf->ch[c].L = c + 1 == free_ch && !strict ? ir_num(ctx, 0) : L, pf->ch[c].o = o;
      double l, r;
      bool skip;
      if (!sides(ctx, model, pf, NULL, &vars, v, facts, nfacts, false, lhs, rhs, &l, &r, &skip)) {
        if (skip)
          break; /* the facts do not hold here, whatever L */
        continue;
      }
      if (violated(op, l, r)) {
        found = true;
        *out = (refutation){point_text(&vars, v), FAMILIES[f % NFAMILIES].name,
                            free_ch ? pf->ch[free_ch - 1].name->name : NULL, f >= NFAMILIES,
                            ir_has_cost(lhs) || ir_has_cost(rhs), l, r};
      }
    }
    more = advance(at, count, vars.n);
  }
  grid_close(&g);
  free(vars.v);
  free(channels.v);
  tlop_platform_free(pf);
  return found;
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
