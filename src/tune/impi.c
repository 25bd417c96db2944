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

void impi_write(strbuf *o, const tlop_tuning *ts, size_t n) {
  for (size_t k = 0; k < n; k++) {
    const tlop_tuning *t = &ts[k];
    sb_puts(o, "I_MPI_ADJUST_");
    for (const char *p = t->coll->name; *p; p++)
      sb_printf(o, "%c", *p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
    sb_puts(o, "=\"");
    for (size_t i = 0; i < t->n; i++) {
      const block *b = &t->blocks[i];
      /* the first block takes the process counts below it too, as tlop looks up */
      double plo = i ? b->comm : 1, phi = i + 1 < t->n ? t->blocks[i + 1].comm - 1 : OPEN_END;
      for (size_t j = 0; j < b->n; j++) {
        double mhi = j + 1 < b->n ? b->rules[j + 1].msg - 1 : OPEN_END;
        sb_printf(o, "%s%d:%.0f-%.0f@%.0f-%.0f", i + j ? ";" : "", b->rules[j].id,
                  b->rules[j].msg, mhi, plo, phi);
      }
    }
    sb_puts(o, "\"\n");
  }
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

/* keep: the collective read, whose conditions tlop_tuning_lookup walks */
static bool condition(cursor *c, int id, const tlop_catalog_entry *e, bool keep) {
  impi_cond k = {id, e, 0, OPEN_END, 0, OPEN_END};
  if (!range(c, "a message size", &k.mlo, &k.mhi))
    return false;
  if (peek(c) == '@') {
    c->pos++;
    if (!range(c, "a process count", &k.plo, &k.phi))
      return false;
  }
  tlop_tuning *t = c->r->t;
  if (keep)
    VEC_PUSH(t->conds, t->nconds, t->conds_cap, k);
  return true;
}

/* The entries of one assignment's value, between its quotes. */
static void entries(reader *r, cursor c, const char *coll, bool keep) {
  size_t nentries = 0;
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
      if (!strcmp(es[i].collective, coll) && es[i].impi_id == (int)id)
        e = &es[i];
    if (peek(&c) == ':') {
      int before = r->errors;
      do
        c.pos++;
      while (condition(&c, (int)id, e, keep) && peek(&c) == ',');
      if (r->errors > before)
        return;
    } else if (keep) {
      impi_cond always = {(int)id, e, 0, OPEN_END, 0, OPEN_END};
      VEC_PUSH(r->t->conds, r->t->nconds, r->t->conds_cap, always);
    }
    nentries++;
    if (c.pos < c.end && peek(&c) != ';') {
      reader_fail(r, at(&c), "expected ';' between entries, ',' between conditions");
      return;
    }
    c.pos += c.pos < c.end;
  }
  if (!nentries)
    reader_fail(r, at(&c), "no entries: Intel MPI keeps its own choice for %s", coll);
}

/* One I_MPI_ADJUST_<COLL>="…" word (after an optional export); false at the end. */
static bool assignment(reader *r, uint64_t *seen) {
  span w;
  if (!word_next(&r->s, true, &w))
    return false;
  const char *text = r->s.src->text;
  if (w.hi - w.lo == 6 && !strncmp(text + w.lo, "export", 6) && !word_next(&r->s, true, &w)) {
    reader_fail(r, word_end(&r->s), "expected I_MPI_ADJUST_<COLL>=\"…\" after export");
    return false;
  }
  const char *eq = memchr(text + w.lo, '=', w.hi - w.lo);
  char name[32] = "";
  size_t len = eq ? (size_t)(eq - text - w.lo) : 0;
  if (len > 13 && len - 13 < sizeof name && !strncmp(text + w.lo, "I_MPI_ADJUST_", 13))
    for (size_t i = 0; i < len - 13; i++) {
      char ch = text[w.lo + 13 + i];
      name[i] = ch >= 'A' && ch <= 'Z' ? (char)(ch - 'A' + 'a') : ch;
      name[i + 1] = 0;
    }
  const tuning_collective *c = name[0] ? tuning_collective_named(name) : NULL;
  if (!c) {
    reader_fail(r, w, "expected I_MPI_ADJUST_<COLL>=\"…\" for a collective (BCAST, ALLREDUCE, …)");
    return false;
  }
  if (*seen >> c->ompi_id & 1)
    reader_fail(r, w, "I_MPI_ADJUST_%.*s assigned twice: the shell keeps the last", (int)len - 13,
                text + w.lo + 13);
  *seen |= (uint64_t)1 << c->ompi_id;
  cursor cur = {r, (uint32_t)(eq + 1 - text), w.hi};
  char quote = peek(&cur) == '"' || peek(&cur) == '\'' ? peek(&cur) : 0;
  if (quote) {
    if (cur.end - cur.pos < 2 || text[cur.end - 1] != quote) {
      reader_fail(r, at(&cur), "the quote is not closed at the end of the word");
      return false;
    }
    cur.pos++;
    cur.end--;
  }
  entries(r, cur, c->name, !strcmp(c->name, r->collective));
  return true;
}

void impi_read(reader *r) {
  uint64_t seen = 0; /* by Open MPI's id, which numbers the collectives */
  size_t n = 0;
  while (assignment(r, &seen))
    n++;
  if (!n && !r->errors)
    reader_fail(r, word_end(&r->s), "the file is empty: expected I_MPI_ADJUST_<COLL>=\"…\"");
  else if (!r->errors && !r->t->nconds) {
    char upper[32] = "";
    for (size_t i = 0; r->collective[i] && i + 1 < sizeof upper; i++)
      upper[i] = (char)(r->collective[i] >= 'a' && r->collective[i] <= 'z'
                            ? r->collective[i] - 'a' + 'A'
                            : r->collective[i]);
    reader_fail(r, word_end(&r->s), "no I_MPI_ADJUST_%s: Intel MPI keeps its own choice for %s",
                upper, r->collective);
  }
}

const tlop_catalog_entry *impi_lookup(const tlop_tuning *t, double size, double P) {
  for (size_t i = 0; i < t->nconds; i++) {
    const impi_cond *k = &t->conds[i];
    if (k->mlo <= size && size <= k->mhi && k->plo <= P && P <= k->phi)
      return k->e;
  }
  return NULL;
}
