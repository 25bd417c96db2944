/* tuning.c — tuning files of MPI libraries written from a decision, and read back the way
 * each library reads them, so that a file tlop writes is checked by the same rules as one
 * a user hands to `tlop lint`. A file is a list of blocks by communicator size (the block
 * of the largest size not above P applies), each a list of rules by message size (the
 * rule of the largest size not above m applies) — the shape of Open MPI's rules. */
#include "tuning.h"

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

bool word_count(word_scan *s, span w, const char *what, long *out) {
  char buf[32];
  size_t len = w.hi - w.lo;
  char *end = NULL;
  if (len > 0 && len < sizeof buf) {
    memcpy(buf, s->src->text + w.lo, len);
    buf[len] = 0;
    errno = 0;
    *out = strtol(buf, &end, 10);
  }
  if (!end || *end || errno || buf[0] == '-' || buf[0] == '+' || *out > INT_MAX) {
    diag_error(s->ctx, w, "expected %s (a whole number from 0 to %d), not '%.*s'", what, INT_MAX,
               (int)len, s->src->text + w.lo);
    return false;
  }
  return true;
}

span word_end(const word_scan *s) {
  uint32_t at = s->pos;
  while (at > 0 && (is_space(s->src->text[at - 1]) || s->src->text[at - 1] == '\n'))
    at--;
  return (span){s->src, at, at};
}

/* ---- collectives, as each library numbers and measures them ---- */

/* Open MPI's COLLTYPE order (ompi/mca/coll/base/coll_base_functions.h, 4.1) and the number
 * of algorithms coll_tuned has for each; only the collectives with a stdlib model have a
 * message-size rule here, so only they can be written. */
static const struct collective {
  const char *name;
  int ompi_id, ompi_algorithms;
  bool message_is_m; /* every library's message size is the operation's m */
} collectives[] = {
    {"allgather", 0, 0, false},       {"allgatherv", 1, 0, false},
    {"allreduce", 2, 0, false},       {"alltoall", 3, 0, false},
    {"alltoallv", 4, 0, false},       {"alltoallw", 5, 0, false},
    {"barrier", 6, 0, false},         {"bcast", 7, 9, true},
    {"exscan", 8, 0, false},          {"gather", 9, 0, false},
    {"gatherv", 10, 0, false},        {"reduce", 11, 0, false},
    {"reduce_scatter", 12, 0, false}, {"reduce_scatter_block", 13, 0, false},
    {"scan", 14, 0, false},           {"scatter", 15, 0, false},
    {"scatterv", 16, 0, false},
};
#define NCOLLECTIVES (sizeof collectives / sizeof *collectives)

/* coll_tuned's names of the bcast algorithms, by id (ompi_info, Open MPI 4.1.4) */
static const char *const ompi_bcast_names[] = {
    "ignore",      "basic_linear", "chain",   "pipeline",          "split_binary_tree",
    "binary_tree", "binomial",     "knomial", "scatter_allgather", "scatter_allgather_ring"};

int tuning_ompi_alg_id(const char *collective, const char *name) {
  for (int i = 1; !strcmp(collective, "bcast") && i < 10; i++)
    if (!strcmp(ompi_bcast_names[i], name))
      return i;
  return 0;
}

int tuning_ompi_alg_count(const char *collective) {
  for (size_t i = 0; i < NCOLLECTIVES; i++)
    if (!strcmp(collectives[i].name, collective))
      return collectives[i].ompi_algorithms;
  return -1;
}

static const struct collective *collective_named(const char *name) {
  for (size_t i = 0; i < NCOLLECTIVES; i++)
    if (!strcmp(collectives[i].name, name))
      return &collectives[i];
  return NULL;
}

static const struct collective *collective_of_ompi_id(long id) {
  for (size_t i = 0; i < NCOLLECTIVES; i++)
    if (collectives[i].ompi_id == id)
      return &collectives[i];
  return NULL;
}

tlop_status tlop_tuning_format_parse(const char *name, tlop_tuning_format *out) {
  static const char *const names[] = {"ompi-rules", "ompi-rules-v1", "mpich-json", "ompi-json",
                                      "impi"};
  for (int i = 0; i < 5; i++)
    if (!strcmp(name, names[i])) {
      *out = (tlop_tuning_format)i;
      return TLOP_OK;
    }
  return TLOP_ERR_ARG;
}

/* ---- the shape every format shares ---- */

void rule_add(block *b, double msg, int id, const tlop_catalog_entry *e) {
  VEC_PUSH(b->rules, b->n, b->cap, ((rule){msg, id, e}));
}

static void blocks_free(block *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(b[i].rules);
  free(b);
}

void tlop_tuning_free(tlop_tuning *t) {
  if (!t)
    return;
  if (t->ar)
    arena_free(t->ar);
  free(t->conds);
  blocks_free(t->blocks, t->n);
  free(t);
}

const tlop_catalog_entry *tlop_tuning_lookup(const tlop_tuning *t, double m, double P) {
  if (t->csel)
    return csel_lookup(t, m, P);
  if (t->conds)
    return impi_lookup(t, m, P);
  const block *b = NULL;
  for (size_t i = 0; i < t->n; i++)
    if (t->blocks[i].comm <= P)
      b = &t->blocks[i];
  const rule *r = NULL;
  for (size_t i = 0; b && i < b->n; i++)
    if (b->rules[i].msg <= m)
      r = &b->rules[i];
  return r ? r->e : NULL;
}

int tlop_tuning_names(const tlop_catalog_entry *e, tlop_tuning_format f) {
  return e && (f == TLOP_TUNING_MPICH_JSON ? e->mpich_name != NULL
               : f == TLOP_TUNING_IMPI     ? e->impi_id != 0
                                           : e->ompi_id != 0);
}

int tlop_tuning_same(const tlop_catalog_entry *a, const tlop_catalog_entry *b,
                     tlop_tuning_format f) {
  return f == TLOP_TUNING_MPICH_JSON ? !strcmp(a->mpich_name, b->mpich_name)
         : f == TLOP_TUNING_IMPI     ? a->impi_id == b->impi_id
                                     : a->ompi_id == b->ompi_id;
}

/* The decision in the library's ids: one block per P, neighbours with one id merged. */
static tlop_status decision_blocks(tlop_ctx *ctx, const tlop_decision *d,
                                   const tlop_catalog_entry *const *cands, tlop_tuning_format f,
                                   tlop_tuning *t) {
  for (size_t r = 0; r < d->nranges; r++) {
    const tlop_best_range *g = &d->ranges[r];
    const tlop_catalog_entry *e = cands[g->winner];
    if (!tlop_tuning_names(e, f)) {
      diag_error(ctx, (span){0},
                 "candidate %zu wins at P = %g, m = %g B, but has no %s name "
                 "in the catalogue",
                 g->winner + 1, g->P, g->m_first,
                 f == TLOP_TUNING_MPICH_JSON ? "MPICH"
                 : f == TLOP_TUNING_IMPI     ? "Intel MPI"
                                             : "Open MPI coll_tuned");
      return TLOP_ERR_ARG;
    }
    int id = f == TLOP_TUNING_IMPI ? e->impi_id : e->ompi_id;
    if (!t->n || t->blocks[t->n - 1].comm != g->P)
      VEC_PUSH(t->blocks, t->n, t->cap, ((block){g->P, NULL, 0, 0}));
    block *b = &t->blocks[t->n - 1];
    if (b->n && tlop_tuning_same(b->rules[b->n - 1].e, e, f))
      continue;
    /* The first rule of a block starts at 0: smaller messages than the grid's take it too. */
    rule_add(b, b->n ? ceil(g->m_from) : 0, id, e);
  }
  return TLOP_OK;
}

static void write_ompi_rules(strbuf *o, const tlop_tuning *t, const struct collective *c, bool v2) {
  if (v2)
    sb_puts(o, "rule-file-version-2\n");
  sb_printf(o, "1 # collectives\n%d # %s\n%zu # communicator sizes\n", c->ompi_id, c->name, t->n);
  for (size_t i = 0; i < t->n; i++) {
    const block *b = &t->blocks[i];
    sb_printf(o,
              "%.0f # communicator size\n%zu # message sizes: bytes, algorithm, faninout, "
              "segment size%s\n",
              b->comm, b->n, v2 ? ", max requests" : "");
    for (size_t j = 0; j < b->n; j++)
      sb_printf(o, "%.0f %d 0 0%s # %s\n", b->rules[j].msg, b->rules[j].id, v2 ? " 0" : "",
                b->rules[j].e->ompi_name ? b->rules[j].e->ompi_name : b->rules[j].e->algorithm);
  }
}

tlop_status tlop_tuning_write(tlop_ctx *ctx, const tlop_decision *d,
                              const tlop_catalog_entry *const *cands, const char *collective,
                              tlop_tuning_format format, char **text) {
  *text = NULL;
  const struct collective *c = collective_named(collective);
  if (!c || !c->message_is_m) {
    diag_error(ctx, (span){0},
               "no message-size definition for collective '%s': tuning "
               "files can be written for bcast",
               collective);
    return TLOP_ERR_ARG;
  }
  tlop_tuning t = {0};
  tlop_status st = decision_blocks(ctx, d, cands, format, &t);
  if (st == TLOP_OK) {
    strbuf o = {0};
    if (format == TLOP_TUNING_MPICH_JSON)
      csel_write(&o, &t, collective);
    else if (format == TLOP_TUNING_OMPI_JSON)
      ompi_json_write(&o, &t, collective);
    else if (format == TLOP_TUNING_IMPI)
      impi_write(&o, &t, collective);
    else
      write_ompi_rules(&o, &t, c, format == TLOP_TUNING_OMPI_RULES);
    *text = sb_take(&o);
  }
  blocks_free(t.blocks, t.n);
  return st;
}

/* ---- reading Open MPI's rules as coll_tuned does (coll_tuned_dynamic_file.c, 4.1;
 * coll_base_dynamic_file.c, 5.0 for rule-file-version-2) ---- */

void reader_fail(reader *r, span at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_emit(r->s.ctx, TLOP_ERROR, at, fmt, ap);
  va_end(ap);
  r->errors++;
}

/* The next number the counts promise; `what` names it for the message. */
static bool number(reader *r, const char *what, long *v, span *at) {
  if (!word_next(&r->s, true, at)) {
    reader_fail(r, word_end(&r->s),
                "the file ends where %s should be: the counts before promise more", what);
    return false;
  }
  if (!word_count(&r->s, *at, what, v)) {
    r->errors++;
    return false;
  }
  return true;
}

const tlop_catalog_entry *tuning_ompi_entry(const reader *r, int id) {
  const tlop_catalog_entry *es;
  size_t n = tlop_catalog_entries(r->cat, &es);
  for (size_t i = 0; i < n; i++)
    if (!strcmp(es[i].collective, r->collective) && es[i].ompi_id == id)
      return &es[i];
  return NULL;
}

static bool read_rule(reader *r, const struct collective *c, bool v2, bool keep, block *b) {
  long msg, alg, fan, seg, reqs = 0;
  span at_msg, at_alg, at;
  if (!number(r, "a message size", &msg, &at_msg) || !number(r, "an algorithm", &alg, &at_alg) ||
      !number(r, "a fan-in/out", &fan, &at) || !number(r, "a segment size", &seg, &at) ||
      (v2 && !number(r, "a number of max requests", &reqs, &at)))
    return false;
  if (!b->n && msg != 0)
    reader_fail(r, at_msg,
                "the first rule of a communicator size must start at message size 0 "
                "(smaller messages would fall back to the fixed decision)");
  if (b->n && msg <= b->rules[b->n - 1].msg)
    reader_fail(r, at_msg, "message sizes must ascend: %ld follows %.0f", msg,
                b->rules[b->n - 1].msg);
  if (c->ompi_algorithms && (alg < 1 || alg > c->ompi_algorithms))
    reader_fail(r, at_alg, "%s has algorithms 1 to %d in coll_tuned, not %ld", c->name,
                c->ompi_algorithms, alg);
  rule_add(b, (double)msg, (int)alg, keep ? tuning_ompi_entry(r, (int)alg) : NULL);
  return true;
}

static void read_ompi_rules(reader *r, bool v2) {
  span at;
  long ncoll;
  if (!word_next(&r->s, true, &at)) {
    reader_fail(r, word_end(&r->s),
                "the file is empty: Open MPI expects the number of collectives");
    return;
  }
  bool has_header =
      at.hi - at.lo == 19 && !strncmp(r->s.src->text + at.lo, "rule-file-version-2", 19);
  if (v2 && !has_header) {
    reader_fail(r, at,
                "expected 'rule-file-version-2' first (or lint with --format ompi-rules-v1)");
    return;
  }
  if (!v2 && has_header) {
    reader_fail(r, at, "'rule-file-version-2' is Open MPI 5's header: 4.1 reads no header");
    return;
  }
  if (has_header ? !number(r, "the number of collectives", &ncoll, &at)
                 : !word_count(&r->s, at, "the number of collectives", &ncoll)) {
    r->errors += !has_header;
    return;
  }
  if (ncoll < 1)
    reader_fail(r, at, "no collectives: the file sets nothing");
  bool seen[NCOLLECTIVES] = {0};
  for (long i = 0; i < ncoll; i++) {
    long id, ncomm;
    span at_id;
    if (!number(r, "a collective id", &id, &at_id))
      return;
    const struct collective *c = collective_of_ompi_id(id);
    if (!c) {
      reader_fail(r, at_id, "%ld is not a collective id of Open MPI (0 to %zu)", id,
                  NCOLLECTIVES - 1);
      return;
    }
    if (seen[c - collectives])
      reader_fail(r, at_id, "%s (%ld) has rules already", c->name, id);
    seen[c - collectives] = true;
    bool keep = !strcmp(c->name, r->collective);
    if (!number(r, "the number of communicator sizes", &ncomm, &at))
      return;
    if (ncomm < 1)
      reader_fail(r, at, "%s has no communicator sizes", c->name);
    for (long j = 0; j < ncomm; j++) {
      long comm, nmsg;
      span at_comm;
      if (!number(r, "a communicator size", &comm, &at_comm))
        return;
      block b = {(double)comm, NULL, 0, 0};
      if (r->t->n && keep && comm <= r->t->blocks[r->t->n - 1].comm)
        reader_fail(r, at_comm, "communicator sizes must ascend: %ld follows %.0f", comm,
                    r->t->blocks[r->t->n - 1].comm);
      bool ok = number(r, "the number of message sizes", &nmsg, &at);
      if (ok && nmsg < 1)
        reader_fail(r, at, "communicator size %ld has no rules", comm);
      for (long k = 0; ok && k < nmsg; k++)
        ok = read_rule(r, c, v2, keep, &b);
      if (keep)
        VEC_PUSH(r->t->blocks, r->t->n, r->t->cap, b);
      else
        free(b.rules);
      if (!ok)
        return;
    }
  }
  if (word_next(&r->s, true, &at))
    reader_fail(r, at, "text after the last rule the counts announce: Open MPI ignores it");
}

tlop_status tlop_tuning_read(tlop_ctx *ctx, const tlop_catalog *cat, const char *collective,
                             tlop_tuning_format format, const char *path, const char *text,
                             size_t len, tlop_tuning **out) {
  *out = NULL;
  tlop_tuning *t = calloc(1, sizeof *t);
  if (!t)
    return TLOP_ERR_NOMEM;
  reader r = {{ctx, source_new(ctx, path, text, len), 0}, cat, collective, t, 0};
  if (format == TLOP_TUNING_MPICH_JSON)
    csel_read(&r);
  else if (format == TLOP_TUNING_OMPI_JSON)
    ompi_json_read(&r);
  else if (format == TLOP_TUNING_IMPI)
    impi_read(&r);
  else
    read_ompi_rules(&r, format == TLOP_TUNING_OMPI_RULES);
  if (r.errors) {
    tlop_tuning_free(t);
    return TLOP_ERR_SYNTAX;
  }
  *out = t;
  return TLOP_OK;
}
