/* catalog.c — stdlib/catalog.txt: which algorithm of which MPI library each stdlib
 * algorithm models. A line is `version LIBRARY TEXT…` or `algorithm COLLECTIVE FILE ALGO
 * KEY=VALUE…` with keys openmpi=ID:NAME, mpich=NAME and impi=ID; `#` starts a comment. */
#include "tune/tune.h"
#include "front/front.h"

#include <stdlib.h>
#include <string.h>

struct tlop_catalog {
  arena *ar;
  tlop_catalog_entry *entries;
  size_t n, cap;
  const char *versions[3]; /* openmpi, mpich, impi */
};

static const char *const libraries[] = {"openmpi", "mpich", "impi"};

static int library_index(const char *text, size_t len) {
  for (int i = 0; i < 3; i++)
    if (strlen(libraries[i]) == len && !strncmp(libraries[i], text, len))
      return i;
  return -1;
}

static char *word_dup(tlop_catalog *cat, const word_scan *s, span w) {
  return arena_strndup(cat->ar, s->src->text + w.lo, w.hi - w.lo);
}

/* KEY=VALUE of an algorithm line. */
static bool take_id(tlop_catalog *cat, word_scan *s, span w, tlop_catalog_entry *e) {
  const char *t = s->src->text + w.lo, *eq = memchr(t, '=', w.hi - w.lo);
  if (!eq) {
    diag_error(s->ctx, w, "expected openmpi=ID:NAME, mpich=NAME or impi=ID");
    return false;
  }
  int lib = library_index(t, (size_t)(eq - t));
  span value = {s->src, (uint32_t)(eq + 1 - s->src->text), w.hi};
  long id = 0;
  if (lib < 0) {
    diag_error(s->ctx, w, "unknown library '%.*s': openmpi, mpich or impi", (int)(eq - t), t);
    return false;
  }
  if (lib == 1) {
    e->mpich_name = word_dup(cat, s, value);
    return true;
  }
  const char *colon = memchr(eq, ':', (size_t)(s->src->text + w.hi - eq));
  span num = {s->src, value.lo, colon ? (uint32_t)(colon - s->src->text) : value.hi};
  if (!word_count(s, num, "an algorithm id", &id))
    return false;
  if (id < 1) {
    diag_error(s->ctx, num, "an algorithm id starts at 1");
    return false;
  }
  if (lib == 0) {
    e->ompi_id = (int)id;
    if (colon)
      e->ompi_name = word_dup(cat, s, (span){s->src, num.hi + 1, w.hi});
    if (id > tuning_ompi_alg_count(e->collective)) {
      diag_error(s->ctx, num, "coll_tuned has no %s algorithm %ld", e->collective, id);
      return false;
    }
    if (colon && tuning_ompi_alg_id(e->collective, e->ompi_name) != id) {
      diag_error(s->ctx, w, "'%s' is not coll_tuned's %s algorithm %ld", e->ompi_name,
                 e->collective, id);
      return false;
    }
  } else
    e->impi_id = (int)id;
  return true;
}

static bool parse_line(tlop_catalog *cat, word_scan *s) {
  span w;
  if (!word_next(s, false, &w))
    return true; /* blank or comment */
  const char *t = s->src->text + w.lo;
  size_t len = w.hi - w.lo;
  if (len == 7 && !strncmp(t, "version", 7)) {
    span lib, rest;
    if (!word_next(s, false, &lib) || library_index(s->src->text + lib.lo, lib.hi - lib.lo) < 0) {
      diag_error(s->ctx, word_end(s), "expected a library: openmpi, mpich or impi");
      return false;
    }
    if (!word_next(s, false, &rest)) {
      diag_error(s->ctx, word_end(s), "expected the version checked against");
      return false;
    }
    uint32_t end = rest.hi;
    for (span more; word_next(s, false, &more);)
      end = more.hi;
    cat->versions[library_index(s->src->text + lib.lo, lib.hi - lib.lo)] =
        word_dup(cat, s, (span){s->src, rest.lo, end});
    return true;
  }
  if (len != 9 || strncmp(t, "algorithm", 9)) {
    diag_error(s->ctx, w, "expected 'version' or 'algorithm'");
    return false;
  }
  tlop_catalog_entry e = {0};
  const char **fields[] = {&e.collective, &e.file, &e.algorithm};
  static const char *const what[] = {"a collective", "the stdlib file", "the algorithm"};
  for (int i = 0; i < 3; i++) {
    if (!word_next(s, false, &w)) {
      diag_error(s->ctx, word_end(s), "expected %s", what[i]);
      return false;
    }
    *fields[i] = word_dup(cat, s, w);
    if (i == 0 && !tuning_collective_named(e.collective)) {
      diag_error(s->ctx, w, "'%s' is not a collective (bcast, reduce, allreduce, …)",
                 e.collective);
      return false;
    }
  }
  while (word_next(s, false, &w))
    if (!take_id(cat, s, w, &e))
      return false;
  VEC_PUSH(cat->entries, cat->n, cat->cap, e);
  return true;
}

tlop_status tlop_catalog_open(tlop_ctx *ctx, const char *path, tlop_catalog **out) {
  *out = NULL;
  size_t len;
  const char *text =
      path ? load_read_file(ctx, path, (span){0}, &len) : stdlib_builtin("catalog.txt", &len);
  if (!text)
    return path ? TLOP_ERR_IO : TLOP_ERR_INTERNAL;
  tlop_catalog *cat = xcalloc(1, sizeof *cat);
  cat->ar = arena_new();
  word_scan s = {ctx, source_new(ctx, path ? path : "<stdlib>/catalog.txt", text, len), 0};
  bool ok = true;
  do
    ok = parse_line(cat, &s);
  while (ok && word_next_line(&s));
  if (!ok) {
    tlop_catalog_free(cat);
    return TLOP_ERR_SYNTAX;
  }
  *out = cat;
  return TLOP_OK;
}

size_t tlop_catalog_entries(const tlop_catalog *cat, const tlop_catalog_entry **entries) {
  *entries = cat->entries;
  return cat->n;
}

const tlop_catalog_entry *tlop_catalog_find(const tlop_catalog *cat, const char *collective,
                                            const char *algorithm) {
  for (size_t i = 0; i < cat->n; i++)
    if (!strcmp(cat->entries[i].collective, collective) &&
        !strcmp(cat->entries[i].algorithm, algorithm))
      return &cat->entries[i];
  return NULL;
}

const char *tlop_catalog_version(const tlop_catalog *cat, const char *library) {
  int i = library_index(library, strlen(library));
  return i < 0 ? NULL : cat->versions[i];
}

void tlop_catalog_free(tlop_catalog *cat) {
  if (!cat)
    return;
  arena_free(cat->ar);
  free(cat->entries);
  free(cat);
}

const tlop_catalog_entry *catalog_ompi_entry(const tlop_catalog *cat, const char *collective,
                                             int id) {
  for (size_t i = 0; i < cat->n; i++)
    if (!strcmp(cat->entries[i].collective, collective) && cat->entries[i].ompi_id == id)
      return &cat->entries[i];
  return NULL;
}
