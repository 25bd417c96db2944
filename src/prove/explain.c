/* explain.c — the per-stage breakdown of an algorithm (the textual Fig. 14 of the τ-Lop
 * paper): each stage with its numbers substituted, its cost and the running total. Stages
 * come from `stages` blocks and indexed stages (one row per index value), and `repeat`
 * (one row standing for N equal stages); a stage that contains stages is opened, and
 * what lies outside any stage is a row of its own. */
#include "prove/prove.h"
#include "print/print.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct explainer {
  eval_state *es;
  tlop_ctx *ctx;
  tlop_stage *rows;
  size_t n, cap;
  double total;
  bool failed;
} explainer;

static void walk(explainer *x, const ir_node *n, double par, double times, const char *prefix,
                 const char *label, int *counter);

static char *index_text(const char *prefix, int k, int count) {
  strbuf b = {0};
  if (count > 1)
    sb_printf(&b, "%s%d..%d", prefix, k, k + count - 1);
  else
    sb_printf(&b, "%s%d", prefix, k);
  return sb_take(&b);
}

/* Whether a breakdown of `count` stages is refused (said, and x failed): a longer one
 * would not be read, only printed. */
static bool too_many_stages(explainer *x, const ir_node *n, double count) {
  if (count <= x->ctx->max_stages)
    return false;
  char lim[40];
  fmt_double(lim, sizeof lim, x->ctx->max_stages);
  diag_error(x->ctx, n->origin, "too many stages to explain: more than %s (--max-stages)", lim);
  x->failed = true;
  return true;
}

static void row(explainer *x, const ir_node *n, double par, double times, const char *prefix,
                const char *label, int *counter);

/* An evaluation failed: the breakdown stops with its error. */
static void stop(explainer *x) {
  eval_report(x->es);
  x->failed = true;
}

/* A schedule is explained step by step, each step one L(S, τ) — the textual Fig. 14. */
static void schedule_rows(explainer *x, const ir_node *n, double par, double times,
                          const char *prefix, const char *label, int *counter) {
  const double *taus;
  size_t steps;
  double size;
  if (!eval_node(x->es, n->kid[0], &size) || !eval_schedule_taus(x->es, n, &taus, &steps)) {
    stop(x);
    return;
  }
  double *copy = xmalloc((steps ? steps : 1) * sizeof *copy);
  if (steps) /* memcpy from NULL is undefined even for 0 bytes */
    memcpy(copy, taus, steps * sizeof *copy);
  tlop_ctx *ctx = x->ctx;
  for (size_t t = 1; t < steps && !x->failed; t++) {
    if (copy[t] == 0)
      continue;
    ir_node *one = ir_make(ctx, IR_L, n->name, 0, ir_num(ctx, size), ir_num(ctx, copy[t]), NULL);
    row(x, one, par, times, prefix, label, counter);
  }
  free(copy);
}

/* A flows stage is shown as the patterns of its progression, each divided into its
 * elementary conflicts with their cuts (R1–R3). */
static char *flows_text(explainer *x, const ir_node *n) {
  char *trace;
  if (!eval_flows_trace(x->es, n, &trace))
    stop(x);
  strbuf b = {0};
  sb_printf(&b, "flows %s", trace);
  free(trace);
  return sb_take(&b);
}

/* The τ of one channel's resources (messages towards one node) in a stage: "7", "1–7". */
static void tau_range(strbuf *b, const msg *ms, size_t nm, bool net, double par) {
  double lo = INFINITY, hi = 0;
  for (size_t i = 0, j; i < nm; i = j) {
    double tau = 0;
    for (j = i; j < nm && ms[j].net == ms[i].net && ms[j].node == ms[i].node; j++)
      tau += ms[j].count * par;
    if (ms[i].net == net)
      lo = fmin(lo, tau), hi = fmax(hi, tau);
  }
  char a[40], z[40];
  fmt_double(a, sizeof a, lo);
  fmt_double(z, sizeof z, hi);
  sb_printf(b, lo == hi ? "τ[%s] %s" : "τ[%s] %s–%s", net ? "net" : "shm", a, z);
}

/* A messages stage's row says how many of its messages stay in a node and how many cross,
 * and the τ of each channel (the messages towards one node: its resources). */
static void messages_text(explainer *x, const ir_node *n, double par, strbuf *b) {
  while (n->op == IR_STAGE || ir_is_gate(n))
    n = n->kid[ir_is_gate(n)];
  msg *ms;
  size_t nm;
  if (n->op != IR_MSGS || !eval_messages(x->es, n, &ms, &nm))
    return; /* a stage the row's evaluation priced: it cannot fail here */
  double count[2] = {0, 0};
  for (size_t i = 0; i < nm; i++)
    count[ms[i].net] += ms[i].count * par;
  /* by channel, then node: each resource a run, as msgs_cost prices them */
  msg *sorted = xmalloc((nm ? nm : 1) * sizeof *sorted);
  if (nm) /* a stage with no message has no array (NULL) to copy */
    memcpy(sorted, ms, nm * sizeof *sorted);
  qsort(sorted, nm, sizeof *sorted, msg_resource_order);
  for (int net = 0; net < 2; net++) {
    char c[40];
    fmt_double(c, sizeof c, count[net]);
    sb_printf(b, "%s%s %s", net ? ", " : "  — messages: ", c, net ? "across nodes" : "within nodes");
    if (count[net] > 0) {
      sb_puts(b, " (");
      tau_range(b, sorted, nm, net, par);
      sb_puts(b, ")");
    }
  }
  free(sorted);
}

static bool eval_scalar(explainer *x, const ir_node *n, double *v);

static void row(explainer *x, const ir_node *n, double par, double times, const char *prefix,
                const char *label, int *counter) {
  if (x->failed)
    return;
  if (ir_is_gate(n)) { /* a refusal: its error, or the rows of what it guards */
    double once;
    if (eval_scalar(x, n->kid[0], &once))
      row(x, n->kid[1], par, times, prefix, label, counter);
    return;
  }
  if (n->op == IR_SCHED) {
    schedule_rows(x, n, par, times, prefix, label, counter);
    return;
  }
  if (too_many_stages(x, n, x->n + 1))
    return;
  double cost;
  if (!eval_node_scaled(x->es, n, par, &cost)) {
    stop(x);
    return;
  }
  tlop_stage s = {0};
  int span = times > 1 && times < 1e9 && times == floor(times) ? (int)times : 1;
  s.index = index_text(prefix, *counter, span);
  *counter += span;
  s.label = label ? xstrdup(label) : NULL;
  if (n->op == IR_FLOWS) {
    s.expr = flows_text(x, n);
  } else {
    strbuf b = {0};
    char *text = prt_expr(x->ctx, simp_instantiate(x->es, n, par), TLOP_FORMAT_UNICODE);
    sb_puts(&b, text);
    free(text);
    messages_text(x, n, par, &b);
    s.expr = sb_take(&b);
  }
  s.times = times;
  s.cost = cost;
  x->total += times * cost;
  s.cumulative = x->total;
  VEC_PUSH(x->rows, x->n, x->cap, s);
}

static bool eval_scalar(explainer *x, const ir_node *n, double *v) {
  if (!eval_node(x->es, n, v)) {
    stop(x);
    return false;
  }
  return true;
}

static void walk(explainer *x, const ir_node *n, double par, double times, const char *prefix,
                 const char *label, int *counter) {
  if (x->failed)
    return;
  if (!eval_counts_whole(x->es, n)) { /* evaluating n would check them first */
    stop(x);
    return;
  }
  if (!ir_has_stage(n)) {
    row(x, n, par, times, prefix, label, counter);
    return;
  }
  switch (n->op) {
  case IR_ADD:
    walk(x, n->kid[0], par, times, prefix, NULL, counter);
    walk(x, n->kid[1], par, times, prefix, NULL, counter);
    return;
  case IR_STAGE: {
    const char *l = n->name ? n->name->name : label;
    if (!ir_has_stage(n->kid[0])) {
      row(x, n->kid[0], par, times, prefix, l, counter);
      return;
    }
    /* A stage made of stages: number its parts under its own index. */
    char *sub = index_text(prefix, *counter, 1);
    strbuf b = {0};
    sb_printf(&b, "%s.", sub);
    free(sub);
    int inner = 1;
    walk(x, n->kid[0], par, times, b.s, l, &inner);
    free(b.s);
    (*counter)++;
    return;
  }
  case IR_SUM: {
    double lo, hi;
    if (!eval_scalar(x, n->kid[0], &lo) || !eval_scalar(x, n->kid[1], &hi))
      return;
    double count = hi >= lo ? floor(hi - lo) + 1 : 0;
    if (too_many_stages(x, n, count))
      return;
    for (double k = 0; k < count && !x->failed; k++) {
      eval_bind(x->es, n->name, lo + k);
      walk(x, n->kid[2], par, times, prefix, label, counter);
    }
    eval_bind(x->es, n->name, NAN);
    return;
  }
  case IR_IF: {
    /* the branch the values choose (MPICH's bcast picks its algorithm this way) */
    double c;
    if (eval_scalar(x, n->kid[0], &c))
      walk(x, n->kid[c != 0 ? 1 : 2], par, times, prefix, label, counter);
    return;
  }
  case IR_REPEAT: {
    double count;
    if (!eval_scalar(x, n->kid[0], &count))
      return;
    if (count > 0)
      walk(x, n->kid[1], par, times * count, prefix, label, counter);
    return;
  }
  case IR_PAR: {
    double a;
    if (n->name || !eval_scalar(x, n->kid[0], &a)) {
      if (!x->failed)
        row(x, n, par, times, prefix, label, counter);
      return;
    }
    walk(x, n->kid[1], par * a, times, prefix, label, counter);
    return;
  }
  case IR_MUL:
    if (!ir_has_stage(n->kid[0])) {
      double c;
      if (!eval_scalar(x, n->kid[0], &c))
        return;
      walk(x, n->kid[1], par, times * c, prefix, label, counter);
      return;
    }
    break;
  default:
    break;
  }
  row(x, n, par, times, prefix, label, counter);
}

tlop_status tlop_explain(const tlop_expr *expr, const tlop_platform *pf, const tlop_env *env,
                         tlop_stage **rows, size_t *nrows) {
  tlop_ctx *ctx = expr->model->ctx;
  *rows = NULL;
  *nrows = 0;
  if (!pf) {
    diag_error(ctx, expr->node->origin, "explain needs a platform to price the stages");
    return TLOP_ERR_ARG;
  }
  if (!pf_check_expr(pf, expr->node))
    return TLOP_ERR_EVAL;
  explainer x = {.ctx = ctx, .es = eval_new(ctx, pf)};
  eval_use_expr(x.es, env, expr);
  int counter = 1;
  walk(&x, expr->node, 1, 1, "", NULL, &counter);
  eval_free(x.es);
  if (x.failed) {
    tlop_stages_free(x.rows, x.n);
    return TLOP_ERR_EVAL;
  }
  *rows = x.rows;
  *nrows = x.n;
  return TLOP_OK;
}

void tlop_stages_free(tlop_stage *rows, size_t nrows) {
  for (size_t i = 0; i < nrows; i++) {
    free(rows[i].index);
    free(rows[i].label);
    free(rows[i].expr);
  }
  free(rows);
}
