/* ompi_tables.c — the collectives as the libraries number them: Open MPI's COLLTYPE ids and
 * coll_tuned's algorithm names, which key the table, with each library's message size and
 * MPICH's algorithms for the calls tlop's files leave to it. Data and look-ups only. */
#include "tune/tune.h"

#include <string.h>

/* coll_tuned's algorithm names by id, from 1 (`ompi_info --param coll tuned --level 9`,
 * Open MPI 4.1.4) */
static const char *const ompi_allgather[] = {"linear", "bruck", "recursive_doubling", "ring",
                                             "neighbor", "two_proc", NULL};
static const char *const ompi_allgatherv[] = {"default", "bruck", "ring", "neighbor", "two_proc",
                                              NULL};
static const char *const ompi_allreduce[] = {"basic_linear", "nonoverlapping",
                                             "recursive_doubling", "ring", "segmented_ring",
                                             "rabenseifner", NULL};
static const char *const ompi_alltoall[] = {"linear", "pairwise", "modified_bruck", "linear_sync",
                                            "two_proc", NULL};
static const char *const ompi_alltoallv[] = {"basic_linear", "pairwise", NULL};
static const char *const ompi_barrier[] = {"linear", "double_ring", "recursive_doubling", "bruck",
                                           "two_proc", "tree", NULL};
static const char *const ompi_bcast[] = {"basic_linear", "chain", "pipeline", "split_binary_tree",
                                         "binary_tree", "binomial", "knomial",
                                         "scatter_allgather", "scatter_allgather_ring", NULL};
static const char *const ompi_scan[] = {"linear", "recursive_doubling", NULL};
static const char *const ompi_gather[] = {"basic_linear", "binomial", "linear_sync", NULL};
static const char *const ompi_reduce[] = {"linear", "chain", "pipeline", "binary", "binomial",
                                          "in-order_binary", "rabenseifner", NULL};
static const char *const ompi_reduce_scatter[] = {"non-overlapping", "recursive_halving", "ring",
                                                  "butterfly", NULL};
static const char *const ompi_reduce_scatter_block[] = {"basic_linear", "recursive_doubling",
                                                        "recursive_halving", "butterfly", NULL};
static const char *const ompi_scatter[] = {"basic_linear", "binomial", "linear_nb", NULL};

#define NO SIZE_NONE
/* Open MPI's COLLTYPE order (ompi/mca/coll/base/coll_base_functions.h, 4.1), coll_tuned's
 * algorithms, and each library's message size as m·P^k (docs/tuning.md, "Message sizes"): only the
 * collectives with a stdlib model have one, so only they can be written. Open MPI looks
 * barrier and alltoallv up at size 0 (coll_tuned_decision_dynamic.c). */
static const tuning_collective collectives[] = {
    {"allgather", 0, ompi_allgather, {1, NO, 1, NO},
     "MPIR_Allgather_inter_local_gather_remote_bcast", NULL, NULL},
    {"allgatherv", 1, ompi_allgatherv, {NO, NO, NO, NO}, NULL, NULL, NULL},
    {"allreduce", 2, ompi_allreduce, {0, 0, 1, 0}, "MPIR_Allreduce_inter_reduce_exchange_bcast",
     NULL, NULL},
    {"alltoall", 3, ompi_alltoall, {1, 0, 1, 0}, "MPIR_Alltoall_inter_pairwise_exchange",
     "is_sendbuf_inplace", "MPIR_Alltoall_intra_pairwise_sendrecv_replace"},
    {"alltoallv", 4, ompi_alltoallv, {SIZE_ZERO, NO, NO, NO},
     "MPIR_Alltoallv_inter_pairwise_exchange",
     "is_sendbuf_inplace", "MPIR_Alltoallv_intra_pairwise_sendrecv_replace"},
    {"alltoallw", 5, NULL, {NO, NO, NO, NO}, NULL, NULL, NULL},
    {"barrier", 6, ompi_barrier, {SIZE_ZERO, NO, NO, NO}, "MPIR_Barrier_inter_bcast",
     "comm_hierarchy", "MPIR_Barrier_intra_smp"},
    {"bcast", 7, ompi_bcast, {0, 0, 1, 0}, "MPIR_Bcast_inter_remote_send_local_bcast", NULL,
     NULL},
    {"exscan", 8, ompi_scan, {NO, NO, NO, NO}, NULL, NULL, NULL},
    {"gather", 9, ompi_gather, {1, NO, 1, 0}, "MPIR_Gather_inter_linear", NULL, NULL},
    {"gatherv", 10, NULL, {NO, NO, NO, 0}, "MPIR_Gatherv_allcomm_linear", NULL, NULL},
    {"reduce", 11, ompi_reduce, {0, 0, 1, 0}, "MPIR_Reduce_inter_local_reduce_remote_send",
     NULL, NULL},
    {"reduce_scatter", 12, ompi_reduce_scatter, {1, NO, NO, NO}, NULL, NULL, NULL},
    {"reduce_scatter_block", 13, ompi_reduce_scatter_block, {NO, NO, NO, NO}, NULL, NULL, NULL},
    {"scan", 14, ompi_scan, {NO, NO, NO, NO}, NULL, NULL, NULL},
    {"scatter", 15, ompi_scatter, {0, NO, 0, -1}, "MPIR_Scatter_inter_linear", NULL, NULL},
    {"scatterv", 16, NULL, {NO, NO, NO, NO}, NULL, NULL, NULL},
};
#undef NO
#define NCOLLECTIVES (sizeof collectives / sizeof *collectives)

int tuning_ompi_algorithms(const tuning_collective *c) {
  int n = 0;
  while (c->ompi_names && c->ompi_names[n])
    n++;
  return n;
}

const tuning_collective *tuning_collective_named(const char *name) {
  for (size_t i = 0; i < NCOLLECTIVES; i++)
    if (!strcmp(collectives[i].name, name))
      return &collectives[i];
  return NULL;
}

int tuning_ompi_alg_id(const char *collective, const char *name) {
  const tuning_collective *c = tuning_collective_named(collective);
  for (int i = 0; c && c->ompi_names && c->ompi_names[i]; i++)
    if (!strcmp(c->ompi_names[i], name))
      return i + 1;
  return 0;
}

int tuning_ompi_alg_count(const char *collective) {
  const tuning_collective *c = tuning_collective_named(collective);
  return c ? tuning_ompi_algorithms(c) : -1;
}

const tuning_collective *tuning_collective_of_ompi_id(long id) {
  for (size_t i = 0; i < NCOLLECTIVES; i++)
    if (collectives[i].ompi_id == id)
      return &collectives[i];
  return NULL;
}

size_t tuning_collective_count(void) { return NCOLLECTIVES; }
