/* cmd_sweep.c — `tlop sweep`: every algorithm at every point of a grid (the cartesian product
 * of the --grid axes, first axis outermost), as CSV, JSON or an aligned table. A progress
 * bar appears on a terminal when the sweep runs longer than a second. */
#include "cli.h"

#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char sweep_help[] =
    "usage: tlop sweep [OPTION]... FILE ALGO... --grid NAME=AXIS...\n"
    "Evaluate each algorithm ALGO of FILE at every point of the grid. An axis is\n"
    "a..b:*f (geometric), a..b:+d (arithmetic) or v1,v2,… (a list); values may carry\n"
    "units (m=1KiB..4MiB:*2). Any algorithm parameter or model parameter can be an\n"
    "axis; the others come from --set or their defaults.\n\n" COMMON_HELP
    "  -g, --grid NAME=AXIS   one axis of the grid (repeat for more)\n"
    "  -f, --format FMT       csv (default: columns NAME…,ALGO…, values in bytes and\n"
    "                         seconds), json or table\n"
    "  -o, --output FILE      write there instead of standard output\n"
    "      --no-progress      never show the progress bar\n"
    HELP_MAX_POINTS HELP_ENGINE;

static int take(cli *c, int opt, const char *arg) {
  int r = cli_take_grid(c, opt, arg);
  if (r)
    return r;
  if (opt == 'N') {
    c->o.no_progress = true;
    return 1;
  }
  return cli_take_format_output(c, opt, arg);
}

static const struct option sweep_opts[] = {{"grid", required_argument, 0, 'g'},
                                           {"format", required_argument, 0, 'f'},
                                           {"output", required_argument, 0, 'o'},
                                           {"no-progress", no_argument, 0, 'N'},
                                           CLI_GRID_LIMIT_LONGOPT,
                                           CLI_ENGINE_LONGOPTS,
                                           {0, 0, 0, 0}};

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct progress {
  bool enabled;
  double start, last;
  size_t done, total;
} progress;

static void progress_update(progress *p, size_t add) {
  p->done += add;
  if (!p->enabled)
    return;
  double t = now();
  if (t - p->start < 1 || (t - p->last < 0.1 && p->done < p->total))
    return;
  p->last = t;
  int width = 40, fill = (int)(width * (double)p->done / (double)p->total);
  fprintf(stderr, "\r[%.*s%*s] %3d%%  %zu/%zu points", fill,
          "########################################", width - fill, "",
          (int)(100.0 * (double)p->done / (double)p->total), p->done, p->total);
  if (p->done >= p->total)
    fputc('\n', stderr);
  fflush(stderr);
}

static void write_csv(FILE *out, const tlop_axis *axes, size_t naxes, char **algos, size_t nalgo,
                      const double *pts, const double *res, size_t n) {
  for (size_t j = 0; j < naxes; j++)
    fprintf(out, "%s%s", j ? "," : "", axes[j].name);
  for (size_t a = 0; a < nalgo; a++)
    fprintf(out, ",%s", algos[a]);
  fputc('\n', out);
  for (size_t i = 0; i < n; i++) {
    for (size_t j = 0; j < naxes; j++)
      fprintf(out, "%s%.17g", j ? "," : "", pts[i * naxes + j]);
    for (size_t a = 0; a < nalgo; a++)
      fprintf(out, ",%.17g", res[a * n + i]);
    fputc('\n', out);
  }
}

static void write_json(FILE *out, const tlop_axis *axes, size_t naxes, char **algos, size_t nalgo,
                       const double *pts, const double *res, size_t n) {
  fputs("[", out);
  for (size_t i = 0; i < n; i++) {
    fputs(i ? ",\n {" : "\n {", out);
    for (size_t j = 0; j < naxes; j++)
      fprintf(out, "%s\"%s\": %.17g", j ? ", " : "", axes[j].name, pts[i * naxes + j]);
    for (size_t a = 0; a < nalgo; a++)
      fprintf(out, ", \"%s\": %.17g", algos[a], res[a * n + i]);
    fputc('}', out);
  }
  fputs("\n]\n", out);
}

/* The table shows each result in its unit: a cost in time, a ratio as a number. */
static void write_table(FILE *out, const tlop_axis *axes, size_t naxes, char **algos,
                        tlop_expr *const *exprs, size_t nalgo, const double *pts,
                        const double *res, size_t n) {
  for (size_t j = 0; j < naxes; j++)
    fprintf(out, "%s%12s", j ? "  " : "", axes[j].name);
  for (size_t a = 0; a < nalgo; a++)
    fprintf(out, "  %16s", algos[a]);
  fputc('\n', out);
  for (size_t i = 0; i < n; i++) {
    char buf[64];
    for (size_t j = 0; j < naxes; j++) {
      cli_fmt_value(buf, sizeof buf, pts[i * naxes + j], axes[j].kind);
      fprintf(out, "%s%12s", j ? "  " : "", buf);
    }
    for (size_t a = 0; a < nalgo; a++) {
      cli_fmt_value(buf, sizeof buf, res[a * n + i], tlop_expr_kind(exprs[a]));
      fprintf(out, "  %16s", buf);
    }
    fputc('\n', out);
  }
}

/* Points evaluated per call, so the progress bar can move (more for compiled code, whose
 * threads each want a long run). */
#define CHUNK 4096
#define JIT_CHUNK 262144

int cmd_sweep(cli *c, int argc, char **argv) {
  int rc = cli_parse_options(c, argc, argv, "sweep", sweep_help, sweep_opts, "g:f:o:" CLI_ENGINE_SHORTOPTS, take);
  if (rc >= 0)
    return rc;
  if (argc - optind < 2)
    return cli_usage_error("sweep", "expected FILE and at least one ALGO");
  if (c->o.ngrids == 0)
    return cli_usage_error("sweep", "no --grid axis given");
  const char *fmt = c->o.format ? c->o.format : "csv";
  if (strcmp(fmt, "csv") && strcmp(fmt, "json") && strcmp(fmt, "table"))
    return cli_usage_error("sweep", "--format takes csv, json or table, not '%s'", fmt);

  size_t nalgo = (size_t)(argc - optind - 1);
  char **algos = argv + optind + 1;
  double *res = NULL;
  tlop_env *env = NULL;
  tlop_platform *pf = NULL;
  tlop_expr **exprs = calloc(nalgo, sizeof *exprs);
  cli_grid g = {0};
  cli_evaluator ev = {0};
  rc = EXIT_INPUT;
  tlop_model *m = cli_load(c, argv[optind]);
  if (!m || !(env = cli_env(c, m)) || !(pf = cli_platform(c, m)) ||
      !cli_grid_open(c, m, env, algos, nalgo, &g))
    goto done;
  if (!(res = malloc((g.npts ? g.npts : 1) * nalgo * sizeof *res))) {
    fprintf(stderr, "tlop sweep: the grid is too large for memory\n");
    goto done;
  }
  progress prog = {!c->o.no_progress && isatty(2), now(), 0, 0, g.npts * nalgo};
  for (size_t a = 0; a < nalgo; a++) {
    size_t np;
    if (!tlop_algorithm_params(m, algos[a], &np)) {
      fprintf(stderr, "tlop sweep: '%s' is not an algorithm of %s\n", algos[a], argv[optind]);
      goto done;
    }
    if (!(exprs[a] = cli_expr(c, m, algos[a], env, false)))
      goto done;
  }
  if (!cli_check_sets(c, m, algos, exprs, nalgo) || !cli_evaluator_open(c, &ev, exprs, nalgo, pf, env, &g))
    goto done;
  size_t chunk = ev.kern ? JIT_CHUNK : CHUNK;
  for (size_t a = 0; a < nalgo; a++) {
    tlop_ctx_set_warn_once(c->ctx, 1); /* the chunks of one algorithm warn as one call */
    for (size_t i = 0; i < g.npts; i += chunk) {
      size_t k = g.npts - i < chunk ? g.npts - i : chunk;
      if (cli_evaluator_run(&ev, a, g.pts + i * g.naxes, k, res + a * g.npts + i) != TLOP_OK)
        goto done;
      progress_update(&prog, k);
    }
  }
  tlop_ctx_set_warn_once(c->ctx, 0);
  FILE *out = cli_output(c);
  if (!out)
    goto done;
  if (!strcmp(fmt, "csv"))
    write_csv(out, g.axes, g.naxes, algos, nalgo, g.pts, res, g.npts);
  else if (!strcmp(fmt, "json"))
    write_json(out, g.axes, g.naxes, algos, nalgo, g.pts, res, g.npts);
  else
    write_table(out, g.axes, g.naxes, algos, exprs, nalgo, g.pts, res, g.npts);
  if (out != stdout)
    fclose(out);
  rc = EXIT_OK;
done:
  if (rc != EXIT_OK)
    rc = cli_failed(c);
  cli_grid_close(&g);
  free(res);
  free(exprs);
  cli_evaluator_close(c, &ev);
  tlop_env_free(env);
  tlop_platform_free(pf);
  return rc;
}
