/* lower.c — checked AST → cost IR. Function calls are inlined (there is no recursion),
 * `let` shares one node, and a sum index that could capture a name from outside is
 * renamed apart (i → i'), so substitution in later stages never needs to rename.
 * Requires: the expression passed chk_model/chk_expr. */
#include "ir/ir.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A name's value: a node, or for an operator parameter the operator (value NULL). */
typedef struct binding {
  sym name;
  ir_node *value;
  const struct binding *up;
  sym op;
} binding;

typedef struct lowerer {
  tlop_model *model;
  const tlop_env *env; /* free operators of the expression, or NULL */
  sym *active; /* sum indices being lowered, innermost last */
  size_t nactive, cap;
  double inlined; /* function calls inlined so far (--max-inline) */
  bool in_flows;  /* lowering a flows stage: a send is a flow, with a start */
  /* where a require's refusal points: the algorithm being inlined (innermost) and the
   * outermost call, the one in the expression's own text (or the algorithm's name when
   * an algorithm is lowered alone) */
  const ast_decl *algorithm;
  span call;
  bool failed;
  expr_let *lets; /* lets whose value is not a leaf and uses no index */
  size_t nlets, lets_cap;
  /* names of given values already checked as a count, as a size: each said once */
  ptrmap counts_checked, sizes_checked;
  ptrmap sized; /* a call's node → 1: small, 2: large (record_call): each measured once */
} lowerer;

static ir_node *lower(lowerer *lw, ast_expr *e, const binding *env);

static tlop_ctx *ctx_of(lowerer *lw) { return lw->model->ctx; }

/* n, placed at `where` unless it has a place already: the span is found (a search of the
 * context's sources) only then, as every node lowered passes here. */
static ir_node *at(const tlop_ctx *ctx, ir_node *n, spot where) {
  if (n && !n->origin.src)
    n->origin = span_of(ctx, where);
  return n;
}

/* Would an index named `name` capture a variable that is already in play? */
static bool captures(lowerer *lw, sym name, const binding *env) {
  for (size_t i = 0; i < lw->nactive; i++)
    if (lw->active[i] == name)
      return true;
  if (ptrmap_get(&lw->model->values, name))
    return true;
  for (const binding *b = env; b; b = b->up)
    if (b->value && ir_mentions(b->value, name))
      return true;
  return false;
}

static sym index_name(lowerer *lw, sym name, const binding *env) {
  sym s = name;
  while (captures(lw, s, env)) {
    strbuf b = {0};
    sb_printf(&b, "%s'", s->name);
    s = ctx_sym(ctx_of(lw), b.s);
    free(b.s);
  }
  return s;
}

/* Binary ∥ joins sets of transfers: L(…) terms, possibly under ∥ themselves. */
static bool transfer_set(const ir_node *n) {
  switch (n->op) {
  case IR_L: return true;
  case IR_PAR: return transfer_set(n->kid[1]);
  case IR_CONC: return transfer_set(n->kid[0]) && transfer_set(n->kid[1]);
  case IR_STAGE: return transfer_set(n->kid[0]);
  default: return false;
  }
}

/* The value of a node made of numbers and scalar operators only. */
static bool constant(const ir_node *n, double *v) {
  double a = 0, b = 0;
  if (n->op == IR_NUM) {
    *v = n->num;
    return true;
  }
  bool scalar = n->op >= IR_ADD && n->op <= IR_NOT;
  if (!scalar || !constant(n->kid[0], &a) || (n->nkids > 1 && !constant(n->kid[1], &b)))
    return false;
  *v = ir_apply((ir_op)n->op, a, b);
  return isfinite(*v);
}

static ir_op binary_op(ast_op op) {
  switch (op) {
  case OP_ADD: return IR_ADD;
  case OP_SUB: return IR_SUB;
  case OP_MUL: return IR_MUL;
  case OP_DIV: return IR_DIV;
  case OP_MOD: return IR_MOD;
  case OP_POW: return IR_POW;
  case OP_LT: return IR_LT;
  case OP_LE: return IR_LE;
  case OP_GT: return IR_GT;
  case OP_GE: return IR_GE;
  case OP_EQ: return IR_EQ;
  case OP_NE: return IR_NE;
  case OP_AND: return IR_AND;
  case OP_OR: return IR_OR;
  case OP_NEG: return IR_NEG;
  case OP_NOT: return IR_NOT;
  }
  return IR_NUM;
}

/* The operator a name stands for where an operator is expected: an operator parameter's
 * (or the expression's free operator's) value, else the operator of that name. */
static sym op_value(lowerer *lw, sym name, const binding *env) {
  for (const binding *b = env; b; b = b->up)
    if (b->name == name)
      return b->op;
  sym given = env_op(lw->env, name);
  return given ? given : name;
}

/* value where cond holds, else the error `message` at `where`. It is value repeated
 * log₂(2) = 1 time, or log₂(0) times, which the evaluator refuses with the message the
 * node's name holds. */
static ir_node *gated(lowerer *lw, span where, const char *message, ir_node *cond, ir_node *value) {
  tlop_ctx *ctx = ctx_of(lw);
  ir_node *gate = ir_make(ctx, IR_LOG2, ctx_sym(ctx, message), 0,
                          ir_make(ctx, IR_IF, NULL, 0, cond, ir_num(ctx, 2), ir_num(ctx, 0)), NULL, NULL);
  at(ctx, gate, spot_of(where));
  return ir_bin(ctx, IR_REPEAT, gate, value);
}

/* require(cond, value): value where cond holds, else an error at the user's call that
 * names the algorithm and cond as written. */
static ir_node *required(lowerer *lw, const ast_expr *call, ir_node *cond, ir_node *value) {
  span cs = ast_span(ctx_of(lw), call->u.call.args[0]);
  strbuf b = {0};
  const char *who = lw->algorithm ? lw->algorithm->name->name : "this expression";
  if (cs.src)
    sb_printf(&b, "%s requires %.*s", who, (int)(cs.hi - cs.lo), cs.src->text + cs.lo);
  else
    sb_printf(&b, "%s: its require's condition does not hold", who);
  ir_node *r = gated(lw, lw->call.src ? lw->call : ast_span(ctx_of(lw), call), b.s, cond, value);
  free(b.s);
  return r;
}

static sym named_value(lowerer *lw, const ast_expr *a, const binding *env);
static ir_node *placed(lowerer *lw, sym mapping, ir_node *p, ir_node *M, ir_node *P, span where);

static ir_node *lower_builtin(lowerer *lw, ast_expr *e, ir_node **a, int n, const binding *env) {
  tlop_ctx *ctx = ctx_of(lw);
  const char *name = e->u.call.name->name;
  sym ch = e->u.call.channel;
  if (!strcmp(name, "L"))
    return ir_make(ctx, IR_L, ch, 0, a[0], a[1], NULL);
  if (!strcmp(name, "T"))
    return ir_make(ctx, IR_TX, ch, 0, a[0], a[1], NULL);
  if (!strcmp(name, "o"))
    return ir_make(ctx, IR_O, ch, 0, a[0], NULL, NULL);
  if (!strcmp(name, "p"))
    return ir_make(ctx, IR_PACK, ch, 0, a[0], NULL, NULL);
  if (!strcmp(name, "gamma"))
    return ir_make(ctx, IR_GAMMA, op_value(lw, e->u.call.op, env), 0, a[0], a[1], NULL);
  if (!strcmp(name, "log"))
    return ir_bin(ctx, IR_LOG, a[0], a[1]);
  if (!strcmp(name, "min") || !strcmp(name, "max")) {
    ir_node *r = a[0];
    for (int i = 1; i < n; i++)
      r = ir_bin(ctx, name[1] == 'i' ? IR_MIN : IR_MAX, r, a[i]);
    return r;
  }
  if (!strcmp(name, "require"))
    return required(lw, e, a[0], a[1]);
  if (!strcmp(name, "node_of"))
    return placed(lw, named_value(lw, e->u.call.args[0], env), a[3], a[1], a[2],
                  ast_span(ctx_of(lw), e));
  if (!strcmp(name, "listed")) /* known where lowered: a branch on it costs nothing */
    return ir_make(ctx, IR_NUM, ctx_sym(ctx, "bool"),
                   !strncmp(named_value(lw, e->u.call.args[0], env)->name, "nodes(", 6), NULL, NULL, NULL);
  if (!strcmp(name, "integer"))
    return ir_bin(ctx, IR_EQ, a[0], ir_un(ctx, IR_FLOOR, a[0]));
  static const struct { const char *name; ir_op op; } unary[] = {
      {"log2", IR_LOG2}, {"ceil", IR_CEIL}, {"floor", IR_FLOOR}, {"abs", IR_ABS},
      {"sqrt", IR_SQRT}};
  for (size_t i = 0; i < sizeof unary / sizeof *unary; i++)
    if (!strcmp(name, unary[i].name))
      return ir_un(ctx, unary[i].op, a[0]);
  return NULL;
}

/* fn's parameter i is an operator or a mapping: an argument or default, a name (or a
 * nodes(…) list) the checker allowed. */
static bool is_named_param(const ast_decl *fn, int i) {
  return fn && i < fn->nargs && kind_by_name(fn->args[i]->k);
}

/* The operator or mapping an argument or default names: a parameter's value, else the
 * name itself (sum, sequential, round_robin); nodes(…) as its text "nodes(0, 0, 1, 1)". */
static sym named_value(lowerer *lw, const ast_expr *a, const binding *env) {
  if (a->kind == E_NAME)
    return op_value(lw, a->u.name.name, env);
  strbuf b = {0};
  sb_puts(&b, "nodes(");
  for (int i = 0; i < a->u.call.nargs; i++)
    sb_printf(&b, "%s%.17g", i ? ", " : "", a->u.call.args[i]->u.num.v);
  sb_puts(&b, ")");
  sym s = ctx_sym(ctx_of(lw), b.s);
  free(b.s);
  return s;
}

/* A number a call leaves out: the value given for it (--set M=4: the variable, which the
 * evaluation binds), else its default, which sees the globals only. */
static ir_node *left_out_number(lowerer *lw, const ast_arg *arg) {
  if (env_has_value(lw->env, arg->name))
    return ir_var(ctx_of(lw), arg->name);
  return lower(lw, arg->dflt, NULL);
}

/* A value given for a free name of the expression's own text (--set P=4.5) that a call
 * passes as is to a count parameter must be whole: else an error, as for an algorithm's
 * own parameter, and not a fractional count evaluated silently. A suspect count or size
 * is warned of. */
static void check_given_value(lowerer *lw, const ast_decl *fn, int i, const ast_expr *arg,
                              const binding *env) {
  kind want = fn->args[i]->k;
  if (!lw->env || arg->kind != E_NAME)
    return;
  sym name = arg->u.name.name;
  for (const binding *b = env; b; b = b->up)
    if (b->name == name)
      return; /* a local of the text (a sum index), not the given value */
  ptrmap *checked = kind_is_count(want)        ? &lw->counts_checked
                    : kind_eq(want, KIND_SIZE) ? &lw->sizes_checked
                                               : NULL;
  if (!checked || ptrmap_get(checked, name))
    return;
  ptrmap_put(checked, name, (void *)name);
  for (size_t j = 0; j < lw->env->n; j++) {
    double v = lw->env->values[j];
    if (lw->env->names[j] != name)
      continue;
    given_value_warnings(ctx_of(lw), v, name->name, want);
    if (!kind_is_count(want) || (v >= 0 && v == floor(v)))
      continue;
    sym param = fn->args[i]->name;
    diag_error(ctx_of(lw), ast_span(ctx_of(lw), arg),
               "the value given for '%s' is %.15g, but it is passed to "
               "'%s' of %s, a count: a whole number, 0 or more", name->name, v, param->name,
               fn->name->name);
    diag_note(ctx_of(lw), span_of(ctx_of(lw), fn->args[i]->loc), "'%s' is a count here", param->name);
    lw->failed = true;
  }
}

static void listed_numbers(const char *text, double **v, size_t *k);

/* fn's count parameter `name`, or -1 */
static int count_param(const ast_decl *fn, const char *name) {
  for (int i = 0; i < fn->nargs; i++)
    if (!strcmp(fn->args[i]->name->name, name) && kind_is_count(fn->args[i]->k))
      return i;
  return -1;
}

/* The largest node a nodes(…) list's first P entries name (of its k, v), as a node over P;
 * a number where P is one, or where it is the same for every P. */
static ir_node *listed_top(tlop_ctx *ctx, const double *v, size_t k, ir_node *P) {
  double *top = xmalloc((k ? k : 1) * sizeof *top);
  for (size_t j = 0; j < k; j++)
    top[j] = j ? fmax(top[j - 1], v[j]) : v[j];
  ir_node *r = ir_num(ctx, k ? top[k - 1] : -1);
  if (P->op == IR_NUM && P->num >= 1 && P->num < (double)k) /* a P the call gives */
    r = ir_num(ctx, top[(size_t)P->num - 1]);
  else if (P->op != IR_NUM)
    for (size_t j = k; j-- > 1;)
      if (top[j - 1] != top[j]) /* the first j entries name fewer nodes */
        r = ir_make(ctx, IR_IF, NULL, 0, ir_bin(ctx, IR_LE, P, ir_num(ctx, (double)j)),
                    ir_num(ctx, top[j - 1]), r);
  free(top);
  return r;
}

/* The condition that M counts every node a nodes(…) list names for P ranks, and its error
 * in *b, which names `who` (an algorithm, or NULL). */
static ir_node *listed_fits(lowerer *lw, const char *who, const char *list, const double *v,
                            size_t k, ir_node *M, ir_node *P, strbuf *b) {
  tlop_ctx *ctx = ctx_of(lw);
  ir_node *top = listed_top(ctx, v, k, P);
  sb_printf(b, "%s%smapping %s ", who ? who : "", who ? "'s " : "the ", list);
  if (top->op == IR_NUM)
    sb_printf(b, "names node %.17g: M must be %.17g or more", top->num, top->num + 1);
  else
    sb_puts(b, "puts one of the first P ranks on node M or above: M must count every node it names");
  return ir_bin(ctx, IR_GT, M, top);
}

/* The condition that a nodes(…) list of k entries places P ranks, and its error in *b. */
static ir_node *listed_places(tlop_ctx *ctx, const char *who, const char *list, size_t k,
                              ir_node *P, strbuf *b) {
  sb_printf(b, "%s%smapping %s places %zu ranks: P must be %zu or fewer", who ? who : "",
            who ? "'s " : "the ", list, k, k);
  return ir_bin(ctx, IR_LE, P, ir_num(ctx, (double)k));
}

/* What a nodes(…) list bound to a mapping parameter requires: a condition and its error. */
typedef struct listed_rule {
  ir_node *cond[2];
  char *message[2];
  int n;
} listed_rule;

/* A nodes(n0, …) list bound to fn's mapping parameter places fn's P ranks on its M nodes
 * (docs/language.md): M left out (no argument, nothing given) is set to one more than the
 * largest node listed; else M must exceed it, and P must not exceed the list's length. So an
 * algorithm's one-node form, chosen by M = 1 without looking at the mapping, never prices
 * a list that names two nodes. Run before the body is lowered; gate_listed applies the
 * conditions it returns. */
static listed_rule bind_listed_nodes(lowerer *lw, const ast_decl *fn, binding *frames,
                                     bool M_left_out) {
  listed_rule rule = {.n = 0};
  int iM = count_param(fn, "M"), iP = count_param(fn, "P");
  tlop_ctx *ctx = ctx_of(lw);
  for (int i = 0; i < fn->nargs; i++) {
    sym list = frames[i].op;
    if (!list || fn->args[i]->k.tag != K_MAP || strncmp(list->name, "nodes(", 6))
      continue;
    double *v = NULL;
    size_t k = 0;
    listed_numbers(list->name, &v, &k);
    strbuf b = {0};
    ir_node *P = iP >= 0 ? frames[iP].value : ir_num(ctx, (double)k); /* no P: the whole list */
    if (iM >= 0 && M_left_out) {
      frames[iM].value = ir_bin(ctx, IR_ADD, listed_top(ctx, v, k, P), ir_num(ctx, 1));
    } else if (iM >= 0) {
      rule.cond[rule.n] = listed_fits(lw, fn->name->name, list->name, v, k, frames[iM].value, P, &b);
      rule.message[rule.n++] = b.s;
      b = (strbuf){0};
    }
    free(v);
    if (iP >= 0) {
      rule.cond[rule.n] = listed_places(ctx, fn->name->name, list->name, k, frames[iP].value, &b);
      rule.message[rule.n++] = b.s;
    }
    break; /* one mapping an algorithm */
  }
  return rule;
}

/* r where the rule's conditions hold, else their errors at `where`. */
static ir_node *gate_listed(lowerer *lw, listed_rule *rule, span where, ir_node *r) {
  for (int i = 0; i < rule->n; i++) {
    r = gated(lw, where, rule->message[i], rule->cond[i], r);
    free(rule->message[i]);
  }
  return r;
}

/* The node of algorithm fn's call e (ir_called) when it passes count parameters (frames)
 * values that are not whole literals, for the engines to check where they enter the body;
 * else the body. Not a leaf: a name or a number, where nothing fails for a fraction. */
static ir_node *checked_counts(lowerer *lw, const ast_decl *fn, const ast_expr *e,
                               const binding *frames, ir_node *body) {
  if (fn->kind != D_ALGORITHM || !body || !body->nkids)
    return body;
  ir_count_arg *args = xcalloc((size_t)fn->nargs, sizeof *args);
  size_t k = 0;
  for (int i = 0; i < fn->nargs; i++) {
    ir_node *value = frames[i].value;
    double v;
    if (!kind_is_count(fn->args[i]->k) || !value ||
        (constant(value, &v) && v >= 0 && v == floor(v)) || !ir_uses_all(body, value))
      continue;
    span where = ast_span(ctx_of(lw), i < e->u.call.nargs ? e->u.call.args[i] : e);
    args[k++] = (ir_count_arg){fn->args[i]->name, span_of(ctx_of(lw), fn->args[i]->loc), where, value};
  }
  ir_node *r = k ? ir_called(ctx_of(lw), body, &(ir_call){fn->name, args, k, NULL}) : body;
  free(args);
  return r;
}

/* Bodies of fewer distinct IR nodes than this are not recorded for an engine to call
 * (ir_inlined): a call and its arguments would cost about as much as the body. */
#define CALL_BODY_MIN_NODES 48

/* The slots of large_body's set: a power of two above CALL_BODY_MIN_NODES. */
#define CALL_BODY_SLOTS 64

/* Whether n has CALL_BODY_MIN_NODES distinct nodes: seen is a set of CALL_BODY_SLOTS
 * slots (on the stack: this runs at every call lowered), *count the nodes in it. */
static bool large_body(const ir_node *n, const ir_node **seen, size_t *count) {
  size_t i = (n->id * 2654435761u) & (CALL_BODY_SLOTS - 1);
  while (seen[i] && seen[i] != n)
    i = (i + 1) & (CALL_BODY_SLOTS - 1);
  if (seen[i])
    return false;
  seen[i] = n;
  ++*count;
  for (int k = 0; k < n->nkids && *count < CALL_BODY_MIN_NODES; k++)
    large_body(n->kid[k], seen, count);
  return *count >= CALL_BODY_MIN_NODES;
}

/* Records fn's call (its parameters bound in frames) on its node r for an engine to call
 * its body lowered once (ir_inlined), when that body is large and binds no nodes(…) list. */
static void record_call(lowerer *lw, ast_decl *fn, const binding *frames, ir_node *r) {
  if (lw->failed || ir_inlined_call(ctx_of(lw), r))
    return;
  /* equal calls give one node: a model of 10^6 calls has far fewer to measure */
  uintptr_t size = (uintptr_t)ptrmap_get(&lw->sized, r);
  if (!size) {
    const ir_node *seen[CALL_BODY_SLOTS] = {0};
    size_t count = 0;
    size = large_body(r, seen, &count) ? 2 : 1;
    ptrmap_put(&lw->sized, r, (void *)size);
  }
  if (size == 1)
    return;
  ir_node **values = xcalloc((size_t)fn->nargs + 1, sizeof *values);
  sym *named = xcalloc((size_t)fn->nargs + 1, sizeof *named);
  bool fits = true;
  for (int i = 0; i < fn->nargs && fits; i++) {
    values[i] = frames[i].value;
    named[i] = frames[i].op;
    fits = named[i] ? strncmp(named[i]->name, "nodes(", 6) != 0 : values[i] != NULL;
  }
  if (fits)
    ir_inlined_put(ctx_of(lw), r, &(ir_inlined){fn, values, named, fn->nargs});
  free(values);
  free(named);
}

static ir_node *lower_call(lowerer *lw, ast_expr *e, const binding *env) {
  int n = e->u.call.nargs;
  /* T[ch](…) is the channel's transmission, even where a function T is defined */
  bool transmission = e->u.call.channel && !strcmp(e->u.call.name->name, "T");
  ast_decl *fn = transmission ? NULL : ptrmap_get(&lw->model->funcs, e->u.call.name);
  ir_node *small[8], **a = n <= 8 ? small : xcalloc((size_t)n, sizeof *a);
  /* node_of(map, M, P, p) and listed(map): the mapping is a name or nodes(…), not a value */
  bool node_of = !fn && !transmission && (!strcmp(e->u.call.name->name, "node_of") ||
                                          !strcmp(e->u.call.name->name, "listed"));
  for (int i = 0; i < n; i++) {
    a[i] = is_named_param(fn, i) || (node_of && i == 0) ? NULL : lower(lw, e->u.call.args[i], env);
    if (fn && i < fn->nargs && a[i])
      check_given_value(lw, fn, i, e->u.call.args[i], env);
  }
  ir_node *r = NULL;
  if (fn && ++lw->inlined > ctx_of(lw)->max_inline) {
    lw->failed = true; /* reported by finish, at the whole expression */
    r = ir_num(ctx_of(lw), 0); /* stands in for the call; the result is dropped */
  } else if (fn) {
    /* The body sees its parameters and the globals, not the caller's locals; a default is
     * an operator's name, which needs no scope. An operator the call leaves out is the
     * value given for it (--set op=max, as an algorithm's own parameter takes it), else
     * its default; lw->env is set in the expression's own text only, not in bodies. */
    binding *frames = xcalloc((size_t)fn->nargs, sizeof *frames);
    const binding *scope = NULL;
    for (int i = 0; i < fn->nargs; i++) {
      bool named = is_named_param(fn, i);
      sym left_out = named && i >= n ? env_op(lw->env, fn->args[i]->name) : NULL;
      sym op = !named     ? NULL
               : i < n    ? named_value(lw, e->u.call.args[i], env)
               : left_out ? left_out
                          : named_value(lw, fn->args[i]->dflt, NULL);
      ir_node *value = i < n ? a[i] : named ? NULL : left_out_number(lw, fn->args[i]);
      frames[i] = (binding){fn->args[i]->name, value, scope, op};
      scope = &frames[i];
    }
    int iM = count_param(fn, "M");
    bool M_left_out = iM >= n && !env_has_value(lw->env, fn->args[iM]->name);
    listed_rule rule = bind_listed_nodes(lw, fn, frames, M_left_out);
    /* The caller's locals reach the body only inside the arguments, which the capture
     * test of a sum index sees through these frames. */
    const tlop_env *free_ops = lw->env; /* a body names operators by its parameters */
    const ast_decl *caller = lw->algorithm;
    span outer_call = lw->call;
    lw->env = NULL;
    if (fn->kind == D_ALGORITHM)
      lw->algorithm = fn;
    if (!lw->call.src)
      lw->call = ast_span(ctx_of(lw), e);
    r = lower(lw, fn->body, scope);
    r = gate_listed(lw, &rule, lw->call.src ? lw->call : ast_span(ctx_of(lw), e), r);
    r = checked_counts(lw, fn, e, frames, r);
    if (r)
      record_call(lw, fn, frames, r);
    lw->env = free_ops;
    lw->algorithm = caller;
    lw->call = outer_call;
    free(frames);
  } else {
    r = lower_builtin(lw, e, a, n, env);
  }
  if (a != small)
    free(a);
  return r;
}

/* The nodes of a nodes(n0, n1, …) text, in *v (k of them; free it). */
static void listed_numbers(const char *text, double **v, size_t *k) {
  size_t cap = 0;
  *v = NULL, *k = 0;
  for (const char *s = text + strlen("nodes("); *s && *s != ')';) {
    char *end;
    double x = strtod(s, &end);
    VEC_PUSH(*v, *k, cap, x);
    s = end + strspn(end, ", ");
  }
}

/* nodes(n0, n1, …) as place(…) takes it: rank p on the p-th node; a rank beyond the list,
 * or every rank of a P longer than it, on node −1, which the evaluation refuses. */
static ir_node *listed_nodes(tlop_ctx *ctx, const double *v, size_t k, ir_node *p, ir_node *P) {
  ir_node *node = ir_num(ctx, -1);
  for (size_t i = k; i-- > 0;)
    node = ir_make(ctx, IR_IF, NULL, 0, ir_bin(ctx, IR_EQ, p, ir_num(ctx, (double)i)),
                   ir_num(ctx, v[i]), node);
  return ir_make(ctx, IR_IF, NULL, 0, ir_bin(ctx, IR_LE, P, ir_num(ctx, (double)k)), node,
                 ir_num(ctx, -1));
}

/* place(map, M, P): the mapping map puts P ranks on M nodes — sequential, ⌈P/M⌉ ranks a
 * node (node p ÷ ⌈P/M⌉); round_robin, node p mod M; nodes(…), the node listed for p. */
static ir_node *placed(lowerer *lw, sym mapping, ir_node *p, ir_node *M, ir_node *P, span where) {
  tlop_ctx *ctx = ctx_of(lw);
  if (!strcmp(mapping->name, "sequential"))
    return ir_un(ctx, IR_FLOOR, ir_bin(ctx, IR_DIV, p, ir_un(ctx, IR_CEIL, ir_bin(ctx, IR_DIV, P, M))));
  if (!strcmp(mapping->name, "round_robin"))
    return ir_bin(ctx, IR_MOD, p, M);
  double *v = NULL;
  size_t k = 0;
  listed_numbers(mapping->name, &v, &k);
  strbuf b = {0};
  ir_node *fits = listed_fits(lw, NULL, mapping->name, v, k, M, P, &b);
  ir_node *r = gated(lw, where, b.s, fits, listed_nodes(ctx, v, k, p, P));
  b.len = 0;
  ir_node *places = listed_places(ctx, NULL, mapping->name, k, P, &b);
  r = gated(lw, where, b.s, places, r);
  free(v);
  free(b.s);
  return r;
}

/* A messages stage: the mapping becomes the node of a rank variable (p, or p' … when an
 * argument of the mapping uses p): sequential(Q) is ⌊p/Q⌋, round_robin(M) is p mod M,
 * nodes(n0, n1, …) picks the p-th (the last for the ranks beyond), by(e) is e,
 * place(map, M, P) as placed says. */
static ir_node *lower_messages(lowerer *lw, ast_expr *e, const binding *env) {
  tlop_ctx *ctx = ctx_of(lw);
  int n = e->u.msgs.nargs;
  ir_node **args = xcalloc((size_t)n, sizeof *args);
  const char *kind = e->u.msgs.mapping->name;
  bool by = !strcmp(kind, "by"), place = !strcmp(kind, "place");
  for (int i = place; i < n && !by; i++)
    args[i] = lower(lw, e->u.msgs.args[i], env);
  sym rank = ctx_sym(ctx, "p");
  for (bool again = true; again;) {
    again = false;
    for (int i = place; i < n && !by; i++)
      again |= ir_uses(args[i], rank);
    if (again) {
      strbuf b = {0};
      sb_printf(&b, "%s'", rank->name);
      rank = ctx_sym(ctx, b.s);
      free(b.s);
    }
  }
  ir_node *p = ir_var(ctx, rank), *node;
  if (by) {
    binding b = {ctx_sym(ctx, "p"), p, env, NULL};
    node = lower(lw, e->u.msgs.args[0], &b);
  } else if (place) {
    node = placed(lw, named_value(lw, e->u.msgs.args[0], env), p, args[1], args[2],
                  ast_span(ctx_of(lw), e));
  } else if (!strcmp(kind, "sequential")) {
    node = ir_un(ctx, IR_FLOOR, ir_bin(ctx, IR_DIV, p, args[0]));
  } else if (!strcmp(kind, "round_robin")) {
    node = ir_bin(ctx, IR_MOD, p, args[0]);
  } else {
    node = args[n - 1];
    for (int i = n - 1; i-- > 0;)
      node = ir_make(ctx, IR_IF, NULL, 0, ir_bin(ctx, IR_EQ, p, ir_num(ctx, i)), args[i], node);
  }
  free(args);
  /* num 1: messages[L], each message priced by its channel's L rather than its T */
  return ir_make(ctx, IR_MSGS, rank, e->u.msgs.priced ? 1 : 0, node, lower(lw, e->u.msgs.body, env),
                 NULL);
}

/* One of a flows stage's two functions: e with `name` bound to the variable v. */
static ir_node *lower_lambda(lowerer *lw, ast_expr *e, const char *name, sym v,
                             const binding *env) {
  binding b = {ctx_sym(ctx_of(lw), name), ir_var(ctx_of(lw), v), env, NULL};
  VEC_PUSH(lw->active, lw->nactive, lw->cap, v);
  ir_node *r = lower(lw, e, &b);
  lw->nactive--;
  return r;
}

/* A flows stage binds Q in its time alone, and entry in its cuts; both renamed apart like
 * sum indices. The cuts, a function of entry = 0 … 4, are held by a sum node over that
 * range because it is the binder every pass knows (substitution, free names); it is
 * never added up. Each send in the stage is a flow with its start (0 s if not given). */
static ir_node *lower_flows(lowerer *lw, ast_expr *e, const binding *env) {
  tlop_ctx *ctx = ctx_of(lw);
  sym q = index_name(lw, ctx_sym(ctx, "Q"), env);
  sym entry = index_name(lw, ctx_sym(ctx, "entry"), env);
  ir_node *alone = lower_lambda(lw, e->u.flows.alone, "Q", q, env);
  ir_node *cuts = ir_make(ctx, IR_SUM, entry, 0, ir_num(ctx, 0), ir_num(ctx, FLOW_NCUTS - 1),
                          lower_lambda(lw, e->u.flows.cuts, "entry", entry, env));
  bool outer = lw->in_flows;
  lw->in_flows = true;
  ir_node *body = lower(lw, e->u.flows.body, env);
  lw->in_flows = outer;
  return ir_make(ctx, IR_FLOWS, q, 0, alone, cuts, body);
}

static ir_node *lower_send(lowerer *lw, ast_expr *e, const binding *env) {
  tlop_ctx *ctx = ctx_of(lw);
  ir_node *send = ir_make(ctx, IR_SEND, NULL, 0, lower(lw, e->u.send.src, env),
                          lower(lw, e->u.send.dst, env), lower(lw, e->u.send.size, env));
  if (!lw->in_flows)
    return send;
  ir_node *start = e->u.send.start ? lower(lw, e->u.send.start, env)
                                   : ir_make(ctx, IR_NUM, ctx_sym(ctx, "s"), 0, NULL, NULL, NULL);
  return ir_bin(ctx, IR_FLOW, send, start);
}

static ir_node *lower(lowerer *lw, ast_expr *e, const binding *env) {
  tlop_ctx *ctx = ctx_of(lw);
  ir_node *r = NULL;
  switch (e->kind) {
  case E_NUM: {
    /* the literal's unit stays with the number, so printed source checks again; `true`
     * and `false` are 1 and 0 with the unit "bool" */
    kind k = e->u.num.k;
    const char *unit = kind_eq(k, KIND_SIZE) ? "B" : kind_eq(k, KIND_TIME) ? "s"
                       : kind_eq(k, KIND_BOOL) ? "bool"
                       : k.tag == K_DIM && k.b == 1 && k.s == -1 ? "B/s" : NULL;
    r = ir_make(ctx, IR_NUM, unit ? ctx_sym(ctx, unit) : NULL, e->u.num.v, NULL, NULL, NULL);
    break;
  }
  case E_NAME:
    for (const binding *b = env; b; b = b->up)
      if (b->name == e->u.name.name)
        return b->value;
    r = ir_var(ctx, e->u.name.name);
    break;
  case E_CALL:
    r = lower_call(lw, e, env);
    break;
  case E_UNARY:
    r = ir_un(ctx, binary_op(e->op), lower(lw, e->u.bin.l, env));
    break;
  case E_BINARY:
    r = ir_bin(ctx, binary_op(e->op), lower(lw, e->u.bin.l, env),
               lower(lw, e->u.bin.r, env));
    break;
  case E_PAR: {
    ir_node *a = lower(lw, e->u.par.count, env), *x = lower(lw, e->u.par.body, env);
    if (ir_has_cost(a)) {
      if (!transfer_set(a) || !transfer_set(x)) {
        diag_error(ctx, ast_span(ctx, e),
                   "cost ∥ cost joins concurrent transfers: both sides must be "
                   "L(…) terms (a count on the left makes copies of any cost instead)");
        lw->failed = true;
      }
      r = ir_bin(ctx, IR_CONC, a, x);
    } else {
      r = ir_make(ctx, IR_PAR, e->u.par.channel, 0, a, x, NULL);
    }
    break;
  }
  case E_IF: {
    /* a condition decided by constants (mode == 1 with the mode given) picks its branch
     * here, so that choices made by constant arguments do not reach the IR */
    ir_node *c = lower(lw, e->u.cond.c, env);
    double v;
    if (constant(c, &v))
      return lower(lw, v != 0 ? e->u.cond.t : e->u.cond.f, env);
    r = ir_make(ctx, IR_IF, NULL, 0, c, lower(lw, e->u.cond.t, env), lower(lw, e->u.cond.f, env));
    break;
  }
  case E_LET: {
    binding b = {e->u.let.name, lower(lw, e->u.let.value, env), env, NULL};
    bool indexed = false;
    for (size_t i = 0; b.value && i < lw->nactive && !indexed; i++)
      indexed = ir_mentions(b.value, lw->active[i]);
    if (b.value && b.value->nkids && !indexed) {
      expr_let l = {b.name, b.value, e->u.let.checked ? e->u.let.value_kind : KIND_ANY};
      VEC_PUSH(lw->lets, lw->nlets, lw->lets_cap, l);
    }
    return lower(lw, e->u.let.body, &b);
  }
  case E_SUM: {
    ir_node *lo = lower(lw, e->u.sum.lo, env), *hi = lower(lw, e->u.sum.hi, env);
    sym idx = index_name(lw, e->u.sum.index, env);
    binding b = {e->u.sum.index, ir_var(ctx, idx), env, NULL};
    VEC_PUSH(lw->active, lw->nactive, lw->cap, idx);
    ir_node *body = lower(lw, e->u.sum.body, &b);
    lw->nactive--;
    if (e->u.sum.is_stage)
      body = ir_make(ctx, IR_STAGE, NULL, 0, body, NULL, NULL);
    r = ir_make(ctx, e->u.sum.is_max ? IR_MAXOVER : IR_SUM, idx, 0, lo, hi, body);
    break;
  }
  case E_STAGES:
    r = ir_num(ctx, 0);
    for (int i = 0; i < e->u.stages.n; i++) {
      ir_node *s = ir_make(ctx, IR_STAGE, e->u.stages.labels[i], 0,
                           lower(lw, e->u.stages.items[i], env), NULL, NULL);
      r = i ? ir_bin(ctx, IR_ADD, r, s) : s;
    }
    break;
  case E_REPEAT:
    r = ir_bin(ctx, IR_REPEAT, lower(lw, e->u.repeat.count, env),
               lower(lw, e->u.repeat.body, env));
    break;
  case E_SCHEDULE:
    r = ir_make(ctx, IR_SCHED, e->u.sched.channel, 0, lower(lw, e->u.sched.size, env),
                lower(lw, e->u.sched.body, env), NULL);
    break;
  case E_AT:
    r = ir_bin(ctx, IR_AT, lower(lw, e->u.at.step, env), lower(lw, e->u.at.count, env));
    break;
  case E_MESSAGES:
    r = lower_messages(lw, e, env);
    break;
  case E_SEND:
    r = lower_send(lw, e, env);
    break;
  case E_FLOWS:
    r = lower_flows(lw, e, env);
    break;
  }
  if (r && r->depth > IR_MAX_DEPTH && !lw->failed) {
    diag_error(ctx, ast_span(ctx, e),
               "expression too deep once its functions are expanded (more than "
               "%d levels)", IR_MAX_DEPTH);
    lw->failed = true;
  }
  return at(ctx, r, ast_spot(e));
}

static ir_node *finish(lowerer *lw, ir_node *r, span sp) {
  free(lw->active);
  ptrmap_free(&lw->counts_checked);
  ptrmap_free(&lw->sizes_checked);
  ptrmap_free(&lw->sized);
  tlop_ctx *ctx = ctx_of(lw);
  if (lw->inlined > ctx->max_inline) {
    char lim[40];
    fmt_double(lim, sizeof lim, ctx->max_inline);
    diag_error(ctx, sp, "expression too large: more than %s function calls to inline "
               "(--max-inline)", lim);
  }
  return lw->failed ? NULL : r;
}

/* The lets recorded, moved to the context's arena. */
static void take_lets(lowerer *lw, expr_let **lets, size_t *nlets) {
  if (lets) {
    *lets = NULL;
    *nlets = lw->nlets;
    if (lw->nlets) {
      *lets = arena_alloc(ctx_of(lw)->ar, lw->nlets * sizeof **lets);
      memcpy(*lets, lw->lets, lw->nlets * sizeof **lets);
    }
  }
  free(lw->lets);
}

ir_node *lower_expr_lets(tlop_model *model, ast_expr *e, const tlop_env *env, expr_let **lets,
                         size_t *nlets) {
  lowerer lw = {.model = model, .env = env};
  ir_node *r = finish(&lw, lower(&lw, e, NULL), ast_span(ctx_of(&lw), e));
  take_lets(&lw, r ? lets : NULL, nlets);
  return r;
}

ir_node *lower_expr(tlop_model *model, ast_expr *e, const tlop_env *env) {
  return lower_expr_lets(model, e, env, NULL, NULL);
}

ir_node *lower_function(tlop_model *model, ast_decl *fn, const tlop_env *env) {
  return lower_function_lets(model, fn, env, false, NULL, NULL);
}

ir_node *lower_function_lets(tlop_model *model, ast_decl *fn, const tlop_env *env,
                             bool defaults_free, expr_let **lets, size_t *nlets) {
  lowerer lw = {.model = model, .algorithm = fn, .call = fn->name_sp};
  binding *frames = xcalloc((size_t)fn->nargs, sizeof *frames);
  const binding *scope = NULL;
  bool M_left_out = false;
  for (int i = 0; i < fn->nargs; i++) {
    const ast_arg *arg = fn->args[i];
    if (is_named_param(fn, i)) {
      sym given = env_op(env, arg->name);
      sym dflt = arg->dflt ? named_value(&lw, arg->dflt, NULL) : NULL; /* env_fits: given */
      frames[i] = (binding){arg->name, NULL, scope, given ? given : dflt};
    } else if (arg->dflt && !defaults_free && !env_has_value(env, arg->name)) {
      /* a number with a default that nothing gives: the default (M = 1 node) */
      frames[i] = (binding){arg->name, lower(&lw, arg->dflt, NULL), scope, NULL};
      M_left_out = M_left_out || i == count_param(fn, "M");
    } else {
      frames[i] = (binding){arg->name, at(model->ctx, ir_var(model->ctx, arg->name), arg->loc),
                            scope, NULL};
    }
    scope = &frames[i];
  }
  listed_rule rule = bind_listed_nodes(&lw, fn, frames, M_left_out);
  ir_node *r = gate_listed(&lw, &rule, fn->name_sp, lower(&lw, fn->body, scope));
  free(frames);
  r = finish(&lw, r, ast_span(ctx_of(&lw), fn->body));
  take_lets(&lw, r ? lets : NULL, nlets);
  return r;
}

ir_node *lower_call_body(tlop_model *model, const ir_inlined *call) {
  /* the named parameters as values given for them, the numbers free */
  size_t n = (size_t)call->nargs + 1;
  tlop_env given = {.ctx = model->ctx, .op_names = xcalloc(n, sizeof(sym)),
                    .ops = xcalloc(n, sizeof(sym))};
  for (int i = 0; i < call->nargs; i++)
    if (call->named[i]) {
      given.op_names[given.nops] = call->callee->args[i]->name;
      given.ops[given.nops++] = call->named[i];
    }
  ir_node *r = lower_function_lets(model, call->callee, &given, true, NULL, NULL);
  free(given.op_names);
  free(given.ops);
  return r;
}

const param_info *lower_param(tlop_model *model, sym name) {
  param_info *info = ptrmap_get(&model->lowered, name);
  if (info)
    return info;
  ast_decl *d = ptrmap_get(&model->values, name);
  if (!d)
    return NULL;
  info = arena_alloc(model->ctx->ar, sizeof *info);
  info->k = chk_param_kind(model, d);
  info->dflt = d->body ? lower_expr(model, d->body, NULL) : NULL;
  info->failed = d->body && !info->dflt;
  ptrmap_put(&model->lowered, name, info);
  return info;
}
