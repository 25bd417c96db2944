/* all_colls.c — a program using every common collective, as a real application would:
 * barrier, bcast, allreduce, reduce, reduce_scatter, allgather, gather, scatter, alltoall
 * and alltoallv at several sizes, every result checked byte by byte. Without arguments it
 * runs them all at each size; with COLL:BYTES arguments it makes those calls only, in
 * order, each after a mark in the log of tests/best/ompi_shim.c when that library is
 * preloaded (tlop_shim_mark).
 * BYTES is tlop's m: the message (bcast), the vector (allreduce, reduce: unsigned chars
 * combined by MPI_BXOR — MPI_SUM on them saturates in Open MPI 4.1.4's AVX operations,
 * a bug of its own), or each process's block (reduce_scatter: of the result, every count
 * equal; allgather, gather, scatter, alltoall, alltoallv: every count equal). Rank 0 prints
 * how many calls were right; any wrong byte is reported and the exit status is 1. */
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tlop_shim_mark(const char *text) __attribute__((weak));

static int rank, nprocs, wrong;

static unsigned char byte(int r, long i) { return (unsigned char)(r * 31 + i * 7 + 1); }

static void check(const char *coll, long n, const unsigned char *got, int from, long at,
                  unsigned char want) {
  if (got[at] != want && wrong++ < 5)
    fprintf(stderr, "rank %d: %s of %ld B: byte %ld (from rank %d) is %u, not %u\n", rank, coll,
            n, at, from, got[at], want);
}

/* One call of the collective with n bytes (per process where the collective has blocks). */
static void call(const char *coll, long n) {
  int P = nprocs;
  unsigned char *a = malloc((size_t)(n * P + 1)), *b = malloc((size_t)(n * P + 1));
  for (long i = 0; i < n * P; i++)
    a[i] = byte(rank, i), b[i] = 0;
  int cnt = (int)n;
  if (!strcmp(coll, "barrier"))
    MPI_Barrier(MPI_COMM_WORLD);
  else if (!strcmp(coll, "bcast")) {
    unsigned char *buf = rank == 0 ? a : b;
    MPI_Bcast(buf, cnt, MPI_BYTE, 0, MPI_COMM_WORLD);
    for (long i = 0; i < n; i++)
      check(coll, n, buf, 0, i, byte(0, i));
  } else if (!strcmp(coll, "allreduce") || !strcmp(coll, "reduce")) {
    bool all = coll[1] == 'l';
    if (all)
      MPI_Allreduce(a, b, cnt, MPI_UNSIGNED_CHAR, MPI_BXOR, MPI_COMM_WORLD);
    else
      MPI_Reduce(a, b, cnt, MPI_UNSIGNED_CHAR, MPI_BXOR, 0, MPI_COMM_WORLD);
    for (long i = 0; (all || rank == 0) && i < n; i++) {
      unsigned char x = 0;
      for (int r = 0; r < P; r++)
        x ^= byte(r, i);
      check(coll, n, b, -1, i, x);
    }
  } else if (!strcmp(coll, "reduce_scatter")) {
    int *counts = malloc((size_t)P * sizeof *counts);
    for (int r = 0; r < P; r++)
      counts[r] = cnt;
    MPI_Reduce_scatter(a, b, counts, MPI_UNSIGNED_CHAR, MPI_BXOR, MPI_COMM_WORLD);
    for (long i = 0; i < n; i++) {
      unsigned char x = 0;
      for (int r = 0; r < P; r++)
        x ^= byte(r, rank * n + i);
      check(coll, n, b, -1, i, x);
    }
    free(counts);
  } else if (!strcmp(coll, "allgather") || !strcmp(coll, "gather")) {
    bool all = coll[0] == 'a';
    if (all)
      MPI_Allgather(a, cnt, MPI_BYTE, b, cnt, MPI_BYTE, MPI_COMM_WORLD);
    else
      MPI_Gather(a, cnt, MPI_BYTE, b, cnt, MPI_BYTE, 0, MPI_COMM_WORLD);
    for (int r = 0; (all || rank == 0) && r < P; r++)
      for (long i = 0; i < n; i++)
        check(coll, n, b, r, r * n + i, byte(r, i));
  } else if (!strcmp(coll, "scatter")) {
    MPI_Scatter(a, cnt, MPI_BYTE, b, cnt, MPI_BYTE, 0, MPI_COMM_WORLD);
    for (long i = 0; i < n; i++)
      check(coll, n, b, 0, i, byte(0, rank * n + i));
  } else if (!strcmp(coll, "alltoall") || !strcmp(coll, "alltoallv")) {
    int *counts = malloc((size_t)P * sizeof *counts), *displs = malloc((size_t)P * sizeof *displs);
    for (int r = 0; r < P; r++)
      counts[r] = cnt, displs[r] = r * cnt;
    if (coll[8])
      MPI_Alltoallv(a, counts, displs, MPI_BYTE, b, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
    else
      MPI_Alltoall(a, cnt, MPI_BYTE, b, cnt, MPI_BYTE, MPI_COMM_WORLD);
    free(counts);
    free(displs);
    for (int r = 0; r < P; r++)
      for (long i = 0; i < n; i++)
        check(coll, n, b, r, r * n + i, byte(r, rank * n + i));
  } else {
    fprintf(stderr, "all_colls: no collective '%s'\n", coll);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  free(a);
  free(b);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  static const char *const colls[] = {"barrier",   "bcast",  "allreduce", "reduce",
                                      "reduce_scatter", "allgather", "gather", "scatter",
                                      "alltoall",  "alltoallv"};
  static const long sizes[] = {1, 100, 3000, 40000, 300000};
  int calls = 0;
  if (argc == 1)
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
      for (size_t c = 0; c < sizeof colls / sizeof *colls; c++, calls++)
        call(colls[c], sizes[s]);
  for (int i = 1; i < argc; i++, calls++) {
    char coll[32];
    long n;
    if (sscanf(argv[i], "%31[a-z_]:%ld", coll, &n) != 2 || n < 0) {
      fprintf(stderr, "all_colls: expected COLL:BYTES, not '%s'\n", argv[i]);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (tlop_shim_mark)
      tlop_shim_mark(argv[i]);
    call(coll, n);
  }
  int all_wrong = 0;
  MPI_Reduce(&wrong, &all_wrong, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("all_colls: %d processes, %d calls, %d wrong bytes\n", nprocs, calls, all_wrong);
  MPI_Finalize();
  return wrong != 0;
}
