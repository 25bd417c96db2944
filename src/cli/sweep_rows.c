/* sweep_rows.c — the rows of `tlop sweep` as CSV, JSON, an aligned table or NumPy's .npy,
 * a chunk at a time: rows_text turns a chunk's rows into text on any thread (the sweep's
 * threads each format the chunks they evaluate), rows_put writes it (sweep_stream.c keeps
 * the grid's order), so the output is the same bytes whatever the number of threads.
 * Numbers in CSV and JSON are the shortest text strtod reads back to the same double
 * (tlop_format_double); .npy holds the doubles. */
#include "cli.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
                                  : 2 + strlen(w->names[j]) + 64 + TLOP_FORMAT_DOUBLE_MAX;
  return n;
}

/* A table's column: as wide as its name, and at least 12 characters (an axis) or 16 (an
 * algorithm), wide enough for every value. */
static int table_width(const rows_writer *w, size_t j) {
  int least = j < w->naxes ? 12 : 16, name = cli_text_width(w->names[j]);
  return name > least ? name : least;
}

void rows_open(rows_writer *w, rows_format format, const char *const *names,
               const tlop_kind *kinds, size_t naxes, size_t nalgo) {
  *w = (rows_writer){.format = format, .names = names, .kinds = kinds, .naxes = naxes,
                     .nalgo = nalgo};
  w->row_max = row_max(w);
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
      fprintf(w->out, "%s%*s%s", j ? "  " : "", cli_room(table_width(w, j), w->names[j]), "",
              w->names[j]);
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

size_t rows_text(const rows_writer *w, size_t first, const double *pts, const double *res,
                   size_t k, char *text) {
  size_t ncols = w->naxes + w->nalgo;
  char *o = text;
  for (size_t i = 0; i < k; i++) {
    if (w->format == ROWS_JSON) {
      memcpy(o, first + i ? ",\n {" : "\n {", first + i ? 4 : 3);
      o += first + i ? 4 : 3;
    }
    for (size_t j = 0; j < ncols; j++) {
      double v = cell(w, pts, res, k, i, j);
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
        char value[64];
        cli_fmt_value(value, sizeof value, v, w->kinds[j]);
        o += sprintf(o, "%s%*s%s", j ? "  " : "", cli_room(table_width(w, j), value), "", value);
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
  return (size_t)(o - text);
}

bool rows_put(rows_writer *w, const char *text, size_t len) {
  return fwrite(text, 1, len, w->out) == len;
}
