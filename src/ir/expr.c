/* expr.c — the hand-over from the front end: a text or an algorithm of a model, parsed,
 * checked and lowered into a tlop_expr (its IR, kind, free names and lets), and the
 * model's assumptions lowered into facts. Every later stage starts from these. */
#include "ir/ir.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Parses and checks a lone expression in a model's scope. */
ir_node *expr_parse_checked(tlop_model *model, const char *what, const char *text,
                            const tlop_env *env, bool implicit, kind *k, tlop_status *st,
                            expr_let **lets, size_t *nlets, tlop_expr *named) {
  tlop_ctx *ctx = model->ctx;
  size_t len = strlen(text);
  char *copy = arena_strndup(ctx->ar, text, len);
  const source *src = source_new(ctx, what, copy, len);
  ast_expr *e;
  if (parse_expr(ctx, ctx->ar, src, &e) != 0) {
    *st = TLOP_ERR_SYNTAX;
    return NULL;
  }
  ptrmap kinds = {0};
  size_t n = env ? env->n : 0;
  sym *names = arena_alloc(ctx->ar, (n + 1) * sizeof *names);
  kind *own = arena_alloc(ctx->ar, (n + 1) * sizeof *own);
  for (size_t i = 0; i < n; i++) {
    names[i] = env->names[i], own[i] = env->kinds[i];
    ptrmap_put(&kinds, names[i], &own[i]);
  }
  for (size_t i = 0; env && i < env->nops; i++)
    ptrmap_put(&kinds, env->op_names[i], (void *)env->op_kinds[i]);
  /* a name given a bare number takes the kind its uses need; a symbol too, for printing */
  int errors = implicit ? chk_expr(model, e, &kinds, true, k)
                        : chk_expr_free(model, e, &kinds, env != NULL, k);
  ptrmap_free(&kinds);
  if (errors != 0) {
    *st = TLOP_ERR_CHECK;
    return NULL;
  }
  if (implicit && !env && named)
    n = chk_expr_symbols(model, e, &names, &own, k);
  if (named)
    named->free = names, named->free_kinds = own, named->nfree = n;
  ir_node *node = lower_expr_lets(model, e, env, lets, nlets);
  *st = node ? TLOP_OK : TLOP_ERR_CHECK;
  return node;
}

tlop_status expr_of_text(tlop_model *model, const char *text, const tlop_env *env, bool implicit,
                         tlop_expr **out) {
  *out = NULL;
  if (!model || !text)
    return TLOP_ERR_ARG;
  kind k;
  tlop_status st;
  expr_let *lets = NULL;
  size_t nlets = 0;
  tlop_expr *e = arena_alloc(model->ctx->ar, sizeof *e);
  ir_node *n = expr_parse_checked(model, "<expr>", text, env, implicit, &k, &st, &lets, &nlets, e);
  if (!n)
    return st;
  e->node = n;
  e->model = model;
  e->k = k;
  e->free_decl = NULL;
  e->lets = lets, e->nlets = nlets;
  *out = e;
  return TLOP_OK;
}

/* A count is a number of things (processes, segments, steps): a whole number, 0 or more.
 * False, after an error saying where the value came from ("the value given for"), when v
 * is not one. */
bool count_fits(tlop_ctx *ctx, const char *given, double v, const char *name,
                       const char *owner, span decl) {
  if (v >= 0 && v == floor(v))
    return true;
  diag_error(ctx, (span){0}, "%s '%s' is %.15g, but '%s' of %s is a count: a whole number, "
             "0 or more", given, name, v, name, owner);
  diag_note(ctx, decl, "'%s' is a count here", name);
  return false;
}

void given_value_warnings(tlop_ctx *ctx, double v, const char *name, kind want) {
  /* 2^53 itself is the double of 2^53 + 1 too */
  if (kind_is_count(want) && v >= 0x1p53)
    diag_warning(ctx, (span){0}, "the value given for '%s' is %.17g, a count of 2^53 or more: "
                 "not every whole number there is a double, so it may not be exact", name, v);
  else if (kind_eq(want, KIND_SIZE) && v > 0 && v < 1)
    diag_warning(ctx, (span){0}, "the value given for '%s' is %g B, less than a byte", name, v);
}

/* A value given for an annotated algorithm parameter must have its kind (TLOP_ERR_CHECK),
 * and a count must be whole (TLOP_ERR_ARG). */
static tlop_status env_fits(tlop_model *model, const ast_decl *fn, const tlop_env *env) {
  tlop_status st = TLOP_OK;
  for (int i = 0; i < fn->nargs; i++) {
    const ast_arg *arg = fn->args[i];
    /* an operator or a mapping is bound when lowered: it must be given by name, or have a
     * default */
    sym op = env_op(env, arg->name);
    bool want_op = kind_by_name(arg->k);
    if (op && !want_op) {
      char b[48];
      diag_error(model->ctx, (span){0}, "the value given for '%s' is the name '%s', but "
                 "'%s' of %s is a %s", arg->name->name, op->name, arg->name->name,
                 fn->name->name, kind_name(arg->k, b, sizeof b));
      diag_note(model->ctx, span_of(model->ctx, arg->loc), "'%s' is declared here", arg->name->name);
      st = TLOP_ERR_CHECK;
    } else if (want_op && !op && !arg->dflt) {
      diag_error(model->ctx, (span){0}, "%s reduces with the operator '%s', which has no "
                 "default: give it by name (%s=max)", fn->name->name, arg->name->name,
                 arg->name->name);
      diag_note(model->ctx, span_of(model->ctx, arg->loc), "'%s' is declared here", arg->name->name);
      st = TLOP_ERR_CHECK;
    }
    for (size_t j = 0; env && j < env->n; j++) {
      kind want = arg->k, got = env->kinds[j];
      if (env->names[j] != arg->name)
        continue;
      if (want_op) {
        char b[48], b2[48];
        diag_error(model->ctx, (span){0}, "the value given for '%s' is a %s, but '%s' of %s is "
                   "a %s: give its name (%s=%s)", arg->name->name, kind_name(got, b, sizeof b),
                   arg->name->name, fn->name->name, kind_name(arg->k, b2, sizeof b2),
                   arg->name->name, arg->k.tag == K_OP ? "max" : "round_robin");
        diag_note(model->ctx, span_of(model->ctx, arg->loc), "'%s' is declared here", arg->name->name);
        st = TLOP_ERR_CHECK;
      } else if (want.tag == K_DIM && got.tag == K_DIM && !kind_eq(got, want)) {
        char b1[48], b2[48];
        diag_error(model->ctx, (span){0}, "the value given for '%s' is a %s, but '%s' of %s is a %s",
                   arg->name->name, kind_name(got, b2, sizeof b2), arg->name->name,
                   fn->name->name, kind_name(want, b1, sizeof b1));
        diag_note(model->ctx, span_of(model->ctx, arg->loc), "'%s' is declared here", arg->name->name);
        st = TLOP_ERR_CHECK;
      } else if (kind_is_count(want) && st == TLOP_OK &&
                 !count_fits(model->ctx, "the value given for", env->values[j], arg->name->name,
                             fn->name->name, span_of(model->ctx, arg->loc))) {
        st = TLOP_ERR_ARG;
      } else {
        given_value_warnings(model->ctx, env->values[j], arg->name->name, want);
      }
    }
  }
  return st;
}

tlop_status expr_of_algorithm(tlop_model *model, const char *name, const tlop_env *env,
                              bool defaults_free, tlop_expr **out) {
  *out = NULL;
  if (!model || !name)
    return TLOP_ERR_ARG;
  ast_decl *fn = ptrmap_get(&model->funcs, ctx_sym(model->ctx, name));
  if (!fn || fn->kind != D_ALGORITHM)
    return TLOP_ERR_ARG;
  tlop_status fits = env_fits(model, fn, env);
  if (fits != TLOP_OK)
    return fits;
  expr_let *lets = NULL;
  size_t nlets = 0;
  ir_node *n = lower_function_lets(model, fn, env, defaults_free, &lets, &nlets);
  if (!n)
    return TLOP_ERR_CHECK;
  tlop_expr *e = arena_alloc(model->ctx->ar, sizeof *e);
  e->node = n;
  e->model = model;
  e->lets = lets, e->nlets = nlets;
  e->k = chk_fn_result(model, fn);
  size_t room = (size_t)(fn->nargs ? fn->nargs : 1);
  sym *names = arena_alloc(model->ctx->ar, room * sizeof *names);
  kind *kinds = arena_alloc(model->ctx->ar, room * sizeof *kinds);
  span *decls = arena_alloc(model->ctx->ar, room * sizeof *decls);
  size_t nfree = 0;
  for (int i = 0; i < fn->nargs; i++)
    /* operators and mappings were bound when lowered, so were defaults nothing gives */
    if (!kind_by_name(fn->args[i]->k) &&
        (!fn->args[i]->dflt || defaults_free || env_has_value(env, fn->args[i]->name))) {
      names[nfree] = fn->args[i]->name, kinds[nfree] = fn->args[i]->k;
      decls[nfree++] = span_of(model->ctx, fn->args[i]->loc);
    }
  e->free = names, e->free_kinds = kinds, e->free_decl = decls, e->nfree = nfree;
  *out = e;
  return TLOP_OK;
}

/* The facts of an --assume text, lowered; false (after diagnostics) when one is wrong. */
static bool parse_assumptions(tlop_model *model, const char *text, ir_node ***facts,
                              size_t *n, size_t *cap) {
  tlop_ctx *ctx = model->ctx;
  size_t len = strlen(text);
  const source *src = source_new(ctx, "<assume>", arena_strndup(ctx->ar, text, len), len);
  ast_expr **list;
  int count;
  if (parse_facts(ctx, ctx->ar, src, &list, &count) != 0)
    return false;
  bool ok = true;
  for (int i = 0; i < count; i++) {
    ir_node *f = chk_fact(model, list[i]) == 0 ? lower_expr(model, list[i], NULL) : NULL;
    if (f)
      VEC_PUSH(*facts, *n, *cap, f);
    ok &= f != NULL;
  }
  return ok;
}

bool model_facts(tlop_model *model, const char *assume, ir_node ***facts, size_t *n,
                 size_t *cap) {
  for (size_t m = 0; m < model->nmods; m++)
    for (ast_decl *d = model->mods[m]->decls; d; d = d->next)
      for (int i = 0; d->kind == D_ASSUME && i < d->nfacts; i++) {
        ir_node *f = lower_expr(model, d->facts[i], NULL);
        if (f)
          VEC_PUSH(*facts, *n, *cap, f);
      }
  return !assume || parse_assumptions(model, assume, facts, n, cap);
}
