/* cmd_sweep.c — `tlop sweep`: every algorithm at every point of a grid (the cartesian product
 * of the --grid axes, first axis outermost), as CSV, JSON, an aligned table or .npy
 * (sweep_rows.c), streamed: evaluated and written chunk by chunk in the grid's order, so
 * memory does not grow with the grid and the first rows come at once (sweep_stream.c),
 * under the progress bar (progress.c). */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char sweep_help[] =
    "usage: tlop sweep [OPTION]... FILE ALGO... --grid NAME=AXIS...\n"
    "Evaluate each algorithm ALGO of FILE at every point of the grid. An axis is\n"
    "a..b:*f (geometric), a..b:+d (arithmetic; a..b steps by 1) or v1,v2,… (a list);\n"
    "values may carry units (m=1KiB..4MiB:*2). Any algorithm parameter or model\n"
    "parameter can be an axis; the others come from --set or their defaults.\n\n" COMMON_HELP
    "  -g, --grid NAME=AXIS   one axis of the grid (repeat for more)\n"
    "  -f, --format FMT       csv (default: columns NAME…,ALGO…, values in bytes and\n"
    "                         seconds), json, table or npy (NumPy, one structured array)\n"
    "  -o, --output FILE      write there instead of standard output\n"
    HELP_GRID_RUN HELP_ENGINE;

static int take(cli *c, int opt, const char *arg) {
  int r = cli_take_grid(c, opt, arg);
  return r ? r : cli_take_format_output(c, opt, arg);
}

static const struct option sweep_opts[] = {{"grid", required_argument, 0, 'g'},
                                           {"format", required_argument, 0, 'f'},
                                           {"output", required_argument, 0, 'o'},
                                           CLI_GRID_RUN_LONGOPTS,
                                           CLI_ENGINE_LONGOPTS,
                                           {0, 0, 0, 0}};

int cmd_sweep(cli *c, int argc, char **argv) {
  int rc = cli_parse_options(c, argc, argv, "sweep", sweep_help, sweep_opts, "g:f:o:" CLI_ENGINE_SHORTOPTS, take);
  if (rc >= 0)
    return rc;
  if (argc - optind < 2)
    return cli_usage_error("sweep", "expected FILE and at least one ALGO");
  if (c->o.ngrids == 0)
    return cli_usage_error("sweep", "no --grid axis given");
  rows_format format = ROWS_CSV;
  if (c->o.format && !rows_format_parse(c->o.format, &format))
    return cli_usage_error("sweep", "--format takes csv, json, table or npy, not '%s'",
                           c->o.format);

  size_t nalgo = (size_t)(argc - optind - 1);
  char **algos = argv + optind + 1;
  tlop_env *env = NULL;
  tlop_platform *pf = NULL;
  tlop_expr **exprs = calloc(nalgo, sizeof *exprs);
  cli_grid g = {0};
  cli_evaluator ev = {0};
  rows_writer w = {0};
  const char **names = NULL;
  tlop_kind *kinds = NULL;
  rc = EXIT_INPUT;
  tlop_model *m = cli_load(c, argv[optind]);
  if (!m || !(env = cli_env(c, m)) || !(pf = cli_platform(c, m)) ||
      !cli_grid_parse(c, m, env, algos, nalgo, &g))
    goto done;
  for (size_t a = 0; a < nalgo; a++) {
    size_t np;
    if (!tlop_algorithm_params(m, algos[a], &np)) {
      fprintf(stderr, "tlop sweep: '%s' is not an algorithm of %s\n", algos[a], argv[optind]);
      goto done;
    }
    if (!(exprs[a] = cli_expr(c, m, algos[a], env, false)))
      goto done;
  }
  /* the columns: the axes, then the algorithms */
  names = calloc(g.naxes + nalgo, sizeof *names);
  kinds = calloc(g.naxes + nalgo, sizeof *kinds);
  if (!names || !kinds)
    abort();
  for (size_t j = 0; j < g.naxes + nalgo; j++) {
    names[j] = j < g.naxes ? g.names[j] : algos[j - g.naxes];
    kinds[j] = j < g.naxes ? g.axes[j].kind : tlop_expr_kind(exprs[j - g.naxes]);
    for (size_t i = 0; i < j && format == ROWS_NPY; i++)
      if (!strcmp(names[i], names[j])) {
        cli_misuse(c, "--format npy needs distinct column names: '%s' is twice", names[j]);
        goto done;
      }
  }
  if (!cli_check_sets(c, m, &(cli_set_users){algos, exprs, nalgo, NULL, 0}) ||
      !cli_evaluator_open(c, &ev, algos, exprs, nalgo, pf, env, &g))
    goto done;
  rows_open(&w, format, names, kinds, g.naxes, nalgo);
  cli_progress prog;
  cli_progress_start(c, &prog, g.npts);
  tlop_ctx_set_diag(c->ctx, cli_progress_diag, &prog);
  bool streamed = sweep_stream(c, &g, &ev, nalgo, &w, &prog);
  tlop_ctx_set_diag(c->ctx, cli_print_diag, NULL);
  cli_progress_break(&prog);
  if (w.out && w.out != stdout && fclose(w.out) != 0 && streamed) {
    fprintf(stderr, "tlop sweep: cannot write '%s': %s\n", c->o.output, strerror(errno));
    streamed = false;
  }
  if (streamed)
    rc = EXIT_OK;
done:
  if (rc != EXIT_OK)
    rc = cli_failed(c);
  free(names);
  free(kinds);
  cli_grid_close(&g);
  free(exprs);
  cli_evaluator_close(c, &ev);
  tlop_env_free(env);
  tlop_platform_free(pf);
  return rc;
}
