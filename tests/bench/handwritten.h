/* handwritten.h — the hand-written C formulas the benchmark compares the JIT with. Each
 * evaluates points (m, P), stored as pts[2i], pts[2i+1], into out[i]. */
#ifndef TLOP_BENCH_HANDWRITTEN_H
#define TLOP_BENCH_HANDWRITTEN_H

#include <stddef.h>

typedef struct hand_table {
  const double *m, *v; /* nrows sizes; nrows × ncols values: o, L(m,1..T) */
  int nrows, ncols;
} hand_table;

typedef void (*hand_fn)(const double *pts, size_t n, double *out, const hand_table *t);

void hand_bcast_binomial(const double *pts, size_t n, double *out, const hand_table *t);
void hand_scatter_binomial(const double *pts, size_t n, double *out, const hand_table *t);
void hand_allgather_rda(const double *pts, size_t n, double *out, const hand_table *t);
void hand_allgather_ring(const double *pts, size_t n, double *out, const hand_table *t);
void hand_bcast_sm(const double *pts, size_t n, double *out, const hand_table *t);

/* plain.c: the same MPICH formulas as a user writes them, nothing hoisted (the limit). */
void plain_bcast_binomial(const double *pts, size_t n, double *out, const hand_table *t);
void plain_scatter_binomial(const double *pts, size_t n, double *out, const hand_table *t);
void plain_allgather_rda(const double *pts, size_t n, double *out, const hand_table *t);
void plain_allgather_ring(const double *pts, size_t n, double *out, const hand_table *t);

#endif
