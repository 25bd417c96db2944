/* prove.h — claims: counterexamples and evidence (refute.c); the prover (prove.c)
 * and explain (explain.c) offer only the public API. Depends on simplify. */
#ifndef TLOP_PROVE_H
#define TLOP_PROVE_H

#include "simplify/simplify.h"

/* ======== refute.c: counterexamples and numeric evidence for claims ======== */

typedef struct refutation {
  char *where;        /* the parameter values: "P = 2, p = 1, m = 1" */
  const char *family; /* the L: "L(m, τ) = 1" */
  const char *free_channel; /* a channel whose L is 0 instead, or NULL */
  const char *o;      /* o(m): "0", "1", "1/(1 + m)", … */
  const char *p, *gamma; /* p(m), γ(m, τ) when not 0, else NULL */
  bool transfers;     /* the claim has costs (L, o, γ, p) at all */
  double lhs, rhs;
  char *tables;       /* the random search's L, o (p, γ) of every channel, instead of the
                         above; owned, as where is */
  char *source;       /* the platform of the counterexample as tlop source (owned) */
} refutation;

/* Frees what a refutation owns. */
void refutation_free(refutation *r);

typedef struct evidence {
  size_t points;
  double min, max;    /* of lhs / rhs */
  char *min_at, *max_at;
} evidence;

/* Searches small parameter values (where the facts hold) and the L, o, p and γ the active
 * axioms (AX_BIT(axiom_id)) allow for a point where lhs op rhs fails (and rhs > 0, with
 * rhs_positive: a point where a ratio is reached). */
bool refute_search(tlop_model *model, ir_node *const *facts, size_t nfacts, const ir_node *lhs,
                   ir_op op, const ir_node *rhs, unsigned axioms, bool rhs_positive, double deadline,
                   refutation *out);
/* A point of the search (the facts hold, some L the axioms allow) where both lhs and rhs
 * are defined, one where a side is not 0 if the search meets one, in out (its where only
 * meaningful). */
bool refute_defined_point(tlop_model *model, ir_node *const *facts, size_t nfacts,
                          const ir_node *lhs, const ir_node *rhs, unsigned axioms, double deadline,
                          refutation *out);
/* The least lhs / rhs (rhs > 0) over the search's points and the L, o, p, γ the axioms
 * allow: no c above it has lhs ≥ c·rhs; false when no point has rhs > 0. */
bool refute_least_ratio(tlop_model *model, ir_node *const *facts, size_t nfacts, const ir_node *lhs,
                        const ir_node *rhs, unsigned axioms, double deadline, double *out);
/* lhs / rhs over the grid of o->axes on o->platform. */
bool refute_evidence(tlop_model *model, ir_node *const *facts, size_t nfacts, const ir_node *lhs,
                     const ir_node *rhs, const tlop_prove_opts *o, double deadline, evidence *out);

#endif
