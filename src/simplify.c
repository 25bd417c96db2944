/* simplify.c — instantiation: the expression of a stage with its numbers substituted, in
 * the form the papers write by hand. Bound variables become numbers, constants fold, ∥ is
 * pushed into the τ of the transfers (o and p are not affected), small concrete sums are
 * unrolled, and like terms are combined: `4 ∥ T(1 MiB)` → `o(1 MiB) + 2·L(1 MiB, 4)`.
 * Requires: a lowered expression; an evaluator state with the values bound. */
#include "tlop_int.h"

#include <math.h>
#include <stdlib.h>

/* Sums with at most this many concrete terms are written out. */
#define UNROLL_MAX 16

typedef struct scale {
  const pf_channel *ch; /* NULL: every channel */
  double a;
} scale;

typedef struct inst {
  eval_state *es;
  tlop_ctx *ctx;
  scale *sc;
  size_t nsc, cap;
} inst;

static ir_node *go(inst *in, const ir_node *n);

static double factor(const inst *in, const ir_node *transfer) {
  const tlop_platform *pf = eval_platform(in->es);
  const pf_channel *ch = pf ? pf_channel_find(pf, transfer->name) : NULL;
  double a = 1;
  for (size_t i = 0; i < in->nsc; i++)
    if (!in->sc[i].ch || in->sc[i].ch == ch)
      a *= in->sc[i].a;
  return a;
}

static bool is_num(const ir_node *n) { return n->op == IR_NUM; }

/* ---- like terms: a constant plus coefficients times distinct terms ---- */

typedef struct lin {
  double constant;
  const ir_node **terms;
  double *coef;
  size_t n, cap, coef_cap;
} lin;

static void lin_add(lin *l, const ir_node *t, double c) {
  if (is_num(t)) {
    l->constant += c * t->num;
    return;
  }
  switch (t->op) {
  case IR_ADD:
    lin_add(l, t->kid[0], c);
    lin_add(l, t->kid[1], c);
    return;
  case IR_SUB:
    lin_add(l, t->kid[0], c);
    lin_add(l, t->kid[1], -c);
    return;
  case IR_NEG:
    lin_add(l, t->kid[0], -c);
    return;
  case IR_MUL:
    if (is_num(t->kid[0])) {
      lin_add(l, t->kid[1], c * t->kid[0]->num);
      return;
    }
    if (is_num(t->kid[1])) {
      lin_add(l, t->kid[0], c * t->kid[1]->num);
      return;
    }
    break;
  default:
    break;
  }
  for (size_t i = 0; i < l->n; i++)
    if (l->terms[i] == t) {
      l->coef[i] += c;
      return;
    }
  size_t n = l->n;
  VEC_PUSH(l->terms, l->n, l->cap, t);
  l->coef = grow_array(l->coef, &l->coef_cap, n + 1, sizeof *l->coef);
  l->coef[n] = c;
}

static ir_node *lin_build(inst *in, lin *l) {
  ir_node *r = NULL;
  for (size_t i = 0; i < l->n; i++) {
    if (l->coef[i] == 0)
      continue;
    ir_node *t = (ir_node *)l->terms[i];
    if (l->coef[i] != 1)
      t = ir_bin(in->ctx, IR_MUL, ir_num(in->ctx, l->coef[i]), t);
    r = r ? ir_bin(in->ctx, IR_ADD, r, t) : t;
  }
  if (l->constant != 0 || !r) {
    ir_node *c = ir_num(in->ctx, l->constant);
    r = r ? ir_bin(in->ctx, IR_ADD, r, c) : c;
  }
  free(l->terms);
  free(l->coef);
  return r;
}

static ir_node *combine(inst *in, ir_node *n) {
  lin l = {0};
  lin_add(&l, n, 1);
  return lin_build(in, &l);
}

/* ---- the walk ---- */

static ir_node *go_sum(inst *in, const ir_node *n) {
  ir_node *lo = go(in, n->kid[0]), *hi = go(in, n->kid[1]);
  if (is_num(lo) && is_num(hi) && isfinite(lo->num) && isfinite(hi->num)) {
    double count = hi->num >= lo->num ? floor(hi->num - lo->num) + 1 : 0;
    if (count <= UNROLL_MAX) {
      ir_node *acc = ir_num(in->ctx, 0);
      for (double k = 0; k < count; k++) {
        eval_bind(in->es, n->name, lo->num + k);
        acc = ir_bin(in->ctx, IR_ADD, acc, go(in, n->kid[2]));
      }
      eval_bind(in->es, n->name, NAN);
      return combine(in, acc);
    }
  }
  return ir_make(in->ctx, IR_SUM, n->name, 0, lo, hi, go(in, n->kid[2]));
}

static ir_node *go(inst *in, const ir_node *n) {
  tlop_ctx *ctx = in->ctx;
  ir_node *k[3] = {0};
  switch (n->op) {
  case IR_NUM:
    return (ir_node *)n;
  case IR_VAR: {
    bool found;
    double v = eval_lookup_var(in->es, n->name, &found);
    return found ? ir_num(ctx, v) : (ir_node *)n;
  }
  case IR_L:
  case IR_GAMMA: {
    ir_node *m = go(in, n->kid[0]), *tau = go(in, n->kid[1]);
    double a = factor(in, n);
    if (a != 1)
      tau = is_num(tau) ? ir_num(ctx, tau->num * a) : ir_bin(ctx, IR_MUL, ir_num(ctx, a), tau);
    return ir_make(ctx, (ir_op)n->op, n->name, 0, m, tau, NULL);
  }
  case IR_PAR: {
    ir_node *a = go(in, n->kid[0]);
    if (!is_num(a))
      return ir_make(ctx, IR_PAR, n->name, 0, a, go(in, n->kid[1]), NULL);
    const tlop_platform *pf = eval_platform(in->es);
    scale s = {n->name && pf ? pf_channel_find(pf, n->name) : NULL, a->num};
    VEC_PUSH(in->sc, in->nsc, in->cap, s);
    ir_node *r = go(in, n->kid[1]);
    in->nsc--;
    return r;
  }
  case IR_CONC: {
    ir_node *a = go(in, n->kid[0]), *b = go(in, n->kid[1]);
    /* L(m,a) ∥ L(m,b) = L(m,a+b) on one channel */
    if (a->op == IR_L && b->op == IR_L && a->name == b->name && a->kid[0] == b->kid[0] &&
        is_num(a->kid[1]) && is_num(b->kid[1]))
      return ir_make(ctx, IR_L, a->name, 0, a->kid[0], ir_num(ctx, a->kid[1]->num + b->kid[1]->num),
                     NULL);
    return ir_bin(ctx, IR_CONC, a, b);
  }
  case IR_SUM:
    return go_sum(in, n);
  case IR_STAGE:
    return go(in, n->kid[0]);
  case IR_REPEAT:
    return combine(in, ir_bin(ctx, IR_MUL, go(in, n->kid[0]), go(in, n->kid[1])));
  case IR_IF: {
    ir_node *c = go(in, n->kid[0]);
    if (is_num(c))
      return go(in, n->kid[c->num != 0 ? 1 : 2]);
    return ir_make(ctx, IR_IF, NULL, 0, c, go(in, n->kid[1]), go(in, n->kid[2]));
  }
  default:
    break;
  }
  bool all_num = true;
  for (int i = 0; i < n->nkids; i++) {
    k[i] = go(in, n->kid[i]);
    all_num &= is_num(k[i]);
  }
  if (all_num && n->nkids && n->op != IR_O && n->op != IR_PACK) {
    double v = ir_apply((ir_op)n->op, k[0]->num, n->nkids > 1 ? k[1]->num : 0);
    if (isfinite(v))
      return ir_num(ctx, v);
  }
  ir_node *r = ir_make(ctx, (ir_op)n->op, n->name, n->num, k[0], k[1], k[2]);
  if (r->op == IR_ADD || r->op == IR_SUB || r->op == IR_MUL || r->op == IR_NEG)
    return combine(in, r);
  return r;
}

ir_node *simp_instantiate(eval_state *es, const ir_node *n, double par) {
  inst in = {.es = es, .ctx = eval_ctx(es)};
  scale s = {NULL, par};
  if (par != 1)
    VEC_PUSH(in.sc, in.nsc, in.cap, s);
  ir_node *r = go(&in, n);
  free(in.sc);
  return r;
}
