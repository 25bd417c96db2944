/* table.c — reads τ-Lop parameter tables (libtaulop text, gamma and CSV), reports every
 * problem it finds, and implements the m/τ look-up that the interpreter and the JIT share.
 * The input is a byte range: it is never assumed to be NUL-terminated or well formed. */
#include "eval/table.h"

#include "base/base.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REPORTS 100      /* a binary file would otherwise yield millions of reports */
#define MAX_NUMBER_LEN 1000  /* longer "numbers" are refused rather than fed to strtod */

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

/* ======================= reading ======================= */

typedef struct {
  tab_report_fn report;
  void *user;
  tab_limits limits;
  int nerr;
  int stop; /* too many problems or too large: read no further */

  tab_kind kind;
  long ncols;     /* value columns after m; 0 while unknown */
  double *m, *v;  /* accepted rows */
  size_t nrows, cap;
  size_t nseen;   /* data lines seen, accepted or not: compared with `#m N` */
  int have_prev;  /* m of the previous data line, for the increasing check */
  double prev_m;
  char **names;   /* gamma operator names (ncols of them once known) */
  long nnames;
} parser;

typedef struct {
  const char *pos, *end;
  int lineno;
} reader;

static void problem(parser *p, int line, const char *fmt, ...) PRINTF_LIKE(3, 4);

static void problem(parser *p, int line, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  if (p->stop) return;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  p->nerr++;
  if (p->report) p->report(p->user, line, msg);
  if (p->nerr == MAX_REPORTS) {
    p->nerr++;
    if (p->report)
      p->report(p->user, line, "too many problems, the rest of the file is not checked");
    p->stop = 1;
  }
}

/* Renders a token for a message: bounded, and bytes that would garble a terminal escaped. */
static void quote(char *dst, size_t cap, const char *s, size_t n) {
  static const char hex[] = "0123456789abcdef";
  size_t o = 0, i;
  dst[o++] = '\'';
  for (i = 0; i < n && o + 8 < cap; i++) {
    unsigned char c = (unsigned char)s[i];
    if (i == 40) break;
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      dst[o++] = (char)c;
    } else {
      dst[o++] = '\\';
      dst[o++] = 'x';
      dst[o++] = hex[c >> 4];
      dst[o++] = hex[c & 15];
    }
  }
  if (i < n) {
    dst[o++] = '.';
    dst[o++] = '.';
    dst[o++] = '.';
  }
  dst[o++] = '\'';
  dst[o] = '\0';
}

/* Next line without its '\n' and a trailing '\r'; 0 at the end of the input. */
static int next_line(reader *r, const char **b, const char **e) {
  const char *nl, *end;
  if (r->pos >= r->end) return 0;
  nl = memchr(r->pos, '\n', (size_t)(r->end - r->pos));
  end = nl ? nl : r->end;
  *b = r->pos;
  r->pos = nl ? nl + 1 : r->end;
  r->lineno++;
  if (end > *b && end[-1] == '\r') end--;
  *e = end;
  return 1;
}

static int is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static const char *skip_space(const char *s, const char *e) {
  while (s < e && is_space(*s)) s++;
  return s;
}

/* Fields of one line: whitespace separated (text) or comma separated and trimmed (CSV). */
typedef struct {
  const char *pos, *end;
  int csv, done;
} fields;

static int next_field(fields *f, const char **b, size_t *n) {
  const char *s, *e;
  if (f->done) return 0;
  if (!f->csv) {
    s = skip_space(f->pos, f->end);
    if (s == f->end) {
      f->done = 1;
      return 0;
    }
    e = s;
    while (e < f->end && !is_space(*e)) e++;
    f->pos = e;
  } else {
    const char *comma = memchr(f->pos, ',', (size_t)(f->end - f->pos));
    s = f->pos;
    e = comma ? comma : f->end;
    f->pos = comma ? comma + 1 : f->end;
    if (!comma) f->done = 1;
    s = skip_space(s, e);
    while (e > s && is_space(e[-1])) e--;
  }
  *b = s;
  *n = (size_t)(e - s);
  return 1;
}

static size_t count_fields(const char *b, const char *e, int csv) {
  fields f = {b, e, csv, 0};
  const char *s;
  size_t n, count = 0;
  while (next_field(&f, &s, &n)) count++;
  return count;
}

static int token_is(const char *s, size_t n, const char *word) {
  return strlen(word) == n && memcmp(s, word, n) == 0;
}

static int lower(int c) {
  return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int same_ci(const char *s, size_t n, const char *word) {
  size_t i;
  if (strlen(word) != n) return 0;
  for (i = 0; i < n; i++)
    if (lower((unsigned char)s[i]) != word[i]) return 0;
  return 1;
}

enum { NUM_OK, NUM_BAD, NUM_NONFINITE, NUM_RANGE, NUM_LONG };

/* Decimal numbers only: strtod alone would also take hex, "nan", "inf" and a locale's
 * idea of a number, none of which belongs in a measured table. */
static int parse_number(const char *s, size_t n, double *out) {
  char buf[MAX_NUMBER_LEN + 1];
  size_t i = 0, digits = 0;
  char *end;
  double d;
  if (n == 0) return NUM_BAD;
  if (s[i] == '+' || s[i] == '-') i++;
  while (i < n && s[i] >= '0' && s[i] <= '9') i++, digits++;
  if (i < n && s[i] == '.') {
    i++;
    while (i < n && s[i] >= '0' && s[i] <= '9') i++, digits++;
  }
  if (digits > 0 && i < n && (s[i] == 'e' || s[i] == 'E')) {
    size_t expdigits = 0;
    i++;
    if (i < n && (s[i] == '+' || s[i] == '-')) i++;
    while (i < n && s[i] >= '0' && s[i] <= '9') i++, expdigits++;
    if (expdigits == 0) digits = 0;
  }
  if (digits == 0 || i != n) {
    /* What strtod would read as NaN or infinity gets its own message. */
    size_t k = (s[0] == '+' || s[0] == '-') ? 1 : 0;
    if (same_ci(s + k, n - k, "nan") || same_ci(s + k, n - k, "inf") ||
        same_ci(s + k, n - k, "infinity") ||
        (n - k > 4 && same_ci(s + k, 4, "nan(") && s[n - 1] == ')'))
      return NUM_NONFINITE;
    return NUM_BAD;
  }
  if (n > MAX_NUMBER_LEN) return NUM_LONG;
  memcpy(buf, s, n);
  buf[n] = '\0';
  d = strtod(buf, &end);
  if (end != buf + n) return NUM_BAD;
  if (isinf(d)) return NUM_RANGE;
  *out = d + 0.0; /* -0 becomes +0 */
  return NUM_OK;
}

static void number_problem(parser *p, int line, int code, const char *s, size_t n) {
  char q[200];
  quote(q, sizeof q, s, n);
  if (code == NUM_NONFINITE)
    problem(p, line, "%s is not a finite number", q);
  else if (code == NUM_RANGE)
    problem(p, line, "%s is out of range (overflows to infinity)", q);
  else if (code == NUM_LONG)
    problem(p, line, "%s is too long to be a number", q);
  else if (n == 0)
    problem(p, line, "empty field where a number is expected");
  else
    problem(p, line, "%s is not a number", q);
}

/* A positive integer count of a header, or 0 after reporting why not. */
static long parse_count(parser *p, int line, const char *what, const char *s, size_t n,
                        long max, const char *flag) {
  char q[200];
  long v = 0;
  size_t i;
  quote(q, sizeof q, s, n);
  for (i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') {
      problem(p, line, "%s %s is not a positive integer", what, q);
      return 0;
    }
    if (v <= max) v = v * 10 + (s[i] - '0');
  }
  if (n == 0 || v == 0) {
    problem(p, line, "%s %s is not a positive integer", what, q);
    return 0;
  }
  if (v > max) {
    problem(p, line, "%s %s is refused as unreasonable (at most %ld, %s)", what, q, max, flag);
    return 0;
  }
  return v;
}

static void column_name(const parser *p, long j, char *buf, size_t cap) {
  if (p->kind == TAB_CHANNEL && j == 0)
    snprintf(buf, cap, "o");
  else if (p->kind == TAB_CHANNEL)
    snprintf(buf, cap, "L%ld", j);
  else if (p->names && j < p->nnames && p->names[j])
    snprintf(buf, cap, "%.60s", p->names[j]);
  else
    snprintf(buf, cap, "%ld", j + 1);
}

static int reserve_row(parser *p, int line) {
  size_t ncols = (size_t)p->ncols, cap;
  if (p->nrows < p->cap) return 1;
  cap = p->cap ? p->cap * 2 : 32;
  /* Not reached while the rows are in the text, but cap · ncols must not wrap. */
  if (cap > (size_t)-1 / sizeof(double) / ncols) {
    problem(p, line, "the table is too large to hold (%zu rows of %ld values)", cap, p->ncols);
    p->stop = 1;
    return 0;
  }
  p->m = xrealloc(p->m, cap * sizeof *p->m);
  p->v = xrealloc(p->v, cap * ncols * sizeof *p->v);
  p->cap = cap;
  return 1;
}

static void row(parser *p, int line, const char *b, const char *e, int csv) {
  size_t nf = count_fields(b, e, csv), n;
  fields f = {b, e, csv, 0};
  const char *s;
  double *vals, m = 0;
  long j;
  int ok = 1, m_ok, code;
  char q[200];

  if (++p->nseen > (size_t)p->limits.max_rows) {
    problem(p, line, "more than %ld rows, refused as unreasonable (--max-table-rows)",
            p->limits.max_rows);
    p->stop = 1;
    return;
  }
  if (p->ncols == 0) {
    /* The headers were unusable (already reported): take the width from this row so
     * that the rest of the file can still be checked. */
    if (nf < 2 || nf - 1 > (size_t)p->limits.max_cols) return;
    p->ncols = (long)nf - 1;
  }
  if (nf != (size_t)p->ncols + 1) {
    if (p->kind == TAB_CHANNEL)
      problem(p, line, "row has %zu field%s, expected %ld (m, o and %ld L columns)", nf,
              nf == 1 ? "" : "s", p->ncols + 1, p->ncols - 1);
    else
      problem(p, line, "row has %zu field%s, expected %ld (m and %ld operator columns)", nf,
              nf == 1 ? "" : "s", p->ncols + 1, p->ncols);
    return;
  }
  if (!reserve_row(p, line)) return;
  vals = p->v + p->nrows * (size_t)p->ncols;

  next_field(&f, &s, &n);
  code = parse_number(s, n, &m);
  m_ok = code == NUM_OK;
  if (!m_ok) {
    number_problem(p, line, code, s, n);
  } else if (m < 0) {
    quote(q, sizeof q, s, n);
    problem(p, line, "negative message size %s", q);
    m_ok = 0;
  } else if (p->have_prev && m <= p->prev_m) {
    if (m == p->prev_m)
      problem(p, line, "duplicate m %.15g (the previous row has the same m)", m);
    else
      problem(p, line, "m %.15g is not greater than the previous m %.15g (rows must have "
              "increasing m)", m, p->prev_m);
    ok = 0;
  }
  if (m_ok) {
    p->have_prev = 1;
    p->prev_m = m;
  }
  ok = ok && m_ok;

  for (j = 0; j < p->ncols && next_field(&f, &s, &n); j++) {
    double x;
    code = parse_number(s, n, &x);
    if (code != NUM_OK) {
      number_problem(p, line, code, s, n);
      ok = 0;
    } else if (x < 0) {
      char col[80];
      column_name(p, j, col, sizeof col);
      quote(q, sizeof q, s, n);
      problem(p, line, "negative time %s in column %s", q, col);
      ok = 0;
    } else {
      vals[j] = x;
    }
    if (p->stop) return;
  }
  if (ok) {
    p->m[p->nrows++] = m;
  }
}

/* Takes a copy of an operator name, refusing names a message could not show. */
static char *name_copy(parser *p, int line, const char *s, size_t n) {
  char q[200], *c;
  size_t i;
  for (i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (ch < 0x20 || ch == 0x7f) {
      quote(q, sizeof q, s, n);
      problem(p, line, "operator name %s contains control characters", q);
      return NULL;
    }
  }
  if (n == 0) {
    problem(p, line, "empty operator name");
    return NULL;
  }
  c = xmalloc(n + 1);
  memcpy(c, s, n);
  c[n] = '\0';
  return c;
}

static int compare_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Stores the gamma operator names given by the fields after the first one. */
static void store_names(parser *p, int line, const char *b, const char *e, int csv) {
  fields f = {b, e, csv, 0};
  const char *s;
  size_t n;
  long j = 0, k, nsorted = 0;
  char **sorted;
  p->names = xcalloc((size_t)p->ncols, sizeof *p->names);
  p->nnames = p->ncols;
  next_field(&f, &s, &n); /* `#m` or `m` */
  while (j < p->ncols && next_field(&f, &s, &n)) {
    p->names[j++] = name_copy(p, line, s, n);
    if (p->stop) return;
  }
  /* Repeated names, by sorting a copy: a hostile header may have 10^5 of them. */
  sorted = xmalloc((size_t)j * sizeof *sorted);
  for (k = 0; k < j; k++)
    if (p->names[k]) sorted[nsorted++] = p->names[k];
  qsort(sorted, (size_t)nsorted, sizeof *sorted, compare_names);
  for (k = 1; k < nsorted; k++) {
    int same = strcmp(sorted[k - 1], sorted[k]) == 0;
    if (same && (k < 2 || strcmp(sorted[k - 2], sorted[k]) != 0)) {
      char q[200];
      quote(q, sizeof q, sorted[k], strlen(sorted[k]));
      problem(p, line, "operator name %s appears twice", q);
    }
  }
  free(sorted);
}

/* ---- libtaulop text: `#m N`, `#tau T` (or `#m: N`, `#tau_op: K`), names, rows ---- */

typedef struct {
  int seen_m, seen_tau, seen_header, in_rows;
  long nrows;  /* announced by `#m N`, 0 when unusable */
  long ncount; /* announced by `#tau T` / `#tau_op K`, 0 when unusable */
  int m_line;
  const char *hb, *he; /* the column header line */
  int header_line;
} text_state;

static int is_gamma_key(const char *s, size_t n) {
  return token_is(s, n, "tau_op") || token_is(s, n, "tau_ops") || token_is(s, n, "max_ops") ||
         token_is(s, n, "ops") || token_is(s, n, "nops");
}

static void text_header(parser *p, text_state *st, int line, const char *b, const char *e) {
  fields f = {b, e, 0, 0};
  const char *key, *arg = NULL;
  size_t keyn, argn = 0, ntok = count_fields(b, e, 0);
  char what[256], q[200];

  next_field(&f, &key, &keyn);
  key++, keyn--; /* the '#' */
  if (keyn > 0 && key[keyn - 1] == ':') keyn--;
  if (next_field(&f, &arg, &argn) && token_is(arg, argn, ":")) {
    ntok--; /* `#m : 30` */
    if (!next_field(&f, &arg, &argn)) arg = NULL, argn = 0;
  }
  quote(q, sizeof q, key - 1, keyn + 1);

  if (!st->seen_m && !st->seen_header && token_is(key, keyn, "m") && ntok <= 2) {
    st->seen_m = 1;
    st->m_line = line;
    if (ntok < 2) {
      problem(p, line, "garbled '#m N' header: no row count after %s", q);
      return;
    }
    snprintf(what, sizeof what, "row count in %s:", q);
    st->nrows = parse_count(p, line, what, arg, argn, p->limits.max_rows, "--max-table-rows");
  } else if (!st->seen_tau && !st->seen_header && ntok <= 2 &&
             (token_is(key, keyn, "tau") || is_gamma_key(key, keyn) ||
              (st->seen_m && !token_is(key, keyn, "m")))) {
    st->seen_tau = 1;
    if (token_is(key, keyn, "tau")) {
      p->kind = TAB_CHANNEL;
    } else if (is_gamma_key(key, keyn)) {
      p->kind = TAB_GAMMA;
    } else {
      problem(p, line, "unknown header %s, expected '#tau T' (channel) or '#tau_op K' (gamma)",
              q);
      return;
    }
    if (ntok < 2) {
      problem(p, line, "garbled header: no count after %s", q);
      return;
    }
    snprintf(what, sizeof what, "%s count", q);
    st->ncount = parse_count(p, line, what, arg, argn, p->limits.max_cols, "--max-table-cols");
  } else if (!st->seen_header && st->seen_m && st->seen_tau) {
    /* the column header follows the two counts; a '#' line before them is a comment */
    st->seen_header = 1;
    st->hb = b;
    st->he = e;
    st->header_line = line;
  }
  /* anything else is a comment */
}

/* Called once, at the first data row (or the end of the file): the headers are complete. */
static void finish_headers(parser *p, text_state *st, int line) {
  if (!st->seen_m) problem(p, line, "missing '#m N' header line (the number of rows)");
  if (!st->seen_tau)
    problem(p, line, "missing '#tau T' header line (the number of tau columns; "
            "'#tau_op K' for a gamma table)");
  if (st->ncount == 0) return;
  if (p->kind == TAB_CHANNEL) {
    p->ncols = st->ncount + 1;
    return;
  }
  p->ncols = st->ncount;
  if (!st->seen_header) {
    problem(p, line, "missing the operator names line ('#m max min sum ...')");
    return;
  }
  size_t nn = count_fields(st->hb, st->he, 0) - 1;
  if (nn != (size_t)st->ncount) {
    problem(p, st->header_line, "operator names line has %zu names, expected %ld", nn,
            st->ncount);
    return;
  }
  store_names(p, st->header_line, st->hb, st->he, 0);
}

static void parse_text(parser *p, reader *r) {
  text_state st;
  const char *b, *e;
  memset(&st, 0, sizeof st);
  p->kind = TAB_CHANNEL;
  while (!p->stop && next_line(r, &b, &e)) {
    const char *s = skip_space(b, e);
    if (s == e) continue;
    if (*s == '#') {
      if (!st.in_rows) text_header(p, &st, r->lineno, s, e);
      continue;
    }
    if (!st.in_rows) {
      st.in_rows = 1;
      finish_headers(p, &st, r->lineno);
    }
    row(p, r->lineno, s, e, 0);
  }
  if (p->stop) return;
  if (!st.in_rows) {
    finish_headers(p, &st, 0);
    return;
  }
  if (st.nrows > 0 && p->nseen != (size_t)st.nrows)
    problem(p, st.m_line, "'#m' header announces %ld rows, the table has %zu", st.nrows,
            p->nseen);
}

/* ---- CSV: a header `m,o,L1,…,LT` (channel) or `m,<op>,…` (gamma), then rows ---- */

static void csv_header(parser *p, int line, const char *b, const char *e) {
  fields f = {b, e, 1, 0};
  const char *s;
  size_t n, nf = count_fields(b, e, 1);
  char q[200];

  next_field(&f, &s, &n);
  if (!token_is(s, n, "m")) {
    quote(q, sizeof q, s, n);
    problem(p, line, "csv header must start with column 'm', found %s", q);
  }
  if (nf < 2) {
    problem(p, line, "csv header has no value columns after 'm'");
    return;
  }
  if (nf - 1 > (size_t)p->limits.max_cols) {
    problem(p, line, "csv header has %zu columns, refused as unreasonable (at most %ld, "
            "--max-table-cols)", nf - 1, p->limits.max_cols);
    return;
  }
  p->ncols = (long)nf - 1;
  next_field(&f, &s, &n);
  if (token_is(s, n, "o")) {
    long j;
    p->kind = TAB_CHANNEL;
    if (nf == 2) {
      problem(p, line, "csv channel header has no L columns after 'o' (expected m,o,L1,...)");
      return;
    }
    for (j = 1; next_field(&f, &s, &n); j++) {
      char want[32];
      snprintf(want, sizeof want, "L%ld", j);
      if (!token_is(s, n, want)) {
        quote(q, sizeof q, s, n);
        problem(p, line, "csv column %ld is %s, expected '%s' (a channel header is m,o,L1,...,LT)",
                j + 2, q, want);
        return;
      }
    }
  } else {
    p->kind = TAB_GAMMA;
    store_names(p, line, b, e, 1);
  }
}

static void parse_csv(parser *p, reader *r) {
  const char *b, *e;
  int have_header = 0;
  p->kind = TAB_GAMMA;
  while (!p->stop && next_line(r, &b, &e)) {
    const char *s = skip_space(b, e);
    if (s == e || *s == '#') continue;
    if (!have_header) {
      have_header = 1;
      csv_header(p, r->lineno, s, e);
    } else {
      row(p, r->lineno, s, e, 1);
    }
  }
}

/* CSV when the first line that is neither blank nor a `#` line has a comma. */
static int looks_csv(const char *text, size_t len, int *empty) {
  reader r = {text, text + len, 0};
  const char *b, *e;
  *empty = 1;
  while (next_line(&r, &b, &e)) {
    const char *s = skip_space(b, e);
    if (s == e) continue;
    *empty = 0;
    if (*s == '#') continue;
    return memchr(s, ',', (size_t)(e - s)) != NULL;
  }
  return 0;
}

static void free_names(char **names, long n) {
  long i;
  if (!names) return;
  for (i = 0; i < n; i++) free(names[i]);
  free(names);
}

static char **channel_names(long ncols) {
  char **names = xcalloc((size_t)ncols, sizeof *names);
  long j;
  for (j = 0; j < ncols; j++) {
    names[j] = xmalloc(24);
    if (j == 0)
      snprintf(names[j], 24, "o");
    else
      snprintf(names[j], 24, "L%ld", j);
  }
  return names;
}

int tab_parse(const char *text, size_t len, tab_table **out, tab_report_fn report, void *user) {
  return tab_parse_within(text, len, TAB_DEFAULT_LIMITS, out, report, user);
}

int tab_parse_within(const char *text, size_t len, tab_limits limits, tab_table **out,
                     tab_report_fn report, void *user) {
  parser p;
  reader r;
  int empty;
  tab_table *t;

  if (out) *out = NULL;
  if (!text) text = "", len = 0;
  r.pos = text;
  r.end = text + len;
  r.lineno = 0;
  memset(&p, 0, sizeof p);
  p.report = report;
  p.user = user;
  p.limits = limits;

  if (looks_csv(text, len, &empty))
    parse_csv(&p, &r);
  else if (!empty)
    parse_text(&p, &r);
  if (empty)
    problem(&p, 0, "empty file");
  else if (!p.stop && (p.nseen == 0 || (p.nerr == 0 && p.nrows == 0)))
    problem(&p, 0, "the table has no rows");

  if (p.nerr == 0 && out) {
    t = xcalloc(1, sizeof *t);
    if (p.kind == TAB_CHANNEL) t->colnames = channel_names(p.ncols);
    if (p.kind == TAB_GAMMA) t->colnames = p.names, p.names = NULL;
    t->kind = p.kind;
    t->nrows = (int)p.nrows;
    t->ncols = (int)p.ncols;
    t->m = p.m;
    t->v = p.v;
    p.m = p.v = NULL;
    *out = t;
  }
  free(p.m);
  free(p.v);
  free_names(p.names, p.nnames);
  return p.nerr;
}

void tab_free(tab_table *t) {
  if (!t) return;
  free_names(t->colnames, t->ncols);
  free(t->m);
  free(t->v);
  free(t);
}

/* ======================= look-ups ======================= */

int tab_ntau(const tab_table *t) {
  return t && t->kind == TAB_CHANNEL ? t->ncols - 1 : 0;
}

int tab_gamma_column(const tab_table *t, const char *op) {
  int j;
  size_t i;
  if (!t || !op || t->kind != TAB_GAMMA) return -1;
  for (j = 0; j < t->ncols; j++)
    if (strcmp(t->colnames[j], op) == 0) return j;
  /* Tables spell operators either way (`sum`, `SUM`); an exact match wins. */
  for (j = 0; j < t->ncols; j++) {
    const char *name = t->colnames[j];
    for (i = 0; name[i] && lower((unsigned char)name[i]) == lower((unsigned char)op[i]); i++) {
    }
    if (name[i] == '\0' && op[i] == '\0') return j;
  }
  return -1;
}

/* Where m falls in the table, shared by all columns of one look-up. The value of column c
 * is then
 *   y = v[lo] + (v[hi] - v[lo]) * ((m - m[lo]) / (m[hi] - m[lo]))   (hi != lo: between rows)
 *   y = v[lo]                                                     (exact, or clamped)
 * and beyond the last row, with q copies of it and the remainder r in place of m,
 *   y = q * v[last] + y(r),
 * evaluated in exactly this order so that every engine gets the same bits. The fraction
 * comes first: (v[hi] - v[lo]) * (m - m[lo]) overflows for values near 1e308. */
typedef struct {
  int lo, hi;
  double dm, span; /* m - m[lo] and m[hi] - m[lo] */
  double q;
} locus;

static void locate(const tab_table *t, double m, locus *p, unsigned *flags) {
  const double *ms = t->m;
  int n = t->nrows, lo, hi;
  double last = ms[n - 1];
  p->q = 0;
  if (m > last) {
    /* libtaulop: v(m) = v(last) + v(m - last), repeated while m - last > last; that is
     * q = ceil(m/last) - 1 copies of v(last) plus v(r) with 0 < r <= last. fmod gives r
     * exactly, so q is an exact integer for any m below 2^53 and needs no loop above. */
    if (flags) *flags |= TAB_BEYOND_M;
    if (last == 0) {
      /* A single row at m = 0 has no length to repeat: v(m) = v(0). */
      p->lo = p->hi = n - 1;
      return;
    }
    if (m > DBL_MAX) {
      p->q = DBL_MAX; /* m = inf (outside the contract): saturate instead of NaN */
      m = last;
    } else {
      double r = fmod(m, last);
      if (r == 0) r = last;
      p->q = floor((m - r) / last + 0.5);
      m = r;
    }
  }
  if (!(m > ms[0])) {
    /* A remainder below the first row is part of the beyond rule, not flagged twice. */
    if (m < ms[0] && p->q == 0 && flags) *flags |= TAB_BELOW_M;
    p->lo = p->hi = 0;
    return;
  }
  if (m >= last) {
    p->lo = p->hi = n - 1;
    return;
  }
  lo = 0; /* ms[lo] <= m < ms[hi] */
  hi = n - 1;
  while (hi - lo > 1) {
    int mid = lo + (hi - lo) / 2;
    if (ms[mid] <= m)
      lo = mid;
    else
      hi = mid;
  }
  p->lo = lo;
  if (ms[lo] == m) {
    p->hi = lo;
    return;
  }
  p->hi = hi;
  p->dm = m - ms[lo];
  p->span = ms[hi] - ms[lo];
}

/* Values are finite and ≥ 0, but near 1e308 a sum overflows, and interpolating from an
 * infinite value gives inf − inf: the value is infinite then (the caller refuses it), not
 * NaN. The JIT hands a non-finite look-up to the interpreter, which comes here. */
static double finite_or_inf(double y) { return isnan(y) ? INFINITY : y; }

static double eval(const tab_table *t, const locus *p, int col) {
  const double *v = t->v;
  size_t nc = (size_t)t->ncols;
  double y = v[(size_t)p->lo * nc + (size_t)col];
  if (p->hi != p->lo) {
    double y1 = v[(size_t)p->hi * nc + (size_t)col];
    y = y + (y1 - y) * (p->dm / p->span);
  }
  if (p->q != 0) y = p->q * v[(size_t)(t->nrows - 1) * nc + (size_t)col] + y;
  return finite_or_inf(y);
}

double tab_column_at(const tab_table *t, int col, double m, unsigned *flags) {
  locus p;
  if (!t || t->nrows < 1 || col < 0 || col >= t->ncols) return NAN;
  locate(t, m, &p, flags);
  return eval(t, &p, col);
}

/* Columns 1..T are τ = 1..T. Between columns
 *   L = L(m,k) + (L(m,k+1) - L(m,k)) * (τ - k),  k = floor(τ),
 * each L(m,·) found in m first; beyond T, (L(m,T) * τ) / T or L(m,T) by `rule`. */
double tab_L(const tab_table *t, double m, double tau, tab_tau_rule rule, unsigned *flags) {
  int T = tab_ntau(t), c;
  locus p;
  double k, a, b;
  if (T < 1 || t->nrows < 1) return NAN;
  if (!(tau >= 1)) tau = 1; /* outside the contract (the caller checks); NaN included */
  locate(t, m, &p, flags);
  if (tau > T) {
    if (flags) *flags |= TAB_BEYOND_TAU;
    a = eval(t, &p, T);
    return rule == TAB_TAU_CLAMP ? a : a * tau / T;
  }
  k = floor(tau);
  c = (int)k;
  a = eval(t, &p, c);
  if (tau == k) return a;
  b = eval(t, &p, c + 1);
  return finite_or_inf(a + (b - a) * (tau - k));
}

double tab_o(const tab_table *t, double m, unsigned *flags) {
  if (!t || t->kind != TAB_CHANNEL) return NAN;
  return tab_column_at(t, 0, m, flags);
}
