/* check.c — resolves names and checks arity, recursion and kinds. A kind is a unit
 * (bytes^b · seconds^s) so that sizes, counts, times, bandwidths and times per byte all
 * check; a bare number adopts the kind it meets. A function whose parameters carry no
 * kind annotation is checked once generically, and again for the argument kinds of each
 * distinct call (there is no recursion, so this ends). */
#include "front/front.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A plain number: dimensionless, a bare literal, or not known yet. */
static bool is_scalar(kind k) { return k.tag == K_NUM || k.tag == K_ANY || kind_is_dim(k, 0, 0); }

/* ---- state ---- */

typedef enum { FN_UNCHECKED, FN_CHECKING, FN_OK, FN_FAILED } fn_state;

typedef struct instance {
  kind *args;
  kind result;
  bool failed;    /* its body had errors: each later call with these kinds fails too */
  bool tentative; /* checked in a trial of free names' kinds, its diagnostics dropped */
  struct instance *next;
} instance;

/* 5 bytes, one for each slot of the model's map of fns (a 50 MB model has 676 000 fns);
 * the rare instances lie in a map of their own. */
typedef struct fn_info {
  kind result;  /* of the generic check */
  uint8_t state; /* an fn_state */
} fn_info;

typedef struct scope {
  sym name;
  kind k;
  const struct scope *up;
} scope;

/* Names in the order they first appear, each once. */
typedef struct name_list {
  ptrmap seen; /* sym → its first use (ast_expr) */
  ast_expr **first;
  size_t n, cap;
} name_list;

typedef struct call_frame {
  const ast_decl *fn;
  span at;
  struct call_frame *up;
} call_frame;

struct chk_state {
  tlop_model *model;
  fn_info *fns;       /* beside the slots of model->funcs, complete once loaded */
  ptrmap instances;   /* ast_decl → its instances (instance *), newest first */
  ptrmap params;      /* ast_decl → kind* (resolved parameter kinds) */
  const ptrmap *free; /* sym → kind*: extra globals of an expression */
  call_frame *calls;  /* instantiations under way, for notes on errors */
  ast_decl **active;  /* functions whose bodies are being checked, outermost first */
  size_t nactive, active_cap;
  bool in_channel;    /* checking a channel's own L/o/p: no transfers inside */
  bool in_transmission; /* checking a channel's T: L, o and p of channels, no T nor γ */
  bool implicit;      /* unknown names are new variables (assumptions, symbolic work) */
  bool settable;      /* an unknown name may be a value the command line did not give */
  bool in_schedule;   /* checking a schedule's statements: `at` is allowed */
  bool in_messages;   /* checking a messages stage: `send` is allowed */
  bool in_flows;      /* checking a flows stage: `send … at start` is allowed */
  bool in_trial;      /* trying kinds for free names: diagnostics are held or dropped */
  /* Free names of the facts and claims being checked, and those of a claim's comparison
   * that stand where the language gives them a kind (a call's argument, a sum's bound). */
  name_list *free_names;
  ptrmap *anchored;
  ptrmap *counted;    /* the anchored names given where a count is expected */
  name_list assumed;  /* free names of the model's assumptions: the variables they declare */
  int errors;
};

/* Where an error inside an instantiated function came from: a note per call, the
 * innermost few. */
static void call_notes(chk_state *c) {
  int shown = 0, more = 0;
  for (call_frame *f = c->calls; f; f = f->up)
    if (shown < 4) {
      diag_note(c->model->ctx, f->at, "in this call of '%s'", f->fn->name->name);
      shown++;
    } else {
      more++;
    }
  if (more)
    diag_note(c->model->ctx, (span){0}, "… and %d calls around those", more);
}

/* Where e lies, for the messages about it. */
static span where(const chk_state *c, const ast_expr *e) { return ast_span(c->model->ctx, e); }
static span name_where(const chk_state *c, const ast_expr *call) {
  return ast_call_name_sp(c->model->ctx, call);
}

/* An error; its notes (what it is about) follow, then the calls it happened in. */
static void error_only(chk_state *c, span at, const char *fmt, ...) TLOP_PRINTF(3, 4);
static void error_only(chk_state *c, span at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_emit(c->model->ctx, TLOP_ERROR, at, fmt, ap);
  va_end(ap);
  c->errors++;
}

/* An error with nothing more to say than where it happened. */
#define error_at(c, at, ...) (error_only((c), (at), __VA_ARGS__), call_notes(c))

static void note_at(chk_state *c, span at, const char *fmt, ...) TLOP_PRINTF(3, 4);
static void note_at(chk_state *c, span at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_emit(c->model->ctx, TLOP_NOTE, at, fmt, ap);
  va_end(ap);
}

/* ---- builtins ---- */

typedef enum { B_SCALAR1, B_LOG, B_SAME1, B_MINMAX, B_L, B_T, B_O, B_P, B_GAMMA, B_INTEGER,
               B_REQUIRE, B_NODE_OF, B_LISTED } builtin_kind;

static const struct builtin {
  const char *name;
  builtin_kind kind;
  int min, max;
} builtins[] = {
    {"log2", B_SCALAR1, 1, 1}, {"sqrt", B_SCALAR1, 1, 1}, {"log", B_LOG, 2, 2},
    {"ceil", B_SAME1, 1, 1},   {"floor", B_SAME1, 1, 1},  {"abs", B_SAME1, 1, 1},
    {"min", B_MINMAX, 2, 64},  {"max", B_MINMAX, 2, 64}, {"L", B_L, 2, 2},
    {"o", B_O, 1, 1},          {"p", B_P, 1, 1},          {"gamma", B_GAMMA, 2, 2},
    {"integer", B_INTEGER, 1, 1}, {"require", B_REQUIRE, 2, 2}, {"node_of", B_NODE_OF, 4, 4},
    {"listed", B_LISTED, 1, 1},
};

/* node_of(map, …) and listed(map) take a mapping first, not a number. */
static bool takes_mapping(const struct builtin *b) {
  return b && (b->kind == B_NODE_OF || b->kind == B_LISTED);
}

static const struct builtin *builtin_find(sym name) {
  for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++)
    if (strcmp(name->name, builtins[i].name) == 0)
      return &builtins[i];
  return NULL;
}

bool chk_is_builtin(sym name) { return builtin_find(name) != NULL; }

/* T[ch](m, τ), a channel's transmission: the builtin only with its channel, so that a
 * function T (the stdlib's T(m)) keeps its name. */
static const struct builtin transmission = {"T", B_T, 2, 2};

static bool is_transmission(const ast_expr *call) {
  return call->u.call.channel && strcmp(call->u.call.name->name, "T") == 0;
}

/* ---- kind arithmetic ---- */

/* Both sides of + − min max comparisons and if branches must agree. */
static kind unify(chk_state *c, kind a, span as, kind b, span bs, const char *what) {
  if (a.tag == K_ANY || b.tag == K_ANY)
    return KIND_ANY;
  if (a.tag == K_NUM && b.tag != K_BOOL)
    return b;
  if (b.tag == K_NUM && a.tag != K_BOOL)
    return a;
  if (kind_eq(a, b))
    return a;
  char b1[48], b2[48];
  const char *an = kind_name(a, b1, sizeof b1), *bn = kind_name(b, b2, sizeof b2);
  error_only(c, span_join(as, bs), "cannot %s a %s and a %s", what, an, bn);
  note_at(c, as, "this is a %s", an);
  note_at(c, bs, "this is a %s", bn);
  call_notes(c);
  return KIND_ANY;
}

/* An argument or operand that must have a given kind (a bare number fits any). */
static void expect(chk_state *c, kind got, kind want, span at, const char *role) {
  if (got.tag == K_ANY || want.tag == K_ANY)
    return;
  if (got.tag == K_NUM && want.tag != K_BOOL && !kind_by_name(want))
    return;
  if (kind_eq(got, want))
    return;
  char b1[48], b2[48];
  error_at(c, at, "%s must be a %s, but this is a %s", role, kind_name(want, b1, sizeof b1),
           kind_name(got, b2, sizeof b2));
}

static kind mul_kind(kind a, kind b, int sign) {
  if (a.tag == K_ANY || b.tag == K_ANY)
    return KIND_ANY;
  if (a.tag == K_NUM && b.tag == K_NUM)
    return KIND_NUM;
  kind x = a.tag == K_NUM ? KIND_COUNT : a, y = b.tag == K_NUM ? KIND_COUNT : b;
  /* a real times a count is a real: x·P may be a fraction */
  return (kind){K_DIM, (int8_t)(x.b + sign * y.b), (int8_t)(x.s + sign * y.s), x.real || y.real};
}

/* ---- names ---- */

static void consider(const char *name, const char *cand, const char **best, unsigned *dist) {
  unsigned d = name_distance(name, cand);
  size_t len = strlen(name);
  /* replacing every letter of a name does not make a near name: b is not m; of two as
   * near, the first in alphabetical order, whatever the order of the tables */
  bool nearer = d < *dist || (d == *dist && *best && strcmp(cand, *best) < 0);
  if (nearer && d < len && d <= (len > 3 ? 2u : 1u)) {
    *dist = d;
    *best = cand;
  }
}

/* A near name in scope, to suggest after "undefined". */
static const char *suggest(chk_state *c, sym name, const scope *sc, bool call) {
  const char *best = NULL;
  unsigned dist = 99;
  if (call) {
    const ptrmap *f = &c->model->funcs;
    for (size_t i = 0; i < f->cap; i++)
      if (f->keys[i])
        consider(name->name, ((sym)f->keys[i])->name, &best, &dist);
    for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++)
      consider(name->name, builtins[i].name, &best, &dist);
    return best;
  }
  for (; sc; sc = sc->up)
    consider(name->name, sc->name->name, &best, &dist);
  const ptrmap *v = &c->model->values;
  for (size_t i = 0; i < v->cap; i++)
    if (v->keys[i])
      consider(name->name, ((sym)v->keys[i])->name, &best, &dist);
  if (c->free)
    for (size_t i = 0; i < c->free->cap; i++)
      if (c->free->keys[i])
        consider(name->name, ((sym)c->free->keys[i])->name, &best, &dist);
  return best;
}

static kind check(chk_state *c, ast_expr *e, const scope *sc);

static void names_add(name_list *l, ast_expr *use) {
  sym name = use->u.name.name;
  if (ptrmap_get(&l->seen, name))
    return;
  ptrmap_put(&l->seen, name, use);
  VEC_PUSH(l->first, l->n, l->cap, use);
}

static void names_free(name_list *l) {
  ptrmap_free(&l->seen);
  free(l->first);
}

/* A name that stands where the language gives it a kind; `want` KIND_COUNT: where a whole
 * number is expected. */
static void anchor(chk_state *c, const ast_expr *e, kind want) {
  if (!c->anchored || e->kind != E_NAME)
    return;
  ptrmap_put(c->anchored, e->u.name.name, (void *)e);
  if (kind_eq(want, KIND_COUNT))
    ptrmap_put(c->counted, e->u.name.name, (void *)e);
}

/* Its annotation, else its default's kind; the default is checked against the annotation. */
static kind declared_kind(chk_state *c, ast_decl *d) {
  kind k = d->k;
  if (d->body) {
    kind dk = check(c, d->body, NULL);
    if (d->k.tag == K_ANY)
      k = dk;
    else
      expect(c, dk, d->k, where(c, d->body), "the default value");
  }
  return k;
}

/* Without a default or with a literal one, a param has its kind at once: no cycle, nothing
 * to remember (a model of 600 000 `param a = 1;`); chk_model checks the literal once. */
static bool literal_param(const ast_decl *d) { return !d->body || d->body->kind == E_NUM; }

/* The kind of a global parameter: its annotation, else its default's kind. */
static kind param_kind(chk_state *c, ast_decl *d, span use) {
  static kind pending = {K_ANY, 0, 0, false};
  if (literal_param(d))
    return d->k.tag != K_ANY || !d->body ? d->k : d->body->u.num.k;
  kind *known = ptrmap_get(&c->params, d);
  if (known == &pending) {
    error_at(c, use, "parameter '%s' depends on itself through its default value",
             d->name->name);
    return KIND_ANY;
  }
  if (known)
    return *known;
  ptrmap_put(&c->params, d, &pending);
  kind k = declared_kind(c, d);
  kind *slot = arena_alloc(c->model->ctx->ar, sizeof *slot);
  *slot = k;
  ptrmap_put(&c->params, d, slot);
  return k;
}

/* The kind of a parameter, let, index or free name in scope, or NULL. */
static const kind *local_kind(chk_state *c, sym name, const scope *sc) {
  for (const scope *s = sc; s; s = s->up)
    if (s->name == name)
      return &s->k;
  return c->free ? ptrmap_get(c->free, name) : NULL;
}

/* Where an operator stands (gamma's first argument, the argument of an `op` parameter), a
 * name in scope must be an operator; any other name is the operator of that name (sum,
 * max, …), which a platform's gamma table must have. */
static void check_op(chk_state *c, sym name, span at, const scope *sc, const char *role) {
  const kind *k = local_kind(c, name, sc);
  char b[48];
  if (!k || k->tag == K_OP)
    return;
  if (k->tag == K_ANY)
    error_at(c, at, "%s must be a reduction operator, but '%s' is a value of unknown kind: "
             "declare it '%s: op'", role, name->name, name->name);
  else
    error_at(c, at, "%s must be a reduction operator (sum, max, …), but '%s' is a %s", role,
             name->name, kind_name(*k, b, sizeof b));
}

/* Where a mapping stands (place's first argument, the argument of a `mapping` parameter):
 * a parameter declared ': mapping', sequential, round_robin, or nodes(n0, n1, …) of whole
 * numbers — the node of each rank in order. */
static void check_mapping_value(chk_state *c, ast_expr *e, const scope *sc, const char *role) {
  static const char expected[] = "sequential, round_robin, nodes(n0, n1, …) or a parameter "
                                 "declared ': mapping'";
  if (e->kind == E_NAME) {
    sym name = e->u.name.name;
    const kind *k = local_kind(c, name, sc);
    char b[48];
    if (k && k->tag != K_MAP)
      error_at(c, where(c, e), "%s must be a mapping (%s), but '%s' is a %s", role, expected,
               name->name, kind_name(*k, b, sizeof b));
    else if (!k && strcmp(name->name, "sequential") != 0 && strcmp(name->name, "round_robin") != 0)
      error_at(c, where(c, e), "unknown mapping '%s': %s must be %s", name->name, role, expected);
    return;
  }
  bool nodes = e->kind == E_CALL && !e->u.call.channel && !strcmp(e->u.call.name->name, "nodes") &&
               e->u.call.nargs > 0;
  for (int i = 0; nodes && i < e->u.call.nargs; i++) {
    const ast_expr *a = e->u.call.args[i];
    if (a->kind != E_NUM || a->u.num.v < 0 || a->u.num.v != floor(a->u.num.v)) {
      error_at(c, where(c, a), "a node of nodes(…) is a whole number ≥ 0 written out");
      return;
    }
  }
  if (!nodes)
    error_at(c, where(c, e), "%s must be a mapping: %s", role, expected);
}

static kind check_name(chk_state *c, ast_expr *e, const scope *sc) {
  sym name = e->u.name.name;
  const kind *lk = local_kind(c, name, sc);
  if (lk && lk->tag == K_OP) {
    error_at(c, where(c, e), "'%s' is a reduction operator, not a number: it can only be gamma's "
             "operator or the argument of an operator parameter", name->name);
    return KIND_ANY;
  }
  if (lk && lk->tag == K_MAP) {
    error_at(c, where(c, e), "'%s' is a mapping, not a number: it can only place a messages stage, "
             "place(%s, M, P), or be the argument of a mapping parameter", name->name, name->name);
    return KIND_ANY;
  }
  if (lk)
    return *lk;
  ast_decl *d = ptrmap_get(&c->model->values, name);
  if (d)
    return param_kind(c, d, where(c, e));
  if (c->implicit) {
    if (c->free_names)
      names_add(c->free_names, e);
    return KIND_ANY;
  }
  if (ptrmap_get(&c->model->funcs, name)) {
    error_at(c, where(c, e), "'%s' is a function: call it with its arguments, '%s(…)'",
             name->name, name->name);
    return KIND_ANY;
  }
  const char *near = suggest(c, name, sc, false);
  if (near)
    error_at(c, where(c, e), "undefined name '%s'; did you mean '%s'?", name->name, near);
  else if (c->settable)
    error_at(c, where(c, e), "undefined name '%s': give it a value with --set %s=…", name->name,
             name->name);
  else
    error_at(c, where(c, e), "undefined name '%s'", name->name);
  return KIND_ANY;
}

/* ---- calls ---- */

static kind check_fn(chk_state *c, ast_decl *fn, const kind *args, span at);

static kind check_builtin(chk_state *c, ast_expr *e, const struct builtin *b, kind *args,
                          const scope *sc) {
  ast_expr **a = e->u.call.args;
  int n = e->u.call.nargs;
  const char *name = b->name;
  bool channeled = b->kind == B_L || b->kind == B_T || b->kind == B_O || b->kind == B_P;
  bool transfer = channeled || b->kind == B_GAMMA;
  if (e->u.call.channel && !channeled)
    error_at(c, name_where(c, e), "only L, o, p and T take a channel, not %s", name);
  if (transfer && c->in_channel)
    error_at(c, where(c, e), "a channel's own cost cannot use %s: write it with numbers and "
             "its parameters", name);
  if ((b->kind == B_T || b->kind == B_GAMMA) && c->in_transmission)
    error_at(c, where(c, e), "a channel's T cannot use %s: write it with L, o and p of the "
             "platform's channels", name);
  if (b->kind == B_GAMMA && !e->u.call.op)
    error_at(c, where(c, e), "gamma takes the operator first: gamma(sum, m, τ)");
  else if (b->kind == B_GAMMA)
    check_op(c, e->u.call.op, ast_call_op_sp(c->model->ctx, e), sc, "the operator of gamma");
  if (b->kind != B_SAME1 && b->kind != B_MINMAX)
    for (int i = takes_mapping(b); i < n; i++) /* a mapping is not a number */
      anchor(c, a[i], KIND_ANY);
  char role[96];
  switch (b->kind) {
  case B_SCALAR1:
    snprintf(role, sizeof role, "the argument of %s", name);
    expect(c, args[0], KIND_COUNT, where(c, a[0]), role);
    return KIND_COUNT;
  case B_LOG:
    expect(c, args[0], KIND_COUNT, where(c, a[0]), "the base of log");
    expect(c, args[1], KIND_COUNT, where(c, a[1]), "the argument of log");
    return KIND_COUNT;
  case B_SAME1:
    if (args[0].tag == K_BOOL)
      error_at(c, where(c, a[0]), "%s needs a number, not a truth value", name);
    return args[0];
  case B_MINMAX: {
    kind k = args[0];
    for (int i = 1; i < n; i++)
      k = unify(c, k, where(c, a[0]), args[i], where(c, a[i]), "compare");
    return k;
  }
  case B_L:
  case B_T:
  case B_GAMMA:
    snprintf(role, sizeof role, "the message size of %s", name);
    expect(c, args[0], KIND_SIZE, where(c, a[0]), role);
    snprintf(role, sizeof role, "the concurrency τ of %s", name);
    expect(c, args[1], KIND_COUNT, where(c, a[1]), role);
    return KIND_TIME;
  case B_O:
  case B_P:
    snprintf(role, sizeof role, "the message size of %s", name);
    expect(c, args[0], KIND_SIZE, where(c, a[0]), role);
    return KIND_TIME;
  case B_INTEGER:
    expect(c, args[0], KIND_COUNT, where(c, a[0]), "the argument of integer");
    return KIND_BOOL;
  case B_REQUIRE:
    expect(c, args[0], KIND_BOOL, where(c, a[0]), "the condition of require");
    return args[1];
  case B_NODE_OF:
    expect(c, args[1], KIND_COUNT, where(c, a[1]), "the node count M of node_of");
    expect(c, args[2], KIND_COUNT, where(c, a[2]), "the rank count P of node_of");
    expect(c, args[3], KIND_COUNT, where(c, a[3]), "the rank of node_of");
    return KIND_COUNT;
  case B_LISTED:
    return KIND_BOOL;
  }
  return KIND_ANY;
}

static bool local(const scope *sc, sym name) {
  for (; sc; sc = sc->up)
    if (sc->name == name)
      return true;
  return false;
}

/* The parameters a call must give: those before the first with a default. */
static int required_args(const ast_decl *fn) {
  int n = 0;
  while (n < fn->nargs && !fn->args[n]->dflt)
    n++;
  return n;
}

static kind check_call(chk_state *c, ast_expr *e, const scope *sc) {
  sym name = e->u.call.name;
  int n = e->u.call.nargs;
  ast_decl *fn = is_transmission(e) ? NULL : ptrmap_get(&c->model->funcs, name);
  int nkinds = fn && fn->nargs > n ? fn->nargs : n;
  kind *args = xcalloc((size_t)nkinds, sizeof *args);
  char role[96];
  const struct builtin *b = is_transmission(e) ? &transmission : fn ? NULL : builtin_find(name);
  for (int i = 0; i < n; i++) {
    ast_expr *a = e->u.call.args[i];
    if (takes_mapping(b) && i == 0) {
      snprintf(role, sizeof role, "the first argument of %s", b->name);
      check_mapping_value(c, a, sc, role);
      args[i] = KIND_MAP;
      continue;
    }
    if (!(fn && i < fn->nargs && kind_by_name(fn->args[i]->k))) {
      args[i] = check(c, a, sc);
      continue;
    }
    snprintf(role, sizeof role, "argument '%s' of %s", fn->args[i]->name->name, name->name);
    args[i] = fn->args[i]->k;
    if (fn->args[i]->k.tag == K_MAP)
      check_mapping_value(c, a, sc, role);
    else if (a->kind == E_NAME)
      check_op(c, a->u.name.name, where(c, a), sc, role);
    else
      error_at(c, where(c, a), "%s must be a reduction operator: a name such as sum or max, or a "
               "parameter declared ': op'", role);
  }
  kind result = KIND_ANY;
  if (fn) {
    int need = required_args(fn);
    if (e->u.call.channel)
      error_at(c, name_where(c, e), "'%s' is a function: only L, o, p and T take a channel",
               name->name);
    if (n < need || n > fn->nargs) {
      if (need == fn->nargs)
        error_at(c, where(c, e), "'%s' takes %d argument%s, but %d %s given", name->name, fn->nargs,
                 fn->nargs == 1 ? "" : "s", n, n == 1 ? "is" : "are");
      else
        error_at(c, where(c, e), "'%s' takes %d to %d arguments, but %d %s given", name->name, need,
                 fn->nargs, n, n == 1 ? "is" : "are");
      note_at(c, fn->name_sp, "'%s' is defined here", name->name);
    } else {
      for (int i = 0; i < n; i++) {
        /* an algorithm's count is whole wherever it is given (tlop_eval, --set, --grid) */
        anchor(c, e->u.call.args[i], fn->kind == D_ALGORITHM ? fn->args[i]->k : KIND_ANY);
        snprintf(role, sizeof role, "argument '%s' of %s", fn->args[i]->name->name, name->name);
        expect(c, args[i], fn->args[i]->k, where(c, e->u.call.args[i]), role);
      }
      for (int i = n; i < fn->nargs; i++)
        args[i] = fn->args[i]->k; /* left out: its default, an operator */
      result = check_fn(c, fn, args, where(c, e));
    }
  } else if (b) {
    if (n < b->min || n > b->max) {
      if (b->min == b->max)
        error_at(c, where(c, e), "%s takes %d argument%s, but %d %s given%s", b->name, b->min,
                 b->min == 1 ? "" : "s", n, n == 1 ? "is" : "are",
                 /* log(P) is what a reader of the papers writes for log₂ P */
                 !strcmp(b->name, "log") && n == 1 ? " (log(BASE, x); log₂ x is log2(x))" : "");
      else
        error_at(c, where(c, e), "%s takes at least %d arguments, but %d %s given", b->name, b->min,
                 n, n == 1 ? "is" : "are");
    } else {
      result = check_builtin(c, e, b, args, sc);
    }
  } else if (local(sc, name)) {
    error_at(c, name_where(c, e), "'%s' is a local value (a parameter, let or sum index), "
             "not a function", name->name);
  } else if (ptrmap_get(&c->model->values, name)) {
    error_at(c, name_where(c, e), "'%s' is a parameter, not a function", name->name);
  } else if (strcmp(name->name, "T") == 0) {
    error_at(c, name_where(c, e), "undefined function 'T': a channel's transmission names "
             "its channel, T[shm](m, τ)");
  } else {
    const char *near = suggest(c, name, sc, true);
    if (near)
      error_at(c, name_where(c, e), "undefined function '%s'; did you mean '%s'?", name->name,
               near);
    else
      error_at(c, name_where(c, e), "undefined function '%s'", name->name);
  }
  free(args);
  return result;
}

/* Only the fns of model->funcs are checked (check_call, chk_model): each has a slot. */
static fn_info *info_of(chk_state *c, ast_decl *fn) {
  const ptrmap *funcs = &c->model->funcs;
  if (!c->fns)
    c->fns = xcalloc(funcs->cap, sizeof *c->fns);
  size_t slot = ptrmap_slot(funcs, fn->name);
  return &c->fns[slot];
}

/* Checks a body with its parameters bound to the given kinds. */
/* Deepest chain of function bodies checked inside each other (calls nest the checker). */
#define CHK_MAX_NESTING 1000

static kind check_body(chk_state *c, ast_decl *fn, const kind *args) {
  if (c->nactive >= CHK_MAX_NESTING) {
    error_at(c, fn->name_sp, "calls nested too deeply: more than %d functions inside each other",
             CHK_MAX_NESTING);
    return KIND_ANY;
  }
  VEC_PUSH(c->active, c->nactive, c->active_cap, fn);
  /* the body's names are its parameters and the model's, wherever it is called from */
  bool implicit = c->implicit, settable = c->settable;
  name_list *free_names = c->free_names;
  ptrmap *anchored = c->anchored;
  c->implicit = c->settable = false, c->free_names = NULL, c->anchored = NULL;
  scope *frames = xcalloc((size_t)fn->nargs, sizeof *frames);
  const scope *sc = NULL;
  for (int i = 0; i < fn->nargs; i++) {
    frames[i] = (scope){fn->args[i]->name, args[i], sc};
    sc = &frames[i];
  }
  kind k = check(c, fn->body, sc);
  free(frames);
  c->implicit = implicit, c->settable = settable, c->free_names = free_names;
  c->anchored = anchored;
  c->nactive--;
  if (fn->k.tag != K_ANY)
    expect(c, k, fn->k, where(c, fn->body), "the result");
  return fn->k.tag != K_ANY ? fn->k : k;
}

/* The generic check: annotated parameters have their kinds, the others are unknown. */
static void check_generic(chk_state *c, ast_decl *fn) {
  fn_info *fi = info_of(c, fn);
  if (fi->state != FN_UNCHECKED)
    return;
  fi->state = FN_CHECKING;
  kind *args = xcalloc((size_t)fn->nargs, sizeof *args);
  for (int i = 0; i < fn->nargs; i++)
    args[i] = fn->args[i]->k;
  int before = c->errors;
  call_frame *saved = c->calls;
  c->calls = NULL;
  fi->result = check_body(c, fn, args);
  c->calls = saved;
  fi->state = c->errors > before ? FN_FAILED : FN_OK;
  free(args);
}

static kind check_fn(chk_state *c, ast_decl *fn, const kind *args, span at) {
  fn_info *fi = info_of(c, fn);
  if (fi->state == FN_CHECKING) {
    strbuf chain = {0};
    size_t from = c->nactive;
    while (from > 0 && c->active[from - 1] != fn)
      from--;
    for (size_t i = from ? from - 1 : 0; i < c->nactive; i++)
      sb_printf(&chain, "%s → ", c->active[i]->name->name);
    sb_puts(&chain, fn->name->name);
    if (from == c->nactive)
      error_at(c, at, "'%s' calls itself: recursion is not allowed; use sum or repeat to "
               "iterate", fn->name->name);
    else
      error_at(c, at, "recursion through %s is not allowed; use sum or repeat to iterate",
               chain.s);
    free(chain.s);
    note_at(c, fn->name_sp, "'%s' is defined here", fn->name->name);
    return KIND_ANY;
  }
  check_generic(c, fn);
  if (fi->state != FN_OK)
    return KIND_ANY;
  bool concrete = false;
  for (int i = 0; i < fn->nargs; i++)
    concrete |= fn->args[i]->k.tag == K_ANY && args[i].tag != K_ANY;
  if (!concrete)
    return fi->result;
  instance *first = ptrmap_get(&c->instances, fn);
  for (instance *in = first; in; in = in->next) {
    bool same = true;
    for (int i = 0; i < fn->nargs && same; i++)
      same = kind_eq(in->args[i], args[i]);
    if (same && (!in->tentative || c->in_trial)) {
      c->errors += in->failed; /* told once, but a trial of free names' kinds must see it */
      return in->result;
    }
  }
  instance *in = arena_alloc(c->model->ctx->ar, sizeof *in);
  in->args = arena_alloc(c->model->ctx->ar, (size_t)(fn->nargs ? fn->nargs : 1) * sizeof(kind));
  memcpy(in->args, args, (size_t)fn->nargs * sizeof(kind));
  in->result = KIND_ANY;
  in->next = first;
  ptrmap_put(&c->instances, fn, in);
  call_frame frame = {fn, at, c->calls};
  c->calls = &frame;
  fi->state = FN_CHECKING;
  int before = c->errors;
  in->result = check_body(c, fn, args);
  in->failed = c->errors > before;
  in->tentative = c->in_trial;
  fi->state = FN_OK;
  c->calls = frame.up;
  return in->result;
}

/* ---- expressions ---- */

static const char *op_verb(ast_op op) {
  switch (op) {
  case OP_ADD: return "add";
  case OP_SUB: return "subtract";
  case OP_MOD: return "take the remainder of";
  default: return "compare";
  }
}

static kind check_binary(chk_state *c, ast_expr *e, const scope *sc) {
  ast_expr *l = e->u.bin.l, *r = e->u.bin.r;
  kind a = check(c, l, sc), b = check(c, r, sc);
  switch (e->op) {
  case OP_ADD:
  case OP_SUB:
  case OP_MOD:
    if (a.tag == K_BOOL || b.tag == K_BOOL) {
      error_at(c, where(c, e), "arithmetic on a truth value");
      return KIND_ANY;
    }
    return unify(c, a, where(c, l), b, where(c, r), op_verb(e->op));
  case OP_MUL:
  case OP_DIV:
    if (a.tag == K_BOOL || b.tag == K_BOOL) {
      error_at(c, where(c, e), "arithmetic on a truth value");
      return KIND_ANY;
    }
    /* Symbolic work reads back printed forms, where a size has lost its unit: there a
     * bare number times a count stays a bare number (8192/k may be a size again). */
    if (c->implicit && ((a.tag == K_NUM && kind_is_dim(b, 0, 0)) || (b.tag == K_NUM && kind_is_dim(a, 0, 0))))
      return KIND_NUM;
    return mul_kind(a, b, e->op == OP_MUL ? 1 : -1);
  case OP_POW:
    /* m^2 is a size squared: a quantity to a whole literal power (simplified forms) */
    if (a.tag == K_DIM && !kind_is_dim(a, 0, 0) && r->kind == E_NUM && r->u.num.k.tag == K_NUM &&
        r->u.num.v == floor(r->u.num.v) && fabs(r->u.num.v) <= 8) {
      int n = (int)r->u.num.v;
      return (kind){K_DIM, (int8_t)(a.b * n), (int8_t)(a.s * n), false};
    }
    expect(c, a, KIND_COUNT, where(c, l), "the base of a power");
    expect(c, b, KIND_COUNT, where(c, r), "the exponent");
    return a.tag == K_NUM && b.tag == K_NUM ? KIND_NUM : KIND_COUNT;
  case OP_LT: case OP_LE: case OP_GT: case OP_GE: case OP_EQ: case OP_NE:
    if (a.tag == K_BOOL || b.tag == K_BOOL)
      error_at(c, where(c, e), "cannot order truth values");
    else
      unify(c, a, where(c, l), b, where(c, r), "compare");
    return KIND_BOOL;
  case OP_AND:
  case OP_OR:
    expect(c, a, KIND_BOOL, where(c, l), "each side of 'and'/'or'");
    expect(c, b, KIND_BOOL, where(c, r), "each side of 'and'/'or'");
    return KIND_BOOL;
  default:
    return KIND_ANY;
  }
}

static kind check_par(chk_state *c, ast_expr *e, const scope *sc) {
  ast_expr *l = e->u.par.count, *r = e->u.par.body;
  anchor(c, l, KIND_ANY);
  kind a = check(c, l, sc), b = check(c, r, sc);
  char b1[48];
  if (kind_is_dim(a, 0, 1)) {
    /* cost ∥ cost: two sets of transfers at the same time (Fig. 14 of the τ-Lop paper). */
    if (e->u.par.channel)
      error_at(c, where(c, e), "a channel-scoped ∥[%s] needs a count on its left",
               e->u.par.channel->name);
    expect(c, b, KIND_TIME, where(c, r), "the right of cost ∥ cost");
    return KIND_TIME;
  }
  if (!is_scalar(a)) {
    error_at(c, where(c, l), "the left of ∥ must be a count (how many run at once) or a cost, "
             "but this is a %s", kind_name(a, b1, sizeof b1));
    return KIND_TIME;
  }
  expect(c, b, KIND_TIME, where(c, r), "the right of ∥ (what runs concurrently)");
  return KIND_TIME;
}

/* The statements of a messages or flows stage, where `allowed` lets `send` place; no such
 * stage nests in a schedule or in another. */
static void check_placements(chk_state *c, ast_expr *e, ast_expr *body, bool *allowed,
                             const scope *sc) {
  if (c->in_messages || c->in_schedule || c->in_flows)
    error_at(c, where(c, e), "a %s stage cannot be inside a schedule, a messages stage or a flows "
             "stage", e->kind == E_FLOWS ? "flows" : "messages");
  bool outer = *allowed;
  *allowed = true;
  check(c, body, sc);
  *allowed = outer;
}

/* messages on MAPPING(args) { sends }: the mapping places ranks on nodes. */
static kind check_messages(chk_state *c, ast_expr *e, const scope *sc) {
  static const struct { const char *name; int min, max; } mappings[] = {
      {"sequential", 1, 1}, {"round_robin", 1, 1}, {"nodes", 1, 4096}, {"by", 1, 1},
      {"place", 3, 3}};
  const char *name = e->u.msgs.mapping->name;
  int n = e->u.msgs.nargs, found = -1;
  if (e->u.msgs.priced && strcmp(e->u.msgs.priced->name, "L") != 0)
    error_at(c, e->u.msgs.priced_sp, "a messages stage prices each message by its channel's "
             "T, or by its transfer with messages[L]; not by '%s'", e->u.msgs.priced->name);
  for (int i = 0; i < 5; i++)
    if (!strcmp(name, mappings[i].name))
      found = i;
  if (found < 0)
    error_at(c, e->u.msgs.mapping_sp, "unknown mapping '%s': expected sequential(Q), "
             "round_robin(M), nodes(n0, n1, …), by(node of rank p) or place(mapping, M, P)",
             name);
  else if (n < mappings[found].min || n > mappings[found].max)
    error_at(c, e->u.msgs.mapping_sp, "%s takes %s", name,
             mappings[found].max == 1   ? "one argument"
             : mappings[found].max == 3 ? "a mapping, the node count M and the rank count P"
                                        : "the node of each rank in order");
  /* by(e): e gives the node of rank p; place(map, M, P): a mapping, then two counts */
  bool place = found == 4 && n == 3;
  scope rank = {ctx_sym(c->model->ctx, "p"), KIND_COUNT, sc};
  if (place)
    check_mapping_value(c, e->u.msgs.args[0], sc, "the first argument of place");
  static const char *const place_roles[] = {"", "the node count M of place", "the rank count P of place"};
  for (int i = place; i < n; i++)
    expect(c, check(c, e->u.msgs.args[i], found == 3 ? &rank : sc), KIND_COUNT,
           where(c, e->u.msgs.args[i]), found == 3 ? "the node of a rank"
                                  : place    ? place_roles[i]
                                             : "an argument of a mapping");
  check_placements(c, e, e->u.msgs.body, &c->in_messages, sc);
  return KIND_TIME;
}

/* One of a flows stage's clauses: e of kind `want`, with `name` bound to a `bound`. The
 * model has no defaults: a missing clause is an error. */
static void check_clause(chk_state *c, ast_expr *stage, ast_expr *e, const char *name, kind bound,
                         kind want, const char *role, const char *missing, const scope *sc) {
  if (!e) {
    error_at(c, where(c, stage), "a flows stage needs %s", missing);
    return;
  }
  scope s = {ctx_sym(c->model->ctx, name), bound, sc};
  expect(c, check(c, e, &s), want, where(c, e), role);
}

/* flows under CUTS alone TIME { sends }: CUTS the entry `entry` (0 … 4) of Table 2, TIME
 * a flow's time alone for its Q bytes. */
static kind check_flows(chk_state *c, ast_expr *e, const scope *sc) {
  check_clause(c, e, e->u.flows.cuts, "entry", KIND_COUNT, KIND_COUNT, "a flow cut (under)",
               "its flow cuts (Table 2 of Martinasso & Méhaut): write 'under CUTS', where "
               "CUTS gives the cut of entry = 0 … 4", sc);
  check_clause(c, e, e->u.flows.alone, "Q", KIND_SIZE, KIND_TIME, "the time of a flow alone",
               "the time of a flow alone: write 'alone TIME', where TIME is the "
               "contention-free time of Q bytes", sc);
  check_placements(c, e, e->u.flows.body, &c->in_flows, sc);
  return KIND_TIME;
}

/* send a -> b : size [at start]: a message between ranks, or a flow between nodes. */
static kind check_send(chk_state *c, ast_expr *e, const scope *sc) {
  bool flow = c->in_flows;
  if (!c->in_messages && !flow)
    error_at(c, where(c, e),
             "'send' places a message in a messages or flows stage; it is not a value");
  expect(c, check(c, e->u.send.src, sc), KIND_COUNT, where(c, e->u.send.src),
         flow ? "the sending node" : "the sending rank");
  expect(c, check(c, e->u.send.dst, sc), KIND_COUNT, where(c, e->u.send.dst),
         flow ? "the receiving node" : "the receiving rank");
  expect(c, check(c, e->u.send.size, sc), KIND_SIZE, where(c, e->u.send.size),
         flow ? "the size of a flow" : "the size of a message");
  if (e->u.send.start && !flow)
    error_at(c, where(c, e->u.send.start), "'at' gives the start of a flow in a flows stage; "
             "the messages of a messages stage start together");
  else if (e->u.send.start)
    expect(c, check(c, e->u.send.start, sc), KIND_TIME, where(c, e->u.send.start),
           "the start of a flow");
  return KIND_NUM;
}

static kind check(chk_state *c, ast_expr *e, const scope *sc) {
  switch (e->kind) {
  case E_NUM:
    return e->u.num.k;
  case E_NAME:
    return check_name(c, e, sc);
  case E_CALL:
    return check_call(c, e, sc);
  case E_UNARY: {
    kind a = check(c, e->u.bin.l, sc);
    if (e->op == OP_NOT) {
      expect(c, a, KIND_BOOL, where(c, e->u.bin.l), "the operand of 'not'");
      return KIND_BOOL;
    }
    if (a.tag == K_BOOL)
      error_at(c, where(c, e), "arithmetic on a truth value");
    return a;
  }
  case E_BINARY:
    return check_binary(c, e, sc);
  case E_PAR:
    return check_par(c, e, sc);
  case E_IF: {
    kind k = check(c, e->u.cond.c, sc);
    expect(c, k, KIND_BOOL, where(c, e->u.cond.c), "the condition of 'if'");
    kind t = check(c, e->u.cond.t, sc), f = check(c, e->u.cond.f, sc);
    return unify(c, t, where(c, e->u.cond.t), f, where(c, e->u.cond.f), "choose between");
  }
  case E_LET: {
    scope s = {e->u.let.name, check(c, e->u.let.value, sc), sc};
    /* kept for printing a simplified let: its folded value may no longer show it */
    e->u.let.value_kind = e->u.let.checked ? kind_agreed(e->u.let.value_kind, s.k) : s.k;
    e->u.let.checked = true;
    return check(c, e->u.let.body, &s);
  }
  case E_SUM: {
    anchor(c, e->u.sum.lo, KIND_ANY);
    anchor(c, e->u.sum.hi, KIND_ANY);
    kind lo = check(c, e->u.sum.lo, sc), hi = check(c, e->u.sum.hi, sc);
    bool is_max = e->u.sum.is_max;
    const char *of = is_max ? "a maximum" : "a sum";
    char role[40];
    snprintf(role, sizeof role, "the lower bound of %s", of);
    expect(c, lo, KIND_COUNT, where(c, e->u.sum.lo), role);
    snprintf(role, sizeof role, "the upper bound of %s", of);
    expect(c, hi, KIND_COUNT, where(c, e->u.sum.hi), role);
    scope s = {e->u.sum.index, KIND_COUNT, sc};
    kind k = check(c, e->u.sum.body, &s);
    if (k.tag == K_BOOL)
      error_at(c, where(c, e->u.sum.body), is_max ? "cannot take the maximum of truth values"
                                            : "cannot add up truth values");
    return k;
  }
  case E_STAGES: {
    if (e->u.stages.n == 0)
      return KIND_TIME;
    ast_expr **it = e->u.stages.items;
    kind k = check(c, it[0], sc);
    for (int i = 1; i < e->u.stages.n; i++)
      k = unify(c, k, where(c, it[0]), check(c, it[i], sc), where(c, it[i]), "add");
    return k;
  }
  case E_REPEAT: {
    anchor(c, e->u.repeat.count, KIND_ANY);
    kind n = check(c, e->u.repeat.count, sc);
    expect(c, n, KIND_COUNT, where(c, e->u.repeat.count), "the count of a repeat");
    return check(c, e->u.repeat.body, sc);
  }
  case E_SCHEDULE: {
    if (c->in_schedule)
      error_at(c, where(c, e), "a schedule cannot be inside another schedule");
    expect(c, check(c, e->u.sched.size, sc), KIND_SIZE, where(c, e->u.sched.size),
           "the segment size of a schedule");
    bool outer = c->in_schedule;
    c->in_schedule = true;
    check(c, e->u.sched.body, sc);
    c->in_schedule = outer;
    return KIND_TIME;
  }
  case E_MESSAGES:
    return check_messages(c, e, sc);
  case E_SEND:
    return check_send(c, e, sc);
  case E_FLOWS:
    return check_flows(c, e, sc);
  case E_AT:
    if (!c->in_schedule)
      error_at(c, where(c, e), "'at' places transfers in a schedule; it is not a value");
    expect(c, check(c, e->u.at.step, sc), KIND_COUNT, where(c, e->u.at.step), "the step of 'at'");
    expect(c, check(c, e->u.at.count, sc), KIND_COUNT, where(c, e->u.at.count),
           "the number of transfers of 'at'");
    return KIND_NUM;
  }
  return KIND_ANY;
}

/* ---- declarations ---- */

static void check_params_distinct(chk_state *c, const ast_decl *fn) {
  for (int j = 1; j < fn->nargs; j++)
    for (int i = 0; i < j; i++)
      if (fn->args[i]->name == fn->args[j]->name) {
        error_at(c, span_of(c->model->ctx, fn->args[j]->loc), "parameter '%s' is declared twice", fn->args[j]->name->name);
        break;
      }
}

/* A default is an operator's name, for an operator parameter (op: op = sum); parameters
 * with one come last, so that a call may leave them out. */
static void check_defaults(chk_state *c, const ast_decl *fn) {
  bool seen = false;
  for (int i = 0; i < fn->nargs; i++) {
    const ast_arg *a = fn->args[i];
    if (!a->dflt) {
      if (seen)
        error_at(c, span_of(c->model->ctx, a->loc), "parameter '%s' has no default but follows one that has: "
                 "parameters with defaults come last", a->name->name);
      continue;
    }
    seen = true;
    char role[96];
    snprintf(role, sizeof role, "the default of parameter '%s'", a->name->name);
    if (a->k.tag == K_MAP)
      check_mapping_value(c, a->dflt, NULL, role);
    else if (a->k.tag == K_OP && a->dflt->kind != E_NAME)
      error_at(c, where(c, a->dflt), "the default of operator parameter '%s' must be an operator's "
               "name, such as sum or max", a->name->name);
    else if (a->k.tag != K_OP && a->k.tag != K_ANY)
      /* a number's default sees the model's globals only, not the other parameters */
      expect(c, check(c, a->dflt, NULL), a->k, where(c, a->dflt), role);
    else if (a->k.tag == K_ANY)
      error_at(c, where(c, a->dflt), "parameter '%s' has a default but no kind: declare it "
               "('%s: count = …')", a->name->name, a->name->name);
  }
}

/* A channel's L, o, p (numbers and parameters only) or T (the platform's L, o and p). */
static void check_channel_fn(chk_state *c, ast_decl *fn, const kind *want, int nwant,
                             const char *shape) {
  if (fn->nargs != nwant) {
    /* a platform's gamma has no name of its own */
    error_at(c, fn->sp, "'%s' of a %s takes %d parameter%s: %s",
             fn->name ? fn->name->name : "gamma", fn->name ? "channel" : "platform", nwant,
             nwant == 1 ? "" : "s", shape);
    return;
  }
  check_params_distinct(c, fn);
  check_defaults(c, fn);
  kind args[2];
  for (int i = 0; i < nwant; i++) {
    if (fn->args[i]->k.tag != K_ANY && !kind_eq(fn->args[i]->k, want[i])) {
      char b1[48];
      error_at(c, span_of(c->model->ctx, fn->args[i]->loc), "parameter '%s' of %s must be a %s", fn->args[i]->name->name,
               shape, kind_name(want[i], b1, sizeof b1));
    }
    args[i] = want[i];
  }
  bool transmission = fn->name && strcmp(fn->name->name, "T") == 0;
  c->in_channel = !transmission;
  c->in_transmission = transmission;
  kind k = check_body(c, fn, args);
  c->in_channel = c->in_transmission = false;
  expect(c, k, KIND_TIME, where(c, fn->body), "a channel's cost");
}

static void check_platform(chk_state *c, ast_decl *pf) {
  static const kind size_count[2] = {{K_DIM, 1, 0, false}, {K_DIM, 0, 0, false}};
  ptrmap seen = {0};
  for (int i = 0; i < pf->nmembers; i++) {
    ast_decl *ch = pf->members[i];
    if (ch->kind == D_GAMMA) {
      if (ch->body)
        check_channel_fn(c, ch, size_count, 2, "gamma(m, τ)");
      continue;
    }
    ast_decl *old = ptrmap_get(&seen, ch->name);
    if (old) {
      error_at(c, ch->name_sp, "channel '%s' is declared twice in platform '%s'",
               ch->name->name, pf->name->name);
      note_at(c, old->name_sp, "the first declaration is here");
    }
    ptrmap_put(&seen, ch->name, ch);
    bool has_L = ch->path != NULL;
    ptrmap defs = {0};
    for (int j = 0; j < ch->nmembers; j++) {
      ast_decl *fn = ch->members[j];
      const char *n = fn->name->name;
      if (ptrmap_get(&defs, fn->name))
        error_at(c, fn->name_sp, "'%s' is defined twice in channel '%s'", n, ch->name->name);
      ptrmap_put(&defs, fn->name, fn);
      if (strcmp(n, "T") == 0) {
        check_channel_fn(c, fn, size_count, 2, "T(m, τ)");
      } else if (ch->path) {
        error_at(c, fn->name_sp, "a channel read from a table defines only its transmission "
                 "T(m, τ); '%s' comes from the table", n);
      } else if (strcmp(n, "L") == 0) {
        has_L = true;
        check_channel_fn(c, fn, size_count, 2, "L(m, τ)");
      } else if (strcmp(n, "o") == 0 || strcmp(n, "p") == 0) {
        check_channel_fn(c, fn, size_count, 1, strcmp(n, "o") == 0 ? "o(m)" : "p(m)");
      } else {
        error_at(c, fn->name_sp, "a channel defines L(m, τ), o(m), p(m) and T(m, τ); '%s' is "
                 "none of them", n);
      }
    }
    ptrmap_free(&defs);
    if (!has_L)
      error_at(c, ch->name_sp, "channel '%s' has no L(m, τ): give 'L(m, τ) = …;' or "
               "'= table \"file\"'", ch->name->name);
  }
  ptrmap_free(&seen);
}

static void check_fact(chk_state *c, ast_expr *e, const char *what) {
  int before = c->errors;
  c->implicit = true;
  kind k = check(c, e, NULL);
  c->implicit = false;
  /* any kind is the mark of an error already reported, or of a free name (assume P) */
  if (k.tag == K_ANY && c->errors == before) {
    error_at(c, where(c, e), "%s must be a comparison (or integer(x)), but this is a value", what);
  } else if (k.tag != K_BOOL && k.tag != K_ANY) {
    char b1[48];
    error_at(c, where(c, e), "%s must be a comparison (or integer(x)), but this is a %s", what,
             kind_name(k, b1, sizeof b1));
  }
}

/* A claim holds for every value of its variables, so a misspelt name would pass as one more
 * variable. A free name of the comparison is a variable only when something gives it a
 * kind: it is an argument of a call (its parameter's kind) or a sum's bound, ∥'s count or a
 * repeat's count, or an assumption of the model or the claim's `when` declares it
 * (assume P = 2^p). A name only compared or combined with others is an error. */
static void check_claim(chk_state *c, ast_decl *d) {
  name_list free_names = {0}, declared = {0};
  ptrmap anchored = {0}, counted = {0};
  c->free_names = &free_names, c->anchored = &anchored, c->counted = &counted;
  check_fact(c, d->body, "a claim");
  c->free_names = &declared, c->anchored = NULL, c->counted = NULL;
  for (int i = 0; i < d->nfacts; i++)
    check_fact(c, d->facts[i], "an assumption");
  c->free_names = NULL;
  /* the variables a --grid may name: those of the claim and of its assumptions */
  for (size_t i = 0; i < declared.n; i++)
    ptrmap_put(&c->model->claim_vars, declared.first[i]->u.name.name, declared.first[i]);
  for (size_t i = 0; i < c->assumed.n; i++)
    ptrmap_put(&c->model->claim_vars, c->assumed.first[i]->u.name.name, c->assumed.first[i]);
  d->counts = arena_alloc(c->model->ctx->ar, (free_names.n + 1) * sizeof *d->counts);
  d->ncounts = 0;
  for (size_t i = 0; i < free_names.n; i++) {
    ast_expr *use = free_names.first[i];
    sym name = use->u.name.name;
    ptrmap_put(&c->model->claim_vars, name, use);
    if (ptrmap_get(&counted, name)) {
      ptrmap_put(&c->model->claim_counts, name, ptrmap_get(&counted, name));
      d->counts[d->ncounts++] = name;
    }
    if (ptrmap_get(&anchored, name) || ptrmap_get(&declared.seen, name) ||
        ptrmap_get(&c->assumed.seen, name))
      continue;
    const char *near = suggest(c, name, NULL, false);
    unsigned dist = 99;
    for (size_t j = 0; j < anchored.cap; j++)
      if (anchored.keys[j])
        consider(name->name, ((sym)anchored.keys[j])->name, &near, &dist);
    if (near)
      error_only(c, where(c, use), "unknown name '%s' in a claim; did you mean '%s'?", name->name,
                 near);
    else
      error_only(c, where(c, use), "unknown name '%s' in a claim", name->name);
    note_at(c, (span){0}, "a claim's variables must stand where they get a kind (an argument "
            "of a call, a sum's bound, the count of ∥ or repeat) or be declared by an "
            "assumption (assume …, when …)");
  }
  names_free(&free_names);
  names_free(&declared);
  ptrmap_free(&anchored);
  ptrmap_free(&counted);
}

static chk_state *state_of(tlop_model *model) {
  if (!model->chk) {
    model->chk = arena_alloc(model->ctx->ar, sizeof *model->chk);
    model->chk->model = model;
  }
  return model->chk;
}

int chk_model(tlop_model *model) {
  chk_state *c = state_of(model);
  int before = c->errors;
  for (size_t m = 0; m < model->nmods; m++)
    for (ast_decl *d = model->mods[m]->decls; d; d = d->next) {
      switch (d->kind) {
      case D_PARAM:
        if (d->k.tag == K_OP)
          error_at(c, d->name_sp, "a param cannot be a reduction operator: give the functions "
                   "that reduce a parameter '%s: op = sum'", d->name->name);
        if (d->k.tag == K_MAP)
          error_at(c, d->name_sp, "a param cannot be a mapping: give the functions that place "
                   "ranks a parameter '%s: mapping = sequential'", d->name->name);
        if (literal_param(d))
          declared_kind(c, d);
        else
          param_kind(c, d, d->name_sp);
        break;
      case D_FN:
      case D_ALGORITHM:
        check_params_distinct(c, d);
        check_defaults(c, d);
        if (ptrmap_get(&model->funcs, d->name) == d)
          check_generic(c, d);
        break;
      case D_PLATFORM:
        check_platform(c, d);
        break;
      case D_ASSUME:
        c->free_names = &c->assumed;
        for (int i = 0; i < d->nfacts; i++)
          check_fact(c, d->facts[i], "an assumption");
        c->free_names = NULL;
        break;
      case D_AXIOM:
        if (axiom_find(d->name->name) < 0)
          error_at(c, d->name_sp, "unknown axiom '%s' (known: %s)", d->name->name, axiom_names());
        break;
      default:
        break;
      }
    }
  /* last: the variables of a claim may be declared by any assumption of the model */
  for (size_t m = 0; m < model->nmods; m++)
    for (ast_decl *d = model->mods[m]->decls; d; d = d->next)
      if (d->kind == D_CLAIM)
        check_claim(c, d);
  return c->errors - before;
}

int chk_expr(tlop_model *model, ast_expr *e, const ptrmap *free_kinds, bool implicit,
             kind *out) {
  chk_state *c = state_of(model);
  int before = c->errors;
  c->free = free_kinds;
  c->implicit = implicit;
  *out = check(c, e, NULL);
  c->implicit = false;
  c->free = NULL;
  return c->errors - before;
}

/* ---- free names given as bare numbers ---- */

/* The diagnostics of a trial, held back: told only if its errors are the ones to tell. */
typedef struct held {
  tlop_diag *v;
  size_t n, cap;
} held;

static void hold(void *user, const tlop_diag *d) {
  held *h = user;
  tlop_diag copy = *d;
  copy.file = d->file ? xstrdup(d->file) : NULL;
  copy.message = xstrdup(d->message);
  copy.text = xstrdup(d->text);
  VEC_PUSH(h->v, h->n, h->cap, copy);
}

static void held_free(held *h) {
  for (size_t i = 0; i < h->n; i++)
    free((char *)h->v[i].file), free((char *)h->v[i].message), free((char *)h->v[i].text);
  free(h->v);
}

/* chk_expr with its diagnostics held in h (dropped when h is NULL): whether it checks. */
static bool trial_of(tlop_model *model, ast_expr *e, const ptrmap *free_kinds, bool implicit,
                     held *h, kind *out) {
  tlop_ctx *ctx = model->ctx;
  tlop_diag_fn fn = ctx->diag_fn;
  void *user = ctx->diag_user;
  int errors = ctx->errors;
  held dropped = {0};
  chk_state *c = state_of(model);
  ctx->diag_fn = hold, ctx->diag_user = h ? h : &dropped;
  c->in_trial = true;
  bool ok = chk_expr(model, e, free_kinds, implicit, out) == 0;
  c->in_trial = false;
  ctx->diag_fn = fn, ctx->diag_user = user, ctx->errors = errors;
  held_free(&dropped);
  return ok;
}

static bool trial(tlop_model *model, ast_expr *e, const ptrmap *free_kinds, held *h, kind *out) {
  return trial_of(model, e, free_kinds, false, h, out);
}

static bool trial_implicit(tlop_model *model, ast_expr *e, kind *out) {
  return trial_of(model, e, NULL, true, NULL, out);
}

/* The kinds a free name given as a bare number may take besides its own (a number that
 * adopts the kind it meets, a count in a product): size, time, time per byte, bandwidth. */
static const kind free_name_kinds[] = {{K_DIM, 1, 0, false}, {K_DIM, 0, 1, false},
                                       {K_DIM, -1, 1, false}, {K_DIM, 1, -1, false}};
#define NFREE_KINDS (sizeof free_name_kinds / sizeof *free_name_kinds)

/* Whether giving `changed` of the names open[from..] other kinds (the rest as given) makes
 * e check; the first such choice, in order, is left in place. */
static bool choose_kinds(tlop_model *model, ast_expr *e, const ptrmap *free_kinds, kind **open,
                         size_t nopen, size_t from, int changed, kind *out) {
  if (changed == 0)
    return trial(model, e, free_kinds, NULL, out);
  for (size_t i = from; i < nopen; i++) {
    kind given = *open[i];
    for (size_t k = 0; k < NFREE_KINDS; k++) {
      *open[i] = free_name_kinds[k];
      if (choose_kinds(model, e, free_kinds, open, nopen, i + 1, changed - 1, out))
        return true;
    }
    *open[i] = given;
  }
  return false;
}

/* Most names given as bare numbers that one expression's uses re-kind: the search is
 * bounded (two of ten names: 720 checks). */
#define MAX_FREE_CHANGED 2

typedef struct open_name {
  sym name;
  kind *k;
} open_name;

static int by_name(const void *a, const void *b) {
  return strcmp(((const open_name *)a)->name->name, ((const open_name *)b)->name->name);
}

/* The search of chk_expr_free: the names of free_kinds whose kind is K_NUM start as
 * `start` and change, the fewest at a time, until e checks. Whether it does; the
 * diagnostics of the names as started in *first, in *as_started whether they check, and
 * in *theirs whether their errors are the names' fault (they go when the names' kinds are
 * left open). */
static bool infer_kinds(tlop_model *model, ast_expr *e, ptrmap *free_kinds, kind start,
                        held *first, bool *as_started, bool *theirs, kind *out) {
  open_name *names = NULL;
  size_t nopen = 0, cap = 0;
  for (size_t i = 0; i < free_kinds->cap; i++)
    if (free_kinds->keys[i] && ((kind *)free_kinds->vals[i])->tag == K_NUM)
      VEC_PUSH(names, nopen, cap, ((open_name){free_kinds->keys[i], free_kinds->vals[i]}));
  /* in the order of their names, not of the map: the kinds chosen are the same each run */
  if (nopen)
    qsort(names, nopen, sizeof *names, by_name);
  kind **open = xcalloc(nopen + 1, sizeof *open);
  for (size_t i = 0; i < nopen; i++)
    open[i] = names[i].k, *open[i] = start;
  free(names);
  bool ok = *as_started = trial(model, e, free_kinds, first, out);
  *theirs = false;
  if (!ok && nopen) {
    for (size_t i = 0; i < nopen; i++)
      *open[i] = KIND_ANY;
    *theirs = trial(model, e, free_kinds, NULL, out);
    for (size_t i = 0; i < nopen; i++)
      *open[i] = start;
    for (int changed = 1; *theirs && !ok && changed <= MAX_FREE_CHANGED; changed++)
      ok = choose_kinds(model, e, free_kinds, open, nopen, 0, changed, out);
  }
  free(open);
  return ok;
}

int chk_expr_free(tlop_model *model, ast_expr *e, ptrmap *free_kinds, bool settable, kind *out) {
  tlop_ctx *ctx = model->ctx;
  chk_state *c = state_of(model);
  c->settable = settable;
  held first = {0};
  bool as_given, theirs;
  int errors = 0;
  bool ok = infer_kinds(model, e, free_kinds, KIND_NUM, &first, &as_given, &theirs, out);
  if (ok && !as_given) {
    errors = chk_expr(model, e, free_kinds, false, out); /* to tell the warnings of the kinds chosen */
  } else {
    /* the names as given: their warnings, or their errors */
    for (size_t i = 0; i < first.n; i++) {
      errors += first.v[i].severity == TLOP_ERROR;
      if (ctx->diag_fn)
        ctx->diag_fn(ctx->diag_user, &first.v[i]);
    }
    ctx->errors += errors;
    errors += !ok && !errors; /* an error told before (a function's, called again) */
    if (!ok && theirs)
      diag_note(ctx, (span){0}, "a name given a bare number (--set) takes the kind its uses "
                "need, but no kinds fit all the uses here: give the value its unit (m=1KiB)");
  }
  held_free(&first);
  c->settable = false;
  return errors;
}

size_t chk_expr_symbols(tlop_model *model, ast_expr *e, sym **names, kind **kinds, kind *out) {
  chk_state *c = state_of(model);
  name_list used = {0};
  c->free_names = &used;
  kind k;
  bool checks = trial_implicit(model, e, &k);
  c->free_names = NULL;
  size_t n = used.n;
  *names = arena_alloc(model->ctx->ar, (n + 1) * sizeof **names);
  *kinds = arena_alloc(model->ctx->ar, (n + 1) * sizeof **kinds);
  ptrmap free_kinds = {0};
  for (size_t i = 0; i < n; i++) {
    (*names)[i] = used.first[i]->u.name.name, (*kinds)[i] = KIND_NUM;
    ptrmap_put(&free_kinds, (*names)[i], &(*kinds)[i]);
  }
  names_free(&used);
  bool as_counts, theirs;
  if (!checks || !infer_kinds(model, e, &free_kinds, KIND_COUNT, NULL, &as_counts, &theirs, &k))
    for (size_t i = 0; i < n; i++)
      (*kinds)[i] = KIND_ANY;
  else
    *out = k;
  ptrmap_free(&free_kinds);
  return n;
}

int chk_fact(tlop_model *model, ast_expr *e) {
  chk_state *c = state_of(model);
  int before = c->errors;
  check_fact(c, e, "an assumption");
  return c->errors - before;
}

void chk_free(chk_state *c) {
  if (!c)
    return;
  free(c->fns);
  ptrmap_free(&c->instances);
  ptrmap_free(&c->params);
  names_free(&c->assumed);
  free(c->active);
}

/* The resolved kind of a global parameter (after chk_model). */
kind chk_param_kind(tlop_model *model, ast_decl *param) {
  return param_kind(state_of(model), param, param->name_sp);
}

/* The kind of a function's result, from its generic check. */
kind chk_fn_result(tlop_model *model, ast_decl *fn) {
  chk_state *c = state_of(model);
  check_generic(c, fn);
  return info_of(c, fn)->result;
}
