/* tlop_jit.h — the JIT: cost expressions compiled to native code with LLVM.
 *
 * Why a header and a library of its own (libtlop_jit) rather than a section of tlop.h:
 * loading libLLVM costs ≈ 49 MB and ≈ 10 ms per process, so programs that only parse,
 * check, print or interpret link libtlop, which never loads LLVM, and never see these
 * declarations; programs that want native speed link libtlop_jit instead, which is
 * libtlop plus this API (link one of the two, not both).
 *
 * The compiled code computes what the interpreter computes: the same operations in the
 * same order, the same table look-up formulas, so both engines agree to the bit in
 * practice and within 1e-12 relative always. A point the compiled code cannot vouch for
 * (an error such as log of 0, a negative size, a sum beyond --max-terms) is evaluated
 * again by the interpreter, which reports the diagnostic: batch results and diagnostics
 * are those of tlop_eval_batch. */
#ifndef TLOP_JIT_H
#define TLOP_JIT_H

#include "tlop.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tlop_jit tlop_jit;         /* LLVM, the ORC JIT, the object cache */
typedef struct tlop_kernels tlop_kernels; /* compiled batch kernels of some expressions */

/* Which engine evaluates a batch. AUTO interprets batches below the break-even point
 * (compiling costs more than it saves there) and compiles the others. */
typedef enum { TLOP_ENGINE_AUTO, TLOP_ENGINE_JIT, TLOP_ENGINE_INTERP } tlop_engine;

/* "auto", "jit" or "interp"; TLOP_ERR_ARG otherwise. */
TLOP_API tlop_status tlop_engine_parse(const char *text, tlop_engine *out);
/* The engine AUTO stands for at `npoints` points per expression; others unchanged. */
TLOP_API tlop_engine tlop_engine_pick(tlop_engine engine, size_t npoints);

/* Starts LLVM and an ORC LLJIT. Compiled objects are cached in $XDG_CACHE_HOME/tlop
 * (else ~/.cache/tlop) until tlop_jit_set_cache says otherwise. */
TLOP_API tlop_status tlop_jit_new(tlop_ctx *ctx, tlop_jit **out);
TLOP_API void tlop_jit_free(tlop_jit *jit);
/* enabled 0: compile every time and write nothing; dir NULL: the default directory. */
TLOP_API tlop_status tlop_jit_set_cache(tlop_jit *jit, int enabled, const char *dir);
/* Threads a batch is split across; 0 (the default): the number of cores. */
TLOP_API void tlop_jit_set_jobs(tlop_jit *jit, int jobs);
/* The points each kernel compiled next is expected to evaluate (0, the default: a few).
 * A large module is fully optimised (LLVM's O2) only when as many points as make compiling
 * pay at all (tlop_engine_pick's threshold) are expected; otherwise it is compiled
 * quickly, unoptimised: ≈ 10× less compile time, kernels 3–5× slower a point (the idea of
 * PostgreSQL's jit_optimize_above_cost). Small modules are always optimised; the results
 * are the same to the bit either way. */
TLOP_API void tlop_jit_expect_points(tlop_jit *jit, size_t npoints);

/* Compiles one batch kernel per expression, all in one module (one compilation, one
 * cache entry). Variable names[j] takes points[i*nvars + j]; other names come from env
 * or their defaults, fixed at compile time, like the platform and the context's τ rule
 * and term limit. An expression the JIT cannot take is left to the interpreter. */
TLOP_API tlop_status tlop_jit_compile(tlop_jit *jit, const tlop_expr *const *exprs,
                                      size_t nexprs, const tlop_platform *pf,
                                      const tlop_env *env, const char *const *names,
                                      size_t nvars, tlop_kernels **out);
/* Evaluates expression `which` at npoints points, exactly as tlop_eval_batch would:
 * same results, same diagnostics and warnings, stops at the first failing point. */
TLOP_API tlop_status tlop_kernels_eval(tlop_kernels *k, size_t which, const double *points,
                                       size_t npoints, double *out);
/* tlop_kernels_eval in two halves, for a caller that runs batches on threads of its own
 * (tlop sweep: chunks evaluated at once, then settled and written in order).
 * tlop_kernels_run evaluates on the calling thread with the compiled code alone, touching
 * neither the context nor anything shared, so threads may run batches at once; it leaves
 * each point's extrapolations in flags (npoints bytes) and where the batch owes the
 * interpreter in *owed. tlop_kernels_settle pays that on the context's thread, batch after
 * batch in the order tlop_kernels_eval would have taken them: the points the compiled code
 * does not vouch for evaluated again (out and flags updated), the diagnostics, the
 * warnings. Both give TLOP_ERR_ARG for an expression left to the interpreter. */
typedef struct tlop_kernels_owed {
  size_t bad;     /* the first point whose result is not finite; npoints: none */
  size_t flag[3]; /* the first point of each kind of extrapolation; npoints: none */
} tlop_kernels_owed;
TLOP_API tlop_status tlop_kernels_run(const tlop_kernels *k, size_t which, const double *points,
                                      size_t npoints, double *out, unsigned char *flags,
                                      tlop_kernels_owed *owed);
TLOP_API tlop_status tlop_kernels_settle(tlop_kernels *k, size_t which, const double *points,
                                         size_t npoints, double *out, unsigned char *flags,
                                         tlop_kernels_owed *owed);
TLOP_API void tlop_kernels_free(tlop_kernels *k);

/* ---- emit: cost functions as LLVM IR, assembly or an object file plus a C header ---- */

typedef enum { TLOP_EMIT_LLVM_IR, TLOP_EMIT_ASM, TLOP_EMIT_OBJECT } tlop_emit_target;

/* Compiles one C-callable function per algorithm, `double NAME(double p1, …[, const
 * tlop_emit_table *tables])` with the algorithm's parameters in order, for a generic CPU
 * of this target, and returns it as text (LLVM IR, assembly) or object bytes in *code
 * (malloc'd, *code_len bytes), with the C header that declares it in *header (malloc'd;
 * header may be NULL). With bake_tables the platform's tables are constants in the code;
 * otherwise each table channel is a slot the caller fills at run time from a platform
 * loaded through tlop.h, with the function PREFIX_tables the header defines. Other
 * parameters keep the values they have now (defaults or env); so do the τ rule and the
 * term and message limits. Messages stages call libtlop's pricing (tlop_rt_messages,
 * tlop_rt_messages_regular): code with one links with libtlop, tables baked or not (the
 * header says so). prefix (a C identifier) also names the header guard. */
TLOP_API tlop_status tlop_jit_emit(tlop_jit *jit, tlop_model *model, const char *const *algos,
                                   size_t nalgos, const tlop_platform *pf, const tlop_env *env,
                                   int bake_tables, tlop_emit_target target, const char *prefix,
                                   char **code, size_t *code_len, char **header);

#ifdef __cplusplus
}
#endif
#endif
