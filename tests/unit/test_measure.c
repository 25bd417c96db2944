/* test_measure.c — the measurement engine's contract, on tiny runs (a few cells, a few
 * samples): the table it writes reads back through the table reader, the sidecar names
 * the machine, a raised stop flag leaves no file, bad options and τ beyond the cores are
 * refused, CPU lists parse. Timings are not checked here (tests/measure does that). */
#define _POSIX_C_SOURCE 200809L
#include "table.h"
#include "tlop_measure.h"
#include "unit.h"

#include <stdlib.h>
#include <unistd.h>

static int errors_seen;
static void count(void *user, const tlop_diag *d) {
  (void)user;
  errors_seen += d->severity == TLOP_ERROR;
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  char *s = malloc(1 << 20);
  *len = fread(s, 1, (1 << 20) - 1, f);
  s[*len] = 0;
  fclose(f);
  return s;
}

static void test_cores(tlop_ctx *ctx) {
  int *c = NULL;
  size_t n = 0;
  CHECK(tlop_measure_parse_cores(ctx, "0-3,8", &c, &n) == TLOP_OK);
  CHECK(n == 5 && c && c[0] == 0 && c[3] == 3 && c[4] == 8);
  free(c);
  const char *bad[] = {"", "a", "3-1", "1,", "-1", "1-", "99999999999"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    errors_seen = 0;
    CHECK(tlop_measure_parse_cores(ctx, bad[i], &c, &n) == TLOP_ERR_ARG);
    CHECK(errors_seen == 1);
  }
}

static void test_sizes(void) {
  const double *s;
  size_t n = tlop_measure_default_sizes(&s);
  CHECK(n == 30 && s[0] == 1 && s[29] == 4194304);
  for (size_t i = 1; i < n; i++)
    CHECK(s[i] > s[i - 1]);
}

static tlop_measure_opts tiny(const double *sizes, size_t n, int tau) {
  tlop_measure_opts o = {0};
  o.sizes = sizes;
  o.nsizes = n;
  o.max_tau = tau;
  o.reps = 3;
  o.min_time = 1e-4;
  return o;
}

static void test_run(tlop_ctx *ctx, const char *dir, tlop_setup setup, int tau) {
  static const double sizes[] = {0, 100, 8192, 16384};
  char table[512], json[512];
  snprintf(table, sizeof table, "%s/table.txt", dir);
  snprintf(json, sizeof json, "%s/table.json", dir);
  tlop_measure_opts o = tiny(sizes, 4, tau);
  o.setup = setup;
  o.output = table;
  o.json = json;
  tlop_measure_result *r = NULL;
  errors_seen = 0;
  CHECK(tlop_measure(ctx, &o, &r) == TLOP_OK);
  CHECK(errors_seen == 0);
  if (!r)
    return;
  CHECK(r->nsizes == 4 && r->ntau == tau && r->o.value > 0);
  for (size_t i = 0; i < 4 * (size_t)tau; i++)
    CHECK(r->L[i].value > 0 && isfinite(r->L[i].value) && (r->L[i].derived || r->L[i].samples == 3));
  CHECK(r->L[2 * (size_t)tau].k == 1 && r->L[3 * (size_t)tau].k == 2); /* 8 KiB, 16 KiB */
  CHECK(isfinite(r->L_seg[0]));
  /* the file is what tlop_measure_table returns, and the table reader takes it */
  size_t len;
  char *text = slurp(table, &len), *mine = tlop_measure_table(r, TLOP_TABLE_TEXT);
  CHECK(text && mine && strcmp(text, mine) == 0);
  tab_table *t = NULL;
  CHECK(text && tab_parse(text, len, &t, NULL, NULL) == 0);
  if (t) {
    CHECK(t->kind == TAB_CHANNEL && t->nrows == 4 && tab_ntau(t) == tau);
    CHECK(t->m[3] == 16384);
    tab_free(t);
  }
  free(text);
  free(mine);
  char *csv = tlop_measure_table(r, TLOP_TABLE_CSV);
  CHECK(csv && tab_parse(csv, strlen(csv), &t, NULL, NULL) == 0);
  if (csv && t)
    tab_free(t);
  free(csv);
  text = slurp(json, &len);
  CHECK(text && strstr(text, "\"cpu_model\"") && strstr(text, "\"numa_nodes\"") &&
        strstr(text, "\"rel_halfwidth\"") && strstr(text, "\"L_seg\""));
  free(text);
  tlop_measure_free(r);
  remove(table);
  remove(json);
}

static void test_stop_and_refusals(tlop_ctx *ctx, const char *dir) {
  static const double sizes[] = {1, 64};
  char table[512];
  snprintf(table, sizeof table, "%s/stopped.txt", dir);
  tlop_measure_opts o = tiny(sizes, 2, 1);
  volatile sig_atomic_t stop = 1;
  o.stop = &stop;
  o.output = table;
  tlop_measure_result *r = (tlop_measure_result *)1;
  CHECK(tlop_measure(ctx, &o, &r) == TLOP_ERR_INTERRUPTED && r == NULL);
  CHECK(access(table, F_OK) != 0);
  char tmp[600];
  snprintf(tmp, sizeof tmp, "%s.tmp.%ld", table, (long)getpid());
  CHECK(access(tmp, F_OK) != 0);

  o = tiny(sizes, 2, (int)sysconf(_SC_NPROCESSORS_ONLN) + 1);
  o.output = table;
  errors_seen = 0;
  CHECK(tlop_measure(ctx, &o, &r) == TLOP_ERR_ARG && errors_seen == 1);
  CHECK(access(table, F_OK) != 0);
  static const double down[] = {64, 1};
  o = tiny(down, 2, 1);
  CHECK(tlop_measure(ctx, &o, &r) == TLOP_ERR_ARG);
  o = tiny(sizes, 2, 1);
  o.slots = -1;
  CHECK(tlop_measure(ctx, &o, &r) == TLOP_ERR_ARG);
  o = tiny(sizes, 2, 1);
  o.seg = 0.5;
  CHECK(tlop_measure(ctx, &o, &r) == TLOP_ERR_ARG);
  int nocore = 1 << 15;
  o = tiny(sizes, 2, 1);
  o.cores = &nocore;
  o.ncores = 1;
  CHECK(tlop_measure(ctx, &o, &r) == TLOP_ERR_ARG);
  o = tiny(sizes, 2, 1);
  o.output = "/nonexistent-dir/t.txt";
  CHECK(tlop_measure(ctx, &o, &r) == TLOP_ERR_IO);
  CHECK(tlop_measure(NULL, &o, &r) == TLOP_ERR_ARG);
}

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  tlop_ctx *ctx = tlop_ctx_new();
  tlop_ctx_set_diag(ctx, count, NULL);
  char dir[] = "/tmp/tlop-measure-XXXXXX";
  if (!mkdtemp(dir))
    return 1;
  test_cores(ctx);
  test_sizes();
  int cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
  test_run(ctx, dir, TLOP_SETUP_RING, cores >= 2 ? 2 : 1);
  test_run(ctx, dir, TLOP_SETUP_BCAST, cores >= 2 ? 2 : 1);
  if (cores >= 2)
    test_run(ctx, dir, TLOP_SETUP_PING, 2);
  test_stop_and_refusals(ctx, dir);
  rmdir(dir);
  tlop_ctx_free(ctx);
  return unit_report("measure");
}
