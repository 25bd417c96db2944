/* tlop_measure.h — the machine side of τ-Lop: measuring a parameter table on this machine
 * (the set-ups of the τ-Lop paper, 2015, §5) and reading timings of MPI benchmark runs
 * (IMB, OSU) to score a model's predictions against them.
 *
 * Same conventions as tlop.h: statuses, diagnostics through the context's handler, the
 * library never prints; what a `char *` returns is malloc'd and belongs to the caller. */
#ifndef TLOP_MEASURE_H
#define TLOP_MEASURE_H

#include "tlop.h"

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ======== measuring L(m,τ) and o(m) ======== */

/* How τ concurrent transfers are arranged (paper §5, Figs. 18–20). In each, τ = 1 is one
 * transfer alone: a thread copying through a buffer it shares with itself. */
typedef enum {
  TLOP_SETUP_RING,  /* τ threads in a ring; a pulse is a copy into the buffer shared with
                       the right neighbour, then a copy out of the left one: L = l(k,τ)/2k */
  TLOP_SETUP_BCAST, /* one writer, τ−1 readers of the same buffer: L = l(k,τ)/k */
  TLOP_SETUP_PING   /* τ/2 independent writer–reader pairs: L = l(k,τ)/k; even τ only,
                       odd τ > 1 are interpolated (and marked so) */
} tlop_setup;

typedef enum { TLOP_TABLE_TEXT, TLOP_TABLE_CSV } tlop_table_format;

/* Called after every cell: `done` of `total` cells measured, the one just finished. */
typedef void (*tlop_measure_progress_fn)(void *user, size_t done, size_t total, double m,
                                         int tau);

typedef struct tlop_measure_opts {
  tlop_setup setup;
  const int *cores;      /* logical CPUs to pin thread i to cores[i % ncores]; NULL: those
                            this process may run on, NUMA node by NUMA node */
  size_t ncores;
  int max_tau;           /* columns τ = 1..max_tau; 0: the number of cores */
  bool oversubscribe;    /* allow max_tau > cores (results are then not meaningful) */
  int slots;             /* segments of the shared buffer of each writer; 0: 2 */
  double seg;            /* segment size S in bytes; 0: 8 KiB. A transfer of m > S bytes
                            moves in k = ⌈m/S⌉ segments, m ≤ S in one */
  bool off_cache;        /* user buffers out of cache (a fresh region every message) */
  const double *sizes;   /* the rows m (bytes, increasing); NULL: the 30 sizes of the
                            libtaulop tables, 1 B .. 4 MiB */
  size_t nsizes;
  int reps;              /* samples per cell; 0: until the 95 % confidence interval of the
                            median is within rel_err of it */
  double rel_err;        /* 0: 0.05 */
  int max_reps;          /* most samples per cell when adaptive; 0: 200 */
  double min_time;       /* seconds a sample lasts at least (messages are repeated back to
                            back to reach it); 0: 2 ms */
  const char *output;    /* table file (written to OUTPUT.tmp.PID, renamed when complete);
                            NULL: only the result is returned */
  tlop_table_format format;
  const char *json;      /* the JSON sidecar (also renamed into place); NULL: none */
  volatile sig_atomic_t *stop;          /* polled between samples: non-zero stops */
  tlop_measure_progress_fn progress;
  void *progress_user;
} tlop_measure_opts;

/* The spread of one cell: the samples are times l of one message (seconds). */
typedef struct tlop_measure_cell {
  double value;     /* L(m,τ), or o for the overhead cell */
  double median;    /* of l */
  double ci_lo, ci_hi; /* 95 % confidence interval of the median of l */
  double min, max;
  int samples;
  long iterations;  /* messages per sample */
  int k;            /* segments per message */
  int transfers;    /* copies of a segment that l counts one after the other:
                       L(m,τ) = l/transfers (4 for τ = 1, 2 in a ring, else 1) */
  bool converged;   /* the interval reached rel_err (or reps were fixed) */
  bool derived;     /* not measured: interpolated (ping, odd τ) */
} tlop_measure_cell;

typedef struct tlop_measure_result {
  tlop_setup setup;
  int slots;
  double seg;
  bool off_cache;
  size_t nsizes;
  int ntau;
  double *m;                /* nsizes */
  tlop_measure_cell o;      /* the zero-byte exchange; o(m) of every row */
  tlop_measure_cell *L;     /* nsizes × ntau, row-major: L[i * ntau + τ − 1] */
  double *L_seg;            /* per τ: L(S,τ), the mean of l(k,τ)/(transfers·k) over the
                               rows m = k·S (Fig. 18b); NaN without such a row */
  int *cores;               /* the core of thread i, for i < ntau */
  int reps, max_reps;       /* the sampling rule that was used */
  double rel_err, min_time;
  char date[32];            /* when the measurement started, UTC, ISO 8601 */
  char *cpu_model;
  int online_cpus, numa_nodes;
  double llc_bytes;         /* largest cache, 0 when unknown */
} tlop_measure_result;

/* Whether row i holds a message of k whole segments, m = k·S, the rows L(S,τ) is
 * estimated from (Fig. 18b); then *L_seg is that row's estimate, l(k,τ)/(transfers·k) =
 * L(m,τ)/k, or NaN when the cell of τ was derived rather than measured. */
TLOP_API bool tlop_measure_seg_row(const tlop_measure_result *r, size_t i, int tau, double *L_seg);

/* The 30 message sizes of the libtaulop tables (1 B .. 4 MiB). */
TLOP_API size_t tlop_measure_default_sizes(const double **sizes);
/* Parses a CPU list such as "0-3,8,10-11" (sysfs syntax). *cores is malloc'd. */
TLOP_API tlop_status tlop_measure_parse_cores(tlop_ctx *ctx, const char *text, int **cores,
                                              size_t *n);
TLOP_API const char *tlop_setup_name(tlop_setup s);

/* Measures the table. With opts->output, the table (and opts->json) appear only when
 * complete: an error or a raised stop flag removes the temporary files. */
TLOP_API tlop_status tlop_measure(tlop_ctx *ctx, const tlop_measure_opts *opts,
                                  tlop_measure_result **out);
/* The table in the libtaulop text format or CSV, which tlop reads back. */
TLOP_API char *tlop_measure_table(const tlop_measure_result *r, tlop_table_format f);
/* The JSON sidecar: the machine, the set-up and the spread of every cell. */
TLOP_API char *tlop_measure_json(const tlop_measure_result *r);
TLOP_API void tlop_measure_free(tlop_measure_result *r);

/* ======== benchmark output: IMB and OSU ======== */

/* One curve of a benchmark run: time against message size. */
typedef struct tlop_bench_series {
  char *name;      /* "PingPong", "Bcast" (IMB); "osu_bcast", "osu_latency" (OSU) */
  const char *suite; /* "IMB" or "OSU" */
  int procs;       /* processes, 0 when the file does not say */
  bool one_way;    /* a point-to-point latency: half the round trip (IMB PingPong
                      t[usec], OSU latency) */
  size_t n;
  double *bytes;
  double *seconds; /* IMB t_avg[usec] (t[usec] for PingPong), OSU Avg Latency(us) */
  double *min, *max; /* over the processes: IMB t_min/t_max[usec], OSU Min/Max Latency(us)
                        (its -f output); NULL when the output has no such columns */
  int *lines;      /* where each point was read */
} tlop_bench_series;

typedef struct tlop_bench {
  char *path;
  tlop_bench_series *series;
  size_t nseries;
} tlop_bench;

/* Reads every IMB block (`# Benchmarking NAME`, `# #processes = N`, a `#bytes
 * #repetitions …` header, rows) and OSU block (`# OSU MPI … Test`, `# Size … Latency`,
 * rows). Malformed rows are reported as file:line diagnostics: TLOP_ERR_TABLE. */
TLOP_API tlop_status tlop_bench_read(tlop_ctx *ctx, const char *path, tlop_bench **out);
TLOP_API tlop_status tlop_bench_parse(tlop_ctx *ctx, const char *name, const char *text,
                                      size_t len, tlop_bench **out);
TLOP_API void tlop_bench_free(tlop_bench *b);

#ifdef __cplusplus
}
#endif
#endif
