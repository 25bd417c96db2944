/* ir.c — the cost IR: a hash-consed DAG. Structurally equal nodes are one node, so
 * equality is pointer equality and shared subexpressions are stored once. Nodes are
 * immutable and live as long as the context. ir_apply is the one place that says what
 * each scalar operator computes. */
#include "ir/ir.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct ir_table {
  arena *ar;
  ir_node **buckets;
  size_t cap, count;
  ptrmap calls;  /* a call's node (ir_called) → its ir_call, the calls it checks */
  ptrmap copies; /* a body → the first called_copy of it */
  ptrmap inlined; /* a call's node → its ir_inlined */
};

static const char *const op_names[] = {
#define X(n, s, a) s,
    IR_OPS(X)
#undef X
};

static const int op_arity[] = {
#define X(n, s, a) a,
    IR_OPS(X)
#undef X
};

const char *ir_op_name(ir_op op) { return op < IR_NOPS ? op_names[op] : "?"; }

ir_table *ir_table_new(void) {
  ir_table *t = xcalloc(1, sizeof *t);
  t->ar = arena_new();
  t->cap = 1024;
  t->buckets = xcalloc(t->cap, sizeof *t->buckets);
  return t;
}

void ir_table_free(ir_table *t) {
  if (!t)
    return;
  arena_free(t->ar);
  ptrmap_free(&t->calls);
  ptrmap_free(&t->copies);
  ptrmap_free(&t->inlined);
  free(t->buckets);
  free(t);
}

static uint32_t mix(uint32_t h, uint64_t v) {
  h ^= (uint32_t)v + 0x9e3779b9u + (h << 6) + (h >> 2);
  h ^= (uint32_t)(v >> 32) + 0x9e3779b9u + (h << 6) + (h >> 2);
  return h;
}

static void rehash(ir_table *t) {
  size_t cap = t->cap * 2;
  ir_node **b = xcalloc(cap, sizeof *b);
  for (size_t i = 0; i < t->cap; i++)
    for (ir_node *n = t->buckets[i], *next; n; n = next) {
      next = n->next_in_bucket;
      n->next_in_bucket = b[n->hash & (cap - 1)];
      b[n->hash & (cap - 1)] = n;
    }
  free(t->buckets);
  t->buckets = b;
  t->cap = cap;
}

ir_node *ir_make(tlop_ctx *ctx, ir_op op, sym name, double num, ir_node *a, ir_node *b,
                 ir_node *c) {
  ir_table *t = ctx->ir;
  if (num == 0)
    num = 0; /* one zero: -0 and +0 are the same constant */
  uint64_t bits;
  memcpy(&bits, &num, sizeof bits);
  ir_node *kids[3] = {a, b, c};
  int nk = op_arity[op];
  uint32_t h = mix(mix(op, bits), (uintptr_t)name);
  for (int i = 0; i < nk; i++)
    h = mix(h, kids[i]->id);
  for (ir_node *n = t->buckets[h & (t->cap - 1)]; n; n = n->next_in_bucket)
    if (n->hash == h && n->op == op && n->name == name && !memcmp(&n->num, &bits, sizeof bits) &&
        (nk < 1 || n->kid[0] == a) && (nk < 2 || n->kid[1] == b) && (nk < 3 || n->kid[2] == c))
      return n;
  ir_node *n = arena_alloc(t->ar, sizeof *n);
  n->op = (uint8_t)op;
  n->nkids = (uint8_t)nk;
  n->id = (uint32_t)t->count;
  n->hash = h;
  n->num = num;
  n->name = name;
  n->depth = 1;
  /* binders too: a sum over i is not the same node inside another sum over i, where
   * its index must be renamed, so whoever memoizes by "mentions no index in scope" */
  if (op == IR_VAR || ir_is_range(op) || op == IR_MSGS || op == IR_FLOWS)
    n->vars = 1ull << (name->id % 64);
  /* a ∥ is a cost even over a plain time: ∥ of 0 fails, so it is priced only if counted */
  if (op == IR_L || op == IR_O || op == IR_GAMMA || op == IR_PACK || op == IR_TX || op == IR_PAR)
    n->flags |= IR_HAS_COST;
  if (op == IR_STAGE)
    n->flags |= IR_HAS_STAGE;
  if (ir_is_range(op)) /* both loop over their terms */
    n->flags |= IR_HAS_SUM;
  if (op == IR_SCHED || op == IR_MSGS || op == IR_FLOWS)
    n->flags |= IR_HAS_COST;
  if (op == IR_AT || op == IR_SEND || op == IR_FLOW)
    n->flags |= IR_HAS_AT;
  for (int i = 0; i < nk; i++) {
    n->kid[i] = kids[i];
    n->vars |= kids[i]->vars;
    /* a schedule's placements stay inside it; a call's body is the called node alone */
    n->flags |= (op == IR_SCHED || op == IR_MSGS || op == IR_FLOWS ? kids[i]->flags & ~IR_HAS_AT
                                                                   : kids[i]->flags) &
                ~IR_CALLED;
    if (n->depth < kids[i]->depth + 1)
      n->depth = kids[i]->depth + 1;
  }
  /* a refusal's gate is not a stage of its own: what it guards is, or is not */
  if (op == IR_REPEAT && !ir_is_gate(n))
    n->flags |= IR_HAS_STAGE;
  if (op == IR_MUL || op == IR_DIV || op == IR_POW)
    n->flags |= IR_COMPOUND;
  else if (op != IR_ADD && op != IR_SUB && op != IR_NEG)
    n->flags &= ~IR_COMPOUND;
  if (op != IR_ADD && op != IR_SUB && op != IR_NEG)
    n->flags &= ~IR_WIDE_TERM;
  if (ir_starts_wide(n))
    n->flags |= IR_WIDE_TERM;
  n->next_in_bucket = t->buckets[h & (t->cap - 1)];
  t->buckets[h & (t->cap - 1)] = n;
  if (++t->count > t->cap)
    rehash(t);
  return n;
}

ir_node *ir_num(tlop_ctx *ctx, double v) { return ir_make(ctx, IR_NUM, NULL, v, NULL, NULL, NULL); }
ir_node *ir_var(tlop_ctx *ctx, sym name) { return ir_make(ctx, IR_VAR, name, 0, NULL, NULL, NULL); }
ir_node *ir_un(tlop_ctx *ctx, ir_op op, ir_node *a) { return ir_make(ctx, op, NULL, 0, a, NULL, NULL); }
ir_node *ir_bin(tlop_ctx *ctx, ir_op op, ir_node *a, ir_node *b) {
  return ir_make(ctx, op, NULL, 0, a, b, NULL);
}

bool ir_mentions(const ir_node *n, sym var) { return (n->vars >> (var->id % 64)) & 1; }

size_t ir_tree_count(const ir_node *n, const ir_node *v, ptrmap *memo) {
  if (n == v)
    return 1;
  if (n->depth <= v->depth || (v->op == IR_VAR && !ir_mentions(n, v->name)))
    return 0;
  void *known = ptrmap_get(memo, n);
  if (known)
    return (size_t)((uintptr_t)known - 1);
  size_t k = 0;
  for (int i = 0; i < n->nkids; i++)
    k += ir_tree_count(n->kid[i], v, memo);
  /* x^k multiplied out is a product of k: as many uses */
  if (n->op == IR_POW && n->kid[1]->op == IR_NUM && n->kid[1]->num >= 2)
    k *= n->kid[1]->num < 1000 ? (size_t)n->kid[1]->num : 1000;
  k = k > 1000000 ? 1000000 : k;
  ptrmap_put(memo, n, (void *)(uintptr_t)(k + 1));
  return k;
}

/* Two calls of one callee with the same count arguments (hash-consed values). */
static bool same_call(const ir_call *a, const ir_call *b) {
  if (a->callee != b->callee || a->nargs != b->nargs)
    return false;
  for (size_t i = 0; i < a->nargs; i++)
    if (a->args[i].param != b->args[i].param || a->args[i].value != b->args[i].value)
      return false;
  return true;
}

/* The nodes ir_called made of one body, one per distinct call. */
typedef struct called_copy {
  ir_node *node;
  struct called_copy *next;
} called_copy;

ir_node *ir_called(tlop_ctx *ctx, ir_node *body, const ir_call *call) {
  ir_table *t = ctx->ir;
  called_copy *first = ptrmap_get(&t->copies, body);
  for (const called_copy *c = first; c; c = c->next)
    if (same_call(ptrmap_get(&t->calls, c->node), call))
      return c->node; /* the same call lowered again */
  ir_call *kept = arena_alloc(t->ar, sizeof *kept);
  *kept = *call;
  kept->args = arena_alloc(t->ar, call->nargs * sizeof *kept->args);
  memcpy(kept->args, call->args, call->nargs * sizeof *kept->args);
  kept->next = ir_calls(ctx, body); /* the body is itself a call's node: checked after */
  ir_node *n = arena_alloc(t->ar, sizeof *n);
  *n = *body; /* kept out of the buckets: ir_make never returns it */
  n->next_in_bucket = NULL;
  n->flags |= IR_CALLED;
  ptrmap_put(&t->calls, n, kept);
  called_copy *copy = arena_alloc(t->ar, sizeof *copy);
  *copy = (called_copy){n, first};
  ptrmap_put(&t->copies, body, copy);
  return n;
}

const ir_call *ir_calls(const tlop_ctx *ctx, const ir_node *n) {
  return n->flags & IR_CALLED ? ptrmap_get(&ctx->ir->calls, n) : NULL;
}

void ir_inlined_put(tlop_ctx *ctx, const ir_node *n, const ir_inlined *call) {
  ir_table *t = ctx->ir;
  if (ptrmap_get(&t->inlined, n))
    return;
  ir_inlined *kept = arena_alloc(t->ar, sizeof *kept);
  size_t n_args = (size_t)call->nargs;
  *kept = *call;
  kept->values = arena_alloc(t->ar, n_args * sizeof *kept->values);
  kept->named = arena_alloc(t->ar, n_args * sizeof *kept->named);
  memcpy(kept->values, call->values, n_args * sizeof *kept->values);
  memcpy(kept->named, call->named, n_args * sizeof *kept->named);
  ptrmap_put(&t->inlined, n, kept);
}

const ir_inlined *ir_inlined_call(const tlop_ctx *ctx, const ir_node *n) {
  return ptrmap_get(&ctx->ir->inlined, n);
}

bool ir_has_cost(const ir_node *n) { return n->flags & IR_HAS_COST; }
bool ir_has_stage(const ir_node *n) { return n->flags & IR_HAS_STAGE; }
bool ir_has_sum(const ir_node *n) { return n->flags & IR_HAS_SUM; }

/* log_b(x), exact when x is a power of b (log(27)/log(3) alone gives 3.0000000000000004,
 * and ceil of it the wrong tree height). */
static double log_base(double b, double x) {
  if (b == 2)
    return log2(x);
  double r = log(x) / log(b), k = round(r);
  if (fabs(r - k) < 1e-9 && pow(b, k) == x)
    return k;
  return r;
}

const char *ir_mapping(const ir_node *msgs, const ir_node **arg) {
  const ir_node *f = msgs->kid[0];
  bool rank_first = f->nkids > 0 && f->kid[0]->op == IR_VAR && f->kid[0]->name == msgs->name;
  if (f->op == IR_FLOOR && f->kid[0]->op == IR_DIV && f->kid[0]->kid[0]->op == IR_VAR &&
      f->kid[0]->kid[0]->name == msgs->name) {
    *arg = f->kid[0]->kid[1];
    return "sequential";
  }
  if (f->op == IR_MOD && rank_first) {
    *arg = f->kid[1];
    return "round_robin";
  }
  return NULL;
}

double ir_apply(ir_op op, double a, double b) {
  switch (op) {
  case IR_ADD: return a + b;
  case IR_SUB: return a - b;
  case IR_MUL: return a * b;
  case IR_DIV: return a / b;
  case IR_MOD: return fmod(a, b);
  case IR_POW: return pow(a, b);
  case IR_NEG: return -a;
  case IR_MIN: return a < b ? a : b;
  case IR_MAX: return a > b ? a : b;
  case IR_LOG2: return log2(a);
  case IR_LOG: return log_base(a, b);
  case IR_CEIL: return ceil(a);
  case IR_FLOOR: return floor(a);
  case IR_ABS: return fabs(a);
  case IR_SQRT: return sqrt(a);
  case IR_LT: return a < b;
  case IR_LE: return a <= b;
  case IR_GT: return a > b;
  case IR_GE: return a >= b;
  case IR_EQ: return a == b;
  case IR_NE: return a != b;
  case IR_AND: return a != 0 && b != 0;
  case IR_OR: return a != 0 || b != 0;
  case IR_NOT: return a == 0;
  default: return NAN;
  }
}

/* A sum whose index occurs in the value substituted into its body would capture it: the
 * index is renamed first, to a name free in neither the body nor the value. */
sym ir_primed(tlop_ctx *ctx, sym name) {
  strbuf b = {0};
  sb_printf(&b, "%s'", name->name);
  sym r = ctx_sym(ctx, b.s);
  free(b.s);
  return r;
}

static sym fresh_index(tlop_ctx *ctx, const ir_node *sum, const ir_node *value) {
  sym w = sum->name;
  while (ir_uses(value, w) || (w != sum->name && ir_uses(sum->kid[2], w)))
    w = ir_primed(ctx, w);
  return w;
}

static ir_node *subst(tlop_ctx *ctx, ir_node *n, sym var, ir_node *value, ptrmap *memo) {
  if (!ir_mentions(n, var))
    return n;
  if (n->op == IR_VAR)
    return n->name == var ? value : n;
  ir_node *done = ptrmap_get(memo, n);
  if (done)
    return done;
  ir_node *k[3] = {0};
  sym name = n->name;
  for (int i = 0; i < n->nkids; i++) {
    k[i] = n->kid[i];
    if (ir_is_range(n->op) && i == 2) {
      if (name == var)
        continue; /* a sum over var rebinds it in its body, not in its bounds */
      if (ir_uses(k[i], var) && (name = fresh_index(ctx, n, value)) != n->name)
        k[i] = ir_subst(ctx, k[i], n->name, ir_var(ctx, name));
    }
    k[i] = subst(ctx, k[i], var, value, memo);
  }
  ir_node *r = ir_make(ctx, (ir_op)n->op, name, n->num, k[0], k[1], k[2]);
  if (!r->origin.src)
    r->origin = n->origin;
  ptrmap_put(memo, n, r);
  return r;
}

ir_node *ir_subst(tlop_ctx *ctx, ir_node *n, sym var, ir_node *value) {
  ptrmap memo = {0};
  ir_node *r = subst(ctx, n, var, value, &memo);
  ptrmap_free(&memo);
  return r;
}

static ir_node *replace(tlop_ctx *ctx, ir_node *n, const ir_node *from, ir_node *to,
                        ptrmap *memo) {
  if (n == from)
    return to;
  if (n->depth <= from->depth)
    return n; /* too shallow to hold it */
  ir_node *done = ptrmap_get(memo, n);
  if (done)
    return done;
  ir_node *k[3] = {0};
  bool changed = false;
  for (int i = 0; i < n->nkids; i++) {
    /* where a sum, a messages or a flows stage binds a name `from` uses (a sum's body,
     * the whole stage: its rank p, its Q), `from` means another value */
    bool binder = n->op == IR_MSGS || n->op == IR_FLOWS || (ir_is_range(n->op) && i == 2);
    bool bound = binder && ir_uses(from, n->name);
    k[i] = bound ? n->kid[i] : replace(ctx, n->kid[i], from, to, memo);
    changed |= k[i] != n->kid[i];
  }
  ir_node *r = n;
  if (changed) {
    r = ir_make(ctx, (ir_op)n->op, n->name, n->num, k[0], k[1], k[2]);
    if (!r->origin.src)
      r->origin = n->origin;
  }
  ptrmap_put(memo, n, r);
  return r;
}

ir_node *ir_replace(tlop_ctx *ctx, ir_node *n, const ir_node *from, ir_node *to) {
  ptrmap memo = {0};
  ir_node *r = replace(ctx, n, from, to, &memo);
  ptrmap_free(&memo);
  return r;
}

/* Order of operators in canonical forms: variables first, numbers last. */
static int op_rank(const ir_node *n) {
  switch (n->op) {
  case IR_VAR: return 0;
  case IR_POW: return 1;
  case IR_NUM: return 9;
  default: return 2 + ir_is_range(n->op);
  }
}

/* A total order on nodes that depends only on their structure (names compared as text),
 * so canonical forms and their printing are the same from run to run. */
int ir_cmp(const ir_node *a, const ir_node *b) {
  if (a == b)
    return 0;
  int ra = op_rank(a), rb = op_rank(b);
  if (ra != rb)
    return ra < rb ? -1 : 1;
  if (a->op != b->op)
    return a->op < b->op ? -1 : 1;
  if (a->op == IR_NUM)
    return a->num < b->num ? -1 : a->num > b->num ? 1 : 0;
  if (a->name != b->name) {
    if (!a->name || !b->name)
      return a->name ? 1 : -1;
    int c = strcmp(a->name->name, b->name->name);
    if (c)
      return c;
  }
  for (int i = 0; i < a->nkids; i++) {
    int c = ir_cmp(a->kid[i], b->kid[i]);
    if (c)
      return c;
  }
  return 0;
}

static bool uses(const ir_node *n, sym var, ptrmap *seen) {
  if (!ir_mentions(n, var) || ptrmap_get(seen, n))
    return false;
  if (n->op == IR_VAR)
    return n->name == var;
  ptrmap_put(seen, n, (void *)n);
  if (ir_is_range(n->op) && n->name == var)
    return uses(n->kid[0], var, seen) || uses(n->kid[1], var, seen);
  for (int i = 0; i < n->nkids; i++)
    if (uses(n->kid[i], var, seen))
      return true;
  return false;
}

bool ir_uses(const ir_node *n, sym var) {
  if (!ir_mentions(n, var))
    return false;
  ptrmap seen = {0};
  bool r = uses(n, var, &seen);
  ptrmap_free(&seen);
  return r;
}

/* Whether every free variable of `value` occurs free in `body`. */
bool ir_uses_all(const ir_node *body, const ir_node *value) {
  if (!value->vars) /* no name at all (a number): nothing to look for */
    return true;
  if (value->op == IR_VAR) /* the common argument, without collecting */
    return ir_uses(body, value->name);
  ir_names vars = {0}, channels = {0};
  ir_collect_names(&value, 1, &vars, &channels);
  bool all = true;
  for (size_t i = 0; i < vars.n && all; i++)
    all = ir_uses(body, vars.v[i]);
  free(vars.v);
  free(channels.v);
  return all;
}

static ir_node *rebind(tlop_ctx *ctx, ir_node *n, sym old, sym fresh, ptrmap *memo) {
  ir_node *done = ptrmap_get(memo, n);
  if (done)
    return done;
  ir_node *k[3] = {0};
  bool changed = false;
  for (int i = 0; i < n->nkids; i++)
    changed |= (k[i] = rebind(ctx, n->kid[i], old, fresh, memo)) != n->kid[i];
  sym name = n->name;
  if (ir_is_range(n->op) && name == old) {
    k[2] = ir_subst(ctx, k[2], old, ir_var(ctx, fresh));
    name = fresh, changed = true;
  }
  ir_node *r = changed ? ir_make(ctx, (ir_op)n->op, name, n->num, k[0], k[1], k[2]) : n;
  if (!r->origin.src)
    r->origin = n->origin;
  ptrmap_put(memo, n, r);
  return r;
}

ir_node *ir_rebind(tlop_ctx *ctx, ir_node *n, sym old, sym fresh) {
  ptrmap memo = {0};
  ir_node *r = rebind(ctx, n, old, fresh, &memo);
  ptrmap_free(&memo);
  return r;
}

static void add_name(ir_names *ns, sym s) {
  for (size_t i = 0; i < ns->n; i++)
    if (ns->v[i] == s)
      return;
  VEC_PUSH(ns->v, ns->n, ns->cap, s);
}

static void collect(const ir_node *n, ptrmap *seen, ir_names *vars, ir_names *indices,
                    ir_names *channels) {
  if (ptrmap_get(seen, n))
    return;
  ptrmap_put(seen, n, (void *)n);
  if (n->op == IR_VAR)
    add_name(vars, n->name);
  if (ir_is_range(n->op) || n->op == IR_MSGS || n->op == IR_FLOWS)
    add_name(indices, n->name);
  if ((n->op == IR_L || n->op == IR_O || n->op == IR_PACK || n->op == IR_TX) && n->name)
    add_name(channels, n->name);
  for (int i = 0; i < n->nkids; i++)
    collect(n->kid[i], seen, vars, indices, channels);
}

void ir_collect_indices(const ir_node *root, ir_names *indices) {
  ptrmap seen = {0};
  ir_names vars = {0}, channels = {0};
  collect(root, &seen, &vars, indices, &channels);
  free(vars.v);
  free(channels.v);
  ptrmap_free(&seen);
}

void ir_collect_names(const ir_node *const *nodes, size_t n, ir_names *vars, ir_names *channels) {
  ptrmap seen = {0};
  ir_names indices = {0};
  size_t from = vars->n;
  for (size_t i = 0; i < n; i++)
    collect(nodes[i], &seen, vars, &indices, channels);
  size_t k = from;
  for (size_t i = from; i < vars->n; i++) {
    bool index = false;
    for (size_t j = 0; j < indices.n && !index; j++)
      index = indices.v[j] == vars->v[i];
    if (!index)
      vars->v[k++] = vars->v[i];
  }
  vars->n = k;
  free(indices.v);
  ptrmap_free(&seen);
}
