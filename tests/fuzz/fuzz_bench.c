/* fuzz_bench.c — libFuzzer target: the benchmark-output reader (IMB and OSU,
 * tlop_bench_parse of include/tlop_measure.h) on arbitrary bytes.
 *
 * Properties, besides "no crash, no sanitizer report, no leak, no hang":
 *  - a parse that fails has reported an error; one that succeeds returns its result;
 *  - every series has a name, a suite ("IMB" or "OSU"), procs ≥ 0, and per point a size
 *    and times that are finite and ≥ 0 and a line between 1 and the number of lines;
 *    min and max, when given, are finite and ≥ 0 too. */
#include "fuzz_common.h"

#include "tlop_measure.h"

#include <math.h>

static void check_times(const double *v, size_t n, const char *what, const fuzz_diags *db) {
  for (size_t i = 0; v && i < n; i++)
    FUZZ_CHECK(isfinite(v[i]) && v[i] >= 0, db, "%s[%zu] = %.17g", what, i, v[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > (1u << 20))
    return 0;
  static fuzz_diags db;
  db.len = 0;
  db.text[0] = 0;
  db.errors = db.warnings = db.notes = 0;
  int lines = 1;
  for (size_t i = 0; i < size; i++)
    lines += data[i] == '\n';

  tlop_ctx *ctx = tlop_ctx_new();
  tlop_ctx_set_diag(ctx, fuzz_diag_fn, &db);
  tlop_bench *b = NULL;
  tlop_status st = tlop_bench_parse(ctx, "bench.txt", (const char *)data, size, &b);
  FUZZ_CHECK(st == TLOP_OK || db.errors > 0, &db, "tlop_bench_parse failed (%s) without an error",
             tlop_status_name(st));
  FUZZ_CHECK((st == TLOP_OK) == (b != NULL), &db, "status %s but result %p", tlop_status_name(st),
             (void *)b);
  for (size_t s = 0; b && s < b->nseries; s++) {
    const tlop_bench_series *se = &b->series[s];
    FUZZ_CHECK(se->name && se->suite && (!strcmp(se->suite, "IMB") || !strcmp(se->suite, "OSU")),
               &db, "series %zu: name %p, suite %s", s, (void *)se->name,
               se->suite ? se->suite : "(null)");
    FUZZ_CHECK(se->procs >= 0, &db, "series %zu: %d processes", s, se->procs);
    check_times(se->bytes, se->n, "bytes", &db);
    check_times(se->seconds, se->n, "seconds", &db);
    check_times(se->min, se->n, "min", &db);
    check_times(se->max, se->n, "max", &db);
    for (size_t i = 0; se->lines && i < se->n; i++)
      FUZZ_CHECK(se->lines[i] >= 1 && se->lines[i] <= lines, &db, "point %zu at line %d of %d", i,
                 se->lines[i], lines);
  }
  tlop_bench_free(b);
  tlop_ctx_free(ctx);
  return 0;
}
