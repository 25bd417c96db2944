/* cmd_measure.c — `tlop measure` (a τ-Lop table of this machine, with a progress bar and,
 * with --verbose, the estimate laid out as the paper's Fig. 18b) and `tlop validate`
 * (predictions of models against the timings of an IMB or OSU run: per-size errors, the
 * mean relative and proportional errors of each model, and a gnuplot figure). */
#include "cmd_measure.h"

#include "tlop_measure.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

/* Long options without a short form. */
enum {
  OPT_SETUP = 256, OPT_CORES, OPT_MAX_TAU, OPT_OVERSUB, OPT_SLOTS, OPT_SEG, OPT_OFF_CACHE,
  OPT_SIZES, OPT_REPS, OPT_REL_ERR, OPT_MAX_REPS, OPT_MIN_TIME, OPT_JSON, OPT_NO_PROGRESS,
  OPT_MEASURED, OPT_BENCH, OPT_PROCS, OPT_PLOT, OPT_MAX_ERROR, OPT_STAT
};

/* ---- option values ---- */

static bool parse_count(cli *c, const char *opt, const char *arg, int lo, int hi, int *out) {
  char *end;
  errno = 0;
  long v = strtol(arg, &end, 10);
  if (end == arg || *end || errno || v < lo || v > hi) {
    cli_misuse(c, "%s takes a whole number from %d to %d, not '%s'", opt, lo, hi, arg);
    return false;
  }
  *out = (int)v;
  return true;
}

/* "5%" or "0.05": a fraction. */
static bool parse_fraction(cli *c, const char *opt, const char *arg, double *out) {
  char *end;
  errno = 0;
  double v = strtod(arg, &end);
  if (end != arg && *end == '%' && !end[1]) {
    v /= 100;
    end++;
  }
  if (end == arg || *end || errno || !(v > 0) || !isfinite(v)) {
    cli_misuse(c, "%s takes a positive fraction such as 0.05 or 5%%, not '%s'", opt, arg);
    return false;
  }
  *out = v;
  return true;
}

/* A value with a unit (8KiB, 2ms) of the kind wanted; a bare number is bytes or seconds. */
static bool parse_value(cli *c, const char *opt, const char *arg, tlop_kind want, double *out) {
  tlop_kind k;
  if (tlop_value_parse(c->ctx, arg, out, &k) != TLOP_OK ||
      (k != want && k != TLOP_KIND_NUMBER) || !(*out >= 0) || !isfinite(*out)) {
    cli_misuse(c, "%s takes a %s such as %s, not '%s'", opt,
               want == TLOP_KIND_SIZE ? "size" : "time", want == TLOP_KIND_SIZE ? "8KiB" : "2ms",
               arg);
    return false;
  }
  return true;
}

/* ======================= measure ======================= */

static const char measure_help[] =
    "usage: tlop measure [OPTION]...\n"
    "Estimate L(m,τ) and o(m) on this machine and write a τ-Lop table (libtaulop text\n"
    "format, or CSV) that every command reads with --params. Threads pinned to cores\n"
    "move messages of m bytes, in segments of S bytes, through shared buffers of a few\n"
    "slots, synchronised by lock-free flags; the time l(k,τ) of a message of k segments\n"
    "gives L (τ-Lop paper, 2015, §5):\n"
    "  ring   τ threads in a ring, each pulse a copy into the buffer shared with the\n"
    "         right neighbour and one out of the left one: L(m,τ) = l(k,τ)/2 (default)\n"
    "  bcast  one writer, τ−1 readers of one buffer: L(m,τ) = l(k,τ)\n"
    "  ping   τ/2 writer-reader pairs: L(m,τ) = l(k,τ); odd τ > 1 are interpolated\n"
    "τ = 1 is one transfer alone in every set-up: two threads pass each segment there\n"
    "and back, one copy at a time, L(m,1) = l(k,1)/4. o(m) is the cost of a zero-byte\n"
    "message between the first two cores (half the round trip), the same for every m.\n"
    "Each cell is sampled (messages back to back for at least --min-time per sample)\n"
    "until the 95 % confidence interval of the median is within --rel-err, or --reps\n"
    "samples. The JSON sidecar records the machine and the spread of every cell.\n"
    "Ctrl-C stops and writes nothing.\n\n"
    "  -o, --output FILE      write the table there (when complete); default: stdout\n"
    "  -f, --format FMT       text (default: libtaulop) or csv\n"
    "      --json FILE        machine, set-up and spread of every cell (default with\n"
    "                         -o: FILE.json)\n"
    "      --setup NAME       ring (default), bcast or ping\n"
    "      --cores LIST       pin thread i to the i-th core of LIST (0-3,8); default:\n"
    "                         the cores this process may use, NUMA node by node\n"
    "      --max-tau N        columns τ = 1..N (default: the number of cores)\n"
    "      --oversubscribe    allow τ beyond the cores (then L measures the scheduler)\n"
    "      --slots N          segments of each shared buffer (default 2)\n"
    "      --seg SIZE         segment size S (default 8KiB)\n"
    "      --off-cache        user buffers out of cache (default: in cache, as MPI\n"
    "                         benchmarks that reuse their buffers)\n"
    "      --sizes LIST       message sizes, comma separated (default: the 30 sizes of\n"
    "                         the libtaulop tables, 1 B to 4 MiB)\n"
    "      --reps N           exactly N samples per cell\n"
    "      --rel-err X        adaptive sampling target, e.g. 5% (default) or 0.02\n"
    "      --max-reps N       most samples per cell when adaptive (default 200)\n"
    "      --min-time T       shortest sample (default 2ms)\n"
    "  -v, --verbose          print how each L(S,τ) was obtained, as the paper's Fig. 18b\n"
    "                         (on stdout; on stderr when the table goes to stdout)\n"
    "      --no-progress      no progress bar (shown only on a terminal anyway)\n"
    HELP_MEMORY_OF("no default") "  -h, --help             this help\n";

static struct {
  tlop_measure_opts o;
  const char *json;
  bool verbose;
  int *cores;
  double *sizes;
  size_t nsizes;
} mflags;

static int take_measure(cli *c, int opt, const char *arg) {
  tlop_measure_opts *o = &mflags.o;
  switch (opt) {
  case 'v': mflags.verbose = true; return 1;
  case OPT_JSON: mflags.json = arg; return 1;
  case OPT_NO_PROGRESS: c->o.no_progress = true; return 1;
  case OPT_OVERSUB: o->oversubscribe = true; return 1;
  case OPT_OFF_CACHE: o->off_cache = true; return 1;
  case OPT_SETUP:
    if (!strcmp(arg, "ring"))
      o->setup = TLOP_SETUP_RING;
    else if (!strcmp(arg, "bcast"))
      o->setup = TLOP_SETUP_BCAST;
    else if (!strcmp(arg, "ping"))
      o->setup = TLOP_SETUP_PING;
    else {
      cli_misuse(c, "--setup takes ring, bcast or ping, not '%s'", arg);
      return -1;
    }
    return 1;
  case OPT_CORES:
    free(mflags.cores);
    mflags.cores = NULL;
    if (tlop_measure_parse_cores(c->ctx, arg, &mflags.cores, &o->ncores) != TLOP_OK)
      return c->misused = true, -1;
    o->cores = mflags.cores;
    return 1;
  case OPT_MAX_TAU: return parse_count(c, "--max-tau", arg, 1, 4096, &o->max_tau) ? 1 : -1;
  case OPT_SLOTS: return parse_count(c, "--slots", arg, 1, 4096, &o->slots) ? 1 : -1;
  case OPT_REPS: return parse_count(c, "--reps", arg, 1, 1000000, &o->reps) ? 1 : -1;
  case OPT_MAX_REPS: return parse_count(c, "--max-reps", arg, 5, 1000000, &o->max_reps) ? 1 : -1;
  case OPT_REL_ERR: return parse_fraction(c, "--rel-err", arg, &o->rel_err) ? 1 : -1;
  case OPT_SEG: return parse_value(c, "--seg", arg, TLOP_KIND_SIZE, &o->seg) ? 1 : -1;
  case OPT_MIN_TIME: return parse_value(c, "--min-time", arg, TLOP_KIND_TIME, &o->min_time) ? 1 : -1;
  case OPT_SIZES: {
    char *copy = strdup(arg), *save = NULL;
    mflags.nsizes = 0;
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
      double v;
      if (!parse_value(c, "--sizes", t, TLOP_KIND_SIZE, &v)) {
        free(copy);
        return -1;
      }
      mflags.sizes = realloc(mflags.sizes, (mflags.nsizes + 1) * sizeof *mflags.sizes);
      mflags.sizes[mflags.nsizes++] = v;
    }
    free(copy);
    if (!mflags.nsizes) {
      cli_misuse(c, "--sizes takes a comma-separated list of sizes");
      return -1;
    }
    return 1;
  }
  default: return cli_take_format_output(c, opt, arg);
  }
}

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig) {
  (void)sig;
  interrupted = 1;
}

typedef struct bar {
  bool on;
  int last;
} bar;

static void show_progress(void *user, size_t done, size_t total, double m, int tau) {
  bar *b = user;
  int pct = (int)(100.0 * (double)done / (double)total);
  if (!b->on || (pct == b->last && done < total))
    return;
  b->last = pct;
  char size[48] = "";
  if (tau)
    tlop_format_size(size, sizeof size, m);
  int width = 30, fill = (int)((double)width * (double)done / (double)total);
  fprintf(stderr, "\r[%.*s%*s] %3d%%  %zu/%zu cells  %s%s%-4.0d   ", fill,
          "##############################", width - fill, "", pct, done, total,
          tau ? size : "o(m)", tau ? ", τ = " : "", tau);
  if (done >= total)
    fputs("\r\033[K", stderr); /* the bar leaves no trace once done */
  fflush(stderr);
}

/* Diagnostics during a measurement first clear the bar's line. */
static void diag_over_bar(void *user, const tlop_diag *d) {
  bar *b = user; /* NULL once the measurement is over */
  if (b && b->on && b->last >= 0)
    fputs("\r\033[K", stderr);
  if (b)
    b->last = -1;
  fputs(d->text, stderr);
}

static void print_ns(FILE *f, double seconds, int width) {
  fprintf(f, "%*.*f", width, seconds < 1e-6 ? 1 : 0, seconds * 1e9);
}

/* The estimate of L(S,τ) for each τ as the paper's Fig. 18b: a row per message of k
 * segments (m = k·S), l(k,τ), L(S,τ) = l(k,τ)/(transfers·k), then their average. */
static void print_fig18b(FILE *f, const tlop_measure_result *r) {
  char seg[48], o[48];
  tlop_format_size(seg, sizeof seg, r->seg);
  tlop_format_time(o, sizeof o, r->o.value);
  fprintf(f, "set-up %s, S = %s, %d slot%s per buffer, user buffers %s cache, cores",
          tlop_setup_name(r->setup), seg, r->slots, r->slots == 1 ? "" : "s",
          r->off_cache ? "out of" : "in");
  for (int t = 0; t < r->ntau; t++)
    fprintf(f, "%s%d", t ? "," : " ", r->cores[t]);
  fprintf(f, "\n%s; %d online CPUs, %d NUMA node%s\n", r->cpu_model, r->online_cpus,
          r->numa_nodes, r->numa_nodes == 1 ? "" : "s");
  fprintf(f, "o(m) = %s: half the round trip of a zero-byte message (round trip: median "
          "%.4g ns, 95 %% interval %.4g–%.4g ns, %d samples)\n", o, r->o.median * 1e9,
          r->o.ci_lo * 1e9, r->o.ci_hi * 1e9, r->o.samples);
  for (int t = 1; t <= r->ntau; t++) {
    const tlop_measure_cell *first = &r->L[(size_t)(t - 1)];
    fprintf(f, "\nτ = %d: L(S,%d) = l(k,%d)/%sk\n", t, t, t,
            first->transfers == 4 ? "4" : first->transfers == 2 ? "2" : "");
    fprintf(f, "%14s %12s %16s %14s %9s %8s\n", "k (segments)", "m (bytes)", "l(k,τ) (ns)",
            "L(S,τ) (ns)", "±95% ci", "samples");
    int rows = 0;
    for (size_t i = 0; i < r->nsizes; i++) {
      const tlop_measure_cell *c = &r->L[i * (size_t)r->ntau + (size_t)(t - 1)];
      double L;
      if (!tlop_measure_seg_row(r, i, t, &L))
        continue;
      if (isnan(L)) {
        fprintf(f, "%14d %12.0f %16s %14s   (interpolated: ping has even τ only)\n",
                (int)(r->m[i] / r->seg), r->m[i], "—", "—");
        continue;
      }
      fprintf(f, "%14d %12.0f ", c->k, r->m[i]);
      print_ns(f, c->median, 16);
      fputc(' ', f);
      print_ns(f, L, 14);
      fprintf(f, " %8.1f%% %8d%s\n", c->median > 0 ? 50 * (c->ci_hi - c->ci_lo) / c->median : 0,
              c->samples, c->converged ? "" : "  (not converged)");
      rows++;
    }
    if (rows) {
      fprintf(f, "L(%s, %d) = ", seg, t);
      print_ns(f, r->L_seg[t - 1], 0);
      fprintf(f, " ns  (average of the %d row%s)\n", rows, rows == 1 ? "" : "s");
    } else {
      fprintf(f, "(no size is a multiple of S = %s: L(S,%d) is not estimated)\n", seg, t);
    }
  }
}

int cmd_measure(cli *c, int argc, char **argv) {
  static const struct option opts[] = {
      {"output", required_argument, 0, 'o'},      {"format", required_argument, 0, 'f'},
      {"json", required_argument, 0, OPT_JSON},   {"setup", required_argument, 0, OPT_SETUP},
      {"cores", required_argument, 0, OPT_CORES}, {"max-tau", required_argument, 0, OPT_MAX_TAU},
      {"oversubscribe", no_argument, 0, OPT_OVERSUB},
      {"slots", required_argument, 0, OPT_SLOTS}, {"seg", required_argument, 0, OPT_SEG},
      {"off-cache", no_argument, 0, OPT_OFF_CACHE},
      {"sizes", required_argument, 0, OPT_SIZES}, {"reps", required_argument, 0, OPT_REPS},
      {"rel-err", required_argument, 0, OPT_REL_ERR},
      {"max-reps", required_argument, 0, OPT_MAX_REPS},
      {"min-time", required_argument, 0, OPT_MIN_TIME},
      {"verbose", no_argument, 0, 'v'},           {"no-progress", no_argument, 0, OPT_NO_PROGRESS},
      {0, 0, 0, 0}};
  cli_allow(c, "");
  /* no default bound: its buffers grow with the cores (64 MiB each off cache), and it
   * reads no input of others */
  cli_limit_memory(INFINITY);
  memset(&mflags, 0, sizeof mflags);
  int rc = cli_parse_options(c, argc, argv, "measure", measure_help, opts, "o:f:v", take_measure);
  const char *fmt = c->o.format ? c->o.format : "text";
  if (rc < 0 && optind < argc)
    rc = cli_usage_error("measure", "unexpected operand '%s'", argv[optind]);
  if (rc < 0 && strcmp(fmt, "text") && strcmp(fmt, "csv"))
    rc = cli_usage_error("measure", "--format takes text or csv, not '%s'", fmt);
  tlop_measure_result *res = NULL;
  char *json = NULL;
  if (rc >= 0 || c->misused)
    goto done;
  tlop_measure_opts *o = &mflags.o;
  o->format = strcmp(fmt, "csv") ? TLOP_TABLE_TEXT : TLOP_TABLE_CSV;
  o->sizes = mflags.sizes;
  o->nsizes = mflags.nsizes;
  bool to_stdout = !c->o.output || !strcmp(c->o.output, "-");
  o->output = to_stdout ? NULL : c->o.output;
  if (mflags.json) {
    o->json = mflags.json;
  } else if (!to_stdout) {
    size_t n = strlen(c->o.output) + 6;
    json = malloc(n);
    snprintf(json, n, "%s.json", c->o.output);
    o->json = json;
  }
  bar b = {!c->o.no_progress && isatty(2), -1};
  o->progress = show_progress;
  o->progress_user = &b;
  interrupted = 0;
  o->stop = &interrupted;
  struct sigaction sa = {0}, old;
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old);
  tlop_ctx_set_diag(c->ctx, diag_over_bar, &b);
  tlop_status st = tlop_measure(c->ctx, o, &res);
  tlop_ctx_set_diag(c->ctx, diag_over_bar, NULL);
  sigaction(SIGINT, &old, NULL);
  if (b.on && b.last >= 0 && st != TLOP_OK)
    fputs("\r\033[K", stderr);
  if (st == TLOP_ERR_INTERRUPTED) {
    fprintf(stderr, "tlop measure: interrupted; nothing written\n");
    rc = 128 + SIGINT; /* the shell's convention for a command ended by Ctrl-C */
    goto done;
  }
  if (st != TLOP_OK) {
    c->misused |= st == TLOP_ERR_ARG; /* a refused option value: τ beyond the cores, … */
    goto done;
  }
  if (mflags.verbose)
    print_fig18b(to_stdout ? stderr : stdout, res);
  if (to_stdout) {
    char *text = tlop_measure_table(res, o->format);
    fputs(text, stdout);
    free(text);
  }
  rc = EXIT_OK;
done:
  if (rc < 0 || (rc == EXIT_USAGE && c->misused))
    rc = cli_failed(c);
  tlop_measure_free(res);
  free(json);
  free(mflags.cores);
  free(mflags.sizes);
  return rc;
}

/* ======================= validate ======================= */

static const char validate_help[] =
    "usage: tlop validate [OPTION]... FILE ALGO... --measured BENCH\n"
    "Compare the predictions of each algorithm ALGO of FILE with the times of a\n"
    "benchmark run: the output of the Intel MPI Benchmarks (IMB: PingPong, Bcast, …) or\n"
    "of the OSU micro-benchmarks (a latency test). For each message size: the measured\n"
    "time, each prediction and its relative error (E − R)/R; then, for each model over\n"
    "the whole curve, the mean relative error mean(|E − R|/R) and the mean proportional\n"
    "error mean(max(R,E)/min(R,E)).\n"
    "The message size is given to each algorithm's first parameter; a parameter P gets\n"
    "the number of processes the file names (IMB's '#processes'; OSU's output does not\n"
    "say: --procs N, or --set P=N).\n"
    "Times are IMB's t_avg[usec] (t[usec] for PingPong) and OSU's average latency. For\n"
    "PingPong (and OSU's latency test), t is half the round trip: the one-way time of a\n"
    "message, which is what a model of one transmission T(m) predicts.\n\n" COMMON_HELP
    "      --measured BENCH   the benchmark output (required)\n"
    "      --bench NAME       which benchmark of BENCH (PingPong, Bcast, …) when it holds\n"
    "                         several\n"
    "      --procs N          the run with N processes (IMB); the count of an OSU run\n"
    "      --stat S           avg (default), max or min over the processes: IMB's t_avg,\n"
    "                         t_max, t_min; OSU's Avg, Max, Min Latency (its -f output).\n"
    "                         A collective's model predicts when the last process is done:\n"
    "                         max compares like with like\n"
    "  -f, --format FMT       table (default), csv or json\n"
    "  -o, --output FILE      write there instead of standard output\n"
    "      --plot FILE.svg    draw measured and predicted times, log–log, with gnuplot\n"
    "      --max-error X      fail (exit 1) when a model's mean relative error exceeds X\n"
    "                         (e.g. 20%)\n";

static struct {
  const char *measured, *bench, *plot, *stat;
  int procs;
  double max_error;
  const double *times; /* the measured times of the chosen series and statistic */
} vflags;

static int take_validate(cli *c, int opt, const char *arg) {
  switch (opt) {
  case OPT_MEASURED: vflags.measured = arg; return 1;
  case OPT_BENCH: vflags.bench = arg; return 1;
  case OPT_PLOT: vflags.plot = arg; return 1;
  case OPT_STAT:
    if (strcmp(arg, "avg") && strcmp(arg, "max") && strcmp(arg, "min")) {
      cli_misuse(c, "--stat takes avg, max or min, not '%s'", arg);
      return -1;
    }
    vflags.stat = arg;
    return 1;
  case OPT_PROCS: return parse_count(c, "--procs", arg, 1, 1 << 30, &vflags.procs) ? 1 : -1;
  case OPT_MAX_ERROR: return parse_fraction(c, "--max-error", arg, &vflags.max_error) ? 1 : -1;
  default: return cli_take_format_output(c, opt, arg);
  }
}

/* The one series of the file that --bench and --procs name. */
static const tlop_bench_series *pick_series(cli *c, const tlop_bench *b) {
  const tlop_bench_series *hit = NULL;
  int nhit = 0;
  for (size_t i = 0; i < b->nseries; i++) {
    const tlop_bench_series *s = &b->series[i];
    if ((vflags.bench && strcasecmp(s->name, vflags.bench)) ||
        (vflags.procs && s->procs && s->procs != vflags.procs))
      continue;
    hit = s;
    nhit++;
  }
  if (nhit == 1) {
    /* --stat: the chosen statistic stands in for the times */
    double *t = !vflags.stat || !strcmp(vflags.stat, "avg") ? hit->seconds
                : !strcmp(vflags.stat, "max")                ? hit->max
                                                              : hit->min;
    if (t) {
      vflags.times = t;
      return hit;
    }
    fprintf(stderr, "tlop validate: %s (%s) has no %s time over the processes (IMB prints "
            "t_min/t_max for collectives, OSU Min/Max Latency with -f)\n", hit->name, b->path,
            vflags.stat);
    c->misused = true;
    return NULL;
  }
  fprintf(stderr, "tlop validate: %s holds %s benchmark%s%s; %s:\n", b->path,
          nhit ? "several" : "no", vflags.bench || vflags.procs ? " that match" : "s",
          nhit ? "" : " of that name", "choose with --bench NAME (and --procs N)");
  for (size_t i = 0; i < b->nseries; i++)
    fprintf(stderr, "  %s (%s, %d processes, %zu sizes, line %d)\n", b->series[i].name,
            b->series[i].suite, b->series[i].procs, b->series[i].n,
            b->series[i].n ? b->series[i].lines[0] : 0);
  c->misused = true;
  return NULL;
}

typedef struct model_score {
  const char *name;
  double *pred;
  double mre, mpe; /* mean relative error, mean proportional error */
  size_t used;     /* points with a positive time on both sides */
} model_score;

static void score(model_score *s, const tlop_bench_series *ser) {
  double re = 0, pe = 0;
  s->used = 0;
  for (size_t i = 0; i < ser->n; i++) {
    double r = vflags.times[i], e = s->pred[i];
    if (!(r > 0) || !(e > 0))
      continue;
    re += fabs(e - r) / r;
    pe += fmax(r, e) / fmin(r, e);
    s->used++;
  }
  s->mre = s->used ? re / (double)s->used : NAN;
  s->mpe = s->used ? pe / (double)s->used : NAN;
}

/* Predicts every size of the series with one algorithm; false after diagnostics. */
static bool predict(cli *c, tlop_model *m, tlop_env *env, const tlop_platform *pf,
                    const tlop_bench_series *ser, model_score *s) {
  size_t np;
  const char *const *params = tlop_algorithm_params(m, s->name, &np);
  if (!params || np == 0) {
    fprintf(stderr, "tlop validate: '%s' is not an algorithm with a message-size parameter\n",
            s->name);
    return false;
  }
  const char *names[2] = {params[0], "P"};
  size_t nvars = 1;
  int procs = ser->procs ? ser->procs : vflags.procs; /* OSU does not print it */
  for (size_t i = 1; i < np && procs > 0; i++)
    if (!strcmp(params[i], "P"))
      nvars = 2; /* the run's process count wins over --set */
  tlop_env_set(env, names[0], ser->n ? ser->bytes[0] : 0, TLOP_KIND_SIZE);
  if (nvars == 2)
    tlop_env_set(env, "P", procs, TLOP_KIND_COUNT);
  tlop_expr *e = cli_expr(c, m, s->name, env, false);
  double *pts = malloc((ser->n ? ser->n : 1) * nvars * sizeof *pts);
  s->pred = malloc((ser->n ? ser->n : 1) * sizeof *s->pred);
  if (!e || !pts || !s->pred) {
    free(pts);
    return false;
  }
  for (size_t i = 0; i < ser->n; i++) {
    pts[i * nvars] = ser->bytes[i];
    if (nvars == 2)
      pts[i * nvars + 1] = procs;
  }
  bool ok = tlop_eval_batch(e, pf, env, names, nvars, pts, ser->n, s->pred) == TLOP_OK;
  free(pts);
  if (ok)
    score(s, ser);
  return ok;
}

static void json_num(FILE *f, double v) {
  if (isfinite(v))
    fprintf(f, "%.9g", v);
  else
    fputs("null", f);
}

static double rel_error(double r, double e) { return r > 0 ? (e - r) / r : NAN; }

static void write_table(FILE *f, cli *c, const tlop_bench_series *ser, const model_score *ms,
                        size_t nm, const char *platform) {
  fprintf(f, "%s (%s", ser->name, ser->suite);
  if (ser->procs)
    fprintf(f, ", %d processes", ser->procs);
  fprintf(f, "%s) against platform %s", ser->one_way ? ", one-way time" : "", platform);
  for (size_t i = 0; i < c->o.nparams; i++)
    fprintf(f, "%s%s", i ? ", " : " with table ", c->o.params[i]);
  fputs("\n\n", f);
  fprintf(f, "%10s  %12s", "size", "measured");
  for (size_t a = 0; a < nm; a++)
    fprintf(f, "  %12.12s  %8s", ms[a].name, "error");
  fputc('\n', f);
  for (size_t i = 0; i < ser->n; i++) {
    char sz[48], t[48];
    tlop_format_size(sz, sizeof sz, ser->bytes[i]);
    tlop_format_time(t, sizeof t, vflags.times[i]);
    fprintf(f, "%10s  %12s", sz, t);
    for (size_t a = 0; a < nm; a++) {
      tlop_format_time(t, sizeof t, ms[a].pred[i]);
      double re = rel_error(vflags.times[i], ms[a].pred[i]);
      if (isfinite(re))
        fprintf(f, "  %12s  %+7.1f%%", t, 100 * re);
      else
        fprintf(f, "  %12s  %8s", t, "—");
    }
    fputc('\n', f);
  }
  fprintf(f, "\n%-24s", "mean relative error");
  for (size_t a = 0; a < nm; a++)
    fprintf(f, "  %12s  %7.1f%%", "", 100 * ms[a].mre);
  fprintf(f, "\n%-24s", "mean proportional error");
  for (size_t a = 0; a < nm; a++)
    fprintf(f, "  %12s  %8.3f", "", ms[a].mpe);
  fputc('\n', f);
}

static void write_csv(FILE *f, const tlop_bench_series *ser, const model_score *ms, size_t nm) {
  fputs("bytes,measured", f);
  for (size_t a = 0; a < nm; a++)
    fprintf(f, ",%s,%s_rel_error", ms[a].name, ms[a].name);
  fputc('\n', f);
  for (size_t i = 0; i < ser->n; i++) {
    fprintf(f, "%.17g,%.9g", ser->bytes[i], vflags.times[i]);
    for (size_t a = 0; a < nm; a++)
      fprintf(f, ",%.9g,%.6g", ms[a].pred[i], rel_error(vflags.times[i], ms[a].pred[i]));
    fputc('\n', f);
  }
  /* the summary as two rows whose values sit in the error columns */
  const char *what[2] = {"mean_relative_error", "mean_proportional_error"};
  for (int w = 0; w < 2; w++) {
    fprintf(f, "%s,", what[w]);
    for (size_t a = 0; a < nm; a++)
      fprintf(f, ",,%.6g", w ? ms[a].mpe : ms[a].mre);
    fputc('\n', f);
  }
}

static void write_json(FILE *f, const tlop_bench_series *ser, const model_score *ms, size_t nm,
                       const char *measured, const char *platform) {
  fputs("{\"measured\": ", f);
  cli_json_string(f, measured);
  fputs(", \"benchmark\": ", f);
  cli_json_string(f, ser->name);
  fprintf(f, ", \"suite\": \"%s\", \"processes\": %d, \"one_way\": %s, \"platform\": ",
          ser->suite, ser->procs, ser->one_way ? "true" : "false");
  cli_json_string(f, platform);
  fputs(",\n \"models\": [", f);
  for (size_t a = 0; a < nm; a++) {
    fputs(a ? ",\n  {\"name\": " : "\n  {\"name\": ", f);
    cli_json_string(f, ms[a].name);
    fputs(", \"mean_relative_error\": ", f);
    json_num(f, ms[a].mre);
    fputs(", \"mean_proportional_error\": ", f);
    json_num(f, ms[a].mpe);
    fprintf(f, ", \"points\": %zu}", ms[a].used);
  }
  fputs("],\n \"points\": [", f);
  for (size_t i = 0; i < ser->n; i++) {
    fprintf(f, "%s\n  {\"bytes\": %.17g, \"measured\": %.9g, \"predicted\": {", i ? "," : "",
            ser->bytes[i], vflags.times[i]);
    for (size_t a = 0; a < nm; a++) {
      fputs(a ? ", " : "", f);
      cli_json_string(f, ms[a].name);
      fputs(": ", f);
      json_num(f, ms[a].pred[i]);
    }
    fputs("}, \"rel_error\": {", f);
    for (size_t a = 0; a < nm; a++) {
      fputs(a ? ", " : "", f);
      cli_json_string(f, ms[a].name);
      fputs(": ", f);
      json_num(f, rel_error(vflags.times[i], ms[a].pred[i]));
    }
    fputs("}}", f);
  }
  fputs("\n]}\n", f);
}

/* ---- the figure ---- */

/* Measured and predicted times against size, log–log, through a pipe to gnuplot. Points
 * of size 0 or time 0 have no place on log axes and are left out. */
static bool plot(const char *path, const tlop_bench_series *ser, const model_score *ms,
                 size_t nm, const char *measured) {
  FILE *g = gp_open("validate", path);
  if (!g)
    return false;
  char title[512];
  char procs[32] = "";
  if (ser->procs)
    snprintf(procs, sizeof procs, ", %d processes", ser->procs);
  snprintf(title, sizeof title, "%s%s%s: measured and predicted%s",
           strncmp(ser->name, ser->suite, strlen(ser->suite)) ? ser->suite : "",
           strncmp(ser->name, ser->suite, strlen(ser->suite)) ? " " : "", ser->name,
           ser->one_way ? " (one-way time)" : "");
  strncat(title, procs, sizeof title - strlen(title) - 1);
  fputs("set title ", g);
  gp_str(g, title);
  fputs(" noenhanced\nset logscale x 2\nset logscale y 10\nset format y '%g'\n"
        "set xlabel 'message size'\nset ylabel 'time (µs)'\n"
        "set key top left noenhanced\nset grid\n", g);
  double lo = INFINITY, hi = 0;
  for (size_t i = 0; i < ser->n; i++)
    if (ser->bytes[i] > 0) {
      lo = fmin(lo, ser->bytes[i]);
      hi = fmax(hi, ser->bytes[i]);
    }
  gp_size_tics(g, "x", lo, hi, PLOT_SIZE_SPANS);
  fputs("$data << EOD\n", g);
  for (size_t i = 0; i < ser->n; i++) {
    if (!(ser->bytes[i] > 0) || !(vflags.times[i] > 0))
      continue;
    fprintf(g, "%.17g %.9g", ser->bytes[i], vflags.times[i] * 1e6);
    for (size_t a = 0; a < nm; a++)
      fprintf(g, " %.9g", ms[a].pred[i] > 0 ? ms[a].pred[i] * 1e6 : NAN);
    fputc('\n', g);
  }
  fputs("EOD\nplot $data using 1:2 with linespoints lw 2 pt 7 title ", g);
  snprintf(title, sizeof title, "measured (%s)", measured);
  gp_str(g, title);
  for (size_t a = 0; a < nm; a++) {
    fprintf(g, ", $data using 1:%zu with linespoints lw 1.5 dt %zu title ", a + 3, a + 2);
    snprintf(title, sizeof title, "%s (mean rel. error %.1f%%)", ms[a].name, 100 * ms[a].mre);
    gp_str(g, title);
  }
  fputc('\n', g);
  return gp_close(g, "validate", path);
}

int cmd_validate(cli *c, int argc, char **argv) {
  static const struct option opts[] = {{"measured", required_argument, 0, OPT_MEASURED},
                                       {"bench", required_argument, 0, OPT_BENCH},
                                       {"procs", required_argument, 0, OPT_PROCS},
                                       {"plot", required_argument, 0, OPT_PLOT},
                                       {"max-error", required_argument, 0, OPT_MAX_ERROR},
                                       {"stat", required_argument, 0, OPT_STAT},
                                       {"format", required_argument, 0, 'f'},
                                       {"output", required_argument, 0, 'o'},
                                       {0, 0, 0, 0}};
  memset(&vflags, 0, sizeof vflags);
  int rc = cli_parse_options(c, argc, argv, "validate", validate_help, opts, "f:o:",
                             take_validate);
  if (rc >= 0)
    return rc;
  if (argc - optind < 2)
    return cli_usage_error("validate", "expected FILE and at least one ALGO");
  if (!vflags.measured)
    return cli_usage_error("validate", "--measured BENCH (an IMB or OSU output) is required");
  const char *fmt = c->o.format ? c->o.format : "table";
  if (strcmp(fmt, "table") && strcmp(fmt, "csv") && strcmp(fmt, "json"))
    return cli_usage_error("validate", "--format takes table, csv or json, not '%s'", fmt);
  size_t nm = (size_t)(argc - optind - 1);
  model_score *ms = calloc(nm, sizeof *ms);
  tlop_bench *bench = NULL;
  tlop_env *env = NULL;
  tlop_platform *pf = NULL;
  rc = EXIT_INPUT;
  const tlop_bench_series *ser = NULL;
  tlop_model *m = cli_load(c, argv[optind]);
  if (!m || !cli_check_sets_named(c, m, (const char *const *)argv + optind + 1, nm) ||
      !(env = cli_env(c, m)) || !(pf = cli_platform(c, m)) || tlop_bench_read(c->ctx, vflags.measured, &bench) != TLOP_OK ||
      !(ser = pick_series(c, bench)))
    goto done;
  for (size_t a = 0; a < nm; a++) {
    ms[a].name = argv[optind + 1 + (int)a];
    if (!predict(c, m, env, pf, ser, &ms[a]))
      goto done;
  }
  FILE *out = cli_output(c);
  if (!out)
    goto done;
  if (!strcmp(fmt, "csv"))
    write_csv(out, ser, ms, nm);
  else if (!strcmp(fmt, "json"))
    write_json(out, ser, ms, nm, vflags.measured, tlop_platform_name(pf));
  else
    write_table(out, c, ser, ms, nm, tlop_platform_name(pf));
  if (out != stdout)
    fclose(out);
  else
    fflush(stdout);
  rc = EXIT_OK;
  if (vflags.plot && !plot(vflags.plot, ser, ms, nm, vflags.measured))
    rc = EXIT_INPUT;
  for (size_t a = 0; a < nm && vflags.max_error > 0; a++)
    if (!(ms[a].mre <= vflags.max_error)) {
      fprintf(stderr, "tlop validate: %s: mean relative error %.1f%% exceeds --max-error %.1f%%\n",
              ms[a].name, 100 * ms[a].mre, 100 * vflags.max_error);
      rc = EXIT_INPUT;
    }
done:
  if (rc == EXIT_INPUT && c->misused)
    rc = cli_failed(c);
  for (size_t a = 0; a < nm; a++)
    free(ms[a].pred);
  free(ms);
  tlop_bench_free(bench);
  tlop_env_free(env);
  tlop_platform_free(pf);
  return rc;
}
