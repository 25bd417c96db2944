/* test_limits.c — the out-of-memory handler, and the limits a context sets whose
 * diagnostics name their flags (--max-depth, --max-print, the table bounds). */
#include "eval/table.h"
#include "api/api.h"
#include "unit.h"

#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>

/* A request no allocator grants makes malloc return NULL; AddressSanitizer would rather
 * report it, unless told otherwise. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }

static jmp_buf escape;
static size_t refused;

static void escape_oom(size_t bytes) {
  refused = bytes;
  longjmp(escape, 1);
}

static void test_oom_handler(void) {
  CHECK(tlop_set_oom_handler(escape_oom) == NULL);
  const size_t huge = SIZE_MAX / 2;
  if (!setjmp(escape)) {
    void *p = xmalloc(huge);
    free(p);
    CHECK(!"xmalloc returned from a refused request");
  }
  CHECK(refused == huge);
  refused = 0;
  if (!setjmp(escape)) {
    size_t cap = 0;
    grow_array(NULL, &cap, huge / 8, 8);
    CHECK(!"grow_array returned from a refused request");
  }
  CHECK(refused >= huge / 8 * 8);
  refused = 0;
  if (!setjmp(escape)) {
    void *p = xcalloc(huge, 4); /* the product wraps: calloc refuses it, named as SIZE_MAX */
    free(p);
    CHECK(!"xcalloc returned from a refused request");
  }
  CHECK(refused == SIZE_MAX);
  CHECK(tlop_set_oom_handler(NULL) == escape_oom);
}

/* xstrdup and xstrndup copy as strdup and strndup do, into memory free() takes. */
static void test_xstrdup(void) {
  char *a = xstrdup("latency"), *b = xstrndup("latency", 3), *c = xstrndup("ab", 10);
  char *d = xstrdup("");
  CHECK_STR(a, "latency");
  CHECK_STR(b, "lat");
  CHECK_STR(c, "ab");
  CHECK_STR(d, "");
  free(a);
  free(b);
  free(c);
  free(d);
}

static unit_diags D; /* unit.h's recorder: D.last_text, what was said last */

/* Whether loading `text` under ctx fails with a message that contains `needle`. */
static bool refused_naming(tlop_ctx *ctx, const char *text, const char *needle) {
  tlop_model *m;
  unit_diags_reset(&D);
  return tlop_load_source(ctx, "t.tlop", text, strlen(text), &m) != TLOP_OK &&
         strstr(D.last_text, needle) != NULL;
}

static void test_depth(void) {
  tlop_ctx *ctx = tlop_ctx_new();
  tlop_ctx_set_diag(ctx, unit_diag, &D);
  const char *seven = "param x = ((((((1 + 2) * 3) - 4) / 5) + 6) * 7);";
  tlop_model *m;
  CHECK(tlop_load_source(ctx, "a.tlop", seven, strlen(seven), &m) == TLOP_OK);
  tlop_ctx_set_max_depth(ctx, 5);
  CHECK(refused_naming(ctx, seven, "more than 5 levels, --max-depth"));
  /* no bound past the depth the evaluator's recursion allows */
  tlop_ctx_set_max_depth(ctx, 1e9);
  CHECK(ctx->max_depth == IR_MAX_DEPTH);
  tlop_ctx_free(ctx);
}

static void test_print(void) {
  tlop_ctx *ctx = tlop_ctx_new();
  tlop_ctx_set_diag(ctx, unit_diag, &D);
  const char *src = "param y = 2;";
  tlop_model *m;
  tlop_expr *e;
  CHECK(tlop_load_source(ctx, "p.tlop", src, strlen(src), &m) == TLOP_OK);
  CHECK(tlop_expr_parse_symbolic(m, "a + b * c", &e) == TLOP_OK);
  char *text = tlop_expr_print(ctx, e, TLOP_FORMAT_TLOP);
  CHECK(text != NULL);
  free(text);
  tlop_ctx_set_max_print(ctx, 3);
  CHECK(tlop_expr_print(ctx, e, TLOP_FORMAT_TLOP) == NULL);
  CHECK(strstr(D.last_text, "more than 3 (--max-print") != NULL);
  tlop_ctx_free(ctx);
}

static int problems;
static char problem[256];

static void keep_problem(void *user, int line, const char *message) {
  (void)user;
  (void)line;
  problems++;
  snprintf(problem, sizeof problem, "%s", message);
}

static void test_table(void) {
  const char *csv = "m,o,L1,L2\n0,1,2,4\n8,2,4,8\n16,3,6,12\n";
  tab_table *t = NULL;
  CHECK(tab_parse(csv, strlen(csv), &t, keep_problem, NULL) == 0);
  tab_free(t);
  t = NULL;
  CHECK(tab_parse_within(csv, strlen(csv), (tab_limits){2, 10}, &t, keep_problem, NULL) > 0);
  CHECK(t == NULL && strstr(problem, "--max-table-rows") != NULL);
  CHECK(tab_parse_within(csv, strlen(csv), (tab_limits){10, 2}, &t, keep_problem, NULL) > 0);
  CHECK(t == NULL && strstr(problem, "--max-table-cols") != NULL);
}

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  test_oom_handler();
  test_xstrdup();
  test_depth();
  test_print();
  test_table();
  return unit_report("limits");
}
