/* benchread.c — reads the output of MPI benchmark suites into curves of time against
 * message size: Intel MPI Benchmarks (IMB: `# Benchmarking NAME`, `# #processes = N`,
 * a `#bytes #repetitions t…[usec]` header and rows) and the OSU micro-benchmarks
 * (`# OSU MPI … Test`, `# Size  Avg Latency(us)`, rows). Text outside those blocks (mpirun
 * chatter, IMB's preamble) is skipped; a malformed row inside one is a file:line error.
 * The input is bytes of any kind: nothing is assumed about its lines or its encoding. */
#include "base/base.h"
#include "front/front.h"
#include "tlop_measure.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REPORTS 50     /* a binary file would otherwise give one error per line */
#define MAX_FIELDS 64      /* wider rows are not benchmark output */
#define MAX_SERIES 100000
#define MAX_NUMBER 64      /* longer "numbers" are refused before strtod sees them */

typedef struct token {
  const char *s;
  size_t n;
} token;

typedef enum { BLOCK_NONE, BLOCK_IMB, BLOCK_OSU } block_kind;

typedef struct reader {
  tlop_ctx *ctx;
  const char *path;
  int errors;
  /* what the last headers said */
  char *imb_name;
  int imb_procs;
  char *osu_title;
  bool osu_one_way;
  /* the block being read */
  block_kind block;
  size_t nfields;    /* IMB: fields of every row; OSU: at least this many */
  size_t time_col, min_col, max_col; /* 0: no such column */
  int header_line;
  size_t rows;       /* data lines of the block, accepted or not */
  tlop_bench *out;
  size_t cap_series, cap_points;
} reader;

static void report(reader *r, int line, const char *fmt, ...) TLOP_PRINTF(3, 4);

static void report(reader *r, int line, const char *fmt, ...) {
  if (++r->errors > MAX_REPORTS)
    return;
  strbuf b = {0};
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(&b, fmt, ap);
  va_end(ap);
  char *msg = sb_take(&b);
  if (r->errors == MAX_REPORTS)
    diag_error_line(r->ctx, r->path, line, "%s (too many errors, the rest is not checked)", msg);
  else
    diag_error_line(r->ctx, r->path, line, "%s", msg);
  free(msg);
}

/* A token as a message shows it: at most 40 bytes, non-printable bytes as \xNN. */
static void quote(char *dst, size_t cap, token t) {
  static const char hex[] = "0123456789abcdef";
  size_t o = 0, i = 0;
  dst[o++] = '\'';
  for (; i < t.n && i < 40 && o + 6 < cap; i++) {
    unsigned char c = (unsigned char)t.s[i];
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      dst[o++] = (char)c;
    } else {
      dst[o++] = '\\';
      dst[o++] = 'x';
      dst[o++] = hex[c >> 4];
      dst[o++] = hex[c & 15];
    }
  }
  if (i < t.n && o + 5 < cap) {
    memcpy(dst + o, "...", 3);
    o += 3;
  }
  dst[o++] = '\'';
  dst[o] = 0;
}

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* Splits a line at blanks; returns the number of fields, at most max+1 (then too many). */
static size_t split(const char *s, const char *e, token *out, size_t max) {
  size_t n = 0;
  while (s < e) {
    while (s < e && is_blank(*s))
      s++;
    if (s == e)
      break;
    const char *b = s;
    while (s < e && !is_blank(*s))
      s++;
    if (n == max)
      return max + 1;
    out[n++] = (token){b, (size_t)(s - b)};
  }
  return n;
}

static bool tok_is(token t, const char *w) { return t.n == strlen(w) && !memcmp(t.s, w, t.n); }

static bool tok_starts(token t, const char *w) {
  size_t n = strlen(w);
  return t.n >= n && !memcmp(t.s, w, n);
}

/* A plain decimal number (no hex, nan or inf, which strtod would also take). */
static bool number(token t, double *out) {
  size_t i = 0, digits = 0;
  if (t.n == 0 || t.n > MAX_NUMBER)
    return false;
  if (t.s[i] == '+' || t.s[i] == '-')
    i++;
  for (; i < t.n && t.s[i] >= '0' && t.s[i] <= '9'; i++)
    digits++;
  if (i < t.n && t.s[i] == '.')
    for (i++; i < t.n && t.s[i] >= '0' && t.s[i] <= '9'; i++)
      digits++;
  if (digits && i < t.n && (t.s[i] == 'e' || t.s[i] == 'E')) {
    size_t ed = 0;
    if (++i < t.n && (t.s[i] == '+' || t.s[i] == '-'))
      i++;
    for (; i < t.n && t.s[i] >= '0' && t.s[i] <= '9'; i++)
      ed++;
    if (!ed)
      return false;
  }
  if (!digits || i != t.n)
    return false;
  char buf[MAX_NUMBER + 1];
  memcpy(buf, t.s, t.n);
  buf[t.n] = 0;
  *out = strtod(buf, NULL) + 0.0;
  return isfinite(*out);
}

/* A name for messages: control bytes (a terminal's escapes) become '?'. */
static char *tok_dup(token t) {
  char *s = xmalloc(t.n + 1);
  for (size_t i = 0; i < t.n; i++)
    s[i] = (unsigned char)t.s[i] < 0x20 || t.s[i] == 0x7f ? '?' : t.s[i];
  s[t.n] = 0;
  return s;
}

/* The text of a header line after `prefix` words, for names and titles: printable bytes. */
static char *rest_of_line(const char *s, const char *e) {
  while (s < e && is_blank(*s))
    s++;
  while (e > s && is_blank(e[-1]))
    e--;
  char *d = xmalloc((size_t)(e - s) + 1), *o = d;
  for (; s < e; s++)
    *o++ = (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s;
  *o = 0;
  return d;
}

static tlop_bench_series *series_new(reader *r, const char *name, const char *suite,
                                     int procs, bool one_way) {
  tlop_bench *b = r->out;
  if (b->nseries == MAX_SERIES)
    return NULL;
  b->series = grow_array(b->series, &r->cap_series, b->nseries + 1, sizeof *b->series);
  tlop_bench_series *s = &b->series[b->nseries++];
  memset(s, 0, sizeof *s);
  s->name = xstrdup(name);
  s->suite = suite;
  s->procs = procs;
  s->one_way = one_way;
  r->cap_points = 0;
  r->rows = 0;
  return s;
}

static void end_block(reader *r) {
  if (r->block != BLOCK_NONE && r->rows == 0)
    report(r, r->header_line, "a benchmark header with no rows after it (a truncated run?)");
  r->block = BLOCK_NONE;
}

/* `#bytes #repetitions t[usec] Mbytes/sec` or `… t_min[usec] t_max[usec] t_avg[usec] …`. */
static void imb_header(reader *r, int line, token *f, size_t n) {
  size_t avg = 0, plain = 0;
  r->min_col = r->max_col = 0;
  for (size_t i = 1; i < n; i++) {
    if (tok_is(f[i], "t_avg[usec]"))
      avg = i;
    else if (tok_is(f[i], "t[usec]"))
      plain = i;
    else if (tok_is(f[i], "t_min[usec]"))
      r->min_col = i;
    else if (tok_is(f[i], "t_max[usec]"))
      r->max_col = i;
  }
  if (!avg && !plain) {
    report(r, line, "the IMB header has no t_avg[usec] or t[usec] column");
    return;
  }
  const char *name = r->imb_name ? r->imb_name : "IMB";
  if (!series_new(r, name, "IMB", r->imb_procs, !strcmp(name, "PingPong")))
    return;
  r->block = BLOCK_IMB;
  r->nfields = n;
  r->time_col = avg ? avg : plain;
  r->header_line = line;
}

/* Where `word` (then "Latency") stands among the columns of an OSU header, counting
 * "Size" as 0 and a column per "Latency" ("Avg Latency(us)", "Latency (us)"); 0: absent. */
static size_t osu_column(const char *s, const char *e, const char *word) {
  size_t col = 0, wn = strlen(word);
  for (const char *p = s; p + 7 <= e; p++) {
    if (memcmp(p, "Latency", 7))
      continue;
    col++;
    if (!wn || (p - s > (long)wn && !memcmp(p - wn - 1, word, wn)))
      return col;
  }
  return 0;
}

/* `# Size  Avg Latency(us) …` or `# Size  Latency (us)`: the latency is the second field;
 * OSU's -f adds Min and Max columns. */
static void osu_header(reader *r, int line, const char *s, const char *e) {
  bool latency = osu_column(s, e, "") > 0;
  if (!latency) {
    report(r, line, "this OSU test reports no latency (only latency tests can be compared)");
    return;
  }
  const char *title = r->osu_title ? r->osu_title : "OSU";
  if (!series_new(r, title, "OSU", 0, r->osu_one_way))
    return;
  r->block = BLOCK_OSU;
  r->nfields = 2;
  r->time_col = 1;
  r->min_col = osu_column(s, e, "Min");
  r->max_col = osu_column(s, e, "Max");
  if (r->min_col >= r->nfields)
    r->nfields = r->min_col + 1;
  if (r->max_col >= r->nfields)
    r->nfields = r->max_col + 1;
  r->header_line = line;
}

/* `# OSU MPI Latency Test v7.1`: a point-to-point latency (one way) when "Latency" is the
 * word right after the `OSU MPI…` words; the version is dropped from the title. */
static void osu_title(reader *r, const char *s, const char *e) {
  free(r->osu_title);
  r->osu_title = rest_of_line(s, e);
  if (!r->osu_title)
    return;
  char *v = strstr(r->osu_title, " v");
  if (v && v[2] >= '0' && v[2] <= '9')
    *v = 0;
  token w[4];
  size_t n = split(r->osu_title, r->osu_title + strlen(r->osu_title), w, 3);
  r->osu_one_way = n >= 3 && tok_starts(w[1], "MPI") && tok_is(w[2], "Latency");
}

static void *grow_to(void *p, size_t cap, size_t elem) {
  size_t had = 0;
  return grow_array(p, &had, cap, elem);
}

static void add_point(reader *r, int line, token *f, size_t n) {
  tlop_bench_series *s = &r->out->series[r->out->nseries - 1];
  bool too_few = r->block == BLOCK_IMB ? n != r->nfields : n < r->nfields;
  if (too_few || n > MAX_FIELDS) {
    report(r, line, "row has %zu field%s, the header above (line %d) has %s%zu",
           n > MAX_FIELDS ? (size_t)MAX_FIELDS + 1 : n, n == 1 ? "" : "s", r->header_line,
           r->block == BLOCK_OSU ? "at least " : "", r->nfields);
    return;
  }
  double bytes, t;
  char q[200];
  for (size_t i = 0; i < n; i++) {
    double x;
    if (!number(f[i], &x)) {
      quote(q, sizeof q, f[i]);
      report(r, line, "%s is not a finite decimal number", q);
      return;
    }
  }
  number(f[0], &bytes);
  number(f[r->time_col], &t);
  double lo = t, hi = t;
  if (r->min_col)
    number(f[r->min_col], &lo);
  if (r->max_col)
    number(f[r->max_col], &hi);
  if (bytes < 0 || bytes != floor(bytes) || bytes > 9007199254740992.0) {
    quote(q, sizeof q, f[0]);
    report(r, line, "message size %s is not a whole number of bytes", q);
    return;
  }
  if (t < 0 || lo < 0 || hi < 0) {
    quote(q, sizeof q, f[t < 0 ? r->time_col : lo < 0 ? r->min_col : r->max_col]);
    report(r, line, "negative time %s", q);
    return;
  }
  if (s->n && bytes <= s->bytes[s->n - 1]) {
    report(r, line, "message size %.17g does not grow (the row before has %.17g)", bytes,
           s->bytes[s->n - 1]);
    return;
  }
  if (s->n == r->cap_points) { /* the arrays of a series grow together */
    size_t cap = r->cap_points ? 2 * r->cap_points : 16;
    s->bytes = grow_to(s->bytes, cap, sizeof *s->bytes);
    s->seconds = grow_to(s->seconds, cap, sizeof *s->seconds);
    s->lines = grow_to(s->lines, cap, sizeof *s->lines);
    if (r->min_col)
      s->min = grow_to(s->min, cap, sizeof *s->min);
    if (r->max_col)
      s->max = grow_to(s->max, cap, sizeof *s->max);
    r->cap_points = cap;
  }
  /* both suites print microseconds */
  s->bytes[s->n] = bytes;
  s->seconds[s->n] = t * 1e-6;
  if (s->min)
    s->min[s->n] = lo * 1e-6;
  if (s->max)
    s->max[s->n] = hi * 1e-6;
  s->lines[s->n] = line;
  s->n++;
}

/* One line: a header that changes state, a row of the current block, or chatter. */
static void line_in(reader *r, int line, const char *s, const char *e) {
  token f[MAX_FIELDS + 1];
  size_t n = split(s, e, f, MAX_FIELDS);
  if (n == 0) {
    end_block(r);
    return;
  }
  if (f[0].s[0] != '#') {
    if (r->block != BLOCK_NONE) {
      r->rows++;
      add_point(r, line, f, n);
    }
    return;
  }
  /* a comment line ends a block of rows, and may start another */
  if (tok_is(f[0], "#bytes")) {
    end_block(r);
    imb_header(r, line, f, n > MAX_FIELDS ? MAX_FIELDS : n);
    return;
  }
  end_block(r);
  if (n >= 3 && tok_is(f[0], "#") && tok_is(f[1], "Benchmarking")) {
    free(r->imb_name);
    r->imb_name = tok_dup(f[2]);
    r->imb_procs = 0;
  } else if (n >= 4 && tok_is(f[0], "#") && tok_is(f[1], "#processes") && tok_is(f[2], "=")) {
    double p;
    if (number(f[3], &p) && p >= 1 && p <= 1e9 && p == floor(p))
      r->imb_procs = (int)p;
    else
      report(r, line, "'#processes =' is not followed by a number of processes");
  } else if (n >= 3 && tok_is(f[0], "#") && tok_is(f[1], "OSU") && tok_starts(f[2], "MPI")) {
    osu_title(r, f[1].s, e);
  } else if (n >= 2 && tok_is(f[0], "#") && tok_is(f[1], "Size")) {
    osu_header(r, line, f[1].s, e);
  }
}

void tlop_bench_free(tlop_bench *b) {
  if (!b)
    return;
  for (size_t i = 0; i < b->nseries; i++) {
    free(b->series[i].name);
    free(b->series[i].bytes);
    free(b->series[i].seconds);
    free(b->series[i].min);
    free(b->series[i].max);
    free(b->series[i].lines);
  }
  free(b->series);
  free(b->path);
  free(b);
}

tlop_status tlop_bench_parse(tlop_ctx *ctx, const char *name, const char *text, size_t len,
                             tlop_bench **out) {
  if (!ctx || !name || (!text && len) || !out)
    return TLOP_ERR_ARG;
  *out = NULL;
  reader r = {.ctx = ctx, .path = name};
  r.out = xcalloc(1, sizeof *r.out);
  r.out->path = xstrdup(name);
  const char *p = text, *end = text + len;
  int lineno = 0;
  while (p < end && r.errors <= MAX_REPORTS) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *e = nl ? nl : end;
    line_in(&r, ++lineno, p, e);
    p = nl ? nl + 1 : end;
  }
  end_block(&r);
  if (!r.errors && r.out->nseries == 0)
    report(&r, 0, "no IMB or OSU results in it (no '#bytes #repetitions …' or "
                  "'# Size … Latency(us)' header)");
  free(r.imb_name);
  free(r.osu_title);
  if (r.errors) {
    tlop_bench_free(r.out);
    return TLOP_ERR_TABLE;
  }
  *out = r.out;
  return TLOP_OK;
}

tlop_status tlop_bench_read(tlop_ctx *ctx, const char *path, tlop_bench **out) {
  if (!ctx || !path || !out)
    return TLOP_ERR_ARG;
  *out = NULL;
  size_t len;
  span nowhere = {0};
  const char *text = load_read_file(ctx, path, nowhere, &len);
  if (!text)
    return TLOP_ERR_IO;
  return tlop_bench_parse(ctx, path, text, len, out);
}
