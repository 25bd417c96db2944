/* handwritten.c — the benchmark's yardstick: the cost formulas of four MPICH algorithms
 * (stdlib/mpich/bcast.tlop) and Open MPI's shared-memory pipeline (stdlib/openmpi/
 * bcast_sm.tlop, tree degree 2) written by hand in C as a tuner would, with table.c's look-up
 * (interpolation in m, the beyond-the-last-row rule, τ proportional beyond the last
 * column), compiled with `clang -O2`. No error checks and no extrapolation flags: this is
 * the practical limit the JIT is measured against. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "handwritten.h"

typedef struct locus {
  int lo, hi;
  double dm, span, q;
} locus;

static inline locus locate(const hand_table *t, double m) {
  const double *ms = t->m;
  int n = t->nrows;
  double last = ms[n - 1];
  locus p = {0, 0, 0, 1, 0};
  if (m > last) {
    double r = fmod(m, last);
    if (r == 0)
      r = last;
    p.q = floor((m - r) / last + 0.5);
    m = r;
  }
  if (!(m > ms[0]))
    return p;
  if (m >= last) {
    p.lo = p.hi = n - 1;
    return p;
  }
  int lo = 0, hi = n - 1;
  while (hi - lo > 1) {
    int mid = lo + (hi - lo) / 2;
    if (ms[mid] <= m)
      lo = mid;
    else
      hi = mid;
  }
  p.lo = p.hi = lo;
  if (ms[lo] != m) {
    p.hi = hi;
    p.dm = m - ms[lo];
    p.span = ms[hi] - ms[lo];
  }
  return p;
}

static inline double column(const hand_table *t, const locus *p, int col) {
  const double *v = t->v;
  int nc = t->ncols;
  double y = v[p->lo * nc + col];
  if (p->hi != p->lo)
    y = y + (v[p->hi * nc + col] - y) * p->dm / p->span;
  if (p->q != 0)
    y = p->q * v[(t->nrows - 1) * nc + col] + y;
  return y;
}

/* L(m, τ) once m is located: a column, interpolated between two, or scaled beyond T. */
static inline double L(const hand_table *t, const locus *p, double tau) {
  int T = t->ncols - 1;
  if (tau > T)
    return column(t, p, T) * tau / T;
  double k = floor(tau);
  double a = column(t, p, (int)k);
  if (tau == k)
    return a;
  return a + (column(t, p, (int)k + 1) - a) * (tau - k);
}

/* A competent hand: one look-up of m per stage, and none per stage when m is the same. */
void hand_bcast_binomial(const double *pts, size_t n, double *out, const hand_table *t) {
  for (size_t i = 0; i < n; i++) {
    double m = pts[2 * i], P = pts[2 * i + 1], acc = 0, p = 1;
    locus at = locate(t, m);
    double o = column(t, &at, 0);
    for (double k = 0; k <= ceil(log2(P)) - 1; k++, p *= 2)
      acc += o + 2 * L(t, &at, fmin(p, P - p));
    out[i] = acc;
  }
}

void hand_scatter_binomial(const double *pts, size_t n, double *out, const hand_table *t) {
  for (size_t i = 0; i < n; i++) {
    double m = pts[2 * i], P = pts[2 * i + 1], acc = 0, p = 1;
    for (double k = 0; k <= ceil(log2(P)) - 1; k++, p *= 2) {
      locus at = locate(t, m / (2 * p));
      acc += column(t, &at, 0) + 2 * L(t, &at, fmin(p, P - p));
    }
    out[i] = acc;
  }
}

void hand_allgather_rda(const double *pts, size_t n, double *out, const hand_table *t) {
  for (size_t i = 0; i < n; i++) {
    double m = pts[2 * i], P = pts[2 * i + 1], acc = 0, p = 1;
    for (double k = 0; k <= log2(P) - 1; k++, p *= 2) {
      locus at = locate(t, p * m);
      acc += column(t, &at, 0) + 2 * L(t, &at, P);
    }
    out[i] = acc;
  }
}

void hand_allgather_ring(const double *pts, size_t n, double *out, const hand_table *t) {
  for (size_t i = 0; i < n; i++) {
    double m = pts[2 * i], P = pts[2 * i + 1];
    locus at = locate(t, m);
    out[i] = (P - 1) * (column(t, &at, 0) + 2 * L(t, &at, P));
  }
}

/* The pipeline: transfers placed at steps (a step costs L(S, τ_t)), for g = 2, S = 8 KiB. */
static double level(double r) { return floor(log2(r + 1)); }

void hand_bcast_sm(const double *pts, size_t n, double *out, const hand_table *t) {
  const double S = 8192;
  size_t cap = 0;
  double *tau = NULL;
  for (size_t i = 0; i < n; i++) {
    double m = pts[2 * i], P = pts[2 * i + 1], k = ceil(m / S), D = level(P - 1);
    size_t steps = (size_t)(D + 2 * k + 2);
    if (steps > cap) {
      cap = steps;
      tau = realloc(tau, cap * sizeof *tau);
    }
    memset(tau, 0, steps * sizeof *tau);
    for (double j = 0; j < k; j++)
      if (P > 1)
        tau[(size_t)(1 + 2 * j)] += 1;
    for (double r = 1; r <= P - 1; r++) {
      double l = level(r);
      for (double j = 0; j < k; j++) {
        if (l == D) {
          tau[(size_t)(D + 1 + 2 * j)] += 1;
        } else {
          if (2 * r + 1 <= P - 1)
            tau[(size_t)(l + 1 + 2 * j)] += 1;
          tau[(size_t)(l + 2 + 2 * j)] += 1;
        }
      }
    }
    locus at = locate(t, S);
    double total = 0;
    for (size_t s = 1; s < steps; s++)
      if (tau[s] != 0)
        total += L(t, &at, tau[s]);
    out[i] = total;
  }
  free(tau);
}
