/* context.c — the context's services every stage calls: its symbol table, the models it
 * frees, and the operators of an environment. The context itself is made and freed by
 * the public API (api.c). */
#include "base/base.h"

#include <string.h>

sym ctx_sym(tlop_ctx *ctx, const char *s) { return sym_intern(ctx->syms, s, strlen(s)); }

void ctx_track_model(tlop_ctx *ctx, tlop_model *model) {
  model_list *l = arena_alloc(ctx->ar, sizeof *l);
  l->model = model;
  l->next = ctx->models;
  ctx->models = l;
}

sym env_op(const tlop_env *env, sym name) {
  for (size_t i = 0; env && i < env->nops; i++)
    if (env->op_names[i] == name)
      return env->ops[i];
  return NULL;
}

bool env_has_value(const tlop_env *env, sym name) {
  for (size_t i = 0; env && i < env->n; i++)
    if (env->names[i] == name)
      return true;
  return false;
}

void env_kinds(const tlop_env *env, ptrmap *out) {
  if (!env)
    return;
  for (size_t i = 0; i < env->n; i++)
    ptrmap_put(out, env->names[i], &env->kinds[i]);
  for (size_t i = 0; i < env->nops; i++)
    ptrmap_put(out, env->op_names[i], (void *)env->op_kinds[i]);
}
