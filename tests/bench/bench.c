/* bench.c — the JIT benchmark (a separate target, not a test): ns per grid point of the
 * JIT's batch kernels, the interpreter and the same formulas hand-written in C (clang -O2:
 * handwritten.c, hoisted by hand, and plain.c, as a user writes them), with their ratios, for MPICH's binomial broadcast and scatter, RDA and ring allgathers and
 * Open MPI's pipelined broadcast; instructions per point under callgrind; compile latency
 * per stdlib algorithm and for the whole stdlib in one module, at O2 and O1; a cache hit;
 * threads; peak memory. Every number printed is measured in this run (medians).
 * Usage: tlop_bench [--quick] SOURCE_DIR [TABLE]   (see tests/bench/README.md); --quick
 * prints the timings only (no callgrind, no compile latency), for quick looks. */
#define _DEFAULT_SOURCE
#include "handwritten.h"
#include "jit_int.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HAVE_CALLGRIND 1
#else
#define HAVE_CALLGRIND 0
#endif

#ifndef HAND_CC
#define HAND_CC "clang -O2"
#endif

#define NM 100000        /* message sizes: 1 B .. 64 MiB, geometric */
#define NP 10            /* process counts: the powers of two 2 .. 1024 (make_grid) */
#define NPIPE 64         /* the pipeline: 64 sizes 8 KiB .. 1 MiB × P = 2 .. 65 */
#define REPS 7           /* timed repetitions; the median is reported */

/* Points of one grid, and the subsets the slower measurements take (every k-th size with
 * all its process counts). */
typedef struct grid {
  double *pts, *interp, *cg, *cg_interp; /* all; timed interpreter; callgrind JIT/C; interp */
  size_t n, np, ninterp, ncg, ncg_interp;
} grid;

typedef struct algo {
  const char *file, *name;
  hand_fn hand, plain; /* plain: NULL where plain.c has no version */
  int pipeline; /* the schedule: its own, smaller grid (work grows with P·m/S) */
} algo;

static const algo ALGOS[] = {
    {"mpich/bcast", "bcast_binomial", hand_bcast_binomial, plain_bcast_binomial, 0},
    {"mpich/bcast", "scatter_binomial", hand_scatter_binomial, plain_scatter_binomial, 0},
    {"mpich/bcast", "allgather_rda", hand_allgather_rda, plain_allgather_rda, 0},
    {"mpich/bcast", "allgather_ring", hand_allgather_ring, plain_allgather_ring, 0},
    {"openmpi/bcast_sm", "bcast_sm", hand_bcast_sm, NULL, 1}};
#define NALGO 5

static void die(const char *what) {
  fprintf(stderr, "tlop_bench: %s\n", what);
  exit(1);
}

static void on_diag(void *user, const tlop_diag *d) {
  (void)user;
  if (d->severity == TLOP_ERROR)
    fputs(d->text, stderr);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The median of v[0..n), which stays in its order: the compile latencies are printed
 * next to their algorithms' names after their median is taken. */
static double median(const double *v, int n) {
  double *s = malloc((size_t)n * sizeof *s);
  if (!s)
    die("out of memory");
  memcpy(s, v, (size_t)n * sizeof *s);
  qsort(s, (size_t)n, sizeof *s, cmp_double);
  double m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  free(s);
  return m;
}

/* ---- the set-up shared by the parent and the callgrind children ---- */

typedef struct bench {
  const char *src, *table;
  tlop_ctx *ctx;
  tlop_platform *pf;
  tlop_env *env; /* g = 2: the pipeline's tree degree */
  tlop_expr *exprs[NALGO];
  hand_table ht;
  grid grids[2]; /* the main grid, the pipeline's */
} bench;

/* The points of every `step`-th size, each with all the process counts: a subset that
 * holds every P as often as the grid does (every k-th point would not, P cycling). */
static double *every(const grid *g, size_t step, size_t *n) {
  size_t rows = g->n / g->np / step;
  *n = rows * g->np;
  double *sub = malloc(2 * *n * sizeof *sub);
  if (!sub)
    die("out of memory");
  for (size_t k = 0; k < rows; k++)
    memcpy(sub + 2 * k * g->np, g->pts + 2 * k * step * g->np, 2 * g->np * sizeof *sub);
  return sub;
}

/* nm sizes from 2^lo to 2^hi bytes (geometric) × np counts, P varying fastest as in
 * `tlop sweep --grid m=… --grid P=…`: P = 2 + j, or with pow2 P = 2^(1 + j). MPICH's
 * recursive doubling (allgather_rda) is defined at powers of two only (elsewhere both
 * engines refuse the point), so the MPICH grid holds no other P. */
static void make_grid(grid *g, int nm, double lo, double hi, int np, bool pow2,
                      size_t interp_step, size_t cg_step, size_t cg_interp_step) {
  g->n = (size_t)nm * (size_t)np;
  g->np = (size_t)np;
  g->pts = malloc(2 * g->n * sizeof *g->pts);
  if (!g->pts)
    die("out of memory");
  for (int i = 0; i < nm; i++)
    for (int j = 0; j < np; j++) {
      size_t k = (size_t)i * (size_t)np + (size_t)j;
      g->pts[2 * k] = round(pow(2, lo + (hi - lo) * i / (nm - 1)));
      g->pts[2 * k + 1] = pow2 ? ldexp(1, 1 + j) : 2 + j;
    }
  g->interp = every(g, interp_step, &g->ninterp);
  g->cg = every(g, cg_step, &g->ncg);
  g->cg_interp = every(g, cg_interp_step, &g->ncg_interp);
}

static void setup(bench *b, const char *src, const char *table) {
  b->src = src;
  b->table = table;
  b->ctx = tlop_ctx_new();
  tlop_ctx_set_diag(b->ctx, on_diag, NULL);
  b->env = tlop_env_new(b->ctx);
  tlop_env_set(b->env, "g", 2, TLOP_KIND_COUNT);
  for (int a = 0; a < NALGO; a++) {
    char path[4096];
    tlop_model *m;
    snprintf(path, sizeof path, "%s/stdlib/%s.tlop", src, ALGOS[a].file);
    if (tlop_load_file(b->ctx, path, &m) != TLOP_OK ||
        tlop_algorithm_expr(m, ALGOS[a].name, b->env, &b->exprs[a]) != TLOP_OK)
      die("cannot load an algorithm");
    if (a == 0 && (tlop_platform_open(m, NULL, &b->pf) != TLOP_OK ||
                   tlop_platform_bind_table(b->pf, NULL, table) != TLOP_OK))
      die("cannot load the table");
  }
  size_t nr, nc;
  if (tlop_platform_table(b->pf, NULL, &b->ht.m, &b->ht.v, &nr, &nc) != TLOP_OK)
    die("the default channel has no table");
  b->ht.nrows = (int)nr;
  b->ht.ncols = (int)nc;
  make_grid(&b->grids[0], NM, 0, 26, NP, true, 50, 10, 500);
  make_grid(&b->grids[1], NPIPE, 13, 20, NPIPE, false, 8, 1, 64);
}

static void teardown(bench *b) {
  for (int i = 0; i < 2; i++) {
    free(b->grids[i].pts);
    free(b->grids[i].interp);
    free(b->grids[i].cg);
    free(b->grids[i].cg_interp);
  }
  tlop_env_free(b->env);
  tlop_platform_free(b->pf);
  tlop_ctx_free(b->ctx);
}

static const char *const VARS[] = {"m", "P"};

/* Kernels expecting `points` points each: the bench's grids' (optimised whatever their
 * size) or 0 (a large module in the quick tier). */
static tlop_kernels *compile(bench *b, tlop_jit *jit, tlop_expr **exprs, size_t n, size_t points) {
  tlop_kernels *k;
  tlop_jit_expect_points(jit, points);
  if (tlop_jit_compile(jit, (const tlop_expr *const *)exprs, n, b->pf, b->env, VARS, 2, &k) != TLOP_OK)
    die("compilation failed");
  return k;
}

static tlop_jit *new_jit(bench *b, const char *cache, const char *passes, int jobs) {
  tlop_jit *jit;
  if (tlop_jit_new(b->ctx, &jit) != TLOP_OK)
    die("no JIT");
  tlop_jit_set_cache(jit, cache != NULL, cache);
  tlop_jit_set_jobs(jit, jobs);
  jit->passes = passes;
  return jit;
}

/* ---- the stdlib: every algorithm, for compile latency ---- */

/* The parameter names of every stdlib algorithm: the variables of their kernels. */
static const char *names_all[64];
static size_t nnames_all;

static void add_names(tlop_model *m, const char *algo) {
  size_t np;
  const char *const *params = tlop_algorithm_params(m, algo, &np);
  for (size_t i = 0; params && i < np; i++) {
    size_t j = 0;
    while (j < nnames_all && strcmp(names_all[j], params[i]))
      j++;
    if (j == nnames_all && nnames_all < 64)
      names_all[nnames_all++] = params[i];
  }
}

/* Every algorithm of every stdlib file (priced on the bcast model's platform), with its
 * name (malloc'd) in names[]. */
typedef struct stdlib_algos {
  tlop_expr **exprs;
  char **names;
  size_t n, cap, names_cap;
} stdlib_algos;

static void stdlib_walk(bench *b, const char *dir, stdlib_algos *all) {
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d))) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    if (e->d_name[0] == '.' || stat(path, &st) != 0)
      continue;
    if (S_ISDIR(st.st_mode)) {
      stdlib_walk(b, path, all);
      continue;
    }
    size_t len = strlen(e->d_name);
    tlop_model *m;
    if (len < 5 || strcmp(e->d_name + len - 5, ".tlop") || tlop_load_file(b->ctx, path, &m) != TLOP_OK)
      continue;
    const char **names;
    size_t na = tlop_model_algorithms(m, &names);
    for (size_t i = 0; i < na; i++) {
      tlop_expr *x;
      if (tlop_algorithm_expr(m, names[i], NULL, &x) == TLOP_OK) {
        size_t n = all->n;
        VEC_PUSH(all->exprs, all->n, all->cap, x);
        VEC_PUSH(all->names, n, all->names_cap, strdup(names[i]));
        add_names(m, names[i]);
      }
    }
  }
  if (d)
    closedir(d);
}

/* Every stdlib algorithm, loaded and named; names_all gets their parameters. */
static void stdlib_algos_load(bench *b, stdlib_algos *all) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/stdlib", b->src);
  stdlib_walk(b, dir, all);
}

static void stdlib_algos_free(stdlib_algos *all) {
  for (size_t i = 0; i < all->n; i++)
    free(all->names[i]);
  free(all->names);
  free(all->exprs);
}

/* ---- callgrind: one variant in a child process under valgrind ---- */

/* Whether `name` is one of the comma-separated names of `list` ("bcast" in
 * "bcast_smp,bcast", where its first occurrence is part of another name). */
static bool named_in(const char *list, const char *name) {
  size_t len = strlen(name);
  for (const char *at = list; (at = strstr(at, name)); at++)
    if ((at == list || at[-1] == ',') && (at[len] == ',' || !at[len]))
      return true;
  return false;
}

/* Compiles each stdlib algorithm named in `which` (comma-separated; "all": every one)
 * alone in a fresh JIT, no cache, as time_compile does, each compile's instructions in
 * its own callgrind dump named after the algorithm; a first compile, not counted, warms
 * LLVM's one-time set-up. */
static void child_compile(bench *b, const char *which) {
  stdlib_algos all = {0};
  stdlib_algos_load(b, &all);
#if HAVE_CALLGRIND
  CALLGRIND_START_INSTRUMENTATION;
#endif
  bool first = true;
  for (size_t i = 0; i < all.n; i++) {
    if (strcmp(which, "all") && !named_in(which, all.names[i]))
      continue;
    for (int warm = first; warm >= 0; warm--) {
      tlop_jit *jit = new_jit(b, NULL, JIT_PASSES, 1);
      tlop_kernels *k;
#if HAVE_CALLGRIND
      CALLGRIND_ZERO_STATS;
#endif
      if (tlop_jit_compile(jit, (const tlop_expr *const *)&all.exprs[i], 1, b->pf, NULL, names_all,
                           nnames_all, &k) != TLOP_OK)
        die("compilation failed");
#if HAVE_CALLGRIND
      if (!warm)
        CALLGRIND_DUMP_STATS_AT(all.names[i]);
#endif
      tlop_kernels_free(k);
      tlop_jit_free(jit);
    }
    first = false;
  }
  stdlib_algos_free(&all);
}

static void child(const char *variant, const char *arg, const char *cache, const char *src,
                  const char *table) {
  bench b;
  setup(&b, src, table);
  if (!strcmp(variant, "compile")) {
    child_compile(&b, arg);
    teardown(&b);
    return;
  }
  int a = atoi(arg);
  const grid *g = &b.grids[ALGOS[a].pipeline];
  double *out = malloc(g->ncg * sizeof *out);
  uint8_t *xf = malloc(g->ncg);
  tlop_jit *jit = NULL;
  tlop_kernels *k = NULL;
  if (!strcmp(variant, "jit")) {
    jit = new_jit(&b, cache, JIT_PASSES, 1);
    k = compile(&b, jit, b.exprs, NALGO, b.grids[0].n); /* the parent's module: a cache hit */
  }
#if HAVE_CALLGRIND
  CALLGRIND_START_INSTRUMENTATION;
#endif
  if (k)
    jit_kernels_run(k, (size_t)a, g->cg, g->ncg, out, xf);
  else if (!strcmp(variant, "c"))
    ALGOS[a].hand(g->cg, g->ncg, out, &b.ht);
  else if (!strcmp(variant, "plain"))
    ALGOS[a].plain(g->cg, g->ncg, out, &b.ht);
  else
    tlop_eval_batch(b.exprs[a], b.pf, b.env, VARS, 2, g->cg_interp, g->ncg_interp, out);
#if HAVE_CALLGRIND
  CALLGRIND_STOP_INSTRUMENTATION;
#endif
  tlop_kernels_free(k);
  tlop_jit_free(jit);
  free(out);
  free(xf);
  teardown(&b);
}

/* The instructions a callgrind child counted: the totals of its output file, or of the
 * file of its first dump with dumped; NaN when valgrind is not there. */
static double callgrind_total(const char *self, const char *variant, const char *arg,
                              const char *cache, const bench *b, bool dumped) {
  if (!HAVE_CALLGRIND)
    return NAN;
  char out[256], cmd[8192];
  snprintf(out, sizeof out, "%s/cg.%s.%s.out", cache, variant, arg);
  snprintf(cmd, sizeof cmd,
           "valgrind --tool=callgrind --instr-atstart=no --smc-check=all-non-file "
           "--callgrind-out-file=%s '%s' --callgrind-child %s '%s' '%s' '%s' '%s' >/dev/null 2>&1",
           out, self, variant, arg, cache, b->src, b->table);
  if (system(cmd) != 0)
    return NAN;
  char part[300];
  snprintf(part, sizeof part, "%s%s", out, dumped ? ".1" : "");
  FILE *f = fopen(part, "r");
  double total = NAN;
  char line[512];
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "totals:", 7))
      total = strtod(line + 7, NULL);
  if (f)
    fclose(f);
  unlink(out);
  unlink(part);
  return total;
}

/* Instructions per point of one variant, or NaN when valgrind is not there. */
static double callgrind(const char *self, const char *variant, int a, const char *cache,
                        const bench *b) {
  char arg[16];
  snprintf(arg, sizeof arg, "%d", a);
  const grid *g = &b->grids[ALGOS[a].pipeline];
  return callgrind_total(self, variant, arg, cache, b, false) /
         (double)(strcmp(variant, "interp") ? g->ncg : g->ncg_interp);
}

/* ---- timings ---- */

static double time_jit(tlop_kernels *k, size_t which, const grid *g, double *out, uint8_t *xf) {
  double t[REPS];
  for (int r = 0; r < REPS; r++) {
    double t0 = jit_now_ms();
    jit_kernels_run(k, which, g->pts, g->n, out, xf);
    t[r] = (jit_now_ms() - t0) * 1e6 / (double)g->n;
  }
  return median(t, REPS);
}

static double time_hand(hand_fn fn, const bench *b, const grid *g, double *out) {
  double t[REPS];
  for (int r = 0; r < REPS; r++) {
    double t0 = jit_now_ms();
    fn(g->pts, g->n, out, &b->ht);
    t[r] = (jit_now_ms() - t0) * 1e6 / (double)g->n;
  }
  return median(t, REPS);
}

/* The largest relative difference between two runs of results. */
static double max_rel_diff(const double *x, const double *y, size_t n) {
  double diff = 0;
  for (size_t i = 0; i < n; i++) {
    double s = fmax(fabs(x[i]), fabs(y[i]));
    if (s > 0 && fabs(x[i] - y[i]) / s > diff)
      diff = fabs(x[i] - y[i]) / s;
  }
  return diff;
}

/* Stops the benchmark when an engine refused a point or handed it back (a result that is
 * not finite): the grid must be one where every algorithm is defined everywhere, or the
 * figures would time refusals. */
static void check_defined(const char *algo, const char *engine, const double *out, size_t n) {
  size_t refused = 0;
  for (size_t i = 0; i < n; i++)
    refused += !isfinite(out[i]);
  if (refused) {
    fprintf(stderr, "tlop_bench: %s: %s gave no value at %zu of %zu points\n", algo, engine,
            refused, n);
    exit(1);
  }
}

static double time_interp(const bench *b, int a, const grid *g, double *out) {
  double t[3];
  for (int r = 0; r < 3; r++) {
    double t0 = jit_now_ms();
    if (tlop_eval_batch(b->exprs[a], b->pf, b->env, VARS, 2, g->interp, g->ninterp, out) != TLOP_OK)
      die("the interpreter failed");
    t[r] = (jit_now_ms() - t0) * 1e6 / (double)g->ninterp;
  }
  return median(t, 3);
}

/* Milliseconds tlop_jit_compile takes for exprs in a fresh JIT (its start not counted),
 * expecting `points` points; *compiled: the expressions compiled, *quick: whether in the
 * quick tier (each may be NULL). */
static double time_compile(bench *b, tlop_expr **exprs, size_t n, const char *const *names,
                           size_t nnames, const tlop_env *env, size_t points,
                           const char *cache, int reps, size_t *compiled, bool *quick) {
  double t[9];
  for (int r = 0; r < reps; r++) {
    tlop_jit *jit = new_jit(b, cache, JIT_PASSES, 1);
    tlop_jit_expect_points(jit, points);
    double t0 = jit_now_ms();
    tlop_kernels *k;
    if (tlop_jit_compile(jit, (const tlop_expr *const *)exprs, n, b->pf, env, names, nnames,
                         &k) != TLOP_OK)
      die("compilation failed");
    t[r] = jit_now_ms() - t0;
    if (quick)
      *quick = jit->stats.quick;
    if (compiled) {
      uint8_t xf;
      double v;
      *compiled = 0;
      for (size_t i = 0; i < n; i++)
        *compiled += jit_kernels_run(k, i, NULL, 0, &v, &xf) == TLOP_OK;
    }
    tlop_kernels_free(k);
    tlop_jit_free(jit);
  }
  return median(t, reps);
}

static long rss_kb(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long pages = 0, resident = 0;
  if (f && fscanf(f, "%ld %ld", &pages, &resident) != 2)
    resident = 0;
  if (f)
    fclose(f);
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static void machine(void) {
  char line[256], cpu[256] = "?";
  FILE *f = fopen("/proc/cpuinfo", "r");
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "model name", 10)) {
      snprintf(cpu, sizeof cpu, "%s", strchr(line, ':') + 2);
      cpu[strcspn(cpu, "\n")] = 0;
      break;
    }
  if (f)
    fclose(f);
  unsigned ma, mi, pa;
  LLVMGetVersion(&ma, &mi, &pa);
  printf("machine: %s, %ld cores; LLVM %u.%u.%u; C: %s\n", cpu, sysconf(_SC_NPROCESSORS_ONLN),
         ma, mi, pa, HAND_CC);
}

/* The verdict on an instruction ratio's target of 1.0 (NaN: not measured). */
static const char *verdict(double ir_ratio) {
  return ir_ratio <= 1.0 ? "met" : isnan(ir_ratio) ? "(no valgrind)" : "MISSED";
}

/* Compile latency, the cache, memory, and the verdict on the targets. */
static void latency(const char *self, bench *b, const char *cache, double start_ms, long rss0,
                    long rss_jit,
                    double worst_wall, double worst_ir, double worst_plain_ir,
                    double least_speedup) {
  /* compile latency */
  stdlib_algos algos = {0};
  size_t compiled = 0;
  stdlib_algos_load(b, &algos);
  tlop_expr **all = algos.exprs;
  size_t nall = algos.n;
  double *per = malloc((nall + 1) * sizeof *per), *per1 = malloc((nall + 1) * sizeof *per1);
  size_t ok_one = 0, nquick = 0;
  for (size_t i = 0; i < nall; i++) {
    size_t c1 = 0;
    bool quick1 = false;
    per[i] = time_compile(b, &all[i], 1, names_all, nnames_all, NULL, 0, NULL, 3, &c1, &quick1);
    per1[i] = time_compile(b, &all[i], 1, names_all, nnames_all, NULL, SIZE_MAX, NULL, 3, NULL,
                           NULL);
    ok_one += c1;
    nquick += quick1;
  }
  size_t slowest = 0;
  for (size_t i = 0; i < nall; i++)
    if (per[i] > per[slowest])
      slowest = i;
  double worst_one = nall ? per[slowest] : 0;
  double whole =
      time_compile(b, all, nall, names_all, nnames_all, NULL, 0, NULL, 3, &compiled, NULL);
  double whole1 =
      time_compile(b, all, nall, names_all, nnames_all, NULL, SIZE_MAX, NULL, 3, NULL, NULL);
  double one = median(per, (int)nall), one1 = median(per1, (int)nall);
  printf("\ncompile (no cache): LLJIT start %.1f ms; one algorithm: median %.1f ms, max %.1f ms "
         "(%zu in the quick tier; all optimised: median %.1f ms) over the %zu stdlib algorithms "
         "(%zu compiled, the rest interpreted); the whole stdlib in one module: %.1f ms (all "
         "optimised: %.1f ms)\n", start_ms, one, worst_one, nquick, one1, nall, ok_one, whole,
         whole1);
  printf("over 25 ms:");
  for (size_t i = 0; i < nall; i++)
    if (per[i] > 25)
      printf(" %s (%.1f ms)", algos.names[i], per[i]);
  /* wall times move with the load; the instructions of a compile do not */
  if (nall)
    printf("\nslowest: %s, %.1f ms, %.0f M instructions under callgrind; all ≤ 25 ms: %s\n",
           algos.names[slowest], worst_one,
           callgrind_total(self, "compile", algos.names[slowest], cache, b, true) / 1e6,
           worst_one <= 25 ? "yes" : "no");

  /* cache: a fresh JIT finds the object of the first one */
  time_compile(b, all, nall, names_all, nnames_all, NULL, 0, cache, 1, NULL, NULL);
  double hit = time_compile(b, all, nall, names_all, nnames_all, NULL, 0, cache, 5, NULL, NULL);
  double hit1 = time_compile(b, b->exprs, 1, VARS, 2, b->env, 0, cache, 1, NULL, NULL);
  hit1 = time_compile(b, b->exprs, 1, VARS, 2, b->env, 0, cache, 5, NULL, NULL);
  printf("cache hit: %.2f ms for the whole stdlib module, %.2f ms for one algorithm "
         "(IR built and hashed, object read and linked; nothing compiled)\n", hit, hit1);

  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("memory: peak RSS %.1f MB (before LLVM %.1f MB; LLJIT started %.1f MB; the grids "
         "and result arrays take %.1f MB)\n", ru.ru_maxrss / 1024.0, rss0 / 1024.0,
         rss_jit / 1024.0, (2.0 + 2 + 0.125) * NM * NP * 8 / 1048576.0);
  printf("\ntargets: JIT/C wall ≤ 1.1: worst %.2f %s; JIT/C instructions ≤ 1.0: worst %.2f %s; "
         "JIT/plain C instructions ≤ 1.0: worst %.2f %s; interp/JIT ≥ 8: least %.1f %s; one "
         "algorithm ≤ 25 ms: max %.1f ms %s; cache hit ≈ 0 ms: %.2f ms\n", worst_wall,
         worst_wall <= 1.1 ? "met" : "MISSED", worst_ir, verdict(worst_ir), worst_plain_ir,
         verdict(worst_plain_ir), least_speedup,
         least_speedup >= 8 ? "met" : "MISSED", worst_one, worst_one <= 25 ? "met" : "MISSED", hit1);

  free(per);
  free(per1);
  stdlib_algos_free(&algos);
}

int main(int argc, char **argv) {
  if (argc == 7 && !strcmp(argv[1], "--callgrind-child")) {
    child(argv[2], argv[3], argv[4], argv[5], argv[6]);
    return 0;
  }
  bool quick = argc > 1 && !strcmp(argv[1], "--quick");
  if (quick)
    argv++, argc--;
  if (argc < 2)
    die("usage: tlop_bench [--quick] SOURCE_DIR [TABLE]");
  char table[4096];
  if (argc > 2)
    snprintf(table, sizeof table, "%s", argv[2]);
  else
    snprintf(table, sizeof table, "%s/../shared/params/lusitania/SHM.txt", argv[1]);
  char cache[] = "/tmp/tlop_bench.XXXXXX";
  if (!mkdtemp(cache))
    die("no temporary directory");
  long rss0 = rss_kb();
  bench b;
  setup(&b, argv[1], table);
  machine();
  printf("grids: %d m (1 B .. 64 MiB) × %d P (2 .. %d, powers of two); bcast_sm (tree degree "
         "2): %d m (8 KiB .. 1 MiB) × %d P (2 .. %d); table %s (%d rows, τ ≤ %d); 1 thread; "
         "medians of %d runs (interpreter: every 50th m, every 8th for bcast_sm, with all their "
         "P, 3 runs); every point checked defined in both engines\n\n",
         NM, NP, 1 << NP, NPIPE, NPIPE, NPIPE + 1, table, b.ht.nrows, b.ht.ncols - 1, REPS);

  size_t most = b.grids[0].n;
  double *out = malloc(most * sizeof *out), *ref = malloc(most * sizeof *ref);
  uint8_t *xf = malloc(most);
  if (!out || !ref || !xf)
    die("out of memory");
  double t0 = jit_now_ms();
  tlop_jit *jit = new_jit(&b, cache, JIT_PASSES, 1);
  double start_ms = jit_now_ms() - t0;
  long rss_jit = rss_kb();
  tlop_kernels *k = compile(&b, jit, b.exprs, NALGO, most);
  tlop_jit *jitq = new_jit(&b, NULL, JIT_PASSES, 1);
  tlop_kernels *kq = compile(&b, jitq, b.exprs, NALGO, 0);
  if (!jitq->stats.quick)
    die("the five algorithms' module, expecting few points, was not in the quick tier");

  printf("| algorithm | JIT ns/pt | C ns/pt | plain ns/pt | interp ns/pt | JIT/C wall | "
         "JIT/plain wall | interp/JIT | JIT Ir/pt | C Ir/pt | plain Ir/pt | interp Ir/pt | "
         "JIT/C Ir | JIT/plain Ir | quick ns/pt | compile ms | break-even pts | "
         "max rel diff JIT-C | max rel diff JIT-plain |\n"
         "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  double worst_wall = 0, worst_ir = 0, worst_plain_ir = 0, least_speedup = INFINITY;
  double least_quick = INFINITY, slowed = 0, quick_loss_ns = 0;
  for (int a = 0; a < NALGO; a++) {
    const grid *g = &b.grids[ALGOS[a].pipeline];
    double tj = time_jit(k, (size_t)a, g, out, xf), tq = time_jit(kq, (size_t)a, g, ref, xf);
    jit_kernels_run(k, (size_t)a, g->pts, g->n, out, xf);
    check_defined(ALGOS[a].name, "the JIT", out, g->n);
    if (memcmp(out, ref, g->n * sizeof *out))
      die("the quick tier and the optimised kernels differ");
    double tc = time_hand(ALGOS[a].hand, &b, g, ref), diff = max_rel_diff(out, ref, g->n);
    double tp = NAN, diff_plain = NAN, ip = NAN;
    if (ALGOS[a].plain) {
      tp = time_hand(ALGOS[a].plain, &b, g, ref);
      diff_plain = max_rel_diff(out, ref, g->n);
      ip = quick ? NAN : callgrind(argv[0], "plain", a, cache, &b);
    }
    double ti = time_interp(&b, a, g, out);
    check_defined(ALGOS[a].name, "the interpreter", out, g->ninterp);
    jit_kernels_run(k, (size_t)a, g->interp, g->ninterp, ref, xf);
    if (memcmp(out, ref, g->ninterp * sizeof *out))
      die("the interpreter and the JIT differ");
    double ij = quick ? NAN : callgrind(argv[0], "jit", a, cache, &b);
    double ic = quick ? NAN : callgrind(argv[0], "c", a, cache, &b);
    double ii = quick ? NAN : callgrind(argv[0], "interp", a, cache, &b);
    /* compiling pays from compile / (interp − JIT per point) points */
    double ms = time_compile(&b, &b.exprs[a], 1, VARS, 2, b.env, 0, NULL, 3, NULL, NULL);
    printf("| %s | %.1f | %.1f | %.1f | %.0f | %.2f | %.2f | %.1f | %.0f | %.0f | %.0f | %.0f | "
           "%.2f | %.2f | %.1f | %.1f | %.0f | %.1e | %.1e |\n", ALGOS[a].name, tj, tc, tp, ti,
           tj / tc, tj / tp, ti / tj, ij, ic, ip, ii, ij / ic, ij / ip, tq, ms,
           ms * 1e6 / (ti - tj), diff, diff_plain);
    worst_wall = fmax(worst_wall, tj / tc);
    worst_ir = fmax(worst_ir, ij / ic);
    if (ALGOS[a].plain)
      worst_plain_ir = fmax(worst_plain_ir, ij / ip);
    least_speedup = fmin(least_speedup, ti / tj);
    least_quick = fmin(least_quick, ti / tq);
    slowed = fmax(slowed, tq / tj);
    quick_loss_ns += tq - tj;
  }

  /* the tiers: what optimising the five's module costs, and from how many points it pays */
  double ms_quick = time_compile(&b, b.exprs, NALGO, VARS, 2, b.env, 0, NULL, 3, NULL, NULL);
  double ms_o2 = time_compile(&b, b.exprs, NALGO, VARS, 2, b.env, SIZE_MAX, NULL, 3, NULL, NULL);
  printf("\ntiers: the five in one module compile in %.1f ms quick, %.1f ms optimised (O2); the "
         "quick kernels take up to %.2f× the optimised ones' time a point (interp/quick ≥ %.1f), "
         "bit-identical; O2 pays from %.0f points an algorithm (optimised from %d)\n",
         ms_quick, ms_o2, slowed, least_quick, (ms_o2 - ms_quick) * 1e6 / quick_loss_ns,
         JIT_BREAK_EVEN);

  /* threads: the same points on every core, the same bits */
  int cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
  tlop_jit_set_jobs(jit, cores);
  double tt = time_jit(k, 0, &b.grids[0], ref, xf);
  tlop_jit_set_jobs(jit, 1);
  double t1 = time_jit(k, 0, &b.grids[0], out, xf);
  printf("\nthreads: bcast_binomial on %d threads: %.1f ns/pt, %.2f× one thread's %.1f ns/pt; "
         "results %s\n", cores, tt, t1 / tt, t1,
         memcmp(out, ref, most * sizeof *out) ? "DIFFER" : "bit-identical");
  if (!quick)
    latency(argv[0], &b, cache, start_ms, rss0, rss_jit, worst_wall, worst_ir, worst_plain_ir,
            least_speedup);

  tlop_kernels_free(k);
  tlop_kernels_free(kq);
  tlop_jit_free(jit);
  tlop_jit_free(jitq);
  free(out);
  free(ref);
  free(xf);
  teardown(&b);
  char rm[256];
  snprintf(rm, sizeof rm, "rm -rf '%s'", cache);
  return system(rm) != 0;
}
