/* plain.c — the benchmark's limit for item 7 of issue 22: MPICH's four building blocks
 * (stdlib/mpich/bcast.tlop on one node) written as plainly as a user would write them from
 * the model and docs/semantics.md's look-up rules, compiled with `clang -O2`. One look-up
 * function, called wherever a formula names o(m) or L(m, τ); one function per algorithm,
 * each a loop over its stages; nothing hoisted or shared by hand — what the compiler does
 * with that is the limit. The look-up follows table.c's order of operations (the fraction
 * (m − m_lo)/(m_hi − m_lo) first), so the values are the interpreter's to the bit.
 * No error checks and no extrapolation flags. */
#include <math.h>
#include <stddef.h>

#include "handwritten.h"

/* Column col of the table at m: the row on it, interpolated between two, the first row
 * below the table, and beyond the last row q copies of it plus the remainder's value. */
static double lookup(const hand_table *t, double m, int col) {
  const double *ms = t->m, *v = t->v;
  int n = t->nrows, nc = t->ncols;
  double last = ms[n - 1], q = 0;
  if (m > last) {
    double r = fmod(m, last);
    if (r == 0)
      r = last;
    q = floor((m - r) / last + 0.5);
    m = r;
  }
  double y;
  if (!(m > ms[0])) {
    y = v[col];
  } else if (m >= last) {
    y = v[(n - 1) * nc + col];
  } else {
    int lo = 0, hi = n - 1;
    while (hi - lo > 1) {
      int mid = (lo + hi) / 2;
      if (ms[mid] <= m)
        lo = mid;
      else
        hi = mid;
    }
    y = v[lo * nc + col];
    if (ms[lo] != m)
      y = y + (v[hi * nc + col] - y) * ((m - ms[lo]) / (ms[hi] - ms[lo]));
  }
  if (q != 0)
    y = q * v[(n - 1) * nc + col] + y;
  return y;
}

static double o(const hand_table *t, double m) { return lookup(t, m, 0); }

/* L(m, τ): a column, interpolated between two, proportional to τ beyond the last. */
static double L(const hand_table *t, double m, double tau) {
  int T = t->ncols - 1;
  if (tau > T)
    return lookup(t, m, T) * tau / T;
  double k = floor(tau), a = lookup(t, m, (int)k);
  if (tau == k)
    return a;
  return a + (lookup(t, m, (int)k + 1) - a) * (tau - k);
}

static double bcast_binomial(const hand_table *t, double m, double P) {
  double cost = 0;
  for (double i = 0; i <= ceil(log2(P)) - 1; i++)
    cost += o(t, m) + 2 * L(t, m, fmin(pow(2, i), P - pow(2, i)));
  return cost;
}

/* Stage i of MPICH's binomial tree over blocks of m bytes: full senders of 2^i blocks and,
 * for a P that is not a power of two, one with the rest, its smaller copy progressing
 * beside theirs (mpich/gather.tlop's _gather_stage, taulop's copies_with_rest). */
static double tree_stage(const hand_table *t, double m, double P, double i) {
  double full = floor(P / pow(2, i + 1)), rest = P - pow(2, i) - full * pow(2, i + 1);
  double piece = pow(2, i) * m, copies;
  if (!(rest > 0))
    copies = L(t, piece, full);
  else if (full == 0)
    copies = L(t, rest * m, 1);
  else
    copies = L(t, rest * m, full + 1) + L(t, piece - rest * m, full);
  return o(t, full == 0 ? rest * m : piece) + 2 * copies;
}

/* MPICH's binomial scatter: the gather's stages from the root down, blocks of m/P. */
static double scatter_binomial(const hand_table *t, double m, double P) {
  double cost = 0, h = ceil(log2(P));
  for (double j = 0; j <= h - 1; j++)
    cost += tree_stage(t, m / P, P, h - 1 - j);
  return cost;
}

static double allgather_rda(const hand_table *t, double m, double P) {
  double cost = 0;
  for (double i = 0; i <= log2(P) - 1; i++)
    cost += o(t, pow(2, i) * m) + 2 * L(t, pow(2, i) * m, P);
  return cost;
}

static double allgather_ring(const hand_table *t, double m, double P) {
  return (P - 1) * (o(t, m) + 2 * L(t, m, P));
}

/* The loop over the points (m, P) a user's sweep runs, one per algorithm. */
#define OVER_POINTS(algo)                                                                     \
  void plain_##algo(const double *pts, size_t n, double *out, const hand_table *t) {         \
    for (size_t i = 0; i < n; i++)                                                            \
      out[i] = algo(t, pts[2 * i], pts[2 * i + 1]);                                           \
  }

OVER_POINTS(bcast_binomial)
OVER_POINTS(scatter_binomial)
OVER_POINTS(allgather_rda)
OVER_POINTS(allgather_ring)
