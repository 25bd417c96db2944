/* main.c — calling cost functions that `tlop emit` compiled: the object holds them, the
 * header declares them, and the tables they read come from a platform loaded through
 * tlop.h at run time (here the stdlib's `generic`, its shm channel backed by TABLE).
 *
 *   tlop emit stdlib/mpich/bcast.tlop bcast_binomial allgather_rda --params shm.txt \
 *       --target object -o bcast_costs.o --header bcast_costs.h
 *   cc main.c bcast_costs.o -ltlop -lm -o costs && ./costs shm.txt
 *
 * (--params at emit time says which channel is a table; its values are read here.) It
 * prints what `tlop sweep … --grid m=1KiB..4MiB:*4 --grid P=2..64:*2 --params shm.txt`
 * prints; the tests check that, to the bit. */
#include "bcast_costs.h"

#include <stdio.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s TABLE\n", argv[0]);
    return 2;
  }
  tlop_ctx *ctx = tlop_ctx_new();
  tlop_model *model;
  tlop_platform *pf = NULL;
  tlop_emit_table tables[BCAST_COSTS_NTABLES];
  if (tlop_load_source(ctx, "main", "", 0, &model) != TLOP_OK ||
      tlop_platform_open(model, "generic", &pf) != TLOP_OK ||
      tlop_platform_bind_table(pf, "shm", argv[1]) != TLOP_OK ||
      bcast_costs_tables(pf, tables) != TLOP_OK) {
    fprintf(stderr, "%s: cannot load the platform with table %s\n", argv[0], argv[1]);
    return 1;
  }
  printf("m,P,bcast_binomial,allgather_rda\n");
  /* the third argument is the node count M (the mapping keeps its default, sequential) */
  for (double m = 1024; m <= 4194304; m *= 4)
    for (double P = 2; P <= 64; P *= 2)
      printf("%.17g,%.17g,%.17g,%.17g\n", m, P, bcast_binomial(m, P, 1, tables),
             allgather_rda(m, P, 1, tables));
  tlop_platform_free(pf);
  tlop_ctx_free(ctx);
  return 0;
}
