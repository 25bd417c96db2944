/* cmd_plot.c — `tlop plot`: the cost of algorithms against the message size, log–log, one line
 * each (--grid m=…); with --map, the cheapest algorithm at every (m, P) of the grid, as
 * `tlop best` decides it. Costs come from the grid and engine of sweep (grid.c), the
 * figure from gnuplot (gnuplot.c). */
#include "cli.h"
#include "tlop_best.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char plot_help[] =
    "usage: tlop plot [OPTION]... FILE ALGO... --grid m=AXIS -o FIGURE.svg|png\n"
    "       tlop plot [OPTION]... FILE ALGO... --map --grid m=AXIS --grid P=AXIS -o FIGURE\n"
    "Draw the cost of each ALGO against the message size m, log–log, one line each (other\n"
    "parameters: --set), or with --map the cheapest ALGO at every (m, P) of the grid (ties\n"
    "within 1% go to the ALGO named first). gnuplot draws; the extension picks SVG or "
    "PNG.\n\n" COMMON_HELP
    "  -g, --grid NAME=AXIS   the m axis (and the P axis with --map; without it also\n"
    "                         M, a line per node count)\n"
    "      --map              the best-algorithm map over (m, P)\n"
    "  -o, --output FILE      the figure, .svg or .png (required)\n" HELP_GRID_RUN HELP_ENGINE;

static bool draw_map;

static int take(cli *c, int opt, const char *arg) {
  int r = cli_take_grid(c, opt, arg);
  if (r)
    return r;
  if (opt == 'm') {
    draw_map = true;
    return 1;
  }
  return opt == 'o' ? cli_take_format_output(c, opt, arg) : 0;
}

static const struct option plot_opts[] = {{"grid", required_argument, 0, 'g'},
                                          {"map", no_argument, 0, 'm'},
                                          {"output", required_argument, 0, 'o'},
                                          CLI_GRID_RUN_LONGOPTS,
                                          CLI_ENGINE_LONGOPTS,
                                          {0, 0, 0, 0}};

/* The time unit that shows the largest cost with few digits. */
static double time_unit(const double *v, size_t n, const char **name) {
  double hi = 0;
  for (size_t i = 0; i < n; i++)
    if (isfinite(v[i]))
      hi = fmax(hi, v[i]);
  *name = hi < 1e-3 ? "µs" : hi < 1 ? "ms" : "s";
  return hi < 1e-3 ? 1e6 : hi < 1 ? 1e3 : 1;
}

/* The title: the algorithms drawn (the first four, and how many more), and below
 * them the platform, its tables and the values fixed by --set. */
static void plot_title(cli *c, FILE *g, char **algos, size_t nalgo, const tlop_platform *pf) {
  char *text = NULL;
  size_t len = 0;
  FILE *t = open_memstream(&text, &len);
  if (!t)
    abort();
  for (size_t a = 0; a < nalgo && a < 4; a++)
    fprintf(t, "%s%s", a ? ", " : "", algos[a]);
  if (nalgo > 4)
    fprintf(t, " and %zu more", nalgo - 4);
  fprintf(t, "\non %s", tlop_platform_name(pf));
  for (size_t i = 0; i < c->o.nparams; i++)
    fprintf(t, "%s%s", i ? ", " : " with ", c->o.params[i]);
  for (size_t i = 0; i < c->o.nsets; i++)
    fprintf(t, "%s%s", i ? ", " : "; ", c->o.sets[i]);
  fclose(t);
  fputs("set title ", g);
  gp_lines(g, text);
  fputs(" noenhanced\n", g);
  free(text);
}

/* The marks of the lines, one per line in turn: characters, which gnuplot draws as text in
 * SVG as in PNG (its own point symbols are SVG <use> references some viewers leave out). */
static const char *const marks[] = {"□", "■", "○", "●", "△", "▲", "▽", "▼", "◇", "◆"};

/* One line per algorithm, and per node count when the grid has an M axis before m (a data
 * block for each M). */
static void costs_figure(FILE *g, const cli_grid *grid, char **algos, size_t nalgo,
                         const double *res) {
  const tlop_axis *m = &grid->axes[grid->naxes - 1];
  const tlop_axis *nodes = grid->naxes > 1 ? &grid->axes[0] : NULL;
  size_t nblocks = nodes ? nodes->count : 1;
  const char *unit;
  double scale = time_unit(res, nalgo * grid->npts, &unit);
  fprintf(g,
          "set logscale x 2\nset logscale y 10\nset format y '%%g'\n"
          "set xlabel 'message size m'\nset ylabel 'cost (%s)'\n"
          "set key top left noenhanced\nset grid\n",
          unit);
  gp_size_tics(g, "x", m->values[0], m->values[m->count - 1], PLOT_SIZE_SPANS);
  for (size_t k = 0; k < nblocks; k++) {
    fprintf(g, "$costs%zu << EOD\n", k);
    for (size_t i = k * m->count; i < (k + 1) * m->count; i++) {
      fprintf(g, "%.17g", grid->pts[i * grid->naxes + grid->naxes - 1]);
      for (size_t a = 0; a < nalgo; a++)
        fprintf(g, " %.9g", isfinite(res[a * grid->npts + i]) && res[a * grid->npts + i] > 0
                                ? res[a * grid->npts + i] * scale : NAN);
      fputc('\n', g);
    }
    fputs("EOD\n", g);
  }
  fputs("plot ", g);
  for (size_t k = 0; k < nblocks; k++)
    for (size_t a = 0; a < nalgo; a++) {
      fprintf(g, "%s$costs%zu using 1:%zu with linespoints lw 2 pt '%s' title ",
              k || a ? ", " : "", k, a + 2, marks[(k * nalgo + a) % (sizeof marks / sizeof *marks)]);
      char title[256];
      snprintf(title, sizeof title, nodes ? "%s, M = %.0f" : "%s", algos[a],
               nodes ? nodes->values[k] : 0);
      gp_str(g, title);
    }
  fputc('\n', g);
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The cell of each value v[i] of an axis drawn on a log scale, [lo[i], hi[i]]: from the
 * geometric mean with the next value below to that with the next above; at an end, as
 * wide on its outer side as on its inner one (an axis of one value: a factor 2 each way). */
static void log_cells(const tlop_axis *ax, double *lo, double *hi) {
  size_t n = ax->count;
  double *sorted = malloc(n * sizeof *sorted);
  if (!sorted)
    abort();
  memcpy(sorted, ax->values, n * sizeof *sorted);
  qsort(sorted, n, sizeof *sorted, by_value);
  for (size_t i = 0; i < n; i++) {
    const double *at = bsearch(&ax->values[i], sorted, n, sizeof *sorted, by_value);
    size_t j = (size_t)(at - sorted);
    double below = j > 0 ? sqrt(sorted[j - 1] * sorted[j]) : 0;
    double above = j + 1 < n ? sqrt(sorted[j] * sorted[j + 1]) : 0;
    double v = sorted[j];
    lo[i] = below ? below : above ? v * v / above : v / 2;
    hi[i] = above ? above : below ? v * v / below : v * 2;
  }
  free(sorted);
}

/* Each algorithm's region, filled: the cells (log_cells) of the grid points it wins, a run
 * of them along m one rectangle; a series per algorithm that wins somewhere (the legend
 * lists no algorithm that never wins). */
static void map_figure(FILE *g, const cli_grid *grid, char **algos, size_t nalgo,
                       const double *res) {
  const tlop_axis *P = &grid->axes[0], *m = &grid->axes[1];
  fputs("set logscale x 2\nset logscale y 2\nset xlabel 'message size m'\n"
        "set ylabel 'processes P'\nset key outside right noenhanced\n"
        "set style fill solid 0.75 noborder\n",
        g);
  /* the legend outside takes a third of the width: fewer labels fit under the map */
  gp_size_tics(g, "x", m->values[0], m->values[m->count - 1], PLOT_SIZE_SPANS * 2 / 3);
  double *cells = malloc(2 * (P->count + m->count) * sizeof *cells);
  size_t *winner = malloc(grid->npts * sizeof *winner), *wins = calloc(nalgo, sizeof *wins);
  if (!cells || !winner || !wins)
    abort();
  double *P_lo = cells, *P_hi = P_lo + P->count, *m_lo = P_hi + P->count, *m_hi = m_lo + m->count;
  log_cells(P, P_lo, P_hi);
  log_cells(m, m_lo, m_hi);
  fprintf(g, "set yrange [%.17g:%.17g]\n", P_lo[0] < P_lo[P->count - 1] ? P_lo[0] : P_lo[P->count - 1],
          P_hi[0] > P_hi[P->count - 1] ? P_hi[0] : P_hi[P->count - 1]);
  for (size_t i = 0; i < grid->npts; i++) /* some candidate evaluates at every point */
    wins[winner[i] = tlop_best_pick(res + i, nalgo, grid->npts, 0.01, NULL, NULL)]++;
  for (size_t a = 0; a < nalgo; a++) {
    fprintf(g, "$wins%zu << EOD\n", a);
    for (size_t p = 0; p < P->count; p++)
      for (size_t j = 0, end; j < m->count; j = end) {
        for (end = j + 1; end < m->count && winner[p * m->count + end] == winner[p * m->count + j];)
          end++;
        if (winner[p * m->count + j] == a) /* x, y, the x range, the y range */
          fprintf(g, "%.17g %.17g %.17g %.17g %.17g %.17g\n", sqrt(m_lo[j] * m_hi[end - 1]),
                  P->values[p], m_lo[j], m_hi[end - 1], P_lo[p], P_hi[p]);
      }
    fprintf(g, "EOD\n");
  }
  fputs("plot ", g);
  for (size_t a = 0, drawn = 0; a < nalgo; a++) {
    if (!wins[a])
      continue;
    /* the line type (colour) of the algorithm's place: the same as when all of them win */
    fprintf(g, "%s$wins%zu using 1:2:3:4:5:6 with boxxyerror lt %zu title ", drawn++ ? ", " : "",
            a, a + 1);
    gp_str(g, algos[a]);
  }
  fputc('\n', g);
  free(cells);
  free(winner);
  free(wins);
}

/* Whether the grid is m alone, or M and m (put in that order). */
static bool costs_axes(cli *c) {
  const char **gr = c->o.grids;
  if (c->o.ngrids == 2 && !strncmp(gr[0], "m=", 2)) {
    const char *t = gr[0];
    gr[0] = gr[1];
    gr[1] = t;
  }
  return (c->o.ngrids == 1 || (c->o.ngrids == 2 && !strncmp(gr[0], "M=", 2))) &&
         !strncmp(gr[c->o.ngrids - 1], "m=", 2);
}

int cmd_plot(cli *c, int argc, char **argv) {
  draw_map = false;
  int rc = cli_parse_options(c, argc, argv, "plot", plot_help, plot_opts,
                             "g:o:" CLI_ENGINE_SHORTOPTS, take);
  if (rc >= 0)
    return rc;
  if (argc - optind < 2)
    return cli_usage_error("plot", "expected FILE and at least one ALGO");
  if (!c->o.output)
    return cli_usage_error("plot", "-o FIGURE.svg or .png is required");
  if (!gp_output_ok("plot", c->o.output))
    return EXIT_INPUT;
  /* the costs figure has the axis m, and M (node counts, a line each) before it; the map
   * has P then m */
  if (draw_map ? !cli_grid_p_then_m(c) : !costs_axes(c))
    return cli_usage_error("plot", draw_map ? "--map takes the axes --grid m=… and --grid P=…"
                                            : "a plot takes the axis --grid m=…, and --grid M=… "
                                              "for a line per node count (others: --set)");
  size_t nalgo = (size_t)(argc - optind - 1);
  char **algos = argv + optind + 1;
  tlop_env *env = NULL;
  tlop_platform *pf = NULL;
  tlop_expr **exprs = calloc(nalgo, sizeof *exprs);
  double *res = NULL;
  char **refused = NULL; /* an algorithm left out at the points it refuses, said once */
  cli_grid g = {0};
  cli_evaluator ev = {0};
  FILE *fig = NULL;
  rc = EXIT_INPUT;
  tlop_model *m = cli_load(c, argv[optind]);
  if (!m || !(env = cli_env(c, m)) || !(pf = cli_platform(c, m)) ||
      !cli_grid_open(c, m, env, algos, nalgo, &g))
    goto done;
  res = malloc(nalgo * g.npts * sizeof *res);
  refused = calloc(nalgo, sizeof *refused);
  if (!res || !refused ||
      !cli_grid_costs_skipping(c, m, argv[optind], algos, nalgo, pf, env, &g, exprs, &ev, res,
                               refused))
    goto done;
  for (size_t a = 0; a < nalgo; a++) {
    size_t points = 0;
    for (size_t i = 0; refused[a] && i < g.npts; i++)
      points += isinf(res[a * g.npts + i]) != 0;
    if (refused[a])
      fprintf(stderr, "tlop plot: %s left out at %zu of %zu grid points: %s\n", algos[a],
              points, g.npts, refused[a]);
  }
  if (!(fig = gp_open("plot", c->o.output)))
    goto done;
  plot_title(c, fig, algos, nalgo, pf);
  (draw_map ? map_figure : costs_figure)(fig, &g, algos, nalgo, res);
  if (gp_close(fig, "plot", c->o.output))
    rc = EXIT_OK;
done:
  if (rc != EXIT_OK)
    rc = cli_failed(c);
  cli_grid_close(&g);
  cli_evaluator_close(c, &ev);
  free(exprs);
  free(res);
  for (size_t a = 0; refused && a < nalgo; a++)
    free(refused[a]);
  free(refused);
  tlop_env_free(env);
  tlop_platform_free(pf);
  return rc;
}
