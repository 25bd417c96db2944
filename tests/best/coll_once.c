/* coll_once.c — one MPI_Bcast of argv[1] bytes from rank 0 (or with argv[2] "allreduce",
 * one MPI_Allreduce, MPI_SUM of argv[1] unsigned chars: rank 0's bytes plus the others' zeros), checked
 * on arrival: the program the real-reader tests (ompi_reader.sh, mpich_reader.sh,
 * mpich_obey.sh) run under each library's tuning file. Each rank prints its pid first, for
 * the MPICH test to find rank 1's traffic. With argv[3] "tcp" each rank also prints the
 * bytes the kernel sent on its TCP sockets from just before the call to the end of a
 * barrier after it (which waits out the call's last sends), less those it sent again: the
 * traffic of each rank, for mpich_obey.sh, without tracing anyone. */
#include <mpi.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/tcp.h>

/* The bytes sent so far on this process's TCP sockets (getsockopt fails on any other
 * descriptor), retransmissions not counted: a loopback packet dropped on a loaded machine
 * is sent twice, and a CI run once saw rank 0 send a 14 KB block more than MPICH's code
 * does. -1 when the kernel's tcp_info lacks the counts (before Linux 4.19). */
static long long tcp_bytes_sent(void) {
  long long sum = 0;
  for (int fd = 0; fd < 4096; fd++) {
    struct tcp_info info;
    socklen_t len = sizeof info;
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) != 0)
      continue;
    if (len < offsetof(struct tcp_info, tcpi_bytes_retrans) + sizeof info.tcpi_bytes_retrans)
      return -1;
    sum += (long long)(info.tcpi_bytes_sent - info.tcpi_bytes_retrans);
  }
  return sum;
}

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
  bool count_tcp = argc > 3 && !strcmp(argv[3], "tcp");
  long long sent_before = count_tcp ? tcp_bytes_sent() : 0;
  if (allreduce)
    MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_UNSIGNED_CHAR, MPI_SUM, MPI_COMM_WORLD);
  else
    MPI_Bcast(buf, n, MPI_BYTE, 0, MPI_COMM_WORLD);
  if (count_tcp) {
    MPI_Barrier(MPI_COMM_WORLD);
    long long sent_after = tcp_bytes_sent();
    if (sent_before < 0 || sent_after < 0)
      printf("rank %d tcp unknown\n", rank);
    else
      printf("rank %d tcp %lld\n", rank, sent_after - sent_before);
  }
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
