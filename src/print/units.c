/* units.c — gives back to the numbers of a simplified expression the units that
 * simplification folded away, so that its .tlop print checks again. In (m − 1 MiB)/1 KiB
 * the simplifier keeps m/512 − 1024: the checker would read 512 as a count and the whole
 * as a size. A number takes the unit its context needs: the kind an argument must have
 * (the size of L, its τ), the kind of the other side of a sum or comparison, or, in a
 * product, what is left once the other factor's kind is taken out. */
#include "print/print.h"

#include <math.h>
#include <stdlib.h>

typedef struct units {
  const tlop_expr *e;
  ir_names indices; /* sum and messages indices: counts */
  ir_names sizes;   /* what flows stages bind to a flow's size (Q), and the free names of
                     * no known kind that a transfer takes as its size (simplify's symbols) */
  ptrmap kinds;     /* node → kind*, the kind the checker gives it */
  bool comparisons_only; /* units for the numbers of comparisons only (the papers' notation) */
} units;

static bool is_dim(kind k) { return k.tag == K_DIM; }
static bool same_dim(kind a, kind b) { return is_dim(a) && is_dim(b) && a.b == b.b && a.s == b.s; }
static kind dim_add(kind a, kind b, int sign) {
  return (kind){K_DIM, (int8_t)(a.b + sign * b.b), (int8_t)(a.s + sign * b.s), false};
}
/* A bare number counts as dimensionless in products. */
static kind as_dim(kind k) { return k.tag == K_NUM ? KIND_COUNT : k; }

static bool listed(const ir_names *names, sym name) {
  for (size_t i = 0; i < names->n; i++)
    if (names->v[i] == name)
      return true;
  return false;
}

static kind var_kind(units *u, sym name) {
  const tlop_expr *e = u->e;
  for (size_t i = 0; i < e->nfree; i++)
    if (e->free[i] == name && e->free_kinds[i].tag != K_ANY)
      return e->free_kinds[i];
  if (listed(&u->sizes, name))
    return KIND_SIZE;
  if (listed(&u->indices, name))
    return KIND_COUNT;
  const param_info *param = lower_param(e->model, name);
  return param ? param->k : KIND_ANY;
}

static kind unit_kind(tlop_ctx *ctx, const ir_node *n) {
  if (!n->name)
    return KIND_NUM;
  if (n->name == ctx_sym(ctx, "B"))
    return KIND_SIZE;
  if (n->name == ctx_sym(ctx, "s"))
    return KIND_TIME;
  if (n->name == ctx_sym(ctx, "bool"))
    return KIND_BOOL;
  return (kind){K_DIM, 1, -1, false}; /* B/s */
}

/* x^n with n a whole literal: the checker lets a quantity be raised to it (m^2). */
static bool whole_power(const ir_node *n) {
  const ir_node *e = n->kid[1];
  return e->op == IR_NUM && !e->name && e->num == floor(e->num) && fabs(e->num) <= 8;
}

/* Whether a number inside n, not under a sum or a call, sets n's kind. */
static bool adjustable(const ir_node *n) {
  switch ((ir_op)n->op) {
  case IR_NUM: return !n->name;
  case IR_MUL: case IR_DIV: return adjustable(n->kid[0]) || adjustable(n->kid[1]);
  case IR_NEG: case IR_CEIL: case IR_FLOOR: case IR_ABS: return adjustable(n->kid[0]);
  case IR_POW: return whole_power(n) && adjustable(n->kid[0]);
  default: return false;
  }
}

/* Both sides of + − min max if: a bare number adopts the other's kind. Sides that
 * disagree (simplification folded a unit away on one) take the kind of the side whose
 * numbers cannot carry a unit. */
static kind joined(kind a, const ir_node *an, kind b, const ir_node *bn) {
  if (a.tag == K_ANY || b.tag == K_ANY)
    return KIND_ANY;
  if (a.tag == K_NUM ||
      (is_dim(a) && is_dim(b) && !same_dim(a, b) && adjustable(an) && !adjustable(bn)))
    return b;
  return a;
}

/* The kind the checker gives n when its printed form is read back (check.c's rules). */
static kind kind_of(units *u, const ir_node *n) {
  kind *known = ptrmap_get(&u->kinds, n);
  if (known)
    return *known;
  kind k = KIND_ANY, a = n->nkids > 0 ? kind_of(u, n->kid[0]) : KIND_ANY,
       b = n->nkids > 1 ? kind_of(u, n->kid[1]) : KIND_ANY;
  switch ((ir_op)n->op) {
  case IR_NUM: k = unit_kind(u->e->model->ctx, n); break;
  case IR_VAR: k = var_kind(u, n->name); break;
  case IR_ADD: case IR_SUB: case IR_MIN: case IR_MAX: case IR_MOD:
    k = joined(a, n->kid[0], b, n->kid[1]);
    break;
  case IR_IF: k = joined(b, n->kid[1], kind_of(u, n->kid[2]), n->kid[2]); break;
  case IR_MUL:
  case IR_DIV:
    /* as a file's checker reads it: a number times a count is a count (the lenient
     * symbolic reading takes whatever that one takes) */
    if (a.tag == K_ANY || b.tag == K_ANY)
      k = KIND_ANY;
    else if (a.tag == K_NUM && b.tag == K_NUM)
      k = KIND_NUM;
    else
      k = dim_add(as_dim(a), as_dim(b), n->op == IR_MUL ? 1 : -1);
    break;
  case IR_NEG: case IR_CEIL: case IR_FLOOR: case IR_ABS: case IR_STAGE: k = a; break;
  case IR_POW:
    k = a.tag == K_NUM && b.tag == K_NUM ? KIND_NUM : KIND_COUNT;
    if (a.tag == K_DIM && whole_power(n))
      k = (kind){K_DIM, (int8_t)(a.b * n->kid[1]->num), (int8_t)(a.s * n->kid[1]->num), false};
    break;
  case IR_LOG2: case IR_LOG: case IR_SQRT: k = KIND_COUNT; break;
  case IR_LT: case IR_LE: case IR_GT: case IR_GE: case IR_EQ: case IR_NE:
  case IR_AND: case IR_OR: case IR_NOT: k = KIND_BOOL; break;
  case IR_SUM: case IR_MAXOVER: k = kind_of(u, n->kid[2]); break;
  case IR_REPEAT: k = b; break;
  case IR_PAR: case IR_CONC: case IR_L: case IR_TX: case IR_O: case IR_GAMMA: case IR_PACK: case IR_SCHED:
  case IR_MSGS: case IR_FLOWS: k = KIND_TIME; break;
  default: break;
  }
  kind *slot = arena_alloc(u->e->model->ctx->ar, sizeof *slot);
  *slot = k;
  ptrmap_put(&u->kinds, n, slot);
  return k;
}

static ir_node *restore(units *u, const ir_node *n, kind want, bool factor);

/* A bare number of kind `want`: 512 B, 2 s, 3 B/s, or c·(1 B)^b·(1 s)^s. */
static ir_node *number_with_unit(tlop_ctx *ctx, const ir_node *n, kind want) {
  if (same_dim(want, KIND_SIZE))
    return ir_make(ctx, IR_NUM, ctx_sym(ctx, "B"), n->num, NULL, NULL, NULL);
  if (same_dim(want, KIND_TIME))
    return ir_make(ctx, IR_NUM, ctx_sym(ctx, "s"), n->num, NULL, NULL, NULL);
  if (same_dim(want, (kind){K_DIM, 1, -1, false}))
    return ir_make(ctx, IR_NUM, ctx_sym(ctx, "B/s"), n->num, NULL, NULL, NULL);
  ir_node *r = (ir_node *)n;
  ir_node *byte = ir_make(ctx, IR_NUM, ctx_sym(ctx, "B"), 1, NULL, NULL, NULL);
  ir_node *second = ir_make(ctx, IR_NUM, ctx_sym(ctx, "s"), 1, NULL, NULL, NULL);
  for (int i = 0; i < abs(want.b); i++)
    r = ir_make(ctx, want.b > 0 ? IR_MUL : IR_DIV, NULL, 0, r, byte, NULL);
  for (int i = 0; i < abs(want.s); i++)
    r = ir_make(ctx, want.s > 0 ? IR_MUL : IR_DIV, NULL, 0, r, second, NULL);
  return r;
}

/* r · 1 B (or whatever unit `missing` is): for a node of the wrong kind that holds no
 * number to carry the unit, as 2^i for a size. */
static ir_node *times_unit(tlop_ctx *ctx, ir_node *r, kind missing) {
  return ir_make(ctx, IR_MUL, NULL, 0, r, number_with_unit(ctx, ir_num(ctx, 1), missing), NULL);
}

/* c of kind `k` (1/B, 1/s …) times x reads better as x / (1/c B) when 1/c is exact. */
static bool reciprocal_fits(const ir_node *c, kind k) {
  return c->op == IR_NUM && !c->name && k.b <= 0 && k.s <= 0 && c->num != 0 &&
         1 / (1 / c->num) == c->num;
}

/* A product or quotient of kind `want`: when its factors make another kind, the factor
 * holding a bare number takes the difference: the divisor first, then the factor besides
 * a bare coefficient or one already of kind `want` (3·⌈S/1024⌉ and k·⌈S/1024⌉ as counts:
 * 3·⌈S/1024 B⌉, not ⌈S/1024⌉/0.333… B). */
static ir_node *restore_product(units *u, const ir_node *n, kind want) {
  tlop_ctx *ctx = u->e->model->ctx;
  const ir_node *a = n->kid[0], *b = n->kid[1];
  kind ka = kind_of(u, a), kb = kind_of(u, b);
  int sign = n->op == IR_MUL ? 1 : -1;
  kind got = dim_add(as_dim(ka), as_dim(kb), sign);
  kind wa = ka, wb = kb;
  if (is_dim(want) && ka.tag != K_ANY && kb.tag != K_ANY && !same_dim(got, want)) {
    bool bare_a = a->op == IR_NUM && !a->name, bare_b = b->op == IR_NUM && !b->name;
    const ir_node *c = NULL; /* the bare number that takes the difference, if one does */
    if (adjustable(b) && (sign < 0 || bare_b || bare_a || !adjustable(a) ||
                          same_dim(as_dim(ka), want))) {
      wb = sign > 0 ? dim_add(want, as_dim(ka), -1) : dim_add(as_dim(ka), want, -1);
      c = bare_b ? b : NULL;
    } else if (adjustable(a)) {
      wa = dim_add(want, as_dim(kb), -sign);
      c = bare_a ? a : NULL;
    }
    /* c·x with c of kind 1/B: x / (1/c B) */
    kind kc = c == b ? wb : wa;
    if (sign > 0 && c && reciprocal_fits(c, kc))
      return ir_make(ctx, IR_DIV, NULL, 0, restore(u, c == b ? a : b, c == b ? ka : kb, true),
                     number_with_unit(ctx, ir_num(ctx, 1 / c->num), dim_add(KIND_COUNT, kc, -1)),
                     NULL);
  }
  return ir_make(ctx, (ir_op)n->op, NULL, 0, restore(u, a, wa, true), restore(u, b, wb, true),
                 NULL);
}

/* n with units on the bare numbers whose kind its context fixes; `want` is the kind n
 * must have (K_DIM), or anything else when free. Only a factor needs its unit: elsewhere
 * a bare number adopts the kind it meets. */
static ir_node *restore_numbers(units *u, const ir_node *n, kind want, bool factor) {
  tlop_ctx *ctx = u->e->model->ctx;
  kind own = kind_of(u, n);
  if (!is_dim(want))
    want = own;
  ir_node *k[3] = {0};
  kind w[3] = {KIND_ANY, KIND_ANY, KIND_ANY};
  switch ((ir_op)n->op) {
  case IR_NUM:
    return factor && !n->name && is_dim(want) && !same_dim(want, KIND_COUNT)
               ? number_with_unit(ctx, n, want)
               : (ir_node *)n;
  case IR_VAR: return (ir_node *)n;
  case IR_MUL: case IR_DIV:
    if (u->comparisons_only)
      break;
    return restore_product(u, n, want);
  case IR_NEG: case IR_CEIL: case IR_FLOOR: case IR_ABS:
    return ir_make(ctx, (ir_op)n->op, NULL, 0, restore(u, n->kid[0], want, factor), NULL, NULL);
  case IR_ADD: case IR_SUB: case IR_MIN: case IR_MAX: case IR_MOD: case IR_STAGE:
    w[0] = w[1] = want;
    break;
  case IR_IF: w[1] = w[2] = want; break;
  case IR_LT: case IR_LE: case IR_GT: case IR_GE: case IR_EQ: case IR_NE:
    w[0] = w[1] = joined(kind_of(u, n->kid[0]), n->kid[0], kind_of(u, n->kid[1]), n->kid[1]);
    break;
  case IR_POW:
    w[0] = KIND_COUNT, w[1] = KIND_COUNT;
    if (whole_power(n) && n->kid[1]->num != 0) {
      /* (x)^n of kind want: x of kind want/n when that is whole, else x as it is */
      int e = (int)n->kid[1]->num;
      w[0] = want.b % e || want.s % e ? kind_of(u, n->kid[0])
                                      : (kind){K_DIM, (int8_t)(want.b / e), (int8_t)(want.s / e), false};
    }
    break;
  case IR_LOG2: case IR_LOG: case IR_SQRT: w[0] = w[1] = KIND_COUNT; break;
  case IR_SUM: case IR_MAXOVER: w[0] = w[1] = KIND_COUNT, w[2] = want; break;
  case IR_PAR: w[0] = KIND_COUNT, w[1] = KIND_TIME; break;
  case IR_REPEAT: w[0] = KIND_COUNT, w[1] = want; break;
  case IR_L: case IR_TX: case IR_GAMMA: w[0] = KIND_SIZE, w[1] = KIND_COUNT; break;
  case IR_O: case IR_PACK: w[0] = KIND_SIZE; break;
  case IR_CONC: w[0] = w[1] = KIND_TIME; break;
  case IR_SEND: w[2] = KIND_SIZE; break;
  case IR_FLOWS: w[0] = KIND_TIME; break;
  case IR_FLOW: w[1] = KIND_TIME; break;
  default: break;
  }
  /* a number compared with a size or time shows its unit (m > 4 B, not m > 4) */
  bool compared = n->op >= IR_LT && n->op <= IR_NE;
  bool changed = false;
  for (int i = 0; i < n->nkids; i++) {
    k[i] = restore(u, n->kid[i], w[i], compared);
    changed |= k[i] != n->kid[i];
  }
  if (!changed)
    return (ir_node *)n;
  ir_node *r = ir_make(ctx, (ir_op)n->op, n->name, n->num, k[0], k[1], k[2]);
  if (!r->origin.src)
    r->origin = n->origin;
  return r;
}

/* restore_numbers, and where no number could take the unit (2^i as a size, a sum of
 * plain numbers as a time), a unit factor of its own: 2^i * 1 B. */
static ir_node *restore(units *u, const ir_node *n, kind want, bool factor) {
  ir_node *r = restore_numbers(u, n, want, factor);
  kind got = kind_of(u, r);
  if (!u->comparisons_only && is_dim(want) && is_dim(got) && !same_dim(got, want))
    r = times_unit(u->e->model->ctx, r, dim_add(want, got, -1));
  return r;
}

/* A sum's index stays a count even as a transfer's size (L(i, 8) after m = 1 B was folded
 * prints L(i * 1 B, 8)); a flows stage's size name is a size. */
static void collect_sizes(const ir_node *n, ptrmap *seen, const ir_names *indices, ir_names *sizes) {
  if (ptrmap_get(seen, n))
    return;
  ptrmap_put(seen, n, (void *)n);
  if (n->op == IR_FLOWS)
    VEC_PUSH(sizes->v, sizes->n, sizes->cap, n->name);
  bool transfer = n->op == IR_L || n->op == IR_TX || n->op == IR_O || n->op == IR_PACK ||
                  n->op == IR_GAMMA;
  if (transfer && n->kid[0]->op == IR_VAR && !listed(indices, n->kid[0]->name))
    VEC_PUSH(sizes->v, sizes->n, sizes->cap, n->kid[0]->name);
  for (int i = 0; i < n->nkids; i++)
    collect_sizes(n->kid[i], seen, indices, sizes);
}

/* The session over e: its indices and the free names its transfers take as sizes. */
static units units_open(const tlop_expr *e, bool comparisons_only) {
  units u = {.e = e, .comparisons_only = comparisons_only};
  ir_collect_indices(e->node, &u.indices);
  ptrmap seen = {0};
  collect_sizes(e->node, &seen, &u.indices, &u.sizes);
  ptrmap_free(&seen);
  return u;
}

static void units_close(units *u) {
  free(u->indices.v);
  free(u->sizes.v);
  ptrmap_free(&u->kinds);
}

kind units_kind(const tlop_expr *e, const ir_node *n) {
  units u = units_open(e, false);
  kind k = kind_of(&u, n);
  units_close(&u);
  return k;
}

ir_node *units_restore(const tlop_expr *e, bool comparisons_only) {
  units u = units_open(e, comparisons_only);
  ir_node *r = restore(&u, e->node, e->k, false);
  units_close(&u);
  return r;
}
