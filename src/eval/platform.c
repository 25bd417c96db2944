/* platform.c — what prices L, o, γ and p: channels backed by measured tables or by
 * analytic formulas, from a `platform` declaration, the stdlib, or table files named on
 * the command line. The first channel is the default one (L without [channel]). */
#include "eval/eval.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct report_ctx {
  tlop_ctx *ctx;
  const char *path;
} report_ctx;

static void report(void *user, int line, const char *msg) {
  report_ctx *r = user;
  diag_error_line(r->ctx, r->path, line, "%s", msg);
}

/* Reads and validates a table; every problem is reported as file:line. */
static tab_table *read_table(tlop_ctx *ctx, const char *path, span from, tab_kind want) {
  size_t len;
  char *text = load_read_file(ctx, path, from, &len);
  if (!text)
    return NULL;
  tab_table *t = NULL;
  report_ctx r = {ctx, path};
  tab_limits limits = {(long)fmin(ctx->max_table_rows, INT_MAX),
                       (long)fmin(ctx->max_table_cols, INT_MAX)};
  if (tab_parse_within(text, len, limits, &t, report, &r) != 0)
    return NULL;
  if (t->kind != want) {
    diag_error_line(ctx, path, 0, want == TAB_CHANNEL
                                      ? "this is a gamma table; a channel needs m, o and L columns"
                                      : "this is a channel table; gamma needs one column per operator");
    tab_free(t);
    return NULL;
  }
  size_t nonzero = 0, n = (size_t)t->nrows * (size_t)t->ncols;
  while (nonzero < n && t->v[nonzero] == 0)
    nonzero++;
  if (nonzero == n)
    diag_warning(ctx, from, "every value of the table '%s' is 0: each cost it prices is 0 s",
                 path);
  return t;
}

/* A table path in a declaration is relative to the declaring file. */
static const char *table_path(tlop_ctx *ctx, const module *m, const char *path) {
  if (path[0] == '/')
    return path;
  const char *dir = m->dir;
  if (strncmp(dir, "<stdlib>", 8) == 0) {
    if (!ctx->stdlib_dir)
      return path;
    strbuf b = {0};
    sb_printf(&b, "%s%s", ctx->stdlib_dir, dir + 8);
    dir = arena_strdup(ctx->ar, b.s);
    free(b.s);
  }
  if (strcmp(dir, ".") == 0)
    return path;
  strbuf b = {0};
  sb_printf(&b, "%s/%s", dir, path);
  char *s = arena_strdup(ctx->ar, b.s);
  free(b.s);
  return s;
}

pf_channel *pf_add_channel(tlop_platform *pf, sym name) {
  for (size_t i = 0; i < pf->nch; i++)
    if (pf->ch[i].name == name)
      return &pf->ch[i];
  pf_channel c = {.name = name};
  VEC_PUSH(pf->ch, pf->nch, pf->ch_cap, c);
  return &pf->ch[pf->nch - 1];
}

/* A channel's T names its own L, o and p without brackets: body with those bound to ch. */
static ir_node *own_channel(tlop_ctx *ctx, ir_node *body, sym ch) {
  ir_node *k[3] = {NULL, NULL, NULL};
  for (int i = 0; i < body->nkids; i++)
    k[i] = ir_has_cost(body->kid[i]) ? own_channel(ctx, body->kid[i], ch) : body->kid[i];
  bool unbracketed = !body->name && (body->op == IR_L || body->op == IR_O || body->op == IR_PACK);
  return ir_make(ctx, (ir_op)body->op, unbracketed ? ch : body->name, body->num, k[0], k[1], k[2]);
}

static bool build(tlop_platform *pf, ast_decl *decl) {
  tlop_ctx *ctx = pf->ctx;
  int before = ctx->errors;
  pf->name = decl->name;
  for (int i = 0; i < decl->nmembers; i++) {
    ast_decl *d = decl->members[i];
    if (d->kind == D_GAMMA) {
      if (d->path) {
        pf->gamma = read_table(ctx, table_path(ctx, d->mod ? d->mod : decl->mod, d->path),
                               d->path_sp, TAB_GAMMA);
      } else {
        pf->gamma_expr = lower_function(pf->model, d, NULL);
        pf->gamma_m = d->args[0]->name;
        pf->gamma_tau = d->args[1]->name;
      }
      continue;
    }
    pf_channel *ch = pf_add_channel(pf, d->name);
    if (d->path) {
      ch->table_path = table_path(ctx, decl->mod, d->path);
      ch->table = read_table(ctx, ch->table_path, d->path_sp, TAB_CHANNEL);
    }
    for (int j = 0; j < d->nmembers; j++) {
      ast_decl *fn = d->members[j];
      ir_node *body = lower_function(pf->model, fn, NULL);
      switch (fn->name->name[0]) {
      case 'T':
        ch->T = own_channel(ctx, body, ch->name);
        ch->T_m = fn->args[0]->name, ch->T_tau = fn->args[1]->name;
        break;
      case 'L': ch->L = body, ch->L_m = fn->args[0]->name, ch->L_tau = fn->args[1]->name; break;
      case 'o': ch->o = body, ch->o_m = fn->args[0]->name; break;
      case 'p': ch->p = body, ch->p_m = fn->args[0]->name; break;
      }
    }
  }
  /* a transmission names channels of its platform only */
  for (size_t i = 0; i < pf->nch && ctx->errors == before; i++)
    if (pf->ch[i].T)
      pf_check_expr(pf, pf->ch[i].T);
  return ctx->errors == before;
}

static ast_decl *first_platform(const tlop_model *model) {
  for (ast_decl *d = model->root->decls; d; d = d->next)
    if (d->kind == D_PLATFORM)
      return d;
  return NULL;
}

tlop_status tlop_platform_open(tlop_model *model, const char *name, tlop_platform **out) {
  tlop_ctx *ctx = model->ctx;
  *out = NULL;
  ast_decl *decl = name ? ptrmap_get(&model->platforms, ctx_sym(ctx, name)) : first_platform(model);
  tlop_model *owner = model;
  if (!decl) {
    /* Not in the model: the stdlib's platforms/<name>.tlop. */
    const char *want = name ? name : "generic";
    strbuf b = {0};
    sb_printf(&b, "platforms/%s", want);
    module *m = load_import(ctx, NULL, b.s, (span){0}, false);
    free(b.s);
    if (!m) {
      diag_error(ctx, (span){0}, "unknown platform '%s': not declared in the model, and "
                 "the stdlib has no platforms/%s.tlop", want, want);
      return TLOP_ERR_ARG;
    }
    tlop_status st = load_model(ctx, m, &owner);
    if (st != TLOP_OK)
      return st;
    decl = ptrmap_get(&owner->platforms, ctx_sym(ctx, want));
    if (!decl) {
      diag_error(ctx, (span){0}, "platforms/%s.tlop does not declare platform '%s'", want, want);
      return TLOP_ERR_ARG;
    }
  }
  tlop_platform *pf = xcalloc(1, sizeof *pf);
  pf->ctx = ctx;
  pf->model = owner;
  if (!build(pf, decl)) {
    tlop_platform_free(pf);
    return TLOP_ERR_TABLE;
  }
  *out = pf;
  return TLOP_OK;
}

tlop_status tlop_platform_bind_table(tlop_platform *pf, const char *channel, const char *path) {
  tlop_ctx *ctx = pf->ctx;
  tab_table *t = read_table(ctx, path, (span){0}, TAB_CHANNEL);
  if (!t)
    return TLOP_ERR_TABLE;
  pf_channel *ch = channel ? pf_add_channel(pf, ctx_sym(ctx, channel))
                 : pf->nch ? &pf->ch[0]
                           : pf_add_channel(pf, ctx_sym(ctx, "shm"));
  tab_free(ch->table);
  ch->table = t;
  ch->table_path = arena_strdup(ctx->ar, path);
  return TLOP_OK;
}

const char *tlop_platform_name(const tlop_platform *pf) { return pf->name ? pf->name->name : ""; }

tlop_status tlop_platform_table(const tlop_platform *pf, const char *channel, const double **m,
                                const double **v, size_t *nrows, size_t *ncols) {
  const pf_channel *ch = pf_channel_find(pf, channel ? ctx_sym(pf->ctx, channel) : NULL);
  if (!ch || !ch->table)
    return TLOP_ERR_ARG;
  *m = ch->table->m;
  *v = ch->table->v;
  *nrows = (size_t)ch->table->nrows;
  *ncols = (size_t)ch->table->ncols;
  return TLOP_OK;
}

void tlop_platform_free(tlop_platform *pf) {
  if (!pf)
    return;
  for (size_t i = 0; i < pf->nch; i++)
    tab_free(pf->ch[i].table);
  free(pf->ch);
  tab_free(pf->gamma);
  free(pf);
}

const pf_channel *pf_channel_find(const tlop_platform *pf, sym name) {
  if (!name)
    return pf->nch ? &pf->ch[0] : NULL;
  for (size_t i = 0; i < pf->nch; i++)
    if (pf->ch[i].name == name)
      return &pf->ch[i];
  return NULL;
}

/* channels false: only the operators a gamma table lacks (a model's algorithms, at check
 * time, may be meant for other platforms' channels). */
static void check_walk(const tlop_platform *pf, const ir_node *n, ptrmap *seen, bool channels,
                       bool *ok) {
  if (ptrmap_get(seen, n) || !ir_has_cost(n))
    return;
  ptrmap_put(seen, n, (void *)n);
  bool channel_op = channels && (n->op == IR_L || n->op == IR_O || n->op == IR_PACK || n->op == IR_TX ||
                                 n->op == IR_SCHED || (n->op == IR_PAR && n->name));
  if (channel_op && pf->nch == 0) {
    diag_error(pf->ctx, n->origin, "platform '%s' declares no channel: it cannot price '%s'",
               tlop_platform_name(pf), ir_op_name(n->op));
    *ok = false;
  } else if (channel_op && !pf_channel_find(pf, n->name)) {
    strbuf have = {0};
    for (size_t i = 0; i < pf->nch; i++)
      sb_printf(&have, "%s%s", i ? ", " : "", pf->ch[i].name->name);
    diag_error(pf->ctx, n->origin, "platform '%s' has no channel '%s' (it has: %s)",
               tlop_platform_name(pf), n->name ? n->name->name : "(default)",
               have.s ? have.s : "none");
    free(have.s);
    *ok = false;
  }
  char *lacks = n->op == IR_GAMMA && (channels || pf->gamma) ? pf_gamma_lacks(pf, n->name) : NULL;
  if (lacks) {
    diag_error(pf->ctx, n->origin, "%s", lacks);
    free(lacks);
    *ok = false;
  }
  for (int i = 0; i < n->nkids; i++)
    check_walk(pf, n->kid[i], seen, channels, ok);
}

char *pf_gamma_lacks(const tlop_platform *pf, sym op) {
  strbuf msg = {0};
  if (!pf->gamma && !pf->gamma_expr)
    sb_printf(&msg, "platform '%s' defines no gamma (add 'gamma = table \"…\";' or "
              "'gamma(m, τ) = …;')", tlop_platform_name(pf));
  else if (pf->gamma && tab_gamma_column(pf->gamma, op->name) < 0) {
    sb_printf(&msg, "the gamma table of platform '%s' has no operator '%s' (it has: ",
              tlop_platform_name(pf), op->name);
    for (int i = 0; i < pf->gamma->ncols; i++)
      sb_printf(&msg, "%s%s", i ? ", " : "", pf->gamma->colnames[i]);
    sb_puts(&msg, ")");
  }
  return msg.len ? sb_take(&msg) : NULL;
}

static bool check_node(const tlop_platform *pf, const ir_node *n, bool channels) {
  ptrmap seen = {0};
  bool ok = true;
  check_walk(pf, n, &seen, channels, &ok);
  ptrmap_free(&seen);
  return ok;
}

bool pf_check_expr(const tlop_platform *pf, const ir_node *n) { return check_node(pf, n, true); }

/* The algorithms of the model against pf: the operators of its gamma table, and with
 * `channels` the channels too. */
static tlop_status check_algorithms(const tlop_platform *pf, tlop_model *model,
                                    const tlop_env *env, bool channels) {
  bool ok = true;
  for (size_t a = 0; a < model->nalgos; a++) {
    ast_decl *fn = ptrmap_get(&model->funcs, ctx_sym(pf->ctx, model->algos[a]));
    bool bound = true; /* an operator without default nor value: nothing to check yet */
    for (int i = 0; i < fn->nargs; i++)
      bound &= !kind_by_name(fn->args[i]->k) || fn->args[i]->dflt || env_op(env, fn->args[i]->name);
    ir_node *body = bound ? lower_function(model, fn, env) : NULL;
    ok &= !body || check_node(pf, body, channels);
  }
  return ok ? TLOP_OK : TLOP_ERR_EVAL;
}

tlop_status tlop_platform_check_operators(const tlop_platform *pf, tlop_model *model,
                                          const tlop_env *env) {
  return check_algorithms(pf, model, env, false);
}

tlop_status tlop_platform_check_algorithms(const tlop_platform *pf, tlop_model *model,
                                           const tlop_env *env) {
  return check_algorithms(pf, model, env, true);
}
