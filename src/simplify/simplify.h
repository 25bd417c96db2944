/* simplify.h — normal forms: polynomials (poly.c) and the simplifier (simplify.c).
 * Depends on eval (numbers are checked by evaluating). */
#ifndef TLOP_SIMPLIFY_H
#define TLOP_SIMPLIFY_H

#include "eval/eval.h"

/* ======== poly.c: the normal form of scalar expressions ======== */

/* A polynomial over canonical factors: Σ c · Π base^e · Π b^E, where base is a canonical
 * IR node (a variable, or an opaque function such as ⌈log₂P⌉), e an integer (negative
 * for denominators), and b^E an exponential with a numeric base and a polynomial
 * exponent. Polys are immutable values in the session's scratch arena. */
typedef struct poly poly;
typedef struct simp simp;

poly *poly_num(simp *s, double c);
poly *poly_factor(simp *s, ir_node *base);
poly *poly_add(simp *s, const poly *a, const poly *b);
poly *poly_sub(simp *s, const poly *a, const poly *b);
poly *poly_mul(simp *s, const poly *a, const poly *b);
poly *poly_div(simp *s, const poly *a, const poly *b);
poly *poly_pow(simp *s, const poly *base, const poly *expo);
/* b^e (b > 0, ≠ 1) as an exponential, for a power out of the range of doubles (2^−2097152),
 * which the evaluator computes in the wide range. */
poly *poly_power_of(simp *s, double b, double e);
/* b^e of numbers: the number, or poly_power_of where it leaves the range of doubles
 * (b > 0, b ≠ 1): 2^2097152 cancels 2^−2097152, and 2^−2929 is not 0. */
poly *poly_number_pow(simp *s, double b, double e);
bool poly_is_num(const poly *p, double *v);
bool poly_is_zero(const poly *p);
bool poly_leading_negative(const poly *p);
poly *poly_negate(simp *s, const poly *p);
bool poly_uses(const poly *p, sym var);
/* Integer-valued for every value of its variables that `is_int` accepts. */
bool poly_is_integer(const poly *p, bool (*is_int)(simp *s, const ir_node *base), simp *s);
/* One monomial c·Π f^e·Π b^E with c ≥ least and every factor accepted by `factor_ok`;
 * with `at_least_one`, also every b^E ≥ 1. */
bool poly_monomial_over(simp *s, const poly *p, double least, bool at_least_one,
                        bool (*factor_ok)(simp *s, const ir_node *base, int e));
/* As IR: with `factored`, the common monomial is taken out: 2·k·(P − 1)/P. */
ir_node *poly_to_ir(simp *s, const poly *p, bool factored);
/* Σ_{var=lo}^{hi} p in closed form for the parts that have one (constants, var, var²,
 * geometric series); the rest stays as a sum. Requires integer bounds and hi ≥ lo − 1. */
poly *poly_sum(simp *s, sym var, const poly *lo, const poly *hi, const poly *body);
/* Substitutes var := value in p. */
poly *poly_subst(simp *s, const poly *p, sym var, const poly *value);
/* The numbers of monomials, and access for the decision procedures. */
int poly_terms(const poly *p);
/* Linear in var with numeric coefficient: p = a·var + rest; false otherwise. */
bool poly_linear_in(simp *s, const poly *p, sym var, double *a, poly **rest);
/* p = c1·2^E1 + c2·2^E2 with no other factor: the pieces; false otherwise. */
bool poly_two_powers(simp *s, const poly *p, double *c1, poly **e1, double *c2, poly **e2);
/* The variables p uses, at most max of them. */
int poly_vars(const poly *p, sym *out, int max);
/* A lower bound of p: each lone c·⌈e⌉, c·⌊e⌋ replaced by e or e ± 1 as c's sign needs
 * (of: e's polynomial); NULL when p has none. */
poly *poly_round_lower(simp *s, const poly *p, poly *(*of)(simp *s, const ir_node *n));
/* The k-th pair of terms d·f(a) − d·f(b) of p, f one of ⌈⌉, ⌊⌋, log₂ (non-decreasing), d > 0:
 * the arguments in *a and *b, p less the pair in *rest; false past the last. */
bool poly_monotone_pair(simp *s, const poly *p, int k, const ir_node **a, const ir_node **b,
                        poly **rest);
/* log_base(p) when p = c·base^E (c > 0, nothing else): log_base(c) + E. */
bool poly_log(simp *s, const poly *p, double base, poly **out);
/* log_base(c·base^E·rest) = log_base(c) + E + log_base(rest): the number part, and *rest;
 * NULL when p is not one monomial c > 0 with other factors, or nothing splits off. */
poly *poly_log_parts(simp *s, const poly *p, double base, poly **rest);
/* The constant term of p (0 when it has none). */
double poly_constant(const poly *p);
/* The monomials of p that do not use var, summed (0 when none). */
poly *poly_free_of(simp *s, const poly *p, sym var);
/* For a one-monomial p: p = indep · dep, dep holding what uses var. */
bool poly_split(simp *s, const poly *p, sym var, poly **indep, poly **dep);
/* The common shift c of the exponents a·var + a·c in p (see poly.c). */
bool poly_shift_of(simp *s, const poly *p, sym var, double *off, bool *seen);
/* Rewrites 2^(c·p + R) as base^c · 2^R for an assumption base = 2^p. */
poly *poly_unpow2(simp *s, const poly *p, sym expo, ir_node *base);

/* ======== simplify.c: ∥ laws, normal forms, sums, assumptions ======== */

/* The session's services the polynomial layer calls back. */
arena *simp_arena(simp *s);
tlop_ctx *simp_ctx(simp *s);

/* The normal form of n under facts (lowered `assume`s) and the options. Of the lets of n
 * (lowering's), those whose normal form is a sum of LET_MIN_TERMS terms or more, or a sum
 * n uses more than MAX_SUM_POWER times, and that the normal form uses more than once stay
 * lets: *kept (in the context's arena; the
 * result holds their values inlined). kept may be NULL: every let is inlined. With error,
 * a failure (facts that contradict each other) is kept in *error (the first, malloc'd)
 * instead of reported. */
ir_node *simp_simplify(tlop_ctx *ctx, const ir_node *n, ir_node *const *facts, size_t nfacts,
                       const tlop_simp_opts *o, const expr_let *lets, size_t nlets,
                       expr_let **kept, size_t *nkept, char **error);
/* Whether r, the simplified form of n, holds only finite numbers; if not, reports the
 * constant operation of n that overflows (2^100000), or n itself when folding sums did
 * (with error: keeps that message in *error, as simp_simplify does). */
bool simp_finite(tlop_ctx *ctx, const ir_node *n, const ir_node *r, char **error);
/* Polynomials larger than this stay opaque rather than multiply out. */
#define POLY_MAX_TERMS 256
/* A sum's power up to this multiplies out; beyond it, its terms' coefficients grow as
 * binomials do and cancel only in exact arithmetic ((27 − X·(k − P))^30 at k = P). */
#define MAX_SUM_POWER 8
/* After --expand: notes a power of a sum that r, the form of n, still holds. */
void simp_note_unexpanded(tlop_ctx *ctx, const ir_node *n, const ir_node *r);
/* A stage of `explain`: the values of es substituted, sums written out, ∥ par applied:
 * `4 ∥ T(1 MiB)` → `o(1 MiB) + 2·L(1 MiB, 4)`. */
ir_node *simp_instantiate(eval_state *es, const ir_node *n, double par);
/* Normalizes a scalar IR node into a poly. */
poly *simp_poly(simp *s, const ir_node *n);
/* Proves p ≥ 0 (p > 0) under the assumptions and the bounds of the sums in scope. */
bool simp_nonneg(simp *s, const poly *p);
bool simp_positive(simp *s, const poly *p);
/* The facts of arithmetic beyond a polynomial's own a sign proof may use, for a
 * derivation to cite: ⌊x⌋ ≤ x ≤ ⌈x⌉ (and the other side within 1); ⌈⌉, ⌊⌋, log₂,
 * log_g (g > 1) and 2^x non-decreasing, with log₂1 = 0; a maximum over a range is one of
 * its terms (so of their sign where every term has it). */
typedef enum sign_fact { SIGN_ROUNDING = 1, SIGN_MONOTONE = 2, SIGN_MAXIMUM = 4 } sign_fact;
/* simp_nonneg, and the sign_facts its proof used in *facts (0 when not proved). */
bool simp_nonneg_facts(simp *s, const poly *p, unsigned *facts);
/* 1: a ≥ b proved; -1: a < b proved; 0: unknown. */
int simp_compare(simp *s, const poly *a, const poly *b);
/* p as canonical IR, with the powers of two of the assumptions named again. */
ir_node *simp_canon(simp *s, const poly *p);

/* A session for the decision procedures (prove.c): the facts are assumed once, then
 * normal forms, signs and sums are asked of it. */
typedef struct simp_term {
  ir_node *atom; /* NULL: the scalar part */
  poly *c;
} simp_term;
simp *simp_open(tlop_ctx *ctx, ir_node *const *facts, size_t nfacts, const tlop_simp_opts *o);
/* simp_open for a case's condition: facts it cannot use, or that contradict each other (a
 * case that cannot happen), are not errors and are left unsaid. */
simp *simp_open_quiet(tlop_ctx *ctx, ir_node *const *facts, size_t nfacts,
                      const tlop_simp_opts *o);
void simp_close(simp *s);
/* The normal form of a cost as a linear combination of atoms (transfers, sums, …). */
int simp_terms(simp *s, const ir_node *n, const simp_term **out);
ir_node *simp_terms_ir(simp *s, const simp_term *t, int n);
/* A sum's index in scope, with its bounds, while its body is worked on. */
void simp_push_index(simp *s, sym idx, poly *lo, poly *hi);
void simp_pop_index(simp *s);

bool simp_is_integer(simp *s, const poly *p);

#endif
