/* eval.c — the reference evaluator: the definitional semantics of the cost IR, in doubles.
 * ∥ is evaluated as a context that multiplies the τ of every transfer (of its channel, if
 * scoped) by its count; o and p are not affected; nested ∥ multiply. A sum is the loop it
 * denotes, bounded by a term budget; a sum whose body does not use its index is a
 * product. Every NaN, infinity, log of 0 or negative size stops with a diagnostic that
 * names the expression and the values of its variables. */
#include "eval/eval.h"
#include "print/print.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct par_scope {
  const pf_channel *ch; /* NULL: every channel */
  double a;
} par_scope;

struct eval_state {
  tlop_ctx *ctx;
  const tlop_platform *pf;
  double *vals;         /* by sym id; NaN: unbound */
  size_t nvals;
  const tlop_model *model;
  const tlop_expr *expr; /* what is evaluated: where its free parameters are declared */
  double *param_cache;  /* by sym id, valid when param_epoch matches */
  uint32_t *param_epoch;
  uint32_t epoch;
  par_scope *par;
  size_t npar, par_cap;
  double terms; /* added by the sums of this evaluation so far (--max-terms) */
  /* The sum being entered runs once per remaining iteration of the enclosing sums
   * (proj_mult times) when it is reached unconditionally and its bounds use none of their
   * indices (proj_vars, a bloom): then its terms times proj_mult are known in advance, and
   * a nest beyond --max-terms is refused before it runs. */
  bool proj_on;
  double proj_mult;
  uint64_t proj_vars;
  /* the schedule being evaluated: transfers placed per step, and the multiplicity of
   * the placements (a loop whose body ignores its index places them once, n times) */
  double *taus;
  size_t ntaus, taus_cap;
  double sched_mult;
  msg *msgs; /* the messages of the messages stage being evaluated */
  size_t nmsgs, msgs_cap;
  net_flow *flows; /* the flows of the flows stage being evaluated */
  size_t nflows, flows_cap;
  bool placing; /* inside a schedule, a messages stage or a flows stage */
  unsigned extrap;
  struct {
    const pf_channel *ch;
    ir_op op;
    double m, tau;
    char *point; /* the grid point it was at ("m = 8, P = 4"); NULL outside a grid */
  } first[3]; /* the first look-up of each extrapolation cause */
  const sym *point_vars; /* the variables of a grid's points (eval_use_point_vars) */
  size_t npoint_vars;
  bool failed;
  eval_error error; /* the first failure since start(), unless lowering reported it */
};

static void ensure(eval_state *es, uint32_t id) {
  if (id < es->nvals)
    return;
  size_t n = es->nvals ? es->nvals : 64;
  while (n <= id)
    n *= 2;
  es->vals = xrealloc(es->vals, n * sizeof *es->vals);
  es->param_cache = xrealloc(es->param_cache, n * sizeof *es->param_cache);
  es->param_epoch = xrealloc(es->param_epoch, n * sizeof *es->param_epoch);
  for (size_t i = es->nvals; i < n; i++) {
    es->vals[i] = NAN;
    es->param_epoch[i] = 0;
  }
  es->nvals = n;
}

eval_state *eval_new(tlop_ctx *ctx, const tlop_platform *pf) {
  eval_state *es = xcalloc(1, sizeof *es);
  es->ctx = ctx;
  es->pf = pf;
  es->epoch = 1;
  ensure(es, symtab_count(ctx->syms));
  return es;
}

void eval_free(eval_state *es) {
  if (!es)
    return;
  free(es->vals);
  free(es->param_cache);
  free(es->param_epoch);
  free(es->par);
  free(es->taus);
  free(es->msgs);
  free(es->flows);
  free(es->error.what);
  free(es->error.note);
  for (int bit = 0; bit < 3; bit++)
    free(es->first[bit].point);
  free(es);
}

void eval_bind(eval_state *es, sym name, double v) {
  ensure(es, name->id);
  es->vals[name->id] = v;
  es->epoch++; /* parameter defaults may depend on it */
}

void eval_use_env(eval_state *es, const tlop_env *env, const tlop_model *model) {
  es->model = model;
  if (env)
    for (size_t i = 0; i < env->n; i++)
      eval_bind(es, env->names[i], env->values[i]);
}

void eval_use_expr(eval_state *es, const tlop_env *env, const tlop_expr *expr) {
  eval_use_env(es, env, expr->model);
  es->expr = expr;
}

unsigned eval_extrapolations(const eval_state *es) { return es->extrap; }

void eval_use_point_vars(eval_state *es, const sym *vars, size_t n) {
  es->point_vars = vars;
  es->npoint_vars = n;
}

/* "m = 8, P = 4": the values the grid's variables have now; NULL outside a grid. */
static char *point_text(const eval_state *es) {
  if (!es->npoint_vars)
    return NULL;
  strbuf b = {0};
  for (size_t j = 0; j < es->npoint_vars; j++) {
    char v[40];
    fmt_double(v, sizeof v, es->vals[es->point_vars[j]->id]);
    sb_printf(&b, "%s%s = %s", j ? ", " : "", es->point_vars[j]->name, v);
  }
  return sb_take(&b);
}

/* ---- diagnostics that name the expression and its values ---- */

static void collect_vars(const ir_node *n, ptrmap *seen, sym *out, size_t *count, size_t max) {
  if (*count >= max || ptrmap_get(seen, n))
    return;
  ptrmap_put(seen, n, (void *)n);
  if (n->op == IR_VAR) {
    out[(*count)++] = n->name;
    return;
  }
  for (int i = 0; i < n->nkids; i++)
    collect_vars(n->kid[i], seen, out, count, max);
}

/* Appends `in` and the expression n (unless it is a name, which the values name), then the
 * values of its variables: " in m/(P − 2) where P = 2". */
static void describe(const eval_state *es, const ir_node *n, const char *in, strbuf *b) {
  if (in && n->op != IR_VAR) {
    sb_puts(b, in);
    strbuf e = {0};
    prt_expr_to(&e, n, TLOP_FORMAT_UNICODE);
    if (e.len > 160) {
      size_t cut = 157;
      while (cut > 0 && ((unsigned char)e.s[cut] & 0xC0) == 0x80)
        cut--; /* never inside a UTF-8 character */
      sb_putn(b, e.s, cut);
      sb_puts(b, "…");
    } else {
      sb_puts(b, e.s);
    }
    free(e.s);
  }
  sym vars[8];
  size_t nv = 0;
  ptrmap seen = {0};
  collect_vars(n, &seen, vars, &nv, 8);
  ptrmap_free(&seen);
  const char *sep = " where ";
  for (size_t i = 0; i < nv; i++) {
    if (vars[i]->id >= es->nvals || isnan(es->vals[vars[i]->id]))
      continue;
    char num[40];
    fmt_double(num, sizeof num, es->vals[vars[i]->id]);
    sb_printf(b, "%s%s = %s", sep, vars[i]->name, num);
    sep = ", ";
  }
}

/* Records the evaluation's first failure (eval_failure), as a value: the caller decides
 * whether it is an error to report (eval_report) or a point to skip. The message, then
 * (show_expr) the expression that failed, then the values of its variables. */
static void vfail(eval_state *es, const ir_node *n, bool show_expr, const char *fmt, va_list ap) {
  if (es->failed)
    return;
  es->failed = true;
  strbuf b = {0};
  sb_vprintf(&b, fmt, ap);
  describe(es, n, show_expr ? " in " : NULL, &b);
  es->error = (eval_error){n->origin, b.s, {0}, NULL};
}

static void fail(eval_state *es, const ir_node *n, const char *fmt, ...) TLOP_PRINTF(3, 4);
static void fail(eval_state *es, const ir_node *n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfail(es, n, true, fmt, ap);
  va_end(ap);
}

/* An error whose message says all: a refusal (require), a mapping too short. */
static void refuse(eval_state *es, const ir_node *n, const char *fmt, ...) TLOP_PRINTF(3, 4);
static void refuse(eval_state *es, const ir_node *n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfail(es, n, false, fmt, ap);
  va_end(ap);
}

const eval_error *eval_failure(const eval_state *es) {
  return es->failed && es->error.what ? &es->error : NULL;
}

bool eval_report(eval_state *es) {
  const eval_error *e = eval_failure(es);
  if (e)
    diag_error(es->ctx, e->at, "%s", e->what);
  if (e && e->note)
    diag_note(es->ctx, e->note_at, "%s", e->note);
  return e != NULL;
}

/* ---- variables ---- */

static bool eval(eval_state *es, const ir_node *n, double *out);
static bool eval_unprojected(eval_state *es, const ir_node *n, double *out);
static bool counts_whole(eval_state *es, const ir_node *n);

double eval_lookup_var(eval_state *es, sym name, bool *found) {
  ensure(es, name->id);
  double v = es->vals[name->id];
  *found = !isnan(v);
  if (*found)
    return v;
  const param_info *param = es->model ? lower_param((tlop_model *)es->model, name) : NULL;
  if (!param || !param->dflt) {
    if (param && param->failed)
      es->failed = true; /* lowering said why */
    return NAN;
  }
  if (es->param_epoch[name->id] == es->epoch) {
    *found = true;
    return es->param_cache[name->id];
  }
  ir_node *ir = param->dflt;
  /* A default is evaluated outside any ∥: it is a value, not a transfer. */
  size_t npar = es->npar;
  es->npar = 0;
  bool ok = eval(es, ir, &v);
  es->npar = npar;
  if (!ok)
    return NAN;
  es->param_cache[name->id] = v;
  es->param_epoch[name->id] = es->epoch;
  *found = true;
  return v;
}

/* ---- transfers ---- */

static void note_extrapolation(eval_state *es, unsigned flags, const pf_channel *ch, ir_op op,
                               double m, double tau) {
  for (int bit = 0; bit < 3; bit++)
    if ((flags & (1u << bit)) && !(es->extrap & (1u << bit))) {
      es->first[bit].ch = ch;
      es->first[bit].op = op;
      es->first[bit].m = m;
      es->first[bit].tau = tau;
      es->first[bit].point = point_text(es);
    }
  es->extrap |= flags;
}

bool eval_extrapolation_is_gamma(const eval_state *es, int bit) { return es->first[bit].op == IR_GAMMA; }

bool eval_extrapolation_from_zero_row(const eval_state *es, int bit) {
  const tab_table *t = es->first[bit].op == IR_GAMMA ? es->pf->gamma
                       : es->first[bit].ch          ? es->first[bit].ch->table
                                                    : NULL;
  return t && t->nrows == 1 && t->m[0] == 0;
}

/* "L[shm](1 KiB, 2)", "o[shm](1 KiB)", "γ(1 KiB, 2)": one look-up, for messages. */
static void describe_transfer(char *buf, size_t n, ir_op op, const pf_channel *channel, double m,
                              double tau_value) {
  char size[48], tau[40];
  tlop_format_size(size, sizeof size, m);
  fmt_double(tau, sizeof tau, tau_value);
  const char *ch = channel ? channel->name->name : "";
  switch (op) {
  case IR_L: snprintf(buf, n, "L[%s](%s, %s)", ch, size, tau); break;
  case IR_TX: snprintf(buf, n, "T[%s](%s, %s)", ch, size, tau); break;
  case IR_O: snprintf(buf, n, "o[%s](%s)", ch, size); break;
  case IR_PACK: snprintf(buf, n, "p[%s](%s)", ch, size); break;
  default: snprintf(buf, n, "γ(%s, %s)", size, tau); break;
  }
}

void eval_extrapolation_example(const eval_state *es, int bit, char *buf, size_t n) {
  describe_transfer(buf, n, es->first[bit].op, es->first[bit].ch, es->first[bit].m,
                    es->first[bit].tau);
}

const char *eval_extrapolation_point(const eval_state *es, int bit) { return es->first[bit].point; }

static const pf_channel *channel_of(eval_state *es, const ir_node *n) {
  const pf_channel *ch = pf_channel_find(es->pf, n->name);
  if (!ch)
    fail(es, n, n->name ? "platform '%s' has no channel '%s'" : "platform '%s' has no channel",
         es->pf->name->name, n->name ? n->name->name : "");
  return ch;
}

static double par_factor(const eval_state *es, const pf_channel *ch) {
  double a = 1;
  for (size_t i = 0; i < es->npar; i++)
    if (!es->par[i].ch || es->par[i].ch == ch)
      a *= es->par[i].a;
  return a;
}

/* Evaluates a channel's analytic body with its own parameters bound, outside any ∥. */
static bool eval_analytic(eval_state *es, const ir_node *body, sym p1, double v1, sym p2,
                          double v2, double *out) {
  ensure(es, p1->id);
  if (p2)
    ensure(es, p2->id);
  double old1 = es->vals[p1->id], old2 = p2 ? es->vals[p2->id] : 0;
  es->vals[p1->id] = v1;
  if (p2)
    es->vals[p2->id] = v2;
  size_t npar = es->npar;
  es->npar = 0;
  bool ok = eval_unprojected(es, body, out);
  es->npar = npar;
  es->vals[p1->id] = old1;
  if (p2)
    es->vals[p2->id] = old2;
  return ok;
}

static bool check_size(eval_state *es, const ir_node *n, double m) {
  if (isfinite(m) && m >= 0)
    return true;
  char num[40];
  fmt_double(num, sizeof num, m);
  fail(es, n, "message size %s B is %s", num, isfinite(m) ? "negative" : "not finite");
  return false;
}

/* τ counts the transfers that share a channel: at least the one itself, on every platform
 * (a table starts at τ = 1, and an analytic formula must agree with it). */
static bool check_tau(eval_state *es, const ir_node *n, double tau) {
  if (isfinite(tau) && tau >= 1)
    return true;
  char num[40];
  fmt_double(num, sizeof num, tau);
  fail(es, n, "concurrency τ = %s is %s", num, !isfinite(tau) ? "not finite" : "below 1");
  return false;
}

/* A cost the platform gives (a table's look-up, a channel's formula) is a finite time ≥ 0. */
static bool check_cost(eval_state *es, const ir_node *n, ir_op op, const pf_channel *ch, double m,
                       double tau, double cost) {
  if (isfinite(cost) && cost >= 0)
    return true;
  char what[160], num[48];
  describe_transfer(what, sizeof what, op, ch, m, tau);
  tlop_format_time(num, sizeof num, cost);
  fail(es, n, "%s = %s is %s on platform '%s'", what, num,
       isfinite(cost) ? "negative" : "not finite", es->pf->name->name);
  return false;
}

static bool transfer_cost(eval_state *es, const ir_node *n, const pf_channel *ch, double m,
                          double tau, double *out) {
  if (!check_size(es, n, m) || !check_tau(es, n, tau))
    return false;
  if (ch->table) {
    unsigned flags = 0;
    *out = tab_L(ch->table, m, tau, (tab_tau_rule)es->ctx->tau_rule, &flags);
    note_extrapolation(es, flags, ch, IR_L, m, tau);
  } else if (!eval_analytic(es, ch->L, ch->L_m, m, ch->L_tau, tau, out)) {
    return false;
  }
  return check_cost(es, n, IR_L, ch, m, tau, *out);
}

/* One message on channel ch: its T, else its L. */
static bool transmission_cost(eval_state *es, const ir_node *n, const pf_channel *ch, double m,
                              double tau, double *out) {
  if (!ch->T)
    return transfer_cost(es, n, ch, m, tau, out);
  return check_size(es, n, m) && check_tau(es, n, tau) &&
         eval_analytic(es, ch->T, ch->T_m, m, ch->T_tau, tau, out) &&
         check_cost(es, n, IR_TX, ch, m, tau, *out);
}

/* L(m, τ) or T(m, τ), τ times the ∥ around that applies to the channel. */
static bool eval_L_or_T(eval_state *es, const ir_node *n, double *out) {
  const pf_channel *ch = channel_of(es, n);
  double m, tau;
  if (!ch || !eval(es, n->kid[0], &m) || !eval(es, n->kid[1], &tau))
    return false;
  tau *= par_factor(es, ch);
  return n->op == IR_TX ? transmission_cost(es, n, ch, m, tau, out)
                        : transfer_cost(es, n, ch, m, tau, out);
}

static bool eval_o_or_p(eval_state *es, const ir_node *n, double *out) {
  const pf_channel *ch = channel_of(es, n);
  double m;
  if (!ch || !eval(es, n->kid[0], &m) || !check_size(es, n, m))
    return false;
  if (n->op == IR_O && ch->table) {
    unsigned flags = 0;
    *out = tab_o(ch->table, m, &flags);
    note_extrapolation(es, flags, ch, IR_O, m, 0);
    return check_cost(es, n, n->op, ch, m, 0, *out);
  }
  const ir_node *body = n->op == IR_O ? ch->o : ch->p;
  if (!body) {
    *out = 0; /* an analytic channel without o (or p) has none */
    return true;
  }
  return eval_analytic(es, body, n->op == IR_O ? ch->o_m : ch->p_m, m, NULL, 0, out) &&
         check_cost(es, n, n->op, ch, m, 0, *out);
}

static bool eval_gamma(eval_state *es, const ir_node *n, double *out) {
  const tlop_platform *pf = es->pf;
  double m, tau;
  if (!eval(es, n->kid[0], &m) || !eval(es, n->kid[1], &tau) || !check_size(es, n, m))
    return false;
  tau *= par_factor(es, NULL);
  if (!check_tau(es, n, tau))
    return false;
  char *lacks = pf_gamma_lacks(pf, n->name);
  if (lacks) {
    fail(es, n, "%s", lacks);
    free(lacks);
    return false;
  }
  if (pf->gamma) {
    int col = tab_gamma_column(pf->gamma, n->name->name);
    /* A gamma table is measured at τ = 1; beyond it the value is held and flagged. */
    unsigned flags = tau > 1 ? TAB_BEYOND_TAU : 0;
    *out = tab_column_at(pf->gamma, col, m, &flags);
    note_extrapolation(es, flags, NULL, IR_GAMMA, m, tau);
    return check_cost(es, n, IR_GAMMA, NULL, m, tau, *out);
  }
  return eval_analytic(es, pf->gamma_expr, pf->gamma_m, m, pf->gamma_tau, tau, out) &&
         check_cost(es, n, IR_GAMMA, NULL, m, tau, *out);
}

/* ---- placements: the statements of schedules and messages stages ---- */

/* Runs the statements of a schedule or a messages stage: `at` and `send` record what
 * they place, each with the multiplicity of the loops around it. */
static bool place(eval_state *es, const ir_node *n) {
  if (es->placing) {
    fail(es, n, "a schedule or messages stage inside another one");
    return false;
  }
  es->placing = true;
  es->ntaus = es->nmsgs = 0;
  es->sched_mult = 1;
  double ignored;
  bool ok = eval(es, n->kid[1], &ignored);
  es->placing = false;
  return ok;
}

/* ---- progression: transfers of different sizes at once on one channel ---- */

/* Bytes a transfer moves in time t at concurrency τ: the x ≤ r with L(x, τ) = t, by
 * bisection on the look-up down to adjacent doubles (the look-up is piecewise linear or
 * analytic, monotone in m as far as the table is). */
static bool moved(const msg_pricer *pr, double tau, double t, double r, double *x) {
  double lo = 0, hi = r;
  for (int i = 0; i < 2100; i++) {
    double mid = lo + (hi - lo) / 2, c;
    if (mid <= lo || mid >= hi)
      break;
    if (!pr->L(pr->self, mid, tau, &c))
      return false;
    if (c < t)
      lo = mid;
    else
      hi = mid;
  }
  *x = lo;
  return true;
}

/* n groups of count[j] transfers of size[j] on one channel, all at once. The transfer
 * that finishes first at the current concurrency ends a round; every other advances by
 * the bytes it moves in that time at that concurrency; the finished ones leave and the
 * concurrency drops (the "minimum part" progression of libtaulop and Martinasso). Equal
 * sizes finish together, so one size is a single round: L(m, Σ τ). */
static bool progression(const msg_pricer *pr, const double *size, const double *count, size_t n,
                        double *out) {
  if (n == 1) { /* one transfer: its price at its count, what the one round below gives */
    double cost = INFINITY;
    bool ok = pr->L(pr->self, size[0], count[0], &cost);
    *out = ok ? 0 + cost : INFINITY;
    return ok;
  }
  double *left = xmalloc(n * sizeof *left);
  bool *done = xcalloc(n, sizeof *done);
  memcpy(left, size, n * sizeof *left);
  double tau = 0, total = 0;
  for (size_t j = 0; j < n; j++)
    tau += count[j];
  double *cost = xmalloc(n * sizeof *cost);
  bool ok = true;
  size_t remaining = n;
  while (ok && remaining > 0) {
    /* one round, every transfer priced at the round's concurrency */
    double first = INFINITY, leaving = 0;
    for (size_t j = 0; j < n && ok; j++)
      if (!done[j] && (ok = pr->L(pr->self, left[j], tau, &cost[j])) && cost[j] < first)
        first = cost[j];
    total += first;
    for (size_t j = 0; j < n && ok; j++) {
      if (done[j])
        continue;
      double x;
      if (cost[j] <= first * (1 + 1e-12)) {
        done[j] = true;
        remaining--;
        leaving += count[j];
      } else if ((ok = moved(pr, tau, first, left[j], &x))) {
        left[j] -= x;
      }
    }
    tau -= leaving;
  }
  free(cost);
  free(left);
  free(done);
  *out = total;
  return ok;
}

/* A transfer the interpreter prices: on channel ch, its diagnostics naming node at. */
typedef struct priced_transfer {
  eval_state *es;
  const ir_node *at;
  const pf_channel *ch;
} priced_transfer;

static bool price_transfer(void *self, double m, double tau, double *cost) {
  priced_transfer *t = self;
  return transfer_cost(t->es, t->at, t->ch, m, tau, cost);
}

static bool progress(eval_state *es, const ir_node *at, const pf_channel *ch, const double *size,
                     const double *count, size_t n, double *out) {
  priced_transfer t = {es, at, ch};
  msg_pricer pr = {price_transfer, &t};
  return progression(&pr, size, count, n, out);
}

/* ---- binary concurrency: L(m,a) ∥ L(m,b) = L(m,a+b); other channels do not contend ---- */

typedef struct flow {
  const pf_channel *ch;
  const ir_node *at;
  double m, tau;
} flow;

static bool flatten(eval_state *es, const ir_node *n, flow **fl, size_t *nf, size_t *cap) {
  switch (n->op) {
  case IR_L: {
    const pf_channel *ch = channel_of(es, n);
    double m, tau;
    if (!ch || !eval(es, n->kid[0], &m) || !eval(es, n->kid[1], &tau))
      return false;
    flow f = {ch, n, m, tau * par_factor(es, ch)};
    VEC_PUSH(*fl, *nf, *cap, f);
    return true;
  }
  case IR_STAGE:
    return flatten(es, n->kid[0], fl, nf, cap);
  case IR_CONC:
    return flatten(es, n->kid[0], fl, nf, cap) && flatten(es, n->kid[1], fl, nf, cap);
  case IR_PAR: {
    double a;
    if (!eval(es, n->kid[0], &a))
      return false;
    const pf_channel *ch = n->name ? pf_channel_find(es->pf, n->name) : NULL;
    par_scope s = {ch, a};
    VEC_PUSH(es->par, es->npar, es->par_cap, s);
    bool ok = flatten(es, n->kid[1], fl, nf, cap);
    es->npar--;
    return ok;
  }
  default:
    fail(es, n, "binary ∥ needs transfers on both sides");
    return false;
  }
}

/* Sorts transfers by channel, then size, so that each channel's sizes are together. */
static int flow_order(const void *a, const void *b) {
  const flow *x = a, *y = b;
  if (x->ch != y->ch)
    return (uintptr_t)x->ch < (uintptr_t)y->ch ? -1 : 1;
  return (x->m > y->m) - (x->m < y->m);
}

/* Adds c transfers of m bytes to one resource's groups, which progression takes by size
 * (sizes come sorted): an equal size joins the last group. */
static void add_transfers(double *size, double *count, size_t *k, double m, double c) {
  if (*k && size[*k - 1] == m) {
    count[*k - 1] += c;
  } else {
    size[*k] = m;
    count[(*k)++] = c;
  }
}

/* Flows of one channel progress together; channels do not contend: the slowest wins. */
static bool channels_max(eval_state *es, const ir_node *n, flow *fl, size_t nf, double *out) {
  if (nf > 1)
    qsort(fl, nf, sizeof *fl, flow_order);
  double worst = 0, *size = xmalloc(nf * sizeof *size), *count = xmalloc(nf * sizeof *count);
  bool ok = true;
  for (size_t i = 0; ok && i < nf;) {
    size_t k = 0, j = i;
    for (; j < nf && fl[j].ch == fl[i].ch; j++)
      add_transfers(size, count, &k, fl[j].m, fl[j].tau);
    double c;
    ok = progress(es, n, fl[i].ch, size, count, k, &c);
    if (c > worst)
      worst = c;
    i = j;
  }
  free(size);
  free(count);
  *out = worst;
  return ok;
}

static bool eval_conc(eval_state *es, const ir_node *n, double *out) {
  flow *fl = NULL;
  size_t nf = 0, cap = 0;
  bool ok = flatten(es, n, &fl, &nf, &cap) && channels_max(es, n, fl, nf, out);
  free(fl);
  return ok;
}

/* ---- messages stages: messages placed on nodes; a channel towards a node is shared ---- */

/* A rank or a node: a whole number ≥ 0. */
static bool check_whole(eval_state *es, const ir_node *n, double v, const char *what) {
  if (v >= 0 && isfinite(v) && v == floor(v))
    return true;
  char num[40];
  fmt_double(num, sizeof num, v);
  fail(es, n, "%s %s is not a whole number ≥ 0", what, num);
  return false;
}

static bool check_rank(eval_state *es, const ir_node *n, double rank) {
  return check_whole(es, n, rank, "rank");
}

/* sequential(Q) and round_robin(M) group ranks by a whole Q (M) ≥ 1: checked before the
 * mapping divides by it. */
static bool check_mapping(eval_state *es, const ir_node *n) {
  const ir_node *arg;
  const char *mapping = ir_mapping(n, &arg);
  double v;
  if (!mapping)
    return true;
  if (!eval(es, arg, &v))
    return false;
  if (v >= 1 && isfinite(v) && v == floor(v))
    return true;
  strbuf b = {0};
  prt_expr_to(&b, arg, TLOP_FORMAT_UNICODE);
  char num[40];
  fmt_double(num, sizeof num, v);
  if (arg->op == IR_NUM)
    fail(es, n, "%s(%s) needs a whole number ≥ 1", mapping, b.s);
  else
    fail(es, n, "%s(%s) needs a whole number ≥ 1 (%s = %s)", mapping, b.s, b.s, num);
  free(b.s);
  return false;
}

static bool eval_send(eval_state *es, const ir_node *n, double *out) {
  msg m = {0};
  *out = 0;
  if (!eval(es, n->kid[0], &m.src) || !eval(es, n->kid[1], &m.dst) || !eval(es, n->kid[2], &m.size))
    return false;
  if (!check_size(es, n, m.size) || !check_rank(es, n, m.src) || !check_rank(es, n, m.dst))
    return false;
  m.count = es->sched_mult;
  if (es->nmsgs >= es->ctx->max_messages) {
    char lim[40];
    fmt_double(lim, sizeof lim, es->ctx->max_messages);
    fail(es, n, "more than %s messages in one messages stage (--max-messages)", lim);
    return false;
  }
  VEC_PUSH(es->msgs, es->nmsgs, es->msgs_cap, m);
  return true;
}

/* The node of a rank under the stage's mapping. */
static bool node_of(eval_state *es, const ir_node *stage, double rank, double *node) {
  sym r = stage->name;
  ensure(es, r->id);
  double saved = es->vals[r->id];
  es->vals[r->id] = rank;
  bool ok = eval(es, stage->kid[0], node);
  es->vals[r->id] = saved;
  return ok;
}

/* A rank on node −1: place(nodes(n0 … n_{k−1}), M, P) lowers to `if P ≤ k then (the
 * listed node of p) else −1` (lower.c's listed_nodes), so the error can say how long the
 * list is and how many ranks it is for; any other mapping names the rank. */
static void short_list(eval_state *es, const ir_node *stage, double rank) {
  const ir_node *node = stage->kid[0];
  double P;
  char listed[40], ranks[40];
  if (node->op == IR_IF && node->kid[0]->op == IR_LE && node->kid[0]->kid[1]->op == IR_NUM &&
      eval(es, node->kid[0]->kid[0], &P) && P > node->kid[0]->kid[1]->num) {
    fmt_double(listed, sizeof listed, node->kid[0]->kid[1]->num);
    fmt_double(ranks, sizeof ranks, P);
    refuse(es, stage, "the mapping's nodes(…) list has %s entries for the stage's %s ranks: "
           "it needs one node for each rank", listed, ranks);
    return;
  }
  fmt_double(ranks, sizeof ranks, rank);
  fail(es, stage, "rank %s has no node in the stage's mapping", ranks);
}

bool eval_messages(eval_state *es, const ir_node *n, msg **msgs, size_t *count) {
  bool ok = check_mapping(es, n) && place(es, n);
  /* a message stays on its node (shared memory) or crosses the network; messages on one
   * channel towards one node share it */
  for (size_t i = 0; ok && i < es->nmsgs; i++) {
    msg *m = &es->msgs[i];
    double a, b;
    if (!(ok = node_of(es, n, m->src, &a) && node_of(es, n, m->dst, &b)))
      break;
    if (a < 0 || b < 0) { /* place(nodes(…), M, P) lowers a list shorter than P so */
      short_list(es, n, a < 0 ? m->src : m->dst);
      ok = false;
      break;
    }
    m->net = a != b;
    m->node = b;
  }
  *msgs = es->msgs;
  *count = es->nmsgs;
  return ok;
}

int msg_resource_order(const void *a, const void *b) {
  const msg *x = a, *y = b;
  if (x->net != y->net)
    return x->net - y->net;
  if (x->node != y->node)
    return x->node < y->node ? -1 : 1;
  return (x->size > y->size) - (x->size < y->size);
}

/* One shared resource — the same channel towards the same node — at a time: its messages
 * progress together (equal sizes as one group, each count times the ∥ of its channel);
 * resources do not contend: the slowest one. ms is sorted in place. */
bool msgs_cost(msg *ms, size_t n, const double par[2], const msg_pricer pr[2], double *out) {
  if (n > 1)
    qsort(ms, n, sizeof *ms, msg_resource_order);
  double worst = 0, *size = xmalloc(n * sizeof *size), *count = xmalloc(n * sizeof *count);
  bool ok = true;
  for (size_t i = 0, j; ok && i < n; i = j) {
    size_t k = 0;
    for (j = i; j < n && ms[j].net == ms[i].net && ms[j].node == ms[i].node; j++)
      add_transfers(size, count, &k, ms[j].size, ms[j].count * par[ms[j].net]);
    double c;
    if ((ok = progression(&pr[ms[i].net], size, count, k, &c)) && c > worst)
      worst = c;
  }
  free(size);
  free(count);
  *out = worst;
  return ok;
}

/* ---- regular stages: a ring, a shift or a swap counted per node, not placed one by one ---- */

/* Free of the index and of anything whose evaluation counts or looks up. */
static bool ring_part(const ir_node *n, sym i) {
  return !ir_mentions(n, i) && !(n->flags & (IR_HAS_COST | IR_HAS_STAGE | IR_HAS_AT | IR_HAS_SUM));
}

/* i + X or X + i, X free of i: X, else NULL. */
static const ir_node *index_plus(const ir_node *n, sym i) {
  if (n->op != IR_ADD)
    return NULL;
  bool index_first = n->kid[0]->op == IR_VAR && n->kid[0]->name == i;
  const ir_node *index = n->kid[index_first ? 0 : 1], *x = n->kid[index_first ? 1 : 0];
  return index->op == IR_VAR && index->name == i && ring_part(x, i) ? x : NULL;
}

static bool is_num(const ir_node *n, double v) { return n->op == IR_NUM && n->num == v; }

/* `if floor(i / D) % 2 == 0 then i + D else i − D` (the stdlib's _rda_partner, _xor): D,
 * else NULL. */
static const ir_node *swap_block(const ir_node *n, sym i) {
  if (n->op != IR_IF || n->kid[0]->op != IR_EQ || !is_num(n->kid[0]->kid[1], 0))
    return NULL;
  const ir_node *parity = n->kid[0]->kid[0], *minus = n->kid[2];
  if (parity->op != IR_MOD || !is_num(parity->kid[1], 2) || parity->kid[0]->op != IR_FLOOR)
    return NULL;
  const ir_node *quotient = parity->kid[0]->kid[0], *d = index_plus(n->kid[1], i);
  bool quotient_ok = quotient->op == IR_DIV && quotient->kid[0]->op == IR_VAR &&
                     quotient->kid[0]->name == i && quotient->kid[1] == d;
  bool minus_ok = minus->op == IR_SUB && minus->kid[0]->op == IR_VAR && minus->kid[0]->name == i &&
                  minus->kid[1] == d;
  return d && quotient_ok && minus_ok ? d : NULL;
}

/* The destination's shape: a ring, a shift or a swap with its SHIFT (and N), else false. */
static bool ring_shape(const ir_node *dst, sym i, msg_ring_form *form) {
  const ir_node *x;
  form->modulus = NULL;
  if (dst->op == IR_MOD && (x = index_plus(dst->kid[0], i)) && ring_part(dst->kid[1], i)) {
    form->shape = TLOP_RT_RING;
    form->modulus = dst->kid[1];
  } else if ((x = index_plus(dst, i))) {
    form->shape = TLOP_RT_SHIFT;
  } else if ((x = swap_block(dst, i))) {
    form->shape = TLOP_RT_SWAP;
  } else {
    return false;
  }
  form->shift = x;
  return true;
}

bool msgs_ring_form(const ir_node *stage, msg_ring_form *form) {
  const ir_node *loop = stage->kid[1], *group;
  const char *mapping = ir_mapping(stage, &group);
  if (!mapping || loop->op != IR_SUM || loop->kid[2]->op != IR_SEND)
    return false;
  sym i = loop->name;
  const ir_node *send = loop->kid[2];
  *form = (msg_ring_form){.loop = loop, .dst = send->kid[1], .size = send->kid[2], .group = group,
                          .round_robin = !strcmp(mapping, "round_robin")};
  return send->kid[0]->op == IR_VAR && send->kid[0]->name == i && ring_shape(form->dst, i, form) &&
         ring_part(loop->kid[0], i) && ring_part(loop->kid[1], i) && ring_part(form->size, i) &&
         ring_part(group, stage->name) && ring_part(group, i);
}

/* Whole numbers up to 2^40: the counts below are exact in int64_t and in doubles. */
static bool small_whole(double v) { return v >= 0 && v <= 0x1p40 && v == (double)(int64_t)v; }

/* The ranks d < y with d ≡ n (mod g). */
static int64_t ranks_below(int64_t n, int64_t g, int64_t y) { return y > n ? (y - n - 1) / g + 1 : 0; }

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* The length of [a, b) ∩ [x, y). */
static int64_t overlap(int64_t a, int64_t b, int64_t x, int64_t y) {
  int64_t lo = max64(a, x), hi = min64(b, y);
  return hi > lo ? hi - lo : 0;
}

/* Where a regular stage's messages go: the ranks [a, b), each receiving from rank
 * y − offset, or (swap) from its partner in blocks of offset ranks — y + offset in an
 * even block, y − offset in an odd one; a ≥ 0. */
typedef struct ring_piece {
  int64_t a, b, offset;
  bool swap;
} ring_piece;

/* A stage's pieces: a ring two, a shift one, a swap its whole pairs of blocks and the
 * parts of the pairs at either end (at most four). */
typedef struct ring_pieces {
  ring_piece p[5];
  int n;
  int64_t group;
  bool round_robin;
  /* the nodes [first, end) that may receive, split into runs of equal counts starting at
   * start[0] = first … start[nruns − 1] (start[nruns] = end), their nodes' messages from
   * their own node and from others (k[net]); node by node where a swap's counts vary from
   * node to node */
  int64_t first, end, start[22], k[21][2];
  int nruns;
  bool node_by_node;
} ring_pieces;

static void add_piece(ring_pieces *ps, int64_t a, int64_t b, int64_t offset, bool swap) {
  if (b > a)
    ps->p[ps->n++] = (ring_piece){a, b, offset, swap};
}

/* Sources [u, v) within one pair of blocks of d: the even block's go d up, the odd's d down. */
static void partial_pair(ring_pieces *ps, int64_t u, int64_t v, int64_t d) {
  int64_t odd = u / (2 * d) * (2 * d) + d; /* the first rank of the pair's odd block */
  add_piece(ps, u + d, min64(v, odd) + d, d, false);
  add_piece(ps, max64(u, odd) - d, v - d, -d, false);
}

static void swap_pieces(ring_pieces *ps, int64_t lo, int64_t hi, int64_t d) {
  int64_t pair = 2 * d, first = (lo + pair - 1) / pair * pair, last = hi / pair * pair;
  if (first > last) { /* inside one pair */
    partial_pair(ps, lo, hi, d);
    return;
  }
  partial_pair(ps, lo, first, d);
  add_piece(ps, first, last, d, true);
  partial_pair(ps, last, hi, d);
}

static void ring_pieces_of(const msg_ring *r, ring_pieces *ps) {
  int64_t lo = (int64_t)r->lo, hi = lo + (int64_t)r->count, s = (int64_t)r->shift;
  ps->n = 0; /* the rest is filled as it is used: no zeroing of the arrays */
  ps->group = (int64_t)r->group;
  ps->round_robin = r->round_robin != 0;
  ps->node_by_node = false;
  if (r->shape == TLOP_RT_SWAP) {
    swap_pieces(ps, lo, hi, s);
  } else if (r->shape == TLOP_RT_SHIFT) {
    add_piece(ps, lo + s, hi + s, s, false);
  } else { /* 0 … N − 1 rotated by c: c … N − 1 from 0 …, 0 … c − 1 from N − c … */
    int64_t N = hi, c = s % N;
    add_piece(ps, c, N, c, false);
    add_piece(ps, 0, c, c - N, false);
  }
}

/* The ranks y in [u, v) whose block of d, ⌊y / d⌋, is odd (else even). */
static int64_t in_blocks(int64_t u, int64_t v, int64_t d, bool odd) {
  if (v <= u)
    return 0;
  /* below x: the odd blocks' ranks */
  int64_t below_v = v / (2 * d) * d + max64(0, v % (2 * d) - d);
  int64_t below_u = u / (2 * d) * d + max64(0, u % (2 * d) - d);
  return odd ? below_v - below_u : (v - u) - (below_v - below_u);
}

/* The messages node n receives from itself (k[0]) and from other nodes (k[1]). */
static void node_counts(const ring_pieces *ps, int64_t n, int64_t k[2]) {
  int64_t g = ps->group, x = n * g, z = x + g, total = 0, local = 0;
  for (int j = 0; j < ps->n; j++) {
    const ring_piece *p = &ps->p[j];
    if (ps->round_robin) { /* every source of a piece is on the node, or none */
      int64_t here = ranks_below(n, g, p->b) - ranks_below(n, g, p->a);
      total += here;
      local += p->offset % g == 0 ? here : 0;
      continue;
    }
    int64_t u = max64(x, p->a), v = min64(z, p->b), d = p->offset;
    total += max64(0, v - u);
    if (p->swap)
      local += in_blocks(max64(u, x + d), min64(v, z + d), d, true) +
               in_blocks(max64(u, x - d), min64(v, z - d), d, false);
    else
      local += overlap(u, v, x + d, z + d);
  }
  k[0] = local;
  k[1] = total - local;
}

/* The nodes after which a piece's counts may change: sequential, the nodes holding its
 * ends and those after them (a node inside it has its g ranks, and of a shift
 * max(0, g − |offset|) from itself, of a swap all where 2d divides g, none where g
 * divides d, else any); round robin, the residues of its ends, where ranks_below steps. */
static int piece_breaks(ring_pieces *ps, const ring_piece *p, int64_t at[4]) {
  int64_t g = ps->group;
  if (ps->round_robin) {
    at[0] = p->a % g, at[1] = p->b % g;
    return 2;
  }
  int64_t first = p->a / g, last = (p->b - 1) / g;
  ps->node_by_node |= p->swap && g % (2 * p->offset) != 0 && p->offset % g != 0;
  at[0] = first, at[1] = first + 1, at[2] = last, at[3] = last + 1;
  return 4;
}

/* The nodes that may receive and their runs of equal counts, once per stage: the walks
 * below then divide nothing. */
static void ring_runs(ring_pieces *ps) {
  int64_t a = INT64_MAX, b = 0, g = ps->group;
  for (int k = 0; k < ps->n; k++)
    a = min64(a, ps->p[k].a), b = max64(b, ps->p[k].b);
  ps->first = ps->round_robin ? 0 : a / g;
  ps->end = ps->round_robin ? min64(g, b) : (b - 1) / g + 1;
  ps->start[0] = ps->first;
  ps->nruns = 1;
  for (int k = 0; k < ps->n; k++) {
    int64_t at[4];
    for (int j = 0, nat = piece_breaks(ps, &ps->p[k], at); j < nat; j++) {
      int i = ps->nruns; /* insert at[j] in order, once */
      if (at[j] <= ps->first || at[j] >= ps->end)
        continue;
      while (ps->start[i - 1] > at[j])
        i--;
      if (ps->start[i - 1] == at[j])
        continue;
      for (int m = ps->nruns++; m > i; m--)
        ps->start[m] = ps->start[m - 1];
      ps->start[i] = at[j];
    }
  }
  ps->start[ps->nruns] = ps->end;
  for (int j = 0; j < ps->nruns && !ps->node_by_node; j++)
    node_counts(ps, ps->start[j], ps->k[j]);
}

/* The messages node n, of the run starting at start[run], receives on channel net. */
static int64_t run_messages(const ring_pieces *ps, int run, int64_t n, int net) {
  if (!ps->node_by_node)
    return ps->k[run][net];
  int64_t k[2];
  node_counts(ps, n, k);
  return k[net];
}

/* The run after the one starting at start[*run] (node n): its first node. */
static int64_t next_run(const ring_pieces *ps, int *run, int64_t n) {
  if (ps->node_by_node)
    return n + 1;
  return ps->start[++*run];
}

/* One resource's messages priced as msgs_cost does (one size: one group), the prices of
 * earlier resources of the channel kept: the runs of nodes of a stage share a few counts. */
typedef struct ring_prices {
  double tau[8], cost[8];
  int n;
} ring_prices;

static bool ring_resource(const msg_pricer *pr, ring_prices *seen, double size, double tau,
                          double *cost) {
  for (int k = 0; k < seen->n; k++)
    if (seen->tau[k] == tau)
      return *cost = seen->cost[k], true;
  if (!progression(pr, &size, &tau, 1, cost))
    return false;
  if (seen->n < 8) {
    seen->tau[seen->n] = tau;
    seen->cost[seen->n++] = *cost;
  }
  return true;
}

/* Whether the stage's ranks, counts and τ are whole numbers that counting gives exactly,
 * every destination a rank ≥ 0. */
static bool ring_closed(const msg_ring *r, const double par[2]) {
  bool shape_ok = r->shape == TLOP_RT_RING  ? r->lo == 0 && r->count == r->modulus
                  : r->shape == TLOP_RT_SWAP ? r->shift >= 1
                                             : r->shape == TLOP_RT_SHIFT;
  bool closed = shape_ok && r->count >= 1 && small_whole(r->count) && small_whole(r->lo) &&
                small_whole(r->shift) && r->group >= 1 && small_whole(r->group) &&
                isfinite(r->size) && r->size >= 0 && r->count <= r->max_messages;
  for (int net = 0; net < 2 && closed; net++)
    closed = small_whole(par[net]) && r->count * par[net] <= 0x1p53;
  return closed;
}

bool msgs_ring_cost(const msg_ring *r, const double par[2], const msg_pricer pr[2], double *out,
                    bool *closed) {
  /* a node's τ, its count of messages times the whole ∥ factor, is the sum msgs_cost adds
   * message by message */
  if (!(*closed = ring_closed(r, par)))
    return false;
  ring_pieces ps;
  ring_pieces_of(r, &ps);
  ring_runs(&ps);
  double worst = 0;
  /* msgs_cost's order: every node's shared memory, then every node's network; a run of
   * nodes with the same counts costs the same, priced once */
  for (int net = 0; net < 2; net++) {
    ring_prices seen;
    seen.n = 0; /* its arrays are filled as they are used */
    int run = 0;
    for (int64_t n = ps.first; n < ps.end; n = next_run(&ps, &run, n)) {
      int64_t k = run_messages(&ps, run, n, net);
      double cost;
      if (k == 0)
        continue;
      if (!ring_resource(&pr[net], &seen, r->size, (double)k * par[net], &cost))
        return false;
      if (cost > worst)
        worst = cost;
    }
  }
  *out = worst;
  return true;
}

/* A message the interpreter prices (its channel's T, or its L in messages[L]): the
 * stage's channel, or why it has none. */
typedef struct priced_message {
  priced_transfer t;
  bool net, by_L;
} priced_message;

static bool price_message(void *self, double m, double tau, double *cost) {
  priced_message *pm = self;
  if (pm->t.ch && pm->by_L)
    return transfer_cost(pm->t.es, pm->t.at, pm->t.ch, m, tau, cost);
  if (pm->t.ch)
    return transmission_cost(pm->t.es, pm->t.at, pm->t.ch, m, tau, cost);
  fail(pm->t.es, pm->t.at, "messages %s need a channel '%s' on platform '%s'",
       pm->net ? "between nodes" : "within a node", pm->net ? "net" : "shm",
       pm->t.es->pf->name->name);
  return false;
}

static bool count_terms(eval_state *es, const ir_node *n, double count, double mult);

/* A regular stage (msgs_ring_form) counted per node when its values allow (*closed), after
 * what placing its messages would evaluate and check first, in the same order: the
 * mapping, the loop's bounds and terms, the first message. Otherwise (*closed false) what
 * was evaluated leaves no trace, and the messages are placed one by one. */
static bool eval_ring(eval_state *es, const ir_node *n, const double par[2],
                      const msg_pricer pr[2], double *out, bool *closed) {
  msg_ring_form form;
  *closed = false;
  if (es->placing || !msgs_ring_form(n, &form))
    return true;
  const ir_node *loop = form.loop;
  msg_ring r = {.round_robin = form.round_robin, .max_messages = es->ctx->max_messages,
                .shape = form.shape};
  double hi, dst;
  if (!check_mapping(es, n) || !eval(es, loop->kid[0], &r.lo) || !eval(es, loop->kid[1], &hi))
    return false;
  if (!isfinite(r.lo) || !isfinite(hi) || hi < r.lo)
    return true;
  r.count = floor(hi - r.lo) + 1;
  bool projected = es->proj_on && !((loop->kid[0]->vars | loop->kid[1]->vars) & es->proj_vars);
  double terms = es->terms;
  if (!count_terms(es, loop, r.count, projected ? es->proj_mult : 1))
    return false;
  sym i = loop->name;
  ensure(es, i->id);
  double saved = es->vals[i->id];
  es->vals[i->id] = r.lo;
  bool ok = eval(es, form.dst, &dst) && eval(es, form.size, &r.size) &&
            check_size(es, loop->kid[2], r.size) && check_rank(es, loop->kid[2], r.lo) &&
            check_rank(es, loop->kid[2], dst) && eval(es, form.shift, &r.shift) &&
            (!form.modulus || eval(es, form.modulus, &r.modulus)) && eval(es, form.group, &r.group);
  ok = ok && (msgs_ring_cost(&r, par, pr, out, closed) || !*closed); /* not closed: no failure */
  es->vals[i->id] = saved;
  if (ok && !*closed)
    es->terms = terms; /* placing the messages counts them again */
  return ok;
}

static bool eval_msgs(eval_state *es, const ir_node *n, double *out) {
  priced_message pm[2];
  msg_pricer pr[2];
  double par[2];
  for (int net = 0; net < 2; net++) {
    const pf_channel *ch = pf_channel_find(es->pf, ctx_sym(es->ctx, net ? "net" : "shm"));
    pm[net] = (priced_message){{es, n, ch}, net, n->num != 0};
    pr[net] = (msg_pricer){price_message, &pm[net]};
    par[net] = par_factor(es, ch);
  }
  bool closed;
  if (!eval_ring(es, n, par, pr, out, &closed))
    return false;
  if (closed)
    return true;
  msg *ms;
  size_t nm;
  return eval_messages(es, n, &ms, &nm) && msgs_cost(ms, nm, par, pr, out);
}

/* The JIT's messages stages: a price function per channel (NULL: the platform has none)
 * is called with x[nx] = m and x[nx + 1] = τ appended to the point x. */
typedef struct priced_jit {
  tlop_rt_price fn;
  double *x;
  int64_t nx;
  const void *tables;
  uint8_t flags;
} priced_jit;

static bool price_jit(void *self, double m, double tau, double *cost) {
  priced_jit *pj = self;
  if (!pj->fn)
    return false;
  uint8_t flags = 0;
  pj->x[pj->nx] = m;
  pj->x[pj->nx + 1] = tau;
  *cost = pj->fn(pj->x, pj->tables, &flags);
  pj->flags |= flags;
  return isfinite(*cost);
}

/* The point x with room for m and τ after it: in `room` (POINT_ROOM doubles) when it fits,
 * else allocated (free it when it is not room) — a kernel calls per point, malloc costs. */
#define POINT_ROOM 16
static double *point_with_room(const double *x, int64_t nx, double *room) {
  double *xm = nx + 2 <= POINT_ROOM ? room : xmalloc(((size_t)nx + 2) * sizeof *xm);
  if (nx)
    memcpy(xm, x, (size_t)nx * sizeof *xm);
  return xm;
}

double tlop_rt_messages(msg *ms, int64_t n, double par_shm, double par_net, tlop_rt_price shm,
                        tlop_rt_price net, const double *x, int64_t nx, const void *tables,
                        uint8_t *xflags) {
  /* the code flagged these as errors already; msgs_cost could not even sort them */
  for (int64_t i = 0; i < n; i++)
    if (!isfinite(ms[i].size) || !isfinite(ms[i].node))
      return NAN;
  double room[POINT_ROOM], *xm = point_with_room(x, nx, room), cost = NAN;
  priced_jit pj[2] = {{shm, xm, nx, tables, 0}, {net, xm, nx, tables, 0}};
  msg_pricer pr[2] = {{price_jit, &pj[0]}, {price_jit, &pj[1]}};
  double par[2] = {par_shm, par_net};
  if (!msgs_cost(ms, (size_t)n, par, pr, &cost))
    cost = NAN;
  *xflags |= pj[0].flags | pj[1].flags;
  if (xm != room)
    free(xm);
  return cost;
}

/* The rank src sends to, as the stage's code computes it (msgs_ring_form's shapes). */
static double ring_destination(const msg_ring *r, double src) {
  if (r->shape == TLOP_RT_SHIFT)
    return src + r->shift;
  if (r->shape == TLOP_RT_SWAP)
    return fmod(floor(src / r->shift), 2) == 0 ? src + r->shift : src - r->shift;
  return fmod(src + r->shift, r->modulus);
}

double tlop_rt_messages_regular(const tlop_rt_regular *ring, double par_shm, double par_net,
                                tlop_rt_price shm, tlop_rt_price net, const double *x, int64_t nx,
                                const void *tables, uint8_t *xflags) {
  double room[POINT_ROOM], *xm = point_with_room(x, nx, room), par[2] = {par_shm, par_net};
  double cost = NAN;
  priced_jit pj[2] = {{shm, xm, nx, tables, 0}, {net, xm, nx, tables, 0}};
  msg_pricer pr[2] = {{price_jit, &pj[0]}, {price_jit, &pj[1]}};
  bool closed;
  if (!msgs_ring_cost(ring, par, pr, &cost, &closed) && closed)
    cost = NAN;
  *xflags |= pj[0].flags | pj[1].flags;
  if (xm != room)
    free(xm);
  if (closed)
    return cost;
  /* one by one, as the placements and the mapping would place them; an invalid message
   * (the interpreter says which) or more than max_messages: NaN */
  const tlop_rt_regular *r = ring;
  if (!(r->count >= 0 && r->count <= r->max_messages && isfinite(r->size) && r->size >= 0))
    return NAN;
  msg *ms = xmalloc(((size_t)r->count + 1) * sizeof *ms);
  size_t n = 0;
  for (double k = 0; k < r->count; k++, n++) {
    double src = r->lo + k, dst = ring_destination(r, src);
    if (!(src >= 0 && src == floor(src) && dst >= 0 && dst == floor(dst))) {
      free(ms);
      return NAN;
    }
    double from = r->round_robin != 0 ? fmod(src, r->group) : floor(src / r->group);
    double to = r->round_robin != 0 ? fmod(dst, r->group) : floor(dst / r->group);
    ms[n] = (msg){src, dst, r->size, 1, to, from != to};
  }
  cost = tlop_rt_messages(ms, (int64_t)n, par_shm, par_net, shm, net, x, nx, tables, xflags);
  free(ms);
  return cost;
}

/* ---- flows stages: Martinasso & Méhaut's flows between nodes (flows.c) ---- */

/* One of a flows stage's functions: the cut of an entry, the time alone of a size. */
static bool apply(eval_state *es, sym v, const ir_node *body, double value, double *out) {
  ensure(es, v->id);
  double saved = es->vals[v->id];
  es->vals[v->id] = value;
  bool ok = eval(es, body, out);
  es->vals[v->id] = saved;
  return ok;
}

/* send a -> b : Q at t; — one flow per pass of the loops around it. */
static bool eval_flow(eval_state *es, const ir_node *n, double *out) {
  const ir_node *send = n->kid[0];
  net_flow f = {0};
  *out = 0;
  if (!eval(es, send->kid[0], &f.src) || !eval(es, send->kid[1], &f.dst) ||
      !eval(es, send->kid[2], &f.size) || !eval(es, n->kid[1], &f.start))
    return false;
  if (!check_whole(es, send->kid[0], f.src, "node") ||
      !check_whole(es, send->kid[1], f.dst, "node") || !check_size(es, send->kid[2], f.size))
    return false;
  char num[40];
  if (f.src == f.dst) {
    fmt_double(num, sizeof num, f.src);
    fail(es, n, "a flow from node %s to itself: flows cross the network between two nodes", num);
    return false;
  }
  if (!(isfinite(f.start) && f.start >= 0)) {
    fmt_double(num, sizeof num, f.start);
    fail(es, n->kid[1], "the start of a flow, %s s, is %s", num,
         isfinite(f.start) ? "negative" : "not finite");
    return false;
  }
  for (double k = 0; k < es->sched_mult; k++) {
    if (es->nflows >= es->ctx->max_messages) {
      fmt_double(num, sizeof num, es->ctx->max_messages);
      fail(es, n, "more than %s flows in one flows stage (--max-messages)", num);
      return false;
    }
    VEC_PUSH(es->flows, es->nflows, es->flows_cap, f);
  }
  return true;
}

/* Table 2's entries and each flow's time alone, all finite and ≥ 0. */
static bool price_flows(eval_state *es, const ir_node *n, double cuts[FLOW_NCUTS]) {
  char num[40];
  for (int k = 0; k < FLOW_NCUTS; k++) {
    const ir_node *cut = n->kid[1]->kid[2];
    if (!apply(es, n->kid[1]->name, cut, k, &cuts[k]))
      return false;
    if (!(isfinite(cuts[k]) && cuts[k] >= 0)) {
      fmt_double(num, sizeof num, cuts[k]);
      fail(es, cut, "the flow cut of entry %d is %s: a cut is a finite number ≥ 0", k, num);
      return false;
    }
  }
  for (size_t i = 0; i < es->nflows; i++) {
    net_flow *f = &es->flows[i];
    if (!apply(es, n->name, n->kid[0], f->size, &f->alone))
      return false;
    if (!(isfinite(f->alone) && f->alone >= 0)) {
      fmt_double(num, sizeof num, f->alone);
      fail(es, n->kid[0], "the time of a flow alone is %s s: it must be finite and ≥ 0", num);
      return false;
    }
  }
  return true;
}

/* Places the flows, prices them and runs the progression: the stage lasts from the first
 * start to the last completion. */
static bool run_flows(eval_state *es, const ir_node *n, strbuf *trace, double *out) {
  if (es->placing) {
    fail(es, n, "a flows stage inside a schedule, a messages stage or another flows stage");
    return false;
  }
  es->placing = true;
  es->nflows = 0;
  es->sched_mult = 1;
  double cuts[FLOW_NCUTS], ignored;
  bool ok = eval(es, n->kid[2], &ignored);
  es->placing = false;
  if (!ok || !price_flows(es, n, cuts))
    return false;
  char *error = flows_progress(es->flows, es->nflows, cuts, trace);
  if (error) {
    fail(es, n, "%s", error);
    free(error);
    return false;
  }
  double first = INFINITY, last = 0;
  for (size_t i = 0; i < es->nflows; i++) {
    first = fmin(first, es->flows[i].start);
    last = fmax(last, es->flows[i].done);
  }
  *out = es->nflows ? last - first : 0;
  return true;
}

bool eval_flows_trace(eval_state *es, const ir_node *n, char **text) {
  strbuf b = {0};
  double ignored;
  bool ok = run_flows(es, n, &b, &ignored);
  *text = sb_take(&b);
  return ok;
}

/* ---- schedules: transfers placed at pipeline steps; a step costs one L(S, Σ τ) ---- */

static bool eval_at(eval_state *es, const ir_node *n, double *out) {
  double step, count;
  if (!eval(es, n->kid[0], &step) || !eval(es, n->kid[1], &count))
    return false;
  *out = 0;
  if (!(step >= 1 && step == floor(step) && step <= es->ctx->max_steps)) {
    char x[40], lim[40];
    fmt_double(x, sizeof x, step);
    fmt_double(lim, sizeof lim, es->ctx->max_steps);
    fail(es, n, "step %s of a schedule is not a whole number from 1 to %s (--max-steps)", x, lim);
    return false;
  }
  if (!(count >= 0 && isfinite(count))) {
    char x[40];
    fmt_double(x, sizeof x, count);
    fail(es, n, "%s transfers placed at a step: the count must be a finite number ≥ 0", x);
    return false;
  }
  size_t t = (size_t)step;
  if (t >= es->ntaus) {
    es->taus = grow_array(es->taus, &es->taus_cap, t + 1, sizeof *es->taus);
    for (size_t i = es->ntaus; i <= t; i++)
      es->taus[i] = 0;
    es->ntaus = t + 1;
  }
  es->taus[t] += count * es->sched_mult;
  return true;
}

/* The τ of each step of schedule n (index = step, 0 unused); false after a diagnostic. */
bool eval_schedule_taus(eval_state *es, const ir_node *n, const double **taus, size_t *nsteps) {
  bool ok = place(es, n);
  *taus = es->taus;
  *nsteps = es->ntaus;
  return ok;
}

static bool eval_schedule(eval_state *es, const ir_node *n, double *out) {
  const pf_channel *ch = pf_channel_find(es->pf, n->name);
  double size;
  if (!ch) {
    fail(es, n, "platform '%s' has no channel '%s'", es->pf->name->name, n->name ? n->name->name : "");
    return false;
  }
  if (!eval(es, n->kid[0], &size))
    return false;
  const double *taus;
  size_t steps;
  if (!eval_schedule_taus(es, n, &taus, &steps))
    return false;
  double a = par_factor(es, ch), total = 0;
  for (size_t t = 1; t < steps; t++) {
    double c;
    if (taus[t] == 0)
      continue;
    if (!transfer_cost(es, n, ch, size, taus[t] * a, &c))
      return false;
    total += c;
  }
  *out = total;
  return true;
}

/* ---- the evaluator ---- */

/* A sum of count terms, run mult times by the sums around it (when projected), within
 * --max-terms: counted; else the failure. */
static bool count_terms(eval_state *es, const ir_node *n, double count, double mult) {
  if (es->terms + count * mult > es->ctx->max_terms) {
    char num[40], lim[40];
    fmt_double(lim, sizeof lim, es->ctx->max_terms);
    if (es->terms == 0 && mult == 1) {
      fmt_double(num, sizeof num, count);
      fail(es, n, "the %s has %s terms, more than the limit of %s (--max-terms)",
           n->op == IR_MAXOVER ? "maximum" : "sum", num, lim);
    } else {
      fmt_double(num, sizeof num, es->terms + count * mult);
      fail(es, n, "the sums of this evaluation add %s terms, more than the limit of %s "
           "(--max-terms)", num, lim);
    }
    return false;
  }
  es->terms += count;
  return true;
}

static bool eval_sum(eval_state *es, const ir_node *n, double *out) {
  double lo, hi;
  if (!eval(es, n->kid[0], &lo) || !eval(es, n->kid[1], &hi))
    return false;
  if (!isfinite(lo) || !isfinite(hi)) {
    fail(es, n, "the bounds of the sum are not finite");
    return false;
  }
  double count = hi >= lo ? floor(hi - lo) + 1 : 0;
  *out = 0;
  if (count == 0)
    return true;
  sym idx = n->name;
  if (!ir_mentions(n->kid[2], idx)) {
    double v, mult = es->sched_mult;
    es->sched_mult *= count;
    bool ok = eval(es, n->kid[2], &v);
    es->sched_mult = mult;
    *out = count * v;
    return ok;
  }
  bool projected = es->proj_on && !((n->kid[0]->vars | n->kid[1]->vars) & es->proj_vars);
  double mult = projected ? es->proj_mult : 1;
  if (!count_terms(es, n, count, mult))
    return false;
  ensure(es, idx->id);
  double saved = es->vals[idx->id], acc = 0;
  bool saved_on = es->proj_on;
  double saved_mult = es->proj_mult;
  uint64_t saved_vars = es->proj_vars;
  es->proj_vars = (projected ? saved_vars : 0) | 1ull << (idx->id % 64);
  bool ok = true;
  for (double k = 0; k < count && ok; k++) {
    double v;
    es->vals[idx->id] = lo + k;
    es->proj_on = true;
    es->proj_mult = mult * (count - k);
    ok = eval(es, n->kid[2], &v);
    acc += v;
  }
  es->vals[idx->id] = saved;
  es->proj_on = saved_on;
  es->proj_mult = saved_mult;
  es->proj_vars = saved_vars;
  *out = acc;
  return ok;
}

/* A maximum over i = lo, lo + 1, … ≤ hi: whole bounds, at least one term, counted against
 * --max-terms as a sum's; its body unprojected (a term is kept or dropped by its value). */
static bool eval_maxover(eval_state *es, const ir_node *n, double *out) {
  double lo, hi;
  if (!eval(es, n->kid[0], &lo) || !eval(es, n->kid[1], &hi))
    return false;
  char a[40], b[40];
  fmt_double(a, sizeof a, lo);
  fmt_double(b, sizeof b, hi);
  if (!(isfinite(lo) && isfinite(hi) && lo == floor(lo) && hi == floor(hi))) {
    fail(es, n, "the bounds of a maximum over %s = %s .. %s are not finite whole numbers",
         n->name->name, a, b);
    return false;
  }
  if (hi < lo) {
    fail(es, n, "a maximum over %s = %s .. %s has no terms: its range is empty",
         n->name->name, a, b);
    return false;
  }
  double count = hi - lo + 1;
  bool projected = es->proj_on && !((n->kid[0]->vars | n->kid[1]->vars) & es->proj_vars);
  if (!count_terms(es, n, count, projected ? es->proj_mult : 1))
    return false;
  sym idx = n->name;
  ensure(es, idx->id);
  double saved = es->vals[idx->id], best = 0;
  bool ok = true;
  for (double k = 0; k < count && ok; k++) {
    double v;
    es->vals[idx->id] = lo + k;
    ok = eval_unprojected(es, n->kid[2], &v);
    best = k == 0 ? v : ir_apply(IR_MAX, best, v);
  }
  es->vals[idx->id] = saved;
  *out = best;
  return ok;
}

/* Evaluates n where its sums must not be projected: only some iterations of the enclosing
 * sums reach it (a branch of an if, the right of and/or, the body of a repeat), or its
 * bounds may use values that change with them (a channel's formula of m and τ). */
static bool eval_unprojected(eval_state *es, const ir_node *n, double *out) {
  bool saved = es->proj_on;
  es->proj_on = false;
  bool ok = eval(es, n, out);
  es->proj_on = saved;
  return ok;
}

static bool check_result(eval_state *es, const ir_node *n, double a, double b, double r) {
  if (isfinite(r))
    return true;
  char x[40], y[40];
  fmt_double(x, sizeof x, a);
  fmt_double(y, sizeof y, b);
  switch (n->op) {
  case IR_DIV:
    if (b == 0) {
      fail(es, n, "division by zero");
      return false;
    }
    break;
  case IR_MOD:
    if (b == 0) {
      fail(es, n, "remainder of a division by zero");
      return false;
    }
    break;
  case IR_LOG2:
  case IR_SQRT:
    fail(es, n, "%s of %s", ir_op_name((ir_op)n->op), x);
    return false;
  case IR_LOG:
    fail(es, n, "log of %s in base %s", y, x);
    return false;
  default:
    break;
  }
  if (isnan(r))
    fail(es, n, "the result is not a number (operands %s and %s)", x, y);
  else
    fail(es, n, "the result overflows to infinity (operands %s and %s)", x, y);
  return false;
}

/* ---- products and quotients whose operands leave the range of doubles ---- */

/* A value as m·2^e with m finite (0.5 ≤ |m| < 1, or 0), beside the value in doubles. The
 * simplifier writes m/2^i/2^i/2^i as m/2^(3i) and 7/2^(343 − i) as 7/2^343·2^i: at
 * 2^i = 2^784, or i = 1030, the original is an ordinary number, but 2^2352 and 2^1030 are
 * out of range; as m·2^e, the quotient and the product are the numbers they are. The wide
 * value is used only where the value in doubles overflowed on the way (an infinity or a
 * NaN, which the JIT finds and hands the point to this interpreter for): elsewhere, an
 * underflow included, the result is the doubles', the JIT's. */
typedef struct wide {
  double m, e;
  double ord; /* the value in doubles, as the JIT computes it */
  bool over;  /* some step of ord was not finite */
} wide;

static wide wide_of(double v) {
  int e;
  double m = frexp(v, &e);
  return (wide){m, e, v, !isfinite(v)};
}

/* log2 of a bound of |w| */
static double wide_top(wide w) { return w.m == 0 ? -INFINITY : w.e; }

static double wide_value(wide w) {
  double e = fmax(fmin(w.e, INT_MAX / 2), INT_MIN / 2); /* beyond: 0 or inf anyway */
  return ldexp(w.m, (int)e);
}

/* r computed as m·2^e, with the value in doubles ord and whether x's, y's or ord left. */
static wide wide_with(wide r, double ord, wide x, wide y) {
  r.ord = ord;
  r.over = x.over || y.over || !isfinite(ord);
  return r;
}

/* The shift that aligns a term of a sum on the sum's exponent: at most 0 (a term of
 * mantissa 0, whose exponent is anything, is shifted by 0), and within an int. */
static int aligned(double shift) { return (int)fmax(fmin(shift, 0), INT_MIN / 2); }

/* x·y, x/y (y ≠ 0), x + y or x − y: the ordinary result, to the bit (a subnormal rounds
 * once), when the operands and the result are in range; else mantissas and exponents
 * apart, a sum aligned on the larger exponent (the bits of the smaller below it lost, as
 * in a sum of doubles). */
static wide wide_arith(ir_op op, wide x, wide y) {
  bool sum = op == IR_ADD || op == IR_SUB;
  double vx = wide_value(x), vy = wide_value(y), r = ir_apply(op, vx, vy);
  double ord = ir_apply(op, x.ord, y.ord);
  if (isfinite(vx) && isfinite(vy) && isfinite(r) && (vx != 0 || x.m == 0) &&
      (vy != 0 || y.m == 0) && (sum || r != 0 || x.m == 0 || (op == IR_MUL && y.m == 0)))
    return wide_with(wide_of(r), ord, x, y);
  if (!sum) {
    wide w = wide_of(ir_apply(op, x.m, y.m));
    w.e += op == IR_MUL ? x.e + y.e : x.e - y.e;
    return wide_with(w, ord, x, y);
  }
  double e = x.m == 0 ? y.e : y.m == 0 ? x.e : fmax(x.e, y.e);
  double mx = ldexp(x.m, aligned(x.e - e)), my = ldexp(y.m, aligned(y.e - e));
  wide w = wide_of(ir_apply(op, mx, my));
  w.e += e;
  return wide_with(w, ord, x, y);
}

static bool eval_wide(eval_state *es, const ir_node *n, wide *out);

/* The terms of a sum, each signed, as m·2^e. */
typedef struct wide_terms {
  wide *term;
  size_t n, cap;
  wide room[16];
} wide_terms;

static void push_term(wide_terms *ts, wide w, bool negate) {
  if (ts->n == ts->cap) {
    ts->cap *= 2;
    if (ts->term == ts->room) {
      ts->term = xmalloc(ts->cap * sizeof *ts->term);
      memcpy(ts->term, ts->room, sizeof ts->room);
    } else {
      ts->term = xrealloc(ts->term, ts->cap * sizeof *ts->term);
    }
  }
  if (negate)
    w.m = -w.m;
  ts->term[ts->n++] = w;
}

/* n's terms through its sums, differences and negations into ts; *ord is n's value in
 * doubles in the tree's order (the JIT's), *over whether a step of it was not finite. */
static bool collect_terms(eval_state *es, const ir_node *n, bool negate, wide_terms *ts,
                          double *ord, bool *over) {
  double a, b;
  bool sum = n->op == IR_ADD || n->op == IR_SUB;
  bool shared = sum && n->kid[1] == n->kid[0] && !(n->kid[0]->flags & IR_HAS_AT);
  if (n->op == IR_NEG) {
    if (!collect_terms(es, n->kid[0], !negate, ts, &a, over))
      return false;
    *ord = -a;
    return true;
  }
  if (sum && !shared) {
    if (!collect_terms(es, n->kid[0], negate, ts, &a, over) ||
        !collect_terms(es, n->kid[1], negate != (n->op == IR_SUB), ts, &b, over))
      return false;
    *ord = ir_apply((ir_op)n->op, a, b);
    *over = *over || !isfinite(*ord);
    return true;
  }
  wide w;
  if (!eval_wide(es, shared ? n->kid[0] : n, &w))
    return false;
  *over = *over || w.over;
  *ord = w.ord;
  push_term(ts, w, negate);
  if (shared) { /* x + x or x − x (a let used twice) evaluated once, as eval does */
    push_term(ts, w, negate != (n->op == IR_SUB));
    *ord = ir_apply((ir_op)n->op, w.ord, w.ord);
    *over = *over || !isfinite(*ord);
  }
  return true;
}

/* Larger magnitudes first, 0 last. */
static int by_magnitude(const void *pa, const void *pb) {
  const wide *a = pa, *b = pb;
  double ea = wide_top(*a), eb = wide_top(*b);
  if (ea != eb)
    return ea < eb ? 1 : -1;
  return fabs(a->m) < fabs(b->m) ? 1 : fabs(a->m) > fabs(b->m) ? -1 : 0;
}

/* A sum in the wide range. Where its value in doubles overflowed on the way, its terms are
 * added largest first, so that terms beyond the range that cancel (2^i·m − (c + 2^i·m), or
 * P·2^E + 7P − 2^E − 7 multiplied out) cancel before they absorb the smaller ones, as in
 * the sum itself (cancel-beyond-range-1: in the tree's order, τ = 0 where it is −c/S);
 * elsewhere the sum is the tree's, the JIT's. */
static bool eval_wide_sum(eval_state *es, const ir_node *n, wide *out) {
  wide_terms ts = {.n = 0, .cap = sizeof ts.room / sizeof *ts.room};
  ts.term = ts.room;
  double ord;
  bool over = false, ok = collect_terms(es, n, false, &ts, &ord, &over);
  if (ok && !over)
    *out = wide_of(ord);
  else if (ok) {
    qsort(ts.term, ts.n, sizeof *ts.term, by_magnitude);
    wide sum = ts.term[0];
    for (size_t i = 1; i < ts.n; i++)
      sum = wide_arith(IR_ADD, sum, ts.term[i]);
    sum.ord = ord;
    sum.over = true;
    *out = sum;
  }
  if (ts.term != ts.room)
    free(ts.term);
  return ok;
}

/* n evaluated as m·2^e: sums, products, quotients and powers in the wide range, anything
 * else as eval does it (with its checks); a power fails as eval's would, but for its
 * range. */
static bool eval_wide(eval_state *es, const ir_node *n, wide *out) {
  double a, b;
  if ((n->flags & IR_CALLED) && !counts_whole(es, n))
    return false;
  if (n->op == IR_ADD || n->op == IR_SUB)
    return eval_wide_sum(es, n, out);
  if (n->op == IR_NEG) { /* −c·2^i, as a sum of monomials writes it */
    if (!eval_wide(es, n->kid[0], out))
      return false;
    out->m = -out->m;
    out->ord = -out->ord;
    return true;
  }
  if (ir_keeps_wide(n->op)) {
    /* x/y, as a printed denominator 2^i/0.5 s may be; a numerator c·2^i + d */
    wide x, y;
    if (!eval_wide(es, n->kid[0], &x))
      return false;
    /* x · x (a let used twice) evaluated once, as eval does */
    if (n->kid[1] == n->kid[0] && !(n->kid[0]->flags & IR_HAS_AT))
      y = x;
    else if (!eval_wide(es, n->kid[1], &y))
      return false;
    if (n->op == IR_DIV && y.m == 0) /* a division by zero, as eval's */
      return check_result(es, n, wide_value(x), wide_value(y), wide_value(x) / wide_value(y));
    *out = wide_arith((ir_op)n->op, x, y);
    return true;
  }
  if (n->op != IR_POW) {
    if (!eval(es, n, &a))
      return false;
    *out = wide_of(a);
    return true;
  }
  /* the base in the wide range too: (x^3)^4 where x^3 leaves the range of doubles */
  wide base;
  if (!eval_wide(es, n->kid[0], &base) || !eval(es, n->kid[1], &b))
    return false;
  a = base.over ? wide_value(base) : base.ord;
  double r = ir_apply(IR_POW, base.ord, b);
  /* out of range (inf, or 0 by underflow), and defined */
  bool defined = base.m != 0 && isfinite(b) && (base.m > 0 || b == floor(b));
  if (!(isfinite(r) && (r != 0 || base.ord == 0)) && defined) {
    double lg = base.over ? base.e + log2(fabs(base.m)) : log2(fabs(a));
    double l = b * lg, e = isfinite(l) ? floor(l) : l;
    bool odd = base.m < 0 && fmod(fabs(b), 2) == 1;
    *out = (wide){(odd ? -0.5 : 0.5) * (isfinite(l) ? exp2(l - e) : 1), e + 1, r,
                  base.over || !isfinite(r)};
    return true;
  }
  *out = wide_of(r);
  out->over |= base.over;
  return check_result(es, n, a, b, r);
}

/* A product or quotient with a compound operand (a product, quotient or power, or a sum
 * of one), evaluated in the wide range, where the value in doubles overflowed on the way:
 * 1e-6·P^486/max(P^243, 1) is a number at P = 16, though its numerator is not. */
static bool eval_in_wide_range(eval_state *es, const ir_node *n, double *out) {
  wide q;
  if (!eval_wide(es, n, &q))
    return false;
  *out = q.over ? wide_value(q) : q.ord;
  if (isfinite(*out))
    return true;
  char m[40];
  fmt_double(m, sizeof m, q.m);
  fail(es, n, "the result overflows to infinity (%s·2^%.17g)", m, q.e);
  return false;
}

/* The count arguments of the algorithm calls n is the node of (ir_calls): each a whole
 * number ≥ 0, else an error at the argument that names the algorithm and its parameter
 * ("allgather_bruck: P = 2.5 is not a whole number ≥ 0 (P is a count), from P/2 where
 * P = 5"), before the body fails somewhere inside for it. */
static bool counts_whole(eval_state *es, const ir_node *n) {
  for (const ir_call *c = ir_calls(es->ctx, n); c; c = c->next)
    for (size_t i = 0; i < c->nargs; i++) {
      const ir_count_arg *arg = &c->args[i];
      double v;
      if (!eval_unprojected(es, arg->value, &v))
        return false;
      if (v >= 0 && isfinite(v) && v == floor(v))
        continue;
      es->failed = true;
      char num[40];
      fmt_double(num, sizeof num, v);
      const char *param = arg->param->name;
      strbuf b = {0}, note = {0};
      sb_printf(&b, "%s: %s = %s is not a whole number ≥ 0 (%s is a count)", c->callee->name,
                param, num, param);
      if (arg->value->op == IR_VAR && arg->value->name != arg->param)
        sb_printf(&b, ", from %s", arg->value->name->name);
      else if (arg->value->op != IR_VAR && arg->value->vars) /* not a constant */
        describe(es, arg->value, ", from ", &b);
      sb_printf(&note, "'%s' is a count here", param);
      es->error = (eval_error){arg->at, b.s, arg->decl, note.s};
      return false;
    }
  return true;
}

/* A variable with no value. Variables are hash-consed, so n's origin is whichever lowering
 * built it first (a platform's formula, maybe): a parameter of the algorithm evaluated is
 * named where the algorithm declares it. Over a grid an axis could give it a value too. */
static void fail_unbound(eval_state *es, const ir_node *n) {
  const char *name = n->name->name;
  bool grid = es->npoint_vars > 0;
  fail(es, n, "'%s' has no value: give it one with --set %s=…%s%s%s", name, name,
       grid ? " or --grid " : "", grid ? name : "", grid ? "=…" : "");
  for (size_t i = 0; es->expr && es->expr->free_decl && i < es->expr->nfree; i++)
    if (es->expr->free[i] == n->name)
      es->error.at = es->expr->free_decl[i];
}

static bool eval(eval_state *es, const ir_node *n, double *out) {
  double a = 0, b = 0;
  if ((n->flags & IR_CALLED) && !counts_whole(es, n))
    return false;
  switch (n->op) {
  case IR_NUM:
    *out = n->num;
    return true;
  case IR_VAR: {
    bool found;
    *out = eval_lookup_var(es, n->name, &found);
    if (!found && !es->failed)
      fail_unbound(es, n);
    return found;
  }
  case IR_IF:
    if (!eval(es, n->kid[0], &a))
      return false;
    return eval_unprojected(es, n->kid[a != 0 ? 1 : 2], out);
  case IR_AND:
  case IR_OR:
    if (!eval(es, n->kid[0], &a))
      return false;
    if ((n->op == IR_AND) == (a == 0)) {
      *out = n->op == IR_OR;
      return true;
    }
    if (!eval_unprojected(es, n->kid[1], &b))
      return false;
    *out = b != 0;
    return true;
  case IR_SUM:
    return eval_sum(es, n, out);
  case IR_MAXOVER:
    return eval_maxover(es, n, out);
  case IR_PAR: {
    if (!eval(es, n->kid[0], &a))
      return false;
    if (!(isfinite(a) && a > 0)) {
      char x[40];
      fmt_double(x, sizeof x, a);
      fail(es, n, isfinite(a) ? "the count of ∥ is %s; it must be positive"
                              : "the count of ∥ is %s: not finite", x);
      return false;
    }
    const pf_channel *ch = NULL;
    if (n->name && !(ch = channel_of(es, n)))
      return false;
    par_scope s = {ch, a};
    VEC_PUSH(es->par, es->npar, es->par_cap, s);
    bool ok = eval(es, n->kid[1], out);
    es->npar--;
    return ok;
  }
  case IR_CONC:
    return eval_conc(es, n, out);
  case IR_SCHED:
    return eval_schedule(es, n, out);
  case IR_AT:
    return eval_at(es, n, out);
  case IR_MSGS:
    return eval_msgs(es, n, out);
  case IR_SEND:
    return eval_send(es, n, out);
  case IR_FLOWS:
    return run_flows(es, n, NULL, out);
  case IR_FLOW:
    return eval_flow(es, n, out);
  case IR_L:
  case IR_TX:
    return eval_L_or_T(es, n, out);
  case IR_O:
  case IR_PACK:
    return eval_o_or_p(es, n, out);
  case IR_GAMMA:
    return eval_gamma(es, n, out);
  case IR_STAGE:
    return eval(es, n->kid[0], out);
  case IR_REPEAT:
    if (!eval(es, n->kid[0], &a))
      return false;
    if (!(a >= 0 && isfinite(a) && a == floor(a))) {
      char x[40];
      fmt_double(x, sizeof x, a);
      fail(es, n, "repeat count %s is %s", x,
           !isfinite(a) ? "not finite" : a < 0 ? "negative" : "not a whole number");
      return false;
    }
    /* repeated no times: not evaluated, as a sum with no terms (but 0 · X evaluates X:
     * the simplifier's q · (1/q) = 1 holds only where both factors are defined) */
    if (a == 0) {
      *out = 0;
      return true;
    }
    if (!eval_unprojected(es, n->kid[1], &b))
      return false;
    *out = a * b;
    return true;
  default:
    break;
  }
  if (ir_starts_wide(n))
    return eval_in_wide_range(es, n, out);
  if (!eval(es, n->kid[0], &a))
    return false;
  /* x + x (a let used twice) is one node: evaluated once, or a DAG of nested doublings
   * would be walked as a tree; placements must happen each time */
  if (n->nkids > 1 && n->kid[1] == n->kid[0] && !(n->kid[0]->flags & IR_HAS_AT))
    b = a;
  else if (n->nkids > 1 && !eval(es, n->kid[1], &b))
    return false;
  if ((n->op == IR_LOG2 && a <= 0) || (n->op == IR_LOG && (b <= 0 || a <= 0 || a == 1))) {
    char x[40], y[40];
    fmt_double(x, sizeof x, n->op == IR_LOG ? b : a);
    fmt_double(y, sizeof y, a);
    if (n->op == IR_LOG2 && n->name) /* require(…)'s refusal: the name says why */
      refuse(es, n, "%s", n->name->name);
    else if (n->op == IR_LOG2)
      fail(es, n, "log2 of %s", x);
    else
      fail(es, n, "log of %s in base %s", x, y);
    return false;
  }
  *out = ir_apply((ir_op)n->op, a, b);
  return check_result(es, n, a, b, *out);
}

static void start(eval_state *es) {
  es->failed = false;
  if (es->error.what) { /* not a call to free per point: the cheapest kernels feel it */
    free(es->error.what);
    free(es->error.note);
    es->error = (eval_error){0};
  }
  es->terms = 0;
  es->proj_on = true;
  es->proj_mult = 1;
  es->proj_vars = 0;
  es->npar = 0;
}

bool eval_counts_whole(eval_state *es, const ir_node *n) {
  start(es);
  return counts_whole(es, n);
}

bool eval_node(eval_state *es, const ir_node *n, double *out) {
  start(es);
  return eval(es, n, out);
}

bool eval_node_scaled(eval_state *es, const ir_node *n, double par, double *out) {
  start(es);
  par_scope s = {NULL, par};
  VEC_PUSH(es->par, es->npar, es->par_cap, s);
  bool ok = eval(es, n, out);
  es->npar = 0;
  return ok;
}

const tlop_platform *eval_platform(const eval_state *es) { return es->pf; }
tlop_ctx *eval_ctx(const eval_state *es) { return es->ctx; }
