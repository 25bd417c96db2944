/* test_benchread.c — unit tests of the readers of benchmark output: IMB PingPong and
 * collectives, OSU latency tests, several blocks in one file, chatter around them, every
 * diagnostic with its file:line, and hostile input (binary, huge fields, NUL bytes). */
#define _POSIX_C_SOURCE 200809L
#include "tlop_measure.h"
#include "unit.h"

#include <stdlib.h>

/* unit.h's recorder, which checks the form of each of the first UNIT_MAX_DIAGS errors too */
static void capture(void *user, const tlop_diag *d) {
  if (((unit_diags *)user)->n < UNIT_MAX_DIAGS) {
    /* every error names the file and, for a line, file:line */
    CHECK(d->file && strcmp(d->file, "bench.txt") == 0);
    char where[64];
    snprintf(where, sizeof where, d->line ? "bench.txt:%d: error: " : "bench.txt: error: ",
             d->line);
    CHECK(strncmp(d->text, where, strlen(where)) == 0);
    size_t n = strlen(d->message);
    CHECK(n > 0 && !(d->message[0] >= 'A' && d->message[0] <= 'Z') && d->message[n - 1] != '.');
  }
  unit_diag(user, d);
}

static tlop_ctx *ctx;
static unit_diags seen;

static tlop_status parse_n(const char *text, size_t len, tlop_bench **b) {
  unit_diags_reset(&seen);
  return tlop_bench_parse(ctx, "bench.txt", text, len, b);
}

static tlop_status parse(const char *text, tlop_bench **b) { return parse_n(text, strlen(text), b); }

/* Expects the text to fail with a diagnostic at `line` that contains `sub`. */
static void fails_at(const char *text, int line, const char *sub) {
  tlop_bench *b = (tlop_bench *)1;
  CHECK(parse(text, &b) == TLOP_ERR_TABLE);
  CHECK(b == NULL);
  int found = 0;
  for (int i = 0; i < seen.n && i < UNIT_MAX_DIAGS; i++)
    found |= seen.line[i] == line && strstr(seen.msg[i], sub) != NULL;
  CHECK(found);
  if (!found) {
    fprintf(stderr, "  expected line %d: %s\n", line, sub);
    for (int i = 0; i < seen.n && i < UNIT_MAX_DIAGS; i++)
      fprintf(stderr, "  got line %d: %s\n", seen.line[i], seen.msg[i]);
  }
}

static const char imb[] =
    "#------------------------------------------------------------\n"
    "#    Intel(R) MPI Benchmarks 2019 Update 6, MPI-1 part\n"
    "#------------------------------------------------------------\n"
    "# Date                  : Mon Jan  1 00:00:00 2024\n"
    "\n"
    "# List of Benchmarks to run:\n"
    "# PingPong\n# Bcast\n"
    "\n"
    "#---------------------------------------------------\n"
    "# Benchmarking PingPong \n"
    "# #processes = 2 \n"
    "#---------------------------------------------------\n"
    "       #bytes #repetitions      t[usec]   Mbytes/sec\n"
    "            0         1000         0.27         0.00\n"
    "            1         1000         0.29         3.45\n"
    "      4194304           10       512.50      8184.00\n"
    "\n"
    "#----------------------------------------------------------------\n"
    "# Benchmarking Bcast \n"
    "# #processes = 2 \n"
    "#----------------------------------------------------------------\n"
    "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]\n"
    "            0         1000         0.03         0.04         0.03\n"
    "            8         1000         1.00         3.00         2.00\n"
    "\n"
    "# Benchmarking Bcast \n"
    "# #processes = 4 \n"
    "       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]\n"
    "            8         1000         1.00         5.00         4.00\n"
    "\n\n# All processes entering MPI_Finalize\n";

static void test_imb(void) {
  tlop_bench *b = NULL;
  CHECK(parse(imb, &b) == TLOP_OK);
  CHECK(seen.n == 0);
  if (!b)
    return;
  CHECK(b->nseries == 3);
  CHECK_STR(b->path, "bench.txt");
  tlop_bench_series *s = &b->series[0];
  CHECK_STR(s->name, "PingPong");
  CHECK_STR(s->suite, "IMB");
  CHECK(s->procs == 2 && s->one_way && s->n == 3);
  CHECK(s->bytes[0] == 0 && s->bytes[2] == 4194304);
  CHECK_NEAR(s->seconds[1], 0.29e-6, 1e-12);
  CHECK(s->lines[0] == 15 && s->lines[2] == 17);
  s = &b->series[1];
  CHECK_STR(s->name, "Bcast");
  CHECK(s->procs == 2 && !s->one_way && s->n == 2);
  CHECK_NEAR(s->seconds[1], 2e-6, 1e-12); /* t_avg, not t_min or t_max */
  CHECK(s->min && s->max);
  if (s->min && s->max) {
    CHECK_NEAR(s->min[1], 1e-6, 1e-12);
    CHECK_NEAR(s->max[1], 3e-6, 1e-12);
  }
  CHECK(!b->series[0].min && !b->series[0].max); /* PingPong has one time */
  CHECK(b->series[2].procs == 4 && b->series[2].n == 1);
  CHECK_NEAR(b->series[2].seconds[0], 4e-6, 1e-12);
  tlop_bench_free(b);
}

static void test_osu(void) {
  tlop_bench *b = NULL;
  CHECK(parse("# OSU MPI Broadcast Latency Test v7.1\n"
              "# Datatype: MPI_CHAR.\n"
              "# Size       Avg Latency(us)\n"
              "1                       1.50\n"
              "2                       1.55\r\n"
              "1048576               310.00\n",
              &b) == TLOP_OK);
  if (b) {
    CHECK(b->nseries == 1);
    CHECK_STR(b->series[0].name, "OSU MPI Broadcast Latency Test");
    CHECK_STR(b->series[0].suite, "OSU");
    CHECK(!b->series[0].one_way && b->series[0].procs == 0 && b->series[0].n == 3);
    CHECK_NEAR(b->series[0].seconds[2], 310e-6, 1e-12);
    tlop_bench_free(b);
  }
  /* the point-to-point latency test is one-way; the full format has more columns */
  b = NULL;
  CHECK(parse("# OSU MPI Latency Test v5.8\n# Size          Latency (us)\n0 0.21\n8 0.25\n", &b) ==
        TLOP_OK);
  if (b) {
    CHECK(b->series[0].one_way && b->series[0].n == 2);
    tlop_bench_free(b);
  }
  b = NULL;
  CHECK(parse("# OSU MPI Allreduce Latency Test v7.1\n"
              "# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations\n"
              "4                       2.50              2.00              3.00        1000\n",
              &b) == TLOP_OK);
  if (b) {
    CHECK_NEAR(b->series[0].seconds[0], 2.5e-6, 1e-12);
    CHECK(b->series[0].min && b->series[0].max);
    if (b->series[0].min && b->series[0].max) {
      CHECK_NEAR(b->series[0].min[0], 2e-6, 1e-12);
      CHECK_NEAR(b->series[0].max[0], 3e-6, 1e-12);
    }
    tlop_bench_free(b);
  }
  fails_at("# OSU MPI Bcast Latency Test\n# Size Avg Latency(us) Min Latency(us) Max Latency(us)\n"
           "4 2.5 2.0\n", 3, "at least 4");
}

static void test_errors(void) {
  fails_at("# Benchmarking PingPong\n#bytes #repetitions t[usec] Mbytes/sec\n1 10 0.5\n", 3,
           "row has 3 fields, the header above (line 2) has 4");
  fails_at("#bytes #repetitions t[usec] Mbytes/sec\n1 10 abc 3\n", 2, "'abc' is not a finite");
  fails_at("#bytes #repetitions t[usec] Mbytes/sec\n1 10 nan 3\n", 2, "not a finite");
  fails_at("#bytes #repetitions t[usec] Mbytes/sec\n1 10 1e999 3\n", 2, "not a finite");
  fails_at("#bytes #repetitions t[usec] Mbytes/sec\n1 10 0x10 3\n", 2, "not a finite");
  fails_at("#bytes #repetitions t[usec] Mbytes/sec\n1.5 10 1 3\n", 2, "not a whole number");
  fails_at("#bytes #repetitions t[usec] Mbytes/sec\n-1 10 1 3\n", 2, "not a whole number");
  fails_at("#bytes #repetitions t[usec] Mbytes/sec\n1 10 -1 3\n", 2, "negative time");
  fails_at("#bytes #repetitions t[usec] Mbytes/sec\n8 10 1 3\n8 10 1 3\n", 3, "does not grow");
  fails_at("#bytes #repetitions t[usec] Mbytes/sec\n8 10 1 3\n4 10 1 3\n", 3, "does not grow");
  fails_at("#bytes #repetitions t_min[usec] Mbytes/sec\n8 10 1 3\n", 1, "no t_avg[usec]");
  fails_at("# Benchmarking PingPong\n#bytes #repetitions t[usec] Mbytes/sec\n\n", 2,
           "no rows after it");
  fails_at("# #processes = many\n", 1, "not followed by a number");
  fails_at("# OSU MPI Bandwidth Test v5.8\n# Size      Bandwidth (MB/s)\n1 0.5\n", 2,
           "reports no latency");
  fails_at("# OSU MPI Latency Test\n# Size Latency (us)\n8\n", 3, "row has 1 field,");
  fails_at("just some text\nand no benchmark\n", 0, "no IMB or OSU results");
  fails_at("", 0, "no IMB or OSU results");
  /* every bad row is reported, not only the first */
  fails_at("#bytes #repetitions t[usec] x\n1 1 a 1\n2 1 b 1\n", 3, "'b' is not");
}

/* Hostile input: never a crash, a bounded number of diagnostics, no garbage in them. */
static void test_hostile(void) {
  tlop_bench *b = NULL;
  /* binary noise inside a block */
  size_t n = 200000;
  char *junk = malloc(n);
  unsigned x = 12345;
  for (size_t i = 0; i < n; i++) {
    x = x * 1103515245u + 12345u;
    junk[i] = (char)(x >> 16);
  }
  const char *head = "#bytes #repetitions t[usec] Mbytes/sec\n";
  memcpy(junk, head, strlen(head));
  CHECK(parse_n(junk, n, &b) == TLOP_ERR_TABLE && b == NULL);
  CHECK(seen.n > 0 && seen.n <= 60);
  for (int i = 0; i < seen.n && i < UNIT_MAX_DIAGS; i++)
    for (const char *p = seen.msg[i]; *p; p++)
      CHECK((unsigned char)*p >= 0x20 && *p != 0x7f);
  free(junk);
  /* NUL bytes are just bytes */
  static const char nul[] = "#bytes #repetitions t[usec] Mbytes/sec\n1 1 1\0 1\n";
  CHECK(parse_n(nul, sizeof nul - 1, &b) == TLOP_ERR_TABLE);
  /* a field of a megabyte, a row of 10^5 fields, a line of nothing but blanks */
  size_t big = 1 << 20;
  char *s = malloc(big + 100);
  strcpy(s, "#bytes #repetitions t[usec] Mbytes/sec\n1 1 ");
  size_t at = strlen(s);
  memset(s + at, '9', big);
  strcpy(s + at + big, " 1\n");
  CHECK(parse(s, &b) == TLOP_ERR_TABLE && seen.n == 1);
  strcpy(s, "#bytes #repetitions t[usec] Mbytes/sec\n");
  at = strlen(s);
  for (size_t i = 0; i < 100000; i++, at += 2)
    memcpy(s + at, "1 ", 2);
  s[at] = 0;
  CHECK(parse(s, &b) == TLOP_ERR_TABLE && seen.n == 1);
  /* a header with 10^5 columns, then a row that matches its first 64 */
  strcpy(s, "#bytes");
  at = strlen(s);
  for (size_t i = 0; i < 100000; i++, at += 8)
    memcpy(s + at, " t[usec]", 8);
  strcpy(s + at, "\n1 1\n");
  CHECK(parse(s, &b) == TLOP_ERR_TABLE);
  free(s);
  /* a benchmark name full of control bytes is shown tamed */
  CHECK(parse("# Benchmarking \x1b[31mRed\n#bytes #repetitions t[usec] x\n1 1 1 1\n", &b) == TLOP_OK);
  if (b) {
    CHECK_STR(b->series[0].name, "?[31mRed");
    tlop_bench_free(b);
  }
  CHECK(tlop_bench_parse(ctx, "bench.txt", NULL, 0, &b) == TLOP_ERR_TABLE);
  CHECK(tlop_bench_parse(NULL, "x", "", 0, &b) == TLOP_ERR_ARG);
}

static void test_read_file(const char *root) {
  tlop_bench *b = NULL;
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/measure/no-such-file.txt", root);
  unit_diags_reset(&seen);
  tlop_ctx_set_diag(ctx, NULL, NULL);
  CHECK(tlop_bench_read(ctx, path, &b) == TLOP_ERR_IO && b == NULL);
  tlop_ctx_set_diag(ctx, capture, &seen);
}

int main(int argc, char **argv) {
  ctx = tlop_ctx_new();
  tlop_ctx_set_diag(ctx, capture, &seen);
  test_imb();
  test_osu();
  test_errors();
  test_hostile();
  test_read_file(argc > 1 ? argv[1] : ".");
  tlop_ctx_free(ctx);
  return unit_report("benchread");
}
