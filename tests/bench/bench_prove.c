/* bench_prove.c — how long `tlop prove` takes per claim, against the budget of 10 ms a
 * claim (issue 7): every claim of examples/claims.tlop and examples/rda_vs_scatter.tlop is
 * decided REPEAT times in this one run; the median time and its ratio to the budget are
 * printed. A benchmark, not a test: it reports, it does not fail on time. */
#include "tlop.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPEAT 25
#define BUDGET 0.010 /* seconds per claim */

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  const char *root = argc > 1 ? argv[1] : ".";
  static const char *const files[] = {"claims.tlop", "rda_vs_scatter.tlop"};
  tlop_ctx *ctx = tlop_ctx_new();
  char path[4096];
  snprintf(path, sizeof path, "%s/stdlib", root);
  tlop_ctx_set_stdlib_dir(ctx, path);
  double worst = 0;
  size_t claims = 0;
  printf("%-9s %10s %8s  claim\n", "verdict", "median ms", "/budget");
  for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
    snprintf(path, sizeof path, "%s/examples/%s", root, files[f]);
    tlop_model *m;
    if (tlop_load_file(ctx, path, &m) != TLOP_OK) {
      fprintf(stderr, "bench_prove: cannot load %s\n", path);
      return 1;
    }
    for (size_t i = 0; i < tlop_model_claims(m); i++) {
      double t[REPEAT];
      tlop_verdict v = TLOP_UNKNOWN;
      char title[80] = "";
      for (int r = 0; r < REPEAT; r++) {
        tlop_proof *p;
        if (tlop_prove_claim(m, i, NULL, &p) != TLOP_OK)
          return 1;
        t[r] = tlop_proof_seconds(p);
        v = tlop_proof_verdict(p);
        const char *text = tlop_proof_text(p) + strlen("claim "), *nl = strchr(text, '\n');
        snprintf(title, sizeof title, "%.*s", (int)(nl ? nl - text : 70), text);
        tlop_proof_free(p);
      }
      qsort(t, REPEAT, sizeof *t, by_value);
      double med = t[REPEAT / 2];
      worst = med > worst ? med : worst;
      claims++;
      printf("%-9s %10.3f %8.3f  %s\n",
             v == TLOP_PROVED ? "proved" : v == TLOP_REFUTED ? "refuted" : "unknown", med * 1e3,
             med / BUDGET, title);
    }
  }
  printf("%zu claims; the slowest takes %.3f ms, %.3f of the 10 ms budget\n", claims, worst * 1e3,
         worst / BUDGET);
  tlop_ctx_free(ctx);
  return 0;
}
