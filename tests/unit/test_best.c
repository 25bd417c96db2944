/* test_best.c — unit tests of the decision (tlop_best.h) on costs worked out by hand, and
 * the round trip of the tuning files (Open MPI rules and JSON, MPICH JSON, Intel MPI): written from
 * a decision, read back by the linter's reader, the same winner at every byte count tried. */
#define _POSIX_C_SOURCE 200809L
#include "tlop_best.h"
#include "unit.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Candidate 0 costs 10 + m, candidate 1 costs 100 + m/2: they meet at m = 180. */
static double cost(size_t c, double m) { return c == 0 ? 10 + m : 100 + m / 2; }

static tlop_status cost_at(void *user, double m, double P, double *costs) {
  (void)user, (void)P;
  costs[0] = cost(0, m);
  costs[1] = cost(1, m);
  return TLOP_OK;
}

static double ms[11], Ps[2] = {2, 8}, costs[2 * 2 * 11];

static tlop_decision *decide(double tie) {
  for (int i = 0; i < 11; i++)
    ms[i] = (double)(1 << i);
  for (size_t c = 0; c < 2; c++)
    for (size_t p = 0; p < 2; p++)
      for (size_t i = 0; i < 11; i++)
        costs[c * 22 + p * 11 + i] = cost(c, ms[i]);
  tlop_decision *d = NULL;
  CHECK(tlop_best_decide(ms, 11, Ps, 2, costs, 2, tie, &d) == TLOP_OK);
  return d;
}

static void test_pick(void) {
  double c[3] = {10.5, 10, 30};
  size_t second;
  int by_tie;
  CHECK(tlop_best_pick(c, 3, 1, 0, &second, &by_tie) == 1 && second == 0 && !by_tie);
  /* within 10 %, the earlier candidate wins and the tie rule says so */
  CHECK(tlop_best_pick(c, 3, 1, 0.10, &second, &by_tie) == 0 && second == 1 && by_tie);
  CHECK(tlop_best_pick(c, 3, 1, 0.04, NULL, NULL) == 1);
  /* costs equal within 1e-12 are one cost: the first listed is the cheapest (no tie rule
   * involved) and the runner-up, whichever rounding made smaller */
  double e[3] = {5, 1 + 1e-13, 1};
  CHECK(tlop_best_pick(e, 3, 1, 0, &second, &by_tie) == 1 && second == 2 && !by_tie);
  double f[3] = {1, 3, 3 * (1 - 1e-13)};
  CHECK(tlop_best_pick(f, 3, 1, 0, &second, NULL) == 0 && second == 1);
  /* but 1e-9 apart they are two costs */
  double g[3] = {1, 3, 3 * (1 - 1e-9)};
  CHECK(tlop_best_pick(g, 3, 1, 0, &second, NULL) == 0 && second == 2);
}

static void test_decide_refine(void) {
  tlop_decision *d = decide(0);
  /* per P: candidate 0 on 1 … 128, candidate 1 on 256 … 1024 */
  CHECK(d->nranges == 4);
  CHECK(d->ranges[0].P == 2 && d->ranges[0].winner == 0 && d->ranges[0].m_last == 128);
  CHECK(d->ranges[1].winner == 1 && d->ranges[1].m_first == 256 && d->ranges[1].m_from == 256);
  CHECK(d->ranges[2].P == 8 && d->ranges[2].m_first == 1);
  /* at m = 1: (100.5 / 11) − 1; at 128: (164 / 138) − 1 */
  CHECK_NEAR(d->ranges[0].margin_max, 100.5 / 11 - 1, 1e-12);
  CHECK_NEAR(d->ranges[0].margin_min, 164.0 / 138 - 1, 1e-12);
  /* unrefined, the run starts at its grid point; P below the first block takes the first */
  CHECK(tlop_best_lookup(d, 200, 4) == 0 && tlop_best_lookup(d, 256, 4) == 1 &&
        tlop_best_lookup(d, 256, 1) == 1);
  /* equal at 180: the earlier candidate keeps it; from 181 on candidate 1 */
  CHECK(tlop_best_refine(d, 0, cost_at, NULL) == TLOP_OK);
  CHECK(d->ranges[1].m_from == 181 && d->ranges[3].m_from == 181);
  CHECK(tlop_best_lookup(d, 180, 8) == 0 && tlop_best_lookup(d, 181, 8) == 1);
  /* the margins cover the refined runs: run 0 ends at 180 (where the two cost the same),
   * run 1 starts at 181 (191 against 190.5), not at the grid's 128 and 256 */
  CHECK_NEAR(d->ranges[0].margin_min, 0, 1e-12);
  CHECK_NEAR(d->ranges[1].margin_min, 191 / 190.5 - 1, 1e-12);
  CHECK_NEAR(d->ranges[1].margin_max, 1034.0 / 612 - 1, 1e-12);
  tlop_decision_free(d);
  /* with a 10 % tie, candidate 0 keeps it while 10 + m <= 1.1 (100 + m/2), i.e. up to
   * m = 1000/4.5 = 222.2 */
  d = decide(0.10);
  CHECK(tlop_best_refine(d, 0.10, cost_at, NULL) == TLOP_OK);
  CHECK(d->ranges[1].m_from == 223);
  tlop_decision_free(d);
}

/* Candidate 0 (m) always wins; the runner-up is candidate 2 (3m) below m = 500 and
 * candidate 1 (1000 + m) from there: equal at 500, the earlier candidate is named. */
static tlop_status cost3_at(void *user, double m, double P, double *costs) {
  (void)user, (void)P;
  costs[0] = m;
  costs[1] = 1000 + m;
  costs[2] = 3 * m;
  return TLOP_OK;
}

static void test_runner_up(void) {
  double c3[3 * 11];
  for (size_t i = 0; i < 11; i++) { /* ms: 1 … 1024, set by decide() */
    double at[3];
    cost3_at(NULL, ms[i], 2, at);
    for (size_t c = 0; c < 3; c++)
      c3[c * 11 + i] = at[c];
  }
  tlop_decision *d = NULL;
  CHECK(tlop_best_decide(ms, 11, Ps, 1, c3, 3, 0, &d) == TLOP_OK);
  /* one winner, split where the runner-up changes: 1 … 256 and 512 … 1024 */
  CHECK(d && d->nranges == 2 && d->ranges[0].winner == 0 && d->ranges[1].winner == 0);
  CHECK(d && d->ranges[0].runner_up == 2 && d->ranges[0].m_last == 256 &&
        d->ranges[1].runner_up == 1 && d->ranges[1].m_first == 512);
  /* the margin is to the run's own runner-up: 3m/m − 1 = 2 throughout the first */
  CHECK(d && d->ranges[0].margin_min == 2 && d->ranges[0].margin_max == 2);
  CHECK(d && tlop_best_refine(d, 0, cost3_at, NULL) == TLOP_OK && d->ranges[1].m_from == 500);
  tlop_decision_free(d);
}

/* Between two grid points (1 and 1024) the winner and runner-up change three times:
 * candidate 0 (10 + m) wins to 180 with 2 (100 + m/2) the runner-up, 2 wins from 181 with
 * 0 the runner-up to 290 and 1 (300) from 291, and 1 wins from 400 (equal costs: the
 * first listed) with 2 the runner-up. */
static tlop_status cost_between_at(void *user, double m, double P, double *costs) {
  (void)user, (void)P;
  costs[0] = 10 + m;
  costs[1] = 300;
  costs[2] = 100 + m / 2;
  return TLOP_OK;
}

static void test_refine_inserts_runs(void) {
  double grid_ms[2] = {1, 1024}, c[3 * 2];
  for (size_t i = 0; i < 2; i++) {
    double at[3];
    cost_between_at(NULL, grid_ms[i], 2, at);
    for (size_t k = 0; k < 3; k++)
      c[k * 2 + i] = at[k];
  }
  tlop_decision *d = NULL;
  CHECK(tlop_best_decide(grid_ms, 2, Ps, 1, c, 3, 0, &d) == TLOP_OK && d->nranges == 2);
  CHECK(d && tlop_best_refine(d, 0, cost_between_at, NULL) == TLOP_OK && d->nranges == 4);
  static const size_t want[4][2] = {{0, 2}, {2, 0}, {2, 1}, {1, 2}};
  static const double from[4] = {1, 181, 291, 400};
  for (size_t r = 0; d && r < 4 && r < d->nranges; r++) {
    CHECK(d->ranges[r].winner == want[r][0] && d->ranges[r].runner_up == want[r][1]);
    CHECK(d->ranges[r].m_from == from[r]);
  }
  /* each run's margins are to its own runner-up: at 291, 300 / 245.5 − 1 */
  CHECK(d && d->nranges == 4 && fabs(d->ranges[2].margin_max - (300 / 245.5 - 1)) < 1e-12);
  CHECK(d && tlop_best_lookup(d, 399, 2) == 2 && tlop_best_lookup(d, 400, 2) == 1);
  tlop_decision_free(d);
}

/* Two algorithms of every collective tlop writes files for, small and large messages. */
static const char cat_text[] =
    "version openmpi test\n"
    "algorithm bcast x.tlop cheap_small openmpi=6:binomial mpich=MPIR_Bcast_intra_binomial "
    "impi=1\n"
    "algorithm bcast x.tlop cheap_large openmpi=9:scatter_allgather_ring "
    "mpich=MPIR_Bcast_intra_scatter_ring_allgather impi=3\n"
    "algorithm reduce x.tlop cheap_small openmpi=5:binomial mpich=MPIR_Reduce_intra_binomial "
    "impi=2\n"
    "algorithm reduce x.tlop cheap_large openmpi=7:rabenseifner "
    "mpich=MPIR_Reduce_intra_reduce_scatter_gather impi=5\n"
    "algorithm allreduce x.tlop cheap_small openmpi=3:recursive_doubling "
    "mpich=MPIR_Allreduce_intra_recursive_doubling impi=1\n"
    "algorithm allreduce x.tlop cheap_large openmpi=6:rabenseifner "
    "mpich=MPIR_Allreduce_intra_reduce_scatter_allgather impi=2\n"
    "algorithm alltoall x.tlop cheap_small openmpi=1:linear mpich=MPIR_Alltoall_intra_scattered "
    "impi=2\n"
    "algorithm alltoall x.tlop cheap_large openmpi=2:pairwise mpich=MPIR_Alltoall_intra_pairwise "
    "impi=3\n"
    "algorithm gather x.tlop cheap_small openmpi=2:binomial mpich=MPIR_Gather_intra_binomial "
    "impi=1\n"
    "algorithm gather x.tlop cheap_large openmpi=1:basic_linear mpich=MPIR_Gather_allcomm_nb "
    "impi=3\n"
    "algorithm scatter x.tlop cheap_small openmpi=2:binomial mpich=MPIR_Scatter_intra_binomial "
    "impi=1\n"
    "algorithm scatter x.tlop cheap_large openmpi=1:basic_linear mpich=MPIR_Scatter_allcomm_nb "
    "impi=3\n";

/* Written in every format, read back: the decision's winner wherever the file can tell. A
 * library that measures m·P or m/P is exact on the grid's P only (the file's block of a P
 * between takes the block's own crossover in bytes); m/P is whole for multiples of P. */
static void round_trip(tlop_ctx *ctx, const tlop_catalog *cat, const tlop_decision *d,
                       const char *coll) {
  const tlop_catalog_entry *cands[2] = {tlop_catalog_find(cat, coll, "cheap_small"),
                                        tlop_catalog_find(cat, coll, "cheap_large")};
  CHECK(cands[0] && cands[1]);
  bool scaled = strcmp(coll, "bcast") && strcmp(coll, "reduce") && strcmp(coll, "allreduce");
  static const tlop_tuning_format formats[] = {TLOP_TUNING_OMPI_RULES_V1, TLOP_TUNING_OMPI_RULES,
                                               TLOP_TUNING_MPICH_JSON, TLOP_TUNING_OMPI_JSON,
                                               TLOP_TUNING_IMPI};
  for (int k = 0; k < 5; k++) {
    tlop_tuning_format fmt = formats[k];
    char *text = NULL;
    tlop_tuning *back = NULL;
    tlop_tuning_part part = {coll, d, cands};
    tlop_tuning_target to = {fmt, TLOP_RANKS_ANY, NULL};
    CHECK(tlop_tuning_write(ctx, &part, 1, &to, &text) == TLOP_OK);
    CHECK(tlop_tuning_read(ctx, cat, coll, &to, "rt.rules", text, strlen(text), &back) ==
          TLOP_OK);
    for (double P = 2; back && P <= 16; P++)
      for (double m = 0; m <= 2048; m++)
        if (!scaled || ((P == 2 || P == 8) && fmod(m, P) == 0))
          CHECK(tlop_tuning_lookup(back, m, P) == cands[tlop_best_lookup(d, m, P)]);
    /* each other format's reader refuses it */
    for (int j = 0; j < 5; j++) {
      tlop_tuning *other = NULL;
      tlop_tuning_target as = {formats[j], TLOP_RANKS_ANY, NULL};
      CHECK(j == k || (tlop_tuning_read(ctx, cat, coll, &as, "rt.rules", text, strlen(text),
                                        &other) == TLOP_ERR_SYNTAX &&
                       !other));
    }
    tlop_tuning_free(back);
    free(text);
  }
}

/* Several collectives in one file, each read back for its own decision (the same one here,
 * in each collective's entries). */
static void several(tlop_ctx *ctx, const tlop_catalog *cat, const tlop_decision *d) {
  static const char *const colls[] = {"bcast", "reduce", "allreduce"};
  const tlop_catalog_entry *cands[3][2];
  tlop_tuning_part parts[3];
  for (int c = 0; c < 3; c++) {
    cands[c][0] = tlop_catalog_find(cat, colls[c], "cheap_small");
    cands[c][1] = tlop_catalog_find(cat, colls[c], "cheap_large");
    parts[c] = (tlop_tuning_part){colls[c], d, cands[c]};
  }
  for (int f = 0; f <= TLOP_TUNING_IMPI; f++) {
    tlop_tuning_target to = {(tlop_tuning_format)f, TLOP_RANKS_ANY, NULL};
    char *text = NULL;
    CHECK(tlop_tuning_write(ctx, parts, 3, &to, &text) == TLOP_OK);
    for (int c = 0; text && c < 3; c++) {
      tlop_tuning *back = NULL;
      CHECK(tlop_tuning_read(ctx, cat, colls[c], &to, "several", text, strlen(text), &back) ==
            TLOP_OK);
      for (double m = 0; back && m <= 2048; m += 7)
        CHECK(tlop_tuning_lookup(back, m, 8) == cands[c][tlop_best_lookup(d, m, 8)]);
      tlop_tuning_free(back);
    }
    free(text);
    /* one collective twice is refused */
    parts[1].collective = "bcast";
    CHECK(tlop_tuning_write(ctx, parts, 3, &to, &text) == TLOP_ERR_ARG && !text);
    parts[1].collective = "reduce";
  }
}

static void test_round_trip(tlop_ctx *ctx) {
  char path[] = "/tmp/tlop_test_best_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  FILE *f = fdopen(fd, "w");
  fputs(cat_text, f);
  fclose(f);
  tlop_catalog *cat = NULL;
  CHECK(tlop_catalog_open(ctx, path, &cat) == TLOP_OK);
  remove(path);
  CHECK(tlop_catalog_find(cat, "bcast", "cheap_large")->ompi_id == 9);
  CHECK(tlop_catalog_version(cat, "openmpi") &&
        !strcmp(tlop_catalog_version(cat, "openmpi"), "test"));
  tlop_decision *d = decide(0);
  CHECK(tlop_best_refine(d, 0, cost_at, NULL) == TLOP_OK);
  static const char *const colls[] = {"bcast",  "reduce", "allreduce",
                                      "alltoall", "gather", "scatter"};
  for (int c = 0; c < 6; c++)
    round_trip(ctx, cat, d, colls[c]);
  several(ctx, cat, d);
  /* no message-size rule for a collective tlop has no model of */
  const tlop_catalog_entry *cands[2] = {tlop_catalog_find(cat, "bcast", "cheap_small"),
                                        tlop_catalog_find(cat, "bcast", "cheap_large")};
  char *text = NULL;
  tlop_tuning_part part = {"allgatherv", d, cands};
  CHECK(tlop_tuning_write(ctx, &part, 1,
                          &(tlop_tuning_target){TLOP_TUNING_OMPI_RULES, TLOP_RANKS_ANY, NULL},
                          &text) == TLOP_ERR_ARG &&
        !text);
  /* only Open MPI's JSON rules say where the ranks are */
  part.collective = "bcast";
  CHECK(tlop_tuning_write(ctx, &part, 1,
                          &(tlop_tuning_target){TLOP_TUNING_OMPI_RULES,
                                                TLOP_RANKS_SINGLE_NODE, NULL},
                          &text) == TLOP_ERR_ARG &&
        !text);
  CHECK(tlop_tuning_write(ctx, &part, 1,
                          &(tlop_tuning_target){TLOP_TUNING_OMPI_JSON,
                                                TLOP_RANKS_SINGLE_NODE, NULL},
                          &text) == TLOP_OK &&
        strstr(text, "\"comm_rank_distribution\": \"single_node\""));
  free(text);
  tlop_decision_free(d);
  tlop_catalog_free(cat);
}

static void quiet(void *user, const tlop_diag *d) { (void)user, (void)d; }

int main(void) {
  tlop_ctx *ctx = tlop_ctx_new();
  tlop_ctx_set_diag(ctx, quiet, NULL);
  test_pick();
  test_decide_refine();
  test_runner_up();
  test_refine_inserts_runs();
  test_round_trip(ctx);
  /* the stdlib's catalogue is built in and lists the bcast algorithms in Open MPI's ids */
  tlop_catalog *cat = NULL;
  CHECK(tlop_catalog_open(ctx, NULL, &cat) == TLOP_OK);
  const tlop_catalog_entry *e = cat ? tlop_catalog_find(cat, "bcast", "bcast_scatter_ring") : NULL;
  CHECK(e && e->ompi_id == 9 && !strcmp(e->ompi_name, "scatter_allgather_ring") &&
        !strcmp(e->mpich_name, "MPIR_Bcast_intra_scatter_ring_allgather"));
  tlop_catalog_free(cat);
  tlop_ctx_free(ctx);
  return unit_report("best");
}
