/* test_table.c — unit tests of the parameter tables: the three input formats, every
 * validation error with its line, the m/τ look-up rules, hostile input, and (when present)
 * the real libtaulop tables in ../shared/params. */
#define _POSIX_C_SOURCE 200809L
#include "eval/table.h"
#include "unit.h"

#include <dirent.h>
#include <float.h>
#include <stdlib.h>

/* ---- capturing reports ---- */

#define MAX_CAPTURED 64

typedef struct {
  int n;
  int line[MAX_CAPTURED];
  char msg[MAX_CAPTURED][300];
} reports;

static void capture(void *user, int line, const char *msg) {
  reports *r = user;
  if (r->n < MAX_CAPTURED) {
    r->line[r->n] = line;
    snprintf(r->msg[r->n], sizeof r->msg[r->n], "%s", msg);
  }
  r->n++;
}

static int has(const reports *r, int line, const char *sub) {
  int i;
  for (i = 0; i < r->n && i < MAX_CAPTURED; i++)
    if (r->line[i] == line && strstr(r->msg[i], sub)) return 1;
  return 0;
}

static void dump(const reports *r) {
  int i;
  for (i = 0; i < r->n && i < MAX_CAPTURED; i++)
    fprintf(stderr, "  report: line %d: %s\n", r->line[i], r->msg[i]);
}

/* Messages follow the house style: lowercase start, no trailing period. */
static void check_style(const reports *r) {
  int i;
  for (i = 0; i < r->n && i < MAX_CAPTURED; i++) {
    size_t n = strlen(r->msg[i]);
    CHECK(n > 0);
    CHECK(!(r->msg[i][0] >= 'A' && r->msg[i][0] <= 'Z'));
    CHECK(n == 0 || r->msg[i][n - 1] != '.');
  }
}

static int parse(const char *s, tab_table **t, reports *r) {
  memset(r, 0, sizeof *r);
  return tab_parse(s, strlen(s), t, capture, r);
}

/* Expects the input to fail with a report at `line` containing `sub`. */
static void expect_error(const char *text, int line, const char *sub) {
  reports r;
  tab_table *t = (tab_table *)&r; /* must be reset to NULL */
  int n = parse(text, &t, &r);
  CHECK(n > 0);
  CHECK(n == r.n);
  CHECK(t == NULL);
  check_style(&r);
  if (!has(&r, line, sub)) {
    unit_failures++;
    fprintf(stderr, "%s:%d: no report at line %d containing \"%s\"; input:\n%s\n", __FILE__,
            __LINE__, line, sub, text);
    dump(&r);
  }
  unit_checks++;
  tab_free(t);
}

/* ---- tables used by the look-up tests ---- */

static const char *channel_text =
    "#m\t3\n"
    "#tau\t3\n"
    "#m\to(m)\tL(m, 1)\tL(m, 2)\tL(m, 3)\n"
    "1\t1e-6\t10\t20\t40\n"
    "2\t2e-6\t20\t40\t60\n"
    "4  4e-6 40 \t100\t160\n";

static const char *channel_crlf =
    "#m\t3\r\n"
    "#tau\t3\r\n"
    "#m\to(m)\tL0(m,1)\tL0(m,2)\tL0(m,3)\r\n"
    "\r\n"
    "1\t1e-6\t10\t20\t40\r\n"
    "2\t2e-6\t20\t40\t60\r\n"
    "4\t4e-6\t40\t100\t160";

static const char *channel_csv =
    "# a comment\n"
    "m, o, L1, L2, L3\n"
    "\n"
    "1,1e-6,10,20,40\n"
    "# another comment\n"
    "2,2e-6,20,40,60\r\n"
    "4,4e-6,40,100,160\n";

static void check_channel(const tab_table *t) {
  unsigned f = 0;
  CHECK(t->kind == TAB_CHANNEL);
  CHECK(t->nrows == 3);
  CHECK(t->ncols == 4);
  CHECK(tab_ntau(t) == 3);
  CHECK_STR(t->colnames[0], "o");
  CHECK_STR(t->colnames[1], "L1");
  CHECK_STR(t->colnames[3], "L3");
  CHECK(t->m[0] == 1 && t->m[1] == 2 && t->m[2] == 4);
  CHECK(tab_gamma_column(t, "o") == -1);

  /* exact rows */
  CHECK(tab_L(t, 1, 1, TAB_TAU_PROPORTIONAL, &f) == 10);
  CHECK(tab_L(t, 2, 2, TAB_TAU_PROPORTIONAL, &f) == 40);
  CHECK(tab_L(t, 4, 3, TAB_TAU_PROPORTIONAL, &f) == 160);
  CHECK(tab_column_at(t, 2, 4, &f) == 100);
  CHECK(tab_o(t, 2, &f) == 2e-6);
  CHECK(f == 0);

  /* between rows: v_i + (v_{i+1} - v_i)(m - m_i)/(m_{i+1} - m_i) */
  CHECK_NEAR(tab_L(t, 3, 1, TAB_TAU_PROPORTIONAL, &f), 30, 1e-15);
  CHECK_NEAR(tab_L(t, 3, 2, TAB_TAU_PROPORTIONAL, &f), 70, 1e-15);
  CHECK_NEAR(tab_L(t, 1.5, 1, TAB_TAU_PROPORTIONAL, &f), 15, 1e-15);
  CHECK_NEAR(tab_L(t, 2.5, 3, TAB_TAU_PROPORTIONAL, &f), 60 + 100 * 0.25, 1e-15);
  CHECK_NEAR(tab_o(t, 3, &f), 3e-6, 1e-15);
  CHECK(f == 0);

  /* below the first row */
  CHECK(tab_L(t, 0.5, 1, TAB_TAU_PROPORTIONAL, &f) == 10);
  CHECK(f == TAB_BELOW_M);
  f = 0;
  CHECK(tab_o(t, 0, &f) == 1e-6);
  CHECK(f == TAB_BELOW_M);

  /* beyond the last row: q·v(m_last) + v(r), q = ceil(m/m_last) - 1 */
  f = 0;
  CHECK(tab_L(t, 9, 1, TAB_TAU_PROPORTIONAL, &f) == 2 * 40 + 10); /* q=2, r=1 */
  CHECK(f == TAB_BEYOND_M);
  CHECK(tab_L(t, 8, 1, TAB_TAU_PROPORTIONAL, NULL) == 40 + 40);    /* q=1, r=4 */
  CHECK(tab_L(t, 12, 1, TAB_TAU_PROPORTIONAL, NULL) == 2 * 40 + 40); /* q=2, r=4 */
  CHECK_NEAR(tab_L(t, 11, 1, TAB_TAU_PROPORTIONAL, NULL), 2 * 40 + 30, 1e-15); /* r=3 */
  CHECK_NEAR(tab_L(t, 11, 2, TAB_TAU_PROPORTIONAL, NULL), 2 * 100 + 70, 1e-15);
  CHECK_NEAR(tab_o(t, 11, NULL), 2 * 4e-6 + 3e-6, 1e-15);
  f = 0;
  CHECK(tab_L(t, 4.5, 1, TAB_TAU_PROPORTIONAL, &f) == 40 + 10); /* r=0.5 below m_0 */
  CHECK(f == TAB_BEYOND_M);
  CHECK_NEAR(tab_L(t, 4000001, 1, TAB_TAU_PROPORTIONAL, NULL), 1000000.0 * 40 + 10, 1e-15);
  f = 0;
  double huge = tab_L(t, 1e300, 1, TAB_TAU_PROPORTIONAL, &f);
  CHECK(!isnan(huge) && huge > 1e300);
  CHECK(f == TAB_BEYOND_M);
  CHECK(!isnan(tab_L(t, DBL_MAX, 3, TAB_TAU_PROPORTIONAL, NULL)));

  /* τ between columns, first in m then in τ */
  f = 0;
  CHECK_NEAR(tab_L(t, 2, 2.5, TAB_TAU_PROPORTIONAL, &f), 50, 1e-15);
  CHECK_NEAR(tab_L(t, 3, 2.5, TAB_TAU_PROPORTIONAL, &f), 90, 1e-15);   /* 70 .. 110 */
  CHECK_NEAR(tab_L(t, 1, 1.25, TAB_TAU_PROPORTIONAL, &f), 12.5, 1e-15);
  CHECK(f == 0);

  /* τ beyond the last column */
  CHECK_NEAR(tab_L(t, 2, 6, TAB_TAU_PROPORTIONAL, &f), 120, 1e-15);
  CHECK(f == TAB_BEYOND_TAU);
  f = 0;
  CHECK(tab_L(t, 2, 6, TAB_TAU_CLAMP, &f) == 60);
  CHECK(f == TAB_BEYOND_TAU);
  f = 0;
  CHECK_NEAR(tab_L(t, 9, 4.5, TAB_TAU_PROPORTIONAL, &f), (2 * 160 + 40) * 1.5, 1e-15);
  CHECK(f == (TAB_BEYOND_TAU | TAB_BEYOND_M));

  /* outside the contract but safe */
  CHECK(tab_L(t, 2, 0.5, TAB_TAU_PROPORTIONAL, NULL) == 20);
  CHECK(isnan(tab_column_at(t, 4, 1, NULL)));
  CHECK(isnan(tab_column_at(t, -1, 1, NULL)));
}

static void test_channel_formats(void) {
  const char *inputs[] = {channel_text, channel_crlf, channel_csv};
  int i;
  for (i = 0; i < 3; i++) {
    reports r;
    tab_table *t = NULL;
    int n = parse(inputs[i], &t, &r);
    CHECK(n == 0);
    if (n) dump(&r);
    CHECK(t != NULL);
    if (t) check_channel(t);
    tab_free(t);
  }
}

static void test_gamma(void) {
  reports r;
  tab_table *t = NULL;
  int n = parse("#m:\t2\n#tau_op:\t3\n#m\tmax\tmin\tsum\n1\t1\t2\t3\n8\t8\t16\t24\n", &t, &r);
  CHECK(n == 0);
  CHECK(t != NULL);
  if (t) {
    CHECK(t->kind == TAB_GAMMA);
    CHECK(tab_ntau(t) == 0);
    CHECK(t->ncols == 3);
    CHECK(tab_gamma_column(t, "sum") == 2);
    CHECK(tab_gamma_column(t, "max") == 0);
    CHECK(tab_gamma_column(t, "MIN") == 1);
    CHECK(tab_gamma_column(t, "su") == -1);
    CHECK(tab_gamma_column(t, "sums") == -1);
    CHECK(tab_gamma_column(t, "") == -1);
    CHECK_STR(t->colnames[2], "sum");
    CHECK_NEAR(tab_column_at(t, 2, 4.5, NULL), 3 + 21 * 3.5 / 7, 1e-15);
    CHECK(tab_column_at(t, 1, 8, NULL) == 16);
    CHECK(tab_column_at(t, 1, 24, NULL) == 2 * 16 + 16);
    CHECK(isnan(tab_L(t, 1, 1, TAB_TAU_PROPORTIONAL, NULL)));
    CHECK(isnan(tab_o(t, 1, NULL)));
  }
  tab_free(t);

  /* metropolis spelling: `#m N`, `#max_ops K`, `#size` names with a trailing tab */
  t = NULL;
  n = parse("#m\t2\n#max_ops\t2\n#size\tSUM_I\tSUM_R\t\n4\t1\t2\n64\t3\t4\n", &t, &r);
  CHECK(n == 0);
  if (t) {
    CHECK(t->kind == TAB_GAMMA);
    CHECK(tab_gamma_column(t, "SUM_R") == 1);
    CHECK(tab_gamma_column(t, "sum_i") == 0);
    CHECK(tab_column_at(t, 0, 2, NULL) == 1);
  }
  tab_free(t);

  /* CSV gamma, and the exact spelling winning over a case-insensitive one */
  t = NULL;
  n = parse("m,Sum,sum,max\n1,1,2,3\n", &t, &r);
  CHECK(n == 0);
  if (t) {
    CHECK(t->kind == TAB_GAMMA);
    CHECK(t->nrows == 1);
    CHECK(tab_gamma_column(t, "sum") == 1);
    CHECK(tab_gamma_column(t, "Sum") == 0);
    CHECK(tab_gamma_column(t, "SUM") == 0);
    CHECK(tab_column_at(t, 2, 5, NULL) == 5 * 3); /* q=4, r=1 */
  }
  tab_free(t);
}

static void test_single_row(void) {
  reports r;
  tab_table *t = NULL;
  unsigned f = 0;
  /* m_last = 0: the beyond rule degenerates to v(m) = v(0) */
  CHECK(parse("#m 1\n#tau 1\n#m o L\n0 0.5 2\n", &t, &r) == 0);
  if (t) {
    CHECK(tab_L(t, 5, 1, TAB_TAU_PROPORTIONAL, &f) == 2);
    CHECK(f == TAB_BEYOND_M);
    CHECK(tab_L(t, 0, 1, TAB_TAU_PROPORTIONAL, NULL) == 2);
    CHECK(tab_L(t, 1e300, 2, TAB_TAU_PROPORTIONAL, NULL) == 4);
  }
  tab_free(t);

  t = NULL;
  CHECK(parse("#m 1\n#tau 1\n3 0.5 2\n", &t, &r) == 0); /* no column header: fine */
  if (t) {
    f = 0;
    CHECK(tab_L(t, 1, 1, TAB_TAU_PROPORTIONAL, &f) == 2);
    CHECK(f == TAB_BELOW_M);
    CHECK(tab_L(t, 7, 1, TAB_TAU_PROPORTIONAL, NULL) == 2 * 2 + 2); /* q=2, r=1 -> v(m_0) */
    CHECK(tab_L(t, 6, 1, TAB_TAU_PROPORTIONAL, NULL) == 2 * 2);
  }
  tab_free(t);
}

static void test_errors(void) {
  const char *hdr = "#m\t2\n#tau\t2\n#m\to\tL1\tL2\n";
  char buf[512];

  expect_error("", 0, "empty file");
  expect_error("\n  \r\n\t\n", 0, "empty file");
  expect_error("#m 1\n#tau 1\n#m o L\n", 0, "no rows");
  expect_error("m,o,L1\n", 0, "no rows");

  /* headers */
  expect_error("#m\tabc\n#tau\t1\n#m o L\n1 1 1\n", 1, "'abc' is not a positive integer");
  expect_error("#m\t0\n#tau\t1\n#m o L\n1 1 1\n", 1, "'0' is not a positive integer");
  expect_error("#m\t-3\n#tau\t1\n1 1 1\n", 1, "not a positive integer");
  expect_error("#m\n#tau\t1\n1 1 1\n", 1, "no row count");
  expect_error("#m 1\n#tau 2.5\n1 1 1\n", 2, "'2.5' is not a positive integer");
  expect_error("#m 1\n#tau\n1 1 1\n", 2, "no count");
  expect_error("#m 1\n#tao 1\n1 1 1\n", 2, "unknown header '#tao'");
  expect_error("#m 20000000\n#tau 1\n1 1 1\n", 1, "unreasonable");
  expect_error("#m 99999999999999999999999999\n#tau 1\n1 1 1\n", 1, "unreasonable");
  expect_error("#m 1\n#tau 200000\n1 1 1\n", 2, "unreasonable");
  expect_error("#m 1\n1 1 1\n", 2, "missing '#tau T'");
  expect_error("#tau 1\n1 1 1\n", 2, "missing '#m N'");
  expect_error("1 1 1\n", 1, "missing '#m N'");
  expect_error("#m 1\n#tau 1\n", 0, "no rows");
  expect_error("#m: 1\n#tau_op: 2\n1 1 1\n", 3, "missing the operator names");
  expect_error("#m: 1\n#tau_op: 3\n#m max min\n1 1 1 1\n", 3, "has 2 names, expected 3");
  expect_error("#m: 1\n#tau_op: 2\n#m sum sum\n1 1 1\n", 3, "'sum' appears twice");

  /* row shape and row count */
  snprintf(buf, sizeof buf, "%s1 1 1\n2 1 1 1\n", hdr);
  expect_error(buf, 4, "row has 3 fields, expected 4 (m, o and 2 L columns)");
  snprintf(buf, sizeof buf, "%s1 1 1 1\n2 1 1 1 1\n", hdr);
  expect_error(buf, 5, "row has 5 fields, expected 4");
  expect_error("#m: 1\n#tau_op: 2\n#m a b\n1 1 1 1\n", 4,
               "row has 4 fields, expected 3 (m and 2 operator columns)");
  snprintf(buf, sizeof buf, "%s1 1 1 1\n", hdr);
  expect_error(buf, 1, "'#m' header announces 2 rows, the table has 1");
  snprintf(buf, sizeof buf, "%s1 1 1 1\n2 1 1 1\n3 1 1 1\n", hdr);
  expect_error(buf, 1, "announces 2 rows, the table has 3");

  /* fields */
  snprintf(buf, sizeof buf, "%s1 1 0.00x1 1\n2 1 1 1\n", hdr);
  expect_error(buf, 4, "'0.00x1' is not a number");
  snprintf(buf, sizeof buf, "%s1 1 1 1\n2 nan 1 1\n", hdr);
  expect_error(buf, 5, "'nan' is not a finite number");
  snprintf(buf, sizeof buf, "%s1 1 1 1\n2 1 -inf 1\n", hdr);
  expect_error(buf, 5, "'-inf' is not a finite number");
  snprintf(buf, sizeof buf, "%s1 1 1 1\n2 1 1 Infinity\n", hdr);
  expect_error(buf, 5, "'Infinity' is not a finite number");
  snprintf(buf, sizeof buf, "%s1 1 1e400 1\n2 1 1 1\n", hdr);
  expect_error(buf, 4, "'1e400' is out of range");
  snprintf(buf, sizeof buf, "%s1 1 1 1\n2 1 1 NaN(0x1)\n", hdr);
  expect_error(buf, 5, "'NaN(0x1)' is not a finite number");
  snprintf(buf, sizeof buf, "%s1 1 1 1\n2 1 1 info\n", hdr);
  expect_error(buf, 5, "'info' is not a number");
  snprintf(buf, sizeof buf, "%s1 1 1 0x10\n2 1 1 1\n", hdr);
  expect_error(buf, 4, "'0x10' is not a number");
  snprintf(buf, sizeof buf, "%s1 1 1 1e\n2 1 1 1\n", hdr);
  expect_error(buf, 4, "'1e' is not a number");
  snprintf(buf, sizeof buf, "%s-1 1 1 1\n2 1 1 1\n", hdr);
  expect_error(buf, 4, "negative message size '-1'");
  snprintf(buf, sizeof buf, "%s1 1 1 1\n2 1 -1e-6 1\n", hdr);
  expect_error(buf, 5, "negative time '-1e-6' in column L1");

  /* increasing m */
  snprintf(buf, sizeof buf, "%s64 1 1 1\n64 1 1 1\n", hdr);
  expect_error(buf, 5, "duplicate m 64");
  snprintf(buf, sizeof buf, "%s128 1 1 1\n64 1 1 1\n", hdr);
  expect_error(buf, 5, "m 64 is not greater than the previous m 128");

  /* CSV */
  expect_error("m,o,L2\n1,1,1\n", 1, "csv column 3 is 'L2', expected 'L1'");
  expect_error("m,o\n1,1\n", 1, "no L columns");
  expect_error("size,o,L1\n1,1,1\n", 1, "must start with column 'm'");
  expect_error("m,sum,max\n1,1\n", 2, "row has 2 fields, expected 3 (m and 2 operator columns)");
  expect_error("m,sum,max\n1,1,2,\n", 2, "row has 4 fields, expected 3");
  expect_error("m,sum,max\n1,,2\n", 2, "empty field");
  expect_error("m,sum,max\n1,1,2\n1,1,2\n", 3, "duplicate m 1");
  expect_error("m,o,L1\n1,1,x\n", 2, "'x' is not a number");

  /* every problem is reported, not only the first */
  {
    reports r;
    tab_table *t = NULL;
    snprintf(buf, sizeof buf, "%s1 1 x 1\n1 1 1\n0.5 1 1 -2\n3 1 1 1\n", hdr);
    int n = parse(buf, &t, &r);
    CHECK(t == NULL);
    CHECK(n == 5 && r.n == 5);
    CHECK(has(&r, 4, "'x' is not a number"));
    CHECK(has(&r, 5, "row has 3 fields"));
    CHECK(has(&r, 6, "m 0.5 is not greater than the previous m 1"));
    CHECK(has(&r, 6, "negative time '-2' in column L2"));
    CHECK(has(&r, 1, "announces 2 rows, the table has 4"));
    check_style(&r);
  }

  /* a NULL report function and NULL out are allowed */
  CHECK(tab_parse("x", 1, NULL, NULL, NULL) > 0);
  CHECK(tab_parse(channel_text, strlen(channel_text), NULL, NULL, NULL) == 0);
  CHECK(tab_parse(NULL, 0, NULL, NULL, NULL) == 1);
}

/* ---- hostile input ---- */

static unsigned long lcg_state = 12345;

static unsigned lcg(void) {
  lcg_state = lcg_state * 6364136223846793005UL + 1442695040888963407UL;
  return (unsigned)(lcg_state >> 33);
}

/* A successful parse must hand back a table that honours the contract. */
static void check_sane(const tab_table *t) {
  int i, j;
  CHECK(t->nrows >= 1 && t->ncols >= 1);
  CHECK(t->kind != TAB_CHANNEL || t->ncols >= 2);
  for (i = 0; i < t->nrows; i++) {
    CHECK(isfinite(t->m[i]) && t->m[i] >= 0);
    if (i) CHECK(t->m[i] > t->m[i - 1]);
    for (j = 0; j < t->ncols; j++)
      CHECK(isfinite(t->v[(size_t)i * t->ncols + j]) && t->v[(size_t)i * t->ncols + j] >= 0);
  }
  for (j = 0; j < t->ncols; j++) CHECK(t->colnames[j] != NULL);
}

/* Parses exactly len bytes from a heap block of that size, so that reading past the end
 * (as a NUL-terminated reader would) is caught by ASan. */
static int parse_exact(const char *bytes, size_t len, tab_table **t, reports *r) {
  char *copy = malloc(len ? len : 1);
  int n;
  memcpy(copy, bytes, len);
  memset(r, 0, sizeof *r);
  n = tab_parse(copy, len, t, capture, r);
  free(copy);
  return n;
}

static void test_hostile(void) {
  reports r;
  tab_table *t = NULL;
  int n, iter;
  size_t i;

  /* not NUL-terminated, the last number touching the end of the buffer */
  n = parse_exact(channel_text, strlen(channel_text) - 2, &t, &r);
  CHECK(n == 0);
  if (t) CHECK(t->v[2 * 4 + 3] == 16); /* "160" cut to "16" */
  tab_free(t);
  t = NULL;
  n = parse_exact("#m 1\n#tau 1\n1 2 3", 17, &t, &r);
  CHECK(n == 0);
  if (t) CHECK(t->v[1] == 3);
  tab_free(t);
  t = NULL;
  n = parse_exact("m,x\n5,7", 7, &t, &r);
  CHECK(n == 0);
  tab_free(t);

  /* NUL bytes inside */
  {
    static const char nul[] = "#m 1\n#tau 1\n1 2\0003 4\n";
    t = NULL;
    n = parse_exact(nul, sizeof nul - 1, &t, &r);
    CHECK(n > 0 && t == NULL);
    CHECK(has(&r, 3, "'2\\x003' is not a number"));
    check_style(&r);
  }

  /* a 10 MB line: one enormous number, and then five million fields */
  {
    size_t big = 10u << 20;
    char *s = malloc(big + 64);
    size_t off = (size_t)sprintf(s, "#m 1\n#tau 1\n");
    memset(s + off, '1', big);
    t = NULL;
    n = parse_exact(s, off + big, &t, &r);
    CHECK(n > 0 && t == NULL);
    CHECK(has(&r, 3, "row has 1 field, expected 3"));
    memcpy(s + off, "1 2 ", 4);
    n = parse_exact(s, off + big, &t, &r);
    CHECK(has(&r, 3, "too long to be a number"));
    for (i = off; i + 1 < off + big; i += 2) s[i] = '7', s[i + 1] = '\t';
    n = parse_exact(s, off + big, &t, &r);
    CHECK(n > 0 && t == NULL);
    CHECK(has(&r, 3, "row has 5242880 fields, expected 3"));
    free(s);
  }

  /* a header with the most operators allowed, and one more */
  {
    size_t cap = 2000000, len = 0;
    char *s = malloc(cap);
    int k;
    len += (size_t)sprintf(s, "m");
    for (k = 0; k < 100000; k++) len += (size_t)sprintf(s + len, ",op%d", k);
    len += (size_t)sprintf(s + len, "\n1");
    for (k = 0; k < 100000; k++) len += (size_t)sprintf(s + len, ",%d", k);
    n = parse_exact(s, len, &t, &r);
    CHECK(n == 0);
    if (t) {
      CHECK(t->ncols == 100000);
      CHECK(tab_gamma_column(t, "op99999") == 99999);
      CHECK(tab_column_at(t, 99999, 1, NULL) == 99999);
    }
    tab_free(t);
    t = NULL;
    len = (size_t)sprintf(s, "m");
    for (k = 0; k < 100000; k++) len += (size_t)sprintf(s + len, ",op%d", k % 50000);
    n = parse_exact(s, len, &t, &r);
    CHECK(has(&r, 1, "operator name 'op0' appears twice"));
    CHECK(n > 50 && n <= 1000); /* 50000 repeats, reported up to a bound */
    len = (size_t)sprintf(s, "m");
    for (k = 0; k < 100001; k++) len += (size_t)sprintf(s + len, ",op%d", k);
    n = parse_exact(s, len, &t, &r);
    CHECK(has(&r, 1, "refused as unreasonable"));
    free(s);
  }

  /* many bad lines: the reports stop after a bound */
  {
    size_t len = 0, cap = 1 << 20;
    char *s = malloc(cap);
    len += (size_t)sprintf(s, "#m 1\n#tau 1\n");
    while (len + 16 < cap) len += (size_t)sprintf(s + len, "x y z\n");
    n = parse_exact(s, len, &t, &r);
    CHECK(n > 0 && n <= 1000 && r.n == n);
    CHECK(t == NULL);
    free(s);
  }

  /* random bytes, random table-ish text, and mutations of a valid table */
  {
    static const char alphabet[] = "#mtau_op:0123456789.eE+-, \t\r\n\nnaif\0x";
    size_t base = strlen(channel_text);
    for (iter = 0; iter < 6000; iter++) {
      char buf[600];
      size_t len = lcg() % sizeof buf;
      int mode = iter % 3;
      if (mode == 2) len = base;
      for (i = 0; i < len; i++) {
        if (mode == 0)
          buf[i] = (char)(lcg() & 0xff);
        else if (mode == 1)
          buf[i] = alphabet[lcg() % (sizeof alphabet - 1)];
        else
          buf[i] = channel_text[i];
      }
      if (mode == 2) {
        int k, muts = 1 + (int)(lcg() % 4);
        for (k = 0; k < muts; k++) buf[lcg() % len] = alphabet[lcg() % (sizeof alphabet - 1)];
        len -= lcg() % 8;
      }
      t = NULL;
      n = parse_exact(buf, len, &t, &r);
      CHECK(n == r.n);
      CHECK((n == 0) == (t != NULL));
      if (t) {
        check_sane(t);
        CHECK(!isnan(tab_column_at(t, 0, (double)(lcg() % 1000) / 7.0, NULL)));
        if (tab_ntau(t) > 0) CHECK(!isnan(tab_L(t, 1e9, 2.5, TAB_TAU_PROPORTIONAL, NULL)));
      }
      tab_free(t);
    }
  }
}

/* ---- the real tables, when the shared directory is there ---- */

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *s = NULL;
  size_t cap = 0, n = 0, got;
  if (!f) return NULL;
  do {
    if (n == cap) {
      char *bigger = realloc(s, cap = cap ? cap * 2 : 65536);
      if (!bigger) break;
      s = bigger;
    }
    got = fread(s + n, 1, cap - n, f);
    n += got;
  } while (got > 0);
  fclose(f);
  *len = n;
  return s;
}

static int test_real_tables(const char *root) {
  static const char *files[] = {"SHM.txt", "IB.txt", "TCP.txt", "gamma.txt"};
  char dir[4096], path[8192];
  DIR *d;
  struct dirent *e;
  int nparsed = 0;
  size_t len;
  char *text;

  snprintf(path, sizeof path, "%s/../shared/params/lusitania/SHM.txt", root);
  text = read_file(path, &len);
  if (!text) {
    printf("table: ../shared/params not found, real-table checks skipped\n");
    return 0;
  }
  free(text);

  snprintf(dir, sizeof dir, "%s/../shared/params", root);
  d = opendir(dir);
  CHECK(d != NULL);
  while (d && (e = readdir(d)) != NULL) {
    size_t k;
    if (e->d_name[0] == '.') continue;
    for (k = 0; k < sizeof files / sizeof *files; k++) {
      reports r;
      tab_table *t = NULL;
      int n;
      snprintf(path, sizeof path, "%s/%s/%s", dir, e->d_name, files[k]);
      text = read_file(path, &len);
      if (!text) continue;
      memset(&r, 0, sizeof r);
      n = tab_parse(text, len, &t, capture, &r);
      free(text);
      nparsed++;
      CHECK(n == 0);
      if (n) {
        fprintf(stderr, "%s:\n", path);
        dump(&r);
      }
      if (!t) continue;
      check_sane(t);
      CHECK(t->nrows == 30);
      CHECK(t->kind == (k == 3 ? TAB_GAMMA : TAB_CHANNEL));
      if (k == 3) CHECK(tab_gamma_column(t, "sum") >= 0 || tab_gamma_column(t, "SUM_R") >= 0);
      if (strcmp(e->d_name, "lusitania") == 0 && k == 0) {
        CHECK(tab_ntau(t) == 20);
        CHECK(t->m[0] == 1 && t->m[29] == 4194304);
        CHECK_NEAR(tab_o(t, 1, NULL), 4.25762e-07, 1e-12);
        CHECK_NEAR(tab_L(t, 1, 1, TAB_TAU_PROPORTIONAL, NULL), 4.9475e-08, 1e-12);
        CHECK_NEAR(tab_L(t, 64, 2, TAB_TAU_PROPORTIONAL, NULL), 2.40272e-07, 1e-12);
      }
      if (strcmp(e->d_name, "metropolis") == 0 && k == 3) {
        CHECK(t->ncols == 18);
        CHECK(tab_gamma_column(t, "MINLOC_R") == 17);
      }
      tab_free(t);
    }
  }
  if (d) closedir(d);
  CHECK(nparsed >= 4);
  printf("table: %d real tables parsed\n", nparsed);
  return 1;
}

int main(int argc, char **argv) {
  if (unit_real_mode(argc, argv))
    return test_real_tables(argv[1]) ? unit_report("table (real tables)") : UNIT_SKIPPED;
  test_channel_formats();
  test_gamma();
  test_single_row();
  test_errors();
  test_hostile();
  return unit_report("table");
}
