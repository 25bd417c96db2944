/* sweep_rows.c — the rows of `tlop sweep` as CSV, JSON, an aligned table or NumPy's .npy,
 * written a chunk at a time: the threads each format a contiguous run of the chunk's rows
 * into a buffer of their own, and the buffers are written in order, so the output is the
 * same bytes whatever the number of threads. With more than one thread a writer thread
 * writes a chunk while the next one is evaluated and formatted. Numbers in CSV and JSON are the shortest text
 * strtod reads back to the same double (tlop_format_double); .npy holds the doubles. */
#include "cli.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const format_names[] = {"csv", "json", "table", "npy"};

bool rows_format_parse(const char *text, rows_format *out) {
  for (int f = 0; f < 4; f++)
    if (!strcmp(text, format_names[f])) {
      *out = (rows_format)f;
      return true;
    }
  return false;
}

/* The most bytes one row can take: each column's separator, name (JSON) and value. */
static size_t row_max(const rows_writer *w) {
  size_t n = 8;
  for (size_t j = 0; j < w->naxes + w->nalgo; j++)
    n += w->format == ROWS_NPY    ? sizeof(double)
         : w->format == ROWS_JSON ? strlen(w->names[j]) + 8 + TLOP_FORMAT_DOUBLE_MAX
                                  : 2 + 64 + TLOP_FORMAT_DOUBLE_MAX;
  return n;
}

static int cores(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 1;
}

bool rows_open(rows_writer *w, FILE *out, rows_format format, const char *const *names,
               const tlop_kind *kinds, size_t naxes, size_t nalgo, int jobs) {
  *w = (rows_writer){.out = out, .format = format, .names = names, .kinds = kinds,
                     .naxes = naxes, .nalgo = nalgo, .jobs = (size_t)(jobs > 0 ? jobs : cores()),
                     .write_ok = true};
  w->row_max = row_max(w);
  bool ok = true;
  for (int x = 0; x < 2; x++) {
    w->text[x].bufs = calloc(w->jobs, sizeof *w->text[x].bufs);
    w->text[x].lens = calloc(w->jobs, sizeof *w->text[x].lens);
    ok = ok && w->text[x].bufs && w->text[x].lens;
  }
  return ok;
}

void rows_close(rows_writer *w) {
  rows_flush(w);
  for (int x = 0; x < 2; x++) {
    for (size_t t = 0; w->text[x].bufs && t < w->jobs; t++)
      free(w->text[x].bufs[t]);
    free(w->text[x].bufs);
    free(w->text[x].lens);
  }
}

/* NumPy's .npy, version 1.0 (2.0 when the header passes 64 KiB): the magic, the header's
 * length, a Python dict naming one structured array of little-endian doubles, one field a
 * column, padded with spaces to a multiple of 64 bytes; then the rows as they are in
 * memory (https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html). */
static void npy_header(const rows_writer *w, size_t npts) {
  uint16_t probe = 1;
  const char *f8 = *(uint8_t *)&probe ? "<f8" : ">f8";
  size_t cap = 128 + 64, len = 0;
  for (size_t j = 0; j < w->naxes + w->nalgo; j++)
    cap += strlen(w->names[j]) + 16;
  char *dict = malloc(cap);
  if (!dict)
    abort();
  len += (size_t)sprintf(dict + len, "{'descr': [");
  for (size_t j = 0; j < w->naxes + w->nalgo; j++)
    len += (size_t)sprintf(dict + len, "%s('%s', '%s')", j ? ", " : "", w->names[j], f8);
  len += (size_t)sprintf(dict + len, "], 'fortran_order': False, 'shape': (%zu,), }", npts);
  int version = len + 1 + 10 > 0xffff ? 2 : 1;
  size_t prefix = version == 1 ? 10 : 12, total = (prefix + len + 1 + 63) / 64 * 64;
  memset(dict + len, ' ', total - prefix - len - 1);
  len = total - prefix;
  dict[len - 1] = '\n';
  size_t hlen = len;
  unsigned char magic[12] = {0x93, 'N', 'U', 'M', 'P', 'Y', (unsigned char)version, 0};
  for (size_t b = 0; b < prefix - 8; b++)
    magic[8 + b] = (unsigned char)(hlen >> (8 * b));
  fwrite(magic, 1, prefix, w->out);
  fwrite(dict, 1, len, w->out);
  free(dict);
}

void rows_begin(const rows_writer *w, size_t npts) {
  size_t ncols = w->naxes + w->nalgo;
  switch (w->format) {
  case ROWS_CSV:
    for (size_t j = 0; j < ncols; j++)
      fprintf(w->out, "%s%s", j ? "," : "", w->names[j]);
    fputc('\n', w->out);
    break;
  case ROWS_JSON:
    fputs("[", w->out);
    break;
  case ROWS_TABLE:
    for (size_t j = 0; j < ncols; j++)
      fprintf(w->out, j < w->naxes ? "%s%12s" : "%s%16s", j ? "  " : "", w->names[j]);
    fputc('\n', w->out);
    break;
  case ROWS_NPY:
    npy_header(w, npts);
    break;
  }
}

void rows_end(const rows_writer *w) {
  if (w->format == ROWS_JSON)
    fputs("\n]\n", w->out);
}

/* Column j of row i of a chunk: an axis from the points, an algorithm from the results. */
static double cell(const rows_writer *w, const double *pts, const double *res, size_t k,
                   size_t i, size_t j) {
  return j < w->naxes ? pts[i * w->naxes + j] : res[(j - w->naxes) * k + i];
}

typedef struct slice {
  const rows_writer *w;
  const double *pts, *res;
  size_t k, from, to, first; /* rows from … to-1 of a chunk of k starting at grid row `first` */
  char *buf;
  size_t len;
} slice;

static void *format_slice(void *p) {
  slice *s = p;
  const rows_writer *w = s->w;
  size_t ncols = w->naxes + w->nalgo;
  char *o = s->buf;
  for (size_t i = s->from; i < s->to; i++) {
    if (w->format == ROWS_JSON) {
      memcpy(o, s->first + i ? ",\n {" : "\n {", s->first + i ? 4 : 3);
      o += s->first + i ? 4 : 3;
    }
    for (size_t j = 0; j < ncols; j++) {
      double v = cell(w, s->pts, s->res, s->k, i, j);
      switch (w->format) {
      case ROWS_CSV:
        if (j)
          *o++ = ',';
        o += tlop_format_double(o, v);
        break;
      case ROWS_JSON:
        o += sprintf(o, "%s\"%s\": ", j ? ", " : "", w->names[j]);
        o += tlop_format_double(o, v);
        break;
      case ROWS_TABLE: {
        char text[64];
        cli_fmt_value(text, sizeof text, v, w->kinds[j]);
        o += sprintf(o, j < w->naxes ? "%s%12s" : "%s%16s", j ? "  " : "", text);
        break;
      }
      case ROWS_NPY:
        memcpy(o, &v, sizeof v);
        o += sizeof v;
        break;
      }
    }
    if (w->format == ROWS_JSON)
      *o++ = '}';
    else if (w->format != ROWS_NPY)
      *o++ = '\n';
  }
  s->len = (size_t)(o - s->buf);
  return NULL;
}

/* A chunk's text to the output, in order; the writer's errno kept for the caller's thread. */
static void *write_text(void *p) {
  rows_writer *w = p;
  const rows_text *x = &w->text[w->next ^ 1];
  bool ok = true;
  for (size_t t = 0; t < x->nbufs && ok; t++)
    ok = fwrite(x->bufs[t], 1, x->lens[t], w->out) == x->lens[t];
  w->write_ok = ok;
  w->write_errno = ok ? 0 : errno;
  return NULL;
}

bool rows_flush(rows_writer *w) {
  if (w->writing)
    pthread_join(w->writer, NULL);
  w->writing = false;
  if (!w->write_ok)
    errno = w->write_errno;
  return w->write_ok;
}

bool rows_write(rows_writer *w, size_t first, const double *pts, const double *res, size_t k) {
  /* a thread per ≥ 1024 rows: fewer are not worth starting one */
  size_t jobs = w->jobs < k / 1024 ? w->jobs : k / 1024 ? k / 1024 : 1;
  size_t per = (k + jobs - 1) / jobs;
  rows_text *x = &w->text[w->next];
  if (per > x->cap_rows) {
    for (size_t t = 0; t < w->jobs; t++) {
      free(x->bufs[t]);
      if (!(x->bufs[t] = malloc(per * w->row_max))) {
        errno = ENOMEM;
        return false;
      }
    }
    x->cap_rows = per;
  }
  slice *s = calloc(jobs, sizeof *s);
  pthread_t *th = calloc(jobs, sizeof *th);
  bool *started = calloc(jobs, sizeof *started);
  if (!s || !th || !started)
    abort();
  for (size_t t = 0; t < jobs; t++) {
    size_t from = t * per < k ? t * per : k, to = from + per < k ? from + per : k;
    s[t] = (slice){w, pts, res, k, from, to, first, x->bufs[t], 0};
    started[t] = t > 0 && pthread_create(&th[t], NULL, format_slice, &s[t]) == 0;
  }
  format_slice(&s[0]);
  for (size_t t = 1; t < jobs; t++) {
    if (started[t])
      pthread_join(th[t], NULL);
    else
      format_slice(&s[t]);
  }
  x->nbufs = jobs;
  for (size_t t = 0; t < jobs; t++)
    x->lens[t] = s[t].len;
  free(s);
  free(th);
  free(started);
  /* the previous chunk written, this one goes: on its own thread with more than one job */
  if (!rows_flush(w))
    return false;
  w->next ^= 1;
  w->writing = w->jobs > 1 && pthread_create(&w->writer, NULL, write_text, w) == 0;
  if (w->writing)
    return true;
  write_text(w);
  return rows_flush(w);
}
