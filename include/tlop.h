/* tlop.h — the public API of the τ-Lop cost-expression compiler.
 *
 * A tlop_ctx owns everything: loaded models, the hash-consed cost IR, platforms and
 * diagnostics. Every fallible call returns a tlop_status; what went wrong is reported
 * through the context's diagnostic handler (the library never prints). Strings the
 * library returns with a `char *` are malloc'd and belong to the caller. */
#ifndef TLOP_H
#define TLOP_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TLOP_VERSION "0.1.0"

/* The shared library exports these and nothing else. */
#if defined(TLOP_BUILDING) && defined(__GNUC__)
#define TLOP_API __attribute__((visibility("default")))
#else
#define TLOP_API
#endif

typedef struct tlop_ctx tlop_ctx;
typedef struct tlop_model tlop_model;       /* a checked program: one file and its imports */
typedef struct tlop_expr tlop_expr;         /* a lowered cost expression (an IR node) */
typedef struct tlop_env tlop_env;           /* values given to parameters, by name */
typedef struct tlop_platform tlop_platform; /* channels that price L, o, γ and p */

typedef enum {
  TLOP_OK = 0,
  TLOP_ERR_SYNTAX,   /* the text does not parse */
  TLOP_ERR_CHECK,    /* names, arity, kinds, imports */
  TLOP_ERR_EVAL,     /* NaN, infinity, log of 0, a missing value, … during evaluation */
  TLOP_ERR_TABLE,    /* a parameter table is malformed */
  TLOP_ERR_IO,       /* a file cannot be read */
  TLOP_ERR_LIMIT,    /* a resource limit (sum terms, size) was reached */
  TLOP_ERR_ARG,      /* the caller passed a bad argument (unknown name, bad value text) */
  TLOP_ERR_NOMEM,
  TLOP_ERR_INTERNAL,
  TLOP_ERR_INTERRUPTED /* the caller's stop flag was raised (tlop_measure): nothing written */
} tlop_status;

typedef enum { TLOP_ERROR, TLOP_WARNING, TLOP_NOTE } tlop_severity;

typedef struct tlop_diag {
  tlop_severity severity;
  const char *file; /* NULL when the diagnostic has no location */
  int line, col;    /* 1-based; col counts UTF-8 characters; 0 when unknown */
  const char *message; /* one line, without location */
  const char *text;    /* full rendering: "file:line:col: error: …", source line, caret */
} tlop_diag;

typedef void (*tlop_diag_fn)(void *user, const tlop_diag *diag);

/* The τ rule for tables beyond their last measured column T. */
typedef enum {
  TLOP_TAU_PROPORTIONAL, /* L(m,τ) = L(m,T)·τ/T (default) */
  TLOP_TAU_CLAMP         /* L(m,τ) = L(m,T), as libtaulop */
} tlop_tau_rule;

/* Kinds of values: the checker's view of units. */
typedef enum {
  TLOP_KIND_NUMBER, /* a bare number: adopts the kind it meets */
  TLOP_KIND_COUNT,
  TLOP_KIND_SIZE,   /* bytes */
  TLOP_KIND_TIME,   /* seconds */
  TLOP_KIND_OTHER   /* bandwidth, time per byte, … */
} tlop_kind;

typedef enum { TLOP_FORMAT_UNICODE, TLOP_FORMAT_TLOP, TLOP_FORMAT_LATEX } tlop_format;

/* Options of tlop_simplify. */
typedef struct tlop_simp_opts {
  const char *assume;  /* facts besides the model's `assume`s: "P = 2^p, p >= 1, m = k*S/P" */
  int expand;          /* polynomials multiplied out, no common factor taken out */
  int unroll;          /* write out sums with concrete bounds (up to 64 terms) */
  const tlop_platform *platform; /* names the default channel; NULL: left unnamed */
  const tlop_env *env;           /* values to substitute; NULL: everything symbolic */
} tlop_simp_opts;

TLOP_API const char *tlop_version(void);
/* Human forms of numbers: "1 MiB", "1536 B" (binary units when exact); "12.35 µs". */
TLOP_API void tlop_format_size(char *buf, size_t n, double bytes);
TLOP_API void tlop_format_time(char *buf, size_t n, double seconds);
/* v as the shortest decimal strtod reads back to v, laid out as printf's "%.17g" would
 * (1024, 0.001, 1.5e-07, 1e+300, -0, inf, nan); buf holds TLOP_FORMAT_DOUBLE_MAX bytes.
 * Returns the length (the text ends with a NUL). Thread-safe; tens of ns a value. */
#define TLOP_FORMAT_DOUBLE_MAX 32
TLOP_API size_t tlop_format_double(char *buf, double v);
TLOP_API const char *tlop_status_name(tlop_status st);

/* Out of memory: the library cannot hand an error back from deep inside an allocation,
 * so it calls this handler with the size of the request it was refused. The handler
 * should not return (exit, or longjmp out of the whole library); if it does, or none is
 * installed, the library aborts. It may run on a thread the library started (the JIT's
 * kernels of tlop_kernels_eval, tlop_measure's threads), so it must be safe there: exit
 * is, a longjmp to the caller's thread is not. One for the process; returns the previous
 * one. */
typedef void (*tlop_oom_fn)(size_t bytes);
TLOP_API tlop_oom_fn tlop_set_oom_handler(tlop_oom_fn fn);

/* ---- context ---- */
TLOP_API tlop_ctx *tlop_ctx_new(void);
TLOP_API void tlop_ctx_free(tlop_ctx *ctx);
TLOP_API void tlop_ctx_set_diag(tlop_ctx *ctx, tlop_diag_fn fn, void *user);
/* Import search path, after the importing file's directory: these dirs in order, then
 * TLOP_PATH (colon separated), then the installed stdlib, then the stdlib built in. */
TLOP_API tlop_status tlop_ctx_add_path(tlop_ctx *ctx, const char *dir);
/* Where the installed stdlib is (default: the one configured at build time). */
TLOP_API tlop_status tlop_ctx_set_stdlib_dir(tlop_ctx *ctx, const char *dir);
TLOP_API void tlop_ctx_set_tau_rule(tlop_ctx *ctx, tlop_tau_rule rule);
/* Most terms one evaluation may add up over all its sums (default 1e8). */
TLOP_API void tlop_ctx_set_max_terms(tlop_ctx *ctx, double max_terms);
/* The last pipeline step a schedule may place a transfer at (default 1e7). */
TLOP_API void tlop_ctx_set_max_steps(tlop_ctx *ctx, double max_steps);
/* Most function calls one expression may inline (default 1e6): f_i(x) = f_{i−1}(x) +
 * f_{i−1}(x + 1) doubles them at each level. */
TLOP_API void tlop_ctx_set_max_inline(tlop_ctx *ctx, double max_inline);
/* Most messages one messages stage may send (default 1e6). */
TLOP_API void tlop_ctx_set_max_messages(tlop_ctx *ctx, double max_messages);
/* Errors after which reading a file stops (default 100): hostile input (binary data,
 * generated garbage) would otherwise give one error per byte or line. */
TLOP_API void tlop_ctx_set_max_errors(tlop_ctx *ctx, double max_errors);
/* The deepest nesting of an expression (default 2000; at most 20000, the depth an
 * expression may reach once its functions are inlined). The stages after the parser
 * recurse over it: the deepest take about 10 MiB of stack (60 MiB under AddressSanitizer;
 * the tlop command gives itself 64 MiB). */
TLOP_API void tlop_ctx_set_max_depth(tlop_ctx *ctx, double max_depth);
/* Most terms a sum written out by tlop_simplify's `unroll` may give (its values times its
 * body's terms), and most values of a nest of sums written out (default 4096); the sums
 * beyond it are kept. */
TLOP_API void tlop_ctx_set_max_unroll(tlop_ctx *ctx, double max_unroll);
/* Most nodes an expression printed as text may have as a tree (default 1e6): a DAG of
 * nested doublings (let x = y + y) prints 2^depth of them. */
TLOP_API void tlop_ctx_set_max_print(tlop_ctx *ctx, double max_print);
/* Most stages one explained breakdown may have (default 1e5). */
TLOP_API void tlop_ctx_set_max_stages(tlop_ctx *ctx, double max_stages);
/* Most points one grid axis may have (tlop_axis_parse, default 1e8). */
TLOP_API void tlop_ctx_set_max_points(tlop_ctx *ctx, double max_points);
/* Most rows (message sizes, default 1e7) and value columns (τ or operators, default 1e5)
 * of a parameter table; a larger table is refused as not a measured one. */
TLOP_API void tlop_ctx_set_max_table_rows(tlop_ctx *ctx, double max_rows);
TLOP_API void tlop_ctx_set_max_table_cols(tlop_ctx *ctx, double max_cols);
/* Numeric honesty made strict: every warning (a table extrapolated beyond its last row
 * or column, …) is reported as an error and counted by tlop_ctx_errors, so that a caller
 * can refuse a result built on it. */
TLOP_API void tlop_ctx_set_strict(tlop_ctx *ctx, int strict);
/* Each kind of table extrapolation is reported once per evaluation call (tlop_eval,
 * tlop_eval_batch, tlop_kernels_eval), with the first transfer that needed it. While
 * warn_once is on, it is reported once over all the calls, and held until warn_once is
 * set again (on or off), which gives the held warnings in one call's order: a caller that
 * evaluates one grid in chunks (tlop sweep) reports it as for one call. Setting it
 * forgets what was reported. */
TLOP_API void tlop_ctx_set_warn_once(tlop_ctx *ctx, int warn_once);
/* Under warn_once, the group the following calls belong to (0 when warn_once is set): each
 * group reports each kind once, and the held warnings are given group after group. A
 * caller that evaluates several expressions chunk by chunk (tlop sweep streaming its
 * rows) gives each expression its group, and reports as if each had been one call. */
TLOP_API void tlop_ctx_set_warn_group(tlop_ctx *ctx, size_t group);
/* What the following calls evaluate (an algorithm's name; NULL: nothing named): their
 * warnings start with it, and with the grid point of the first look-up that needed
 * them when they evaluate points (tlop_eval_batch, tlop_kernels_eval):
 * "bcast_binomial at m = 4096, P = 8: o[shm](4 KiB) is beyond …". */
TLOP_API void tlop_ctx_set_warn_source(tlop_ctx *ctx, const char *name);
/* Number of errors reported so far. */
TLOP_API int tlop_ctx_errors(const tlop_ctx *ctx);

/* ---- models ---- */
/* Reads a whole input file as every command reads its inputs ("-": standard input): a
 * FIFO, a device, a directory or a file over 256 MiB is refused with a diagnostic
 * (TLOP_ERR_IO). The text is NUL-terminated; free it with free(). tlop_load_file reads
 * through it too, so `tlop_load_file(ctx, "-", …)` loads a model from standard input. */
TLOP_API tlop_status tlop_read_file(tlop_ctx *ctx, const char *path, char **text, size_t *len);
TLOP_API tlop_status tlop_load_file(tlop_ctx *ctx, const char *path, tlop_model **out);
TLOP_API tlop_status tlop_load_source(tlop_ctx *ctx, const char *name, const char *text, size_t len,
                             tlop_model **out);

/* Algorithms the model's own file defines (not its imports), in source order. */
TLOP_API size_t tlop_model_algorithms(const tlop_model *model, const char ***names);
/* Platforms the model's own file declares, in source order. */
TLOP_API size_t tlop_model_platforms(const tlop_model *model, const char ***names);
/* The parameters of an algorithm that take numbers, in order (an operator parameter,
 * op: op, is given by name: tlop_env_set_op; a mapping, map: mapping, by
 * tlop_env_set_mapping); NULL when there is no such algorithm. A number with a default
 * (M: count = 1) is among them: without a value it takes its default. */
TLOP_API const char *const *tlop_algorithm_params(const tlop_model *model, const char *name,
                                         size_t *count);

/* ---- values ---- */
TLOP_API tlop_env *tlop_env_new(tlop_ctx *ctx);
TLOP_API void tlop_env_free(tlop_env *env);
/* Parses a constant expression such as "1MiB", "64", "3.5us" or "2*8 KiB" and binds it. */
TLOP_API tlop_status tlop_env_set_text(tlop_env *env, const char *name, const char *value);
TLOP_API tlop_status tlop_env_set(tlop_env *env, const char *name, double value, tlop_kind kind);
/* Binds name to a reduction operator by its name ("max"): an algorithm's parameter
 * `op: op`, or a free operator of an expression. Operators are bound when an expression is
 * built (tlop_algorithm_expr, tlop_expr_parse), not when it is evaluated. */
TLOP_API tlop_status tlop_env_set_op(tlop_env *env, const char *name, const char *op);
/* Binds name to a mapping of ranks on nodes: "sequential", "round_robin" or
 * "nodes(0, 0, 1, 1)" (the node of each rank in order); bound, like an operator, when an
 * expression is built. */
TLOP_API tlop_status tlop_env_set_mapping(tlop_env *env, const char *name, const char *mapping);
/* Parses a constant expression to its value in bytes, seconds or plain number. */
TLOP_API tlop_status tlop_value_parse(tlop_ctx *ctx, const char *text, double *value, tlop_kind *kind);

/* ---- expressions ---- */
/* Parses and checks EXPR in the scope of the model; names bound in env (may be NULL) are
 * its free variables, with the kinds of their values. */
TLOP_API tlop_status tlop_expr_parse(tlop_model *model, const char *text, const tlop_env *env,
                            tlop_expr **out);
/* The body of an algorithm with its parameters as free variables (bound by env or a
 * grid when evaluated); TLOP_ERR_ARG when there is no such algorithm or a value of env for
 * a count is not a whole number ≥ 0 (P = 1.5), TLOP_ERR_CHECK when a value of env does not
 * fit the kind of the parameter it binds (P: count = 3us). */
TLOP_API tlop_status tlop_algorithm_expr(tlop_model *model, const char *name, const tlop_env *env,
                                         tlop_expr **out);
/* The names of the free variables EXPR uses (sum indices excluded), each once, and the
 * channels its transfers name (NULL for the default channel); the arrays live as long as
 * the model. */
TLOP_API size_t tlop_expr_variables(const tlop_expr *expr, const char ***names);
TLOP_API size_t tlop_expr_channels(const tlop_expr *expr, const char ***names);
/* The edit distance of two names (Levenshtein; 99 past 40 bytes), for "did you mean". */
TLOP_API unsigned tlop_name_distance(const char *a, const char *b);
/* Does the model (its file or an import) declare a `param` of this name? */
TLOP_API int tlop_model_has_param(const tlop_model *model, const char *name);
/* Does a function or algorithm of the model have an operator parameter of this name? */
TLOP_API int tlop_model_has_op_param(const tlop_model *model, const char *name);
/* Does a function or algorithm of the model have a mapping parameter of this name? */
TLOP_API int tlop_model_has_mapping_param(const tlop_model *model, const char *name);
/* The form the papers derive by hand: ∥ pushed into the transfers, like terms combined,
 * sums closed where they have a closed form, assumptions applied. The result evaluates to
 * the same value for every valuation that satisfies the assumptions. */
TLOP_API tlop_status tlop_simplify(const tlop_expr *expr, const tlop_simp_opts *opts,
                                   tlop_expr **out);
/* As tlop_expr_parse, but a name the model does not define is a free variable (for
 * symbolic work: simplify, dump-ir). */
TLOP_API tlop_status tlop_expr_parse_symbolic(tlop_model *model, const char *text, tlop_expr **out);
/* Reads back what tlop_expr_print wrote in any format (symbolically, as
 * tlop_expr_parse_symbolic): the three printers and this reader round-trip. */
TLOP_API tlop_status tlop_expr_parse_format(tlop_model *model, const char *text, tlop_format format,
                                           tlop_expr **out);
/* Prints an expression in the papers' notation or as .tlop source; NULL (with an error)
 * when it would pass a million nodes as a tree. */
TLOP_API char *tlop_expr_print(tlop_ctx *ctx, const tlop_expr *expr, tlop_format format);
/* The kind of the expression's value (a cost is a TLOP_KIND_TIME). */
TLOP_API tlop_kind tlop_expr_kind(const tlop_expr *expr);
/* A debug listing of the DAG: one numbered line per distinct node. */
TLOP_API char *tlop_expr_dump(tlop_ctx *ctx, const tlop_expr *expr);

/* ---- platforms ---- */
/* name NULL: the first platform the model's own file declares, else the stdlib's
 * `generic`. Otherwise a platform of the model or `stdlib/platforms/<name>.tlop`. */
TLOP_API tlop_status tlop_platform_open(tlop_model *model, const char *name, tlop_platform **out);
/* Backs a channel (NULL: the default channel, the platform's first) with a table file. */
TLOP_API tlop_status tlop_platform_bind_table(tlop_platform *pf, const char *channel, const char *path);
TLOP_API const char *tlop_platform_name(const tlop_platform *pf);
/* The measured table behind CHANNEL (NULL: the default channel) as plain arrays owned by
 * the platform: nrows sizes m[] and, row-major, nrows × ncols values v[] (column 0 is
 * o(m), column τ is L(m,τ)); what code emitted by `tlop emit` reads. TLOP_ERR_ARG when
 * the channel is absent or analytic. */
TLOP_API tlop_status tlop_platform_table(const tlop_platform *pf, const char *channel,
                                         const double **m, const double **v, size_t *nrows,
                                         size_t *ncols);
TLOP_API void tlop_platform_free(tlop_platform *pf);
/* Reports every operator that an algorithm of the model's own file gives γ — a literal, a
 * default, or env's value for an operator parameter — and that the platform's gamma
 * table lacks: what `tlop check` can say before anything is evaluated. */
TLOP_API tlop_status tlop_platform_check_operators(const tlop_platform *pf, tlop_model *model,
                                                   const tlop_env *env);
/* As tlop_platform_check_operators, and every channel those algorithms name (L[ib](m, 1))
 * is one of the platform's: for the platform they are known to run on. */
TLOP_API tlop_status tlop_platform_check_algorithms(const tlop_platform *pf, tlop_model *model,
                                                    const tlop_env *env);

/* ---- evaluation ---- */
TLOP_API tlop_status tlop_eval(const tlop_expr *expr, const tlop_platform *pf, const tlop_env *env,
                      double *out);

/* Evaluates EXPR at npoints points: variable names[j] takes points[i*nvars + j]. Names not
 * in `names` come from env. Stops at the first failing point. */
TLOP_API tlop_status tlop_eval_batch(const tlop_expr *expr, const tlop_platform *pf, const tlop_env *env,
                            const char *const *names, size_t nvars, const double *points,
                            size_t npoints, double *out);

/* One row of `explain`: a stage of an algorithm with its numbers substituted. */
typedef struct tlop_stage {
  char *index;        /* "1", "2.3", "1..63" (a repeated stage) */
  char *label;        /* the stage's name, or NULL */
  char *expr;         /* the stage as τ-Lop expression with numbers substituted */
  double times;       /* how many times the row repeats (1, or N of a repeat) */
  double cost;        /* cost of one occurrence, seconds */
  double cumulative;  /* cost of everything up to and including this row */
} tlop_stage;

TLOP_API tlop_status tlop_explain(const tlop_expr *expr, const tlop_platform *pf, const tlop_env *env,
                         tlop_stage **rows, size_t *nrows);
TLOP_API void tlop_stages_free(tlop_stage *rows, size_t nrows);

/* ---- grids ---- */
/* One axis: "NAME=a..b:*f" (geometric), "NAME=a..b:+d" (arithmetic), "NAME=v1,v2,…". */
typedef struct tlop_axis {
  char *name;
  double *values;
  size_t count;
  tlop_kind kind;
} tlop_axis;

TLOP_API tlop_status tlop_axis_parse(tlop_ctx *ctx, const char *spec, tlop_axis *out);
TLOP_API void tlop_axis_free(tlop_axis *axis);
/* Whether every value of the axis fits what it binds among the parameters of these
 * algorithms and the model's params: a count (P: count) takes whole numbers ≥ 0.
 * TLOP_ERR_ARG, with a diagnostic naming the first value that does not. Bare numbers take
 * the kind of the size or time they bind (m=8,16 for m: size is in bytes, as m=8 B..16 B). */
TLOP_API tlop_status tlop_axis_check(tlop_model *model, const char *const *algorithms, size_t n,
                                     tlop_axis *axis);
/* The same for the evidence grid of `prove`: the axis names a variable of the model's claims
 * (or a param), and one that a claim passes to an algorithm's count takes whole numbers ≥ 0. */
TLOP_API tlop_status tlop_claim_axis_check(tlop_model *model, const tlop_axis *axis);

/* The free names of the model's claims, each once; the array lives as long as the model. */
TLOP_API size_t tlop_model_claim_variables(const tlop_model *model, const char ***names);

/* ---- claims: proofs, counterexamples, evidence ---- */
typedef enum { TLOP_PROVED, TLOP_REFUTED, TLOP_UNKNOWN } tlop_verdict;
typedef struct tlop_proof tlop_proof;

typedef struct tlop_prove_opts {
  int strict;          /* every claim under the axiom that L is strictly increasing in τ */
  double timeout;      /* seconds per claim; 0: 5 */
  tlop_format format;  /* the expressions of the derivation: unicode or latex */
  int json;            /* the derivation as one JSON object */
  const char *assume;  /* facts besides the model's `assume`s */
  const char *axioms;  /* optional axioms to switch on besides the file's: "o-monotone,p-monotone" */
  /* Numeric evidence for an undecided claim: both sides over a grid on a platform. */
  const tlop_platform *platform;
  const tlop_env *env;   /* fixed values */
  const tlop_axis *axes; /* the grid */
  size_t naxes;
} tlop_prove_opts;

/* The axioms the prover uses by default, as text. */
TLOP_API const char *tlop_axioms(void);
/* Every axiom, one a line with its name and whether it is on when the optional ones named
 * in `active` (separated by commas; NULL: none) are switched on, then the other facts the
 * prover uses; NULL when a name is unknown. Free with free(). */
TLOP_API char *tlop_axioms_list(const char *active);
/* Whether name is an axiom's name (tlop prove --axioms lists them). */
TLOP_API int tlop_axiom_known(const char *name);
/* The `claim`s of the model's root file. */
TLOP_API size_t tlop_model_claims(const tlop_model *model);
/* Decides claim i: proved (with its derivation), refuted (with a counterexample checked by
 * the reference evaluator) or unknown (with the numeric evidence, if a platform is given). */
TLOP_API tlop_status tlop_prove_claim(tlop_model *model, size_t i, const tlop_prove_opts *opts,
                                      tlop_proof **out);
TLOP_API tlop_verdict tlop_proof_verdict(const tlop_proof *proof);
/* A ≥ B, A ≤ B (each proved, refuted or unknown) and the largest c for which A ≥ c·B is
 * proved, with its derivation, for two expressions over the model. */
TLOP_API tlop_status tlop_prove_compare(tlop_model *model, const char *a, const char *b,
                                        const tlop_prove_opts *opts, tlop_proof **out);
/* The derivation, in the format asked for. */
TLOP_API const char *tlop_proof_text(const tlop_proof *proof);
TLOP_API double tlop_proof_seconds(const tlop_proof *proof);
TLOP_API void tlop_proof_free(tlop_proof *proof);

#ifdef __cplusplus
}
#endif
#endif
