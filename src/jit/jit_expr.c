/* jit_expr.c — cost IR → LLVM IR, one emitter per IR operator, mirroring eval.c (the same
 * operations in the same order). Errors and extrapolation flags are values, kept by the
 * loop level that computes them, so a node has no side effect and is emitted where its
 * operands are: out of the sums it does not depend on. Sums and placements stay put. */
#include "jit_int.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Deepest cost IR compiled; deeper ones are interpreted (the emitter recurses). */
#define JIT_MAX_DEPTH 2000
/* Functions with more table look-ups than this call shared look-up functions instead of
 * inlining each one: each inlined look-up adds ≈ 3.5 ms of LLVM time (its locate loop
 * and τ columns), a call ≈ 20 instructions per evaluation. Measured by tests/bench. */
#define JIT_INLINE_LOOKUPS 4
/* Bounds under which a loop index, its offset and pow(2^k, i) are exact integers. */
#define EXACT_INT 1099511627776.0 /* 2^40 */

/* Functions whose error checks take more i1 `or`s than this count them instead, in an
 * i64 (a zext and an add a check): InstCombine simplifies every i1 `or` with
 * isImpliedCondition, which walks both operands' `or` trees (up to 6 deep) — 20-45 % of
 * the compile of the large algorithms, none with counts. Smaller functions keep the i1
 * `or`s, which InstCombine merges (`x uno 0 | y uno 0` into `x uno y`): fewer instructions
 * a point. Measured by tests/bench (README: compile time). */
#define JIT_COUNTED_ERRORS 64

/* Sums nested deeper than this are left to the interpreter. */
#define JIT_MAX_LOOPS 8

/* A compiled node. */
typedef struct jv {
  LLVMValueRef v; /* double */
  int level;      /* loop depth where v is available; 0: the function's entry */
  /* by the level they are computed at (NULL: none): "the interpreter must look at this
   * point" (i1, or a nonzero i64 count: see err_ty), i8 TAB_* extrapolation flags */
  LLVMValueRef err[JIT_MAX_LOOPS + 1], xf[JIT_MAX_LOOPS + 1];
} jv;

/* pow(B, i ± c) inside the sum over i, carried from one term to the next as p·B. */
typedef struct recurrence {
  LLVMValueRef phi, p0;
  double factor;
} recurrence;

/* Level 0 is the function body, level d the d-th nested sum being emitted. */
typedef struct level {
  LLVMBasicBlockRef cur; /* where the next code of this level goes */
  uint32_t region;       /* the innermost open region of this level (memo validity) */
  LLVMBasicBlockRef header;
  LLVMValueRef lo, count;
  recurrence *rec;
  size_t nrec, rec_cap;
} level;

typedef struct binding {
  sym name;
  jv val;
  int loop; /* the level of the sum whose index this is; 0: a channel's parameter */
} binding;

typedef struct par_entry {
  const pf_channel *ch; /* NULL: every channel */
  jv a;
} par_entry;

/* Compiled nodes by (node, context) and loci by (m, table), valid while their region is. */
typedef struct memo_entry {
  const void *a;
  uintptr_t b;
  uint32_t region;
  jv val;
  jit_locus locus;
} memo_entry;

#define PARAM_KEY UINTPTR_MAX

typedef struct jit_fn {
  jit_gen *g;
  const tlop_model *model;
  LLVMValueRef fn, x, tables;
  sym *vars;
  size_t nvars;
  level *lv;
  size_t lv_cap;
  int depth, pos;        /* innermost open level; level the builder is at */
  binding *bind;
  size_t nbind, bind_cap, bind_base;
  par_entry *par;
  size_t npar, par_cap, par_base;
  uint32_t ctx_id, bind_id, next_id; /* contexts of cost nodes and of scalar nodes */
  LLVMValueRef terms;    /* sum terms counted so far, at the innermost position */
  memo_entry *memo;
  size_t nmemo, memo_cap;
  uint32_t *slots;
  size_t nslots;
  bool *alive;
  size_t nregions, regions_cap;
  ptrmap sums;           /* node → 1: in place (see in_place), 2: not */
  ptrmap tabled;         /* node → 1: reads a table (see reads_table), 2: not */
  ptrmap busy;           /* parameter → being emitted */
  struct fn_tab {
    const tab_table *t;
    jit_tab tab;
    struct located {     /* the size this function located last in the table */
      LLVMValueRef m;
      int level;
      uint32_t region;   /* its level's region then: the locus is valid while it is */
      jit_locus p;
    } last;
  } *tabs;
  size_t ntabs, tabs_cap;
  /* the schedule or messages stage whose placements are being emitted, or NULL */
  struct placing {
    LLVMValueRef data, cap;      /* allocas: a schedule's steps' τ (malloc'd, zeroed) or a
                                    stage's messages (msg records), and the capacity */
    LLVMValueRef used;           /* messages: alloca, the records written */
    LLVMValueRef mult;           /* how many times the loops around place each `at` or `send` */
    const ir_node *stage;        /* the messages stage (its mapping); NULL: a schedule */
  } *place;
  struct pricing {
    LLVMValueRef price[2][2];    /* [by L][net]: T (or L) of shm and net for */
    bool priced[2];              /* tlop_rt_messages, once made */
  } chan;
  bool outline;          /* table look-ups are calls (see JIT_INLINE_LOOKUPS) */
  const ir_node *self;   /* the body of a call this function is made of (emit_body_call) */
  LLVMTypeRef err_ty;    /* i1, or i64 where errors are counted (see JIT_COUNTED_ERRORS) */
  size_t ors;            /* i1 `or`s emitted */
  bool failed;
} jit_fn;

static jv emit(jit_fn *f, const ir_node *n);
static bool emit_body_call(jit_fn *f, const ir_node *n, jv *out);
static void fn_open(jit_fn *f, const char *name, LLVMTypeRef ty);
static LLVMValueRef fn_close(jit_fn *f, const ir_node *root, LLVMValueRef terms_out);

static void fail(jit_fn *f, const char *fmt, ...) TLOP_PRINTF(2, 3);
static void fail(jit_fn *f, const char *fmt, ...) {
  if (f->failed)
    return;
  f->failed = true;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(f->g->why, sizeof f->g->why, fmt, ap);
  va_end(ap);
}

static int maxl(int a, int b) { return a > b ? a : b; }

/* ======== module-level helpers ======== */

LLVMValueRef jit_const(jit_gen *g, double v) { return LLVMConstReal(g->f64, v); }
LLVMValueRef jit_i64(jit_gen *g, long long v) { return LLVMConstInt(g->i64, (unsigned long long)v, 1); }

LLVMValueRef jit_call_intrinsic(jit_gen *g, const char *name, LLVMValueRef a, LLVMValueRef b) {
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  LLVMValueRef fn = LLVMGetIntrinsicDeclaration(g->mod, id, &g->f64, 1);
  LLVMTypeRef ty = LLVMIntrinsicGetType(g->c, id, &g->f64, 1);
  LLVMValueRef args[2] = {a, b};
  return LLVMBuildCall2(g->b, ty, fn, args, b ? 2 : 1, "");
}

static void add_fn_attr(jit_gen *g, LLVMValueRef fn, const char *name, uint64_t val) {
  unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(g->c, kind, val));
}

/* A libm function called as a plain function: `nobuiltin` keeps LLVM from rewriting
 * pow(2, x) as exp2(x) and the like, which need not give the interpreter's bits. */
static LLVMValueRef libm_decl(jit_gen *g, const char *name, LLVMTypeRef ty) {
  LLVMValueRef fn = LLVMGetNamedFunction(g->mod, name);
  if (fn)
    return fn;
  fn = LLVMAddFunction(g->mod, name, ty);
  add_fn_attr(g, fn, "memory", 0); /* reads and writes no memory (errno is never read) */
  add_fn_attr(g, fn, "nounwind", 0);
  add_fn_attr(g, fn, "willreturn", 0);
  return fn;
}

static LLVMValueRef call_libm(jit_gen *g, LLVMValueRef fn, LLVMTypeRef ty, LLVMValueRef a,
                              LLVMValueRef b) {
  LLVMValueRef args[2] = {a, b};
  LLVMValueRef call = LLVMBuildCall2(g->b, ty, fn, args, b ? 2 : 1, "");
  unsigned kind = LLVMGetEnumAttributeKindForName("nobuiltin", 9);
  LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(g->c, kind, 0));
  return call;
}

/* The constant a double LLVM value is, if it is one. */
static bool const_double(LLVMValueRef v, double *out) {
  LLVMBool lost;
  if (!LLVMIsAConstantFP(v))
    return false;
  *out = LLVMConstRealGetDouble(v, &lost);
  return true;
}

static LLVMValueRef pow2_fn(jit_gen *g);

/* pow, folded here with the interpreter's libm when both operands are constants; 2^y
 * through pow2_fn. */
static LLVMValueRef call_pow(jit_gen *g, LLVMValueRef a, LLVMValueRef b) {
  double x, y;
  bool base_known = const_double(a, &x);
  if (base_known && const_double(b, &y))
    return jit_const(g, ir_apply(IR_POW, x, y));
  if (base_known && x == 2)
    return LLVMBuildCall2(g->b, g->ty_d_d, pow2_fn(g), &b, 1, "");
  if (!g->fn_pow)
    g->fn_pow = libm_decl(g, "pow", g->ty_d_dd);
  return call_libm(g, g->fn_pow, g->ty_d_dd, a, b);
}

/* 2^y: for a whole y of a normal result, 2^y exactly from its exponent bits — what glibc's
 * pow returns there (unit.jit checks every such y) — else libm's pow(2, y). The
 * stages of a binomial tree raise 2 to h − 1 − i, which no recurrence carries, and pow
 * costs ≈ 150 instructions a call (issue 22). One internal function per module. */
static LLVMValueRef pow2_fn(jit_gen *g) {
  if (g->fn_pow2)
    return g->fn_pow2;
  if (!g->fn_pow)
    g->fn_pow = libm_decl(g, "pow", g->ty_d_dd);
  LLVMBasicBlockRef saved = LLVMGetInsertBlock(g->b);
  LLVMValueRef fn = LLVMAddFunction(g->mod, "tlop.pow2", g->ty_d_d);
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  LLVMBuilderRef b = g->b;
  LLVMValueRef y = LLVMGetParam(fn, 0);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(g->c, fn, "entry"),
                    whole = LLVMAppendBasicBlockInContext(g->c, fn, "whole"),
                    other = LLVMAppendBasicBlockInContext(g->c, fn, "other");
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMValueRef is_whole = LLVMBuildFCmp(b, LLVMRealOEQ, y, jit_call_intrinsic(g, "llvm.floor", y, NULL), "");
  LLVMValueRef normal = LLVMBuildAnd(b, LLVMBuildFCmp(b, LLVMRealOGE, y, jit_const(g, -1022), ""),
                                     LLVMBuildFCmp(b, LLVMRealOLE, y, jit_const(g, 1023), ""), "");
  LLVMBuildCondBr(b, LLVMBuildAnd(b, is_whole, normal, ""), whole, other);
  LLVMPositionBuilderAtEnd(b, whole);
  LLVMValueRef biased = LLVMBuildAdd(b, LLVMBuildFPToSI(b, y, g->i64, ""), jit_i64(g, 1023), "");
  LLVMBuildRet(b, LLVMBuildBitCast(b, LLVMBuildShl(b, biased, jit_i64(g, 52), ""), g->f64, ""));
  LLVMPositionBuilderAtEnd(b, other);
  LLVMBuildRet(b, call_libm(g, g->fn_pow, g->ty_d_dd, jit_const(g, 2), y));
  if (saved)
    LLVMPositionBuilderAtEnd(b, saved);
  g->fn_pow2 = fn;
  return fn;
}

/* ir.c's log_base(b, x): log2 for base 2, else log(x)/log(b) snapped to the integer k
 * when b^k == x; one internal function per module. */
static LLVMValueRef log_base_fn(jit_gen *g) {
  if (g->fn_log_base)
    return g->fn_log_base;
  if (!g->fn_log)
    g->fn_log = libm_decl(g, "log", g->ty_d_d);
  LLVMBasicBlockRef saved = LLVMGetInsertBlock(g->b);
  LLVMValueRef fn = LLVMAddFunction(g->mod, "tlop.log_base", g->ty_d_dd);
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  add_fn_attr(g, fn, "noinline", 0); /* two libm calls: inlining buys nothing, costs time */
  LLVMBuilderRef b = g->b;
  LLVMValueRef base = LLVMGetParam(fn, 0), x = LLVMGetParam(fn, 1);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(g->c, fn, "entry"),
                    two = LLVMAppendBasicBlockInContext(g->c, fn, "two"),
                    other = LLVMAppendBasicBlockInContext(g->c, fn, "other"),
                    near = LLVMAppendBasicBlockInContext(g->c, fn, "near");
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMBuildCondBr(b, LLVMBuildFCmp(b, LLVMRealOEQ, base, jit_const(g, 2), ""), two, other);
  LLVMPositionBuilderAtEnd(b, two);
  LLVMBuildRet(b, jit_call_intrinsic(g, "llvm.log2", x, NULL));
  LLVMPositionBuilderAtEnd(b, other);
  LLVMValueRef r = LLVMBuildFDiv(b, call_libm(g, g->fn_log, g->ty_d_d, x, NULL),
                                 call_libm(g, g->fn_log, g->ty_d_d, base, NULL), "");
  LLVMValueRef k = jit_call_intrinsic(g, "llvm.round", r, NULL);
  LLVMValueRef d = jit_call_intrinsic(g, "llvm.fabs", LLVMBuildFSub(b, r, k, ""), NULL);
  LLVMValueRef close = LLVMBuildFCmp(b, LLVMRealOLT, d, jit_const(g, 1e-9), "");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->c, fn, "far");
  LLVMBuildCondBr(b, close, near, done);
  LLVMPositionBuilderAtEnd(b, done);
  LLVMBuildRet(b, r);
  LLVMPositionBuilderAtEnd(b, near);
  LLVMValueRef exact = LLVMBuildFCmp(b, LLVMRealOEQ, call_pow(g, base, k), x, "");
  LLVMBuildRet(b, LLVMBuildSelect(b, exact, k, r, ""));
  if (saved)
    LLVMPositionBuilderAtEnd(b, saved);
  g->fn_log_base = fn;
  return fn;
}

void jit_gen_init(jit_gen *g, tlop_ctx *ctx, LLVMContextRef c, const char *module_name,
                  const tlop_platform *pf, const tlop_env *env, size_t bake_max) {
  memset(g, 0, sizeof *g);
  g->ctx = ctx;
  g->c = c;
  g->mod = LLVMModuleCreateWithNameInContext(module_name, c);
  g->b = LLVMCreateBuilderInContext(c);
  g->f64 = LLVMDoubleTypeInContext(c);
  g->i1 = LLVMInt1TypeInContext(c);
  g->i8 = LLVMInt8TypeInContext(c);
  g->i64 = LLVMInt64TypeInContext(c);
  g->ptr = LLVMPointerTypeInContext(c, 0);
  LLVMTypeRef p3[3] = {g->ptr, g->ptr, g->ptr}, d2[2] = {g->f64, g->f64};
  g->point_ty = LLVMFunctionType(g->f64, p3, 3, 0);
  g->ty_d_d = LLVMFunctionType(g->f64, d2, 1, 0);
  g->ty_d_dd = LLVMFunctionType(g->f64, d2, 2, 0);
  LLVMTypeRef locus[7] = {g->i64, g->i64, g->f64, g->f64, g->f64, g->i8, g->i8};
  g->locus_ty = LLVMStructTypeInContext(c, locus, 7, 0);
  g->pf = pf;
  g->env = env;
  g->bake_max = bake_max;
  g->tau_rule = ctx->tau_rule;
  g->max_terms = ctx->max_terms;
  g->max_steps = ctx->max_steps;
  g->max_messages = ctx->max_messages;
}

void jit_gen_dispose(jit_gen *g) {
  LLVMDisposeBuilder(g->b);
  if (g->mod)
    LLVMDisposeModule(g->mod);
  for (size_t i = 0; i < g->ntabs; i++)
    free(g->tabs[i]);
  free(g->tabs);
  free(g->bodies);
  ptrmap_free(&g->call_nodes);
  memset(g, 0, sizeof *g);
}

static size_t table_values(const tab_table *t) {
  return (size_t)t->nrows * (1 + (size_t)t->ncols);
}

/* A table's arrays in this module: constants when baked (always for gamma, whose operator
 * column is chosen at compile time), else the next run-time slot. */
static jit_modtab *module_table(jit_gen *g, const tab_table *t, const char *channel) {
  for (size_t i = 0; i < g->ntabs; i++)
    if (g->tabs[i]->t == t)
      return g->tabs[i];
  jit_modtab *mt = xcalloc(1, sizeof *mt);
  *mt = (jit_modtab){.t = t, .channel = channel, .slot = -1};
  if (table_values(t) <= g->bake_max || t->kind == TAB_GAMMA)
    jit_tab_globals(g, t, &mt->gm, &mt->gv);
  else
    mt->slot = g->nslots++;
  VEC_PUSH(g->tabs, g->ntabs, g->tabs_cap, mt);
  return mt;
}

/* ======== where code goes ======== */

/* Records where the code of the builder's level ended, then moves to the end of `level`. */
static void at(jit_fn *f, int level) {
  f->lv[f->pos].cur = LLVMGetInsertBlock(f->g->b);
  LLVMPositionBuilderAtEnd(f->g->b, f->lv[level].cur);
  f->pos = level;
}

static uint32_t region_open(jit_fn *f) {
  bool yes = true;
  VEC_PUSH(f->alive, f->nregions, f->regions_cap, yes);
  return (uint32_t)(f->nregions - 1);
}

static LLVMBasicBlockRef block(jit_fn *f, const char *name) {
  return LLVMAppendBasicBlockInContext(f->g->c, f->fn, name);
}

/* ======== the memo ======== */

static uint64_t memo_hash(const void *a, uintptr_t b) {
  uint64_t h = (uint64_t)(uintptr_t)a * 0x9E3779B97F4A7C15ull;
  h ^= ((uint64_t)b + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
  return h ^ (h >> 31);
}

static void memo_rehash(jit_fn *f) {
  size_t n = f->nslots ? f->nslots * 2 : 256;
  uint32_t *s = xcalloc(n, sizeof *s);
  for (size_t i = 0; i < f->nmemo; i++) {
    size_t j = memo_hash(f->memo[i].a, f->memo[i].b) & (n - 1);
    while (s[j])
      j = (j + 1) & (n - 1);
    s[j] = (uint32_t)(i + 1);
  }
  free(f->slots);
  f->slots = s;
  f->nslots = n;
}

/* The entry of (a, b), added when `add`; NULL when absent. */
static memo_entry *memo_slot(jit_fn *f, const void *a, uintptr_t b, bool add) {
  if (add && (f->nmemo + 1) * 2 > f->nslots)
    memo_rehash(f);
  if (!f->nslots)
    return NULL;
  for (size_t i = memo_hash(a, b) & (f->nslots - 1);; i = (i + 1) & (f->nslots - 1)) {
    if (!f->slots[i]) {
      if (!add)
        return NULL;
      memo_entry e = {.a = a, .b = b};
      VEC_PUSH(f->memo, f->nmemo, f->memo_cap, e);
      f->slots[i] = (uint32_t)f->nmemo;
      return &f->memo[f->nmemo - 1];
    }
    memo_entry *e = &f->memo[f->slots[i] - 1];
    if (e->a == a && e->b == b)
      return e;
  }
}

static memo_entry *memo_get(jit_fn *f, const void *a, uintptr_t b) {
  memo_entry *e = memo_slot(f, a, b, false);
  return e && f->alive[e->region] ? e : NULL;
}

/* An entry for a value that lives at `level`: valid as long as that level's region. */
static memo_entry *memo_put(jit_fn *f, const void *a, uintptr_t b, int level) {
  memo_entry *e = memo_slot(f, a, b, true);
  e->region = f->lv[level].region;
  return e;
}

/* ======== values ======== */

static jv val(LLVMValueRef v, int level) { return (jv){.v = v, .level = level}; }
static jv konst(jit_fn *f, double v) { return val(jit_const(f->g, v), 0); }

/* a | b, where NULL or a constant 0 is "nothing"; a + b for counted errors (i64). */
static LLVMValueRef or_(jit_fn *f, LLVMValueRef a, LLVMValueRef b) {
  if (!a || (LLVMIsAConstantInt(a) && !LLVMConstIntGetZExtValue(a)))
    return b;
  if (!b || (LLVMIsAConstantInt(b) && !LLVMConstIntGetZExtValue(b)))
    return a;
  if (LLVMTypeOf(a) == f->g->i64)
    return LLVMBuildAdd(f->g->b, a, b, "");
  f->ors += LLVMTypeOf(a) == f->g->i1;
  return LLVMBuildOr(f->g->b, a, b, "");
}

/* ======== errors: i1 checks or'ed, or counted ======== */

static LLVMValueRef no_err(jit_fn *f) { return LLVMConstInt(f->err_ty, 0, 0); }

/* A failed check (i1) as an error of the function's kind, at the builder's position. */
static LLVMValueRef err_of(jit_fn *f, LLVMValueRef check) {
  return f->err_ty == f->g->i1 ? check : LLVMBuildZExt(f->g->b, check, f->err_ty, "");
}

/* The error e only where cond holds. */
static LLVMValueRef err_if(jit_fn *f, LLVMValueRef cond, LLVMValueRef e) {
  return f->err_ty == f->g->i1 ? LLVMBuildAnd(f->g->b, cond, e, "")
                               : LLVMBuildSelect(f->g->b, cond, e, no_err(f), "");
}

/* Whether the error e is set (i1). */
static LLVMValueRef err_set(jit_fn *f, LLVMValueRef e) {
  return f->err_ty == f->g->i1 ? e : LLVMBuildICmp(f->g->b, LLVMIntNE, e, no_err(f), "");
}

static LLVMValueRef cmp(jit_fn *f, LLVMRealPredicate p, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildFCmp(f->g->b, p, a, b, "");
}

static LLVMValueRef cmpk(jit_fn *f, LLVMRealPredicate p, LLVMValueRef a, double k) {
  return cmp(f, p, a, jit_const(f->g, k));
}

/* Whether v is finite by its making: a finite constant, an integer converted, a choice
 * of such values (a comparison's 0 or 1). */
static bool finite_by_making(LLVMValueRef v, int depth) {
  LLVMBool lost;
  if (LLVMIsAConstantFP(v))
    return isfinite(LLVMConstRealGetDouble(v, &lost));
  if (LLVMIsAUIToFPInst(v) || LLVMIsASIToFPInst(v))
    return true;
  return depth > 0 && LLVMIsASelectInst(v) && finite_by_making(LLVMGetOperand(v, 1), depth - 1) &&
         finite_by_making(LLVMGetOperand(v, 2), depth - 1);
}

/* NaN or ±infinity: what the interpreter never lets through an operation. As x − x is
 * NaN (unordered) exactly then: two instructions, where LLVM would turn the obvious
 * |x| == inf into a floating-point class test that x86 does with integer bit twiddling.
 * None for a value finite by its making: the conditions of `if`, `and`, `or` are mostly
 * comparisons' 0 or 1 (≈ 10 % of the checks of the large algorithms). */
static LLVMValueRef nonfinite(jit_fn *f, LLVMValueRef v) {
  if (finite_by_making(v, 4))
    return LLVMConstInt(f->g->i1, 0, 0);
  return cmpk(f, LLVMRealUNO, LLVMBuildFSub(f->g->b, v, v, ""), 0);
}

/* Not within [lo, DBL_MAX] (NaN included): two ordinary compares. */
static LLVMValueRef outside(jit_fn *f, LLVMValueRef v, LLVMRealPredicate below, double lo) {
  return or_(f, cmpk(f, below, v, lo), cmpk(f, LLVMRealUGT, v, DBL_MAX));
}

/* slots[level] |= v, v an error or i8 flags available at `level`; the builder stays where
 * it is. */
static void put(jit_fn *f, LLVMValueRef *slots, LLVMValueRef v, int level) {
  if (!slots[level]) {
    slots[level] = or_(f, NULL, v);
    return;
  }
  int pos = f->pos;
  at(f, level);
  slots[level] = or_(f, slots[level], v);
  at(f, pos);
}

/* Adds a failed check (i1) or flags computed at the builder's level. */
static void add_err(jit_fn *f, jv *r, LLVMValueRef check) { put(f, r->err, err_of(f, check), f->pos); }
static void add_xf(jit_fn *f, jv *r, LLVMValueRef x) { put(f, r->xf, x, f->pos); }

/* Adds the errors and flags of operand k to r. */
static void absorb(jit_fn *f, jv *r, jv k) {
  for (int l = 0; l <= JIT_MAX_LOOPS; l++) {
    put(f, r->err, k.err[l], l);
    put(f, r->xf, k.xf[l], l);
  }
}

static bool has_errs(const jv *r) {
  for (int l = 0; l <= JIT_MAX_LOOPS; l++)
    if (r->err[l] || r->xf[l])
      return true;
  return false;
}

/* r's errors and flags of the levels below `below`, counted only where cond (at
 * cond_level) holds: what the interpreter evaluates only then. */
static void mask(jit_fn *f, jv *r, LLVMValueRef cond, int cond_level, int below) {
  LLVMBuilderRef b = f->g->b;
  jv m = *r;
  int pos = f->pos;
  for (int l = 0; l < below && l <= JIT_MAX_LOOPS; l++)
    m.err[l] = m.xf[l] = NULL;
  for (int l = 0; l < below && l <= JIT_MAX_LOOPS; l++) {
    if (!r->err[l] && !r->xf[l])
      continue;
    at(f, maxl(l, cond_level));
    if (r->err[l])
      put(f, m.err, err_if(f, cond, r->err[l]), f->pos);
    if (r->xf[l])
      add_xf(f, &m, LLVMBuildSelect(b, cond, r->xf[l], LLVMConstInt(f->g->i8, 0, 0), ""));
  }
  at(f, pos);
  *r = m;
}

static LLVMValueRef as_double(jit_fn *f, LLVMValueRef i1) {
  return LLVMBuildUIToFP(f->g->b, i1, f->g->f64, "");
}

/* eval.c's check_size and check_tau, negated. */
static LLVMValueRef bad_size(jit_fn *f, LLVMValueRef m) { return outside(f, m, LLVMRealULT, 0); }
static LLVMValueRef bad_tau(jit_fn *f, LLVMValueRef tau) { return outside(f, tau, LLVMRealULT, 1); }

/* Adds operand k's errors and flags to r, and the error `bad` finds in its value. */
static void absorb_checked(jit_fn *f, jv *r, jv k, LLVMValueRef (*bad)(jit_fn *, LLVMValueRef)) {
  absorb(f, r, k);
  at(f, k.level);
  add_err(f, r, bad(f, k.v));
}

/* eval.c's check_cost on the cost r holds: a negative or infinite one is the interpreter's
 * to report. */
static jv cost_checked(jit_fn *f, jv r) {
  at(f, r.level);
  add_err(f, &r, outside(f, r.v, LLVMRealULT, 0));
  return r;
}

/* ======== which nodes stay in place, which read tables ======== */

typedef bool (*node_test)(const jit_fn *f, const ir_node *n);

/* Whether test holds for n, a node under it or the body of a channel or γ it names;
 * remembered in known (node → 1: yes, 2: no). */
static bool anywhere(jit_fn *f, const ir_node *n, ptrmap *known, node_test test) {
  void *seen = ptrmap_get(known, n);
  if (seen)
    return seen == (void *)1;
  bool r = test(f, n);
  for (int i = 0; i < n->nkids && !r; i++)
    r = anywhere(f, n->kid[i], known, test);
  const tlop_platform *pf = f->g->pf;
  if (!r && pf && (n->op == IR_L || n->op == IR_TX || n->op == IR_O || n->op == IR_PACK)) {
    const pf_channel *ch = pf_channel_find(pf, n->name);
    r = ch && ((ch->L && anywhere(f, ch->L, known, test)) ||
               (ch->o && anywhere(f, ch->o, known, test)) ||
               (ch->p && anywhere(f, ch->p, known, test)) ||
               (n->op == IR_TX && ch->T && anywhere(f, ch->T, known, test)));
  }
  if (!r && pf && n->op == IR_GAMMA && pf->gamma_expr)
    r = anywhere(f, pf->gamma_expr, known, test);
  ptrmap_put(known, n, (void *)(uintptr_t)(r ? 1 : 2));
  return r;
}

static bool places(const jit_fn *f, const ir_node *n) {
  (void)f;
  return ir_is_range(n->op) || n->op == IR_AT || n->op == IR_SCHED || n->op == IR_MSGS ||
         n->op == IR_SEND;
}

/* Sums (they count terms) and the placements of schedules (they write the schedule's
 * steps) happen in evaluation order: a node that contains one is emitted where it is
 * evaluated, not hoisted, not shared, and guarded by a branch. */
static bool in_place(jit_fn *f, const ir_node *n) { return anywhere(f, n, &f->sums, places); }

static bool table_lookup(const jit_fn *f, const ir_node *n) {
  const tlop_platform *pf = f->g->pf;
  if (!pf)
    return false;
  if (n->op == IR_L || n->op == IR_TX || n->op == IR_O) {
    const pf_channel *ch = pf_channel_find(pf, n->name);
    return ch && ch->table;
  }
  return n->op == IR_GAMMA && pf->gamma;
}

/* A node that looks a table up: where the interpreter evaluates it only on a condition, a
 * branch costs less than computing it anyway (a search and its interpolations). */
static bool reads_table(jit_fn *f, const ir_node *n) {
  return anywhere(f, n, &f->tabled, table_lookup);
}

/* ======== variables and parameters ======== */

static bool is_point_var(const jit_fn *f, sym name) {
  for (size_t j = 0; j < f->nvars; j++)
    if (f->vars[j] == name)
      return true;
  return false;
}

static bool env_value(const jit_fn *f, sym name, double *v) {
  const tlop_env *env = f->g->env;
  for (size_t i = 0; env && i < env->n; i++)
    if (env->names[i] == name) {
      *v = env->values[i];
      return true;
    }
  return false;
}

/* The lowered default of a model parameter the point does not bind, or NULL. */
static ir_node *param_default(jit_fn *f, sym name) {
  double v;
  if (is_point_var(f, name) || env_value(f, name, &v) || !f->model)
    return NULL;
  const param_info *param = lower_param((tlop_model *)f->model, name);
  return param ? param->dflt : NULL;
}

/* A parameter's default, evaluated as the interpreter does: once per point, outside any
 * ∥ and any channel's parameters. */
static jv emit_param(jit_fn *f, sym name) {
  memo_entry *e = memo_get(f, name, PARAM_KEY);
  if (e)
    return e->val;
  ir_node *ir = param_default(f, name);
  if (!ir) {
    fail(f, "'%s' has no value", name->name);
    return konst(f, 0);
  }
  if (ptrmap_get(&f->busy, name)) {
    fail(f, "the default of '%s' depends on itself", name->name);
    return konst(f, 0);
  }
  size_t bind_base = f->bind_base, par_base = f->par_base;
  uint32_t ctx_id = f->ctx_id, bind_id = f->bind_id;
  f->bind_base = f->nbind;
  f->par_base = f->npar;
  f->ctx_id = f->bind_id = 0;
  ptrmap_put(&f->busy, name, (void *)name);
  jv r = emit(f, ir);
  ptrmap_put(&f->busy, name, NULL);
  f->bind_base = bind_base;
  f->par_base = par_base;
  f->ctx_id = ctx_id;
  f->bind_id = bind_id;
  memo_put(f, name, PARAM_KEY, r.level)->val = r;
  return r;
}

/* Defaults in place (with sums) are emitted first, at the entry, so their terms are
 * counted once per point as the interpreter (which caches defaults) counts them. */
static void params_first(jit_fn *f, const ir_node *n, ptrmap *seen) {
  if (ptrmap_get(seen, n))
    return;
  ptrmap_put(seen, n, (void *)n);
  if (n->op == IR_VAR) {
    ir_node *ir = param_default(f, n->name);
    if (ir) {
      params_first(f, ir, seen);
      if (in_place(f, ir))
        emit_param(f, n->name);
    }
    return;
  }
  for (int i = 0; i < n->nkids; i++)
    params_first(f, n->kid[i], seen);
  const tlop_platform *pf = f->g->pf;
  if (pf && (n->op == IR_L || n->op == IR_TX || n->op == IR_O || n->op == IR_PACK)) {
    const pf_channel *ch = pf_channel_find(pf, n->name);
    const ir_node *bodies[4] = {ch ? ch->L : NULL, ch ? ch->o : NULL, ch ? ch->p : NULL,
                                ch && n->op == IR_TX ? ch->T : NULL};
    for (int i = 0; i < 4; i++)
      if (bodies[i])
        params_first(f, bodies[i], seen);
  }
  if (pf && n->op == IR_GAMMA && pf->gamma_expr)
    params_first(f, pf->gamma_expr, seen);
}

static binding *find_binding(jit_fn *f, sym name) {
  for (size_t i = f->nbind; i-- > f->bind_base;)
    if (f->bind[i].name == name)
      return &f->bind[i];
  return NULL;
}

/* eval.c's lookup: sum indices and channel parameters, the point, env, defaults. */
static jv emit_var(jit_fn *f, const ir_node *n) {
  binding *bd = find_binding(f, n->name);
  if (bd)
    return bd->val;
  for (size_t j = 0; j < f->nvars; j++)
    if (f->vars[j] == n->name) {
      at(f, 0);
      LLVMValueRef idx = jit_i64(f->g, (long long)j);
      LLVMValueRef p = LLVMBuildInBoundsGEP2(f->g->b, f->g->f64, f->x, &idx, 1, "");
      return val(LLVMBuildLoad2(f->g->b, f->g->f64, p, n->name->name), 0);
    }
  double v;
  if (env_value(f, n->name, &v))
    return konst(f, v);
  return emit_param(f, n->name);
}

static void push_binding(jit_fn *f, sym name, jv val, int loop) {
  binding b = {name, val, loop};
  VEC_PUSH(f->bind, f->nbind, f->bind_cap, b);
}

/* ======== guarded evaluation: what the interpreter only evaluates when cond holds ======== */

/* A cheap node is computed anyway (it is pure) and its errors and flags masked; one in
 * place gets a branch, so that its loops run and its placements happen only when they
 * should, and so does one that reads a table, so that its look-ups are made only then. */
static jv guarded(jit_fn *f, LLVMValueRef cond, int cond_level, const ir_node *n) {
  LLVMBuilderRef b = f->g->b;
  if (!in_place(f, n) && !reads_table(f, n)) {
    jv r = emit(f, n);
    mask(f, &r, cond, cond_level, JIT_MAX_LOOPS + 1);
    r.level = maxl(r.level, cond_level);
    return r;
  }
  int d = f->depth;
  at(f, d);
  LLVMBasicBlockRef from = LLVMGetInsertBlock(b), then = block(f, "then"), join = block(f, "join");
  LLVMBuildCondBr(b, cond, then, join);
  LLVMPositionBuilderAtEnd(b, then);
  uint32_t outer = f->lv[d].region;
  f->lv[d].region = region_open(f);
  LLVMValueRef terms = f->terms;
  jv r = emit(f, n);
  at(f, d);
  LLVMBasicBlockRef then_end = LLVMGetInsertBlock(b);
  LLVMBuildBr(b, join);
  f->alive[f->lv[d].region] = false;
  f->lv[d].region = outer;
  LLVMPositionBuilderAtEnd(b, join);
  /* what the arm computed at this level joins through phis; the rest is masked */
  LLVMBasicBlockRef bbs[2] = {then_end, from};
  LLVMValueRef in[2][2] = {{r.err[d], no_err(f)},
                           {r.xf[d], LLVMConstInt(f->g->i8, 0, 0)}};
  LLVMValueRef vs[2] = {r.v, jit_const(f->g, 0)}, ts[2] = {f->terms, terms};
  jv out = r;
  out.level = d;
  out.v = LLVMBuildPhi(b, f->g->f64, "");
  LLVMAddIncoming(out.v, vs, bbs, 2);
  if (r.err[d])
    LLVMAddIncoming(out.err[d] = LLVMBuildPhi(b, f->err_ty, ""), in[0], bbs, 2);
  if (r.xf[d])
    LLVMAddIncoming(out.xf[d] = LLVMBuildPhi(b, f->g->i8, ""), in[1], bbs, 2);
  f->terms = LLVMBuildPhi(b, f->g->f64, "terms");
  LLVMAddIncoming(f->terms, ts, bbs, 2);
  mask(f, &out, cond, cond_level, d);
  return out;
}

/* ======== scalar operators (ir_apply) ======== */

static jv emit_scalar(jit_fn *f, const ir_node *n) {
  jit_gen *g = f->g;
  LLVMBuilderRef b = g->b;
  jv ka = emit(f, n->kid[0]), kb = n->nkids > 1 ? emit(f, n->kid[1]) : konst(f, 0);
  jv r = val(NULL, maxl(ka.level, kb.level));
  absorb(f, &r, ka);
  absorb(f, &r, kb);
  at(f, r.level);
  LLVMValueRef a = ka.v, c = kb.v;
  /* Operators that can turn a NaN or infinite operand into a finite result check their
   * operands: the interpreter would have stopped where the operand was computed. The
   * others pass non-finite values on, to the check of the final result. */
  bool check_a = false, check_b = false;
  switch (n->op) {
  case IR_ADD: r.v = LLVMBuildFAdd(b, a, c, ""); break;
  case IR_SUB: r.v = LLVMBuildFSub(b, a, c, ""); break;
  case IR_MUL: r.v = LLVMBuildFMul(b, a, c, ""); break;
  case IR_NEG: r.v = LLVMBuildFNeg(b, a, ""); break;
  case IR_DIV: r.v = LLVMBuildFDiv(b, a, c, ""), check_b = true; break;
  case IR_MOD: r.v = LLVMBuildFRem(b, a, c, ""), check_b = true; break;
  case IR_POW: r.v = call_pow(g, a, c), check_a = check_b = true; break;
  case IR_MIN:
    r.v = LLVMBuildSelect(b, cmp(f, LLVMRealOLT, a, c), a, c, ""), check_a = check_b = true;
    break;
  case IR_MAX:
    r.v = LLVMBuildSelect(b, cmp(f, LLVMRealOGT, a, c), a, c, ""), check_a = check_b = true;
    break;
  case IR_LOG2: r.v = jit_call_intrinsic(g, "llvm.log2", a, NULL); break;
  case IR_LOG: {
    double base;
    r.v = const_double(a, &base) && base == 2
              ? jit_call_intrinsic(g, "llvm.log2", c, NULL) /* log_base's first case */
              : LLVMBuildCall2(b, g->ty_d_dd, log_base_fn(g), (LLVMValueRef[]){a, c}, 2, "");
    add_err(f, &r, or_(f, or_(f, cmpk(f, LLVMRealOLE, c, 0), cmpk(f, LLVMRealOLE, a, 0)),
                       cmpk(f, LLVMRealOEQ, a, 1)));
    check_a = check_b = true;
    break;
  }
  case IR_CEIL: r.v = jit_call_intrinsic(g, "llvm.ceil", a, NULL); break;
  case IR_FLOOR: r.v = jit_call_intrinsic(g, "llvm.floor", a, NULL); break;
  case IR_ABS: r.v = jit_call_intrinsic(g, "llvm.fabs", a, NULL); break;
  case IR_SQRT: r.v = jit_call_intrinsic(g, "llvm.sqrt", a, NULL); break;
  case IR_NOT: r.v = as_double(f, cmpk(f, LLVMRealOEQ, a, 0)), check_a = true; break;
  default: {
    static const LLVMRealPredicate rel[] = {LLVMRealOLT, LLVMRealOLE, LLVMRealOGT,
                                            LLVMRealOGE, LLVMRealOEQ, LLVMRealUNE};
    if (n->op < IR_LT || n->op > IR_NE) {
      fail(f, "operator '%s' has no code", ir_op_name((ir_op)n->op));
      return konst(f, 0);
    }
    r.v = as_double(f, cmp(f, rel[n->op - IR_LT], a, c));
    check_a = check_b = true;
  }
  }
  /* each operand checked where it is computed */
  if (check_a) {
    at(f, ka.level);
    add_err(f, &r, nonfinite(f, a));
  }
  if (check_b) {
    at(f, kb.level);
    add_err(f, &r, nonfinite(f, c));
  }
  return r;
}

/* pow(B, i), pow(B, i + c), pow(B, c + i), pow(B, i - c) in the sum over i, for B a
 * power of two above 1 and c invariant: pow once before the loop, then p·B per term —
 * the same bits as pow every time as long as i and c are exact integers (checked, else
 * the point goes to the interpreter), and a loop without a libm call. */
static bool emit_recurrence(jit_fn *f, const ir_node *n, jv *out) {
  const ir_node *base = n->kid[0], *e = n->kid[1], *idx = NULL, *c = NULL;
  int ex;
  if (base->op != IR_NUM || !(base->num > 1) || !isfinite(base->num) ||
      frexp(base->num, &ex) != 0.5)
    return false;
  if (e->op == IR_VAR) {
    idx = e;
  } else if ((e->op == IR_ADD || e->op == IR_SUB) && e->kid[0]->op == IR_VAR) {
    idx = e->kid[0], c = e->kid[1];
  } else if (e->op == IR_ADD && e->kid[1]->op == IR_VAR) {
    idx = e->kid[1], c = e->kid[0];
  }
  binding *bd = idx ? find_binding(f, idx->name) : NULL;
  if (!bd || !bd->loop || (c && ir_mentions(c, idx->name)))
    return false;
  int L = bd->loop;
  jv cv = c ? emit(f, c) : konst(f, 0);
  if (cv.level >= L)
    return false;
  jit_gen *g = f->g;
  LLVMBuilderRef b = g->b;
  level *lp = &f->lv[L];
  at(f, L - 1);
  /* The exponent of the first term, computed as the loop computes it (i = lo + 0). */
  LLVMValueRef i0 = LLVMBuildFAdd(b, lp->lo, jit_const(g, 0), "");
  LLVMValueRef e0 = !c ? i0
                    : e->op == IR_SUB ? LLVMBuildFSub(b, i0, cv.v, "")
                    : e->kid[0] == idx ? LLVMBuildFAdd(b, i0, cv.v, "")
                                       : LLVMBuildFAdd(b, cv.v, i0, "");
  LLVMValueRef p0 = call_pow(g, jit_const(g, base->num), e0);
  LLVMValueRef ok = LLVMBuildAnd(
      b, cmp(f, LLVMRealOEQ, lp->lo, jit_call_intrinsic(g, "llvm.floor", lp->lo, NULL)),
      cmpk(f, LLVMRealOLE, jit_call_intrinsic(g, "llvm.fabs", lp->lo, NULL), EXACT_INT), "");
  ok = LLVMBuildAnd(b, ok, cmpk(f, LLVMRealOLE, lp->count, EXACT_INT), "");
  if (c) {
    ok = LLVMBuildAnd(b, ok, cmp(f, LLVMRealOEQ, cv.v, jit_call_intrinsic(g, "llvm.floor", cv.v, NULL)), "");
    ok = LLVMBuildAnd(b, ok, cmpk(f, LLVMRealOLE, jit_call_intrinsic(g, "llvm.fabs", cv.v, NULL), EXACT_INT), "");
  }
  ok = LLVMBuildAnd(b, ok, LLVMBuildNot(b, nonfinite(f, p0), ""), "");
  ok = LLVMBuildAnd(b, ok, cmpk(f, LLVMRealUNE, p0, 0), "");
  jv r = val(NULL, L);
  absorb(f, &r, cv);
  add_err(f, &r, LLVMBuildNot(b, ok, ""));
  /* The phi goes first in the loop's header; the builder comes back to where it was. */
  LLVMBasicBlockRef here = LLVMGetInsertBlock(b);
  LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(lp->header));
  r.v = LLVMBuildPhi(b, g->f64, "pow");
  LLVMPositionBuilderAtEnd(b, here);
  recurrence rec = {r.v, p0, base->num};
  VEC_PUSH(lp->rec, lp->nrec, lp->rec_cap, rec);
  *out = r;
  return true;
}

static jv emit_pow(jit_fn *f, const ir_node *n) {
  jv r;
  return emit_recurrence(f, n, &r) ? r : emit_scalar(f, n);
}

/* ======== control: if, and/or, repeat ======== */

static jv emit_if(jit_fn *f, const ir_node *n) {
  jv c = emit(f, n->kid[0]);
  double k;
  if (!has_errs(&c) && const_double(c.v, &k) && isfinite(k)) /* `if mode == 1`: one arm */
    return emit(f, n->kid[k != 0 ? 1 : 2]);
  at(f, c.level);
  LLVMValueRef yes = cmpk(f, LLVMRealUNE, c.v, 0), no = LLVMBuildNot(f->g->b, yes, "");
  jv r = c;
  add_err(f, &r, nonfinite(f, c.v));
  jv t = guarded(f, yes, c.level, n->kid[1]), e = guarded(f, no, c.level, n->kid[2]);
  r.level = maxl(c.level, maxl(t.level, e.level));
  absorb(f, &r, t);
  absorb(f, &r, e);
  at(f, r.level);
  r.v = LLVMBuildSelect(f->g->b, yes, t.v, e.v, "");
  return r;
}

/* `a and b`, `a or b`: b is evaluated only when a does not decide. */
static jv emit_logic(jit_fn *f, const ir_node *n) {
  bool is_or = n->op == IR_OR;
  jv a = emit(f, n->kid[0]);
  at(f, a.level);
  LLVMValueRef need = cmpk(f, is_or ? LLVMRealOEQ : LLVMRealUNE, a.v, 0);
  jv r = a;
  add_err(f, &r, nonfinite(f, a.v));
  jv kb = guarded(f, need, a.level, n->kid[1]);
  r.level = maxl(a.level, kb.level);
  absorb(f, &r, kb);
  at(f, r.level);
  add_err(f, &r, LLVMBuildAnd(f->g->b, need, nonfinite(f, kb.v), ""));
  r.v = LLVMBuildSelect(f->g->b, need, as_double(f, cmpk(f, LLVMRealUNE, kb.v, 0)),
                        jit_const(f->g, is_or ? 1 : 0), "");
  return r;
}

/* A count that is not a whole number ≥ 0 (inf, NaN, 2.5), computed at the builder's level. */
static LLVMValueRef not_whole(jit_fn *f, LLVMValueRef v) {
  LLVMValueRef whole = jit_call_intrinsic(f->g, "llvm.floor", v, NULL);
  return or_(f, outside(f, v, LLVMRealULT, 0), cmp(f, LLVMRealUNE, v, whole));
}

/* As eval.c: a count that is not a whole number ≥ 0 is an error, and a stage repeated no
 * times is not evaluated. */
static jv emit_repeat(jit_fn *f, const ir_node *n) {
  jv a = emit(f, n->kid[0]);
  at(f, a.level);
  add_err(f, &a, not_whole(f, a.v));
  jv r = a;
  jv body = guarded(f, cmpk(f, LLVMRealUNE, a.v, 0), a.level, n->kid[1]);
  r.level = maxl(a.level, body.level);
  absorb(f, &r, body);
  at(f, r.level);
  r.v = LLVMBuildSelect(f->g->b, cmpk(f, LLVMRealOEQ, a.v, 0), jit_const(f->g, 0),
                        LLVMBuildFMul(f->g->b, a.v, body.v, ""), "");
  return r;
}

/* ======== sums ======== */

/* A loop being emitted: for (k = 0; k < count; k++) { i = lo + k; acc += term; }. */
typedef struct loop {
  int d; /* the level it is emitted at; its body is level d + 1 */
  LLVMBasicBlockRef header, exit;
  LLVMValueRef k, acc, err, xf, terms, run, terms0, terms1;
  LLVMValueRef some; /* count > 0, at count's level */
  int some_level;
  bool is_max; /* its value the largest term (a maximum over a range), not their sum */
} loop;

/* Opens a loop at the innermost level, entered only when count (at count_level) > 0 and,
 * if `counted`, when its terms stay within --max-terms (else an error in r); code goes
 * into its body from here on. Returns the index i; NULL when sums nest too deep. */
static LLVMValueRef loop_open(jit_fn *f, loop *L, LLVMValueRef lo, LLVMValueRef count,
                              int count_level, bool counted, jv *r) {
  jit_gen *g = f->g;
  LLVMBuilderRef b = g->b;
  int d = L->d = f->depth;
  if (d >= JIT_MAX_LOOPS) {
    fail(f, "sums and maxima nested more than %d deep", JIT_MAX_LOOPS);
    return NULL;
  }
  at(f, count_level);
  L->some = cmpk(f, LLVMRealOGT, count, 0);
  L->some_level = count_level;
  at(f, d);
  L->terms0 = f->terms;
  L->terms1 = counted ? LLVMBuildFAdd(b, L->terms0, count, "") : L->terms0;
  L->run = L->some;
  if (counted) {
    LLVMValueRef over = cmpk(f, LLVMRealOGT, L->terms1, g->max_terms);
    L->run = LLVMBuildAnd(b, L->some, LLVMBuildNot(b, over, ""), "");
    add_err(f, r, LLVMBuildAnd(b, L->some, over, ""));
  }
  if ((size_t)d + 2 > f->lv_cap) {
    size_t old = f->lv_cap;
    f->lv = grow_array(f->lv, &f->lv_cap, (size_t)d + 2, sizeof *f->lv);
    memset(f->lv + old, 0, (f->lv_cap - old) * sizeof *f->lv);
  }
  level *in = &f->lv[d + 1];
  L->header = block(f, "sum");
  L->exit = block(f, "sum.end");
  in->cur = in->header = L->header;
  in->region = region_open(f);
  in->lo = lo;
  in->count = count;
  in->nrec = 0;
  at(f, d); /* records the pre-loop block; the builder moves into the loop below */
  f->depth = f->pos = d + 1;
  LLVMPositionBuilderAtEnd(b, L->header);
  L->k = LLVMBuildPhi(b, g->f64, "k");
  L->acc = LLVMBuildPhi(b, g->f64, "acc");
  L->err = LLVMBuildPhi(b, f->err_ty, "err");
  L->xf = LLVMBuildPhi(b, g->i8, "xf");
  L->terms = LLVMBuildPhi(b, g->f64, "terms");
  f->terms = L->terms;
  return LLVMBuildFAdd(b, lo, L->k, "i");
}

/* Closes the loop with its term; the value is the sum of the terms, 0 when not entered.
 * Only the errors and flags the term computes inside the loop are carried from one
 * iteration to the next; those from outside count once, if the loop runs. r carries what
 * was computed before the loop. */
static jv loop_close(jit_fn *f, loop *L, jv term, jv r) {
  jit_gen *g = f->g;
  LLVMBuilderRef b = g->b;
  int d = L->d;
  at(f, d + 1);
  level *in = &f->lv[d + 1];
  /* +0 terms (the placements of a schedule) leave the sum +0: no add to wait for. The
   * maximum starts from −∞, so its first term is taken as it is, NaN too (eval.c's). */
  double z;
  bool plus0 = !L->is_max && const_double(term.v, &z) && z == 0 && !signbit(z);
  LLVMValueRef acc2 =
      L->is_max ? LLVMBuildSelect(b, cmp(f, LLVMRealOGT, L->acc, term.v), L->acc, term.v, "")
      : plus0   ? L->acc
                : LLVMBuildFAdd(b, L->acc, term.v, "");
  LLVMValueRef err2 = or_(f, L->err, term.err[d + 1]), xf2 = or_(f, L->xf, term.xf[d + 1]);
  LLVMValueRef k2 = LLVMBuildFAdd(b, L->k, jit_const(g, 1), "");
  LLVMValueRef *next = xcalloc(in->nrec + 1, sizeof *next);
  for (size_t j = 0; j < in->nrec; j++)
    next[j] = LLVMBuildFMul(b, in->rec[j].phi, jit_const(g, in->rec[j].factor), "");
  LLVMValueRef terms2 = f->terms;
  LLVMBasicBlockRef latch = LLVMGetInsertBlock(b);
  LLVMBuildCondBr(b, cmp(f, LLVMRealOLT, k2, in->count), L->header, L->exit);
  f->alive[in->region] = false;
  f->depth = d;
  at(f, d);
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(b);
  LLVMBuildCondBr(b, L->run, L->header, L->exit);

  LLVMBasicBlockRef bbs[2] = {pre, latch};
  LLVMValueRef zero = jit_const(g, 0), no = no_err(f), none = LLVMConstInt(g->i8, 0, 0);
  LLVMAddIncoming(L->k, (LLVMValueRef[]){zero, k2}, bbs, 2);
  LLVMValueRef acc0 = L->is_max ? jit_const(g, -INFINITY) : zero;
  LLVMAddIncoming(L->acc, (LLVMValueRef[]){acc0, acc2}, bbs, 2);
  LLVMAddIncoming(L->err, (LLVMValueRef[]){no, err2}, bbs, 2);
  LLVMAddIncoming(L->xf, (LLVMValueRef[]){none, xf2}, bbs, 2);
  LLVMAddIncoming(L->terms, (LLVMValueRef[]){L->terms1, terms2}, bbs, 2);
  for (size_t j = 0; j < in->nrec; j++)
    LLVMAddIncoming(in->rec[j].phi, (LLVMValueRef[]){in->rec[j].p0, next[j]}, bbs, 2);
  free(next);

  LLVMPositionBuilderAtEnd(b, L->exit);
  LLVMValueRef v = LLVMBuildPhi(b, g->f64, "sum");
  LLVMValueRef errs = LLVMBuildPhi(b, f->err_ty, ""), xfs = LLVMBuildPhi(b, g->i8, "");
  f->terms = LLVMBuildPhi(b, g->f64, "terms");
  LLVMAddIncoming(v, (LLVMValueRef[]){zero, acc2}, bbs, 2);
  LLVMAddIncoming(errs, (LLVMValueRef[]){no, err2}, bbs, 2);
  LLVMAddIncoming(xfs, (LLVMValueRef[]){none, xf2}, bbs, 2);
  LLVMAddIncoming(f->terms, (LLVMValueRef[]){L->terms0, terms2}, bbs, 2);
  term.err[d + 1] = term.xf[d + 1] = NULL;
  mask(f, &term, L->some, L->some_level, d + 1);
  r.v = v;
  r.level = d;
  absorb(f, &r, term);
  put(f, r.err, errs, f->pos);
  add_xf(f, &r, xfs);
  return r;
}

/* The sum over i = lo, lo + 1, … (count terms), its index bound in the body. */
static jv emit_loop(jit_fn *f, const ir_node *n, jv lo, LLVMValueRef count, int count_level,
                    jv r) {
  loop L = {.is_max = n->op == IR_MAXOVER};
  LLVMValueRef i = loop_open(f, &L, lo.v, count, count_level, true, &r);
  if (!i)
    return konst(f, 0);
  LLVMSetValueName2(i, n->name->name, strlen(n->name->name));
  push_binding(f, n->name, val(i, L.d + 1), L.d + 1);
  jv body = emit(f, n->kid[2]);
  f->nbind--;
  return loop_close(f, &L, body, r);
}

/* The terms of sum n: floor(hi - lo) + 1 when hi >= lo, else 0 (and 0 when the bounds are
 * not finite, an error in *r); *r is at the bounds' level, where the builder is; *hi_out
 * (if not NULL) the upper bound. */
static LLVMValueRef sum_count(jit_fn *f, const ir_node *n, jv *lo, jv *hi_out, jv *r) {
  LLVMBuilderRef b = f->g->b;
  *lo = emit(f, n->kid[0]);
  jv hi = emit(f, n->kid[1]);
  if (hi_out)
    *hi_out = hi;
  *r = val(NULL, maxl(lo->level, hi.level));
  absorb(f, r, *lo);
  absorb(f, r, hi);
  at(f, r->level);
  LLVMValueRef bad = or_(f, nonfinite(f, lo->v), nonfinite(f, hi.v));
  add_err(f, r, bad);
  LLVMValueRef count = jit_call_intrinsic(f->g, "llvm.floor", LLVMBuildFSub(b, hi.v, lo->v, ""), NULL);
  count = LLVMBuildFAdd(b, count, jit_const(f->g, 1), "");
  count = LLVMBuildSelect(b, cmp(f, LLVMRealOGE, hi.v, lo->v), count, jit_const(f->g, 0), "");
  return LLVMBuildSelect(b, bad, jit_const(f->g, 0), count, "");
}

static jv emit_sum(jit_fn *f, const ir_node *n) {
  LLVMBuilderRef b = f->g->b;
  jv lo, r;
  LLVMValueRef count = sum_count(f, n, &lo, NULL, &r);
  if (ir_mentions(n->kid[2], n->name))
    return emit_loop(f, n, lo, count, r.level, r);
  /* The body does not use the index: count × body, the body evaluated when count > 0;
   * placements in it happen count times. */
  LLVMValueRef some = cmpk(f, LLVMRealUNE, count, 0);
  int level = r.level;
  LLVMValueRef mult = f->place ? f->place->mult : NULL;
  if (f->place) {
    at(f, f->depth); /* where both the outer multiplicity and count are */
    f->place->mult = LLVMBuildFMul(b, mult, count, "");
  }
  jv body = guarded(f, some, level, n->kid[2]);
  if (f->place)
    f->place->mult = mult;
  r.level = maxl(level, body.level);
  absorb(f, &r, body);
  at(f, r.level);
  r.v = LLVMBuildSelect(b, some, LLVMBuildFMul(b, count, body.v, ""), jit_const(f->g, 0), "");
  return r;
}

static LLVMValueRef is_whole(jit_fn *f, LLVMValueRef x) {
  return cmp(f, LLVMRealOEQ, x, jit_call_intrinsic(f->g, "llvm.floor", x, NULL));
}

/* eval.c's eval_maxover: a maximum over whole bounds, lo ≤ hi (else an error), its body
 * evaluated at every index, used or not. */
static jv emit_maxover(jit_fn *f, const ir_node *n) {
  LLVMBuilderRef b = f->g->b;
  jv lo, hi, r;
  LLVMValueRef count = sum_count(f, n, &lo, &hi, &r);
  LLVMValueRef whole = LLVMBuildAnd(b, is_whole(f, lo.v), is_whole(f, hi.v), "");
  add_err(f, &r, LLVMBuildNot(b, whole, ""));
  add_err(f, &r, cmpk(f, LLVMRealOEQ, count, 0)); /* an empty range */
  count = LLVMBuildSelect(b, whole, count, jit_const(f->g, 0), "");
  return emit_loop(f, n, lo, count, r.level, r);
}

/* ======== transfers, overheads, γ ======== */

static const pf_channel *channel_of(jit_fn *f, const ir_node *n) {
  const pf_channel *ch = f->g->pf ? pf_channel_find(f->g->pf, n->name) : NULL;
  if (!ch)
    fail(f, n->name ? "the platform has no channel '%s'" : "the platform has no channel%s",
         n->name ? n->name->name : "");
  return ch;
}

/* The table as this function reads it: baked constants, or a slot loaded at the top of
 * the entry block, which dominates every use (level 0's block may be one branch of an if
 * whose other branch reads the table too). */
static const jit_tab *fn_table(jit_fn *f, const tab_table *t, const char *channel) {
  for (size_t i = 0; i < f->ntabs; i++)
    if (f->tabs[i].t == t)
      return &f->tabs[i].tab;
  LLVMBuilderRef b = f->g->b;
  LLVMBasicBlockRef here = LLVMGetInsertBlock(b), entry = LLVMGetEntryBasicBlock(f->fn);
  LLVMValueRef first = LLVMGetFirstInstruction(entry);
  if (first)
    LLVMPositionBuilderBefore(b, first);
  else
    LLVMPositionBuilderAtEnd(b, entry);
  struct fn_tab ft = {.t = t, .tab = jit_tab_view(f->g, module_table(f->g, t, channel), f->tables)};
  LLVMPositionBuilderAtEnd(b, here);
  ft.tab.outline = f->outline;
  VEC_PUSH(f->tabs, f->ntabs, f->tabs_cap, ft);
  return &f->tabs[f->ntabs - 1].tab;
}

/* Where m falls in a table, computed once per (m, table) where m is available. The size
 * located last in that table at the same level, another value, is often equal to m at run
 * time (a stage's o(if full == 0 then rest·m else 2^i·m) and its L(2^i·m, full)): then
 * its locus is taken, a compare instead of a search. */
static jit_locus locus(jit_fn *f, const jit_tab *t, jv m) {
  memo_entry *e = memo_get(f, m.v, (uintptr_t)t->mt->t);
  if (e)
    return e->locus;
  struct located *last = NULL;
  for (size_t i = 0; i < f->ntabs && !last; i++)
    if (f->tabs[i].t == t->mt->t)
      last = &f->tabs[i].last;
  at(f, m.level);
  bool known = last->m && last->level == m.level && f->alive[last->region];
  jit_locus p = known ? jit_tab_locate_unless(f->g, t, m.v, last->m, &last->p)
                      : jit_tab_locate(f->g, t, m.v);
  memo_put(f, m.v, (uintptr_t)t->mt->t, m.level)->locus = p;
  *last = (struct located){m.v, m.level, f->lv[m.level].region, p};
  return p;
}

/* An expression with one or two names bound, in a context of its own, outside any ∥: a
 * channel's analytic formula (its parameters), a stage's mapping (the rank). */
static jv analytic(jit_fn *f, const ir_node *body, sym p1, jv v1, sym p2, jv v2) {
  size_t par_base = f->par_base;
  uint32_t ctx_id = f->ctx_id, bind_id = f->bind_id;
  f->par_base = f->npar;
  f->ctx_id = f->bind_id = f->next_id++;
  push_binding(f, p1, v1, 0);
  if (p2)
    push_binding(f, p2, v2, 0);
  jv r = emit(f, body);
  f->nbind -= p2 ? 2 : 1;
  f->par_base = par_base;
  f->ctx_id = ctx_id;
  f->bind_id = bind_id;
  return r;
}

/* Adds r's errors and flags to the value v computed by a channel (an analytic one may
 * live deeper than r). */
static jv combine(jit_fn *f, jv r, jv v) {
  r.level = maxl(r.level, v.level);
  at(f, r.level);
  absorb(f, &r, v);
  r.v = v.v;
  return r;
}

/* τ times the counts of the enclosing ∥ that apply to channel ch (NULL: unscoped only). */
static jv scaled(jit_fn *f, jv tau, const pf_channel *ch) {
  jv a = val(NULL, tau.level);
  for (size_t i = f->par_base; i < f->npar; i++)
    if (!f->par[i].ch || f->par[i].ch == ch) {
      a.level = maxl(a.level, f->par[i].a.level);
      at(f, a.level);
      a.v = a.v ? LLVMBuildFMul(f->g->b, a.v, f->par[i].a.v, "") : f->par[i].a.v;
    }
  if (!a.v)
    return tau;
  at(f, a.level);
  tau.v = LLVMBuildFMul(f->g->b, tau.v, a.v, "");
  tau.level = a.level;
  return tau;
}

/* eval.c's transfer_cost: L(m, τ) on channel ch. */
static jv transfer(jit_fn *f, const pf_channel *ch, jv m, jv tau) {
  jv r = val(NULL, maxl(m.level, tau.level));
  absorb_checked(f, &r, m, bad_size);
  absorb_checked(f, &r, tau, bad_tau);
  if (!ch->table) {
    if (!ch->L) {
      fail(f, "channel '%s' has no L", ch->name->name);
      return r;
    }
    return cost_checked(f, combine(f, r, analytic(f, ch->L, ch->L_m, m, ch->L_tau, tau)));
  }
  const jit_tab *t = fn_table(f, ch->table, ch->name->name);
  jit_locus p = locus(f, t, m);
  at(f, m.level);
  add_xf(f, &r, p.flags);
  at(f, r.level);
  LLVMValueRef beyond;
  r.v = jit_tab_L(f->g, t, &p, tau.v, &beyond);
  add_xf(f, &r, beyond);
  return cost_checked(f, r);
}

/* eval.c's transmission_cost: T(m, τ) on channel ch, else its L. */
static jv transmission(jit_fn *f, const pf_channel *ch, jv m, jv tau) {
  if (!ch->T)
    return transfer(f, ch, m, tau);
  jv r = val(NULL, maxl(m.level, tau.level));
  absorb_checked(f, &r, m, bad_size);
  absorb_checked(f, &r, tau, bad_tau);
  return cost_checked(f, combine(f, r, analytic(f, ch->T, ch->T_m, m, ch->T_tau, tau)));
}

static jv emit_L_or_T(jit_fn *f, const ir_node *n) {
  const pf_channel *ch = channel_of(f, n);
  if (!ch)
    return konst(f, 0);
  jv m = emit(f, n->kid[0]), tau = scaled(f, emit(f, n->kid[1]), ch);
  return n->op == IR_TX ? transmission(f, ch, m, tau) : transfer(f, ch, m, tau);
}

static jv emit_o_or_p(jit_fn *f, const ir_node *n) {
  const pf_channel *ch = channel_of(f, n);
  if (!ch)
    return konst(f, 0);
  jv m = emit(f, n->kid[0]);
  jv r = m;
  at(f, m.level);
  add_err(f, &r, bad_size(f, m.v));
  if (n->op == IR_O && ch->table) {
    const jit_tab *t = fn_table(f, ch->table, ch->name->name);
    jit_locus p = locus(f, t, m);
    at(f, m.level);
    r.v = jit_tab_column(f->g, t, &p, jit_i64(f->g, 0));
    add_xf(f, &r, p.flags);
    return cost_checked(f, r);
  }
  const ir_node *body = n->op == IR_O ? ch->o : ch->p;
  if (!body) {
    r.v = jit_const(f->g, 0); /* an analytic channel without o (or p) has none */
    return r;
  }
  return cost_checked(f, combine(f, r, analytic(f, body, n->op == IR_O ? ch->o_m : ch->p_m, m, NULL, m)));
}

static jv emit_gamma(jit_fn *f, const ir_node *n) {
  const tlop_platform *pf = f->g->pf;
  jv m = emit(f, n->kid[0]), tau = scaled(f, emit(f, n->kid[1]), NULL);
  jv r = val(NULL, maxl(m.level, tau.level));
  absorb_checked(f, &r, m, bad_size);
  absorb_checked(f, &r, tau, bad_tau);
  char *lacks = pf ? pf_gamma_lacks(pf, n->name) : NULL;
  if (!pf || lacks) {
    fail(f, "%s", lacks ? lacks : "the platform defines no gamma");
    free(lacks);
    return r;
  }
  if (pf->gamma) {
    int col = tab_gamma_column(pf->gamma, n->name->name);
    const jit_tab *t = fn_table(f, pf->gamma, "gamma");
    jit_locus p = locus(f, t, m);
    at(f, m.level);
    add_xf(f, &r, p.flags);
    r.v = jit_tab_column(f->g, t, &p, jit_i64(f->g, col));
    /* A gamma table is measured at τ = 1; beyond it the value is held and flagged. */
    at(f, tau.level);
    add_xf(f, &r, LLVMBuildSelect(f->g->b, cmpk(f, LLVMRealOGT, tau.v, 1),
                                  LLVMConstInt(f->g->i8, TAB_BEYOND_TAU, 0),
                                  LLVMConstInt(f->g->i8, 0, 0), ""));
    return cost_checked(f, r);
  }
  return cost_checked(f, combine(f, r, analytic(f, pf->gamma_expr, pf->gamma_m, m, pf->gamma_tau, tau)));
}

/* ======== concurrency ======== */

static jv emit_par(jit_fn *f, const ir_node *n) {
  jv a = emit(f, n->kid[0]);
  const pf_channel *ch = NULL;
  if (n->name && !(ch = channel_of(f, n)))
    return konst(f, 0);
  at(f, a.level);
  LLVMValueRef bad = outside(f, a.v, LLVMRealULE, 0);
  par_entry e = {ch, a};
  VEC_PUSH(f->par, f->npar, f->par_cap, e);
  uint32_t ctx_id = f->ctx_id;
  f->ctx_id = f->next_id++;
  jv body = emit(f, n->kid[1]);
  f->npar--;
  f->ctx_id = ctx_id;
  jv r = body;
  r.level = maxl(a.level, body.level);
  absorb(f, &r, a);
  at(f, a.level);
  add_err(f, &r, bad);
  return r;
}

typedef struct flow {
  const pf_channel *ch;
  jv m, tau;
} flow;

/* The transfers joined by binary ∥, with the τ of each scaled by its ∥ counts; the
 * errors and flags of the counts go to acc. */
static void flatten(jit_fn *f, const ir_node *n, flow **fl, size_t *nf, size_t *cap, jv *acc) {
  switch (n->op) {
  case IR_L: {
    const pf_channel *ch = channel_of(f, n);
    if (!ch)
      return;
    jv m = emit(f, n->kid[0]), tau = emit(f, n->kid[1]);
    flow x = {ch, m, scaled(f, tau, ch)};
    VEC_PUSH(*fl, *nf, *cap, x);
    return;
  }
  case IR_STAGE:
    flatten(f, n->kid[0], fl, nf, cap, acc);
    return;
  case IR_CONC:
    flatten(f, n->kid[0], fl, nf, cap, acc);
    flatten(f, n->kid[1], fl, nf, cap, acc);
    return;
  case IR_PAR: {
    jv a = emit(f, n->kid[0]);
    acc->level = maxl(acc->level, a.level);
    absorb(f, acc, a);
    par_entry e = {n->name ? pf_channel_find(f->g->pf, n->name) : NULL, a};
    VEC_PUSH(f->par, f->npar, f->par_cap, e);
    flatten(f, n->kid[1], fl, nf, cap, acc);
    f->npar--;
    return;
  }
  default:
    fail(f, "binary ∥ needs transfers on both sides");
  }
}

/* Same channel: one transfer whose τ is the sum (sizes must agree); different channels
 * do not contend: the slowest one. */
static jv emit_conc(jit_fn *f, const ir_node *n) {
  flow *fl = NULL;
  size_t nf = 0, cap = 0;
  jv r = konst(f, 0);
  flatten(f, n, &fl, &nf, &cap, &r);
  for (size_t i = 0; i < nf && !f->failed; i++) {
    if (!fl[i].ch)
      continue;
    jv tau = konst(f, 0);
    for (size_t j = i; j < nf; j++) {
      if (fl[j].ch != fl[i].ch)
        continue;
      int level = maxl(maxl(tau.level, fl[j].tau.level), maxl(fl[i].m.level, fl[j].m.level));
      absorb(f, &tau, fl[j].tau);
      at(f, level);
      if (j > i) {
        absorb(f, &tau, fl[j].m);
        add_err(f, &tau, cmp(f, LLVMRealUNE, fl[j].m.v, fl[i].m.v));
        fl[j].ch = NULL; /* counted */
      }
      tau.v = LLVMBuildFAdd(f->g->b, tau.v, fl[j].tau.v, "");
      tau.level = level;
    }
    jv c = transfer(f, fl[i].ch, fl[i].m, tau);
    r.level = maxl(r.level, c.level);
    absorb(f, &r, c);
    at(f, c.level);
    add_err(f, &r, nonfinite(f, c.v));
    at(f, r.level);
    r.v = LLVMBuildSelect(f->g->b, cmp(f, LLVMRealOGT, c.v, r.v), c.v, r.v, "");
  }
  free(fl);
  return r;
}

/* ======== schedules: transfers placed at pipeline steps; a step costs one L(S, Σ τ) ======== */

/* An external function (libc's, libtlop's), declared once per module. */
static LLVMValueRef extern_fn(jit_gen *g, LLVMValueRef *cache, const char *name, LLVMTypeRef ret,
                              LLVMTypeRef *params, unsigned n) {
  if (!*cache)
    *cache = LLVMAddFunction(g->mod, name, LLVMFunctionType(ret, params, n, 0));
  return *cache;
}

/* free(p): the buffer of a schedule or a messages stage. */
static void call_free(jit_gen *g, LLVMValueRef p) {
  LLVMTypeRef fp[1] = {g->ptr}, void_ty = LLVMVoidTypeInContext(g->c);
  LLVMValueRef fr = extern_fn(g, &g->fn_free, "free", void_ty, fp, 1);
  LLVMBuildCall2(g->b, LLVMFunctionType(void_ty, fp, 1, 0), fr, &p, 1, "");
}

/* Whether e is affine in j, the index of loop level d — j, integers that do not depend on
 * j, and +, −, × by such an integer — collecting into *ok (built at level d − 1) that
 * those integers are whole and small (≤ 2^20), so that e(j) is computed exactly. */
static bool affine(jit_fn *f, const ir_node *e, sym j, int d, LLVMValueRef *ok) {
  if (e->op == IR_VAR && e->name == j)
    return true;
  if (!ir_mentions(e, j)) {
    jv c = emit(f, e);
    if (c.level >= d)
      return false;
    at(f, d - 1);
    LLVMValueRef whole = cmp(f, LLVMRealOEQ, c.v, jit_call_intrinsic(f->g, "llvm.floor", c.v, NULL));
    whole = LLVMBuildAnd(f->g->b, whole, cmpk(f, LLVMRealOLE, jit_call_intrinsic(f->g, "llvm.fabs", c.v, NULL), 1048576), "");
    *ok = *ok ? LLVMBuildAnd(f->g->b, *ok, whole, "") : whole;
    return true;
  }
  switch (e->op) {
  case IR_ADD:
  case IR_SUB: return affine(f, e->kid[0], j, d, ok) && affine(f, e->kid[1], j, d, ok);
  case IR_NEG: return affine(f, e->kid[0], j, d, ok);
  case IR_MUL:
    return (!ir_mentions(e->kid[0], j) || !ir_mentions(e->kid[1], j)) &&
           affine(f, e->kid[0], j, d, ok) && affine(f, e->kid[1], j, d, ok);
  default: return false;
  }
}

/* A whole step from 1 to --max-steps (and at most 2^40: a whole number exactly). */
static LLVMValueRef bad_step(jit_fn *f, LLVMValueRef step) {
  LLVMValueRef floor_step = jit_call_intrinsic(f->g, "llvm.floor", step, NULL);
  LLVMValueRef bad = or_(f, cmpk(f, LLVMRealULT, step, 1), cmp(f, LLVMRealUNE, step, floor_step));
  return or_(f, bad, cmpk(f, LLVMRealUGT, step, fmin(f->g->max_steps, EXACT_INT)));
}

/* When the step of an `at` is affine in the innermost loop's index, one check before the
 * loop, of its first and last steps, stands for a check at every iteration: the value of
 * "every step of this loop is good", at level d − 1; NULL when that cannot be shown. */
static LLVMValueRef steps_checked(jit_fn *f, const ir_node *step, int d) {
  binding *bd = NULL;
  for (size_t i = f->nbind; i-- > f->bind_base && !bd;)
    if (f->bind[i].loop == d)
      bd = &f->bind[i];
  LLVMValueRef ok = NULL;
  if (d < 1 || !bd || !affine(f, step, bd->name, d, &ok))
    return NULL;
  level *lp = &f->lv[d];
  LLVMBuilderRef b = f->g->b;
  at(f, d - 1);
  LLVMValueRef last = LLVMBuildFAdd(b, lp->lo, LLVMBuildFSub(b, lp->count, jit_const(f->g, 1), ""), "");
  LLVMValueRef whole = cmp(f, LLVMRealOEQ, lp->lo, jit_call_intrinsic(f->g, "llvm.floor", lp->lo, NULL));
  whole = LLVMBuildAnd(b, whole, cmpk(f, LLVMRealOLE, jit_call_intrinsic(f->g, "llvm.fabs", lp->lo, NULL), 1073741824), "");
  whole = LLVMBuildAnd(b, whole, cmpk(f, LLVMRealOLE, lp->count, 1073741824), "");
  ok = ok ? LLVMBuildAnd(b, ok, whole, "") : whole;
  /* the step at the first and the last index: the step with j renamed to a fresh name
   * bound to them, so that its parts without j are shared with the loop's */
  LLVMValueRef ends[2] = {lp->lo, last};
  for (int k = 0; k < 2; k++) {
    char name[96];
    snprintf(name, sizeof name, "\x01%s#%u", bd->name->name, f->next_id++);
    sym jk = ctx_sym(f->g->ctx, name);
    ir_node *at_end = ir_subst(f->g->ctx, (ir_node *)step, bd->name, ir_var(f->g->ctx, jk));
    push_binding(f, jk, val(ends[k], d - 1), 0);
    jv v = emit(f, at_end);
    f->nbind--;
    if (v.level >= d) /* (errors of v are the step's own: the `at` counts them) */
      return NULL;
    at(f, d - 1);
    ok = LLVMBuildAnd(b, ok, LLVMBuildNot(b, bad_step(f, v.v), ""), "");
  }
  return ok;
}

/* Makes room for record i (i64) of `elem` bytes in the buffer of pl: beyond its capacity,
 * reallocates it to twice that (at least i + 1 records), the new part zeroed if `zero`.
 * Returns the block that branches to `fail` when memory runs out; the builder ends where
 * record i has room. */
static LLVMBasicBlockRef make_room(jit_fn *f, struct placing *pl, LLVMValueRef i, unsigned elem,
                                   bool zero, LLVMBasicBlockRef fail) {
  jit_gen *g = f->g;
  LLVMBuilderRef b = g->b;
  LLVMBasicBlockRef grow = block(f, "grow"), grown = block(f, "grown"), room = block(f, "room");
  LLVMValueRef cap = LLVMBuildLoad2(b, g->i64, pl->cap, "");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSGE, i, cap, ""), grow, room);
  LLVMPositionBuilderAtEnd(b, grow);
  LLVMValueRef i1 = LLVMBuildAdd(b, i, jit_i64(g, 1), ""), twice = LLVMBuildShl(b, cap, jit_i64(g, 1), "");
  LLVMValueRef size = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, twice, i1, ""), twice, i1, "");
  LLVMTypeRef rp[2] = {g->ptr, g->i64};
  LLVMValueRef fn = extern_fn(g, &g->fn_realloc, "realloc", g->ptr, rp, 2);
  LLVMValueRef args[2] = {LLVMBuildLoad2(b, g->ptr, pl->data, ""), LLVMBuildMul(b, size, jit_i64(g, elem), "")};
  LLVMValueRef mem = LLVMBuildCall2(b, LLVMFunctionType(g->ptr, rp, 2, 0), fn, args, 2, "");
  LLVMBuildCondBr(b, LLVMBuildIsNull(b, mem, ""), fail, grown);
  LLVMPositionBuilderAtEnd(b, grown);
  if (zero) {
    LLVMValueRef used = LLVMBuildMul(b, cap, jit_i64(g, elem), "");
    LLVMValueRef fresh = LLVMBuildInBoundsGEP2(b, g->i8, mem, &used, 1, "");
    LLVMBuildMemSet(b, fresh, LLVMConstInt(g->i8, 0, 0),
                    LLVMBuildMul(b, LLVMBuildSub(b, size, cap, ""), jit_i64(g, elem), ""), 8);
  }
  LLVMBuildStore(b, mem, pl->data);
  LLVMBuildStore(b, size, pl->cap);
  LLVMBuildBr(b, room);
  LLVMPositionBuilderAtEnd(b, room);
  return grow;
}

/* The error of a placement: set when it came from `bad` or `grow` (no memory), not from
 * `done`, the block the builder is in, which branches to join; the builder moves there. */
static LLVMValueRef placement_failed(jit_fn *f, LLVMBasicBlockRef bad, LLVMBasicBlockRef grow,
                                     LLVMBasicBlockRef join) {
  jit_gen *g = f->g;
  LLVMBasicBlockRef done = LLVMGetInsertBlock(g->b);
  LLVMBuildBr(g->b, join);
  LLVMPositionBuilderAtEnd(g->b, join);
  LLVMValueRef failed = LLVMBuildPhi(g->b, g->i1, "");
  LLVMValueRef yes = LLVMConstInt(g->i1, 1, 0);
  LLVMAddIncoming(failed, (LLVMValueRef[]){yes, yes, LLVMConstInt(g->i1, 0, 0)},
                  (LLVMBasicBlockRef[]){bad, grow, done}, 3);
  return failed;
}

/* `at STEP[, COUNT]`: count transfers at a step (eval.c's eval_at), into a buffer that
 * grows with the steps. Its value is 0; a bad step or count (or no memory) is an error. */
static jv emit_at(jit_fn *f, const ir_node *n) {
  struct placing *pl = f->place;
  if (!pl || pl->stage) {
    fail(f, "`at` outside a schedule");
    return konst(f, 0);
  }
  jit_gen *g = f->g;
  LLVMBuilderRef b = g->b;
  jv step = emit(f, n->kid[0]), count = emit(f, n->kid[1]);
  int d = f->depth;
  jv r = val(jit_const(g, 0), d);
  absorb(f, &r, step);
  absorb(f, &r, count);
  at(f, count.level);
  add_err(f, &r, outside(f, count.v, LLVMRealULT, 0)); /* a count does not touch memory */
  LLVMValueRef all_good = steps_checked(f, n->kid[0], d);
  at(f, d);
  LLVMBasicBlockRef check = block(f, "at.check"), ok = block(f, "at"), join = block(f, "at.end");
  if (all_good)
    LLVMBuildCondBr(b, all_good, ok, check);
  else
    LLVMBuildBr(b, check);
  LLVMPositionBuilderAtEnd(b, check);
  LLVMBuildCondBr(b, bad_step(f, step.v), join, ok);
  LLVMPositionBuilderAtEnd(b, ok);
  LLVMValueRef t = LLVMBuildFPToSI(b, step.v, g->i64, "step");
  LLVMBasicBlockRef grow = make_room(f, pl, t, sizeof(double), true, join);
  LLVMValueRef p = LLVMBuildInBoundsGEP2(b, g->f64, LLVMBuildLoad2(b, g->ptr, pl->data, ""), &t, 1, "");
  LLVMValueRef placed = LLVMBuildFMul(b, count.v, pl->mult, "");
  LLVMBuildStore(b, LLVMBuildFAdd(b, LLVMBuildLoad2(b, g->f64, p, ""), placed, ""), p);
  add_err(f, &r, placement_failed(f, check, grow, join));
  return r;
}

/* `schedule L[ch](S) { placements }`: the placements fill the steps, then Σ_t L(S, τ_t·A)
 * over the non-empty steps in order, A the ∥ around (eval.c's eval_schedule). The steps are
 * read up to the buffer's size: those past the last used are 0, skipped like empty ones. */
static jv emit_sched(jit_fn *f, const ir_node *n) {
  if (f->place) {
    fail(f, "a schedule or messages stage inside another one");
    return konst(f, 0);
  }
  const pf_channel *ch = channel_of(f, n);
  if (!ch)
    return konst(f, 0);
  jit_gen *g = f->g;
  LLVMBuilderRef b = g->b;
  jv size = emit(f, n->kid[0]);
  struct placing sc = {jit_entry_alloca(g, g->ptr, "steps"), jit_entry_alloca(g, g->i64, "cap"),
                       NULL, jit_const(g, 1), NULL};
  int d = f->depth;
  at(f, d);
  LLVMBuildStore(b, LLVMConstNull(g->ptr), sc.data);
  LLVMBuildStore(b, jit_i64(g, 0), sc.cap);
  f->place = &sc;
  jv placed = emit(f, n->kid[1]);
  f->place = NULL;
  at(f, d);
  jv r = placed;
  r.level = d;
  /* the interpreter evaluates the size first, with steps or none */
  absorb_checked(f, &r, size, nonfinite);
  at(f, d);
  LLVMValueRef data = LLVMBuildLoad2(b, g->ptr, sc.data, "");
  LLVMValueRef steps = LLVMBuildSIToFP(b, LLVMBuildLoad2(b, g->i64, sc.cap, ""), g->f64, "");
  loop L = {0}; /* a sum */
  LLVMValueRef t = loop_open(f, &L, jit_const(g, 1), LLVMBuildFSub(b, steps, jit_const(g, 1), ""),
                             d, false, &r);
  if (!t)
    return konst(f, 0);
  LLVMValueRef idx = LLVMBuildFPToSI(b, t, g->i64, "");
  LLVMValueRef tau = LLVMBuildLoad2(b, g->f64, LLVMBuildInBoundsGEP2(b, g->f64, data, &idx, 1, ""), "tau");
  LLVMValueRef some = cmpk(f, LLVMRealUNE, tau, 0);
  jv c = transfer(f, ch, size, scaled(f, val(tau, L.d + 1), ch));
  mask(f, &c, some, L.d + 1, JIT_MAX_LOOPS + 1); /* empty steps are skipped */
  at(f, L.d + 1);
  c.v = LLVMBuildSelect(b, some, c.v, jit_const(g, 0), "");
  r = loop_close(f, &L, c, r);
  call_free(g, data);
  return r;
}

/* ======== messages stages: messages placed on nodes; a channel towards a node is shared ======== */

/* Not a whole number ≥ 0 (eval.c's check_rank, negated). */
static LLVMValueRef bad_rank(jit_fn *f, LLVMValueRef rank) {
  return or_(f, outside(f, rank, LLVMRealULT, 0),
             cmp(f, LLVMRealUNE, rank, jit_call_intrinsic(f->g, "llvm.floor", rank, NULL)));
}

/* The field at byte offset `offset` of the msg record at p. */
static LLVMValueRef field(jit_fn *f, LLVMValueRef p, size_t offset) {
  LLVMValueRef off = jit_i64(f->g, (long long)offset);
  return LLVMBuildInBoundsGEP2(f->g->b, f->g->i8, p, &off, 1, "");
}

static void store_field(jit_fn *f, LLVMValueRef p, size_t offset, LLVMValueRef v) {
  LLVMBuildStore(f->g->b, v, field(f, p, offset));
}

/* The record i (i64) of a stage's buffer. */
static LLVMValueRef record(jit_fn *f, LLVMValueRef data, LLVMValueRef i) {
  LLVMValueRef at_byte = LLVMBuildMul(f->g->b, i, jit_i64(f->g, sizeof(msg)), "");
  return LLVMBuildInBoundsGEP2(f->g->b, f->g->i8, data, &at_byte, 1, "");
}

/* `send SRC -> DST : SIZE` (eval.c's eval_send): a msg record — ranks, size, how many
 * times the loops around place it — appended to the stage's buffer. Its value is 0; a bad
 * size or rank, a message beyond --max-messages or no memory is an error. */
static jv emit_send(jit_fn *f, const ir_node *n) {
  struct placing *pl = f->place;
  if (!pl || !pl->stage) {
    fail(f, "`send` outside a messages stage");
    return konst(f, 0);
  }
  jit_gen *g = f->g;
  LLVMBuilderRef b = g->b;
  jv src = emit(f, n->kid[0]), dst = emit(f, n->kid[1]), size = emit(f, n->kid[2]);
  int d = f->depth;
  jv r = val(jit_const(g, 0), d);
  absorb_checked(f, &r, size, bad_size);
  absorb_checked(f, &r, src, bad_rank);
  absorb_checked(f, &r, dst, bad_rank);
  at(f, d);
  LLVMBasicBlockRef check = LLVMGetInsertBlock(b), ok = block(f, "send"), join = block(f, "send.end");
  LLVMValueRef used = LLVMBuildLoad2(b, g->i64, pl->used, "");
  LLVMValueRef too_many = cmpk(f, LLVMRealOGE, LLVMBuildSIToFP(b, used, g->f64, ""), g->max_messages);
  LLVMBuildCondBr(b, too_many, join, ok);
  LLVMPositionBuilderAtEnd(b, ok);
  LLVMBasicBlockRef grow = make_room(f, pl, used, sizeof(msg), false, join);
  LLVMValueRef p = record(f, LLVMBuildLoad2(b, g->ptr, pl->data, ""), used);
  store_field(f, p, offsetof(msg, src), src.v);
  store_field(f, p, offsetof(msg, dst), dst.v);
  store_field(f, p, offsetof(msg, size), size.v);
  store_field(f, p, offsetof(msg, count), pl->mult);
  LLVMBuildStore(b, LLVMBuildAdd(b, used, jit_i64(g, 1), ""), pl->used);
  add_err(f, &r, placement_failed(f, check, grow, join));
  return r;
}

/* Once every message is placed, the node of each destination under the stage's mapping
 * and whether the source's differs (eval.c's eval_messages and node_of), in a loop over
 * the records; r gets the mapping's errors. */
static jv place_on_nodes(jit_fn *f, const ir_node *stage, LLVMValueRef data, LLVMValueRef used,
                         jv r) {
  jit_gen *g = f->g;
  LLVMBuilderRef b = g->b;
  loop L = {0}; /* a sum */
  LLVMValueRef k = loop_open(f, &L, jit_const(g, 0), LLVMBuildSIToFP(b, used, g->f64, ""),
                             f->depth, false, &r);
  if (!k)
    return r;
  LLVMValueRef p = record(f, data, LLVMBuildFPToSI(b, k, g->i64, ""));
  jv src = val(LLVMBuildLoad2(b, g->f64, field(f, p, offsetof(msg, src)), "src"), L.d + 1);
  jv dst = val(LLVMBuildLoad2(b, g->f64, field(f, p, offsetof(msg, dst)), "dst"), L.d + 1);
  jv from = analytic(f, stage->kid[0], stage->name, src, NULL, src);
  jv to = analytic(f, stage->kid[0], stage->name, dst, NULL, dst);
  jv term = val(jit_const(g, 0), L.d + 1);
  absorb(f, &term, from);
  absorb(f, &term, to);
  at(f, L.d + 1);
  /* node −1: a rank beyond place's nodes(…) list, which the interpreter reports */
  add_err(f, &term, cmpk(f, LLVMRealOLT, from.v, 0));
  add_err(f, &term, cmpk(f, LLVMRealOLT, to.v, 0));
  store_field(f, p, offsetof(msg, node), to.v);
  store_field(f, p, offsetof(msg, net), LLVMBuildZExt(b, cmp(f, LLVMRealUNE, from.v, to.v), g->i8, ""));
  return loop_close(f, &L, term, r);
}

/* sequential(Q) and round_robin(M) group ranks by a whole Q (M) ≥ 1 (eval.c's
 * check_mapping): r at the stage's level with that error. */
static jv mapping_checked(jit_fn *f, const ir_node *n) {
  const ir_node *arg;
  jv r = val(NULL, f->depth);
  if (!ir_mapping(n, &arg))
    return r;
  jv q = emit(f, arg);
  absorb(f, &r, q);
  at(f, q.level);
  add_err(f, &r, bad_rank(f, q.v));
  add_err(f, &r, cmpk(f, LLVMRealOLT, q.v, 1));
  return r;
}

/* T of shm and net (their L without a T; L itself for messages[L]) as functions of their
 * own, which tlop_rt_messages calls with the point's variables then m and τ (a null
 * pointer where the platform has no such channel); made once per function and pricing.
 * False when one cannot be compiled (g->why says why). */
static bool prices(jit_fn *f, bool by_L) {
  jit_gen *g = f->g;
  if (f->chan.priced[by_L])
    return true;
  const char **names = xcalloc(f->nvars + 2, sizeof *names);
  for (size_t j = 0; j < f->nvars; j++)
    names[j] = f->vars[j]->name;
  names[f->nvars] = "\x01msg.m";
  names[f->nvars + 1] = "\x01msg.tau";
  size_t len;
  const char *outer = LLVMGetValueName2(f->fn, &len);
  LLVMBasicBlockRef here = LLVMGetInsertBlock(g->b);
  for (int net = 0; net < 2 && !f->failed; net++) {
    sym name = ctx_sym(g->ctx, net ? "net" : "shm");
    f->chan.price[by_L][net] = LLVMConstNull(g->ptr);
    if (!g->pf || !pf_channel_find(g->pf, name))
      continue;
    ir_node *T = ir_make(g->ctx, by_L ? IR_L : IR_TX, name, 0,
                         ir_var(g->ctx, ctx_sym(g->ctx, names[f->nvars])),
                         ir_var(g->ctx, ctx_sym(g->ctx, names[f->nvars + 1])), NULL);
    strbuf fn = {0};
    sb_printf(&fn, "%.*s.%s.%s", (int)len, outer, by_L ? "L" : "T", name->name);
    f->chan.price[by_L][net] = jit_gen_point(g, f->model, T, names, f->nvars + 2, fn.s);
    free(fn.s);
    f->failed = !f->chan.price[by_L][net]; /* g->why says why */
  }
  LLVMPositionBuilderAtEnd(g->b, here);
  free(names);
  f->chan.priced[by_L] = !f->failed;
  return f->chan.priced[by_L];
}

/* A regular stage (eval.c's msgs_ring_form: a ring, a shift or a swap): its numbers go to
 * libtlop's tlop_rt_messages_regular, which counts the messages per node where the ranks
 * allow (a cost that does not grow with P) and places them one by one otherwise, as the
 * interpreter does. The loop counts its terms as its placements would; the numbers of
 * its messages are used (their errors count) only when it has some. */
static jv emit_ring(jit_fn *f, const msg_ring_form *form, jv r, const jv par[2], bool by_L) {
  jit_gen *g = f->g;
  LLVMBuilderRef b = g->b;
  jv lo, bounds;
  LLVMValueRef count = sum_count(f, form->loop, &lo, NULL, &bounds);
  int count_level = bounds.level;
  absorb(f, &r, bounds);
  jv parts[4] = {emit(f, form->shift), form->modulus ? emit(f, form->modulus) : konst(f, 0),
                 emit(f, form->size), emit(f, form->group)};
  int d = f->depth;
  at(f, count_level);
  LLVMValueRef some = cmpk(f, LLVMRealOGT, count, 0);
  for (int k = 0; k < 4; k++) {
    jv part = parts[k];
    mask(f, &part, some, count_level, JIT_MAX_LOOPS + 1);
    absorb(f, &r, part);
  }
  at(f, d);
  LLVMValueRef terms1 = LLVMBuildFAdd(b, f->terms, count, "");
  LLVMValueRef over = LLVMBuildAnd(b, some, cmpk(f, LLVMRealOGT, terms1, g->max_terms), "");
  add_err(f, &r, over);
  f->terms = LLVMBuildSelect(b, LLVMBuildAnd(b, some, LLVMBuildNot(b, over, ""), ""), terms1, f->terms, "");
  enum { NFIELDS = sizeof(msg_ring) / sizeof(double) };
  LLVMValueRef ring = jit_entry_alloca(g, LLVMArrayType2(g->f64, NFIELDS), "ring");
  const struct {
    size_t at;
    LLVMValueRef v;
  } fields[NFIELDS] = {{offsetof(msg_ring, lo), lo.v},
                 {offsetof(msg_ring, count), count},
                 {offsetof(msg_ring, shift), parts[0].v},
                 {offsetof(msg_ring, modulus), parts[1].v},
                 {offsetof(msg_ring, size), parts[2].v},
                 {offsetof(msg_ring, group), parts[3].v},
                 {offsetof(msg_ring, round_robin), jit_const(g, form->round_robin)},
                 {offsetof(msg_ring, max_messages), jit_const(g, g->max_messages)},
                 {offsetof(msg_ring, shape), jit_const(g, form->shape)}};
  for (int k = 0; k < NFIELDS; k++)
    store_field(f, ring, fields[k].at, fields[k].v);
  LLVMValueRef xf = jit_entry_alloca(g, g->i8, "ring.xf");
  LLVMBuildStore(b, LLVMConstInt(g->i8, 0, 0), xf);
  LLVMTypeRef params[9] = {g->ptr, g->f64, g->f64, g->ptr, g->ptr, g->ptr, g->i64, g->ptr, g->ptr};
  LLVMValueRef fn = extern_fn(g, &g->fn_rt_ring, JIT_RT_MESSAGES_REGULAR, g->f64, params, 9);
  LLVMValueRef args[9] = {ring, par[0].v, par[1].v, f->chan.price[by_L][0], f->chan.price[by_L][1],
                          f->x, jit_i64(g, (long long)f->nvars), f->tables, xf};
  r.v = LLVMBuildCall2(b, LLVMFunctionType(g->f64, params, 9, 0), fn, args, 9, "ring");
  r.level = d;
  add_err(f, &r, nonfinite(f, r.v));
  add_xf(f, &r, LLVMBuildLoad2(b, g->i8, xf, ""));
  return r;
}

/* `messages on MAPPING { sends }` (eval.c's eval_msgs): the sends fill a buffer of msg
 * records, which libtlop's tlop_rt_messages prices as the interpreter does (msgs_cost)
 * through prices(), each channel's counts scaled by the ∥ around. NaN from it is an error:
 * a missing channel, a bad look-up — the interpreter says which. */
static jv emit_msgs(jit_fn *f, const ir_node *n) {
  if (f->place) {
    fail(f, "a schedule or messages stage inside another one");
    return konst(f, 0);
  }
  jit_gen *g = f->g;
  LLVMBuilderRef b = g->b;
  jv r = mapping_checked(f, n);
  bool by_L = n->num != 0;
  if (!prices(f, by_L))
    return konst(f, 0);
  jv par[2];
  for (int net = 0; net < 2; net++) {
    const pf_channel *ch = g->pf ? pf_channel_find(g->pf, ctx_sym(g->ctx, net ? "net" : "shm")) : NULL;
    par[net] = scaled(f, konst(f, 1), ch);
    absorb(f, &r, par[net]);
  }
  msg_ring_form form;
  if (msgs_ring_form(n, &form))
    return emit_ring(f, &form, r, par, by_L);
  struct placing pl = {jit_entry_alloca(g, g->ptr, "msgs"), jit_entry_alloca(g, g->i64, "cap"),
                       jit_entry_alloca(g, g->i64, "used"), jit_const(g, 1), n};
  LLVMValueRef xf = jit_entry_alloca(g, g->i8, "msgs.xf");
  int d = f->depth;
  at(f, d);
  LLVMBuildStore(b, LLVMConstNull(g->ptr), pl.data);
  LLVMBuildStore(b, jit_i64(g, 0), pl.cap);
  LLVMBuildStore(b, jit_i64(g, 0), pl.used);
  LLVMBuildStore(b, LLVMConstInt(g->i8, 0, 0), xf);
  f->place = &pl;
  jv placed = emit(f, n->kid[1]);
  f->place = NULL;
  absorb(f, &r, placed);
  at(f, d);
  LLVMValueRef data = LLVMBuildLoad2(b, g->ptr, pl.data, ""), used = LLVMBuildLoad2(b, g->i64, pl.used, "");
  r = place_on_nodes(f, n, data, used, r);
  at(f, d);
  LLVMTypeRef params[10] = {g->ptr, g->i64, g->f64, g->f64, g->ptr, g->ptr, g->ptr, g->i64, g->ptr, g->ptr};
  LLVMTypeRef ty = LLVMFunctionType(g->f64, params, 10, 0);
  LLVMValueRef fn = extern_fn(g, &g->fn_rt_messages, JIT_RT_MESSAGES, g->f64, params, 10);
  LLVMValueRef args[10] = {data, used, par[0].v, par[1].v,
                           f->chan.price[by_L][0], f->chan.price[by_L][1], f->x, jit_i64(g, (long long)f->nvars),
                           f->tables, xf};
  r.v = LLVMBuildCall2(b, ty, fn, args, 10, "messages");
  r.level = d;
  add_err(f, &r, nonfinite(f, r.v));
  add_xf(f, &r, LLVMBuildLoad2(b, g->i8, xf, ""));
  call_free(g, data);
  return r;
}

/* ======== calls' bodies, each a function of its own ======== */

/* The function made of the body of a callee with its operators and mappings (the key:
 * the first call recorded); fn NULL while it is being made, or when it cannot be. */
typedef struct jit_body_fn {
  const ir_inlined *key;
  size_t calls; /* the distinct nodes of its calls in the module's expressions */
  LLVMValueRef fn;
  bool made;
} jit_body_fn;

static bool same_body(const ir_inlined *a, const ir_inlined *b) {
  if (a->callee != b->callee)
    return false;
  for (int i = 0; i < a->nargs; i++)
    if (a->named[i] != b->named[i])
      return false;
  return true;
}

/* The parameters of a body's function: those of a point function, the terms counted
 * before it and where it puts its own count, then the callee's numbers. */
enum { BODY_X, BODY_TABLES, BODY_XFLAGS, BODY_TERMS, BODY_TERMS_OUT, BODY_NUMBERS };

/* double F(x, tables, xflags, terms, terms_out, numbers…): body, the callee's numbers
 * bound to its last parameters, in a function that shares f's point and its channels'
 * pricing; it counts its terms from `terms` and stores the count in terms_out. */
static LLVMValueRef body_fn_make(jit_fn *f, const ir_inlined *call, const ir_node *body) {
  jit_gen *g = f->g;
  LLVMTypeRef *types = xcalloc((size_t)call->nargs + BODY_NUMBERS, sizeof *types);
  types[BODY_X] = types[BODY_TABLES] = types[BODY_XFLAGS] = types[BODY_TERMS_OUT] = g->ptr;
  types[BODY_TERMS] = g->f64;
  unsigned n = BODY_NUMBERS;
  for (int i = 0; i < call->nargs; i++)
    if (call->values[i])
      types[n++] = g->f64;
  jit_fn fb = {.g = g, .model = f->model, .nvars = f->nvars, .next_id = 1, .err_ty = g->i1,
               .chan = f->chan, .self = body};
  fb.vars = xcalloc(f->nvars + 1, sizeof *fb.vars);
  memcpy(fb.vars, f->vars, f->nvars * sizeof *fb.vars);
  LLVMBasicBlockRef here = LLVMGetInsertBlock(g->b);
  strbuf name = {0};
  sb_printf(&name, "tlop.body.%s", call->callee->name->name);
  fn_open(&fb, name.s, LLVMFunctionType(g->f64, types, n, 0));
  free(name.s);
  free(types);
  fb.terms = LLVMGetParam(fb.fn, BODY_TERMS);
  n = BODY_NUMBERS;
  for (int i = 0; i < call->nargs; i++)
    if (call->values[i])
      push_binding(&fb, call->callee->args[i]->name, val(LLVMGetParam(fb.fn, n++), 0), 0);
  LLVMValueRef fn = fn_close(&fb, body, LLVMGetParam(fb.fn, BODY_TERMS_OUT));
  f->chan = fb.chan;
  LLVMPositionBuilderAtEnd(g->b, here);
  return fn;
}

/* The entry of call's callee and named parameters in g->bodies, added when new. */
static size_t body_index(jit_gen *g, const ir_inlined *call) {
  for (size_t i = 0; i < g->nbodies; i++)
    if (same_body(g->bodies[i].key, call))
      return i;
  jit_body_fn added = {.key = call};
  VEC_PUSH(g->bodies, g->nbodies, g->bodies_cap, added);
  return g->nbodies - 1;
}

/* The function of g->bodies[i] (made once per module), or NULL. */
static LLVMValueRef body_fn(jit_fn *f, size_t i) {
  jit_gen *g = f->g;
  if (g->bodies[i].made)
    return g->bodies[i].fn; /* NULL while being made: a body does not call itself */
  g->bodies[i].made = true;
  const ir_inlined *call = g->bodies[i].key;
  ir_node *body = f->model ? lower_call_body((tlop_model *)f->model, call) : NULL;
  LLVMValueRef fn = body && body->depth <= JIT_MAX_DEPTH ? body_fn_make(f, call, body) : NULL;
  g->bodies[i].fn = fn;
  return fn;
}

/* Counts the distinct nodes of recorded calls under n (g->bodies[…].calls), each once in
 * the module: a body called once is cheaper inlined. */
static void count_calls(jit_gen *g, const ir_node *n) {
  if (ptrmap_get(&g->call_nodes, n))
    return;
  ptrmap_put(&g->call_nodes, n, (void *)n);
  const ir_inlined *call = ir_inlined_call(g->ctx, n);
  if (call) {
    size_t i = body_index(g, call); /* before g->bodies is read: it may move */
    g->bodies[i].calls++;
  }
  for (int k = 0; k < n->nkids; k++)
    count_calls(g, n->kid[k]);
}

/* Where a call's node may be a call of its body's function: in a module that may go to
 * the quick tier (O2 would inline it back at a price), outside any ∥ (whose counts scale
 * its transfers), channels' parameters and placements, and not the body itself. */
static bool may_call_body(const jit_fn *f, const ir_node *n) {
  return f->g->may_quicken && f->npar == f->par_base && !f->bind_id && !f->place && n != f->self;
}

/* The arguments of call, evaluated once at n: with values there (their variables occur
 * in n: a node of other calls lowered elsewhere may be the same), and not where they count
 * terms or place transfers (the body may evaluate them several times, or not at all), nor
 * where they read a table (their extrapolation flags would count where the body does not
 * use them). */
static bool plain_arguments(jit_fn *f, const ir_node *n, const ir_inlined *call) {
  for (int i = 0; i < call->nargs; i++) {
    const ir_node *a = call->values[i];
    if (a && (!ir_uses_all(n, a) || in_place(f, a) || reads_table(f, a)))
      return false;
  }
  return true;
}

/* n, the node of a call ir_inlined recorded, as a call of its body's function: at its
 * arguments' level, or where it is evaluated when it counts terms (threaded through). */
static bool emit_body_call(jit_fn *f, const ir_node *n, jv *out) {
  const ir_inlined *call = may_call_body(f, n) ? ir_inlined_call(f->g->ctx, n) : NULL;
  size_t i = call ? body_index(f->g, call) : 0;
  bool repeated = call && f->g->bodies[i].calls > 1;
  LLVMValueRef fn = repeated && plain_arguments(f, n, call) ? body_fn(f, i) : NULL;
  if (!fn)
    return false;
  jit_gen *g = f->g;
  LLVMBuilderRef b = g->b;
  LLVMValueRef *args = xcalloc((size_t)call->nargs + BODY_NUMBERS, sizeof *args);
  unsigned k = BODY_NUMBERS;
  jv r = val(NULL, 0);
  for (int i = 0; i < call->nargs; i++)
    if (call->values[i]) {
      jv a = emit(f, call->values[i]);
      absorb(f, &r, a);
      r.level = maxl(r.level, a.level);
      args[k++] = a.v;
    }
  bool counts = in_place(f, n);
  if (counts)
    r.level = f->depth;
  at(f, r.level);
  LLVMValueRef xf = jit_entry_alloca(g, g->i8, "xf"), terms = jit_entry_alloca(g, g->f64, "terms");
  args[BODY_X] = f->x, args[BODY_TABLES] = f->tables, args[BODY_XFLAGS] = xf;
  args[BODY_TERMS] = counts ? f->terms : jit_const(g, 0), args[BODY_TERMS_OUT] = terms;
  r.v = LLVMBuildCall2(b, LLVMGlobalGetValueType(fn), fn, args, k, "");
  free(args);
  add_err(f, &r, nonfinite(f, r.v));
  add_xf(f, &r, LLVMBuildLoad2(b, g->i8, xf, ""));
  if (counts)
    f->terms = LLVMBuildLoad2(b, g->f64, terms, "");
  *out = r;
  return true;
}

/* ======== the dispatcher ======== */

static jv emit_node(jit_fn *f, const ir_node *n) {
  switch (n->op) {
  case IR_NUM: return konst(f, n->num);
  case IR_VAR: return emit_var(f, n);
  case IR_IF: return emit_if(f, n);
  case IR_AND:
  case IR_OR: return emit_logic(f, n);
  case IR_SUM: return emit_sum(f, n);
  case IR_MAXOVER: return emit_maxover(f, n);
  case IR_PAR: return emit_par(f, n);
  case IR_CONC: return emit_conc(f, n);
  case IR_L:
  case IR_TX: return emit_L_or_T(f, n);
  case IR_O:
  case IR_PACK: return emit_o_or_p(f, n);
  case IR_GAMMA: return emit_gamma(f, n);
  case IR_STAGE: return emit(f, n->kid[0]);
  case IR_REPEAT: return emit_repeat(f, n);
  case IR_POW: return emit_pow(f, n);
  case IR_SCHED: return emit_sched(f, n);
  case IR_AT: return emit_at(f, n);
  case IR_MSGS: return emit_msgs(f, n);
  case IR_SEND: return emit_send(f, n);
  case IR_FLOWS:
  case IR_FLOW:
    fail(f, "flows stages are left to the interpreter");
    return konst(f, 0);
  default: return emit_scalar(f, n);
  }
}

/* As eval.c's counts_whole: the count arguments of the algorithm calls n is the node of must
 * be whole numbers ≥ 0, else the interpreter reports the point (naming the parameter). */
static jv counts_checked(jit_fn *f, const ir_node *n, jv r) {
  for (const ir_call *c = ir_calls(f->g->ctx, n); c; c = c->next)
    for (size_t i = 0; i < c->nargs; i++) {
      jv a = emit(f, c->args[i].value);
      absorb(f, &r, a);
      at(f, a.level);
      add_err(f, &r, not_whole(f, a.v));
      r.level = maxl(r.level, a.level);
    }
  return r;
}

/* Each node once per context (scalar nodes: the channel parameters in scope; cost nodes:
 * also the ∥ around them), except those in place: their sums count terms, their
 * placements fill steps, each time they are evaluated. */
static jv emit(jit_fn *f, const ir_node *n) {
  if (f->failed)
    return konst(f, 0);
  bool memo = !in_place(f, n);
  uintptr_t key = ir_has_cost(n) ? f->ctx_id : f->bind_id;
  memo_entry *e = memo ? memo_get(f, n, key) : NULL;
  if (e)
    return e->val;
  jv r;
  if (!emit_body_call(f, n, &r))
    r = emit_node(f, n);
  if (n->flags & IR_CALLED)
    r = counts_checked(f, n, r);
  if (memo && !f->failed)
    memo_put(f, n, key, r.level)->val = r;
  return r;
}

static void fn_free(jit_fn *f) {
  for (size_t i = 0; i < f->lv_cap; i++)
    free(f->lv[i].rec);
  free(f->lv);
  free(f->vars);
  free(f->bind);
  free(f->par);
  free(f->memo);
  free(f->slots);
  free(f->alive);
  free(f->tabs);
  ptrmap_free(&f->sums);
  ptrmap_free(&f->tabled);
  ptrmap_free(&f->busy);
}

/* Transfers, overheads, γ and schedules: the look-ups the expression may make. */
static size_t lookups(const ir_node *n, ptrmap *seen) {
  if (ptrmap_get(seen, n) || !ir_has_cost(n))
    return 0;
  ptrmap_put(seen, n, (void *)n);
  size_t c = n->op == IR_L || n->op == IR_TX || n->op == IR_O || n->op == IR_GAMMA || n->op == IR_SCHED;
  for (int i = 0; i < n->nkids; i++)
    c += lookups(n->kid[i], seen);
  return c;
}

/* Starts f's function `name` of type ty (the point, the tables and the flags first):
 * its entry is level 0, where no terms are counted yet. */
static void fn_open(jit_fn *f, const char *name, LLVMTypeRef ty) {
  jit_gen *g = f->g;
  f->fn = LLVMAddFunction(g->mod, name, ty);
  LLVMSetLinkage(f->fn, LLVMInternalLinkage);
  f->x = LLVMGetParam(f->fn, 0);
  f->tables = LLVMGetParam(f->fn, 1);
  f->lv = grow_array(NULL, &f->lv_cap, 4, sizeof *f->lv);
  memset(f->lv, 0, f->lv_cap * sizeof *f->lv);
  f->lv[0].cur = LLVMAppendBasicBlockInContext(g->c, f->fn, "entry");
  f->lv[0].region = region_open(f);
  LLVMPositionBuilderAtEnd(g->b, f->lv[0].cur);
  f->terms = jit_const(g, 0);
}

/* Ends f's function with root's value (NaN where its errors are set), its flags stored
 * in the third parameter and, where terms_out is not NULL, its terms there. NULL when it
 * cannot be compiled (g->why says why). */
static LLVMValueRef fn_close(jit_fn *f, const ir_node *root, LLVMValueRef terms_out) {
  jit_gen *g = f->g;
  LLVMBuilderRef b = g->b;
  ptrmap seen = {0};
  f->outline = lookups(root, &seen) > JIT_INLINE_LOOKUPS;
  ptrmap_free(&seen);
  seen = (ptrmap){0};
  params_first(f, root, &seen);
  ptrmap_free(&seen);
  if (g->may_quicken)
    count_calls(g, root);
  jv r = emit(f, root);
  at(f, 0);
  /* A non-finite result is handed back as it is: the caller tests for that anyway. */
  LLVMBuildStore(b, r.xf[0] ? r.xf[0] : LLVMConstInt(g->i8, 0, 0), LLVMGetParam(f->fn, 2));
  if (terms_out)
    LLVMBuildStore(b, f->terms, terms_out);
  LLVMBuildRet(b, r.err[0] ? LLVMBuildSelect(b, err_set(f, r.err[0]), jit_const(g, NAN), r.v, "") : r.v);
  bool failed = f->failed;
  fn_free(f);
  if (failed) {
    LLVMDeleteFunction(f->fn);
    return NULL;
  }
  return f->fn;
}

/* jit_gen_point's function with errors of type err_ty; *chan: the functions pricing its
 * channels made already (none: zeroed), then those it has; *ors: the i1 `or`s it took. */
static LLVMValueRef point_fn(jit_gen *g, const tlop_model *model, const ir_node *root,
                             const char *const *names, size_t nvars, const char *name,
                             LLVMTypeRef err_ty, struct pricing *chan, size_t *ors) {
  jit_fn f = {.g = g, .model = model, .nvars = nvars, .next_id = 1, .err_ty = err_ty, .chan = *chan};
  f.vars = xcalloc(nvars + 1, sizeof *f.vars);
  for (size_t j = 0; j < nvars; j++)
    f.vars[j] = ctx_sym(g->ctx, names[j]);
  fn_open(&f, name, g->point_ty);
  add_fn_attr(g, f.fn, "alwaysinline", 0);
  LLVMValueRef fn = fn_close(&f, root, NULL);
  *chan = f.chan;
  *ors = f.ors;
  return fn;
}

bool jit_gen_quick(jit_gen *g) {
  size_t n = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(g->mod); fn && !g->quick && g->may_quicken;
       fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        g->quick |= ++n > JIT_QUICK_INSTRUCTIONS;
  return g->quick;
}

LLVMValueRef jit_gen_point(jit_gen *g, const tlop_model *model, const ir_node *root,
                           const char *const *names, size_t nvars, const char *name) {
  if (root->depth > JIT_MAX_DEPTH) {
    snprintf(g->why, sizeof g->why, "the expression is too deep to compile");
    return NULL;
  }
  struct pricing chan = {0};
  size_t ors;
  LLVMValueRef fn = point_fn(g, model, root, names, nvars, name, g->i1, &chan, &ors);
  /* unoptimised, the i1 `or`s cost nothing to compile and less to run than counts */
  if (!fn || ors <= JIT_COUNTED_ERRORS || jit_gen_quick(g))
    return fn;
  /* emitted again with its errors counted, the channels' functions kept */
  LLVMDeleteFunction(fn);
  return point_fn(g, model, root, names, nvars, name, g->i64, &chan, &ors);
}

/* A call of libm's `name` (declared once) in place of instruction i. */
static LLVMValueRef libm_instead(jit_gen *g, LLVMValueRef i, const char *name, LLVMValueRef a) {
  LLVMPositionBuilderBefore(g->b, i);
  return call_libm(g, libm_decl(g, name, g->ty_d_d), g->ty_d_d, a, NULL);
}

/* What FastISel selects in place of i; NULL: i itself. */
static LLVMValueRef selectable(jit_gen *g, LLVMValueRef i) {
  if (LLVMGetInstructionOpcode(i) == LLVMUIToFP && LLVMTypeOf(LLVMGetOperand(i, 0)) == g->i1) {
    LLVMPositionBuilderBefore(g->b, i);
    return LLVMBuildSelect(g->b, LLVMGetOperand(i, 0), jit_const(g, 1), jit_const(g, 0), "");
  }
  LLVMValueRef callee = LLVMIsACallInst(i) ? LLVMGetCalledValue(i) : NULL;
  unsigned id = callee && LLVMIsAFunction(callee) ? LLVMGetIntrinsicID(callee) : 0;
  static const char *const libm[] = {"floor", "ceil", "log2"};
  for (size_t k = 0; id && k < sizeof libm / sizeof *libm; k++) {
    char name[16];
    snprintf(name, sizeof name, "llvm.%s", libm[k]);
    if (id == LLVMLookupIntrinsicID(name, strlen(name)))
      return libm_instead(g, i, libm[k], LLVMGetOperand(i, 0));
  }
  return NULL;
}

void jit_gen_quicken(jit_gen *g) {
  unsigned always = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
  for (LLVMValueRef fn = LLVMGetFirstFunction(g->mod); fn; fn = LLVMGetNextFunction(fn)) {
    LLVMRemoveEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, always);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
        next = LLVMGetNextInstruction(i);
        LLVMValueRef instead = selectable(g, i);
        if (instead) {
          LLVMReplaceAllUsesWith(i, instead);
          LLVMInstructionEraseFromParent(i);
        }
      }
  }
}
