/* jit_int.h — private declarations of the JIT (libtlop_jit), one section per file: jit.c
 * (LLVM, target machines, passes, ORC, the object cache), jit_expr.c (cost IR → LLVM IR),
 * jit_table.c (table look-ups as IR), jit_batch.c (kernels, threads, the interpreter
 * fallback) and jit_emit.c (tlop emit). The only header that includes LLVM-C. */
#ifndef TLOP_JIT_INT_H
#define TLOP_JIT_INT_H

#include "api/api.h"
#include "tlop_jit.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

/* ======== jit.c: LLVM, ORC and the object cache ======== */

/* Where the time of the last jit_load went, for the benchmark. */
typedef struct jit_stats {
  double hash_ms, opt_ms, codegen_ms, link_ms;
  bool cache_hit;    /* the object came from the disk cache */
  bool loaded;       /* the module was already in this JIT: nothing was done */
  bool quick;        /* compiled unoptimised (JIT_QUICK_PASSES) */
} jit_stats;

struct tlop_jit {
  tlop_ctx *ctx;
  LLVMContextRef llctx;   /* modules are built in it, one at a time */
  LLVMTargetMachineRef tm; /* this host's CPU: what the kernels run on */
  LLVMTargetMachineRef tm_quick; /* the same, no code generation optimisation: made on
                                  * first use */
  LLVMOrcLLJITRef lljit;
  LLVMOrcJITDylibRef jd;
  char *cache_dir;        /* NULL: no cache */
  int jobs;               /* 0: the number of cores */
  size_t points;          /* tlop_jit_expect_points */
  const char *passes;     /* the new pass manager's pipeline (the benchmark tries others) */
  uint64_t *loaded;       /* hashes of the modules linked into lljit */
  size_t nloaded, loaded_cap;
  jit_stats stats;
};

/* Reports an LLVM error (prefixed with `what`) through the context and disposes of it. */
tlop_status jit_fail(tlop_ctx *ctx, LLVMErrorRef err, const char *what);
/* Reports a failure that came as a message LLVM allocated, and disposes of the message. */
tlop_status jit_fail_message(tlop_ctx *ctx, char *msg, const char *what);
/* A target machine for this host (the JIT) or for a generic CPU of the same triple
 * (emitted objects that may run elsewhere), at code generation level `level`. */
tlop_status jit_target_machine(tlop_ctx *ctx, bool host, LLVMCodeGenOptLevel level,
                               LLVMTargetMachineRef *out);
/* The pipeline kernels are compiled with (LLVMRunPasses syntax). */
#define JIT_PASSES "default<O2>"
/* Points per expression from which `auto` compiles instead of interpreting. Measured by
 * tests/bench on its 2-core machine (tests/bench/README.md): compiling one algorithm
 * takes 13-16 ms, and saves per point 0.95 µs (binomial broadcast), 1.7 µs (scatter),
 * 1.05 µs (RDA) but 0.09 µs (ring): compiling pays from 8·10^3 to 1.7·10^5 points. At
 * 4·10^4 (the prototype's figure too) auto loses at most ≈ 10 ms, on the cheapest
 * algorithms, and wins on the others. A compile expecting that many points is also fully
 * optimised: O2 then repays itself (from ≈ 2·10^4 points for MPICH's four and Open MPI's
 * pipeline in one module, tests/bench), and the object is cached for the next run. */
#define JIT_BREAK_EVEN 40000
/* The quick tier: no optimisation (the always-inliner alone), code generation at
 * LLVMCodeGenLevelNone, where x86 selects instructions with FastISel and allocates
 * registers the fast way. For a module of more than JIT_QUICK_INSTRUCTIONS LLVM
 * instructions (before optimisation; ≈ 150 M instructions of LLVM, 25 ms here, at O2)
 * expected to evaluate fewer than JIT_BREAK_EVEN points: O2 costs ≈ 0.3 M instructions of
 * LLVM per instruction of the module, up to 2.5 G (`bcast_smp`, 6 400 instructions); the
 * quick tier ≈ 10× less, for kernels 3–5× slower a point (tests/bench README). */
#define JIT_QUICK_PASSES "default<O0>"
#define JIT_QUICK_INSTRUCTIONS 450
/* Sets the module's triple and data layout for tm, verifies it and runs the pipeline. */
tlop_status jit_optimize(tlop_ctx *ctx, LLVMModuleRef m, LLVMTargetMachineRef tm,
                         const char *passes);
/* Compiles a module (consumed) into the JIT — taken from the cache when it was compiled
 * before — and returns the addresses of the functions named fns[0..n) in it; quick: in the
 * quick tier (jit_gen_quicken made it for that). */
tlop_status jit_load(tlop_jit *jit, LLVMModuleRef m, bool quick, const char *const *fns,
                     size_t n, void **addrs);
/* Milliseconds on a monotonic clock. */
double jit_now_ms(void);

/* ======== jit_table.c: the look-ups of table.c as IR ======== */

/* A table the module uses: baked globals, or a run-time slot (emit without baking), and
 * the functions its look-ups are outlined into (made on first use). */
typedef struct jit_modtab {
  const tab_table *t;
  const char *channel;   /* for the emitted header; "gamma" for a gamma table */
  LLVMValueRef gm, gv;   /* baked: constant arrays */
  int slot;              /* run time: index in the tables argument */
  LLVMValueRef fn_locate, fn_L, fn_col;
} jit_modtab;

/* A table as one function sees it: its arrays (constants, or loaded from its slot) — or,
 * when the function has many look-ups, calls to the table's shared functions. */
typedef struct jit_tab {
  jit_modtab *mt;
  LLVMValueRef m, v;         /* pointers to the sizes and the row-major values */
  LLVMValueRef nrows, ncols; /* i64 */
  bool outline;              /* look-ups are calls */
  LLVMValueRef tables;       /* the function's tables argument (for the calls) */
} jit_tab;

/* Where a message size falls in a table (table.c's `locus`), plus its TAB_* flags. */
typedef struct jit_locus {
  LLVMValueRef lo, hi;      /* i64 rows */
  LLVMValueRef interp;      /* i1: hi != lo, interpolate with dm/span */
  LLVMValueRef dm, span, q; /* double */
  LLVMValueRef flags;       /* i8 */
  LLVMValueRef where;       /* outlined: all of it in memory, for the calls */
} jit_locus;

struct jit_gen;
/* The arrays of a table at the builder's position (loads from tables for a slot). */
jit_tab jit_tab_view(struct jit_gen *g, jit_modtab *mt, LLVMValueRef tables);
/* Each emits at the builder's position and may add blocks; the builder ends at the end
 * of the last block they used. */
jit_locus jit_tab_locate(struct jit_gen *g, const jit_tab *t, LLVMValueRef m);
/* The locus of m, or known (the locus of known_m) where m == known_m at run time: a branch
 * around the search. */
jit_locus jit_tab_locate_unless(struct jit_gen *g, const jit_tab *t, LLVMValueRef m,
                                LLVMValueRef known_m, const jit_locus *known);
LLVMValueRef jit_tab_column(struct jit_gen *g, const jit_tab *t, const jit_locus *p,
                            LLVMValueRef col);
/* tab_L; *flags gets TAB_BEYOND_TAU when the τ rule was applied. */
LLVMValueRef jit_tab_L(struct jit_gen *g, const jit_tab *t, const jit_locus *p,
                       LLVMValueRef tau, LLVMValueRef *flags);
/* The module-level arrays of a baked table (created once per module). */
void jit_tab_globals(struct jit_gen *g, const tab_table *t, LLVMValueRef *m, LLVMValueRef *v);
/* An alloca at the start of the function the builder is in; the builder stays. */
LLVMValueRef jit_entry_alloca(struct jit_gen *g, LLVMTypeRef ty, const char *name);

/* ======== jit_expr.c: cost IR → LLVM IR ======== */

/* One module being generated: its types, declarations and tables. */
typedef struct jit_gen {
  tlop_ctx *ctx;
  LLVMContextRef c;
  LLVMModuleRef mod;
  LLVMBuilderRef b;
  LLVMTypeRef f64, i1, i8, i64, ptr, point_ty;
  LLVMTypeRef locus_ty; /* {i64 lo, i64 hi, double dm, span, q, i8 interp, i8 flags} */
  const tlop_platform *pf;
  const tlop_env *env;
  size_t bake_max;          /* tables of at most this many values are constants; the
                             * others are slots of the tables argument */
  tlop_tau_rule tau_rule;
  double max_terms, max_steps, max_messages;
  jit_modtab **tabs;     /* each allocated once: functions keep pointers to them */
  size_t ntabs, tabs_cap;
  int nslots;
  LLVMValueRef fn_pow, fn_pow2, fn_log, fn_log_base, fn_realloc, fn_free, fn_rt_messages,
      fn_rt_ring;
  LLVMTypeRef ty_d_d, ty_d_dd;
  char why[200];            /* why the last expression was left to the interpreter */
  struct jit_body_fn *bodies; /* the functions made of calls' bodies (jit_expr.c) */
  size_t nbodies, bodies_cap;
  ptrmap call_nodes;        /* the nodes of the module's expressions whose calls are counted */
  bool may_quicken;         /* the module may go to the quick tier (few points) */
  bool quick;               /* it will (jit_gen_quick) */
} jit_gen;

/* libtlop's routine that messages stages call (eval.c): the JIT links it by address, an
 * emitted object needs libtlop. */
#define JIT_RT_MESSAGES "tlop_rt_messages"
#define JIT_RT_MESSAGES_REGULAR "tlop_rt_messages_regular"

/* The run-time table slot layout: { const double *m, *v; int64_t nrows, ncols; }. */
#define JIT_SLOT_FIELDS 4
typedef struct jit_slot {
  const double *m, *v;
  int64_t nrows, ncols;
} jit_slot;

/* bake_max: the most values (sizes and columns) of a table baked as constants; 0 bakes
 * none, SIZE_MAX all. A gamma table is always baked. */
void jit_gen_init(jit_gen *g, tlop_ctx *ctx, LLVMContextRef c, const char *module_name,
                  const tlop_platform *pf, const tlop_env *env, size_t bake_max);
/* Disposes of the builder and of the module unless it was handed over (g->mod NULL). */
void jit_gen_dispose(jit_gen *g);
/* Emits `double name(const double *x, const void *tables, uint8_t *xflags)`: the value of
 * the expression at the point x, where x[j] is variable names[j] (not finite when the
 * interpreter must look at the point), and its TAB_* extrapolation flags. NULL when the
 * expression needs the interpreter (an unbound name, a missing channel…): g->why says
 * why. The function is internal and always inlined into its callers (but in the quick
 * tier). */
LLVMValueRef jit_gen_point(jit_gen *g, const tlop_model *model, const ir_node *root,
                           const char *const *names, size_t nvars, const char *name);
/* Whether the module goes to the quick tier: g->may_quicken and more than
 * JIT_QUICK_INSTRUCTIONS instructions in it so far (then g->quick stays set). */
bool jit_gen_quick(jit_gen *g);
/* Readies a module of the quick tier: its point functions are no longer always
 * inlined (O0 would copy each into its kernel), and what FastISel cannot select — uitofp
 * of an i1, the floor, ceil and log2 intrinsics, each a fall-back to SelectionDAG for the
 * rest of its block — becomes what it can: a select, a call of libm's function (the same
 * values: LLVM's own code for these intrinsics calls libm or rounds exactly). */
void jit_gen_quicken(jit_gen *g);
/* Declares an LLVM intrinsic over double ("llvm.floor", 1 or 2 operands) and calls it. */
LLVMValueRef jit_call_intrinsic(jit_gen *g, const char *name, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef jit_const(jit_gen *g, double v);
LLVMValueRef jit_i64(jit_gen *g, long long v);

/* ======== jit_batch.c: kernels and their evaluation ======== */

/* void kernel(const double *pts, int64_t n, int64_t stride, double *out, uint8_t *xflags,
 *             const jit_slot *tables) */
typedef void (*jit_kernel_fn)(const double *, int64_t, int64_t, double *, uint8_t *,
                              const jit_slot *);

/* Runs kernel `which` over n points on the JIT's threads, without the interpreter
 * fallback: out[i] is not finite where the interpreter must look; xf[i] the point's flags.
 * TLOP_ERR_ARG when that expression was left to the interpreter. */
tlop_status jit_kernels_run(tlop_kernels *k, size_t which, const double *pts, size_t n,
                            double *out, uint8_t *xf);

#endif
