/* cmd_best.c — `tlop best`: the cheapest algorithm of a collective at every (m, P) of a grid, as
 * a table of runs and crossovers, optionally written as an MPI library's tuning file (read
 * back by its linter and checked point by point); `tlop lint`: that linter on any file.
 * The deciding and the formats are libtlop's (tlop_best.h); this file prints. */
#include "cli.h"
#include "tlop_best.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char best_help[] =
    "usage: tlop best [OPTION]... FILE --collective NAME [ALGO]... --grid m=AXIS --grid P=AXIS\n"
    "The cheapest algorithm at every point of the grid, runs of equal winners along m per\n"
    "P, and the margin to the runner-up. Candidates: the ALGOs, or every algorithm of the\n"
    "collective that the catalogue (stdlib/catalog.txt) lists and FILE defines (with\n"
    "--emit, those the library has).\n\n" COMMON_HELP
    "  -c, --collective LIST  bcast, allreduce, allgather, …, comma-separated, or all\n"
    "                         (those FILE defines): a table each, one file for all\n"
    "  -g, --grid NAME=AXIS   the m axis and the P axis, and optionally M (node counts):\n"
    "                         a decision for each (other values: --set)\n"
    "      --tie PCT          a candidate this close to the cheapest (default 1%) wins if it\n"
    "                         comes earlier in the catalogue, which lists simpler first\n"
    "      --refine           locate each crossover between grid points by bisection\n"
    "      --emit FORMAT      also write a tuning file: ompi-rules (Open MPI coll_tuned,\n"
    "                         rule-file-version-2), ompi-rules-v1 (Open MPI 4.1),\n"
    "                         ompi-json (Open MPI's JSON rules, newer than 5.0),\n"
    "                         mpich-json (MPICH 4.0 CSEL) or impi (Intel MPI's\n"
    "                         I_MPI_ADJUST_<COLL> string); it is linted and read back\n"
    "                         (the same winner at every grid point) before it is written\n"
    "      --ranks DIST       with --emit ompi-json: the comm_rank_distribution the file\n"
    "                         is for (any, single_node, one_per_node; default any); the\n"
    "                         models have no mapping, so this only labels the runs\n"
    "      --mpich-version V  mpich-json: the release whose own decisions fill the\n"
    "                         collectives not tuned (default " TLOP_MPICH_VERSION ")\n"
    "  -o, --output FILE      where --emit writes (required with --emit)\n"
    "      --catalog FILE     another catalogue than the stdlib's\n" HELP_GRID_RUN HELP_ENGINE;

static const char lint_help[] =
    "usage: tlop lint --format FORMAT [--collective NAME] FILE\n"
    "Read FILE as the MPI library reads it and report, as FILE:LINE:COL, everything it\n"
    "would reject, misread or silently ignore. Formats: ompi-rules (Open MPI coll_tuned,\n"
    "rule-file-version-2, Open MPI 5), ompi-rules-v1 (Open MPI 4.1), ompi-json (Open\n"
    "MPI's JSON rules, read by its main branch, newer than 5.0), mpich-json (MPICH\n"
    "4.0's collective selection JSON, MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE) and impi\n"
    "(Intel MPI's I_MPI_ADJUST_<COLL>=\"ID:l-m@p-q;…\" assignment).\n\n"
    "  -f, --format FORMAT    the file's format\n"
    "  -c, --collective NAME  the collective whose rules to read (default bcast)\n"
    "      --mpich-version V  mpich-json: the release the file is for (default " TLOP_MPICH_VERSION
    ")\n"
    "      --catalog FILE     another catalogue than the stdlib's\n" HELP_MEMORY HELP_HELP;

/* The format named; a usage error otherwise, saying why for MPICH's two lower levels. */
static bool format_arg(const char *cmd, const char *opt, const char *name, tlop_tuning_format *f) {
  if (name && tlop_tuning_format_parse(name, f) == TLOP_OK)
    return true;
  if (name && (!strcmp(name, "mpich-ch4-json") || !strcmp(name, "mpich-posix-json")))
    cli_usage_error(cmd,
                    "tlop writes and checks MPICH's MPIR-level tree only (mpich-json, for "
                    "MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE), not the %s-level one "
                    "(MPIR_CVAR_CH4_%sCOLL_SELECTION_TUNING_JSON_FILE): leave that variable "
                    "unset and MPICH keeps its own tree there",
                    name[6] == 'c' ? "CH4" : "POSIX", name[6] == 'c' ? "" : "POSIX_");
  else
    cli_usage_error(cmd, "%s takes ompi-rules, ompi-rules-v1, ompi-json, mpich-json or impi%s%s%s",
                    opt, name ? ", not '" : "", name ? name : "", name ? "'" : "");
  return false;
}

/* --mpich-version has no short form, and its letter would be taken by the shared
 * options' --max-print ('V'), which the shared handler sees first. */
enum { OPT_MPICH_VERSION = 256 };

typedef struct best_opts {
  const char *collective, *emit, *catalog, *mpich_version;
  char *collective_list; /* best: a copy of --collective cut at its commas */
  const char *nodes;     /* best: the --grid M=… axis, a decision for each node count */
  double tie;
  bool refine;
  tlop_ranks ranks;
} best_opts;

static best_opts bo;

static int take(cli *c, int opt, const char *arg) {
  int r = cli_take_grid(c, opt, arg);
  if (r)
    return r;
  switch (opt) {
  case 'c':
    bo.collective = arg;
    return 1;
  case 'e':
    bo.emit = arg;
    return 1;
  case 'K':
    bo.catalog = arg;
    return 1;
  case OPT_MPICH_VERSION:
    bo.mpich_version = arg;
    return 1;
  case 'F':
    bo.refine = true;
    return 1;
  case 'r':
    if (tlop_ranks_parse(arg, &bo.ranks) != TLOP_OK) {
      cli_usage_error(c->cmd, "--ranks takes any, single_node or one_per_node, not '%s'", arg);
      return -1;
    }
    return 1;
  case 't': {
    char *end;
    errno = 0;
    double v = strtod(arg, &end);
    if (*end == '%')
      end++;
    if (*end || errno || !(v >= 0) || v >= 100) {
      cli_usage_error(c->cmd, "--tie takes a percentage from 0 to 100 (1%%), not '%s'", arg);
      return -1;
    }
    bo.tie = v / 100;
    return 1;
  }
  }
  return cli_take_format_output(c, opt, arg);
}

static const struct option best_opts_long[] = {{"grid", required_argument, 0, 'g'},
                                               {"collective", required_argument, 0, 'c'},
                                               {"tie", required_argument, 0, 't'},
                                               {"refine", no_argument, 0, 'F'},
                                               {"ranks", required_argument, 0, 'r'},
                                               CLI_GRID_RUN_LONGOPTS,
                                               {"emit", required_argument, 0, 'e'},
                                               {"catalog", required_argument, 0, 'K'},
                                               {"mpich-version", required_argument, 0, OPT_MPICH_VERSION},
                                               {"output", required_argument, 0, 'o'},
                                               {"format", required_argument, 0, 'f'},
                                               CLI_ENGINE_LONGOPTS,
                                               {0, 0, 0, 0}};

/* The ALGOs given, else the catalogue's algorithms of the collective that the model has;
 * with --emit, only those the format's library has (the others are named on stderr). */
static char **candidates(tlop_model *m, const tlop_catalog *cat, const char *coll, char **given,
                         size_t ngiven, const tlop_tuning_format *emit, size_t *n) {
  if (ngiven) {
    *n = ngiven;
    return given;
  }
  const tlop_catalog_entry *es;
  size_t ne = tlop_catalog_entries(cat, &es), np;
  char **names = calloc(ne ? ne : 1, sizeof *names);
  *n = 0;
  for (size_t i = 0; i < ne; i++) {
    if (strcmp(es[i].collective, coll) || !tlop_algorithm_params(m, es[i].algorithm, &np))
      continue;
    if (emit && !tlop_tuning_names(&es[i], *emit))
      fprintf(stderr, "tlop best: %s has no algorithm in %s: left out of the candidates\n",
              es[i].algorithm, tlop_tuning_library(*emit));
    else
      names[(*n)++] = (char *)es[i].algorithm;
  }
  return names;
}

typedef struct refine_ctx {
  const cli_evaluator *ev;
  size_t ncand;
  char *const *refused;
  cli_refusals *quiet;
} refine_ctx;

static tlop_status cost_at(void *user, double m, double P, double *costs) {
  const refine_ctx *r = user;
  double pt[2] = {P, m};
  bool any = false;
  for (size_t a = 0; a < r->ncand; a++) {
    r->quiet->quiet = r->refused[a] != NULL;
    tlop_status st = cli_evaluator_run(r->ev, a, pt, 1, &costs[a]);
    r->quiet->quiet = false;
    if (st != TLOP_OK && !r->refused[a])
      return st;
    if (st != TLOP_OK)
      costs[a] = INFINITY;
    else
      any = true;
  }
  return any ? TLOP_OK : TLOP_ERR_EVAL;
}

static void print_table(const char *coll, double nodes, const tlop_decision *d, char **names,
                        size_t ncand, bool given, const cli_grid *g, const char *platform) {
  printf("best %s on %s", coll, platform);
  if (!isnan(nodes))
    printf(", M = %.0f node%s", nodes, nodes == 1 ? "" : "s");
  printf(": %zu candidate%s, %zu × %zu grid points\n", ncand, ncand == 1 ? "" : "s",
         g->axes[1].count, g->axes[0].count);
  printf("tie rule: a candidate within %g%% of the cheapest loses to one listed before it "
         "(%s:",
         bo.tie * 100, given ? "the order given" : "catalogue order, simplest first");
  for (size_t a = 0; a < ncand; a++)
    printf(" %s", names[a]);
  printf(")\n");
  /* said where it matters: a run whose runner-up costs what its winner does */
  for (size_t r = 0; r < d->nranges; r++)
    if (d->ranges[r].runner_up != d->ranges[r].winner && fabs(d->ranges[r].margin_min) <= 1e-12) {
      printf("equal costs: candidates within 1e-12 (relative) of each other cost the same; of "
             "them the first listed wins, and is the runner-up (margin +0.0%%)\n");
      break;
    }
  printf("%s\n\n", bo.refine ? "crossovers refined by bisection to the byte; margins over the "
                                 "refined runs"
                               : "crossovers at grid points (--refine locates them)");
  int w = 22; /* the name columns: as wide as the longest name */
  for (size_t a = 0; a < ncand; a++)
    w = (int)strlen(names[a]) > w ? (int)strlen(names[a]) : w;
  printf("%6s  %10s  %10s  %-*s %-*s %s\n", "P", "from m", "to m", w, "best", w, "runner-up",
         "margin (runner-up / best - 1)");
  for (size_t r = 0; r < d->nranges; r++) {
    const tlop_best_range *x = &d->ranges[r];
    char from[32], to[32], pcol[32] = "";
    tlop_format_size(from, sizeof from, x->m_from);
    bool last = r + 1 == d->nranges || d->ranges[r + 1].P != x->P;
    /* unrefined, a run ends at its last grid point: the crossover lies somewhere after */
    if (last)
      snprintf(to, sizeof to, "…");
    else
      tlop_format_size(to, sizeof to, bo.refine ? d->ranges[r + 1].m_from - 1 : x->m_last);
    if (r == 0 || d->ranges[r - 1].P != x->P)
      snprintf(pcol, sizeof pcol, "%.0f", x->P);
    printf("%6s  %10s  %*s%s  %-*s ", pcol, from, cli_room(10, to), "", to, w,
           names[x->winner]);
    if (x->runner_up == x->winner)
      printf("%-*s %s\n", w, "-", "-");
    else
      printf("%-*s %+.1f%% .. %+.1f%%%s\n", w, names[x->runner_up], x->margin_min * 100,
             x->margin_max * 100, x->by_tie ? " (tie rule)" : "");
  }
}

/* One collective's run: its candidates, their costs on the grid, the decision. */
typedef struct run {
  const char *coll;
  double nodes; /* M of this run (--grid M=…), NAN without such an axis */
  char **names;
  size_t ncand;
  cli_grid g;
  cli_evaluator ev;
  tlop_expr **exprs;
  double *costs;
  char **refused; /* why candidates were left out somewhere (cli_grid_costs_skipping) */
  tlop_decision *d;
  const tlop_catalog_entry **cands;
} run;

/* The candidates left out where they do not evaluate: once each, after the table, with the
 * values of P at which they were and the first reason. */
static void print_refusals(const run *u) {
  const cli_grid *g = &u->g;
  size_t nm = g->axes[1].count;
  for (size_t a = 0; a < u->ncand; a++) {
    if (!u->refused[a])
      continue;
    size_t points = 0;
    printf("left out: %s at P =", u->names[a]);
    for (size_t p = 0, listed = 0; p < g->axes[0].count; p++) {
      size_t here = 0;
      for (size_t i = 0; i < nm; i++)
        here += isinf(u->costs[a * g->npts + p * nm + i]) != 0;
      if (here)
        printf("%s %.0f", listed++ ? "," : "", g->axes[0].values[p]);
      points += here;
    }
    printf(" (%zu of %zu points): %s\n", points, g->npts, u->refused[a]);
  }
}

/* The tuning file: written, read back by its linter, and checked to give each decision's
 * winner at every grid point, before it reaches the disk. */
static bool emit(cli *c, const tlop_catalog *cat, run *runs, size_t nruns, tlop_tuning_format f) {
  tlop_tuning_part *parts = calloc(nruns, sizeof *parts);
  bool ok = true;
  for (size_t k = 0; k < nruns; k++) {
    run *u = &runs[k];
    u->cands = calloc(u->ncand, sizeof *u->cands);
    for (size_t a = 0; a < u->ncand; a++)
      u->cands[a] = tlop_catalog_find(cat, u->coll, u->names[a]);
    for (size_t r = 0; ok && r < u->d->nranges; r++) {
      const tlop_best_range *x = &u->d->ranges[r];
      if (!tlop_tuning_names(u->cands[x->winner], f)) {
        fprintf(stderr,
                "tlop best: %s wins at P = %.0f from m = %.0f B, but the catalogue gives "
                "it no name in %s: no file written\n",
                u->names[x->winner], x->P, x->m_from, bo.emit);
        ok = false;
      }
    }
    parts[k] = (tlop_tuning_part){u->coll, u->d, u->cands};
  }
  char *text = NULL;
  tlop_tuning_target to = {f, bo.ranks, bo.mpich_version};
  ok = ok && tlop_tuning_write(c->ctx, parts, nruns, &to, &text) == TLOP_OK;
  size_t npts = 0;
  for (size_t k = 0; ok && k < nruns; k++) {
    run *u = &runs[k];
    tlop_tuning *back = NULL;
    ok = tlop_tuning_read(c->ctx, cat, u->coll, &to, c->o.output, text, strlen(text), &back) ==
         TLOP_OK;
    for (size_t i = 0; ok && i < u->g.npts; i++) {
      double P = u->g.pts[2 * i], m = u->g.pts[2 * i + 1];
      const tlop_catalog_entry *want = u->cands[tlop_best_lookup(u->d, m, P)],
                               *got = tlop_tuning_lookup(back, m, P);
      if (!got || !tlop_tuning_same(got, want, f)) {
        fprintf(stderr,
                "tlop best: internal error: the file read back gives %s at m = %.0f, "
                "P = %.0f for %s, the decision %s\n",
                got ? got->algorithm : "nothing", m, P, u->coll, want->algorithm);
        ok = false;
      }
    }
    npts += u->g.npts;
    tlop_tuning_free(back);
  }
  FILE *out = ok ? cli_output(c) : NULL;
  if (out) {
    fputs(text, out);
    if (out != stdout)
      fclose(out);
    fprintf(stderr,
            "tlop best: wrote %s (%s), linted and read back: same winner at all %zu "
            "points%s\n",
            c->o.output, bo.emit, npts, nruns > 1 ? " of its collectives" : "");
  }
  free(text);
  free(parts);
  return out != NULL;
}

/* The collectives of --collective: a comma-separated list, or "all": every collective the
 * catalogue lists an algorithm of that the model defines. */
static const char **collectives(tlop_model *m, const tlop_catalog *cat, size_t *n) {
  const tlop_catalog_entry *es;
  size_t ne = tlop_catalog_entries(cat, &es), np;
  const char **list = calloc(ne + strlen(bo.collective) + 1, sizeof *list);
  *n = 0;
  if (!strcmp(bo.collective, "all")) {
    for (size_t i = 0; i < ne; i++) {
      bool seen = false;
      for (size_t k = 0; k < *n; k++)
        seen |= !strcmp(list[k], es[i].collective);
      if (!seen && tlop_algorithm_params(m, es[i].algorithm, &np))
        list[(*n)++] = es[i].collective;
    }
    return list;
  }
  for (char *p = bo.collective_list; p && *p;) {
    list[(*n)++] = p;
    p = strchr(p, ',');
    if (p)
      *p++ = 0;
  }
  return list;
}

/* One collective: candidates, costs, decision, table; 0 after a message, -1 when
 * --collective all leaves it out (none of its candidates is the library's). */
static int decide(cli *c, tlop_model *m, const char *file, const tlop_catalog *cat,
                  tlop_env *env, tlop_platform *pf, char **given, size_t ngiven,
                  const tlop_tuning_format *format, run *u) {
  u->names = candidates(m, cat, u->coll, given, ngiven, format, &u->ncand);
  if (!u->ncand && format && !strcmp(bo.collective, "all")) {
    fprintf(stderr, "tlop best: %s left out of --collective all: %s has none of its algorithms\n",
            u->coll, tlop_tuning_library(*format));
    return -1;
  }
  if (!u->ncand) {
    fprintf(stderr, "tlop best: the catalogue lists no algorithm of '%s' that %s defines\n",
            u->coll, file);
    return 0;
  }
  if (!cli_grid_open(c, m, env, u->names, u->ncand, &u->g))
    return 0;
  u->exprs = calloc(u->ncand, sizeof *u->exprs);
  u->costs = malloc(u->ncand * u->g.npts * sizeof *u->costs);
  u->refused = calloc(u->ncand, sizeof *u->refused);
  if (!u->exprs || !u->costs || !u->refused ||
      !cli_grid_costs_skipping(c, m, file, u->names, u->ncand, pf, env, &u->g, u->exprs, &u->ev,
                           u->costs, u->refused) ||
      tlop_best_decide(u->g.axes[1].values, u->g.axes[1].count, u->g.axes[0].values,
                       u->g.axes[0].count, u->costs, u->ncand, bo.tie, &u->d) != TLOP_OK)
    return 0;
  if (bo.refine) {
    /* the grid's evaluation has already warned of whatever a table extrapolates between
     * its points, and left out a candidate refused somewhere (again at +inf here) */
    cli_refusals quiet = {false, NULL, false, NULL};
    refine_ctx rctx = {&u->ev, u->ncand, u->refused, &quiet};
    tlop_ctx_set_diag(c->ctx, cli_print_errors, &quiet);
    tlop_status st = tlop_best_refine(u->d, bo.tie, cost_at, &rctx);
    tlop_ctx_set_diag(c->ctx, cli_print_diag, NULL);
    if (st != TLOP_OK)
      return 0;
  }
  char *label = cli_platform_label(c, pf);
  print_table(u->coll, u->nodes, u->d, u->names, u->ncand, ngiven > 0, &u->g,
              label ? label : tlop_platform_name(pf));
  print_refusals(u);
  free(label);
  return 1;
}

static void run_free(cli *c, run *u, char **given) {
  cli_grid_close(&u->g);
  cli_evaluator_close(c, &u->ev);
  if (u->names != given)
    free(u->names);
  free(u->exprs);
  free(u->costs);
  for (size_t i = 0; u->refused && i < u->ncand; i++)
    free(u->refused[i]);
  free(u->refused);
  free(u->cands);
  tlop_decision_free(u->d);
}

/* With several collectives: one line each, the runs and crossovers the tables show. */
static void print_summary(const run *runs, size_t n) {
  printf("\nsummary: %zu %s\n", n,
         isnan(runs[0].nodes) ? "collectives" : "decisions (collective, M)");
  for (size_t k = 0; k < n; k++) {
    const tlop_decision *d = runs[k].d;
    size_t nP = 0, crossovers = 0; /* a crossover changes the winner, not the runner-up */
    for (size_t r = 0; r < d->nranges; r++) {
      bool new_P = r == 0 || d->ranges[r - 1].P != d->ranges[r].P;
      nP += new_P;
      crossovers += !new_P && d->ranges[r - 1].winner != d->ranges[r].winner;
    }
    char name[64];
    snprintf(name, sizeof name, isnan(runs[k].nodes) ? "%s" : "%s, M = %.0f", runs[k].coll,
             runs[k].nodes);
    printf("  %-*s %zu candidate%s, %zu run%s over %zu value%s of P, %zu crossover%s\n",
           isnan(runs[k].nodes) ? 12 : 20, name, runs[k].ncand, runs[k].ncand == 1 ? "" : "s",
           d->nranges, d->nranges == 1 ? "" : "s", nP, nP == 1 ? "" : "s", crossovers,
           crossovers == 1 ? "" : "s");
  }
}

int cmd_best(cli *c, int argc, char **argv) {
  bo = (best_opts){.tie = 0.01};
  int rc = cli_parse_options(c, argc, argv, "best", best_help, best_opts_long,
                             "g:c:o:f:" CLI_ENGINE_SHORTOPTS, take);
  if (rc >= 0)
    return rc;
  if (argc - optind < 1)
    return cli_usage_error("best", "expected FILE");
  if (!bo.collective)
    return cli_usage_error("best", "--collective NAME is required");
  bo.collective_list = strcmp(bo.collective, "all") ? strdup(bo.collective) : NULL;
  tlop_tuning_format format = TLOP_TUNING_OMPI_RULES;
  if (bo.emit && !format_arg("best", "--emit", bo.emit, &format))
    return EXIT_USAGE;
  if (bo.ranks != TLOP_RANKS_ANY && (!bo.emit || format != TLOP_TUNING_OMPI_JSON))
    return cli_usage_error("best", "--ranks applies to --emit ompi-json only: the other formats "
                                   "have no rank-distribution condition");
  if (bo.emit && !c->o.output)
    return cli_usage_error("best", "--emit needs -o FILE");
  if (c->o.format)
    return cli_usage_error("best", "option '--format' does not apply here");
  /* --grid M=…: not a grid axis of the decision but a decision for each node count */
  for (size_t j = 0; j < c->o.ngrids; j++)
    if (!strncmp(c->o.grids[j], "M=", 2)) {
      bo.nodes = c->o.grids[j];
      c->o.grids[j] = c->o.grids[--c->o.ngrids];
      break;
    }
  if (!cli_grid_p_then_m(c))
    return cli_usage_error("best", "give the grid as two axes, --grid m=… and --grid P=… "
                                   "(and --grid M=… for node counts; other values: --set)");

  size_t ngiven = (size_t)(argc - optind - 1), nruns = 0;
  char **given = argv + optind + 1;
  tlop_catalog *cat = NULL;
  tlop_env *env = NULL;
  tlop_platform *pf = NULL;
  const char **colls = NULL;
  run *runs = NULL;
  tlop_axis nodes = {0};
  rc = EXIT_INPUT;
  tlop_model *m = cli_load(c, argv[optind]);
  if (!m || tlop_catalog_open(c->ctx, bo.catalog, &cat) != TLOP_OK || !(env = cli_env(c, m)) ||
      !(pf = cli_platform(c, m)))
    goto done;
  colls = collectives(m, cat, &nruns);
  if (!nruns) {
    fprintf(stderr, "tlop best: the catalogue lists no algorithm that %s defines\n",
            argv[optind]);
    goto done;
  }
  if (ngiven && nruns > 1) {
    fprintf(stderr, "tlop best: ALGOs name the candidates of one collective, not of %zu\n",
            nruns);
    goto done;
  }
  if (bo.nodes && tlop_axis_parse(c->ctx, bo.nodes, &nodes) != TLOP_OK) {
    c->misused = true;
    goto done;
  }
  if (bo.nodes && bo.emit && nodes.count > 1) {
    fprintf(stderr, "tlop best: a tuning file holds one decision, and %s's has no condition on "
            "the node count: give one M (--set M=…), not %zu\n",
            tlop_tuning_library(format), nodes.count);
    goto done;
  }
  size_t ncolls = nruns, total = nruns * (bo.nodes ? nodes.count : 1), kept = 0;
  runs = calloc(total, sizeof *runs);
  for (size_t k = 0; k < total; k++) {
    run *u = &runs[kept];
    *u = (run){.coll = colls[k % ncolls], .nodes = bo.nodes ? nodes.values[k / ncolls] : NAN};
    if (bo.nodes)
      tlop_env_set(env, "M", u->nodes, nodes.kind);
    if (kept)
      putchar('\n');
    int got = decide(c, m, argv[optind], cat, env, pf, given, ngiven, bo.emit ? &format : NULL, u);
    if (!got) {
      nruns = kept + 1;
      goto done;
    }
    if (got > 0)
      kept++;
    else
      run_free(c, u, given);
  }
  nruns = kept;
  if (!nruns) {
    fprintf(stderr, "tlop best: no collective of %s left to write\n", argv[optind]);
    goto done;
  }
  if (nruns > 1)
    print_summary(runs, nruns);
  if (bo.emit && !emit(c, cat, runs, nruns, format))
    goto done;
  rc = EXIT_OK;
done:
  if (rc != EXIT_OK)
    rc = cli_failed(c);
  for (size_t k = 0; runs && k < nruns; k++)
    run_free(c, &runs[k], given);
  free(runs);
  free(colls);
  free(bo.collective_list);
  tlop_catalog_free(cat);
  tlop_env_free(env);
  tlop_platform_free(pf);
  if (bo.nodes)
    tlop_axis_free(&nodes);
  return rc;
}

static const struct option lint_opts[] = {{"format", required_argument, 0, 'f'},
                                          {"collective", required_argument, 0, 'c'},
                                          {"catalog", required_argument, 0, 'K'},
                                          {"mpich-version", required_argument, 0, OPT_MPICH_VERSION},
                                          {0, 0, 0, 0}};

/* Whether the catalogue lists the collective; else says so, with those it lists. */
static bool known_collective(cli *c, const tlop_catalog *cat, const char *collective) {
  const tlop_catalog_entry *e;
  size_t n = tlop_catalog_entries(cat, &e);
  for (size_t i = 0; i < n; i++)
    if (!strcmp(e[i].collective, collective))
      return true;
  fprintf(stderr, "tlop lint: unknown collective '%s' (--collective takes", collective);
  for (size_t i = 0; i < n; i++)
    if (i == 0 || strcmp(e[i].collective, e[i - 1].collective))
      fprintf(stderr, "%s %s", i ? "," : "", e[i].collective);
  fputs(")\n", stderr);
  c->misused = true;
  return false;
}

int cmd_lint(cli *c, int argc, char **argv) {
  bo = (best_opts){.collective = "bcast"};
  cli_allow(c, "");
  int rc = cli_parse_options(c, argc, argv, "lint", lint_help, lint_opts, "f:c:", take);
  if (rc >= 0)
    return rc;
  if (argc - optind != 1)
    return cli_usage_error("lint", "expected one FILE");
  tlop_tuning_format f;
  if (!format_arg("lint", "--format", c->o.format, &f))
    return EXIT_USAGE;
  const char *path = argv[optind];
  char *text;
  size_t len;
  if (tlop_read_file(c->ctx, path, &text, &len) != TLOP_OK)
    return EXIT_INPUT;
  tlop_catalog *cat = NULL;
  tlop_tuning *t = NULL;
  rc = EXIT_INPUT;
  bool opened = tlop_catalog_open(c->ctx, bo.catalog, &cat) == TLOP_OK;
  if (opened && !known_collective(c, cat, bo.collective))
    rc = cli_failed(c);
  else if (opened &&
      tlop_tuning_read(c->ctx, cat, bo.collective,
                       &(tlop_tuning_target){f, TLOP_RANKS_ANY, bo.mpich_version}, path, text, len,
                       &t) == TLOP_OK) {
    printf("%s: a valid %s file\n", path, c->o.format);
    rc = EXIT_OK;
  }
  tlop_tuning_free(t);
  tlop_catalog_free(cat);
  free(text);
  return rc;
}
