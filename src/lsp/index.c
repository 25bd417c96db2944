/* index.c — every name of a model where it is written, resolved to where it is defined:
 * what hover, go-to-definition, references and unused-definition warnings read. Names are
 * resolved as the checker does: arguments, lets and indices inward out, then the model's
 * params, functions and platforms (one global scope over the file and its imports). */
#include "lsp/lsp.h"

#include <stdlib.h>

typedef struct binder {
  sym name;
  span def;
  const char *what;
  const struct binder *up;
} binder;

typedef struct indexer {
  tlop_model *model;
  model_index *ix;
} indexer;

static void add(indexer *w, span use, span def, const ast_decl *d, const char *what) {
  if (!use.src || !def.src)
    return;
  VEC_PUSH(w->ix->occ, w->ix->n, w->ix->cap, ((occurrence){use, def, d, what}));
}

static const char *decl_what(const ast_decl *d) {
  static const char *const names[] = {
      [D_IMPORT] = "import", [D_PARAM] = "param", [D_FN] = "fn", [D_ALGORITHM] = "algorithm",
      [D_PLATFORM] = "platform", [D_CHANNEL] = "channel", [D_GAMMA] = "gamma",
      [D_ASSUME] = "assume", [D_CLAIM] = "claim", [D_AXIOM] = "axiom"};
  return names[d->kind];
}

static void resolve(indexer *w, sym name, span use, const binder *sc) {
  for (const binder *b = sc; b; b = b->up)
    if (b->name == name) {
      add(w, use, b->def, NULL, b->what);
      return;
    }
  const ast_decl *d = ptrmap_get(&w->model->values, name);
  if (!d)
    d = ptrmap_get(&w->model->funcs, name);
  if (!d)
    d = ptrmap_get(&w->model->platforms, name);
  if (d)
    add(w, use, d->name_sp, d, decl_what(d));
}

static void walk(indexer *w, const ast_expr *e, const binder *sc);

static void walk_all(indexer *w, ast_expr *const *es, int n, const binder *sc) {
  for (int i = 0; i < n; i++)
    walk(w, es[i], sc);
}

/* A binder's own name, and the scope inside it. */
static binder bind(indexer *w, sym name, span at, const char *what, const binder *up) {
  add(w, at, at, NULL, what);
  return (binder){name, at, what, up};
}

static void walk(indexer *w, const ast_expr *e, const binder *sc);

/* The two operands of a node, in the same scope. */
static void walk_both(indexer *w, const ast_expr *a, const ast_expr *b, const binder *sc) {
  walk(w, a, sc);
  walk(w, b, sc);
}

static void walk(indexer *w, const ast_expr *e, const binder *sc) {
  if (!e)
    return;
  switch (e->kind) {
  case E_NUM: break;
  case E_NAME: resolve(w, e->u.name.name, ast_span(w->model->ctx, e), sc); break;
  case E_CALL:
    resolve(w, e->u.call.name, ast_call_name_sp(w->model->ctx, e), sc);
    walk_all(w, e->u.call.args, e->u.call.nargs, sc);
    break;
  case E_UNARY:
  case E_BINARY:
    walk_both(w, e->u.bin.l, e->u.bin.r, sc);
    break;
  case E_PAR:
    walk_both(w, e->u.par.count, e->u.par.body, sc);
    break;
  case E_IF:
    walk(w, e->u.cond.c, sc);
    walk(w, e->u.cond.t, sc);
    walk(w, e->u.cond.f, sc);
    break;
  case E_LET: {
    walk(w, e->u.let.value, sc);
    binder b = bind(w, e->u.let.name, e->u.let.name_sp, "let", sc);
    walk(w, e->u.let.body, &b);
    break;
  }
  case E_SUM: {
    walk_both(w, e->u.sum.lo, e->u.sum.hi, sc);
    binder b = bind(w, e->u.sum.index, e->u.sum.index_sp, "index", sc);
    walk(w, e->u.sum.body, &b);
    break;
  }
  case E_STAGES: walk_all(w, e->u.stages.items, e->u.stages.n, sc); break;
  case E_REPEAT:
    walk_both(w, e->u.repeat.count, e->u.repeat.body, sc);
    break;
  case E_SCHEDULE:
    walk_both(w, e->u.sched.size, e->u.sched.body, sc);
    break;
  case E_AT:
    walk_both(w, e->u.at.step, e->u.at.count, sc);
    break;
  case E_MESSAGES:
    walk_all(w, e->u.msgs.args, e->u.msgs.nargs, sc);
    walk(w, e->u.msgs.body, sc);
    break;
  case E_SEND:
    walk(w, e->u.send.src, sc);
    walk(w, e->u.send.dst, sc);
    walk(w, e->u.send.size, sc);
    walk(w, e->u.send.start, sc);
    break;
  case E_FLOWS:
    walk(w, e->u.flows.cuts, sc);
    walk(w, e->u.flows.alone, sc);
    walk(w, e->u.flows.body, sc);
    break;
  }
}

/* A declaration with arguments (fn, algorithm, a channel's L/o/p, gamma): its arguments
 * bind in its body. */
static void walk_function(indexer *w, const ast_decl *d) {
  binder *args = xcalloc((size_t)d->nargs + 1, sizeof *args);
  const binder *sc = NULL;
  for (int i = 0; i < d->nargs; i++) {
    walk(w, d->args[i]->dflt, NULL);
    args[i] = bind(w, d->args[i]->name, span_of(w->model->ctx, d->args[i]->loc), "argument", sc);
    sc = &args[i];
  }
  walk(w, d->body, sc);
  free(args);
}

static void walk_decl(indexer *w, const ast_decl *d) {
  if (d->name && d->kind != D_AXIOM && d->name_sp.src)
    add(w, d->name_sp, d->name_sp, d, decl_what(d));
  switch (d->kind) {
  case D_FN:
  case D_ALGORITHM:
  case D_GAMMA: walk_function(w, d); break;
  case D_CHANNEL:
  case D_PLATFORM:
    for (int i = 0; i < d->nmembers; i++)
      if (d->members[i]->kind == D_CHANNEL || d->members[i]->kind == D_PLATFORM ||
          d->members[i]->kind == D_GAMMA)
        walk_decl(w, d->members[i]);
      else
        walk_function(w, d->members[i]);
    break;
  case D_PARAM: walk(w, d->body, NULL); break;
  case D_ASSUME: walk_all(w, d->facts, d->nfacts, NULL); break;
  case D_CLAIM:
    walk(w, d->body, NULL);
    walk_all(w, d->facts, d->nfacts, NULL);
    break;
  case D_IMPORT:
  case D_AXIOM: break;
  }
}

void index_model(tlop_model *model, model_index *ix) {
  indexer w = {model, ix};
  for (size_t m = 0; m < model->nmods; m++)
    for (const ast_decl *d = model->mods[m]->decls; d; d = d->next)
      walk_decl(&w, d);
}

void index_free(model_index *ix) {
  free(ix->occ);
  *ix = (model_index){0};
}

bool span_same(span a, span b) { return a.src == b.src && a.lo == b.lo && a.hi == b.hi; }

const occurrence *index_at(const model_index *ix, const source *src, uint32_t at) {
  const occurrence *best = NULL;
  for (size_t i = 0; i < ix->n; i++) {
    const occurrence *o = &ix->occ[i];
    if (o->use.src == src && o->use.lo <= at && at <= o->use.hi &&
        (!best || o->use.hi - o->use.lo < best->use.hi - best->use.lo))
      best = o;
  }
  return best;
}
