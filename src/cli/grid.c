/* grid.c — what `tlop sweep`, `tlop best` and `tlop plot` share: the grid of the --grid axes (the
 * cartesian product, first axis outermost) and the engine that evaluates expressions at its
 * points (--engine: interpreted, or compiled by the JIT for large grids). */
#include "cli.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An axis must bind something: a parameter of one of the algorithms or a model param. */
static bool axis_used(tlop_model *m, char **algos, size_t nalgo, const char *name) {
  if (tlop_model_has_param(m, name))
    return true;
  for (size_t a = 0; a < nalgo; a++) {
    size_t np;
    const char *const *params = tlop_algorithm_params(m, algos[a], &np);
    for (size_t i = 0; params && i < np; i++)
      if (!strcmp(params[i], name))
        return true;
  }
  return false;
}

void cli_grid_fill(const cli_grid *g, size_t first, size_t k, double *pts) {
  if (k == 0 || g->naxes == 0)
    return;
  /* the index of each axis at point `first` (the last axis fastest), then counted up */
  size_t *at = calloc(g->naxes, sizeof *at);
  if (!at)
    abort();
  for (size_t j = g->naxes, rest = first; j-- > 0; rest /= g->axes[j].count)
    at[j] = rest % g->axes[j].count;
  for (size_t i = 0; i < k; i++) {
    for (size_t j = 0; j < g->naxes; j++)
      pts[i * g->naxes + j] = g->axes[j].values[at[j]];
    for (size_t j = g->naxes; j-- > 0 && ++at[j] == g->axes[j].count;)
      at[j] = 0;
  }
  free(at);
}

int cli_take_grid(cli *c, int opt, const char *arg) {
  if (opt == 'Z') {
    if (!cli_limit_value(c, "--max-points", arg, &c->o.max_points))
      return -1;
    tlop_ctx_set_max_points(c->ctx, c->o.max_points); /* and so for one axis */
    return 1;
  }
  if (opt == 'N') {
    c->o.no_progress = true;
    return 1;
  }
  if (opt != 'g')
    return cli_take_engine(c, opt, arg);
  c->o.grids = realloc((void *)c->o.grids, (c->o.ngrids + 1) * sizeof *c->o.grids);
  if (!c->o.grids)
    abort();
  c->o.grids[c->o.ngrids++] = arg;
  return 1;
}

bool cli_grid_p_then_m(cli *c) {
  if (c->o.ngrids != 2)
    return false;
  if (!strncmp(c->o.grids[1], "P=", 2)) {
    const char *t = c->o.grids[0];
    c->o.grids[0] = c->o.grids[1];
    c->o.grids[1] = t;
  }
  return !strncmp(c->o.grids[0], "P=", 2) && !strncmp(c->o.grids[1], "m=", 2);
}

bool cli_grid_parse(cli *c, tlop_model *m, tlop_env *env, char **algos, size_t nalgo,
                    cli_grid *g) {
  *g = (cli_grid){0};
  g->naxes = c->o.ngrids;
  g->axes = calloc(g->naxes, sizeof *g->axes);
  g->names = calloc(g->naxes, sizeof *g->names);
  if (!g->axes || !g->names)
    abort();
  for (size_t j = 0; j < g->naxes; j++) {
    /* axes are numbers; an operator is bound when the algorithm is built */
    const char *eq = strchr(c->o.grids[j], '=');
    char *name = eq ? strndup(c->o.grids[j], (size_t)(eq - c->o.grids[j])) : NULL;
    bool op = name && tlop_model_has_op_param(m, name);
    if (op)
      cli_misuse(c, "grid axis '%s' is a reduction operator, not a number: give it with --set "
                 "%s=NAME, one sweep per operator", name, name);
    free(name);
    if (op)
      return false;
    if (tlop_axis_parse(c->ctx, c->o.grids[j], &g->axes[j]) != TLOP_OK) {
      c->misused = true;
      return false;
    }
    g->names[j] = g->axes[j].name;
    if (!axis_used(m, algos, nalgo, g->names[j])) {
      cli_misuse(c,
                 "grid axis '%s' is neither a parameter of the algorithms nor a param of "
                 "the model",
                 g->names[j]);
      return false;
    }
    for (size_t k = 0; k < j; k++)
      if (!strcmp(g->names[k], g->names[j])) {
        cli_misuse(c, "grid axis '%s' is given twice", g->names[j]);
        return false;
      }
    if (tlop_axis_check(m, (const char *const *)algos, nalgo, &g->axes[j]) != TLOP_OK)
      return false;
    /* Grid names are free variables of the calls, with the kinds of their values. */
    tlop_env_set(env, g->axes[j].name, g->axes[j].values[0], g->axes[j].kind);
  }
  /* checked before allocating */
  double size = 1, limit = c->o.max_points ? c->o.max_points : DEFAULT_MAX_POINTS;
  for (size_t j = 0; j < g->naxes; j++)
    size *= (double)g->axes[j].count;
  if (size > limit) {
    cli_misuse(c, "the grid has %.0f points, more than the limit of %.0f (--max-points)", size,
               limit);
    return false;
  }
  g->npts = (size_t)size;
  return true;
}

bool cli_grid_open(cli *c, tlop_model *m, tlop_env *env, char **algos, size_t nalgo, cli_grid *g) {
  if (!cli_grid_parse(c, m, env, algos, nalgo, g))
    return false;
  if (g->npts > SIZE_MAX / sizeof *g->pts / (g->naxes + 1) ||
      !(g->pts = malloc((g->npts ? g->npts : 1) * g->naxes * sizeof *g->pts))) {
    fprintf(stderr, "tlop %s: the grid is too large for memory\n", c->cmd);
    return false;
  }
  cli_grid_fill(g, 0, g->npts, g->pts);
  return true;
}

void cli_grid_close(cli_grid *g) {
  for (size_t j = 0; j < g->naxes; j++)
    tlop_axis_free(&g->axes[j]);
  free(g->axes);
  free((void *)g->names);
  free(g->pts);
}

bool cli_evaluator_open(cli *c, cli_evaluator *ev, char *const *algos, tlop_expr **exprs, size_t n,
                        const tlop_platform *pf, const tlop_env *env, const cli_grid *g) {
  *ev = (cli_evaluator){c->ctx, algos, exprs, pf, env, g->names, g->naxes, NULL};
  bool jit;
  /* --engine: the JIT compiles every algorithm in one module, then runs each over the grid. */
  return cli_engine(c, g->npts, &jit) &&
         (!jit || (ev->kern = cli_compile(c, exprs, n, pf, env, g->names, g->naxes, g->npts)));
}

bool cli_evaluator_run_compiled(const cli_evaluator *ev, size_t which, const double *pts,
                                size_t k, double *out, unsigned char *flags,
                                tlop_kernels_owed *owed) {
  return ev->kern && tlop_kernels_run(ev->kern, which, pts, k, out, flags, owed) == TLOP_OK;
}

tlop_status cli_evaluator_settle(const cli_evaluator *ev, size_t which, const double *pts,
                                 size_t k, double *out, unsigned char *flags,
                                 tlop_kernels_owed *owed) {
  tlop_ctx_set_warn_source(ev->ctx, ev->algos[which]);
  tlop_status st = owed      ? tlop_kernels_settle(ev->kern, which, pts, k, out, flags, owed)
                   : ev->kern ? tlop_kernels_eval(ev->kern, which, pts, k, out)
                              : tlop_eval_batch(ev->exprs[which], ev->pf, ev->env, ev->names,
                                                ev->nvars, pts, k, out);
  tlop_ctx_set_warn_source(ev->ctx, NULL);
  return st;
}

tlop_status cli_evaluator_run(const cli_evaluator *ev, size_t which, const double *pts, size_t k,
                              double *out) {
  return cli_evaluator_settle(ev, which, pts, k, out, NULL, NULL);
}

/* A candidate that does not evaluate at a point (an algorithm refusing a P outside its
 * domain, such as a recursive doubling that needs a power of two) is left out there: its
 * cost is +inf, so it neither wins nor runs up. Its first error's message is kept for the
 * caller's summary (a refusal is no error of the run); warnings go to stderr as usual. */
void cli_collect_errors(void *user, const tlop_diag *d) {
  cli_refusals *r = user;
  if (d->severity == TLOP_NOTE && r->dropped)
    return;
  if (d->severity != TLOP_NOTE)
    r->dropped = d->severity == TLOP_ERROR;
  if (d->severity != TLOP_ERROR) {
    cli_progress_break(r->bar);
    fputs(d->text, stderr);
  }
  else if (!r->quiet && !r->first)
    r->first = strdup(d->message);
}

void cli_print_errors(void *user, const tlop_diag *d) {
  cli_refusals *r = user;
  bool shown = d->severity == TLOP_NOTE ? !r->dropped : d->severity == TLOP_ERROR && !r->quiet;
  if (d->severity != TLOP_NOTE)
    r->dropped = !shown;
  if (shown)
    fputs(d->text, stderr);
}

/* Whether the algorithm takes a node count M. */
static bool takes_nodes(tlop_model *m, const char *algo) {
  size_t np;
  const char *const *params = tlop_algorithm_params(m, algo, &np);
  for (size_t i = 0; params && i < np; i++)
    if (!strcmp(params[i], "M"))
      return true;
  return false;
}

/* A candidate without a node count is refused where M (a --grid axis or --set) is more
 * than one: its cost would be one node's, priced silently as if on M. */
static void refuse_without_nodes(tlop_model *m, char **names, size_t ncand,
                                 const tlop_platform *pf, const tlop_env *env, const cli_grid *g,
                                 double *costs, char **refused) {
  tlop_expr *nodes = NULL;
  double *M = malloc((g->npts ? g->npts : 1) * sizeof *M);
  if (!M)
    abort();
  /* M unbound (neither set nor an axis): every candidate is priced on one node */
  bool bound = tlop_expr_parse(m, "M", env, &nodes) == TLOP_OK &&
               tlop_eval_batch(nodes, pf, env, g->names, g->naxes, g->pts, g->npts, M) == TLOP_OK;
  for (size_t a = 0; bound && a < ncand; a++) {
    if (takes_nodes(m, names[a]))
      continue;
    bool left_out = false;
    for (size_t i = 0; i < g->npts; i++)
      if (M[i] > 1)
        costs[a * g->npts + i] = INFINITY, left_out = true;
    if (left_out && !refused[a])
      refused[a] = strdup("it takes no node count M, so its cost is one node's, not M nodes'");
  }
  free(M);
}

/* Why each candidate refuses grid point i, where none evaluates: its error there in full
 * (where it arose, the line, a caret), else (refused for want of M, no error) its first
 * refusal's message. */
static void say_why_refused(cli *c, char **names, size_t ncand, const cli_grid *g,
                            const cli_evaluator *ev, char *const *refused, size_t i) {
  cli_refusals errors = {false, NULL, false, NULL};
  tlop_ctx_set_diag(c->ctx, cli_print_errors, &errors);
  for (size_t a = 0; a < ncand; a++) {
    double cost;
    if (cli_evaluator_run(ev, a, g->pts + i * g->naxes, 1, &cost) == TLOP_OK && refused[a])
      fprintf(stderr, "%s: %s\n", names[a], refused[a]);
  }
  tlop_ctx_set_diag(c->ctx, cli_print_diag, NULL);
}

/* Points of one candidate evaluated in one call: the bar moves between calls. */
#define COST_CHUNK 4096

bool cli_grid_costs_skipping(cli *c, tlop_model *m, const char *file, char **names,
                                size_t ncand, const tlop_platform *pf, const tlop_env *env,
                                const cli_grid *g, tlop_expr **exprs, cli_evaluator *ev,
                                double *costs, char **refused) {
  for (size_t a = 0; a < ncand; a++) {
    size_t np;
    if (!tlop_algorithm_params(m, names[a], &np)) {
      fprintf(stderr, "tlop %s: '%s' is not an algorithm of %s\n", c->cmd, names[a], file);
      return false;
    }
    if (!(exprs[a] = cli_expr(c, m, names[a], env, false)))
      return false;
  }
  if (!cli_check_sets(c, m, &(cli_set_users){names, exprs, ncand, NULL, 0}) ||
      !cli_evaluator_open(c, ev, names, exprs, ncand, pf, env, g))
    return false;
  cli_progress bar;
  cli_progress_start(c, &bar, g->npts);
  cli_refusals r = {false, NULL, false, &bar};
  tlop_ctx_set_diag(c->ctx, cli_collect_errors, &r);
  /* each candidate warns once, though evaluated chunk by chunk (the bar moves between
   * them) and again point by point where it refuses */
  tlop_ctx_set_warn_once(c->ctx, 1);
  for (size_t a = 0; a < ncand; a++) {
    double *row = costs + a * g->npts;
    bool left_out = false;
    tlop_ctx_set_warn_group(c->ctx, a);
    for (size_t first = 0; first < g->npts; first += COST_CHUNK) {
      size_t k = g->npts - first < COST_CHUNK ? g->npts - first : COST_CHUNK;
      cli_progress_show(&bar, ((double)a * (double)g->npts + (double)first) / (double)ncand,
                        "evaluating");
      if (cli_evaluator_run(ev, a, g->pts + first * g->naxes, k, row + first) == TLOP_OK)
        continue;
      for (size_t i = first; i < first + k; i++) /* which points of the chunk it refuses */
        if (cli_evaluator_run(ev, a, g->pts + i * g->naxes, 1, &row[i]) != TLOP_OK)
          row[i] = INFINITY, left_out = true;
    }
    refused[a] = left_out ? (r.first ? r.first : strdup("no message")) : NULL;
    if (!left_out)
      free(r.first);
    r.first = NULL;
  }
  cli_progress_show(&bar, (double)g->npts, "done");
  cli_progress_break(&bar);
  tlop_ctx_set_warn_once(c->ctx, 0);
  r.quiet = true; /* M unbound is no error: it is one node */
  refuse_without_nodes(m, names, ncand, pf, env, g, costs, refused);
  tlop_ctx_set_diag(c->ctx, cli_print_diag, NULL);
  for (size_t i = 0; i < g->npts; i++) {
    size_t a = 0;
    while (a < ncand && isinf(costs[a * g->npts + i]))
      a++;
    if (a == ncand) {
      fprintf(stderr, "tlop %s: no candidate evaluates at", c->cmd);
      for (size_t j = 0; j < g->naxes; j++)
        fprintf(stderr, " %s=%.17g", g->names[j], g->pts[i * g->naxes + j]);
      fputc('\n', stderr);
      say_why_refused(c, names, ncand, g, ev, refused, i);
      return false;
    }
  }
  return true;
}

void cli_evaluator_close(cli *c, cli_evaluator *ev) {
  tlop_kernels_free(ev->kern);
  ev->kern = NULL;
  cli_jit_close(c);
}
