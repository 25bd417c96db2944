/* test_jit.c — the JIT against the interpreter, its oracle: every stdlib algorithm and
 * random cost expressions (a small generator of IR below), on grids that cross table rows,
 * go beyond the last row and beyond the last τ column, for both τ rules, on table-backed
 * and analytic platforms. Compiled points must agree with the interpreter within 1e-12
 * relative, with the same extrapolation flags; points the compiled code hands back must
 * include every point the interpreter rejects; batches through tlop_kernels_eval must
 * give tlop_eval_batch's results, status and diagnostics. Also: threads, the object
 * cache, the term limit, tlop emit. */
#define _DEFAULT_SOURCE
#include "jit_int.h"
#include "print/print.h"
#include "unit.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- diagnostics, captured so the two engines can be compared ---- */

static strbuf diags;

static void capture(void *user, const tlop_diag *d) {
  (void)user;
  sb_puts(&diags, d->text);
}

static char *take_diags(void) {
  char *s = diags.s ? diags.s : strdup("");
  diags = (strbuf){0};
  return s;
}

/* ---- the fixture: a table-backed platform and an analytic one ---- */

static const char *SHM =
    "#m 6\n#tau 4\n#m\to\tL1\tL2\tL3\tL4\n"
    "1\t1e-7\t2e-7\t3e-7\t5e-7\t6e-7\n"
    "64\t1.5e-7\t3e-7\t5e-7\t7e-7\t9e-7\n"
    "1024\t2e-7\t1e-6\t1.8e-6\t2.9e-6\t3.7e-6\n"
    "16384\t3e-7\t5e-6\t9e-6\t1.4e-5\t1.8e-5\n"
    "65536\t4e-7\t2e-5\t3.9e-5\t5.8e-5\t7.5e-5\n"
    "262144\t5e-7\t8e-5\t1.5e-4\t2.3e-4\t3.1e-4\n";

static const char *GAMMA =
    "#m: 3\n#tau_op: 2\n#m\tsum\tmax\n1\t1e-9\t2e-9\n4096\t1e-6\t2e-6\n262144\t5e-5\t9e-5\n";

static const char *MODEL =
    "param S = 8 KiB;\n"
    "platform tp {\n"
    "  channel shm = table \"shm.txt\";\n"
    "  channel net { L(m, τ) = 5 us + m * τ / 3 GB/s; o(m) = 2 us; p(m) = m / 10 GB/s; }\n"
    "  gamma = table \"gamma.txt\";\n"
    "}\n"
    "platform ta {\n"
    "  channel shm { L(m, τ) = 0.2 us + m * max(1, τ / 4) / 8 GB/s; o(m) = 0.4 us; }\n"
    "  channel net { L(m, τ) = 5 us + m * τ / 3 GB/s; }\n"
    "  gamma(m, τ) = m * τ / 1 GB/s;\n"
    "}\n"
    "platform tn { channel shm = table \"shm.txt\"; }\n"
    "platform tb {\n"
    "  channel shm = table \"big.txt\";\n"
    "  channel net { L(m, τ) = 5 us + m * τ / 3 GB/s; o(m) = 2 us; p(m) = m / 10 GB/s; }\n"
    "  gamma = table \"gamma.txt\";\n"
    "}\n";

/* A table too big to bake into the kernels (jit_batch.c's JIT_BAKE_MAX): they read it at
 * run time, as emit does without --bake-params. 20 000 rows 16 B apart, o and L growing
 * with m and τ. */
static char *big_table(void) {
  strbuf b = {0};
  sb_puts(&b, "#m 20000\n#tau 4\n#m\to\tL1\tL2\tL3\tL4\n");
  for (int i = 0; i < 20000; i++) {
    double m = 16.0 * i;
    sb_printf(&b, "%g\t%.9g", m, 1e-7 + m * 1e-12);
    for (int t = 1; t <= 4; t++)
      sb_printf(&b, "\t%.9g", 2e-7 * t + m * (3e-10 + 1e-11 * (i % 7)) * t);
    sb_puts(&b, "\n");
  }
  return b.s;
}

/* Sizes below the first row, on rows, between them, beyond the last (262144) by a
 * fraction and by many rows; counts within and beyond the τ columns (4). */
static const double MS[] = {0, 1, 3, 64, 100, 1000, 1024, 5000, 65536, 262144, 300000, 524288,
                            800000, 1e7, 3.3e9};
static const double PS[] = {1, 2, 3, 4, 5, 7, 8, 13, 16, 33, 64};
#define NMS (sizeof MS / sizeof *MS)
#define NPS (sizeof PS / sizeof *PS)
#define NGRID (NMS * NPS)

static tlop_ctx *ctx;
static tlop_model *model;
static tlop_platform *tp, *ta, *tn, *tb;
static tlop_env *env;
static tlop_jit *jit;
static char dir[64];
static double grid[2 * NGRID];
static const char *const MP[] = {"m", "P"};

static void write_file(const char *name, const char *text) {
  char path[128];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  CHECK(f && fputs(text, f) >= 0);
  if (f)
    fclose(f);
}

static bool setup(void) {
  snprintf(dir, sizeof dir, "/tmp/tlop_test_jitXXXXXX");
  if (!mkdtemp(dir))
    return false;
  write_file("shm.txt", SHM);
  write_file("gamma.txt", GAMMA);
  write_file("model.tlop", MODEL);
  char *big = big_table();
  write_file("big.txt", big);
  free(big);
  ctx = tlop_ctx_new();
  tlop_ctx_set_diag(ctx, capture, NULL);
  char path[128];
  snprintf(path, sizeof path, "%s/model.tlop", dir);
  env = tlop_env_new(ctx);
  if (tlop_load_file(ctx, path, &model) != TLOP_OK || tlop_platform_open(model, "tp", &tp) != TLOP_OK ||
      tlop_platform_open(model, "ta", &ta) != TLOP_OK ||
      tlop_platform_open(model, "tn", &tn) != TLOP_OK ||
      tlop_platform_open(model, "tb", &tb) != TLOP_OK || tlop_env_set(env, "x", 3.5, TLOP_KIND_NUMBER) != TLOP_OK ||
      tlop_jit_new(ctx, &jit) != TLOP_OK) {
    fputs(diags.s ? diags.s : "setup failed\n", stderr);
    return false;
  }
  tlop_jit_set_cache(jit, 0, NULL);
  tlop_jit_set_jobs(jit, 1);
  for (size_t i = 0; i < NMS; i++)
    for (size_t j = 0; j < NPS; j++) {
      grid[2 * (i * NPS + j)] = MS[i];
      grid[2 * (i * NPS + j) + 1] = PS[j];
    }
  free(take_diags());
  return true;
}

/* ---- comparing the engines ---- */

typedef struct tally {
  size_t points, compiled, handed_back, overflagged, exprs, interpreted;
  size_t quick; /* expressions compiled in the quick tier */
  size_t inexact; /* compiled values that are the interpreter's only to 1e-12, not the bits */
} tally;

static bool close_to(double a, double b) {
  return a == b || fabs(a - b) <= 1e-12 * fmax(fabs(a), fabs(b));
}

/* One expression: the raw kernel point by point against the interpreter, then the whole
 * batch through both public entry points. */
static void compare(tlop_kernels *k, size_t which, const tlop_expr *e, const tlop_platform *pf,
                    const char *const *names, size_t nvars, const double *pts, size_t n,
                    tally *t, const char *what) {
  double *out = malloc(n * sizeof *out), *ref = malloc(n * sizeof *ref);
  uint8_t *xf = malloc(n);
  t->exprs++;
  bool compiled = jit_kernels_run(k, which, pts, n, out, xf) == TLOP_OK;
  if (!compiled) {
    t->interpreted++;
  } else {
    for (size_t i = 0; i < n; i++) {
      eval_state *es = eval_new(ctx, pf);
      eval_use_env(es, env, e->model);
      for (size_t j = 0; j < nvars; j++)
        eval_bind(es, ctx_sym(ctx, names[j]), pts[i * nvars + j]);
      double v = NAN;
      bool ok = eval_node(es, e->node, &v);
      unsigned flags = eval_extrapolations(es);
      eval_free(es);
      t->points++;
      if (!isfinite(out[i])) {
        t->handed_back++;
        t->overflagged += ok;
        continue;
      }
      t->compiled++;
      t->inexact += memcmp(&out[i], &v, sizeof v) != 0;
      bool same = ok && close_to(out[i], v) && xf[i] == flags;
      CHECK(same);
      if (!same) {
        char *text = prt_expr(ctx, e->node, TLOP_FORMAT_UNICODE);
        fprintf(stderr, "  %s: at m=%.17g P=%.17g: JIT %.17g (flags %d), interpreter %s %.17g "
                "(flags %u)\n  in %s\n", what, pts[i * nvars], nvars > 1 ? pts[i * nvars + 1] : 0,
                out[i], xf[i], ok ? "ok" : "FAILS", v, flags, text);
        free(text);
      }
    }
  }
  free(take_diags());
  tlop_status s1 = tlop_kernels_eval(k, which, pts, n, out);
  char *d1 = take_diags();
  tlop_status s2 = tlop_eval_batch(e, pf, env, names, nvars, pts, n, ref);
  char *d2 = take_diags();
  CHECK(s1 == s2);
  CHECK_STR(d1, d2);
  for (size_t i = 0; s1 == TLOP_OK && s2 == TLOP_OK && i < n; i++)
    CHECK(close_to(out[i], ref[i]));
  /* its two halves, as a caller with threads of its own calls them: the same status,
   * messages and bits (ref reused) */
  tlop_kernels_owed owed;
  tlop_status s3 = tlop_kernels_run(k, which, pts, n, ref, xf, &owed);
  if (s3 == TLOP_OK)
    s3 = tlop_kernels_settle(k, which, pts, n, ref, xf, &owed);
  char *d3 = take_diags();
  CHECK(s3 == (compiled ? s1 : TLOP_ERR_ARG));
  if (compiled)
    CHECK_STR(d3, d1);
  for (size_t i = 0; s1 == TLOP_OK && s3 == TLOP_OK && i < n; i++)
    CHECK(memcmp(&out[i], &ref[i], sizeof out[i]) == 0);
  free(d1);
  free(d2);
  free(d3);
  free(out);
  free(ref);
  free(xf);
}

/* ---- every stdlib algorithm ---- */

/* Values for a parameter: sizes for a size, counts for a count, a few numbers else. */
static const double *param_values(kind k, size_t *n) {
  static const double other[] = {0.5, 1, 2, 3, 8};
  if (kind_eq(k, KIND_SIZE))
    return *n = NMS, MS;
  if (kind_eq(k, KIND_COUNT))
    return *n = NPS, PS;
  return *n = sizeof other / sizeof *other, other;
}

/* The algorithm over the product of its first three numeric parameters' values, the
 * others at their defaults (bcast_smp's M and map); an operator parameter is bound before
 * compiling, to each operator of the gamma table (sum, max) in turn. */
static void test_algorithm(tlop_model *m, const char *algo, const tlop_platform *pf, tally *t) {
  static const char *const ops[] = {"sum", "max"};
  ast_decl *fn = ptrmap_get(&m->funcs, ctx_sym(ctx, algo));
  const char *names[3], *op_param = NULL;
  kind kinds[3];
  size_t np = 0;
  if (!fn || fn->kind != D_ALGORITHM)
    return;
  for (int i = 0; i < fn->nargs; i++) {
    const ast_arg *a = fn->args[i];
    if (a->k.tag == K_OP)
      op_param = a->name->name;
    else if (np < 3 && !kind_by_name(a->k))
      kinds[np] = a->k, names[np++] = a->name->name;
    else if (!a->dflt)
      return;
  }
  /* the cartesian product of the parameters' values */
  size_t counts[3], total = 1;
  const double *vals[3];
  for (size_t i = 0; i < np; i++) {
    vals[i] = param_values(kinds[i], &counts[i]);
    total *= counts[i];
  }
  double *pts = malloc((total * np + 1) * sizeof *pts);
  for (size_t p = 0; p < total; p++) {
    size_t rest = p;
    for (size_t i = 0; i < np; i++) {
      pts[p * np + i] = vals[i][rest % counts[i]];
      rest /= counts[i];
    }
  }
  for (size_t o = 0; o < (op_param ? 2u : 1u); o++) {
    tlop_env *with = tlop_env_new(ctx);
    tlop_expr *e;
    tlop_kernels *k = NULL;
    CHECK(!op_param || tlop_env_set_op(with, op_param, ops[o]) == TLOP_OK);
    CHECK(tlop_algorithm_expr(m, algo, with, &e) == TLOP_OK);
    CHECK(tlop_jit_compile(jit, (const tlop_expr *const *)&e, 1, pf, env, names, np, &k) == TLOP_OK);
    t->quick += k && jit->stats.quick;
    if (k)
      compare(k, 0, e, pf, names, np, pts, total, t, algo);
    tlop_kernels_free(k);
    tlop_env_free(with);
  }
  free(pts);
}

static void stdlib_dir(const char *path, const tlop_platform *pf, tally *t) {
  DIR *d = opendir(path);
  struct dirent *de;
  while (d && (de = readdir(d))) {
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", path, de->d_name);
    struct stat st;
    size_t len = strlen(de->d_name);
    if (de->d_name[0] == '.' || stat(p, &st) != 0)
      continue;
    if (S_ISDIR(st.st_mode)) {
      stdlib_dir(p, pf, t);
      continue;
    }
    tlop_model *m;
    if (len < 5 || strcmp(de->d_name + len - 5, ".tlop") || tlop_load_file(ctx, p, &m) != TLOP_OK)
      continue;
    const char **names;
    size_t n = tlop_model_algorithms(m, &names);
    for (size_t i = 0; i < n; i++)
      test_algorithm(m, names[i], pf, t);
  }
  if (d)
    closedir(d);
  free(take_diags());
}

static void test_stdlib(const char *src) {
  char path[4096];
  snprintf(path, sizeof path, "%s/stdlib", src);
  const tlop_platform *pfs[2] = {tp, ta};
  /* the pipeline schedule places P·m/S transfers: a term limit keeps 10^9-byte points quick
   * (both engines refuse them) */
  tlop_ctx_set_max_terms(ctx, 1e5);
  /* both tiers: under the proportional rule a compile expects few points (the large
   * algorithms go to the quick tier), under clamp many (all optimised) */
  for (int rule = 0; rule < 2; rule++)
    for (int p = 0; p < 2; p++) {
      tlop_ctx_set_tau_rule(ctx, rule ? TLOP_TAU_CLAMP : TLOP_TAU_PROPORTIONAL);
      tlop_jit_expect_points(jit, rule ? SIZE_MAX : 0);
      tally t = {0};
      stdlib_dir(path, pfs[p], &t);
      CHECK(t.exprs >= 4);          /* the stdlib has algorithms and they were found */
      CHECK(t.compiled > 0);
      CHECK(t.interpreted == 0);    /* the JIT takes every stdlib algorithm */
      CHECK(t.overflagged == 0);    /* valid points are never left to the interpreter */
      CHECK(rule ? t.quick == 0 : t.quick > 0 && t.quick < t.exprs);
      printf("stdlib on %s, τ rule %s: %zu algorithms (%zu interpreted, %zu in the quick "
             "tier), %zu points, %zu compiled, %zu handed back\n", p ? "ta" : "tp",
             rule ? "clamp" : "proportional", t.exprs, t.interpreted, t.quick, t.points,
             t.compiled, t.handed_back);
    }
  tlop_jit_expect_points(jit, 0);
  tlop_ctx_set_tau_rule(ctx, TLOP_TAU_PROPORTIONAL);
  tlop_ctx_set_max_terms(ctx, 1e8);
}

/* An operator parameter reaches its column of the gamma table, in both engines:
 * reduce_linear(4096 B, 3) reduces twice, and GAMMA's row 4096 has γ(sum) = 1e-6,
 * γ(max) = 2e-6, so op = max costs 2·(2e-6 − 1e-6) more than op = sum. */
static void test_operators(const char *src) {
  static const char *const ops[] = {"sum", "max"};
  static const char *const names[] = {"m", "P"};
  const double pt[] = {4096, 3};
  char path[4096];
  snprintf(path, sizeof path, "%s/stdlib/openmpi/reduce.tlop", src);
  tlop_model *m;
  double interp[2] = {0}, jitted[2] = {0};
  CHECK(tlop_load_file(ctx, path, &m) == TLOP_OK);
  for (int o = 0; o < 2; o++) {
    tlop_env *with = tlop_env_new(ctx);
    tlop_expr *e;
    tlop_kernels *k = NULL;
    CHECK(tlop_env_set_op(with, "op", ops[o]) == TLOP_OK);
    CHECK(tlop_algorithm_expr(m, "reduce_linear", with, &e) == TLOP_OK);
    CHECK(tlop_env_set(with, "m", pt[0], TLOP_KIND_SIZE) == TLOP_OK);
    CHECK(tlop_env_set(with, "P", pt[1], TLOP_KIND_COUNT) == TLOP_OK);
    CHECK(tlop_eval(e, tp, with, &interp[o]) == TLOP_OK);
    CHECK(tlop_jit_compile(jit, (const tlop_expr *const *)&e, 1, tp, env, names, 2, &k) == TLOP_OK);
    CHECK(k && tlop_kernels_eval(k, 0, pt, 1, &jitted[o]) == TLOP_OK);
    tlop_kernels_free(k);
    tlop_env_free(with);
  }
  CHECK(close_to(interp[1] - interp[0], 2e-6));
  CHECK(close_to(jitted[0], interp[0]) && close_to(jitted[1], interp[1]));
  free(take_diags());
}

/* ---- random cost expressions ---- */

typedef struct gen {
  uint64_t s;
  sym idx[8]; /* sum indices in scope */
  int nidx, next_idx;
} gen;

static uint64_t rnd(gen *g) {
  g->s ^= g->s << 13;
  g->s ^= g->s >> 7;
  g->s ^= g->s << 17;
  return g->s;
}

static int pick(gen *g, int n) { return (int)(rnd(g) % (uint64_t)n); }
static ir_node *num(double v) { return ir_num(ctx, v); }
static ir_node *var(const char *name) { return ir_var(ctx, ctx_sym(ctx, name)); }
static ir_node *bin(ir_op op, ir_node *a, ir_node *b) { return ir_bin(ctx, op, a, b); }

static ir_node *scalar(gen *g, int d);
static ir_node *size(gen *g, int d);
static ir_node *count(gen *g, int d);

static ir_node *index_var(gen *g) {
  return g->nidx ? ir_var(ctx, g->idx[pick(g, g->nidx)]) : var("P");
}

static ir_node *scalar(gen *g, int d) {
  static const double K[] = {0, 1, 2, 0.5, 3, 7, 1e-3, -1, 1024};
  if (d <= 0 || pick(g, 3) == 0) {
    switch (pick(g, 6)) {
    case 0: return num(K[pick(g, 9)]);
    case 1: return var("m");
    case 2: return var("P");
    case 3: return var("x");
    case 4: return var("S");
    default: return index_var(g);
    }
  }
  static const ir_op OPS[] = {IR_ADD, IR_SUB, IR_MUL, IR_DIV, IR_MOD, IR_POW, IR_MIN, IR_MAX,
                              IR_LOG, IR_LT, IR_LE, IR_GT, IR_GE, IR_EQ, IR_NE, IR_AND, IR_OR};
  static const ir_op UN[] = {IR_NEG, IR_LOG2, IR_CEIL, IR_FLOOR, IR_ABS, IR_SQRT, IR_NOT};
  switch (pick(g, 4)) {
  case 0: return ir_un(ctx, UN[pick(g, 7)], scalar(g, d - 1));
  case 1:
    return ir_make(ctx, IR_IF, NULL, 0, scalar(g, d - 1), scalar(g, d - 1), scalar(g, d - 1));
  case 2: return bin(IR_POW, num(pick(g, 2) ? 2 : 0.5), bin(IR_ADD, index_var(g), num(pick(g, 3))));
  default: return bin(OPS[pick(g, 17)], scalar(g, d - 1), scalar(g, d - 1));
  }
}

static ir_node *size(gen *g, int d) {
  static const double K[] = {0, 1, 100, 5000, 300000, 1e7};
  switch (d <= 0 ? pick(g, 3) : pick(g, 9)) {
  case 0: return var("m");
  case 1: return num(K[pick(g, 6)]);
  case 2: return var("S");
  case 3: return bin(IR_MUL, var("m"), count(g, d - 1));
  case 4: return bin(IR_DIV, var("m"), count(g, d - 1));
  case 5: return bin(IR_MUL, bin(IR_POW, num(2), index_var(g)), var("m"));
  case 6: return bin(pick(g, 2) ? IR_MIN : IR_MAX, size(g, d - 1), size(g, d - 1));
  case 7: return ir_un(ctx, IR_ABS, scalar(g, d - 1)); /* anything, negative sizes too */
  default: return bin(IR_SUB, size(g, d - 1), num(pick(g, 2) ? 50 : 0));
  }
}

static ir_node *count(gen *g, int d) {
  switch (d <= 0 ? pick(g, 3) : pick(g, 8)) {
  case 0: return var("P");
  case 1: return num(1 + pick(g, 8));
  case 2: return bin(IR_POW, num(2), index_var(g));
  case 3: return bin(IR_ADD, index_var(g), num(1));
  case 4: return bin(IR_MIN, bin(IR_POW, num(2), index_var(g)), bin(IR_SUB, var("P"), bin(IR_POW, num(2), index_var(g))));
  case 5: return ir_un(ctx, IR_CEIL, ir_un(ctx, IR_LOG2, var("P")));
  case 6: return bin(IR_DIV, count(g, d - 1), num(2)); /* fractional τ, and below 1 */
  default: return bin(pick(g, 2) ? IR_MAX : IR_MUL, count(g, d - 1), count(g, d - 1));
  }
}

static sym channel(gen *g) {
  int c = pick(g, 4);
  return c == 0 ? NULL : ctx_sym(ctx, c == 1 ? "net" : "shm");
}

/* Transfers for binary ∥, of one size m: different sizes on one channel progress together,
 * which the JIT leaves to the interpreter (test_fallbacks has one). */
static ir_node *transfer(gen *g, int d, ir_node *m) {
  switch (d <= 0 ? 0 : pick(g, 4)) {
  case 0: return ir_make(ctx, IR_L, channel(g), 0, m, count(g, d - 1), NULL);
  case 1: return ir_make(ctx, IR_PAR, pick(g, 2) ? NULL : channel(g), 0, count(g, d - 1), transfer(g, d - 1, m), NULL);
  case 2: return ir_make(ctx, IR_STAGE, NULL, 0, transfer(g, d - 1, m), NULL, NULL);
  default: return bin(IR_CONC, transfer(g, d - 1, m), transfer(g, d - 1, m));
  }
}

/* A loop over j = 0 .. 3 or 0 .. P − 1 around body(g, d − 1), j in scope for it. */
static ir_node *loop_of(gen *g, int d, ir_node *(*body)(gen *, int)) {
  char name[8];
  snprintf(name, sizeof name, "j%d", g->next_idx++ % 8);
  sym j = ctx_sym(ctx, name);
  g->idx[g->nidx++] = j;
  ir_node *b = body(g, d - 1);
  g->nidx--;
  return ir_make(ctx, IR_SUM, j, 0, num(0), pick(g, 2) ? num(3) : bin(IR_SUB, var("P"), num(1)), b);
}

/* The placements of a schedule: `at` steps under loops (with and without their index)
 * and conditions; steps and counts are now and then bad. */
static ir_node *placements(gen *g, int d) {
  switch (d <= 0 ? 0 : pick(g, 5)) {
  case 0: {
    static const double K[] = {1, 2, 3, 5, 0, 1.5};
    ir_node *step = pick(g, 3) ? bin(IR_ADD, num(1), bin(IR_MUL, num(2), index_var(g)))
                               : num(K[pick(g, 6)]);
    ir_node *c = pick(g, 4) ? num(1) : pick(g, 2) ? count(g, 1) : num(0.5);
    return ir_make(ctx, IR_AT, NULL, 0, step, c, NULL);
  }
  case 1: return bin(IR_ADD, placements(g, d - 1), placements(g, d - 1));
  case 2: return ir_make(ctx, IR_IF, NULL, 0, scalar(g, 1), placements(g, d - 1), num(0));
  default: return loop_of(g, d, placements);
  }
}

/* The sends of a messages stage: between ranks of 0 .. P − 1 and beyond (now and then
 * negative or fractional), under loops and conditions, any size. */
static ir_node *sends(gen *g, int d) {
  switch (d <= 0 ? 0 : pick(g, 5)) {
  case 0: {
    ir_node *src = index_var(g), *dst;
    switch (pick(g, 5)) {
    case 0: dst = bin(IR_MOD, bin(IR_ADD, src, num(1)), var("P")); break;
    case 1: dst = num(pick(g, 3)); break;
    case 2: dst = bin(IR_SUB, var("P"), bin(IR_ADD, src, num(1))); break;
    case 3: dst = bin(IR_ADD, src, num(pick(g, 2) ? 2 : 0.5)); break;
    default: dst = scalar(g, 1);
    }
    return ir_make(ctx, IR_SEND, NULL, 0, src, dst, size(g, 1));
  }
  case 1: return bin(IR_ADD, sends(g, d - 1), sends(g, d - 1));
  case 2: return ir_make(ctx, IR_IF, NULL, 0, scalar(g, 1), sends(g, d - 1), num(0));
  default: return loop_of(g, d, sends);
  }
}

/* A messages stage: ranks on nodes in blocks, round robin (of a count, now and then not
 * whole) or by any expression of the rank. */
static ir_node *messages(gen *g) {
  sym p = ctx_sym(ctx, "p");
  ir_node *rank = ir_var(ctx, p), *node;
  switch (pick(g, 3)) {
  case 0: node = ir_un(ctx, IR_FLOOR, bin(IR_DIV, rank, count(g, 1))); break;
  case 1: node = bin(IR_MOD, rank, count(g, 1)); break;
  default: node = bin(IR_MIN, rank, scalar(g, 1));
  }
  return ir_make(ctx, IR_MSGS, p, 0, node, sends(g, 3), NULL);
}

static ir_node *cost(gen *g, int d) {
  if (d <= 0)
    return ir_make(ctx, IR_L, channel(g), 0, size(g, 1), count(g, 1), NULL);
  switch (pick(g, 16)) {
  case 0: return ir_make(ctx, IR_O, channel(g), 0, size(g, d - 1), NULL, NULL);
  case 1: return ir_make(ctx, IR_PACK, channel(g), 0, size(g, d - 1), NULL, NULL);
  case 2:
    return ir_make(ctx, IR_GAMMA, ctx_sym(ctx, pick(g, 2) ? "sum" : "max"), 0, size(g, d - 1),
                   count(g, d - 1), NULL);
  case 3: return bin(IR_ADD, cost(g, d - 1), cost(g, d - 1));
  case 4: return bin(IR_MUL, scalar(g, d - 1), cost(g, d - 1));
  case 5: return ir_make(ctx, IR_PAR, pick(g, 2) ? NULL : channel(g), 0, count(g, d - 1), cost(g, d - 1), NULL);
  case 6: {
    ir_node *m = size(g, d - 1);
    return bin(IR_CONC, transfer(g, d - 1, m), transfer(g, d - 1, m));
  }
  case 7: case 8: {
    char name[8];
    snprintf(name, sizeof name, "i%d", g->next_idx++ % 8);
    sym i = ctx_sym(ctx, name);
    ir_node *lo = num(pick(g, 2)), *hi = pick(g, 2) ? bin(IR_SUB, ir_un(ctx, IR_CEIL, ir_un(ctx, IR_LOG2, var("P"))), num(1))
                                              : count(g, d - 1);
    /* a sum, or a maximum over the range (empty at P = 1, fractional bounds from count) */
    ir_op range = pick(g, 3) ? IR_SUM : IR_MAXOVER;
    g->idx[g->nidx++] = i;
    ir_node *body = cost(g, d - 1);
    g->nidx--;
    return ir_make(ctx, range, i, 0, lo, hi, pick(g, 3) ? ir_make(ctx, IR_STAGE, NULL, 0, body, NULL, NULL) : body);
  }
  case 9: return bin(IR_REPEAT, pick(g, 2) ? bin(IR_SUB, var("P"), num(1)) : count(g, d - 1), cost(g, d - 1));
  case 10: return ir_make(ctx, IR_IF, NULL, 0, scalar(g, d - 1), cost(g, d - 1), cost(g, d - 1));
  case 11: return bin(pick(g, 2) ? IR_MIN : IR_MAX, cost(g, d - 1), cost(g, d - 1));
  case 12: return bin(IR_DIV, cost(g, d - 1), count(g, d - 1));
  case 13: return ir_make(ctx, IR_SCHED, channel(g), 0, size(g, d - 1), placements(g, 3), NULL);
  case 14: return messages(g);
  default: return ir_make(ctx, IR_L, channel(g), 0, size(g, d - 1), count(g, d - 1), NULL);
  }
}

#define BATCH 40

/* Random expressions on a platform, BATCH per module; returns the tally. */
static tally test_random(uint64_t seed, int n, const tlop_platform *pf) {
  gen g = {.s = seed};
  tally t = {0};
  for (int done = 0; done < n; done += BATCH) {
    tlop_expr *e[BATCH], store[BATCH];
    for (int i = 0; i < BATCH; i++) {
      ir_node *node = pick(&g, 5) ? cost(&g, 4) : scalar(&g, 4);
      store[i] = (tlop_expr){.node = node, .model = model, .k = KIND_TIME};
      e[i] = &store[i];
    }
    tlop_kernels *k;
    CHECK(tlop_jit_compile(jit, (const tlop_expr *const *)e, BATCH, pf, env, MP, 2, &k) == TLOP_OK);
    for (int i = 0; k && i < BATCH; i++)
      compare(k, (size_t)i, e[i], pf, MP, 2, grid, NGRID, &t, "random");
    tlop_kernels_free(k);
  }
  return t;
}

static void test_random_all(void) {
  const tlop_platform *pfs[3] = {tp, ta, tb};
  static const char *const pf_names[3] = {"tp", "ta", "tb (a table read at run time)"};
  /* nested sums up to P·P·… terms: a term limit keeps both engines quick, and tested; so
   * does a limit on the messages of a stage */
  tlop_ctx_set_max_terms(ctx, 20000);
  tlop_ctx_set_max_messages(ctx, 100);
  for (int rule = 0; rule < 2; rule++)
    for (int p = 0; p < 3; p++) {
      tlop_ctx_set_tau_rule(ctx, rule ? TLOP_TAU_CLAMP : TLOP_TAU_PROPORTIONAL);
      tally t = test_random(0x9E3779B97F4A7C15ull * (uint64_t)(1 + rule * 3 + p), 200, pfs[p]);
      CHECK(t.interpreted == 0);     /* the JIT takes every operator */
      CHECK(t.compiled > t.points / 4);
      /* handing back a valid point is allowed (speculative checks) but must stay rare */
      CHECK(t.overflagged * 50 <= t.points);
      printf("random on %s, τ rule %s: %zu expressions, %zu points: %zu compiled (%zu not to "
             "the bit), %zu handed back (%zu of them valid)\n", pf_names[p],
             rule ? "clamp" : "proportional", t.exprs, t.points, t.compiled, t.inexact,
             t.handed_back, t.overflagged);
    }
  tlop_ctx_set_tau_rule(ctx, TLOP_TAU_PROPORTIONAL);
  /* the term limit: sums beyond it are handed back, and fail as in the interpreter */
  tlop_ctx_set_max_terms(ctx, 40);
  tally t = test_random(12345, 80, tp);
  CHECK(t.handed_back > 0);
  tlop_ctx_set_max_terms(ctx, 1e8);
  tlop_ctx_set_max_messages(ctx, 1e6);
  printf("random with a term limit of 40: %zu points, %zu handed back\n", t.points, t.handed_back);
}

/* ---- the rest: names the JIT cannot bind, threads, the cache, emit ---- */

static tlop_expr *parse(const char *text) {
  tlop_expr *e = NULL;
  tlop_env *names = tlop_env_new(ctx);
  tlop_env_set(names, "m", 1, TLOP_KIND_SIZE);
  tlop_env_set(names, "P", 1, TLOP_KIND_COUNT);
  CHECK(tlop_expr_parse(model, text, names, &e) == TLOP_OK);
  tlop_env_free(names);
  char *d = take_diags();
  if (!e)
    fprintf(stderr, "%s", d);
  free(d);
  return e;
}

static void test_fallbacks(void) {
  /* y is bound nowhere: the JIT leaves the expression to the interpreter, which says so */
  ir_node *l = ir_make(ctx, IR_L, NULL, 0, var("m"), var("P"), NULL);
  tlop_expr unbound = {.node = bin(IR_ADD, l, var("y")), .model = model, .k = KIND_TIME}, *e = &unbound;
  tally t = {0};
  tlop_kernels *k;
  CHECK(tlop_jit_compile(jit, (const tlop_expr *const *)&e, 1, tp, env, MP, 2, &k) == TLOP_OK);
  compare(k, 0, e, tp, MP, 2, grid, NGRID, &t, "unbound");
  CHECK(t.interpreted == 1);
  tlop_kernels_free(k);
  /* log of 0, a negative size: the diagnostic of the first failing point, as interpreted */
  e = parse("L(m - 70000, P) * log2(P - 1)");
  t = (tally){0};
  if (!e)
    return;
  CHECK(tlop_jit_compile(jit, (const tlop_expr *const *)&e, 1, tp, env, MP, 2, &k) == TLOP_OK);
  compare(k, 0, e, tp, MP, 2, grid, NGRID, &t, "failing");
  CHECK(t.handed_back > 0 && t.overflagged == 0);
  tlop_kernels_free(k);
  /* transfers of different sizes on one channel progress together: handed back */
  e = parse("(P ∥ L(m, 2)) ∥ L(m / 2, 3) ∥ L[net](m, 1)");
  t = (tally){0};
  if (!e)
    return;
  CHECK(tlop_jit_compile(jit, (const tlop_expr *const *)&e, 1, tp, env, MP, 2, &k) == TLOP_OK);
  compare(k, 0, e, tp, MP, 2, grid, NGRID, &t, "progression");
  CHECK(t.handed_back > 0);
  tlop_kernels_free(k);
  /* no variables at all: one point (tlop eval --engine jit) */
  e = parse("2 ∥ L(1 MiB, 3) + o(5)");
  double a = 0, b = 1;
  if (!e)
    return;
  CHECK(tlop_jit_compile(jit, (const tlop_expr *const *)&e, 1, tp, env, NULL, 0, &k) == TLOP_OK);
  CHECK(k && tlop_kernels_eval(k, 0, NULL, 1, &a) == TLOP_OK);
  CHECK(tlop_eval(e, tp, env, &b) == TLOP_OK && a == b);
  tlop_kernels_free(k);
  free(take_diags());
}

/* ---- messages stages: compiled, priced by the interpreter's own routine ---- */

/* Every algorithm of examples/contention_ring.tlop on its platform and on ours. */
static void test_contention_ring(const char *src) {
  char path[4096];
  snprintf(path, sizeof path, "%s/examples/contention_ring.tlop", src);
  tlop_model *m;
  tlop_platform *tc41;
  if (tlop_load_file(ctx, path, &m) != TLOP_OK || tlop_platform_open(m, "tc41", &tc41) != TLOP_OK) {
    CHECK(false);
    return;
  }
  const tlop_platform *pfs[3] = {tc41, tp, ta};
  const char **names;
  size_t n = tlop_model_algorithms(m, &names);
  for (int p = 0; p < 3; p++) {
    tally t = {0};
    for (size_t i = 0; i < n; i++)
      test_algorithm(m, names[i], pfs[p], &t);
    CHECK(t.exprs == n && n >= 6);
    CHECK(t.interpreted == 0);    /* messages stages are compiled */
    CHECK(t.compiled > t.points / 2);
    CHECK(t.overflagged == 0);
    printf("contention_ring on platform %d: %zu algorithms, %zu points, %zu compiled, %zu "
           "handed back\n", p, t.exprs, t.points, t.compiled, t.handed_back);
  }
  tlop_platform_free(tc41);
  free(take_diags());
}

/* One messages expression over the (m, P) grid on a platform: JIT ≡ interpreter. */
static tally messages_case(const char *text, const tlop_platform *pf) {
  tally t = {0};
  tlop_expr *e = parse(text);
  tlop_kernels *k = NULL;
  if (e)
    CHECK(tlop_jit_compile(jit, (const tlop_expr *const *)&e, 1, pf, env, MP, 2, &k) == TLOP_OK);
  if (k)
    compare(k, 0, e, pf, MP, 2, grid, NGRID, &t, text);
  CHECK(t.interpreted == 0);
  tlop_kernels_free(k);
  return t;
}

static void test_messages(const char *src) {
  test_contention_ring(src);
  static const char *const valid[] = {
      /* within and across nodes; sizes that differ on one channel towards one node */
      "messages on sequential(2) { for p = 0 .. P - 1 { send p -> (p + 1) % P : m; "
      "send p -> (p + 3) % P : m / 3 + 100; } }",
      /* everything towards node 0, every size different: a progression of P rounds */
      "messages on round_robin(4) { for p = 1 .. P - 1 { send p -> 0 : m * p; } }",
      /* ∥ around the stage, scoped and not; a sum inside a size; a loop that ignores its
       * index (3 messages each) and an if */
      "2 ∥ (3 ∥[net] messages on sequential(4) { for p = 0 .. P - 1 { for k = 1 .. 3 { "
      "send p -> P - 1 - p : sum i = 1 .. 3 : m / i; } if p % 2 == 0 { send p -> p : 64; } } })",
      /* a stage per term of a sum, with a mapping of the sum's index, beside a transfer */
      "sum j = 0 .. ceil(log2(P)) - 1 : messages on by(p / 2^j) { for p = 0 .. P - 1 { "
      "send p -> (p + 2^j) % P : m; } } + L(m, 1)",
      /* no message at all costs 0 */
      "messages on sequential(1) { for p = 1 .. P - 1 { send p -> p - 1 : m; } } + o(m)",
  };
  const tlop_platform *pfs[2] = {tp, ta};
  for (size_t i = 0; i < sizeof valid / sizeof *valid; i++)
    for (int p = 0; p < 2; p++) {
      tally t = messages_case(valid[i], pfs[p]);
      CHECK(t.compiled > 0 && t.overflagged == 0);
    }
  /* failing points: the interpreter's diagnostic — a rank out of range, a mapping of a
   * fraction, no channel between nodes, --max-messages */
  static const char *const failing[] = {
      "messages on sequential(2) { for p = 0 .. P - 1 { send p -> 6 - p : m; } }",
      "messages on round_robin(P / 3) { for p = 0 .. P - 1 { send p -> (p + 1) % P : m; } }",
      "messages on sequential(1) { for p = 0 .. P - 1 { send p -> (p + 1) % P : m - 1000; } }",
  };
  for (size_t i = 0; i < sizeof failing / sizeof *failing; i++) {
    tally t = messages_case(failing[i], tp);
    CHECK(t.handed_back > 0 && t.compiled > 0);
  }
  tally t = messages_case(valid[0], tn);
  CHECK(t.handed_back > 0 && t.compiled > 0); /* P = 1: every message stays on its node */
  tlop_ctx_set_max_messages(ctx, 20);
  t = messages_case(valid[1], tp);
  CHECK(t.handed_back > 0 && t.compiled > 0);
  tlop_ctx_set_max_messages(ctx, 1e6);
  free(take_diags());
}

/* ---- Open MPI's pipeline: the schedule placed level by level ---- */

/* stdlib's bcast_sm places each level's copies at once, counted in closed form; the walk
 * it replaced placed them rank by rank. Over random (m, P, g), on a table (τ beyond its
 * columns) and an analytic platform: the interpreter on both forms and the JIT on the
 * stdlib's give the same bits. */
static const char *PIPELINE_LINEAR =
    "import \"openmpi/bcast_sm\";\n"
    "fn level(r: count, g: count) = floor(log(g, (g - 1) * r + 1));\n"
    "algorithm bcast_sm_linear(m: size, P: count, g: count) =\n"
    "  let k = ceil(m / 8 KiB) in let D = level(P - 1, g) in\n"
    "  schedule L(8 KiB) {\n"
    "    for j = 0 .. k - 1 { if P > 1 { at 1 + 2 * j; } }\n"
    "    for r = 1 .. P - 1 {\n"
    "      let l = level(r, g);\n"
    "      for j = 0 .. k - 1 {\n"
    "        if l == D { at D + 1 + 2 * j; }\n"
    "        else { if g * r + 1 <= P - 1 { at l + 1 + 2 * j; } at l + 2 + 2 * j; }\n"
    "      }\n"
    "    }\n"
    "  };\n";

static void test_pipeline_grouped(void) {
  static const char *const names[] = {"m", "P", "g"};
  write_file("pipeline.tlop", PIPELINE_LINEAR);
  char path[128];
  snprintf(path, sizeof path, "%s/pipeline.tlop", dir);
  tlop_model *m;
  tlop_expr *e[2] = {NULL, NULL};
  tlop_env *params = tlop_env_new(ctx);
  tlop_env_set(params, "m", 1, TLOP_KIND_SIZE);
  tlop_env_set(params, "P", 1, TLOP_KIND_COUNT);
  tlop_env_set(params, "g", 2, TLOP_KIND_COUNT);
  bool loaded = tlop_load_file(ctx, path, &m) == TLOP_OK &&
                tlop_expr_parse(m, "bcast_sm(m, P, g)", params, &e[0]) == TLOP_OK &&
                tlop_expr_parse(m, "bcast_sm_linear(m, P, g)", params, &e[1]) == TLOP_OK;
  CHECK(loaded);
  tlop_env_free(params);
  if (!loaded) {
    fputs(diags.s ? diags.s : "", stderr);
    free(take_diags());
    return;
  }
  enum { N = 400 };
  double *pts = malloc(3 * N * sizeof *pts), *grouped = malloc(N * sizeof *grouped);
  double *linear = malloc(N * sizeof *linear), *compiled = malloc(N * sizeof *compiled);
  uint8_t *xf = malloc(N);
  gen g = {.s = 0x243F6A8885A308D3ull};
  for (size_t i = 0; i < N; i++) {
    /* sizes on and between segments, P across several levels, degrees 2 .. 9 */
    pts[3 * i] = (double)(rnd(&g) % (40 * 8192 + 1));
    pts[3 * i + 1] = (double)(1 + rnd(&g) % 700);
    pts[3 * i + 2] = (double)(2 + rnd(&g) % 8);
  }
  const tlop_platform *pfs[2] = {tp, ta};
  for (int p = 0; p < 2; p++) {
    tlop_kernels *k = NULL;
    CHECK(tlop_jit_compile(jit, (const tlop_expr *const *)e, 1, pfs[p], env, names, 3, &k) == TLOP_OK);
    CHECK(tlop_eval_batch(e[0], pfs[p], env, names, 3, pts, N, grouped) == TLOP_OK);
    CHECK(tlop_eval_batch(e[1], pfs[p], env, names, 3, pts, N, linear) == TLOP_OK);
    CHECK(k && jit_kernels_run(k, 0, pts, N, compiled, xf) == TLOP_OK);
    size_t differ = 0;
    for (size_t i = 0; i < N; i++)
      if (memcmp(&grouped[i], &linear[i], sizeof *linear) || memcmp(&compiled[i], &linear[i], sizeof *linear)) {
        if (differ++ < 3)
          fprintf(stderr, "  bcast_sm(%.17g, %.17g, %.17g): grouped %.17g, JIT %.17g, linear %.17g\n",
                  pts[3 * i], pts[3 * i + 1], pts[3 * i + 2], grouped[i], compiled[i], linear[i]);
      }
    CHECK(differ == 0);
    CHECK(linear[0] > 0 || linear[1] > 0); /* the points price something */
    tlop_kernels_free(k);
  }
  printf("bcast_sm level by level: %d random points on 2 platforms, interpreter ≡ JIT ≡ the "
         "rank-by-rank walk\n", N);
  free(pts);
  free(grouped);
  free(linear);
  free(compiled);
  free(xf);
  free(take_diags());
}

/* ---- rings counted per node ---- */

/* A pricer that keeps the τ of every look-up, in order, for comparing what is priced. */
typedef struct tau_log {
  double tau[4096];
  size_t n;
} tau_log;

static bool log_price(void *self, double m, double tau, double *cost) {
  tau_log *log = self;
  if (log->n < sizeof log->tau / sizeof *log->tau)
    log->tau[log->n++] = tau;
  *cost = tau * 1e-6 + m * 1e-9;
  return true;
}

/* The distinct τ of a log in the order they first came: what the extrapolation warnings
 * and the maximum depend on. */
static size_t first_seen(const tau_log *log, double *out) {
  size_t n = 0;
  for (size_t i = 0; i < log->n; i++) {
    size_t j = 0;
    while (j < n && out[j] != log->tau[i])
      j++;
    if (j == n)
      out[n++] = log->tau[i];
  }
  return n;
}

/* The rank p sends to in a regular stage, from its definition in whole numbers. */
static int64_t partner(const msg_ring *r, int64_t p) {
  int64_t s = (int64_t)r->shift;
  if (r->shape == TLOP_RT_SHIFT)
    return p + s;
  if (r->shape == TLOP_RT_SWAP)
    return (p / s) % 2 == 0 ? p + s : p - s;
  return (p + s) % (int64_t)r->modulus;
}

/* A random regular stage: a ring of 0 … N − 1, a shift or a swap of a random range, on
 * groups from one rank to more than all of them; swaps by powers of two half the time. */
static msg_ring random_regular(gen *g) {
  double N = (double)(1 + rnd(g) % 300);
  msg_ring r = {.lo = 0, .count = N, .shift = (double)(rnd(g) % (2 * (uint64_t)N + 1)), .modulus = N,
                .size = 1000, .group = (double)(1 + rnd(g) % ((uint64_t)N + 3)),
                .round_robin = (double)(rnd(g) % 2), .max_messages = 1e6, .shape = (double)(rnd(g) % 3)};
  if (r.shape != TLOP_RT_RING && rnd(g) % 2)
    r.lo = (double)(rnd(g) % 200);
  if (r.shape == TLOP_RT_SWAP)
    r.shift = rnd(g) % 2 ? ldexp(1, (int)(rnd(g) % 9)) : (double)(1 + rnd(g) % 70);
  if (r.shape == TLOP_RT_SWAP && rnd(g) % 2) /* a group of whole pairs or inside a block */
    r.group = rnd(g) % 2 ? 2 * r.shift * (double)(1 + rnd(g) % 3) : r.shift / (double)(1 + rnd(g) % 4);
  r.group = fmax(1, floor(r.group));
  return r;
}

/* msgs_ring_cost against msgs_cost of the same messages placed one by one, over random
 * rings, shifts and swaps: the same distinct look-ups per channel, in the same order,
 * and the same bits. */
static void test_ring_counting(void) {
  gen g = {.s = 0x13198A2E03707344ull};
  enum { STAGES = 6000 };
  size_t closed = 0, shapes[3] = {0, 0, 0};
  for (int t = 0; t < STAGES; t++) {
    msg_ring r = random_regular(&g);
    double pars[2] = {(double)(1 + rnd(&g) % 3), (double)(1 + rnd(&g) % 3)};
    size_t n = (size_t)r.count;
    msg *ms = malloc(n * sizeof *ms);
    for (size_t k = 0; k < n; k++) {
      int64_t src = (int64_t)r.lo + (int64_t)k, dst = partner(&r, src), q = (int64_t)r.group;
      int64_t from = r.round_robin != 0 ? src % q : src / q, to = r.round_robin != 0 ? dst % q : dst / q;
      ms[k] = (msg){(double)src, (double)dst, r.size, 1, (double)to, from != to};
    }
    tau_log logs[2][2] = {{{.n = 0}, {.n = 0}}, {{.n = 0}, {.n = 0}}}; /* [counted][net] */
    msg_pricer linear[2] = {{log_price, &logs[0][0]}, {log_price, &logs[0][1]}};
    msg_pricer ring[2] = {{log_price, &logs[1][0]}, {log_price, &logs[1][1]}};
    double a = NAN, b = NAN;
    bool is_closed = false;
    CHECK(msgs_cost(ms, n, pars, linear, &a));
    CHECK(msgs_ring_cost(&r, pars, ring, &b, &is_closed) && is_closed);
    closed += is_closed;
    shapes[(int)r.shape] += is_closed;
    bool same = !memcmp(&a, &b, sizeof a);
    for (int net = 0; net < 2; net++) {
      double x[4096], y[4096];
      size_t nx = first_seen(&logs[0][net], x), ny = first_seen(&logs[1][net], y);
      same = same && nx == ny && !memcmp(x, y, nx * sizeof *x);
    }
    CHECK(same);
    if (!same)
      fprintf(stderr, "  shape %g lo=%g count=%g shift=%g group=%g round_robin=%g: linear %.17g, counted %.17g\n",
              r.shape, r.lo, r.count, r.shift, r.group, r.round_robin, a, b);
    free(ms);
  }
  CHECK(closed == STAGES && shapes[0] && shapes[1] && shapes[2]);
  printf("regular stages counted per node: %zu rings, %zu shifts, %zu swaps, the look-ups and bits "
         "of the walk\n", shapes[0], shapes[1], shapes[2]);
}

/* The stdlib's regular stages are recognised as what they are: MPICH's binomial a shift,
 * its recursive doubling a swap, its ring allgather a ring (so that they are counted). */
static void test_stdlib_regular(const char *src) {
  static const char SOURCE[] = "import \"mpich/bcast\";\n";
  static const struct {
    const char *text;
    int shape;
  } stages[] = {{"_binomial_stage(m, P, i, M, sequential)", TLOP_RT_SHIFT},
                {"_rda_stage(m, P, i, M, round_robin)", TLOP_RT_SWAP},
                {"_ring_stage(m, P, M, sequential)", TLOP_RT_RING}};
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/unit/regular.tlop", src);
  tlop_model *m;
  CHECK(tlop_load_source(ctx, path, SOURCE, strlen(SOURCE), &m) == TLOP_OK);
  tlop_env *names = tlop_env_new(ctx);
  tlop_env_set(names, "m", 1, TLOP_KIND_SIZE);
  for (int k = 0; k < 3; k++)
    tlop_env_set(names, (const char *[]){"P", "i", "M"}[k], 1, TLOP_KIND_COUNT);
  for (size_t k = 0; k < sizeof stages / sizeof *stages; k++) {
    tlop_expr *e = NULL;
    msg_ring_form form;
    CHECK(tlop_expr_parse(m, stages[k].text, names, &e) == TLOP_OK);
    bool recognised = e && e->node->op == IR_MSGS && msgs_ring_form(e->node, &form) &&
                      form.shape == stages[k].shape;
    CHECK(recognised);
    if (!recognised)
      fprintf(stderr, "  %s is not counted as shape %d\n", stages[k].text, stages[k].shape);
  }
  tlop_env_free(names);
  free(take_diags());
}

/* Regular stages in both engines against the same stages written so that they are
 * placed one by one (the source min(p, P) is not the plain index), over random P, M and
 * mappings: rings with a whole ∥ around (counted) and a fraction (placed one by one: its
 * sums round), shifts of a range (the binomial's) and swaps of blocks (recursive
 * doubling's, by a power of two or any d, from rank 0 or a few ranks on). */
static void test_ring_engines(const char *src) {
  static const char *const names[] = {"m", "P", "M", "c"};
  static const char RINGS[] =
      "import \"taulop/transmission\";\n"
      "fn _swap(p: count, d: count) = if floor(p / d) % 2 == 0 then p + d else p - d;\n"
      "algorithm counted(m: size, P: count, M: count, c: count, map: mapping) =\n"
      "  messages on place(map, M, P) { for p = 0 .. P - 1 { send p -> (p + c) % P : m; } }\n"
      "  + (2 ∥ messages[L] on place(map, M, P) { for p = 0 .. P - 1 { send p -> (c + p) % P : m; } })\n"
      "  + (1.5 ∥ messages on place(map, M, P) { for p = 0 .. P - 1 { send p -> (p + c) % P : m; } })\n"
      "  + messages on place(map, M, P) { for t = c % 7 .. min(2^(c % 9), P) - 1 { send t -> t + 2^(c % 9) : m; } }\n"
      "  + messages on place(map, M, P) { for p = 0 .. P - 1 { send p -> _swap(p, 2^(c % 9)) : m; } }\n"
      "  + messages on place(map, M, P) { for p = c % 5 .. P - 1 { send p -> _swap(p, c % 70 + 1) : m; } };\n"
      "algorithm walked(m: size, P: count, M: count, c: count, map: mapping) =\n"
      "  messages on place(map, M, P) { for p = 0 .. P - 1 { send min(p, P) -> (p + c) % P : m; } }\n"
      "  + (2 ∥ messages[L] on place(map, M, P) { for p = 0 .. P - 1 { send min(p, P) -> (c + p) % P : m; } })\n"
      "  + (1.5 ∥ messages on place(map, M, P) { for p = 0 .. P - 1 { send min(p, P) -> (p + c) % P : m; } })\n"
      "  + messages on place(map, M, P) { for t = c % 7 .. min(2^(c % 9), P) - 1 { send min(t, P) -> t + 2^(c % 9) : m; } }\n"
      "  + messages on place(map, M, P) { for p = 0 .. P - 1 { send min(p, P) -> _swap(p, 2^(c % 9)) : m; } }\n"
      "  + messages on place(map, M, P) { for p = c % 5 .. P - 1 { send min(p, P) -> _swap(p, c % 70 + 1) : m; } };\n";
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/unit/rings.tlop", src);
  tlop_model *m;
  CHECK(tlop_load_source(ctx, path, RINGS, strlen(RINGS), &m) == TLOP_OK);
  enum { N = 300 };
  double *pts = malloc(4 * N * sizeof *pts), *out[3];
  uint8_t *xf = malloc(N);
  for (int k = 0; k < 3; k++)
    out[k] = malloc(N * sizeof *out[k]);
  gen g = {.s = 0xA4093822299F31D0ull};
  for (size_t i = 0; i < N; i++) {
    pts[4 * i] = (double)(rnd(&g) % 300000);
    pts[4 * i + 1] = (double)(1 + rnd(&g) % 500);
    pts[4 * i + 2] = (double)(1 + rnd(&g) % 40);
    pts[4 * i + 3] = (double)(rnd(&g) % 600);
  }
  static const char *const maps[] = {"sequential", "round_robin"};
  const tlop_platform *pfs[2] = {tp, ta};
  size_t agreed = 0;
  for (int map = 0; map < 2; map++)
    for (int p = 0; p < 2; p++) {
      tlop_env *with = tlop_env_new(ctx);
      tlop_expr *e[2];
      tlop_kernels *k = NULL;
      CHECK(tlop_env_set_mapping(with, "map", maps[map]) == TLOP_OK);
      bool built = tlop_algorithm_expr(m, "counted", with, &e[0]) == TLOP_OK &&
                   tlop_algorithm_expr(m, "walked", with, &e[1]) == TLOP_OK;
      CHECK(built);
      if (!built) {
        fputs(diags.s ? diags.s : "", stderr);
        return;
      }
      CHECK(tlop_jit_compile(jit, (const tlop_expr *const *)e, 1, pfs[p], env, names, 4, &k) == TLOP_OK);
      CHECK(tlop_eval_batch(e[0], pfs[p], env, names, 4, pts, N, out[0]) == TLOP_OK);
      CHECK(tlop_eval_batch(e[1], pfs[p], env, names, 4, pts, N, out[1]) == TLOP_OK);
      CHECK(k && jit_kernels_run(k, 0, pts, N, out[2], xf) == TLOP_OK);
      for (size_t i = 0; i < N; i++) {
        bool same = !memcmp(&out[0][i], &out[1][i], sizeof(double)) &&
                    !memcmp(&out[2][i], &out[1][i], sizeof(double)) && out[1][i] > 0;
        CHECK(same);
        agreed += same;
        if (!same)
          fprintf(stderr, "  %s stages at m=%g P=%g M=%g c=%g: counted %.17g, JIT %.17g, walked %.17g\n",
                  maps[map], pts[4 * i], pts[4 * i + 1], pts[4 * i + 2], pts[4 * i + 3], out[0][i],
                  out[2][i], out[1][i]);
      }
      tlop_kernels_free(k);
      tlop_env_free(with);
    }
  printf("regular stages: %zu points of 2 mappings on 2 platforms, interpreter ≡ JIT ≡ the walk\n", agreed);
  for (int k = 0; k < 3; k++)
    free(out[k]);
  free(pts);
  free(xf);
  free(take_diags());
}

/* 2^y from its exponent bits where y is whole and the result normal, libm's pow elsewhere
 * (jit_expr.c's pow2_fn): the interpreter's bits at whole, fractional, subnormal and
 * vanishing powers alike. */
static void test_pow2(void) {
  static const char *const texts[] = {"2^(P / 4 - 1100) * 1 s", "2^(P / 12 - 400) * 1 s"};
  size_t n = 8496; /* P / 4 − 1100 from −1100 to 1023.75: every whole exponent of a double */
  double *pts = malloc(2 * n * sizeof *pts), *jitted = malloc(n * sizeof *jitted),
         *interp = malloc(n * sizeof *interp);
  uint8_t *xf = malloc(n);
  for (size_t i = 0; i < n; i++) {
    pts[2 * i] = 1;
    pts[2 * i + 1] = (double)i;
  }
  for (int t = 0; t < 2; t++) {
    tlop_expr *e = parse(texts[t]);
    tlop_kernels *k = NULL;
    CHECK(e && tlop_jit_compile(jit, (const tlop_expr *const *)&e, 1, tp, env, MP, 2, &k) == TLOP_OK);
    if (!k)
      continue;
    CHECK(jit_kernels_run(k, 0, pts, n, jitted, xf) == TLOP_OK);
    CHECK(tlop_eval_batch(e, tp, env, MP, 2, pts, n, interp) == TLOP_OK);
    size_t same = 0;
    for (size_t i = 0; i < n; i++)
      same += memcmp(&jitted[i], &interp[i], sizeof *jitted) == 0;
    CHECK(same == n);
    tlop_kernels_free(k);
  }
  free(take_diags());
  free(pts);
  free(jitted);
  free(interp);
  free(xf);
}

/* Look-ups in an arm of a condition are made on its branch only, and a size equal at run
 * time to the one located before it in the same table takes its locus (jit_expr.c's
 * guarded and locus): the interpreter's bits, flags and errors where the sizes are equal
 * and where not, an error in the arm taken and none from the other, a negative or
 * infinite size still refused; on baked tables, a table read at run time, and with more
 * look-ups than are inlined (calls). */
static void test_shared_locus(void) {
  static const struct {
    const char *text;
    bool fails; /* at some points of the grid */
  } cases[] = {
      {"o(if P > 4 then m * P else m) + L(m * P, 3)", false},
      {"if P > 4 then L(m - 70000, P) else o(m)", true},
      {"if P > 100 then L(m - 70000, P) else o(m) + L(m, P)", false},
      {"o(m - 70000) + L(if P > 2 then m - 70000 else m, 2)", true},
      {"o(if P > 7 then m * 1e300 * P else m) + (P ∥ L(m * 1e300 * P, 2))", true},
      {"o(if P > 4 then m * P else m) + L(m * P, 3) + L(m / P, 2) + o(m / P) + L(m, P) + o(m)",
       false},
      {"o(if P > 4 then m * P else m - 70000) + L(m * P, 3) + L(m / P, 2) + o(m / P) + L(m, P)",
       true},
  };
  const tlop_platform *pfs[2] = {tp, tb};
  for (int p = 0; p < 2; p++)
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
      tlop_expr *e = parse(cases[c].text);
      tlop_kernels *k = NULL;
      CHECK(e && tlop_jit_compile(jit, (const tlop_expr *const *)&e, 1, pfs[p], env, MP, 2, &k) == TLOP_OK);
      if (!k)
        continue;
      tally t = {0};
      compare(k, 0, e, pfs[p], MP, 2, grid, NGRID, &t, cases[c].text);
      CHECK(t.interpreted == 0 && t.inexact == 0 && t.overflagged == 0);
      CHECK((t.handed_back > 0) == cases[c].fails);
      tlop_kernels_free(k);
    }
  free(take_diags());
}

/* The points that need the interpreter's word, found slice by slice on three threads:
 * the extrapolations first met in the last slices are warned of at the points a single
 * pass finds, as tlop_eval_batch warns. */
static void test_marks(void) {
  size_t n = 40000;
  double *pts = malloc(2 * n * sizeof *pts), *out = malloc(n * sizeof *out);
  for (size_t i = 0; i < n; i++) {
    pts[2 * i] = i < 30000 ? (double)(64 + i % 900) : 1e6 + (double)i; /* then beyond the rows */
    pts[2 * i + 1] = i < 35000 ? 2 : 9;                                 /* then beyond τ = 4 */
  }
  tlop_expr *e = parse("P ∥ L(m, 1) + o(m)");
  tlop_kernels *k = NULL;
  CHECK(e && tlop_jit_compile(jit, (const tlop_expr *const *)&e, 1, tp, env, MP, 2, &k) == TLOP_OK);
  if (k) {
    free(take_diags());
    tlop_jit_set_jobs(jit, 3);
    CHECK(tlop_kernels_eval(k, 0, pts, n, out) == TLOP_OK);
    tlop_jit_set_jobs(jit, 1);
    char *threaded = take_diags();
    CHECK(tlop_eval_batch(e, tp, env, MP, 2, pts, n, out) == TLOP_OK);
    char *single = take_diags();
    CHECK(strstr(threaded, "1030000") && strstr(threaded, "1035000"));
    CHECK_STR(threaded, single);
    free(threaded);
    free(single);
    tlop_kernels_free(k);
  }
  free(pts);
  free(out);
}

/* A function called twice with other numbers: in a module that may go to the quick tier
 * its body is one function the calls call, which counts its sums' terms against the limit
 * with the caller's (here 2·P terms: over 100 from P = 51), and gives the interpreter's
 * bits. */
static void test_called_bodies(void) {
  const char *src =
      "fn _tree(m: size, P: count) =\n"
      "  sum i = 0 .. P - 1 : o(2^i * m / P) + L(2^i * m / P, 1) + o(m) + L(m, 2)\n"
      "    + log2(P + i) * o(m * (i + 1)) + max(L(m / (i + 1), 3), o(3 * m))\n"
      "    + (if m < 1 KiB then L(m * 3, 3) + o(m / 3) else o(m * 2) + L(m * 2, 1) + L(m / 2, 2));\n"
      "algorithm twice(m: size, P: count) = _tree(m, P) + _tree(m / 2, P + 1);\n";
  write_file("called.tlop", src);
  char path[128];
  snprintf(path, sizeof path, "%s/called.tlop", dir);
  tlop_model *m;
  tlop_expr *e;
  if (tlop_load_file(ctx, path, &m) != TLOP_OK || tlop_algorithm_expr(m, "twice", NULL, &e) != TLOP_OK) {
    fputs(diags.s ? diags.s : "", stderr);
    CHECK(false);
    return;
  }
  jit_gen g;
  jit_gen_init(&g, ctx, jit->llctx, "called", tp, env, SIZE_MAX);
  g.may_quicken = true;
  CHECK(jit_gen_point(&g, m, e->node, MP, 2, "twice") != NULL);
  CHECK(LLVMGetNamedFunction(g.mod, "tlop.body._tree") != NULL);
  jit_gen_dispose(&g);
  tlop_ctx_set_max_terms(ctx, 100);
  tally t = {0};
  tlop_kernels *k = NULL;
  CHECK(tlop_jit_compile(jit, (const tlop_expr *const *)&e, 1, tp, env, MP, 2, &k) == TLOP_OK);
  if (k)
    compare(k, 0, e, tp, MP, 2, grid, NGRID, &t, "twice");
  tlop_kernels_free(k);
  tlop_ctx_set_max_terms(ctx, 1e8);
  CHECK(t.compiled > 0 && t.handed_back > 0 && t.overflagged == 0);
  printf("a body called twice: %zu points, %zu compiled, %zu handed back\n", t.points,
         t.compiled, t.handed_back);
  free(take_diags());
}

static void test_threads(void) {
  size_t n = 40000;
  double *pts = malloc(2 * n * sizeof *pts), *one = malloc(n * sizeof *one), *two = malloc(n * sizeof *two);
  uint8_t *xf = malloc(n);
  for (size_t i = 0; i < n; i++) {
    pts[2 * i] = (double)(i * 37 % 1000003);
    pts[2 * i + 1] = (double)(1 + i % 200);
  }
  tlop_expr *e = parse("sum i = 0 .. ceil(log2(P)) - 1 : min(2^i, P - 2^i) ∥ (o(m) + 2 * L(m, 1))");
  tlop_kernels *k = NULL;
  CHECK(e && tlop_jit_compile(jit, (const tlop_expr *const *)&e, 1, tp, env, MP, 2, &k) == TLOP_OK);
  if (k) {
    CHECK(jit_kernels_run(k, 0, pts, n, one, xf) == TLOP_OK);
    tlop_jit_set_jobs(jit, 3);
    CHECK(jit_kernels_run(k, 0, pts, n, two, xf) == TLOP_OK);
    tlop_jit_set_jobs(jit, 1);
    CHECK(memcmp(one, two, n * sizeof *one) == 0);
    tlop_kernels_free(k);
  }
  free(pts);
  free(one);
  free(two);
  free(xf);
}

/* Replaces the one object of the cache with garbage, or with a FIFO (which a reader that
 * opened it blocking would wait on for ever); the count of objects replaced. */
static int plant_in_cache(const char *cache, bool fifo) {
  DIR *d = opendir(cache);
  struct dirent *de;
  int objects = 0;
  while (d && (de = readdir(d)))
    if (strstr(de->d_name, ".o")) {
      char p[512];
      snprintf(p, sizeof p, "%s/%s", cache, de->d_name);
      FILE *f = fifo ? NULL : fopen(p, "w");
      if (f) {
        fputs("not an object", f);
        fclose(f);
      }
      if (fifo)
        CHECK(unlink(p) == 0 && mkfifo(p, 0600) == 0);
      objects++;
    }
  if (d)
    closedir(d);
  return objects;
}

static void test_cache(void) {
  char cache[128];
  snprintf(cache, sizeof cache, "%s/cache", dir);
  tlop_expr *e = parse("sum i = 0 .. log2(P) - 1 : P ∥ (o(2^i * m) + 2 * L(2^i * m, 1))");
  double v[4][NGRID];
  for (int round = 0; round < 4 && e; round++) {
    tlop_jit *j;
    tlop_kernels *k = NULL;
    CHECK(tlop_jit_new(ctx, &j) == TLOP_OK);
    tlop_jit_set_cache(j, 1, cache);
    CHECK(tlop_jit_compile(j, (const tlop_expr *const *)&e, 1, tp, env, MP, 2, &k) == TLOP_OK);
    /* round 0 compiles and stores; round 1 finds it; round 2 finds it damaged, recompiles;
     * round 3 finds a FIFO under its name, a miss (not a hang), recompiles */
    CHECK(j->stats.cache_hit == (round == 1));
    if (k)
      CHECK(tlop_kernels_eval(k, 0, grid, NGRID, v[round]) == TLOP_OK);
    tlop_kernels_free(k);
    tlop_jit_free(j);
    if (round == 1 || round == 2)
      CHECK(plant_in_cache(cache, round == 2) == 1);
  }
  for (int round = 1; round < 4; round++)
    CHECK(memcmp(v[0], v[round], sizeof v[0]) == 0);
  free(take_diags());
}

static void test_emit(void) {
  tlop_model *m;
  char path[4096];
  snprintf(path, sizeof path, "%s/model.tlop", dir);
  const char *src = "import \"mpich/bcast\";\nalgorithm two(m: size, P: count) = P ∥ L(m, 2);\n";
  write_file("emit.tlop", src);
  snprintf(path, sizeof path, "%s/emit.tlop", dir);
  if (tlop_load_file(ctx, path, &m) != TLOP_OK) {
    CHECK(false);
    return;
  }
  const char *const algos[] = {"two"};
  char *code, *header;
  size_t len;
  /* a table slot: the header says how to fill it */
  CHECK(tlop_jit_emit(jit, m, algos, 1, tp, env, 0, TLOP_EMIT_LLVM_IR, "costs", &code, &len,
                      &header) == TLOP_OK);
  CHECK(code && strstr(code, "define double @two(double") && strlen(code) == len);
  CHECK(header && strstr(header, "double two(double m, double P, const tlop_emit_table *tables);"));
  CHECK(header && strstr(header, "costs_tables(const tlop_platform *pf"));
  free(code);
  free(header);
  /* baked: no slot, and an object file */
  CHECK(tlop_jit_emit(jit, m, algos, 1, tp, env, 1, TLOP_EMIT_OBJECT, "costs", &code, &len,
                      &header) == TLOP_OK);
  CHECK(code && len > 4 && !memcmp(code, "\177ELF", 4));
  CHECK(header && strstr(header, "double two(double m, double P);") && !strstr(header, "tlop.h"));
  free(code);
  free(header);
  /* messages stages call libtlop's pricing (a ring's and the others'): the header says to
   * link it */
  const char *const ring[] = {"ring"};
  write_file("ring.tlop", "algorithm ring(m: size, P: count) = messages on sequential(2) "
                          "{ for p = 0 .. P - 1 { send p -> (p + 1) % P : m; } } + messages on "
                          "sequential(2) { for p = 1 .. P - 1 { send p -> 0 : m; } };\n");
  snprintf(path, sizeof path, "%s/ring.tlop", dir);
  tlop_model *rm;
  CHECK(tlop_load_file(ctx, path, &rm) == TLOP_OK);
  CHECK(tlop_jit_emit(jit, rm, ring, 1, tp, env, 1, TLOP_EMIT_LLVM_IR, "costs", &code, &len,
                      &header) == TLOP_OK);
  CHECK(code && strstr(code, "declare double @tlop_rt_messages(") &&
        strstr(code, "declare double @tlop_rt_messages_regular("));
  CHECK(header && strstr(header, "link with libtlop (-ltlop)"));
  free(code);
  free(header);
  /* what cannot be compiled is an error here, not a fallback */
  const char *const bad[] = {"nothing"};
  CHECK(tlop_jit_emit(jit, m, bad, 1, tp, env, 1, TLOP_EMIT_ASM, "costs", &code, &len, NULL) ==
        TLOP_ERR_ARG);
  char *d = take_diags();
  CHECK(strstr(d, "'nothing' is not an algorithm") != NULL);
  free(d);
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  if (argc < 2 || !setup()) {
    fprintf(stderr, "usage: test_jit SOURCE_DIR (and a writable /tmp)\n");
    return 1;
  }
  tlop_engine e;
  CHECK(tlop_engine_parse("jit", &e) == TLOP_OK && e == TLOP_ENGINE_JIT);
  CHECK(tlop_engine_parse("fast", &e) == TLOP_ERR_ARG);
  CHECK(tlop_engine_pick(TLOP_ENGINE_AUTO, 10) == TLOP_ENGINE_INTERP);
  CHECK(tlop_engine_pick(TLOP_ENGINE_AUTO, 10000000) == TLOP_ENGINE_JIT);
  CHECK(tlop_engine_pick(TLOP_ENGINE_INTERP, 10000000) == TLOP_ENGINE_INTERP);
  test_stdlib(argv[1]);
  test_operators(argv[1]);
  test_random_all();
  test_fallbacks();
  test_messages(argv[1]);
  test_pipeline_grouped();
  test_ring_counting();
  test_ring_engines(argv[1]);
  test_stdlib_regular(argv[1]);
  test_threads();
  test_pow2();
  test_shared_locus();
  test_called_bodies();
  test_marks();
  test_cache();
  test_emit();
  tlop_jit_free(jit);
  tlop_env_free(env);
  tlop_platform_free(tp);
  tlop_platform_free(ta);
  tlop_platform_free(tn);
  tlop_platform_free(tb);
  tlop_ctx_free(ctx);
  free(diags.s);
  char rm[128];
  snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
  if (system(rm) != 0)
    fprintf(stderr, "could not remove %s\n", dir);
  return unit_report("test_jit");
}
