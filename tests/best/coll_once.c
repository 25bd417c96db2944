/* coll_once.c — one MPI_Bcast of argv[1] bytes from rank 0 (or with argv[2] "allreduce",
 * one MPI_Allreduce, MPI_SUM of argv[1] unsigned chars: rank 0's bytes plus the others' zeros), checked
 * on arrival: the program the real-reader tests (ompi_reader.sh, mpich_reader.sh) run under
 * each library's tuning file. Each rank prints its pid first, for the MPICH test to find
 * rank 1's traffic. */
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, n = argc > 1 ? atoi(argv[1]) : 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  printf("rank %d pid %ld\n", rank, (long)getpid());
  fflush(stdout);
  unsigned char *buf = malloc((size_t)n);
  for (int i = 0; i < n; i++)
    buf[i] = rank == 0 ? (unsigned char)(i * 7) : 0;
  bool allreduce = argc > 2 && !strcmp(argv[2], "allreduce");
  if (allreduce)
    MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_UNSIGNED_CHAR, MPI_SUM, MPI_COMM_WORLD);
  else
    MPI_Bcast(buf, n, MPI_BYTE, 0, MPI_COMM_WORLD);
  int bad = 0;
  for (int i = 0; i < n; i++)
    bad |= buf[i] != (unsigned char)(i * 7);
  if (bad)
    fprintf(stderr, "rank %d: the %s delivered wrong bytes\n", rank,
            allreduce ? "allreduce" : "broadcast");
  free(buf);
  MPI_Finalize();
  return bad;
}
