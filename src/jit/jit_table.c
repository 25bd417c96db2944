/* jit_table.c — the table look-ups of table.c (locate, the column formula, tab_L) emitted
 * as LLVM IR, operation for operation and in the same order, so the JIT and the
 * interpreter get the same bits. A baked table is constant arrays; a run-time one is read
 * through a slot. A function with many look-ups calls a table's shared functions rather
 * than inlining each (compile time grows with the look-ups inlined). */
#include "jit_int.h"

#include <float.h>
#include <stdlib.h>

static LLVMValueRef load_at(jit_gen *g, LLVMValueRef base, LLVMValueRef idx) {
  LLVMValueRef p = LLVMBuildInBoundsGEP2(g->b, g->f64, base, &idx, 1, "");
  return LLVMBuildLoad2(g->b, g->f64, p, "");
}

static LLVMBasicBlockRef new_block(jit_gen *g, const char *name) {
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(g->b));
  return LLVMAppendBasicBlockInContext(g->c, fn, name);
}

static LLVMValueRef phi2(jit_gen *g, LLVMTypeRef ty, LLVMValueRef a, LLVMBasicBlockRef from_a,
                         LLVMValueRef b, LLVMBasicBlockRef from_b) {
  LLVMValueRef phi = LLVMBuildPhi(g->b, ty, "");
  LLVMValueRef vals[2] = {a, b};
  LLVMBasicBlockRef from[2] = {from_a, from_b};
  LLVMAddIncoming(phi, vals, from, 2);
  return phi;
}

static LLVMValueRef flag(jit_gen *g, LLVMValueRef cond, unsigned bit) {
  return LLVMBuildSelect(g->b, cond, LLVMConstInt(g->i8, bit, 0), LLVMConstInt(g->i8, 0, 0), "");
}

/* table.c's bisection for the row lo with m[lo] <= x < m[lo+1], given m[0] < x < m[last]
 * (any row in range otherwise). A loop, as in C: the x86 back end turns its selects into
 * branches, which grids (sorted sizes, each repeated along the other axes) predict well. */
static LLVMValueRef search(jit_gen *g, const jit_tab *t, LLVMValueRef x) {
  LLVMBuilderRef b = g->b;
  LLVMBasicBlockRef from = LLVMGetInsertBlock(b), head = new_block(g, "search"),
                    step = new_block(g, "search.step"), out = new_block(g, "search.out");
  LLVMValueRef last = LLVMBuildSub(b, t->nrows, jit_i64(g, 1), "");
  LLVMBuildBr(b, head);
  LLVMPositionBuilderAtEnd(b, head);
  LLVMValueRef lo = LLVMBuildPhi(b, g->i64, "lo"), hi = LLVMBuildPhi(b, g->i64, "hi");
  LLVMValueRef width = LLVMBuildSub(b, hi, lo, "");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSGT, width, jit_i64(g, 1), ""), step, out);
  LLVMPositionBuilderAtEnd(b, step);
  LLVMValueRef mid = LLVMBuildAdd(b, lo, LLVMBuildLShr(b, width, jit_i64(g, 1), ""), "");
  LLVMValueRef le = LLVMBuildFCmp(b, LLVMRealOLE, load_at(g, t->m, mid), x, "");
  LLVMValueRef lo2 = LLVMBuildSelect(b, le, mid, lo, ""), hi2 = LLVMBuildSelect(b, le, hi, mid, "");
  LLVMBuildBr(b, head);
  LLVMValueRef lo_in[2] = {jit_i64(g, 0), lo2};
  LLVMValueRef hi_in[2] = {last, hi2};
  LLVMBasicBlockRef bbs[2] = {from, step};
  LLVMAddIncoming(lo, lo_in, bbs, 2);
  LLVMAddIncoming(hi, hi_in, bbs, 2);
  LLVMPositionBuilderAtEnd(b, out);
  return lo;
}

static jit_locus locate_inline(jit_gen *g, const jit_tab *t, LLVMValueRef m) {
  LLVMBuilderRef b = g->b;
  LLVMValueRef zero = jit_const(g, 0), one = jit_i64(g, 1);
  LLVMValueRef n1 = LLVMBuildSub(b, t->nrows, one, "");
  LLVMValueRef last = load_at(g, t->m, n1), first = load_at(g, t->m, jit_i64(g, 0));

  /* Beyond the last row (rare, so a branch): q copies of the last row plus the remainder
   * r, 0 < r <= last; a single row at m = 0 repeats nothing; m = inf saturates. */
  LLVMBasicBlockRef from = LLVMGetInsertBlock(b), big = new_block(g, "tab.beyond"),
                    in = new_block(g, "tab.in");
  LLVMBuildCondBr(b, LLVMBuildFCmp(b, LLVMRealOGT, m, last, ""), big, in);
  LLVMPositionBuilderAtEnd(b, big);
  LLVMValueRef no_len = LLVMBuildFCmp(b, LLVMRealOEQ, last, zero, "");
  LLVMValueRef inf = LLVMBuildFCmp(b, LLVMRealOGT, m, jit_const(g, DBL_MAX), "");
  LLVMValueRef r = LLVMBuildFRem(b, m, last, "");
  r = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOEQ, r, zero, ""), last, r, "");
  LLVMValueRef qf = LLVMBuildFDiv(b, LLVMBuildFSub(b, m, r, ""), last, "");
  qf = jit_call_intrinsic(g, "llvm.floor", LLVMBuildFAdd(b, qf, jit_const(g, 0.5), ""), NULL);
  LLVMValueRef qb = LLVMBuildSelect(b, no_len, zero,
                                    LLVMBuildSelect(b, inf, jit_const(g, DBL_MAX), qf, ""), "");
  LLVMValueRef mb = LLVMBuildSelect(b, LLVMBuildOr(b, no_len, inf, ""), last, r, "");
  LLVMBasicBlockRef big_end = LLVMGetInsertBlock(b);
  LLVMBuildBr(b, in);
  LLVMPositionBuilderAtEnd(b, in);
  LLVMValueRef q = phi2(g, g->f64, zero, from, qb, big_end);
  LLVMValueRef x = phi2(g, g->f64, m, from, mb, big_end);
  LLVMValueRef fl = phi2(g, g->i8, LLVMConstInt(g->i8, 0, 0), from,
                         LLVMConstInt(g->i8, TAB_BEYOND_M, 0), big_end);

  /* Below the first row: the first row (flagged unless it is the beyond rule's remainder);
   * at or past the last: the last row; else the row below x, interpolated unless exact. */
  LLVMValueRef below = LLVMBuildFCmp(b, LLVMRealULE, x, first, "");
  LLVMValueRef flag_below = LLVMBuildAnd(b, LLVMBuildFCmp(b, LLVMRealOLT, x, first, ""),
                                         LLVMBuildFCmp(b, LLVMRealOEQ, q, zero, ""), "");
  fl = LLVMBuildOr(b, fl, flag(g, flag_below, TAB_BELOW_M), "");
  LLVMValueRef at_last = LLVMBuildFCmp(b, LLVMRealOGE, x, last, "");
  LLVMValueRef lo = search(g, t, x);
  LLVMValueRef exact = LLVMBuildFCmp(b, LLVMRealOEQ, load_at(g, t->m, lo), x, "");
  jit_locus p = {0};
  p.lo = LLVMBuildSelect(b, below, jit_i64(g, 0), LLVMBuildSelect(b, at_last, n1, lo, ""), "");
  p.interp = LLVMBuildNot(b, LLVMBuildOr(b, LLVMBuildOr(b, below, at_last, ""), exact, ""), "");
  p.hi = LLVMBuildSelect(b, p.interp, LLVMBuildAdd(b, lo, one, ""), p.lo, "");
  LLVMValueRef m_lo = load_at(g, t->m, p.lo);
  p.dm = LLVMBuildFSub(b, x, m_lo, "");
  p.span = LLVMBuildFSub(b, load_at(g, t->m, p.hi), m_lo, "");
  p.q = q;
  p.flags = fl;
  return p;
}

/* y = v[lo] + (v[hi] - v[lo]) * (dm / span) when interpolating, then q * v[last] + y
 * (table.c's eval, in its order). */
static LLVMValueRef column_inline(jit_gen *g, const jit_tab *t, const jit_locus *p, LLVMValueRef col) {
  LLVMBuilderRef b = g->b;
  LLVMValueRef nc = t->ncols;
  LLVMValueRef y0 = load_at(g, t->v, LLVMBuildAdd(b, LLVMBuildMul(b, p->lo, nc, ""), col, ""));
  LLVMValueRef y1 = load_at(g, t->v, LLVMBuildAdd(b, LLVMBuildMul(b, p->hi, nc, ""), col, ""));
  LLVMValueRef fraction = LLVMBuildFDiv(b, p->dm, p->span, "");
  LLVMValueRef yi = LLVMBuildFMul(b, LLVMBuildFSub(b, y1, y0, ""), fraction, "");
  yi = LLVMBuildFAdd(b, y0, yi, "");
  LLVMValueRef y = LLVMBuildSelect(b, p->interp, yi, y0, "");
  LLVMValueRef n1 = LLVMBuildSub(b, t->nrows, jit_i64(g, 1), "");
  LLVMValueRef ylast = load_at(g, t->v, LLVMBuildAdd(b, LLVMBuildMul(b, n1, nc, ""), col, ""));
  LLVMValueRef yq = LLVMBuildFAdd(b, LLVMBuildFMul(b, p->q, ylast, ""), y, "");
  return LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealUNE, p->q, jit_const(g, 0), ""), yq, y, "");
}

/* Columns 1..T are τ = 1..T: between two columns interpolate (a branch: τ is an integer
 * nearly always); beyond T, L(m,T)·τ/T or L(m,T) by the rule. τ below 1 reads as 1. */
static LLVMValueRef L_inline(jit_gen *g, const jit_tab *t, const jit_locus *p, LLVMValueRef tau,
                             LLVMValueRef *flags) {
  LLVMBuilderRef b = g->b;
  LLVMValueRef one = jit_const(g, 1);
  LLVMValueRef T = LLVMBuildSub(b, t->ncols, jit_i64(g, 1), "");
  LLVMValueRef Td = LLVMBuildSIToFP(b, T, g->f64, "");
  tau = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGE, tau, one, ""), tau, one, "");
  LLVMValueRef beyond = LLVMBuildFCmp(b, LLVMRealOGT, tau, Td, "");
  *flags = flag(g, beyond, TAB_BEYOND_TAU);
  LLVMValueRef k = jit_call_intrinsic(g, "llvm.floor", tau, NULL);
  LLVMValueRef c = LLVMBuildFPToSI(b, LLVMBuildSelect(b, beyond, Td, k, ""), g->i64, "");
  LLVMValueRef a = column_inline(g, t, p, c);
  LLVMValueRef frac = LLVMBuildAnd(b, LLVMBuildNot(b, beyond, ""),
                                   LLVMBuildFCmp(b, LLVMRealUNE, tau, k, ""), "");
  LLVMBasicBlockRef from = LLVMGetInsertBlock(b), between = new_block(g, "tab.between"),
                    join = new_block(g, "tab.L");
  LLVMBuildCondBr(b, frac, between, join);
  LLVMPositionBuilderAtEnd(b, between);
  LLVMValueRef a1 = column_inline(g, t, p, LLVMBuildAdd(b, c, jit_i64(g, 1), ""));
  LLVMValueRef mixed = LLVMBuildFMul(b, LLVMBuildFSub(b, a1, a, ""), LLVMBuildFSub(b, tau, k, ""), "");
  mixed = LLVMBuildFAdd(b, a, mixed, "");
  LLVMBasicBlockRef between_end = LLVMGetInsertBlock(b);
  LLVMBuildBr(b, join);
  LLVMPositionBuilderAtEnd(b, join);
  LLVMValueRef inside = phi2(g, g->f64, a, from, mixed, between_end);
  LLVMValueRef past = g->tau_rule == TLOP_TAU_CLAMP
                          ? a
                          : LLVMBuildFDiv(b, LLVMBuildFMul(b, a, tau, ""), Td, "");
  return LLVMBuildSelect(b, beyond, past, inside, "");
}

/* The doubles' bytes as one constant of raw data: a million-row table is one string to
 * LLVM, not nine million uniqued constants (1.2 GB and 18 s to emit). The code reads it
 * as doubles (GEPs over f64); host and target are the same machine. */
static LLVMValueRef const_array(jit_gen *g, const double *vals, size_t n, const char *name) {
  LLVMValueRef init = LLVMConstStringInContext2(g->c, (const char *)vals, n * sizeof *vals, 1);
  LLVMValueRef gl = LLVMAddGlobal(g->mod, LLVMTypeOf(init), name);
  LLVMSetInitializer(gl, init);
  LLVMSetGlobalConstant(gl, 1);
  LLVMSetLinkage(gl, LLVMPrivateLinkage);
  LLVMSetUnnamedAddress(gl, LLVMGlobalUnnamedAddr);
  LLVMSetAlignment(gl, _Alignof(double));
  return gl;
}

void jit_tab_globals(jit_gen *g, const tab_table *t, LLVMValueRef *m, LLVMValueRef *v) {
  *m = const_array(g, t->m, (size_t)t->nrows, "tab.m");
  *v = const_array(g, t->v, (size_t)t->nrows * (size_t)t->ncols, "tab.v");
}

jit_tab jit_tab_view(jit_gen *g, jit_modtab *mt, LLVMValueRef tables) {
  jit_tab t = {.mt = mt, .tables = tables};
  if (mt->gm) {
    t.m = mt->gm;
    t.v = mt->gv;
    t.nrows = jit_i64(g, mt->t->nrows);
    t.ncols = jit_i64(g, mt->t->ncols);
    return t;
  }
  LLVMValueRef field[JIT_SLOT_FIELDS];
  for (int i = 0; i < JIT_SLOT_FIELDS; i++) {
    LLVMValueRef idx = jit_i64(g, (long long)mt->slot * JIT_SLOT_FIELDS + i);
    LLVMValueRef p = LLVMBuildInBoundsGEP2(g->b, g->i64, tables, &idx, 1, "");
    field[i] = LLVMBuildLoad2(g->b, i < 2 ? g->ptr : g->i64, p, "");
  }
  t.m = field[0], t.v = field[1], t.nrows = field[2], t.ncols = field[3];
  return t;
}

LLVMValueRef jit_entry_alloca(jit_gen *g, LLVMTypeRef ty, const char *name) {
  LLVMBuilderRef b = g->b;
  LLVMBasicBlockRef here = LLVMGetInsertBlock(b);
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(LLVMGetBasicBlockParent(here));
  LLVMValueRef first = LLVMGetFirstInstruction(entry);
  if (first)
    LLVMPositionBuilderBefore(b, first);
  else
    LLVMPositionBuilderAtEnd(b, entry);
  LLVMValueRef a = LLVMBuildAlloca(b, ty, name);
  LLVMPositionBuilderAtEnd(b, here);
  return a;
}

/* ---- the shared functions: locate(m, tables, locus*), L(locus*, τ, tables) → {L, flags},
 * column(locus*, col, tables); internal and never inlined ---- */

static void store_locus(jit_gen *g, LLVMValueRef where, const jit_locus *p) {
  LLVMValueRef v[7] = {p->lo, p->hi, p->dm, p->span, p->q,
                       LLVMBuildZExt(g->b, p->interp, g->i8, ""), p->flags};
  for (unsigned i = 0; i < 7; i++)
    LLVMBuildStore(g->b, v[i], LLVMBuildStructGEP2(g->b, g->locus_ty, where, i, ""));
}

static jit_locus load_locus(jit_gen *g, LLVMValueRef where) {
  LLVMValueRef v[7];
  for (unsigned i = 0; i < 7; i++)
    v[i] = LLVMBuildLoad2(g->b, LLVMStructGetTypeAtIndex(g->locus_ty, i),
                          LLVMBuildStructGEP2(g->b, g->locus_ty, where, i, ""), "");
  jit_locus p = {v[0], v[1], LLVMBuildTrunc(g->b, v[5], g->i1, ""), v[2], v[3], v[4], v[6], where};
  return p;
}

/* Starts a helper: a new internal function; returns the builder's block to come back to. */
static LLVMBasicBlockRef helper(jit_gen *g, const char *name, LLVMTypeRef ty, LLVMValueRef *fn) {
  LLVMBasicBlockRef back = LLVMGetInsertBlock(g->b);
  *fn = LLVMAddFunction(g->mod, name, ty);
  LLVMSetLinkage(*fn, LLVMInternalLinkage);
  unsigned kind = LLVMGetEnumAttributeKindForName("noinline", 8);
  LLVMAddAttributeAtIndex(*fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(g->c, kind, 0));
  LLVMPositionBuilderAtEnd(g->b, LLVMAppendBasicBlockInContext(g->c, *fn, "entry"));
  return back;
}

static void make_helpers(jit_gen *g, jit_modtab *mt) {
  if (mt->fn_locate)
    return;
  LLVMBuilderRef b = g->b;
  LLVMTypeRef p3[3] = {g->f64, g->ptr, g->ptr};
  LLVMBasicBlockRef back = helper(g, "tlop.locate", LLVMFunctionType(LLVMVoidTypeInContext(g->c), p3, 3, 0), &mt->fn_locate);
  jit_tab t = jit_tab_view(g, mt, LLVMGetParam(mt->fn_locate, 1));
  jit_locus p = locate_inline(g, &t, LLVMGetParam(mt->fn_locate, 0));
  store_locus(g, LLVMGetParam(mt->fn_locate, 2), &p);
  LLVMBuildRetVoid(b);

  LLVMTypeRef ret[2] = {g->f64, g->i8}, pl[3] = {g->ptr, g->f64, g->ptr};
  LLVMTypeRef pair = LLVMStructTypeInContext(g->c, ret, 2, 0);
  helper(g, "tlop.L", LLVMFunctionType(pair, pl, 3, 0), &mt->fn_L);
  t = jit_tab_view(g, mt, LLVMGetParam(mt->fn_L, 2));
  p = load_locus(g, LLVMGetParam(mt->fn_L, 0));
  LLVMValueRef flags, v = L_inline(g, &t, &p, LLVMGetParam(mt->fn_L, 1), &flags);
  LLVMValueRef r = LLVMBuildInsertValue(b, LLVMGetUndef(pair), v, 0, "");
  LLVMBuildRet(b, LLVMBuildInsertValue(b, r, flags, 1, ""));

  LLVMTypeRef pc[3] = {g->ptr, g->i64, g->ptr};
  helper(g, "tlop.column", LLVMFunctionType(g->f64, pc, 3, 0), &mt->fn_col);
  t = jit_tab_view(g, mt, LLVMGetParam(mt->fn_col, 2));
  p = load_locus(g, LLVMGetParam(mt->fn_col, 0));
  LLVMBuildRet(b, column_inline(g, &t, &p, LLVMGetParam(mt->fn_col, 1)));
  LLVMPositionBuilderAtEnd(b, back);
}

jit_locus jit_tab_locate(jit_gen *g, const jit_tab *t, LLVMValueRef m) {
  if (!t->outline)
    return locate_inline(g, t, m);
  make_helpers(g, t->mt);
  LLVMValueRef where = jit_entry_alloca(g, g->locus_ty, "locus");
  LLVMValueRef args[3] = {m, t->tables, where};
  LLVMBuildCall2(g->b, LLVMGlobalGetValueType(t->mt->fn_locate), t->mt->fn_locate, args, 3, "");
  jit_locus p = {.where = where};
  p.flags = LLVMBuildLoad2(g->b, g->i8, LLVMBuildStructGEP2(g->b, g->locus_ty, where, 6, ""), "");
  return p;
}

/* The phi of a locus field (absent from both or from neither). */
static LLVMValueRef join_field(jit_gen *g, LLVMValueRef a, LLVMBasicBlockRef from_a, LLVMValueRef b,
                               LLVMBasicBlockRef from_b) {
  return a ? phi2(g, LLVMTypeOf(a), a, from_a, b, from_b) : NULL;
}

jit_locus jit_tab_locate_unless(jit_gen *g, const jit_tab *t, LLVMValueRef m,
                                LLVMValueRef known_m, const jit_locus *known) {
  LLVMBuilderRef b = g->b;
  LLVMBasicBlockRef from = LLVMGetInsertBlock(b), search = new_block(g, "tab.locate"),
                    join = new_block(g, "tab.located");
  LLVMBuildCondBr(b, LLVMBuildFCmp(b, LLVMRealOEQ, m, known_m, ""), join, search);
  LLVMPositionBuilderAtEnd(b, search);
  jit_locus p = jit_tab_locate(g, t, m);
  LLVMBasicBlockRef search_end = LLVMGetInsertBlock(b);
  LLVMBuildBr(b, join);
  LLVMPositionBuilderAtEnd(b, join);
  jit_locus r = {
      .lo = join_field(g, known->lo, from, p.lo, search_end),
      .hi = join_field(g, known->hi, from, p.hi, search_end),
      .interp = join_field(g, known->interp, from, p.interp, search_end),
      .dm = join_field(g, known->dm, from, p.dm, search_end),
      .span = join_field(g, known->span, from, p.span, search_end),
      .q = join_field(g, known->q, from, p.q, search_end),
      .flags = join_field(g, known->flags, from, p.flags, search_end),
      .where = join_field(g, known->where, from, p.where, search_end),
  };
  return r;
}

LLVMValueRef jit_tab_column(jit_gen *g, const jit_tab *t, const jit_locus *p, LLVMValueRef col) {
  if (!p->where)
    return column_inline(g, t, p, col);
  LLVMValueRef args[3] = {p->where, col, t->tables};
  return LLVMBuildCall2(g->b, LLVMGlobalGetValueType(t->mt->fn_col), t->mt->fn_col, args, 3, "");
}

LLVMValueRef jit_tab_L(jit_gen *g, const jit_tab *t, const jit_locus *p, LLVMValueRef tau,
                       LLVMValueRef *flags) {
  if (!p->where)
    return L_inline(g, t, p, tau, flags);
  LLVMValueRef args[3] = {p->where, tau, t->tables};
  LLVMValueRef r = LLVMBuildCall2(g->b, LLVMGlobalGetValueType(t->mt->fn_L), t->mt->fn_L, args, 3, "");
  *flags = LLVMBuildExtractValue(g->b, r, 1, "");
  return LLVMBuildExtractValue(g->b, r, 0, "");
}
