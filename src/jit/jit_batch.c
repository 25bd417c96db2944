/* jit_batch.c — batch kernels: per expression, one JIT'd loop over a whole run of grid
 * points (the per-point call disappears), split across threads; then what the
 * interpreter still owes the caller: the points the compiled code would not vouch for,
 * the diagnostic of the first failing point, and the extrapolation warnings — so a batch
 * evaluated here is indistinguishable from tlop_eval_batch, only faster. */
#include "jit_int.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


/* Tables of at most this many values (sizes and columns: 8 192 rows of 8 τ columns) are
 * baked into the kernels as constants. A bigger one is read through a slot that all
 * kernels and threads share: baked, a 10^6-row table would be copied into the module,
 * its bitcode (hashed for the cache) and the object, and compiled for seconds. */
#define JIT_BAKE_MAX ((size_t)8192 * 9)

/* Threads get at least this many points each: below, starting one costs more. */
#define MIN_POINTS_PER_THREAD 4096

struct tlop_kernels {
  tlop_jit *jit;
  const tlop_platform *pf;
  const tlop_env *env;
  char **names;
  sym *vars;
  size_t nvars;
  struct kernel {
    const tlop_expr *expr;
    jit_kernel_fn fn; /* NULL: the interpreter evaluates this expression */
  } *k;
  size_t n;
  jit_slot *slots; /* the tables too big to bake, as the kernels read them (the platform's) */
};

tlop_status tlop_engine_parse(const char *text, tlop_engine *out) {
  static const char *const names[] = {"auto", "jit", "interp"};
  for (int i = 0; i < 3; i++)
    if (text && !strcmp(text, names[i])) {
      *out = (tlop_engine)i;
      return TLOP_OK;
    }
  return TLOP_ERR_ARG;
}

/* Point i of a batch; with no variables the batch may be NULL, which takes no offset. */
static const double *point_at(const double *pts, size_t i, size_t nvars) {
  return pts ? pts + i * nvars : NULL;
}

tlop_engine tlop_engine_pick(tlop_engine engine, size_t npoints) {
  if (engine != TLOP_ENGINE_AUTO)
    return engine;
  return npoints >= JIT_BREAK_EVEN ? TLOP_ENGINE_JIT : TLOP_ENGINE_INTERP;
}

/* void kernel(const double *pts, i64 n, i64 stride, double *out, u8 *xf,
 * const jit_slot *tables): the point function, inlined, in a loop over the rows of pts. */
static void gen_kernel(jit_gen *g, LLVMValueRef point, const char *name) {
  LLVMBuilderRef b = g->b;
  LLVMTypeRef params[6] = {g->ptr, g->i64, g->i64, g->ptr, g->ptr, g->ptr};
  LLVMValueRef fn = LLVMAddFunction(g->mod, name, LLVMFunctionType(LLVMVoidTypeInContext(g->c), params, 6, 0));
  unsigned noalias = LLVMGetEnumAttributeKindForName("noalias", 7);
  for (unsigned i = 1; i <= 6; i++)
    if (i != 2 && i != 3)
      LLVMAddAttributeAtIndex(fn, i, LLVMCreateEnumAttribute(g->c, noalias, 0));
  LLVMValueRef pts = LLVMGetParam(fn, 0), n = LLVMGetParam(fn, 1), stride = LLVMGetParam(fn, 2);
  LLVMValueRef out = LLVMGetParam(fn, 3), xf = LLVMGetParam(fn, 4), tables = LLVMGetParam(fn, 5);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(g->c, fn, "entry"),
                    loop = LLVMAppendBasicBlockInContext(g->c, fn, "point"),
                    done = LLVMAppendBasicBlockInContext(g->c, fn, "done");
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSGT, n, jit_i64(g, 0), ""), loop, done);
  LLVMPositionBuilderAtEnd(b, loop);
  LLVMValueRef i = LLVMBuildPhi(b, g->i64, "i");
  LLVMValueRef row = LLVMBuildMul(b, i, stride, "");
  LLVMValueRef args[3] = {LLVMBuildInBoundsGEP2(b, g->f64, pts, &row, 1, "x"),
                          tables, LLVMBuildInBoundsGEP2(b, g->i8, xf, &i, 1, "")};
  LLVMValueRef v = LLVMBuildCall2(b, g->point_ty, point, args, 3, "");
  LLVMBuildStore(b, v, LLVMBuildInBoundsGEP2(b, g->f64, out, &i, 1, ""));
  LLVMValueRef next = LLVMBuildAdd(b, i, jit_i64(g, 1), "");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSLT, next, n, ""), loop, done);
  LLVMValueRef in[2] = {jit_i64(g, 0), next};
  LLVMBasicBlockRef from[2] = {entry, loop};
  LLVMAddIncoming(i, in, from, 2);
  LLVMPositionBuilderAtEnd(b, done);
  LLVMBuildRetVoid(b);
}

void tlop_kernels_free(tlop_kernels *k) {
  if (!k)
    return;
  for (size_t j = 0; j < k->nvars; j++)
    free(k->names[j]);
  free(k->names);
  free(k->vars);
  free(k->k);
  free(k->slots);
  free(k);
}

/* The slots of the tables the module reads at run time, filled from the platform's tables. */
static jit_slot *table_slots(const jit_gen *g) {
  if (!g->nslots)
    return NULL;
  jit_slot *slots = xcalloc((size_t)g->nslots, sizeof *slots);
  for (size_t i = 0; i < g->ntabs; i++) {
    const jit_modtab *mt = g->tabs[i];
    if (mt->slot >= 0)
      slots[mt->slot] = (jit_slot){mt->t->m, mt->t->v, mt->t->nrows, mt->t->ncols};
  }
  return slots;
}

tlop_status tlop_jit_compile(tlop_jit *jit, const tlop_expr *const *exprs, size_t nexprs,
                             const tlop_platform *pf, const tlop_env *env,
                             const char *const *names, size_t nvars, tlop_kernels **out) {
  *out = NULL;
  tlop_ctx *ctx = jit->ctx;
  tlop_kernels *k = xcalloc(1, sizeof *k);
  k->jit = jit;
  k->pf = pf;
  k->env = env;
  k->n = nexprs;
  k->nvars = nvars;
  k->k = xcalloc(nexprs + 1, sizeof *k->k);
  k->names = xcalloc(nvars + 1, sizeof *k->names);
  k->vars = xcalloc(nvars + 1, sizeof *k->vars);
  char **fns = xcalloc(nexprs + 1, sizeof *fns);
  size_t *which = xcalloc(nexprs + 1, sizeof *which), nfns = 0;
  void **addrs = xcalloc(nexprs + 1, sizeof *addrs);
  for (size_t j = 0; j < nvars; j++) {
    k->vars[j] = ctx_sym(ctx, names[j]);
    k->names[j] = xstrdup(names[j]);
  }
  jit_gen g;
  jit_gen_init(&g, ctx, jit->llctx, "tlop", pf, env, JIT_BAKE_MAX);
  g.may_quicken = jit->points < JIT_BREAK_EVEN;
  for (size_t i = 0; i < nexprs; i++) {
    k->k[i].expr = exprs[i];
    char name[48];
    snprintf(name, sizeof name, "point.%zu", i);
    /* What the JIT cannot take (no platform for a transfer, an unbound name, …) the
     * interpreter evaluates, and reports on. */
    LLVMValueRef point = ir_has_cost(exprs[i]->node) && !pf ? NULL
                         : jit_gen_point(&g, exprs[i]->model, exprs[i]->node, names, nvars, name);
    if (!point)
      continue;
    strbuf b = {0};
    sb_printf(&b, "tlop_kernel_%zu", i);
    gen_kernel(&g, point, b.s);
    which[nfns] = i;
    fns[nfns++] = b.s;
  }
  tlop_status st = TLOP_OK;
  if (nfns) {
    bool quick = jit_gen_quick(&g);
    if (quick)
      jit_gen_quicken(&g);
    st = jit_load(jit, g.mod, quick, (const char *const *)fns, nfns, addrs);
    g.mod = NULL; /* jit_load consumed it */
    for (size_t j = 0; j < nfns && st == TLOP_OK; j++)
      k->k[which[j]].fn = (jit_kernel_fn)(uintptr_t)addrs[j];
    k->slots = table_slots(&g);
  }
  jit_gen_dispose(&g);
  for (size_t j = 0; j < nfns; j++)
    free(fns[j]);
  free(fns);
  free(which);
  free(addrs);
  if (st != TLOP_OK) {
    tlop_kernels_free(k);
    return st;
  }
  *out = k;
  return TLOP_OK;
}

/* ---- running on threads ---- */

/* Where a run of n points owes the interpreter something (tlop_kernels_owed): its first point
 * whose result is not finite, and for each extrapolation flag the first point that raised
 * it; n for none. */
static void find_marks(const double *out, const uint8_t *xf, size_t n, tlop_kernels_owed *m) {
  *m = (tlop_kernels_owed){n, {n, n, n}};
  unsigned seen = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned fresh = xf[i] & ~seen & 7u;
    if (fresh) {
      for (int bit = 0; bit < 3; bit++)
        if (fresh >> bit & 1)
          m->flag[bit] = i;
      seen |= fresh;
    }
    if (m->bad == n && !isfinite(out[i]))
      m->bad = i;
  }
}

typedef struct work {
  jit_kernel_fn fn;
  const jit_slot *tables;
  const double *pts;
  size_t n, stride;
  double *out;
  uint8_t *xf;
  tlop_kernels_owed *marks; /* NULL: not wanted */
} work;

/* A slice: the kernel, then (on the same thread, while its results are in cache) where the
 * slice needs the interpreter, so that the caller does not scan every point alone. */
static void *run_work(void *p) {
  work *w = p;
  w->fn(w->pts, (int64_t)w->n, (int64_t)w->stride, w->out, w->xf, w->tables);
  if (w->marks)
    find_marks(w->out, w->xf, w->n, w->marks);
  return NULL;
}

static int cores(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 1;
}

/* jit_kernels_run, and with marks the run's marks, found by the threads slice by slice. */
static tlop_status run_threads(tlop_kernels *k, size_t which, const double *pts, size_t n,
                               double *out, uint8_t *xf, tlop_kernels_owed *marks) {
  if (marks)
    *marks = (tlop_kernels_owed){n, {n, n, n}};
  jit_kernel_fn fn = which < k->n ? k->k[which].fn : NULL;
  if (!fn)
    return TLOP_ERR_ARG;
  size_t jobs = (size_t)(k->jit->jobs ? k->jit->jobs : cores());
  size_t most = n / MIN_POINTS_PER_THREAD;
  if (jobs > most)
    jobs = most ? most : 1;
  work *w = xcalloc(jobs, sizeof *w);
  pthread_t *th = xcalloc(jobs, sizeof *th);
  bool *started = xcalloc(jobs, sizeof *started);
  tlop_kernels_owed *slice_marks = marks ? xcalloc(jobs, sizeof *slice_marks) : NULL;
  /* Contiguous slices: each point's result depends on that point only, so any split
   * gives the same bits. */
  for (size_t t = 0, start = 0; t < jobs; t++) {
    size_t len = n / jobs + (t < n % jobs);
    w[t] = (work){fn, k->slots, point_at(pts, start, k->nvars), len, k->nvars, out + start,
                  xf + start, marks ? &slice_marks[t] : NULL};
    start += len;
    if (t > 0)
      started[t] = pthread_create(&th[t], NULL, run_work, &w[t]) == 0;
  }
  run_work(&w[0]);
  for (size_t t = 1; t < jobs; t++) {
    if (started[t])
      pthread_join(th[t], NULL);
    else
      run_work(&w[t]);
  }
  if (marks) /* from the last slice back, so that the earliest slice's marks win */
    for (size_t t = jobs, start = n; t-- > 0;) {
      start -= w[t].n;
      const tlop_kernels_owed *sm = &slice_marks[t];
      if (sm->bad < w[t].n)
        marks->bad = start + sm->bad;
      for (int bit = 0; bit < 3; bit++)
        if (sm->flag[bit] < w[t].n)
          marks->flag[bit] = start + sm->flag[bit];
    }
  free(w);
  free(th);
  free(started);
  free(slice_marks);
  return TLOP_OK;
}

tlop_status jit_kernels_run(tlop_kernels *k, size_t which, const double *pts, size_t n,
                            double *out, uint8_t *xf) {
  return run_threads(k, which, pts, n, out, xf, NULL);
}

/* ---- what the interpreter owes ---- */

static eval_state *interp_at(const tlop_kernels *k, const tlop_expr *e, const double *x) {
  eval_state *es = eval_new(e->model->ctx, k->pf);
  eval_use_expr(es, k->env, e);
  for (size_t j = 0; j < k->nvars; j++)
    eval_bind(es, k->vars[j], x[j]);
  return es;
}

/* The interpreter's warnings for the run: for each cause, its first point, replayed in
 * order, gives the same first example a full interpreted pass would. A cause already
 * reported under warn_once is not replayed: the replay (an interpreted point, its message)
 * costs thousands of points' worth, on every chunk of a sweep beyond a table's last τ. */
/* The least of the three first points that is at least `from` (n: none): the distinct
 * first points in increasing order, as a scan of the run would meet them. */
static size_t first_from(const size_t first[3], size_t from, size_t n) {
  size_t least = n;
  for (int bit = 0; bit < 3; bit++)
    if (first[bit] >= from && first[bit] < least)
      least = first[bit];
  return least;
}

static void warn(const tlop_kernels *k, const tlop_expr *e, const double *pts, size_t n,
                 const tlop_kernels_owed *marks) {
  size_t first[3];
  unsigned pending = warn_pending(e->model->ctx);
  for (int bit = 0; bit < 3; bit++)
    first[bit] = pending >> bit & 1 ? marks->flag[bit] : n;
  eval_state *es = NULL;
  for (size_t i = first_from(first, 0, n); i < n; i = first_from(first, i + 1, n)) {
    if (!es) {
      es = eval_new(e->model->ctx, k->pf);
      eval_use_expr(es, k->env, e);
      eval_use_point_vars(es, k->vars, k->nvars);
    }
    for (size_t j = 0; j < k->nvars; j++)
      eval_bind(es, k->vars[j], pts[i * k->nvars + j]);
    double v;
    if (!eval_node(es, e->node, &v))
      eval_report(es);
  }
  if (es) {
    warn_extrapolations(e->model->ctx, es);
    eval_free(es);
  }
}

tlop_status tlop_kernels_run(const tlop_kernels *k, size_t which, const double *points,
                             size_t npoints, double *out, unsigned char *flags,
                             tlop_kernels_owed *owed) {
  if (which >= k->n || !k->k[which].fn)
    return TLOP_ERR_ARG;
  run_work(&(work){k->k[which].fn, k->slots, points, npoints, k->nvars, out, flags, owed});
  return TLOP_OK;
}

tlop_status tlop_kernels_settle(tlop_kernels *k, size_t which, const double *points,
                                size_t npoints, double *out, unsigned char *xf,
                                tlop_kernels_owed *marks) {
  if (which >= k->n || !k->k[which].fn)
    return TLOP_ERR_ARG;
  const tlop_expr *e = k->k[which].expr;
  tlop_status st = TLOP_OK;
  /* Not finite: the kernel leaves the point to the interpreter, which stops at the first
   * one that fails, with its diagnostic, as tlop_eval_batch does. */
  for (size_t i = marks->bad; i < npoints && st == TLOP_OK; i++) {
    if (isfinite(out[i]))
      continue;
    eval_state *es = interp_at(k, e, point_at(points, i, k->nvars));
    if (!eval_node(es, e->node, &out[i])) {
      eval_report(es);
      st = TLOP_ERR_EVAL;
    }
    xf[i] = (uint8_t)eval_extrapolations(es);
    eval_free(es);
  }
  if (st == TLOP_OK && marks->bad < npoints) /* the interpreter set those points' flags */
    find_marks(out, xf, npoints, marks);
  if (st == TLOP_OK)
    warn(k, e, points, npoints, marks);
  return st;
}

tlop_status tlop_kernels_eval(tlop_kernels *k, size_t which, const double *points,
                              size_t npoints, double *out) {
  if (which >= k->n)
    return TLOP_ERR_ARG;
  if (!k->k[which].fn)
    return tlop_eval_batch(k->k[which].expr, k->pf, k->env, (const char *const *)k->names,
                           k->nvars, points, npoints, out);
  uint8_t *xf = xmalloc(npoints);
  tlop_kernels_owed marks;
  tlop_status st = run_threads(k, which, points, npoints, out, xf, &marks);
  if (st == TLOP_OK)
    st = tlop_kernels_settle(k, which, points, npoints, out, xf, &marks);
  free(xf);
  return st;
}
