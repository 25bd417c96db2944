/* pingpong.c — an MPI ping-pong between ranks 0 and 1 that prints its results as the
 * Intel MPI Benchmarks' PingPong does: t[usec] is half the round trip (one way); the
 * #repetitions column holds the number of batches. */
#include "mpi_common.h"

#include <string.h>

/* separate send and receive buffers, as IMB has */
typedef struct pp {
  int rank;
  char *sbuf, *rbuf;
} pp;

static double round_trip(void *arg, long size) {
  pp *p = arg;
  if (p->rank == 0) {
    MPI_Send(p->sbuf, (int)size, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
    MPI_Recv(p->rbuf, (int)size, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (p->rank == 1) {
    MPI_Recv(p->rbuf, (int)size, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(p->sbuf, (int)size, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
  }
  return -1; /* the wall time of the batch */
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
  pp p = {rank, malloc((size_t)max), malloc((size_t)max)};
  memset(p.sbuf, 1, (size_t)max);
  memset(p.rbuf, 2, (size_t)max);
  if (rank == 0)
    printf("#---------------------------------------------------\n"
           "# Benchmarking PingPong \n# #processes = %d \n"
           "#---------------------------------------------------\n"
           "       #bytes #repetitions      t[usec]   Mbytes/sec\n", np);
  for (size_t i = 0; i < n; i++) {
    double t = mpi_time(round_trip, &p, sizes[i]) / 2;
    if (rank == 0)
      printf("%13ld %12d %12.2f %12.2f\n", sizes[i], BATCHES, t * 1e6,
             t > 0 ? (double)sizes[i] / t / 1048576 : 0);
  }
  if (rank == 0)
    printf("\n");
  free(p.sbuf);
  free(p.rbuf);
  free(sizes);
  MPI_Finalize();
  return np == 2 ? 0 : 1;
}
