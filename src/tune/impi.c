/* impi.c — Intel MPI's algorithm selection string, I_MPI_ADJUST_<COLL>="ID[:COND[,COND…]];…"
 * (Intel MPI 2021 Developer Reference): a condition is a message size l, a range l-m, and
 * either of them with a process count or range (@p, @p-q); the first entry whose condition
 * holds is taken, an entry without conditions always holds. Written as a shell assignment. */
#include "tune/tune.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Open ends of the ranges: Intel MPI's sizes and counts are ints. */
#define OPEN_END INT_MAX

void impi_write(strbuf *o, const tlop_tuning *t, const char *collective) {
  sb_puts(o, "I_MPI_ADJUST_");
  for (const char *p = collective; *p; p++)
    sb_printf(o, "%c", *p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
  sb_puts(o, "=\"");
  for (size_t i = 0; i < t->n; i++) {
    const block *b = &t->blocks[i];
    /* the first block takes the process counts below it too, as tlop looks up */
    double plo = i ? b->comm : 1, phi = i + 1 < t->n ? t->blocks[i + 1].comm - 1 : OPEN_END;
    for (size_t j = 0; j < b->n; j++) {
      double mhi = j + 1 < b->n ? b->rules[j + 1].msg - 1 : OPEN_END;
      sb_printf(o, "%s%d:%.0f-%.0f@%.0f-%.0f", i + j ? ";" : "", b->rules[j].id, b->rules[j].msg,
                mhi, plo, phi);
    }
  }
  sb_puts(o, "\"\n");
}

typedef struct cursor {
  reader *r;
  uint32_t pos, end;
} cursor;

static char peek(const cursor *c) { return c->pos < c->end ? c->r->s.src->text[c->pos] : 0; }

static span at(const cursor *c) { return (span){c->r->s.src, c->pos, c->pos + (c->pos < c->end)}; }

static bool number(cursor *c, const char *what, double *v) {
  uint32_t lo = c->pos;
  while (peek(c) >= '0' && peek(c) <= '9')
    c->pos++;
  long n;
  if (c->pos == lo) {
    reader_fail(c->r, at(c), "expected %s", what);
    return false;
  }
  if (!word_count(&c->r->s, (span){c->r->s.src, lo, c->pos}, what, &n)) {
    c->r->errors++;
    return false;
  }
  *v = (double)n;
  return true;
}

/* A value or a range, "l" or "l-m": lo and hi. */
static bool range(cursor *c, const char *what, double *lo, double *hi) {
  uint32_t start = c->pos;
  if (!number(c, what, lo))
    return false;
  *hi = *lo;
  if (peek(c) == '-') {
    c->pos++;
    if (!number(c, what, hi))
      return false;
  }
  if (*hi < *lo) {
    reader_fail(c->r, (span){c->r->s.src, start, c->pos},
                "the range runs backwards: it matches nothing");
    return false;
  }
  return true;
}

static bool condition(cursor *c, int id, const tlop_catalog_entry *e) {
  impi_cond k = {id, e, 0, OPEN_END, 0, OPEN_END};
  if (!range(c, "a message size", &k.mlo, &k.mhi))
    return false;
  if (peek(c) == '@') {
    c->pos++;
    if (!range(c, "a process count", &k.plo, &k.phi))
      return false;
  }
  tlop_tuning *t = c->r->t;
  VEC_PUSH(t->conds, t->nconds, t->conds_cap, k);
  return true;
}

void impi_read(reader *r) {
  span w;
  if (!word_next(&r->s, true, &w)) {
    reader_fail(r, word_end(&r->s), "the file is empty: expected I_MPI_ADJUST_<COLL>=\"…\"");
    return;
  }
  const char *text = r->s.src->text;
  if (w.hi - w.lo == 6 && !strncmp(text + w.lo, "export", 6) && !word_next(&r->s, true, &w)) {
    reader_fail(r, word_end(&r->s), "expected I_MPI_ADJUST_<COLL>=\"…\" after export");
    return;
  }
  char want[64];
  int n = snprintf(want, sizeof want, "I_MPI_ADJUST_%s=", r->collective);
  for (int i = 13; i < n; i++)
    want[i] = want[i] >= 'a' && want[i] <= 'z' ? (char)(want[i] - 'a' + 'A') : want[i];
  if (w.hi - w.lo <= (uint32_t)n || strncmp(text + w.lo, want, (size_t)n)) {
    reader_fail(r, w, "expected %s\"…\"", want);
    return;
  }
  cursor c = {r, w.lo + (uint32_t)n, w.hi};
  char quote = peek(&c) == '"' || peek(&c) == '\'' ? peek(&c) : 0;
  if (quote) {
    if (c.end - c.pos < 2 || text[c.end - 1] != quote) {
      reader_fail(r, at(&c), "the quote is not closed at the end of the word");
      return;
    }
    c.pos++;
    c.end--;
  }
  while (c.pos < c.end) {
    double id;
    if (!number(&c, "an algorithm id", &id))
      return;
    if (id < 1) {
      reader_fail(r, (span){r->s.src, c.pos - 1, c.pos}, "algorithm ids start at 1");
      return;
    }
    const tlop_catalog_entry *e = NULL;
    const tlop_catalog_entry *es;
    size_t ne = tlop_catalog_entries(r->cat, &es);
    for (size_t i = 0; i < ne && !e; i++)
      if (!strcmp(es[i].collective, r->collective) && es[i].impi_id == (int)id)
        e = &es[i];
    if (peek(&c) == ':') {
      do
        c.pos++;
      while (condition(&c, (int)id, e) && peek(&c) == ',');
      if (r->errors)
        return;
    } else {
      impi_cond always = {(int)id, e, 0, OPEN_END, 0, OPEN_END};
      VEC_PUSH(r->t->conds, r->t->nconds, r->t->conds_cap, always);
    }
    if (c.pos < c.end && peek(&c) != ';') {
      reader_fail(r, at(&c), "expected ';' between entries, ',' between conditions");
      return;
    }
    c.pos += c.pos < c.end;
  }
  if (!r->t->nconds)
    reader_fail(r, w, "no entries: Intel MPI keeps its own choice");
  if (word_next(&r->s, true, &w))
    reader_fail(r, w, "text after the assignment");
}

const tlop_catalog_entry *impi_lookup(const tlop_tuning *t, double size, double P) {
  for (size_t i = 0; i < t->nconds; i++) {
    const impi_cond *k = &t->conds[i];
    if (k->mlo <= size && size <= k->mhi && k->plo <= P && P <= k->phi)
      return k->e;
  }
  return NULL;
}
