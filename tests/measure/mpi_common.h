/* mpi_common.h — what the two MPI benchmarks of the end-to-end check share: the message
 * sizes from the command line, and the timing of one size. */
#ifndef TLOP_MPI_COMMON_H
#define TLOP_MPI_COMMON_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* Each size is timed in BATCHES batches of about BATCH_SECONDS, as `tlop measure` times
 * its samples (2 ms by default), and the median batch is kept: on a shared 2-core VM a
 * batch that another process interrupted is an outlier, not the machine. */
#define BATCHES 15
#define BATCH_SECONDS 0.002

/* Sizes in bytes from argv[1..]; the default list is a few sizes of the τ-Lop tables. */
static size_t mpi_sizes(int argc, char **argv, long **out) {
  static const long def[] = {1, 1024, 8192, 65536, 262144, 1048576};
  size_t n = argc > 1 ? (size_t)(argc - 1) : sizeof def / sizeof *def;
  long *v = malloc(n * sizeof *v);
  for (size_t i = 0; i < n; i++)
    v[i] = argc > 1 ? atol(argv[i + 1]) : def[i];
  *out = v;
  return n;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* One call of the operation: returns the seconds it counts (for a benchmark that times
 * only part of what it does, e.g. a broadcast without the barrier after it), or a
 * negative number to count the wall time of the whole batch. */
typedef double (*mpi_op)(void *arg, long size);

/* This rank's seconds per call of op at this size: a few calls warm up (buffers,
 * fragments) and size the batches from the fastest of them (rank 0 decides, every rank
 * runs the same count); the median over BATCHES batches is returned. */
static double mpi_time(mpi_op op, void *arg, long size) {
  double fastest = 1e9;
  for (int i = 0; i < 8; i++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime(), own = op(arg, size);
    t = own >= 0 ? own : MPI_Wtime() - t;
    fastest = t < fastest ? t : fastest;
  }
  double want = BATCH_SECONDS / (fastest > 1e-8 ? fastest : 1e-8);
  int reps = want < 1 ? 1 : want > (1 << 20) ? (1 << 20) : (int)want;
  MPI_Bcast(&reps, 1, MPI_INT, 0, MPI_COMM_WORLD);
  double b[BATCHES];
  for (int k = 0; k < BATCHES; k++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime(), own = 0;
    for (int i = 0; i < reps; i++)
      own += op(arg, size);
    b[k] = (own >= 0 ? own : MPI_Wtime() - t) / reps;
  }
  qsort(b, BATCHES, sizeof *b, cmp_double);
  return b[BATCHES / 2];
}

#endif
