/* bcast.c — MPI_Bcast from rank 0 timed as the OSU micro-benchmarks' osu_bcast does, each
 * broadcast alone between barriers, each rank timing its own calls (the median batch of
 * mpi_time); printed as `osu_bcast -f` prints them: the average, minimum and maximum
 * over the ranks. */
#include "mpi_common.h"

#include <string.h>

/* One broadcast, timed alone; the barrier after it (as osu_bcast has) is not counted. */
static double one_bcast(void *buf, long size) {
  double t = MPI_Wtime();
  MPI_Bcast(buf, (int)size, MPI_BYTE, 0, MPI_COMM_WORLD);
  t = MPI_Wtime() - t;
  MPI_Barrier(MPI_COMM_WORLD);
  return t;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, np;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  long *sizes;
  size_t n = mpi_sizes(argc, argv, &sizes);
  long max = 1;
  for (size_t i = 0; i < n; i++)
    max = sizes[i] > max ? sizes[i] : max;
  char *buf = malloc((size_t)max);
  memset(buf, 1, (size_t)max);
  if (rank == 0)
    printf("# OSU MPI Broadcast Latency Test v7.1\n"
           "# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations\n");
  for (size_t i = 0; i < n; i++) {
    double mine = mpi_time(one_bcast, buf, sizes[i]), avg, lo, hi;
    MPI_Reduce(&mine, &avg, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&mine, &lo, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
    MPI_Reduce(&mine, &hi, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
      printf("%-10ld %18.2f %17.2f %17.2f %11d\n", sizes[i], avg / np * 1e6, lo * 1e6,
             hi * 1e6, BATCHES);
  }
  free(buf);
  free(sizes);
  MPI_Finalize();
  return 0;
}
