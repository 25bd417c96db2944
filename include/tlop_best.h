/* tlop_best.h — choosing the cheapest algorithm per (m, P) from computed costs, the
 * catalogue that names each stdlib algorithm in the MPI libraries, and the tuning files
 * those libraries read (written, and read back by linters that mirror each reader). */
#ifndef TLOP_BEST_H
#define TLOP_BEST_H

#include "tlop.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the decision ---- */

/* One run along m at one P with one winner and one runner-up (a run of equal winners is
 * split where its runner-up changes). */
typedef struct tlop_best_range {
  double P;
  double m_first, m_last;        /* the first and last grid m of the run */
  double m_from;                 /* where the run starts: m_first, or after refining the
                                    smallest whole byte count above the previous run's m_last
                                    at which this winner (or, after a run of the same winner,
                                    this runner-up) takes over */
  size_t winner, runner_up;      /* candidate indices (runner_up == winner: one candidate) */
  double margin_min, margin_max; /* cost(runner_up) / cost(winner) − 1 over the run's grid
                                    points and, refined, its first and last byte */
  int by_tie;                    /* somewhere in the run the winner is up to `tie` dearer than
                                    a later candidate: the tie rule chose it */
} tlop_best_range;

typedef struct tlop_decision {
  tlop_best_range *ranges; /* by P, then by m */
  size_t nranges;
  size_t ncandidates;
} tlop_decision;

/* The winner among ncand costs (costs[c * stride]): the cheapest, except that an earlier
 * candidate (the catalogue lists the simpler algorithms first) within a relative `tie` of
 * the cheapest wins. *runner_up: the cheapest of the others. Costs equal within 1e-12
 * (relative) are one cost: of them the first listed is the cheapest, and the runner-up,
 * so rounding never splits a run. *by_tie: the tie rule chose. */
TLOP_API size_t tlop_best_pick(const double *costs, size_t ncand, size_t stride, double tie,
                               size_t *runner_up, int *by_tie);

/* Decides every point of the grid ms × Ps: costs[c * nP * nm + p * nm + i] is candidate c at
 * (ms[i], Ps[p]), ms ascending. Neighbours in m with the same winner and runner-up are
 * merged into ranges. */
TLOP_API tlop_status tlop_best_decide(const double *ms, size_t nm, const double *Ps, size_t nP,
                                      const double *costs, size_t ncand, double tie,
                                      tlop_decision **out);

/* Costs of every candidate at one point, for refining. */
typedef tlop_status (*tlop_cost_fn)(void *user, double m, double P, double *costs);

/* Locates each crossover between grid points by bisection on whole bytes (costs computed by
 * fn) — of the pair of winner and runner-up — and sets m_from of the range that starts
 * there; a pair that neither neighbouring run has becomes a range of its own, inserted. */
TLOP_API tlop_status tlop_best_refine(tlop_decision *d, double tie, tlop_cost_fn fn, void *user);

/* The winner at (m, P) by the decision: the range of the largest P ≤ P (else the first P),
 * and in it the last range with m_from ≤ m. */
TLOP_API size_t tlop_best_lookup(const tlop_decision *d, double m, double P);
TLOP_API void tlop_decision_free(tlop_decision *d);

/* ---- the catalogue (stdlib/catalog.txt) ---- */

typedef struct tlop_catalog_entry {
  const char *collective; /* bcast */
  const char *algorithm;  /* the stdlib algorithm, e.g. bcast_binomial */
  const char *file;       /* the stdlib file that defines it, e.g. mpich/bcast.tlop */
  int ompi_id;            /* Open MPI coll_tuned algorithm id; 0: none */
  const char *ompi_name;  /* coll_tuned's name for it, or NULL */
  const char *mpich_name; /* MPICH's algorithm (MPIR_Bcast_intra_binomial), or NULL */
  int impi_id;            /* Intel MPI's I_MPI_ADJUST_<COLL> number; 0: none */
} tlop_catalog_entry;

typedef struct tlop_catalog tlop_catalog;

/* Reads the catalogue at path, or the stdlib's (built in) when path is NULL. Entries keep
 * the file's order, which is the order of simplicity the tie rule uses. */
TLOP_API tlop_status tlop_catalog_open(tlop_ctx *ctx, const char *path, tlop_catalog **out);
TLOP_API size_t tlop_catalog_entries(const tlop_catalog *cat, const tlop_catalog_entry **entries);
/* The entry of an algorithm of a collective; NULL when it is not listed. */
TLOP_API const tlop_catalog_entry *tlop_catalog_find(const tlop_catalog *cat,
                                                     const char *collective, const char *algorithm);
/* "Open MPI 4.1.4 …": the version of `library` (openmpi, mpich, impi) the ids were checked
 * against; NULL when the catalogue does not say. */
TLOP_API const char *tlop_catalog_version(const tlop_catalog *cat, const char *library);
TLOP_API void tlop_catalog_free(tlop_catalog *cat);

/* ---- tuning files ---- */

typedef enum {
  TLOP_TUNING_OMPI_RULES,    /* Open MPI coll_tuned classic rules, rule-file-version-2 */
  TLOP_TUNING_OMPI_RULES_V1, /* the same without the header and max_requests (Open MPI 4.1) */
  TLOP_TUNING_MPICH_JSON,    /* MPICH's collective selection (CSEL) JSON, MPICH 4.0 */
  TLOP_TUNING_OMPI_JSON,     /* Open MPI coll_tuned JSON rules (newer than Open MPI 5.0) */
  TLOP_TUNING_IMPI           /* Intel MPI: I_MPI_ADJUST_<COLL>="ID:l-m@p-q;…" */
} tlop_tuning_format;

/* "ompi-rules", "ompi-rules-v1", "mpich-json", "ompi-json", "impi"; TLOP_ERR_ARG otherwise. */
TLOP_API tlop_status tlop_tuning_format_parse(const char *name, tlop_tuning_format *out);

/* "Open MPI coll_tuned", "MPICH", "Intel MPI": the library that reads the format. */
TLOP_API const char *tlop_tuning_library(tlop_tuning_format format);
/* Does the library of the format name this entry (an Open MPI id, an MPICH algorithm)? */
TLOP_API int tlop_tuning_names(const tlop_catalog_entry *e, tlop_tuning_format format);
/* Do two entries name the same algorithm of the format's library? */
TLOP_API int tlop_tuning_same(const tlop_catalog_entry *a, const tlop_catalog_entry *b,
                              tlop_tuning_format format);

/* Where the ranks of the runs a decision is meant for sit: Open MPI JSON's
 * comm_rank_distribution ("any", "single_node", "one_per_node"). tlop's models carry no
 * mapping: this only says which runs the file is for. */
typedef enum { TLOP_RANKS_ANY, TLOP_RANKS_SINGLE_NODE, TLOP_RANKS_ONE_PER_NODE } tlop_ranks;

/* "any", "single_node", "one_per_node"; TLOP_ERR_ARG otherwise. */
TLOP_API tlop_status tlop_ranks_parse(const char *name, tlop_ranks *out);

/* The MPICH release whose own selection tree an MPICH file is completed with, by default
 * (stdlib/tuning/mpich-VERSION.json holds each release tlop knows). */
#define TLOP_MPICH_VERSION "4.0.2"

/* What a file is written for, or read as. */
typedef struct tlop_tuning_target {
  tlop_tuning_format format;
  tlop_ranks ranks;          /* Open MPI's JSON only: the runs the file is for */
  const char *mpich_version; /* MPICH: its release (NULL: TLOP_MPICH_VERSION) */
} tlop_tuning_target;

/* One collective's decision: cands[c] is the catalogue entry of candidate c. */
typedef struct tlop_tuning_part {
  const char *collective;
  const tlop_decision *d;
  const tlop_catalog_entry *const *cands;
} tlop_tuning_part;

/* The decisions as one tuning file of a library. The message size is the library's
 * (docs/tuning.md: "Message sizes"); an MPICH file is the library's whole MPIR-level selection
 * tree, holding for every collective not among the parts the release's own decisions.
 * TLOP_ERR_ARG (with a diagnostic) when a winner has no id in that library, ranks is not
 * TLOP_RANKS_ANY for a format other than Open MPI's JSON, or tlop knows no such MPICH
 * release. */
TLOP_API tlop_status tlop_tuning_write(tlop_ctx *ctx, const tlop_tuning_part *parts, size_t n,
                                       const tlop_tuning_target *to, char **text);

/* A tuning file read as the library reads it; every departure from what the library accepts
 * is an error at file:line:col. `collective` is the one tlop_tuning_lookup answers for. */
typedef struct tlop_tuning tlop_tuning;
TLOP_API tlop_status tlop_tuning_read(tlop_ctx *ctx, const tlop_catalog *cat,
                                      const char *collective, const tlop_tuning_target *as,
                                      const char *path, const char *text, size_t len,
                                      tlop_tuning **out);
/* The catalogue entry the library would run for a message of m bytes on P processes (for
 * the collective read); NULL when the file leaves it to the library's defaults, or the id is
 * not in the catalogue. */
TLOP_API const tlop_catalog_entry *tlop_tuning_lookup(const tlop_tuning *t, double m, double P);
TLOP_API void tlop_tuning_free(tlop_tuning *t);

#ifdef __cplusplus
}
#endif
#endif
