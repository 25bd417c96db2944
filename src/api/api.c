/* api.c — the public entry points of tlop.h: argument checks, the context, and the glue
 * that runs the stages in order (parse → check → lower → evaluate). Internal failures
 * arrive here as diagnostics already reported and leave as a tlop_status. */
#include "api/api.h"
#include "print/print.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef TLOP_STDLIB_DIR
#define TLOP_STDLIB_DIR ""
#endif

const char *tlop_version(void) { return TLOP_VERSION; }

const char *tlop_status_name(tlop_status st) {
  static const char *names[] = {"ok", "syntax error", "check error", "evaluation error",
                                "table error", "cannot read", "limit reached", "bad argument",
                                "out of memory", "internal error", "interrupted"};
  return st <= TLOP_ERR_INTERRUPTED ? names[st] : "unknown status";
}

/* ---- context ---- */

tlop_ctx *tlop_ctx_new(void) {
  tlop_ctx *ctx = xcalloc(1, sizeof *ctx);
  ctx->ar = arena_new();
  ctx->syms = symtab_new();
  ctx->ir = ir_table_new();
  ctx->stdlib_dir = *TLOP_STDLIB_DIR ? xstrdup(TLOP_STDLIB_DIR) : NULL;
  ctx->tau_rule = TLOP_TAU_PROPORTIONAL;
  ctx->max_terms = 1e8;
  ctx->max_steps = 1e7;
  ctx->max_messages = 1e6;
  ctx->max_inline = 1e6;
  ctx->max_errors = 100;
  ctx->max_depth = 2000;
  ctx->max_unroll = 4096; /* four nested sums of 30 written out would be 810 000 terms */
  ctx->max_print = 1e6;
  ctx->max_stages = 1e5;
  ctx->max_table_rows = TAB_DEFAULT_LIMITS.max_rows;
  ctx->max_axis_points = 1e8;
  ctx->max_table_cols = TAB_DEFAULT_LIMITS.max_cols;
  return ctx;
}

void tlop_ctx_free(tlop_ctx *ctx) {
  if (!ctx)
    return;
  for (model_list *l = ctx->models; l; l = l->next) {
    tlop_model *m = l->model;
    ptrmap_free(&m->values);
    ptrmap_free(&m->funcs);
    ptrmap_free(&m->platforms);
    ptrmap_free(&m->claim_vars);
    ptrmap_free(&m->claim_counts);
    ptrmap_free(&m->lowered);
    free(m->params);
    free(m->algos);
    free(m->mods);
    chk_free(m->chk);
  }
  for (size_t i = 0; i < ctx->npaths; i++)
    free(ctx->paths[i]);
  free(ctx->paths);
  free(ctx->spaced);
  free(ctx->stdlib_dir);
  ptrmap_free(&ctx->modules);
  ptrmap_free(&ctx->unused_facts);
  for (size_t g = 0; g < ctx->nwarn_groups; g++)
    for (int bit = 0; bit < 3; bit++)
      free(ctx->warn_groups[g].held[bit]);
  free(ctx->warn_groups);
  free(ctx->warn_source);
  ir_table_free(ctx->ir);
  symtab_free(ctx->syms);
  arena_free(ctx->ar);
  free(ctx);
}

void tlop_ctx_set_diag(tlop_ctx *ctx, tlop_diag_fn fn, void *user) {
  ctx->diag_fn = fn;
  ctx->diag_user = user;
}

tlop_status tlop_ctx_add_path(tlop_ctx *ctx, const char *dir) {
  if (!dir || !*dir)
    return TLOP_ERR_ARG;
  char *copy = xstrdup(dir);
  VEC_PUSH(ctx->paths, ctx->npaths, ctx->paths_cap, copy);
  return TLOP_OK;
}

tlop_status tlop_ctx_set_stdlib_dir(tlop_ctx *ctx, const char *dir) {
  char *copy = dir ? xstrdup(dir) : NULL;
  free(ctx->stdlib_dir);
  ctx->stdlib_dir = copy;
  return TLOP_OK;
}

void tlop_ctx_set_tau_rule(tlop_ctx *ctx, tlop_tau_rule rule) { ctx->tau_rule = rule; }
void tlop_ctx_set_max_terms(tlop_ctx *ctx, double max_terms) { ctx->max_terms = max_terms; }
void tlop_ctx_set_max_steps(tlop_ctx *ctx, double max_steps) { ctx->max_steps = max_steps; }
void tlop_ctx_set_max_inline(tlop_ctx *ctx, double max_inline) { ctx->max_inline = max_inline; }
void tlop_ctx_set_max_messages(tlop_ctx *ctx, double max_messages) {
  ctx->max_messages = max_messages;
}
void tlop_ctx_set_max_errors(tlop_ctx *ctx, double max_errors) { ctx->max_errors = max_errors; }
void tlop_ctx_set_max_depth(tlop_ctx *ctx, double max_depth) {
  ctx->max_depth = fmin(max_depth, IR_MAX_DEPTH);
}
void tlop_ctx_set_max_unroll(tlop_ctx *ctx, double max_unroll) { ctx->max_unroll = max_unroll; }
void tlop_ctx_set_max_print(tlop_ctx *ctx, double max_print) { ctx->max_print = max_print; }
void tlop_ctx_set_max_stages(tlop_ctx *ctx, double max_stages) { ctx->max_stages = max_stages; }
void tlop_ctx_set_max_points(tlop_ctx *ctx, double max_points) { ctx->max_axis_points = max_points; }
void tlop_ctx_set_max_table_rows(tlop_ctx *ctx, double max_rows) { ctx->max_table_rows = max_rows; }
void tlop_ctx_set_max_table_cols(tlop_ctx *ctx, double max_cols) { ctx->max_table_cols = max_cols; }
void tlop_ctx_set_strict(tlop_ctx *ctx, int strict) { ctx->strict = strict != 0; }
void tlop_ctx_set_warn_once(tlop_ctx *ctx, int warn_once) {
  for (size_t g = 0; g < ctx->nwarn_groups; g++)
    for (int bit = 0; bit < 3; bit++) {
      char **held = &ctx->warn_groups[g].held[bit];
      if (*held)
        diag_warning(ctx, (span){0}, "%s", *held);
      free(*held);
      *held = NULL;
    }
  for (size_t g = 0; g < ctx->nwarn_groups; g++)
    ctx->warn_groups[g].warned = 0;
  ctx->warn_once = warn_once != 0;
  ctx->warn_group = 0;
}

void tlop_ctx_set_warn_source(tlop_ctx *ctx, const char *name) {
  free(ctx->warn_source);
  ctx->warn_source = name ? xstrdup(name) : NULL;
}

void tlop_ctx_set_warn_group(tlop_ctx *ctx, size_t group) {
  if (group >= ctx->nwarn_groups) {
    ctx->warn_groups = xrealloc(ctx->warn_groups, (group + 1) * sizeof *ctx->warn_groups);
    memset(ctx->warn_groups + ctx->nwarn_groups, 0,
           (group + 1 - ctx->nwarn_groups) * sizeof *ctx->warn_groups);
    ctx->nwarn_groups = group + 1;
  }
  ctx->warn_group = group;
}
int tlop_ctx_errors(const tlop_ctx *ctx) { return ctx->errors; }

/* ---- models ---- */

tlop_status tlop_read_file(tlop_ctx *ctx, const char *path, char **text, size_t *len) {
  *text = NULL;
  *len = 0;
  if (!path)
    return TLOP_ERR_ARG;
  const char *why = file_read(NULL, path, text, len);
  if (why)
    diag_error(ctx, (span){0}, "cannot read '%s': %s", path, why);
  return why ? TLOP_ERR_IO : TLOP_OK;
}

tlop_status tlop_load_file(tlop_ctx *ctx, const char *path, tlop_model **out) {
  *out = NULL;
  if (!path)
    return TLOP_ERR_ARG;
  module *m = load_module_path(ctx, path, (span){0});
  return load_model(ctx, m, out);
}

tlop_status tlop_load_source(tlop_ctx *ctx, const char *name, const char *text, size_t len,
                             tlop_model **out) {
  *out = NULL;
  if (!name || (!text && len))
    return TLOP_ERR_ARG;
  return load_model(ctx, load_module_text(ctx, name, text ? text : "", len), out);
}

size_t tlop_model_algorithms(const tlop_model *model, const char ***names) {
  *names = model->algos;
  return model->nalgos;
}

size_t tlop_model_platforms(const tlop_model *model, const char ***names) {
  size_t n = 0;
  for (ast_decl *d = model->root->decls; d; d = d->next)
    n += d->kind == D_PLATFORM;
  const char **arr = arena_alloc(model->ctx->ar, (n + 1) * sizeof *arr);
  n = 0;
  for (ast_decl *d = model->root->decls; d; d = d->next)
    if (d->kind == D_PLATFORM)
      arr[n++] = d->name->name;
  *names = arr;
  return n;
}

const char *const *tlop_algorithm_params(const tlop_model *model, const char *name,
                                         size_t *count) {
  ast_decl *fn = ptrmap_get(&model->funcs, ctx_sym(model->ctx, name));
  if (!fn || fn->kind != D_ALGORITHM)
    return NULL;
  const char **names = arena_alloc(model->ctx->ar, (size_t)(fn->nargs + 1) * sizeof *names);
  size_t n = 0;
  for (int i = 0; i < fn->nargs; i++)
    if (!kind_by_name(fn->args[i]->k)) /* bound by name when the expression is built */
      names[n++] = fn->args[i]->name->name;
  *count = n;
  return names;
}

/* ---- values ---- */

tlop_env *tlop_env_new(tlop_ctx *ctx) {
  tlop_env *env = xcalloc(1, sizeof *env);
  env->ctx = ctx;
  return env;
}

void tlop_env_free(tlop_env *env) {
  if (!env)
    return;
  free(env->names);
  free(env->values);
  free(env->kinds);
  free(env->op_names);
  free(env->ops);
  free(env->op_kinds);
  free(env);
}

/* A name is a value of its own, an operator or a number, never both. */
static void env_drop(tlop_env *env, sym name) {
  for (size_t i = 0; i < env->n; i++)
    if (env->names[i] == name) {
      env->n--;
      env->names[i] = env->names[env->n], env->values[i] = env->values[env->n];
      env->kinds[i] = env->kinds[env->n];
      return;
    }
  for (size_t i = 0; i < env->nops; i++)
    if (env->op_names[i] == name) {
      env->nops--;
      env->op_names[i] = env->op_names[env->nops], env->ops[i] = env->ops[env->nops];
      env->op_kinds[i] = env->op_kinds[env->nops];
      return;
    }
}

static tlop_status env_put_op(tlop_env *env, sym name, sym op, const kind *k) {
  env_drop(env, name);
  size_t cap = env->ops_cap, cap2 = env->ops_cap;
  env->op_names = grow_array(env->op_names, &cap, env->nops + 1, sizeof *env->op_names);
  env->op_kinds = grow_array(env->op_kinds, &cap2, env->nops + 1, sizeof *env->op_kinds);
  env->ops = grow_array(env->ops, &env->ops_cap, env->nops + 1, sizeof *env->ops);
  env->op_names[env->nops] = name;
  env->op_kinds[env->nops] = k;
  env->ops[env->nops++] = op;
  return TLOP_OK;
}

static tlop_status env_put(tlop_env *env, sym name, double v, kind k) {
  if (env_op(env, name))
    env_drop(env, name);
  for (size_t i = 0; i < env->n; i++)
    if (env->names[i] == name) {
      env->values[i] = v;
      env->kinds[i] = k;
      return TLOP_OK;
    }
  size_t cap = env->cap, cap2 = env->cap;
  env->names = grow_array(env->names, &cap, env->n + 1, sizeof *env->names);
  env->values = grow_array(env->values, &cap2, env->n + 1, sizeof *env->values);
  env->kinds = grow_array(env->kinds, &env->cap, env->n + 1, sizeof *env->kinds);
  env->names[env->n] = name;
  env->values[env->n] = v;
  env->kinds[env->n] = k;
  env->n++;
  return TLOP_OK;
}

/* An operator's name as a table's column header spells it: letters, digits, '_'. */
static bool operator_text(const char *s) {
  if (!(isalpha((unsigned char)*s) || *s == '_'))
    return false;
  for (; *s; s++)
    if (!(isalnum((unsigned char)*s) || *s == '_'))
      return false;
  return true;
}

tlop_status tlop_env_set_op(tlop_env *env, const char *name, const char *op) {
  if (!name || !*name || !op)
    return TLOP_ERR_ARG;
  if (!operator_text(op)) {
    diag_error(env->ctx, (span){0}, "the value given for '%s' must be a reduction operator's "
               "name (sum, max, …), not '%s'", name, op);
    return TLOP_ERR_ARG;
  }
  return env_put_op(env, ctx_sym(env->ctx, name), ctx_sym(env->ctx, op), &KIND_OP);
}

/* "nodes(0,0, 1,1)" → "nodes(0, 0, 1, 1)": whole numbers ≥ 0, as lowering reads them; NULL
 * when the text is not such a list. */
static char *nodes_text(const char *s) {
  if (strncmp(s, "nodes(", 6) != 0)
    return NULL;
  strbuf b = {0};
  sb_puts(&b, "nodes(");
  const char *p = s + 6;
  for (int n = 0;; n++) {
    p += strspn(p, " ");
    char *end;
    double v = strtod(p, &end);
    if (end == p || !(v >= 0 && v == floor(v) && v < 1e15))
      break;
    sb_printf(&b, "%s%.17g", n ? ", " : "", v);
    p = end + strspn(end, " ");
    if (*p == ')' && p[1] == 0) {
      sb_puts(&b, ")");
      return sb_take(&b);
    }
    if (*p++ != ',')
      break;
  }
  free(b.s);
  return NULL;
}

tlop_status tlop_env_set_mapping(tlop_env *env, const char *name, const char *mapping) {
  if (!name || !*name || !mapping)
    return TLOP_ERR_ARG;
  char *text = strcmp(mapping, "sequential") && strcmp(mapping, "round_robin")
                   ? nodes_text(mapping)
                   : xstrdup(mapping);
  if (!text) {
    diag_error(env->ctx, (span){0}, "the value given for '%s' must be a mapping: sequential, "
               "round_robin or nodes(n0, n1, …) of whole numbers, not '%s'", name, mapping);
    return TLOP_ERR_ARG;
  }
  tlop_status st = env_put_op(env, ctx_sym(env->ctx, name), ctx_sym(env->ctx, text), &KIND_MAP);
  free(text);
  return st;
}

static int has_param_of(const tlop_model *model, const char *name, kind_tag tag) {
  sym s = ctx_sym(model->ctx, name);
  for (size_t i = 0; i < model->funcs.cap; i++) {
    const ast_decl *fn = model->funcs.vals[i];
    for (int j = 0; model->funcs.keys[i] && j < fn->nargs; j++)
      if (fn->args[j]->name == s && fn->args[j]->k.tag == tag)
        return 1;
  }
  return 0;
}

int tlop_model_has_op_param(const tlop_model *model, const char *name) {
  return has_param_of(model, name, K_OP);
}

int tlop_model_has_mapping_param(const tlop_model *model, const char *name) {
  return has_param_of(model, name, K_MAP);
}

tlop_status tlop_env_set(tlop_env *env, const char *name, double value, tlop_kind k) {
  if (!name || !*name || isnan(value))
    return TLOP_ERR_ARG;
  return env_put(env, ctx_sym(env->ctx, name), value, kind_from_public(k));
}

static tlop_model *empty_model(tlop_ctx *ctx) {
  if (!ctx->empty) {
    tlop_model *m;
    if (load_model(ctx, load_module_text(ctx, "<value>", "", 0), &m) == TLOP_OK)
      ctx->empty = m;
  }
  return ctx->empty;
}

/* `what` names the value in messages, as a file name would: "<value of m>". */
static tlop_status value_parse(tlop_ctx *ctx, const char *what, const char *text, double *value,
                               kind *k) {
  tlop_model *m = empty_model(ctx);
  if (!m || !text)
    return TLOP_ERR_ARG;
  tlop_status st;
  ir_node *n = expr_parse_checked(m, what, text, NULL, false, k, &st, NULL, NULL, NULL);
  if (!n)
    return st;
  if (ir_has_cost(n) || k->tag == K_BOOL) {
    diag_error(ctx, n->origin, "'%s' is not a value: give a number, a size or a time", text);
    return TLOP_ERR_ARG;
  }
  eval_state *es = eval_new(ctx, NULL);
  bool ok = eval_node(es, n, value);
  if (!ok)
    eval_report(es);
  eval_free(es);
  return ok ? TLOP_OK : TLOP_ERR_EVAL;
}

tlop_status tlop_value_parse(tlop_ctx *ctx, const char *text, double *value, tlop_kind *kd) {
  kind k;
  tlop_status st = value_parse(ctx, "<value>", text, value, &k);
  if (st == TLOP_OK && kd)
    *kd = kind_public(k);
  return st;
}

tlop_status tlop_env_set_text(tlop_env *env, const char *name, const char *value) {
  if (!name || !*name)
    return TLOP_ERR_ARG;
  double v;
  kind k;
  strbuf what = {0};
  sb_printf(&what, "<value of %s>", name);
  tlop_status st = value_parse(env->ctx, what.s, value, &v, &k);
  free(what.s);
  if (st != TLOP_OK)
    return st;
  return env_put(env, ctx_sym(env->ctx, name), v, k);
}

/* ---- expressions ---- */

int tlop_model_has_param(const tlop_model *model, const char *name) {
  return ptrmap_get(&model->values, ctx_sym(model->ctx, name)) != NULL;
}

tlop_status tlop_algorithm_expr(tlop_model *model, const char *name, const tlop_env *env,
                                tlop_expr **out) {
  return expr_of_algorithm(model, name, env, false, out);
}

tlop_status tlop_simplify(const tlop_expr *expr, const tlop_simp_opts *opts, tlop_expr **out) {
  *out = NULL;
  tlop_simp_opts none = {0};
  if (!opts)
    opts = &none;
  tlop_model *model = expr->model;
  ir_node **facts = NULL;
  size_t n = 0, cap = 0;
  if (!model_facts(model, opts->assume, &facts, &n, &cap)) {
    free(facts);
    return TLOP_ERR_ARG;
  }
  int errors = model->ctx->errors;
  expr_let *lets = NULL;
  size_t nlets = 0;
  ir_node *r = simp_simplify(model->ctx, expr->node, facts, n, opts, expr->lets, expr->nlets,
                             &lets, &nlets, NULL);
  free(facts);
  if (model->ctx->errors > errors)
    return TLOP_ERR_ARG; /* the assumptions contradict each other */
  if (!simp_finite(model->ctx, expr->node, r, NULL))
    return TLOP_ERR_EVAL;
  if (opts->expand)
    simp_note_unexpanded(model->ctx, expr->node, r);
  tlop_expr *e = arena_alloc(model->ctx->ar, sizeof *e);
  *e = *expr;
  e->node = r;
  e->lets = lets, e->nlets = nlets;
  *out = e;
  return TLOP_OK;
}

/* The names of expr's variables (`channels` false) or channels, as an array of the model. */
static size_t expr_names(const tlop_expr *expr, bool channels, const char ***names) {
  ir_names vars = {0}, chans = {0};
  const ir_node *root = expr->node;
  ir_collect_names(&root, 1, &vars, &chans);
  ir_names *want = channels ? &chans : &vars;
  const char **arr = arena_alloc(expr->model->ctx->ar, (want->n + 1) * sizeof *arr);
  for (size_t i = 0; i < want->n; i++)
    arr[i] = want->v[i] ? want->v[i]->name : NULL;
  size_t n = want->n;
  free(vars.v);
  free(chans.v);
  *names = arr;
  return n;
}

size_t tlop_expr_variables(const tlop_expr *expr, const char ***names) {
  return expr_names(expr, false, names);
}

size_t tlop_expr_channels(const tlop_expr *expr, const char ***names) {
  return expr_names(expr, true, names);
}

tlop_status tlop_expr_parse(tlop_model *model, const char *text, const tlop_env *env,
                            tlop_expr **out) {
  return expr_of_text(model, text, env, false, out);
}

tlop_status tlop_expr_parse_symbolic(tlop_model *model, const char *text, tlop_expr **out) {
  return expr_of_text(model, text, NULL, true, out);
}

tlop_status tlop_expr_parse_format(tlop_model *model, const char *text, tlop_format format,
                                   tlop_expr **out) {
  *out = NULL;
  if (!model || !text)
    return TLOP_ERR_ARG;
  if (format != TLOP_FORMAT_LATEX)
    return expr_of_text(model, text, NULL, true, out);
  const char *error;
  char *plain = latex_read(text, &error);
  if (!plain) {
    diag_error(model->ctx, (span){0}, "cannot read this LaTeX: %s", error);
    return TLOP_ERR_SYNTAX;
  }
  tlop_status st = expr_of_text(model, plain, NULL, true, out);
  free(plain);
  return st;
}

char *tlop_expr_print(tlop_ctx *ctx, const tlop_expr *expr, tlop_format format) {
  return prt_expr_lets(ctx, expr, format);
}

char *tlop_expr_dump(tlop_ctx *ctx, const tlop_expr *expr) { return prt_dump(ctx, expr->node); }

tlop_kind tlop_expr_kind(const tlop_expr *expr) { return kind_public(expr->k); }

/* ---- evaluation ---- */

static const char *const extrapolation_words[] = {
    "below the table's first message size (its first row was used)",
    "beyond the table's last message size (v(m) = v(m_last) + v(m − m_last))",
    "beyond the table's last τ column"};

unsigned warn_pending(const tlop_ctx *ctx) {
  if (!ctx->warn_once || ctx->warn_group >= ctx->nwarn_groups)
    return 7;
  return ~ctx->warn_groups[ctx->warn_group].warned & 7;
}

/* Reports each kind of extrapolation once, with the first transfer that needed it (under
 * warn_once, held until it ends). */
void warn_extrapolations(tlop_ctx *ctx, eval_state *es) {
  unsigned flags = eval_extrapolations(es);
  if (ctx->warn_once) {
    tlop_ctx_set_warn_group(ctx, ctx->warn_group); /* group 0 exists from the first call */
    flags &= ~ctx->warn_groups[ctx->warn_group].warned;
    ctx->warn_groups[ctx->warn_group].warned |= flags;
  }
  for (int bit = 0; bit < 3; bit++) {
    if (!(flags & (1u << bit)))
      continue;
    char what[160];
    eval_extrapolation_example(es, bit, what, sizeof what);
    const char *rule = bit != 2                    ? ""
                       : eval_extrapolation_is_gamma(es, bit) ? " (a gamma table holds τ = 1: that value was used)"
                       : ctx->tau_rule == TLOP_TAU_CLAMP ? " (--tau-beyond=clamp: L(m,T) was used)"
                                                         : " (--tau-beyond=proportional: L(m,T)·τ/T was used)";
    strbuf msg = {0};
    const char *point = eval_extrapolation_point(es, bit);
    if (ctx->warn_source || point)
      sb_printf(&msg, "%s%s%s: ", ctx->warn_source ? ctx->warn_source : "",
                ctx->warn_source && point ? " at " : "", point ? point : "");
    if (bit == 1 && eval_extrapolation_from_zero_row(es, bit))
      sb_printf(&msg, "%s is beyond the table's only row, at m = 0: v(0) was used for every m",
                what);
    else
      sb_printf(&msg, "%s is %s%s", what, extrapolation_words[bit], rule);
    if (ctx->warn_once) {
      ctx->warn_groups[ctx->warn_group].held[bit] = sb_take(&msg);
      continue;
    }
    diag_warning(ctx, (span){0}, "%s", msg.s);
    free(msg.s);
  }
}

static eval_state *prepare(const tlop_expr *expr, const tlop_platform *pf, const tlop_env *env,
                           tlop_status *st) {
  tlop_ctx *ctx = expr->model->ctx;
  if (ir_has_cost(expr->node) && !pf) {
    diag_error(ctx, expr->node->origin, "this expression has transfers: it needs a platform");
    *st = TLOP_ERR_ARG;
    return NULL;
  }
  if (pf && !pf_check_expr(pf, expr->node)) {
    *st = TLOP_ERR_EVAL;
    return NULL;
  }
  eval_state *es = eval_new(ctx, pf);
  eval_use_expr(es, env, expr);
  *st = TLOP_OK;
  return es;
}

tlop_status tlop_eval(const tlop_expr *expr, const tlop_platform *pf, const tlop_env *env,
                      double *out) {
  tlop_status st;
  eval_state *es = prepare(expr, pf, env, &st);
  if (!es)
    return st;
  bool ok = eval_node(es, expr->node, out);
  if (ok)
    warn_extrapolations(expr->model->ctx, es);
  else
    eval_report(es);
  eval_free(es);
  return ok ? TLOP_OK : TLOP_ERR_EVAL;
}

tlop_status tlop_eval_batch(const tlop_expr *expr, const tlop_platform *pf, const tlop_env *env,
                            const char *const *names, size_t nvars, const double *points,
                            size_t npoints, double *out) {
  tlop_status st;
  eval_state *es = prepare(expr, pf, env, &st);
  if (!es)
    return st;
  tlop_ctx *ctx = expr->model->ctx;
  sym *vars = xcalloc(nvars, sizeof *vars);
  for (size_t j = 0; j < nvars; j++)
    vars[j] = ctx_sym(ctx, names[j]);
  bool ok = true;
  eval_use_point_vars(es, vars, nvars);
  for (size_t i = 0; i < npoints && ok; i++) {
    for (size_t j = 0; j < nvars; j++)
      eval_bind(es, vars[j], points[i * nvars + j]);
    ok = eval_node(es, expr->node, &out[i]);
  }
  if (ok)
    warn_extrapolations(ctx, es);
  else
    eval_report(es);
  free(vars);
  eval_free(es);
  return ok ? TLOP_OK : TLOP_ERR_EVAL;
}

/* ---- grids ---- */

/* A value of an axis as the user writes it: a size in bytes with its unit. */
static void axis_value_text(char *buf, size_t n, double v, kind k) {
  if (kind_eq(k, KIND_SIZE))
    tlop_format_size(buf, n, v);
  else
    fmt_double(buf, n, v);
}

/* A range without a step steps by 1 (m=1KiB..1MiB: a million sizes a byte apart), which
 * past this many points is more likely a forgotten :*2 than meant. */
#define UNSTEPPED_WARN_POINTS 1000

static void warn_unstepped(tlop_ctx *ctx, const char *spec, double count) {
  diag_warning(ctx, (span){0}, "grid axis '%s' has no step, so it steps by 1: %.0f points "
               "(write %s:*2 for a geometric axis, or %s:+1 to keep these points without "
               "this warning)", spec, count, spec, spec);
}

tlop_status tlop_axis_parse(tlop_ctx *ctx, const char *spec, tlop_axis *out) {
  memset(out, 0, sizeof *out);
  const char *eq = spec ? strchr(spec, '=') : NULL;
  if (!eq || eq == spec) {
    diag_error(ctx, (span){0}, "grid axis '%s': expected NAME=a..b:*f, NAME=a..b:+d or "
               "NAME=v1,v2,…", spec ? spec : "");
    return TLOP_ERR_ARG;
  }
  out->name = xstrndup(spec, (size_t)(eq - spec));
  const char *body = eq + 1;
  const char *dots = strstr(body, "..");
  strbuf label = {0};
  sb_printf(&label, "<grid axis %s>", out->name);
  const char *what = arena_strdup(ctx->ar, label.s);
  free(label.s);
  kind k = KIND_NUM;
  size_t cap = 0;
  tlop_status st = TLOP_OK;
  if (!dots) {
    /* Every comma separates two values: an empty one is a typo, not a value to skip. */
    for (const char *v = body; st == TLOP_OK;) {
      size_t len = strcspn(v, ",");
      if (len == 0) {
        diag_error(ctx, (span){0}, *body ? "grid axis '%s': an empty value in the list"
                                         : "grid axis '%s' has no values", spec);
        st = TLOP_ERR_ARG;
        break;
      }
      char *text = xstrndup(v, len);
      double x;
      kind vk = KIND_NUM;
      st = value_parse(ctx, what, text, &x, &vk);
      free(text);
      if (vk.tag == K_DIM)
        k = vk;
      VEC_PUSH(out->values, out->count, cap, x);
      if (!v[len])
        break;
      v += len + 1;
    }
  } else {
    const char *colon = strchr(dots + 2, ':');
    char *a = xstrndup(body, (size_t)(dots - body));
    char *b = colon ? xstrndup(dots + 2, (size_t)(colon - dots - 2)) : xstrdup(dots + 2);
    double lo = 0, hi = 0, step = 1;
    kind ka = KIND_NUM, kb = KIND_NUM, ks = KIND_NUM;
    char op = colon ? colon[1] : '+';
    if (!*a || !*b || (colon && !colon[1])) {
      diag_error(ctx, (span){0}, "grid axis '%s': a range needs a start and an end, "
                 "NAME=a..b:*f or NAME=a..b:+d", spec);
      st = TLOP_ERR_ARG;
    } else if ((st = value_parse(ctx, what, a, &lo, &ka)) == TLOP_OK &&
        (st = value_parse(ctx, what, b, &hi, &kb)) == TLOP_OK && colon) {
      if (op != '*' && op != '+') {
        diag_error(ctx, (span){0}, "grid axis '%s': the step is ':*FACTOR' or ':+STEP'", spec);
        st = TLOP_ERR_ARG;
      } else {
        st = value_parse(ctx, what, colon + 2, &step, &ks);
      }
    }
    free(a);
    free(b);
    k = ka.tag == K_DIM ? ka : kb;
    double count = 0;
    if (st == TLOP_OK) {
      if (op == '*' && !(step > 1 && lo > 0)) {
        diag_error(ctx, (span){0}, "grid axis '%s': a geometric axis needs a start above 0 "
                   "and a factor above 1", spec);
        st = TLOP_ERR_ARG;
      } else if (op == '+' && !(step > 0)) {
        diag_error(ctx, (span){0}, "grid axis '%s': the step must be positive", spec);
        st = TLOP_ERR_ARG;
      } else if (hi < lo) {
        diag_error(ctx, (span){0}, "grid axis '%s': the end is below the start", spec);
        st = TLOP_ERR_ARG;
      } else {
        count = op == '*' ? floor(log(hi / lo) / log(step) + 1e-9) + 1
                          : floor((hi - lo) / step + 1e-9) + 1;
        if (!(count <= ctx->max_axis_points)) {
          diag_error(ctx, (span){0}, "grid axis '%s' has more than %.0f points (--max-points)",
                     spec, ctx->max_axis_points);
          st = TLOP_ERR_LIMIT;
        } else if (!colon && count > UNSTEPPED_WARN_POINTS) {
          warn_unstepped(ctx, spec, count);
        }
      }
    }
    for (double i = 0; st == TLOP_OK && i < count; i++) {
      double v = op == '*' ? lo * pow(step, i) : lo + i * step;
      VEC_PUSH(out->values, out->count, cap, v);
    }
    double last = out->count ? out->values[out->count - 1] : hi;
    if (st == TLOP_OK && fabs(last - hi) > 1e-9 * fabs(hi)) {
      char end[48], stop[48];
      axis_value_text(end, sizeof end, hi, k);
      axis_value_text(stop, sizeof stop, last, k);
      diag_warning(ctx, (span){0}, "grid axis '%s' stops at %s: its end, %s, is not a whole "
                   "number of steps from its start", spec, stop, end);
    }
    (void)ks;
  }
  out->kind = kind_public(k);
  if (st != TLOP_OK)
    tlop_axis_free(out);
  return st;
}

/* Where the axis binds a count: a count parameter of one of the algorithms, or a `param`
 * of the model whose kind is count. NULL when it binds none. */
static const char *count_binding(tlop_model *model, const char *const *algorithms, size_t n,
                                 sym name, span *decl) {
  for (size_t a = 0; a < n; a++) {
    ast_decl *fn = ptrmap_get(&model->funcs, ctx_sym(model->ctx, algorithms[a]));
    for (int i = 0; fn && fn->kind == D_ALGORITHM && i < fn->nargs; i++)
      if (fn->args[i]->name == name && kind_is_count(fn->args[i]->k)) {
        *decl = span_of(model->ctx, fn->args[i]->loc);
        return fn->name->name;
      }
  }
  ast_decl *param = ptrmap_get(&model->values, name);
  if (param && kind_is_count(lower_param(model, name)->k)) {
    *decl = param->name_sp;
    return "the model";
  }
  return NULL;
}

/* Every value of an axis that binds a count of `owner` (none when NULL) is whole and ≥ 0. */
static tlop_status axis_counts_fit(tlop_model *model, const tlop_axis *axis, const char *owner,
                                   span decl) {
  bool ok = true;
  for (size_t i = 0; owner && ok && i < axis->count; i++)
    ok = count_fits(model->ctx, "a value of grid axis", axis->values[i], axis->name, owner, decl);
  return ok ? TLOP_OK : TLOP_ERR_ARG;
}

/* The axis's values fit the counts it binds among the algorithms and the model's params. */
static tlop_status axis_counts_bound_fit(tlop_model *model, const char *const *algorithms,
                                         size_t n, const tlop_axis *axis) {
  span decl = {0};
  const char *owner = count_binding(model, algorithms, n, ctx_sym(model->ctx, axis->name), &decl);
  return axis_counts_fit(model, axis, owner, decl);
}

static bool size_or_time(kind k) { return kind_eq(k, KIND_SIZE) || kind_eq(k, KIND_TIME); }

/* The kind of a size or time that the axis binds: a parameter of one of the algorithms, or
 * a `param` of the model; TLOP_KIND_NUMBER when it binds none. */
static tlop_kind bound_dimension(tlop_model *model, const char *const *algorithms, size_t n,
                                 sym name) {
  for (size_t a = 0; a < n; a++) {
    ast_decl *fn = ptrmap_get(&model->funcs, ctx_sym(model->ctx, algorithms[a]));
    for (int i = 0; fn && fn->kind == D_ALGORITHM && i < fn->nargs; i++)
      if (fn->args[i]->name == name && size_or_time(fn->args[i]->k))
        return kind_public(fn->args[i]->k);
  }
  if (ptrmap_get(&model->values, name) && size_or_time(lower_param(model, name)->k))
    return kind_public(lower_param(model, name)->k);
  return TLOP_KIND_NUMBER;
}

tlop_status tlop_axis_check(tlop_model *model, const char *const *algorithms, size_t n,
                            tlop_axis *axis) {
  if (axis->kind == TLOP_KIND_NUMBER)
    axis->kind = bound_dimension(model, algorithms, n, ctx_sym(model->ctx, axis->name));
  return axis_counts_bound_fit(model, algorithms, n, axis);
}

size_t tlop_model_claim_variables(const tlop_model *model, const char ***names) {
  const ptrmap *vars = &model->claim_vars;
  const char **arr = arena_alloc(model->ctx->ar, (vars->count + 1) * sizeof *arr);
  size_t n = 0;
  for (size_t i = 0; i < vars->cap; i++)
    if (vars->keys[i])
      arr[n++] = ((sym)vars->keys[i])->name;
  *names = arr;
  return n;
}

tlop_status tlop_claim_axis_check(tlop_model *model, const tlop_axis *axis) {
  sym name = ctx_sym(model->ctx, axis->name);
  if (!ptrmap_get(&model->claim_vars, name) && !ptrmap_get(&model->values, name)) {
    diag_error(model->ctx, (span){0}, "grid axis '%s' is neither a variable of the claims "
               "nor a param of the model", axis->name);
    return TLOP_ERR_ARG;
  }
  const ast_expr *use = ptrmap_get(&model->claim_counts, name);
  return use ? axis_counts_fit(model, axis, "a claim", ast_span(model->ctx, use))
             : axis_counts_bound_fit(model, NULL, 0, axis);
}

void tlop_axis_free(tlop_axis *axis) {
  free(axis->name);
  free(axis->values);
  memset(axis, 0, sizeof *axis);
}
