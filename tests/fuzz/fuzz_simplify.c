/* fuzz_simplify.c — structure-aware libFuzzer target: the input bytes are the choices of
 * a small grammar-driven generator that writes a well-formed, well-kinded .tlop cost
 * expression (numbers, the variables m, S (sizes), P, k (counts) with values, + − * / ^,
 * min, max, ceil, floor, log2, let, if, sums and stages with small bounds, repeat, L and o
 * transfers on both channels of the analytic `generic` platform, ∥ and channel-scoped ∥).
 * It then checks, on that platform:
 *
 *   simplified ≡ original   tlop_simplify (with or without --expand, --unroll, a named
 *                           platform, substituted values, and assumptions that the values
 *                           satisfy), both evaluated with tlop_eval: relative error ≤ 1e-9
 *                           plus 1e-14 s (close_enough) unless the original fails (a
 *                           simplified form may drop a failing term; it may not fail where
 *                           the original evaluates). A difference at a ceil, floor or
 *                           comparison that rounding puts on the other side of its boundary
 *                           is dismissed when the same input, written with those nudged off
 *                           their boundaries, agrees (nudged_agrees; a transfer's size is
 *                           such a boundary, gen_transfer_size); so is a τ a rounding
 *                           below 1 (tau_rounded), a size a rounding below 0
 *                           (size_rounded), a difference within the two forms' own
 *                           rounding errors, estimated with directed rounding, or
 *                           where the original so rounded overflows (within_rounding),
 *                           a division by 0 or a log of 0 where the original divides
 *                           by, or takes the log of, a rounding residue
 *                           (rounding_quotient; agrees_nearby where a factor 0 or a
 *                           max hides it), an overflow where the original is within
 *                           1e18 of it (near_top),
 *                           and an overflow of the input's own in a loop the original
 *                           runs no times (overflow_not_run);
 *   print round trip        the simplified form printed as .tlop source parses back and
 *                           evaluates to the same value, and prints the same again;
 *   idempotence             simplifying the simplified form prints the same;
 *   JIT ≡ interpreter       built as fuzz_jit (-DTLOP_FUZZ_JIT): the original compiled by
 *                           the JIT gives the interpreter's status and value (check_jit).
 *
 * Bytes are consumed one per choice; when they run out every choice is 0, which always
 * picks a leaf, so every input gives a finite expression. With -DFUZZ_SIMPLIFY_MAIN this
 * file also builds a plain program that prints the expressions of the files it is given
 * (tests/fuzz/README.md: reproducing a finding). */
#include "fuzz_common.h"

#include <fenv.h>
#include <math.h>
#include <stdarg.h>

#define MAX_DEPTH 7
#define MAX_TEXT 65536
#define REL_TOL 1e-9
#define ABS_TOL 1e-14 /* seconds */

/* ======================= the generator ======================= */

/* NUDGED writes ceil, floor and comparisons off their boundaries, and the literals 0.5 and
 * 1.5 a little off, so that no 2^0.5·2^0.5 is 2 up to a residue that simplify, exact, makes
 * 0 (nudged_agrees); ONE_TRIP runs every repeat, sum and stages at least once
 * (overflow_not_run). */
enum { AS_GIVEN, NUDGED, ONE_TRIP };

typedef struct {
  const uint8_t *p;
  size_t n;
  char out[MAX_TEXT];
  size_t len;
  int overflow;
  /* count-kinded names in scope (sum indices, let bindings) */
  const char *scope[16];
  int nscope;
  int fresh; /* next index name */
  int variant;        /* AS_GIVEN, NUDGED or ONE_TRIP: the same choices written otherwise */
} gen;

static unsigned pick(gen *g, unsigned n) {
  if (!g->n || n <= 1)
    return 0;
  unsigned v = *g->p++;
  g->n--;
  return v % n;
}

static void emit(gen *g, const char *fmt, ...) {
  if (g->overflow)
    return;
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(g->out + g->len, sizeof g->out - g->len, fmt, ap);
  va_end(ap);
  if (k < 0 || (size_t)k >= sizeof g->out - g->len)
    g->overflow = 1;
  else
    g->len += (size_t)k;
}

/* The text written since `from`, taken out of the output (to be written again around). */
static char *cut(gen *g, size_t from) {
  size_t n = g->len > from ? g->len - from : 0;
  char *s = malloc(n + 1);
  memcpy(s, g->out + from, n);
  s[n] = 0;
  g->len = from;
  g->out[from] = 0;
  return s;
}

/* ceil(X) of the text X written since `from`; nudged: ceil(X − 1e-9·(1 + |X|)), which is the
 * same unless X is an integer up to rounding, where it no longer depends on the rounding. */
static void wrap_ceil(gen *g, size_t from, int unicode) {
  char *x = cut(g, from);
  if (g->variant == NUDGED)
    emit(g, "ceil((%s) - 1e-9 * (1 + abs(%s)))", x, x);
  else
    emit(g, unicode ? "⌈%s⌉" : "ceil(%s)", x);
  free(x);
}

static void wrap_floor(gen *g, size_t from) {
  char *x = cut(g, from);
  if (g->variant == NUDGED)
    emit(g, "floor((%s) + 1e-9 * (1 + abs(%s)))", x, x);
  else
    emit(g, "floor(%s)", x);
  free(x);
}

/* A op B; nudged, with a tolerance, so that operands equal up to rounding compare equal. */
static void emit_compare(gen *g, const char *a, unsigned op, const char *b) {
  static const char *const ops[] = {" < ", " <= ", " > ", " >= ", " == ", " != "};
  if (g->variant != NUDGED) {
    emit(g, "%s%s%s", a, ops[op], b);
    return;
  }
  size_t n = strlen(a) + strlen(b) + 64;
  char *tol = malloc(n);
  snprintf(tol, n, "1e-9 * (1 + abs(%s) + abs(%s))", a, b);
  switch (op) {
  case 0: emit(g, "(%s) < (%s) - %s", a, b, tol); break;
  case 1: emit(g, "(%s) <= (%s) + %s", a, b, tol); break;
  case 2: emit(g, "(%s) > (%s) + %s", a, b, tol); break;
  case 3: emit(g, "(%s) >= (%s) - %s", a, b, tol); break;
  case 4: emit(g, "abs((%s) - (%s)) <= %s", a, b, tol); break;
  default: emit(g, "abs((%s) - (%s)) > %s", a, b, tol); break;
  }
  free(tol);
}

static const char *const index_names[] = {"i", "j", "q", "r", "u", "w", "x", "y"};

static void gen_count(gen *g, int depth);
static void gen_size(gen *g, int depth);
static void gen_time(gen *g, int depth);

/* A count that is at least 1: for τ and for ∥. */
static void gen_tau(gen *g, int depth) {
  switch (pick(g, 4)) {
  case 0: gen_count(g, depth); break;
  case 1: emit(g, "max(1, "); gen_count(g, depth + 1); emit(g, ")"); break;
  case 2: emit(g, "P"); break;
  default: emit(g, "2^"); gen_count(g, MAX_DEPTH); break;
  }
}

static void gen_count(gen *g, int depth) {
  static const char *const lits[] = {"1", "2", "3", "0", "4", "7", "16", "0.5", "1.5", "10"};
  unsigned c = depth >= MAX_DEPTH ? pick(g, 3) : pick(g, 17);
  switch (c) {
  case 0: {
    const char *lit = lits[pick(g, 10)];
    emit(g, "%s%s", lit, g->variant == NUDGED && strchr(lit, '.') ? "000001" : "");
    return;
  }
  case 1: emit(g, pick(g, 2) ? "k" : "P"); return;
  case 2:
    if (g->nscope)
      emit(g, "%s", g->scope[pick(g, (unsigned)g->nscope)]);
    else
      emit(g, "P");
    return;
  case 3: emit(g, "("); gen_count(g, depth + 1); emit(g, " + "); gen_count(g, depth + 1); emit(g, ")"); return;
  case 4: emit(g, "("); gen_count(g, depth + 1); emit(g, " - "); gen_count(g, depth + 1); emit(g, ")"); return;
  case 5: emit(g, "("); gen_count(g, depth + 1); emit(g, pick(g, 2) ? " * " : " × "); gen_count(g, depth + 1); emit(g, ")"); return;
  case 6: emit(g, "("); gen_count(g, depth + 1); emit(g, " / "); gen_tau(g, depth + 1); emit(g, ")"); return;
  case 7: emit(g, "2^"); gen_count(g, MAX_DEPTH); return;
  case 8: emit(g, "("); gen_count(g, depth + 1); emit(g, ")^%u", pick(g, 3) + 1); return;
  case 9: emit(g, pick(g, 2) ? "min(" : "max("); gen_count(g, depth + 1); emit(g, ", "); gen_count(g, depth + 1); emit(g, ")"); return;
  case 10: {
    int unicode = !pick(g, 2);
    size_t at = g->len;
    gen_count(g, depth + 1);
    wrap_ceil(g, at, unicode);
    return;
  }
  case 11: {
    size_t at = g->len;
    gen_count(g, depth + 1);
    wrap_floor(g, at);
    return;
  }
  case 12: emit(g, "log2("); gen_tau(g, depth + 1); emit(g, ")"); return;
  case 13: {
    size_t at = g->len;
    emit(g, "log2("); gen_tau(g, depth + 1); emit(g, ")");
    wrap_ceil(g, at, 0);
    return;
  }
  case 14: {
    size_t at = g->len;
    gen_size(g, depth + 1); emit(g, " / "); emit(g, pick(g, 2) ? "S" : "1 KiB");
    wrap_ceil(g, at, 0);
    return;
  }
  case 15: emit(g, "(m / S)"); return;
  default: emit(g, "abs("); gen_count(g, depth + 1); emit(g, ")"); return;
  }
}

static void gen_size(gen *g, int depth) {
  static const char *const lits[] = {"1 KiB", "8 KiB", "100 B", "1 MiB", "3 kB", "64 B", "0 B"};
  unsigned c = depth >= MAX_DEPTH ? pick(g, 2) : pick(g, 9);
  switch (c) {
  case 0: emit(g, pick(g, 2) ? "S" : "m"); return;
  case 1: emit(g, "%s", lits[pick(g, 7)]); return;
  case 2: emit(g, "("); gen_size(g, depth + 1); emit(g, " + "); gen_size(g, depth + 1); emit(g, ")"); return;
  case 3: emit(g, "("); gen_count(g, depth + 1); emit(g, " * "); gen_size(g, depth + 1); emit(g, ")"); return;
  case 4: emit(g, "("); gen_size(g, depth + 1); emit(g, " / "); gen_tau(g, depth + 1); emit(g, ")"); return;
  case 5: emit(g, pick(g, 2) ? "min(" : "max("); gen_size(g, depth + 1); emit(g, ", "); gen_size(g, depth + 1); emit(g, ")"); return;
  case 6: emit(g, "(m / 2^"); gen_count(g, MAX_DEPTH); emit(g, ")"); return;
  case 7: emit(g, "("); gen_size(g, depth + 1); emit(g, " - "); gen_size(g, depth + 1); emit(g, ")"); return;
  default: emit(g, "(2^"); gen_count(g, MAX_DEPTH); emit(g, " * m)"); return;
  }
}

static void push_scope(gen *g, const char *name) {
  if (g->nscope < 16)
    g->scope[g->nscope++] = name;
}

/* A time in which `name` is bound (a sum's or stages' index, a let). */
static void gen_time_binding(gen *g, const char *name, int depth) {
  int saved = g->nscope;
  push_scope(g, name);
  gen_time(g, depth);
  g->nscope = saved;
}

/* A transfer's size; nudged, rounded to whole bytes and at least 0 B: a size the
 * simplified form computes distributed, 49298.7·⌊P⌋ − 295792·… at ⌊P⌋ = 6 times m·2^P,
 * may come out a rounding below 0 (size-rounding-2) or 0.01 B above it (size-rounding-3)
 * where the original's is 0. The rounding's offset, not a half, keeps halves of a byte
 * off its boundaries. */
static void gen_transfer_size(gen *g, int depth) {
  if (g->variant == NUDGED)
    emit(g, "max(floor((");
  gen_size(g, depth);
  if (g->variant == NUDGED)
    emit(g, ") / 1 B + 0.5003) * 1 B, 0 B)");
}

static void gen_time(gen *g, int depth) {
  unsigned c = depth >= MAX_DEPTH ? pick(g, 3) : pick(g, 20);
  switch (c) {
  case 0:
    emit(g, pick(g, 4) == 3 ? "L[net](" : "L(");
    gen_transfer_size(g, depth + 1); emit(g, ", "); gen_tau(g, depth + 1); emit(g, ")");
    return;
  case 1: emit(g, pick(g, 3) == 2 ? "o[net](" : "o("); gen_transfer_size(g, depth + 1); emit(g, ")"); return;
  case 2: emit(g, "%s", pick(g, 2) ? "1 us" : "T(m)"); return;
  case 3:
  case 4: emit(g, "("); gen_time(g, depth + 1); emit(g, " + "); gen_time(g, depth + 1); emit(g, ")"); return;
  case 5: emit(g, "("); gen_count(g, depth + 1); emit(g, pick(g, 2) ? " * " : " · "); gen_time(g, depth + 1); emit(g, ")"); return;
  case 6: emit(g, "("); gen_time(g, depth + 1); emit(g, " / "); gen_tau(g, depth + 1); emit(g, ")"); return;
  case 7: emit(g, pick(g, 2) ? "min(" : "max("); gen_time(g, depth + 1); emit(g, ", "); gen_time(g, depth + 1); emit(g, ")"); return;
  case 8:
  case 9: {
    static const char *const par[] = {" ∥ ", " || ", " ∥[shm] ", " ∥[net] "};
    emit(g, "("); gen_tau(g, depth + 1); emit(g, "%s", par[pick(g, 4)]); gen_time(g, depth + 1); emit(g, ")");
    return;
  }
  case 10:
  case 11: {
    /* sum i = lo .. hi : body, with small bounds */
    const char *ix = index_names[g->fresh++ % 8];
    const char *sum = pick(g, 2) ? "sum" : "Σ";
    unsigned lo = pick(g, 2);
    emit(g, "(%s %s = %u .. ", sum, ix, lo);
    if (g->variant == ONE_TRIP)
      emit(g, "max(%u, ", lo);
    switch (pick(g, 5)) {
    case 0: emit(g, "ceil(log2(P)) - 1"); break;
    case 1: emit(g, "P - 1"); break;
    case 2: emit(g, "k"); break;
    case 3: emit(g, "%u", pick(g, 6)); break;
    default: emit(g, "min(P, 5)"); break;
    }
    emit(g, g->variant == ONE_TRIP ? ") : " : " : ");
    gen_time_binding(g, ix, depth + 1);
    emit(g, ")");
    return;
  }
  case 12: {
    const char *ix = index_names[g->fresh++ % 8];
    emit(g, "(stages %s = 0 .. %s { ", ix,
         pick(g, 2) ? (g->variant == ONE_TRIP ? "max(0, log2(P) - 1)" : "log2(P) - 1") : "2");
    gen_time_binding(g, ix, depth + 1);
    emit(g, " })");
    return;
  }
  case 13:
    emit(g, "(repeat %s { ", pick(g, 2) ? (g->variant == ONE_TRIP ? "max(1, P - 1)" : "P - 1") : "3");
    gen_time(g, depth + 1);
    emit(g, " })");
    return;
  case 14: {
    emit(g, "(if ");
    size_t at = g->len;
    gen_count(g, depth + 1);
    char *a = cut(g, at);
    unsigned op = pick(g, 6);
    at = g->len;
    gen_count(g, depth + 1);
    char *b = cut(g, at);
    emit_compare(g, a, op, b);
    free(a);
    free(b);
    emit(g, " then "); gen_time(g, depth + 1); emit(g, " else "); gen_time(g, depth + 1); emit(g, ")");
    return;
  }
  case 15: {
    const char *x = index_names[g->fresh++ % 8];
    emit(g, "(let %s = ", x);
    gen_count(g, depth + 1);
    emit(g, " in ");
    gen_time_binding(g, x, depth + 1);
    emit(g, ")");
    return;
  }
  case 16: emit(g, "(P ∥ exch(m / P))"); return;
  case 17: {
    /* transfers at once: the same size on one channel (their τ add up), or two channels
     * (no contention: the max). Different sizes on one channel need the progression
     * model, which tlop does not evaluate yet. */
    size_t at = g->len;
    emit(g, "(L(");
    gen_transfer_size(g, depth + 1);
    size_t size_end = g->len;
    emit(g, ", "); gen_tau(g, depth + 1);
    if (g->overflow)
      return;
    if (pick(g, 2)) {
      size_t n = size_end - (at + 3);
      char *size = malloc(n + 1);
      memcpy(size, g->out + at + 3, n);
      size[n] = 0;
      emit(g, ") ∥ L(%s, ", size);
      free(size);
    } else {
      emit(g, ") ∥ L[net](");
      gen_transfer_size(g, depth + 1);
      emit(g, ", ");
    }
    gen_tau(g, depth + 1); emit(g, "))");
    return;
  }
  default: emit(g, "(2^"); gen_count(g, MAX_DEPTH); emit(g, " ∥ T("); gen_transfer_size(g, depth + 1); emit(g, "))"); return;
  }
}

/* ======================= the checks ======================= */

static const char prelude[] =
    "fn T(m: size) = o(m) + 2 * L(m, 1);\n"
    "fn exch(m: size) = o(m) + 2 * L(m, 1);\n";

typedef struct {
  double m, S, P, k;
  int pow2; /* P is a power of two: P = 2^p may be assumed */
} values;

/* A property with a name (tests/fuzz/known-bugs lists those an open bug keeps off). */
#define PROPERTY(name, cond, db, ...)                                                       \
  do {                                                                                      \
    if (!fuzz_known(name))                                                                  \
      FUZZ_CHECK(cond, db, "[" name "] " __VA_ARGS__);                                      \
  } while (0)

/* Equal within REL_TOL, give or take ABS_TOL seconds. Simplification reassociates, so a
 * difference of operands that cancel (an expanded (P − 1)^7·1 µs at P = 1; a size such as
 * 0.5·m/P − m/128 that is 0 but for 1e-12 B of rounding) differs by rounding noise that is
 * relative to the operands, not to the result. 1e-14 s is far below anything a wrong
 * simplification makes (one byte more or one τ more costs at least ~1e-10 s on generic). */
static int close_enough(double a, double b) {
  if (a == b)
    return 1;
  if (isnan(a) || isnan(b) || isinf(a) || isinf(b))
    return 0;
  double scale = fmax(fabs(a), fabs(b));
  return fabs(a - b) <= REL_TOL * scale + ABS_TOL;
}

/* JIT ≡ interpreter (fuzz_jit, built from this file with -DTLOP_FUZZ_JIT): `e` compiled
 * with the variables m, S, P, k as the point, evaluated there through tlop_kernels_eval,
 * gives the interpreter's status and, where that is OK, its value within 1e-12 relative
 * (the JIT's promise: the same operations in the same order). A point the code does not
 * vouch for goes back to the interpreter, so a diagnostic there is the interpreter's. */
#ifdef TLOP_FUZZ_JIT
#include "tlop_jit.h"
#define JIT_REL_TOL 1e-12

static void check_jit(tlop_ctx *ctx, const tlop_expr *e, const tlop_platform *pf,
                      const tlop_env *env, const values *val, tlop_status interp_status,
                      double interp, const char *text, fuzz_diags *db) {
  static const char *const names[] = {"m", "S", "P", "k"};
  const double point[] = {val->m, val->S, val->P, val->k};
  tlop_jit *jit = NULL;
  FUZZ_CHECK(tlop_jit_new(ctx, &jit) == TLOP_OK, db, "the JIT does not start");
  tlop_jit_set_cache(jit, 0, NULL);
  tlop_jit_set_jobs(jit, 1);
  /* both tiers: a large expression expecting few points compiles unoptimised */
  tlop_jit_expect_points(jit, strlen(text) % 2 ? 0 : SIZE_MAX);
  tlop_kernels *k = NULL;
  tlop_status st = tlop_jit_compile(jit, &e, 1, pf, env, names, 4, &k);
  FUZZ_CHECK(st == TLOP_OK, db, "the JIT does not compile (%s): %s", tlop_status_name(st), text);
  double out = 0;
  st = tlop_kernels_eval(k, 0, point, 1, &out);
  FUZZ_CHECK(st == interp_status, db, "the JIT says %s, the interpreter %s: %s",
             tlop_status_name(st), tlop_status_name(interp_status), text);
  FUZZ_CHECK(st != TLOP_OK || out == interp ||
                 fabs(out - interp) <= JIT_REL_TOL * fmax(fabs(out), fabs(interp)),
             db, "the JIT gives %.17g, the interpreter %.17g: %s", out, interp, text);
  tlop_kernels_free(k);
  tlop_jit_free(jit);
}
#endif

/* The first bytes: options and values; the rest: the expression. */
static gen *generate(const uint8_t *data, size_t size, int variant, unsigned *flags, values *val) {
  gen *g = calloc(1, sizeof *g);
  g->p = data;
  g->n = size;
  g->variant = variant;
  *flags = pick(g, 256);
  static const double ms[] = {65536, 1, 1024, 8192, 1048576, 3e6, 100, 0, 12345, 4194304};
  static const double Ss[] = {8192, 1024, 4096, 512};
  /* P at most 16: with P = 64, m/2^P − 2^P·m + m is 0 in doubles (m/2^128 is absorbed), the
   * exact algebra of simplify gives m/2^128, and a ceil on top turns that into a whole
   * transfer: a difference of rounding, not of simplification. */
  static const double Ps[] = {8, 1, 2, 3, 4, 5, 12, 16, 6, 7};
  static const double ks[] = {4, 1, 2, 3, 7};
  val->m = ms[pick(g, 10)];
  val->S = Ss[pick(g, 4)];
  val->P = Ps[pick(g, 10)];
  val->k = ks[pick(g, 5)];
  val->pow2 = val->P == 1 || val->P == 2 || val->P == 4 || val->P == 8 || val->P == 16;
  gen_time(g, 0);
  return g;
}

/* Does the text have a ceil, a floor or a comparison, where a rounding difference can
 * become a difference of a whole unit? */
static int has_boundary(const char *text) {
  static const char *const marks[] = {"ceil(", "floor(", "⌈", " < ", " <= ", " > ", " >= ",
                                      " == ", " != "};
  for (size_t i = 0; i < sizeof marks / sizeof *marks; i++)
    if (strstr(text, marks[i]))
      return 1;
  return 0;
}

/* Where the diagnostics stand, to drop those of a check's own evaluations after it. */
typedef struct {
  size_t len;
  int errors, warnings, notes;
} diags_mark;

static diags_mark diags_here(const fuzz_diags *db) {
  return (diags_mark){db->len, db->errors, db->warnings, db->notes};
}

static void diags_rewind(fuzz_diags *db, diags_mark at) {
  db->len = at.len;
  db->text[at.len] = 0;
  db->errors = at.errors, db->warnings = at.warnings, db->notes = at.notes;
}

/* Whether an evaluation since `at` failed by leaving the range of doubles. */
static int overflowed_since(const fuzz_diags *db, diags_mark at) {
  return strstr(db->text + at.len, "overflows to infinity") != NULL;
}

/* The input generated again as `variant` (the same choices written otherwise), parsed;
 * NULL when it does not parse. With `verbose`, printed under `what`. */
static tlop_expr *regenerate(const uint8_t *data, size_t size, int variant, tlop_model *model,
                             const tlop_env *env, int verbose, const char *what) {
  unsigned flags;
  values val;
  gen *g = generate(data, size, variant, &flags, &val);
  tlop_expr *e = NULL;
  if (g->overflow || tlop_expr_parse(model, g->out, env, &e) != TLOP_OK)
    e = NULL;
  if (verbose)
    printf("%s:\n%s\n", what, g->out);
  free(g);
  return e;
}

/* A mismatch at a ceil, floor or comparison whose argument is an integer up to rounding
 * (ceil(0.5000000000000001·196608/1024) = 97 where simplify computes log2(2^0.5) = 1/2
 * exactly and gets 96) is rounding, not a wrong simplification. The same input written
 * with those nudged off their boundaries (generate(…, NUDGED): the same choices) must
 * then agree; 1 when it does, and the mismatch is dismissed. */
static int nudged_agrees(const uint8_t *data, size_t size, tlop_model *model,
                         const tlop_platform *pf, const tlop_env *env,
                         const tlop_simp_opts *opts, int verbose, fuzz_diags *db) {
  diags_mark at = diags_here(db);
  tlop_expr *orig = regenerate(data, size, NUDGED, model, env, verbose, "nudged off the boundaries");
  tlop_expr *simp = NULL;
  double v0, v1;
  /* both fail off the boundary too: the original evaluated by a rounding residue, where
   * k − (2^0.5·log₂P)² = 1 missed and spared it a division by 0 (boundary-fails-1) */
  int fails0 = orig && tlop_eval(orig, pf, env, &v0) != TLOP_OK;
  int fails1 = orig && (tlop_simplify(orig, opts, &simp) != TLOP_OK ||
                        tlop_eval(simp, pf, env, &v1) != TLOP_OK);
  int agrees = orig && fails0 == fails1 && (fails0 || close_enough(v0, v1));
  if (verbose)
    printf("nudged: %s\n", agrees ? "agrees" : "differs too");
  diags_rewind(db, at); /* not the input's diagnostics */
  return agrees;
}

/* An overflow of the input's own, in a repeat, sum or stages that the original runs no
 * times: the simplified form takes the body out, (P − 1)·body, which evaluates it at P = 1
 * (0·X fails where X does) and meets m·2^2^(3k) out of range (overflow-not-run-1). The
 * simplifier takes a body out when it is defined everywhere, and counts a size in range.
 * Range, not simplification, when the same input with every loop run at least once
 * (generate(…, ONE_TRIP)) overflows too. */
static int overflow_not_run(const uint8_t *data, size_t size, tlop_model *model,
                            const tlop_platform *pf, const tlop_env *env, fuzz_diags *db) {
  diags_mark at = diags_here(db);
  tlop_expr *once = regenerate(data, size, ONE_TRIP, model, env, 0, NULL);
  double v;
  int overflows = once && tlop_eval(once, pf, env, &v) != TLOP_OK && overflowed_since(db, at);
  diags_rewind(db, at);
  return overflows;
}

/* A τ that the simplified form computes in another order, (1/i)·i, may come out a
 * rounding below 1 where the original's is 1 (tau-rounding-1): the check τ ≥ 1 is a
 * boundary like a ceil's, and a τ within 1e-9 below 1 is rounding, not simplification. */
static int tau_rounded(const char *diags) {
  const char *t = strstr(diags, "concurrency τ = ");
  if (!t)
    return 0;
  double tau = strtod(t + strlen("concurrency τ = "), NULL);
  return tau < 1 && tau > 1 - 1e-9;
}

/* A size that the simplified form computes distributed, ((P − 7)/2^1.5)·m as
 * 0.3535·P·m − 2.4749·m, may come out a rounding below 0 where the original's is 0
 * (size-rounding-1): the check m ≥ 0 is a boundary too, and a size within 1e-6 B below 0
 * is rounding, not simplification. */
static int size_rounded(const char *diags) {
  const char *t = strstr(diags, "message size ");
  if (!t)
    return 0;
  char *end;
  double m = strtod(t + strlen("message size "), &end);
  return strncmp(end, " B is negative", 14) == 0 && m < 0 && m > -1e-6;
}

/* An original within 1e18 of the largest double (2e306 s): the simplified form, which
 * multiplies a sum out over a common denominator (i·max(i, 1)·2^i/max(i, 1)), may pass
 * the top of the range on the way to the same value (overflow-near-top-1). Range, not
 * simplification; an overflow where the original is an ordinary number is still a
 * finding (overflow-exponent-1). */
static int near_top(double v0, const char *diags) {
  return fabs(v0) > 1e290 && strstr(diags, "overflows to infinity");
}

/* How far e's value v moves when every operation rounds up, down or toward 0: an
 * estimate of its rounding error; −1 when it fails so. */
static double rounding_spread(const tlop_expr *e, const tlop_platform *pf, const tlop_env *env,
                              double v) {
  static const int modes[] = {FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
  double spread = 0;
  for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) {
    double r;
    fesetround(modes[i]);
    tlop_status st = tlop_eval(e, pf, env, &r);
    fesetround(FE_TONEAREST);
    if (st != TLOP_OK || !isfinite(r))
      return -1;
    spread = fmax(spread, fabs(r - v));
  }
  return spread;
}

/* e's rounding_spread, with the diagnostics of its evaluations dropped: they are not the
 * input's. With `overflowed`, whether one failed by leaving the range of doubles. */
static double quiet_spread(const tlop_expr *e, const tlop_platform *pf, const tlop_env *env,
                           double v, fuzz_diags *db, int *overflowed) {
  diags_mark at = diags_here(db);
  double spread = rounding_spread(e, pf, env, v);
  if (overflowed)
    *overflowed = overflowed_since(db, at);
  diags_rewind(db, at);
  return spread;
}

/* A difference within 4 times the two forms' rounding errors is rounding, not a wrong
 * simplification: an original dividing by (1 + 2.9e-8/P) − 1 is off by 1e-8 where the
 * simplified form's 3/(P·…) is exact (cancellation-3); terms of 50 s that cancel leave
 * 8e-14 s in the simplified form where the original's (i/i)·i − i is 0 (cancellation-4).
 * So is a form that overflows when rounded otherwise while it evaluates at nearest: its
 * value is an accident of the range, such as the original's 2^i·min(64 B, m/2^i) at
 * i = 7225, whose m/2^i underflows to 0 (rounded up, to 2^−1074, it overflows) where the
 * simplified form has m (underflow-1), or the simplified form's (P − 1)·(2^E + 7)
 * multiplied out by --expand, P·2^E + 7P − 2^E − 7 at P = 1, E = 153600: −7 where the
 * original is 0 while the evaluator added in the tree's order, as 2^E + 7 rounds to 2^E
 * (expand-rounding-1; it adds such terms largest first now, and gets 0). */
static int within_rounding(const tlop_expr *orig, const tlop_expr *simp, const tlop_platform *pf,
                           const tlop_env *env, double v0, double v1, fuzz_diags *db) {
  int over0, over1;
  double s0 = quiet_spread(orig, pf, env, v0, db, &over0);
  double s1 = quiet_spread(simp, pf, env, v1, db, &over1);
  if (s0 < 0 || s1 < 0)
    return (s0 >= 0 || over0) && (s1 >= 0 || over1);
  return fabs(v1 - v0) <= 4 * (s0 + s1);
}

/* simplify takes log₂2^x as x and 2^0.5·2^0.5 as 2 exactly; the evaluator may miss them by
 * an ulp, and an original that divides by such a residue (1/2^q − log2(2^0.5) is 5.6e-17
 * at q = 1) comes to 1e9 s (div-zero-rounding-1), to −1e9 s that a max drops
 * (div-zero-rounding-2), or to a τ of 2e15 (fails-rounding-1), where the simplified form
 * divides by 0. Such a quotient is rounding, not simplification: directed rounding moves
 * the original's value by more than 1e-6 of it, or makes it fail; a genuine division
 * stays put. */
static int rounding_quotient(const tlop_expr *orig, const tlop_platform *pf,
                             const tlop_env *env, double v0, fuzz_diags *db) {
  double s0 = quiet_spread(orig, pf, env, v0, db, NULL);
  return s0 < 0 || s0 > 1e-6 * fabs(v0) + ABS_TOL;
}

/* The variables' values, each moved by `scale` (1 at the point itself); p = log₂P where
 * the target assumes P = 2^p. */
static tlop_env *values_env(tlop_ctx *ctx, const values *val, double scale, int pow2) {
  tlop_env *env = tlop_env_new(ctx);
  tlop_env_set(env, "m", val->m * scale, TLOP_KIND_SIZE);
  tlop_env_set(env, "S", val->S * scale, TLOP_KIND_SIZE);
  tlop_env_set(env, "P", val->P * scale, TLOP_KIND_COUNT);
  tlop_env_set(env, "k", val->k * scale, TLOP_KIND_COUNT);
  if (pow2)
    tlop_env_set(env, "p", log2(val->P * scale), TLOP_KIND_COUNT);
  return env;
}

/* A division by 0 at an isolated point, where the original divides by a rounding residue
 * that a factor 0 hides from directed rounding: ⌈m/S − m/S⌉·⌈log₂P⌉/(2^0.5·2^0.5 − P) is
 * 0 at P = 2, where the simplified form divides by P − 2 (fails-rounding-2). So is a log
 * of 0: max(1, ⌈log₂|2^0.5·2^0.5 − P|⌉) is 1 at P = 2, as the residue's log is −51, where
 * the simplified form takes log₂|2 − P| (log-zero-rounding-1). Rounding, not
 * simplification, when on both sides of the point (moved by 1e-9 of it) the original
 * keeps its value v0 and the simplified form agrees: a guard the simplified form lost
 * (P > 2 taken as P ≥ 2) changes the original's value on one side. */
static int agrees_nearby(const tlop_expr *orig, const tlop_expr *simp, const tlop_platform *pf,
                         tlop_ctx *ctx, const values *val, int pow2, double v0, fuzz_diags *db) {
  diags_mark at = diags_here(db);
  int agrees = 1;
  for (int side = -1; side <= 1 && agrees; side += 2) {
    tlop_env *near = values_env(ctx, val, 1 + side * 1e-9, pow2);
    double o, s;
    agrees = tlop_eval(orig, pf, near, &o) == TLOP_OK && close_enough(v0, o) &&
             tlop_eval(simp, pf, near, &s) == TLOP_OK && close_enough(o, s);
    tlop_env_free(near);
  }
  diags_rewind(db, at);
  return agrees;
}

static int run(const uint8_t *data, size_t size, int verbose) {
  static fuzz_diags db;
  db.len = 0;
  db.text[0] = 0;
  db.errors = db.warnings = db.notes = 0;

  unsigned flags;
  values val;
  gen *g = generate(data, size, AS_GIVEN, &flags, &val);
  if (g->overflow) {
    free(g);
    return 0;
  }
  char *text = g->out;
  if (verbose)
    printf("m = %.17g, S = %.17g, P = %.17g, k = %.17g, flags 0x%02x\n%s\n", val.m, val.S, val.P,
           val.k, flags, text);

  tlop_ctx *ctx = tlop_ctx_new();
  tlop_ctx_set_diag(ctx, fuzz_diag_fn, &db);
  tlop_ctx_set_max_terms(ctx, 1e5);
  tlop_model *model = NULL;
  tlop_status st = tlop_load_source(ctx, "prelude.tlop", prelude, sizeof prelude - 1, &model);
  FUZZ_CHECK(st == TLOP_OK, &db, "the prelude does not load");
  tlop_platform *pf = NULL;
  st = tlop_platform_open(model, NULL, &pf);
  FUZZ_CHECK(st == TLOP_OK, &db, "the generic platform does not open");

  int assume_pow2 = (flags & 0x30) == 0x30 && val.pow2;
  tlop_env *env = values_env(ctx, &val, 1, assume_pow2);

  tlop_expr *orig = NULL;
  st = tlop_expr_parse(model, text, env, &orig);
  if (st != TLOP_OK) {
    /* The generator writes well-kinded text; a rejection is worth a look, not a finding
     * (FUZZ_STRICT_PARSE makes it one while the generator is being changed). */
#ifdef FUZZ_STRICT_PARSE
    FUZZ_CHECK(0, &db, "generated text rejected: %s", text);
#endif
    if (verbose)
      printf("rejected:\n%s", db.text);
    goto done;
  }
  double v0 = 0;
  tlop_status st0 = tlop_eval(orig, pf, env, &v0);
  FUZZ_CHECK(st0 == TLOP_OK || db.errors > 0, &db, "eval failed silently: %s", text);
  if (verbose)
    printf("original: %s %.17g\n", tlop_status_name(st0), v0);
#ifdef TLOP_FUZZ_JIT
  /* fuzz_jit checks the original only: one compilation costs ~100 times the other checks */
  check_jit(ctx, orig, pf, env, &val, st0, v0, text, &db);
  goto done;
#endif

  tlop_simp_opts opts = {0};
  opts.expand = (flags & 1) != 0;
  opts.unroll = (flags & 2) != 0;
  opts.platform = (flags & 4) ? pf : NULL;
  opts.env = (flags & 8) ? env : NULL;
  switch ((flags >> 4) & 3) {
  case 0: opts.assume = NULL; break;
  case 1: opts.assume = "P >= 1, k >= 1, S >= 1"; break;
  case 2: opts.assume = "m >= 0, integer(P), integer(k)"; break;
  default: opts.assume = assume_pow2 ? "P = 2^p, p >= 0" : "P >= 1"; break;
  }
  tlop_expr *simp = NULL;
  int before = db.errors;
  st = tlop_simplify(orig, &opts, &simp);
  /* where the original fails (a division by zero), simplify may fail too, with a
   * diagnostic: substituting the values or unrolling a sum meets the same failure */
  FUZZ_CHECK(st == TLOP_OK || db.errors > before, &db, "tlop_simplify failed silently on %s",
             text);
  /* a number out of range in a loop the original runs no times (2^1024 ∥ T(S) in a repeat
   * P − 1 at P = 1) is the input's own where simplify refuses it (overflow-not-run-2); so
   * is one in a branch the original leaves by an underflow, ⌈m/2^4096⌉ = 0, that rounded
   * up it takes and overflows (underflow-2) */
  int over0 = 0;
  int own_overflow = st != TLOP_OK && st0 == TLOP_OK && strstr(db.text, "overflows to infinity") &&
                     (overflow_not_run(data, size, model, pf, env, &db) ||
                      (quiet_spread(orig, pf, env, v0, &db, &over0) < 0 && over0));
  PROPERTY("simplify-fails", st == TLOP_OK || st0 != TLOP_OK || own_overflow, &db,
           "the original evaluates but simplify fails (%s)\n  original:   %s",
           tlop_status_name(st), text);
  if (st != TLOP_OK)
    goto done;
  char *stext = tlop_expr_print(ctx, simp, TLOP_FORMAT_TLOP);
  FUZZ_CHECK(stext, &db, "the simplified form does not print");
  if (verbose)
    printf("simplified: %s\n", stext);

  double v1 = 0;
  before = db.errors;
  tlop_status st1 = tlop_eval(simp, pf, env, &v1);
  /* a size below 0 is a boundary too: see gen_transfer_size */
  int negative_size = st1 != TLOP_OK && strstr(db.text, " B is negative") != NULL;
  if (st0 == TLOP_OK && (st1 != TLOP_OK || !close_enough(v0, v1)) &&
      (has_boundary(text) || negative_size) &&
      nudged_agrees(data, size, model, pf, env, &opts, verbose, &db))
    goto done_text; /* rounding at a boundary: see nudged_agrees */
  if (st0 == TLOP_OK && st1 != TLOP_OK &&
      (tau_rounded(db.text) || size_rounded(db.text) || near_top(v0, db.text) ||
       ((strstr(db.text, "division by zero") || strstr(db.text, "log2 of 0") ||
         strstr(db.text, "log of 0 in")) &&
        (rounding_quotient(orig, pf, env, v0, &db) ||
         agrees_nearby(orig, simp, pf, ctx, &val, assume_pow2, v0, &db)))))
    goto done_text;
  if (st0 == TLOP_OK) {
    /* a number of the simplified form out of range where the original's are not: 2^(3i)
     * where the original divides by 2^i three times */
    int out_of_range = st1 != TLOP_OK && strstr(db.text, "the result overflows to infinity");
    if (out_of_range && overflow_not_run(data, size, model, pf, env, &db))
      goto done_text;
    PROPERTY("simplify-overflow", !out_of_range, &db,
             "the original evaluates (%.17g) but the simplified form overflows\n  original:   %s\n"
             "  simplified: %s",
             v0, text, stext);
    PROPERTY("simplify-fails", st1 == TLOP_OK || out_of_range, &db,
             "the original evaluates (%.17g) but the simplified form fails\n  original:   %s\n"
             "  simplified: %s",
             v0, text, stext);
    PROPERTY("simplify-equal",
             st1 != TLOP_OK || close_enough(v0, v1) || within_rounding(orig, simp, pf, env, v0, v1, &db), &db,
             "simplified ≠ original: %.17g vs %.17g (rel. error %.3g)\n  original:   %s\n"
             "  simplified: %s",
             v0, v1, fabs(v0 - v1) / fmax(fabs(v0), fabs(v1)), text, stext);
  }

  /* The printed form parses back, evaluates the same and prints the same; and it is a
   * normal form. (Checked where the original evaluates: an expression that fails, say by
   * a division by zero, may simplify to one with no .tlop spelling, such as inf.) */
  if (st0 != TLOP_OK)
    goto done_text;
  tlop_expr *back = NULL;
  before = db.errors;
  st = tlop_expr_parse(model, stext, env, &back);
  PROPERTY("print-roundtrip", st == TLOP_OK, &db,
           "the printed simplified form does not parse back\n  original:   %s\n"
           "  simplified: %s", text, stext);
  if (st == TLOP_OK) {
    char *btext = tlop_expr_print(ctx, back, TLOP_FORMAT_TLOP);
    PROPERTY("print-roundtrip", btext && strcmp(btext, stext) == 0, &db,
             "print ∘ parse ∘ print ≠ print\n  original:   %s\n  printed:    %s\n  reprinted:  %s",
             text, stext, btext ? btext : "(null)");
    free(btext);
    if (st1 == TLOP_OK) {
      double v2 = 0;
      tlop_status st2 = tlop_eval(back, pf, env, &v2);
      /* the print rounds differently (P^2/27.72… where the simplified form multiplies
       * by 0.036…), which a sum that cancels, such as a power of a difference written
       * out, magnifies (print-rounding-1) */
      PROPERTY("print-roundtrip",
               st2 == TLOP_OK &&
                   (close_enough(v1, v2) || within_rounding(simp, back, pf, env, v1, v2, &db)),
               &db,
               "the printed simplified form evaluates to %.17g (%s), not %.17g\n  simplified: %s",
               v2, tlop_status_name(st2), v1, stext);
    }
  }

  /* Idempotence. */
  tlop_expr *again = NULL;
  st = tlop_simplify(simp, &opts, &again);
  FUZZ_CHECK(st == TLOP_OK, &db, "simplifying the simplified form failed: %s", stext);
  char *atext = tlop_expr_print(ctx, again, TLOP_FORMAT_TLOP);
  PROPERTY("idempotent", atext && strcmp(atext, stext) == 0, &db,
           "simplify is not idempotent\n  original:   %s\n  once:       %s\n  twice:      %s", text,
           stext, atext ? atext : "(null)");
  free(atext);
done_text:
  free(stext);

done:
  tlop_env_free(env);
  tlop_platform_free(pf);
  tlop_ctx_free(ctx);
  free(g);
  return 0;
}

#ifndef FUZZ_SIMPLIFY_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return run(data, size, 0); }
#else
/* A failed property jumps back to main, leaving the input's objects behind: not leaks
 * worth a report in a program that only shows inputs. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "detect_leaks=0"; }

/* fuzz_simplify_show FILE...: the expression and the values each input stands for. */
int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    size_t n = 0;
    const uint8_t *buf = fuzz_read_file(argv[i], &n);
    if (!buf)
      return 1;
    printf("== %s\n", argv[i]);
    fflush(stdout);
    jmp_buf back;
    if (setjmp(back) == 0) {
      fuzz_on_failure = &back;
      run(buf, n, 1);
    } else {
      fflush(stderr);
      printf("FINDING (above)\n");
    }
  }
  return 0;
}
#endif
