/* hand_sweep.c — the yardstick of `tlop sweep` end to end (sweep_vs_printf.sh): what a user
 * would write instead of tlop, reading a libtaulop table, computing MPICH's four building
 * blocks with handwritten.c (clang -O2) over a grid of P (outer) and m (inner), and printing
 * CSV with printf("%.17g"), as tlop sweep did before issue 22.
 * Usage: tlop_hand_sweep TABLE P_FIRST P_LAST P_FACTOR M_FIRST M_LAST M_STEP > costs.csv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "handwritten.h"

/* The libtaulop text table: '#' lines, then rows "m o L(m,1) … L(m,T)". */
static hand_table read_table(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    perror(path);
    exit(1);
  }
  size_t cap = 0, nv = 0;
  double *m = NULL, *v = NULL;
  int nrows = 0, ncols = 0;
  char line[1 << 16];
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == '\n')
      continue;
    char *p = line, *end;
    int col = -1;
    for (double x = strtod(p, &end); end != p; x = strtod(p = end, &end), col++) {
      if (nv + (size_t)nrows + 2 >= cap) {
        cap = cap ? 2 * cap : 1024;
        v = realloc(v, cap * sizeof *v);
        m = realloc(m, cap * sizeof *m);
      }
      if (col < 0)
        m[nrows] = x;
      else
        v[nv++] = x;
    }
    ncols = col;
    nrows++;
  }
  fclose(f);
  return (hand_table){m, v, nrows, ncols};
}

int main(int argc, char **argv) {
  if (argc != 8) {
    fprintf(stderr, "usage: tlop_hand_sweep TABLE P_FIRST P_LAST P_FACTOR M_FIRST M_LAST M_STEP\n");
    return 2;
  }
  hand_table t = read_table(argv[1]);
  double p0 = atof(argv[2]), p1 = atof(argv[3]), pf = atof(argv[4]);
  double m0 = atof(argv[5]), m1 = atof(argv[6]), ms = atof(argv[7]);
  size_t nm = (size_t)((m1 - m0) / ms) + 1;
  double *pts = malloc(2 * nm * sizeof *pts), *out[4];
  for (int a = 0; a < 4; a++)
    out[a] = malloc(nm * sizeof *out[a]);
  static const hand_fn fns[4] = {hand_bcast_binomial, hand_scatter_binomial, hand_allgather_rda,
                                 hand_allgather_ring};
  printf("P,m,bcast_binomial,scatter_binomial,allgather_rda,allgather_ring\n");
  for (double P = p0; P <= p1; P *= pf) {
    for (size_t i = 0; i < nm; i++) {
      pts[2 * i] = m0 + (double)i * ms;
      pts[2 * i + 1] = P;
    }
    for (int a = 0; a < 4; a++)
      fns[a](pts, nm, out[a], &t);
    for (size_t i = 0; i < nm; i++)
      printf("%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", P, pts[2 * i], out[0][i], out[1][i],
             out[2][i], out[3][i]);
  }
  return 0;
}
