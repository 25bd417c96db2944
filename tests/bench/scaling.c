/* scaling.c — how the cost per point of a stage grows with P, in both engines: Open MPI's
 * pipelined broadcast (bcast_sm, a schedule), a ring of messages on M nodes (a messages
 * stage, sequential and round-robin mappings) and MPICH's binomial broadcast and
 * recursive-doubling allgather on 16 nodes (log2 P messages stages: shifts and swaps),
 * per point at P = 4096 against P = 64 over the same message sizes. Issue 22 asks ≤ 4×
 * for bcast_sm and for messages that fall into a few groups. Every number printed is
 * measured in this run (medians).
 * Usage: tlop_bench_scaling SOURCE_DIR   (see tests/bench/README.md) */
#define _DEFAULT_SOURCE
#include "jit_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NM 64  /* message sizes, 8 KiB .. 1 MiB, geometric */
#define REPS 5 /* timed repetitions; the median is reported */

/* The stages measured, on an analytic platform with both channels: the look-ups cost the
 * same at every P, so the ratio is the stage's own work. */
static const char SOURCE[] =
    "import \"openmpi/bcast_sm\";\n"
    "import \"mpich/bcast\";\n"
    "platform scaling {\n"
    "  channel shm { L(m, τ) = 0.2 us + m * max(1, τ / 4) / 8 GB/s; }\n"
    "  channel net { L(m, τ) = 2 us + m * τ / 1 GB/s; }\n"
    "}\n"
    "fn ring_seq(m: size, P: count) =\n"
    "  messages[L] on sequential(16) { for p = 0 .. P - 1 { send p -> (p + 1) % P : m; } };\n"
    "fn ring_rr(m: size, P: count) =\n"
    "  messages[L] on round_robin(16) { for p = 0 .. P - 1 { send p -> (p + 1) % P : m; } };\n";

static const char *const STAGES[] = {"bcast_sm(m, P, 2)",
                                     "ring_seq(m, P)",
                                     "ring_rr(m, P)",
                                     "bcast_binomial(m, P, 16, sequential)",
                                     "bcast_binomial(m, P, 16, round_robin)",
                                     "allgather_rda(m, P, 16, sequential)",
                                     "allgather_rda(m, P, 16, round_robin)"};
#define NSTAGES (sizeof STAGES / sizeof *STAGES)
static const char *const VARS[] = {"m", "P"};

static void die(const char *what) {
  fprintf(stderr, "tlop_bench_scaling: %s\n", what);
  exit(1);
}

static void on_diag(void *user, const tlop_diag *d) {
  (void)user;
  fprintf(stderr, "%s\n", d->message);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* ns per point: the median of REPS runs of the JIT's kernel (k) or the interpreter. */
static double per_point(tlop_kernels *k, const tlop_expr *e, const tlop_platform *pf,
                        const double *pts, size_t n, double *out) {
  double t[REPS];
  uint8_t *xf = malloc(n);
  for (int r = 0; r < REPS; r++) {
    double t0 = jit_now_ms();
    tlop_status s = k ? jit_kernels_run(k, 0, pts, n, out, xf)
                      : tlop_eval_batch(e, pf, NULL, VARS, 2, pts, n, out);
    if (s != TLOP_OK)
      die("a point did not evaluate");
    t[r] = (jit_now_ms() - t0) * 1e6 / (double)n;
  }
  free(xf);
  qsort(t, REPS, sizeof *t, cmp_double);
  return t[REPS / 2];
}

int main(int argc, char **argv) {
  if (argc != 2)
    die("usage: tlop_bench_scaling SOURCE_DIR");
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/bench/scaling.tlop", argv[1]);
  tlop_ctx *ctx = tlop_ctx_new();
  tlop_ctx_set_diag(ctx, on_diag, NULL);
  tlop_ctx_set_max_messages(ctx, 1e7);
  tlop_model *model;
  tlop_platform *pf;
  tlop_jit *jit;
  if (tlop_load_source(ctx, path, SOURCE, strlen(SOURCE), &model) != TLOP_OK ||
      tlop_platform_open(model, "scaling", &pf) != TLOP_OK || tlop_jit_new(ctx, &jit) != TLOP_OK)
    die("cannot load the stages");
  tlop_jit_set_cache(jit, 0, NULL);
  tlop_jit_set_jobs(jit, 1);
  tlop_jit_expect_points(jit, SIZE_MAX); /* timed as a large sweep compiles them: optimised */
  const double ps[2] = {64, 4096};
  double pts[2][2 * NM], out[NM], ref[NM];
  for (int p = 0; p < 2; p++)
    for (int i = 0; i < NM; i++) {
      pts[p][2 * i] = round(pow(2, 13 + 7.0 * i / (NM - 1)));
      pts[p][2 * i + 1] = ps[p];
    }
  tlop_env *names = tlop_env_new(ctx); /* the kinds the stages' variables are parsed with */
  tlop_env_set(names, "m", 1, TLOP_KIND_SIZE);
  tlop_env_set(names, "P", 1, TLOP_KIND_COUNT);
  printf("%d message sizes (8 KiB .. 1 MiB) at P = 64 and at P = 4096, 1 thread, medians of "
         "%d runs; ns per point\n\n"
         "| stage | JIT P=64 | JIT P=4096 | JIT ratio | interp P=64 | interp P=4096 | "
         "interp ratio | engines agree |\n|---|---|---|---|---|---|---|---|\n", NM, REPS);
  for (size_t s = 0; s < NSTAGES; s++) {
    tlop_expr *e;
    tlop_kernels *k;
    if (tlop_expr_parse(model, STAGES[s], names, &e) != TLOP_OK ||
        tlop_jit_compile(jit, (const tlop_expr *const *)&e, 1, pf, NULL, VARS, 2, &k) != TLOP_OK)
      die("cannot compile a stage");
    double jt[2], it[2];
    bool same = true;
    for (int p = 0; p < 2; p++) {
      jt[p] = per_point(k, e, pf, pts[p], NM, out);
      it[p] = per_point(NULL, e, pf, pts[p], NM, ref);
      same = same && !memcmp(out, ref, sizeof out);
    }
    printf("| %s | %.0f | %.0f | %.2f | %.0f | %.0f | %.2f | %s |\n", STAGES[s], jt[0], jt[1],
           jt[1] / jt[0], it[0], it[1], it[1] / it[0], same ? "bit-identical" : "DIFFER");
    tlop_kernels_free(k);
  }
  tlop_env_free(names);
  tlop_jit_free(jit);
  tlop_platform_free(pf);
  tlop_ctx_free(ctx);
  return 0;
}
