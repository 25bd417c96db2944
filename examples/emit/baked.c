/* baked.c — cost functions with their table compiled in (`tlop emit --bake-params`): the
 * program reads no table at run time; it links libtlop because both algorithms are
 * written with messages stages, which libtlop prices (an object without any needs libm
 * only).
 *
 *   tlop emit stdlib/mpich/bcast.tlop bcast_binomial allgather_rda --bake-params shm.txt \
 *       --target object -o bcast_baked.o --header bcast_baked.h
 *   cc baked.c bcast_baked.o -ltlop -lm -o baked && ./baked
 *
 * Prints the same as main.c with shm.txt. */
#include "bcast_baked.h"

#include <stdio.h>

int main(void) {
  printf("m,P,bcast_binomial,allgather_rda\n");
  /* the third argument is the node count M (the mapping keeps its default, sequential) */
  for (double m = 1024; m <= 4194304; m *= 4)
    for (double P = 2; P <= 64; P *= 2)
      printf("%.17g,%.17g,%.17g,%.17g\n", m, P, bcast_binomial(m, P, 1), allgather_rda(m, P, 1));
  return 0;
}
