/* best.c — the cheapest algorithm per grid point, runs of equal winners along m, and their
 * crossovers located by bisection. Pure decision logic over costs the caller computed: the
 * command evaluates, this file decides, the exporters (tuning.c) write the result. */
#include "tlop_best.h"
#include "tune/tune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Costs this close (relative) are one cost: what separates them is rounding, not the
 * model (bruck and recursive doubling at a power-of-two P, for instance). */
#define EQUAL_REL 1e-12

static bool equal(double a, double b) {
  if (isinf(a) || isinf(b)) /* a candidate left out (+inf) equals nothing but another */
    return a == b;
  return fabs(a - b) <= EQUAL_REL * fmax(fabs(a), fabs(b));
}

size_t tlop_best_pick(const double *costs, size_t ncand, size_t stride, double tie,
                      size_t *runner_up, int *by_tie) {
  size_t least = 0;
  for (size_t c = 1; c < ncand; c++)
    if (costs[c * stride] < costs[least * stride])
      least = c;
  /* Of equal costs the first listed is the cheapest. */
  size_t cheapest = least;
  for (size_t c = 0; c < least; c++)
    if (equal(costs[c * stride], costs[least * stride])) {
      cheapest = c;
      break;
    }
  /* The first candidate within the tie of the cheapest: catalogue order is simplicity. */
  size_t win = cheapest;
  for (size_t c = 0; c < cheapest; c++)
    if (costs[c * stride] <= costs[cheapest * stride] * (1 + tie)) {
      win = c;
      break;
    }
  /* The cheapest of the others, the first listed of equal ones (rounding never flips it);
   * a candidate left out at this point (cost +inf: it does not evaluate there) runs up to
   * nobody: with no other, the winner has no runner-up. */
  size_t second = win;
  for (size_t c = 0; c < ncand; c++)
    if (c != win && !isinf(costs[c * stride]) &&
        (second == win || (costs[c * stride] < costs[second * stride] &&
                           !equal(costs[c * stride], costs[second * stride]))))
      second = c;
  if (runner_up)
    *runner_up = second;
  if (by_tie)
    *by_tie = win != cheapest;
  return win;
}

static double margin(const double *costs, size_t stride, size_t win, size_t second) {
  return win == second ? INFINITY : costs[second * stride] / costs[win * stride] - 1;
}

tlop_status tlop_best_decide(const double *ms, size_t nm, const double *Ps, size_t nP,
                             const double *costs, size_t ncand, double tie, tlop_decision **out) {
  *out = NULL;
  if (!ms || !Ps || !costs || !nm || !nP || !ncand || !(tie >= 0))
    return TLOP_ERR_ARG;
  tlop_decision *d = xcalloc(1, sizeof *d);
  size_t cap = 0;
  d->ncandidates = ncand;
  size_t stride = nP * nm;
  for (size_t p = 0; p < nP; p++)
    for (size_t i = 0; i < nm; i++) {
      const double *at = costs + p * nm + i;
      size_t second;
      int by_tie;
      size_t win = tlop_best_pick(at, ncand, stride, tie, &second, &by_tie);
      double mg = margin(at, stride, win, second);
      tlop_best_range *last = d->nranges ? &d->ranges[d->nranges - 1] : NULL;
      if (i > 0 && last->winner == win && last->runner_up == second) {
        last->m_last = ms[i];
        last->margin_min = fmin(last->margin_min, mg);
        last->margin_max = fmax(last->margin_max, mg);
        last->by_tie |= by_tie;
        continue;
      }
      d->ranges = grow_array(d->ranges, &cap, d->nranges + 1, sizeof *d->ranges);
      d->ranges[d->nranges++] =
          (tlop_best_range){Ps[p], ms[i], ms[i], ms[i], win, second, mg, mg, by_tie};
    }
  *out = d;
  return TLOP_OK;
}

/* The run's margins widened by a point of it refining found (costs computed there), and
 * whether the tie rule chose there. */
static void widen(tlop_best_range *g, const double *costs, size_t ncand, double tie) {
  double mg = margin(costs, 1, g->winner, g->runner_up);
  int by_tie;
  tlop_best_pick(costs, ncand, 1, tie, NULL, &by_tie);
  g->margin_min = fmin(g->margin_min, mg);
  g->margin_max = fmax(g->margin_max, mg);
  g->by_tie |= by_tie;
}

/* The winner and runner-up at (m, P) with all candidates' costs computed afresh. */
static tlop_status winner_at(double m, double P, size_t ncand, double tie, tlop_cost_fn fn,
                             void *user, double *scratch, size_t *win, size_t *second) {
  tlop_status st = fn(user, m, P, scratch);
  if (st == TLOP_OK)
    *win = tlop_best_pick(scratch, ncand, 1, tie, second, NULL);
  return st;
}

/* A run of its own at m, between runs r − 1 and r: where a pair of winner and runner-up
 * that neither neighbour has holds (a runner-up taking over between grid points while the
 * winner stays), so that every run names the runner-up its margins are of. */
static void insert_run(tlop_decision *d, size_t r, double m, const double *costs, size_t win,
                       size_t second, double tie) {
  d->ranges = xrealloc(d->ranges, (d->nranges + 1) * sizeof *d->ranges);
  memmove(&d->ranges[r + 1], &d->ranges[r], (d->nranges - r) * sizeof *d->ranges);
  d->nranges++;
  double mg = margin(costs, 1, win, second);
  int by_tie;
  tlop_best_pick(costs, d->ncandidates, 1, tie, NULL, &by_tie);
  d->ranges[r] = (tlop_best_range){d->ranges[r - 1].P, m, m, m, win, second, mg, mg, by_tie};
}

tlop_status tlop_best_refine(tlop_decision *d, double tie, tlop_cost_fn fn, void *user) {
  if (!d || !fn)
    return TLOP_ERR_ARG;
  double *scratch = xmalloc(d->ncandidates * sizeof *scratch);
  tlop_status st = TLOP_OK;
  for (size_t r = 1; r < d->nranges && st == TLOP_OK; r++) {
    if (d->ranges[r - 1].P != d->ranges[r].P)
      continue;
    const tlop_best_range *prev = &d->ranges[r - 1];
    /* lo has prev's winner and runner-up, hi another pair: halve on whole bytes. */
    double lo = prev->m_last, hi = d->ranges[r].m_first;
    size_t hi_win = d->ranges[r].winner, hi_second = d->ranges[r].runner_up;
    while (hi - lo > 1 && st == TLOP_OK) {
      double mid = floor(lo + (hi - lo) / 2);
      size_t win = prev->winner, second = prev->runner_up;
      st = winner_at(mid, prev->P, d->ncandidates, tie, fn, user, scratch, &win, &second);
      if (win == prev->winner && second == prev->runner_up)
        lo = mid;
      else
        hi = mid, hi_win = win, hi_second = second;
    }
    if (st == TLOP_OK && (hi_win != d->ranges[r].winner || hi_second != d->ranges[r].runner_up) &&
        (st = fn(user, hi, prev->P, scratch)) == TLOP_OK)
      insert_run(d, r, hi, scratch, hi_win, hi_second, tie);
    tlop_best_range *next = &d->ranges[r];
    next->m_from = hi;
    /* the runs' refined ends are theirs: their margins cover them, not the grid only */
    if (st == TLOP_OK && lo != d->ranges[r - 1].m_last &&
        (st = fn(user, lo, next->P, scratch)) == TLOP_OK)
      widen(&d->ranges[r - 1], scratch, d->ncandidates, tie);
    if (st == TLOP_OK && hi != next->m_first && (st = fn(user, hi, next->P, scratch)) == TLOP_OK)
      widen(next, scratch, d->ncandidates, tie);
  }
  free(scratch);
  return st;
}

size_t tlop_best_lookup(const tlop_decision *d, double m, double P) {
  double block = d->ranges[0].P;
  for (size_t r = 0; r < d->nranges; r++)
    if (d->ranges[r].P <= P)
      block = d->ranges[r].P;
  size_t win = SIZE_MAX;
  for (size_t r = 0; r < d->nranges; r++)
    if (d->ranges[r].P == block && (win == SIZE_MAX || d->ranges[r].m_from <= m))
      win = d->ranges[r].winner;
  return win;
}

void tlop_decision_free(tlop_decision *d) {
  if (!d)
    return;
  free(d->ranges);
  free(d);
}
