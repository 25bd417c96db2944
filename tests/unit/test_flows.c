/* test_flows.c — Martinasso & Méhaut's flows (flows.c) against the catalog's oracles:
 * the decompositions of §5.2 (TC57), the two-flow table and the asynchronous case of §5.3
 * (TC56), a hand-computed heterogeneous chain, and the patterns the model leaves out. */
#include "api/api.h"
#include "unit.h"

#include <stdlib.h>

/* GigaEth/LAM's row of Table 2, in the order of the FLOW_CUT_* entries. */
static const double LAM[FLOW_NCUTS] = {1, 0.5, 2, 0, 3};

/* Flows of T_NC = 1 between nodes "a b" pairs, all starting at 0. */
static size_t pattern(net_flow *f, const double (*ends)[2], size_t n) {
  for (size_t i = 0; i < n; i++)
    f[i] = (net_flow){.src = ends[i][0], .dst = ends[i][1], .alone = 1};
  return n;
}

/* The pattern as explain writes it, all flows active. */
static char *decomposed(net_flow *f, size_t n, const double *cuts) {
  size_t active[16];
  for (size_t i = 0; i < n; i++)
    active[i] = i;
  char *error = flows_decompose(f, active, n, cuts);
  if (error)
    return error;
  strbuf b = {0};
  flows_describe(&b, f, active, n);
  return sb_take(&b);
}

static void expect_decomposition(const double (*ends)[2], size_t n, const char *want) {
  net_flow f[16];
  char *got = decomposed(f, pattern(f, ends, n), LAM);
  CHECK_STR(got, want);
  free(got);
}

/* TC57: R1–R3 on §5.2's three examples, and an outgo/income chain kept whole (R2). */
static void test_decompositions(void) {
  static const double chain[][2] = {{0, 1}, {1, 2}, {2, 3}};
  expect_decomposition(chain, 3, "0 → 1 → 2 [0, 3] & 2 → 3 [0]");
  static const double back[][2] = {{1, 0}, {2, 1}, {3, 2}};
  expect_decomposition(back, 3, "0 ← 1 [0] & 1 ← 2 ← 3 [3, 0]");
  static const double mixed[][2] = {{0, 1}, {1, 2}, {3, 2}, {4, 3}, {5, 4}};
  expect_decomposition(mixed, 5, "0 → 1 [0] & 1 → 2 ← 3 [1, 1] & 3 ← 4 ← 5 [3, 0]");
  /* R2: 0 ← 1 → 2 ← 3 is one chain of two conflicts: the odd vector (1/2, 2, 1/2) */
  static const double zigzag[][2] = {{1, 0}, {1, 2}, {3, 2}};
  expect_decomposition(zigzag, 3, "0 ← 1 → 2 ← 3 [0.5, 2, 0.5]");
  /* …and of three conflicts: every flow cut by 1 */
  static const double four[][2] = {{1, 0}, {1, 2}, {3, 2}, {3, 4}};
  expect_decomposition(four, 4, "0 ← 1 → 2 ← 3 → 4 [1, 1, 1, 1]");
  /* a ring of through conflicts is cut before its first flow and paired from there */
  static const double ring[][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}};
  expect_decomposition(ring, 4, "0 → 1 → 2 [0, 3] & 0 ← 3 ← 2 [3, 0]");
  /* two flows between the same nodes: an outgo and an income conflict, one cycle */
  static const double twice[][2] = {{0, 1}, {0, 1}};
  expect_decomposition(twice, 2, "1 ← 0 → 1 [1, 1]");
}

/* A node with three flows at once is outside the model: an error, not a guess. */
static void test_out_of_model(void) {
  static const double star[][2] = {{0, 1}, {0, 2}, {3, 0}};
  net_flow f[3];
  char *error = decomposed(f, pattern(f, star, 3), LAM);
  CHECK(error && strstr(error, "node 0 has 3 flows at once"));
  free(error);
}

/* Two flows of T_NC = 1 through node 1 under cuts (a1, a2), the second starting `later`. */
static void two_flows(double a1, double a2, double later, double *first, double *second) {
  double cuts[FLOW_NCUTS] = {0, 0, 0, a1, a2};
  net_flow f[2] = {{.src = 0, .dst = 1, .alone = 1},
                   {.src = 1, .dst = 2, .alone = 1, .start = later}};
  char *error = flows_progress(f, 2, cuts, NULL);
  CHECK(error == NULL);
  free(error);
  *first = f[0].done;
  *second = f[1].done;
}

/* TC56: the derived table of §5.3, and its asynchronous case. */
static void test_two_flows(void) {
  static const struct { double a1, a2, first, second; } table[] = {
      {0, 3, 1, 1.75}, {1, 1, 2, 2}, {0.5, 2, 1.5, 2}, {0.75, 4.0 / 3, 1.75, 2}, {0, 0, 1, 1}};
  for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
    double first, second;
    two_flows(table[i].a1, table[i].a2, 0, &first, &second);
    CHECK_NEAR(first, table[i].first, 1e-12);
    CHECK_NEAR(second, table[i].second, 1e-12);
  }
  double first, second;
  two_flows(1, 1, 0.5, &first, &second);
  CHECK_NEAR(first, 1.5, 1e-12);
  CHECK_NEAR(second - 0.5, 1.5, 1e-12);
}

/* 0 ← 1 → 2 ← 3 starting at 0, 1/2, 1 (examples/martinasso_flows.tlop, staggered): by hand,
 * the flows end at 1.375, 2.625 and 2.75. */
static void test_staggered(void) {
  net_flow f[3] = {{.src = 1, .dst = 0, .alone = 1},
                   {.src = 1, .dst = 2, .alone = 1, .start = 0.5},
                   {.src = 3, .dst = 2, .alone = 1, .start = 1}};
  strbuf trace = {0};
  char *error = flows_progress(f, 3, LAM, &trace);
  CHECK(error == NULL);
  CHECK_NEAR(f[0].done, 1.375, 1e-12);
  CHECK_NEAR(f[1].done, 2.625, 1e-12);
  CHECK_NEAR(f[2].done, 2.75, 1e-12);
  CHECK_STR(trace.s, "from 0 s: 0 ← 1 [0]; from 0.5 s: 0 ← 1 → 2 [1, 1]; from 1 s: "
                     "0 ← 1 → 2 ← 3 [0.5, 2, 0.5]; from 1.375 s: 1 → 2 ← 3 [1, 1]; "
                     "from 2.625 s: 2 ← 3 [0]");
  free(trace.s);
  free(error);
}

int main(void) {
  test_decompositions();
  test_out_of_model();
  test_two_flows();
  test_staggered();
  printf("flows: %d checks, %d failed\n", unit_checks, unit_failures);
  return unit_failures != 0;
}
