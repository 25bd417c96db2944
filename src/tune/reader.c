/* reader.c — what every tuning format and the catalogue share: a scanner of
 * whitespace-separated words with `#` comments, a reader's errors, the rules' shape, the
 * library's message size of a collective and the names of rank distributions. */
#include "tune/tune.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- words ---- */

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

bool word_next(word_scan *s, bool across_lines, span *w) {
  const char *t = s->src->text;
  size_t n = s->src->len;
  for (;;) {
    while (s->pos < n && is_space(t[s->pos]))
      s->pos++;
    if (s->pos < n && t[s->pos] == '#')
      while (s->pos < n && t[s->pos] != '\n')
        s->pos++;
    if (s->pos >= n || (t[s->pos] == '\n' && !across_lines))
      return false;
    if (t[s->pos] != '\n')
      break;
    s->pos++;
  }
  uint32_t lo = s->pos;
  while (s->pos < n && !is_space(t[s->pos]) && t[s->pos] != '\n' && t[s->pos] != '#')
    s->pos++;
  *w = (span){s->src, lo, s->pos};
  return true;
}

bool word_next_line(word_scan *s) {
  while (s->pos < s->src->len && s->src->text[s->pos] != '\n')
    s->pos++;
  if (s->pos >= s->src->len)
    return false;
  s->pos++;
  return true;
}

bool word_number(const word_scan *s, span w, long *out) {
  char buf[32];
  size_t len = w.hi - w.lo;
  char *end = NULL;
  if (len > 0 && len < sizeof buf) {
    memcpy(buf, s->src->text + w.lo, len);
    buf[len] = 0;
    errno = 0;
    *out = strtol(buf, &end, 10);
  }
  return end && !*end && !errno && buf[0] != '-' && buf[0] != '+' && *out <= INT_MAX;
}

bool word_count(word_scan *s, span w, const char *what, long *out) {
  if (word_number(s, w, out))
    return true;
  diag_error(s->ctx, w, "expected %s (a whole number from 0 to %d), not '%.*s'", what, INT_MAX,
             (int)(w.hi - w.lo), s->src->text + w.lo);
  return false;
}

span word_end(const word_scan *s) {
  uint32_t at = s->pos;
  while (at > 0 && (is_space(s->src->text[at - 1]) || s->src->text[at - 1] == '\n'))
    at--;
  return (span){s->src, at, at};
}

/* ---- errors, rules, sizes, ranks ---- */

void reader_fail(reader *r, span at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_emit(r->s.ctx, TLOP_ERROR, at, fmt, ap);
  va_end(ap);
  r->errors++;
}

void rule_add(block *b, double msg, int id, const tlop_catalog_entry *e) {
  VEC_PUSH(b->rules, b->n, b->cap, ((rule){msg, id, e}));
}

double tuning_size(const tuning_collective *c, size_def d, double m, double P) {
  int k = c ? c->size[d] : 0;
  return k == SIZE_NONE ? NAN : k == SIZE_ZERO ? 0 : k > 0 ? m * P : k < 0 ? m / P : m;
}

static const char *const rank_names[] = {"any", "single_node", "one_per_node"};

tlop_status tlop_ranks_parse(const char *name, tlop_ranks *out) {
  for (int i = 0; i < 3; i++)
    if (!strcmp(name, rank_names[i])) {
      *out = (tlop_ranks)i;
      return TLOP_OK;
    }
  return TLOP_ERR_ARG;
}

const char *tuning_ranks_name(tlop_ranks r) { return rank_names[r]; }

