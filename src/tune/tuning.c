/* tuning.c — tuning files of MPI libraries written from a decision, and read back the way
 * each library reads them, so that a file tlop writes is checked by the same rules as one
 * a user hands to `tlop lint`. A file is a list of blocks by communicator size (the block
 * of the largest size not above P applies), each a list of rules by message size (the
 * rule of the largest size not above m applies) — the shape of Open MPI's rules. */
#include "tune/tuning.h"

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

/* coll_tuned's algorithm names by id, from 1 (`ompi_info --param coll tuned --level 9`,
 * Open MPI 4.1.4) */
static const char *const ompi_allgather[] = {"linear", "bruck", "recursive_doubling", "ring",
                                             "neighbor", "two_proc", NULL};
static const char *const ompi_allgatherv[] = {"default", "bruck", "ring", "neighbor", "two_proc",
                                              NULL};
static const char *const ompi_allreduce[] = {"basic_linear", "nonoverlapping",
                                             "recursive_doubling", "ring", "segmented_ring",
                                             "rabenseifner", NULL};
static const char *const ompi_alltoall[] = {"linear", "pairwise", "modified_bruck", "linear_sync",
                                            "two_proc", NULL};
static const char *const ompi_alltoallv[] = {"basic_linear", "pairwise", NULL};
static const char *const ompi_barrier[] = {"linear", "double_ring", "recursive_doubling", "bruck",
                                           "two_proc", "tree", NULL};
static const char *const ompi_bcast[] = {"basic_linear", "chain", "pipeline", "split_binary_tree",
                                         "binary_tree", "binomial", "knomial",
                                         "scatter_allgather", "scatter_allgather_ring", NULL};
static const char *const ompi_scan[] = {"linear", "recursive_doubling", NULL};
static const char *const ompi_gather[] = {"basic_linear", "binomial", "linear_sync", NULL};
static const char *const ompi_reduce[] = {"linear", "chain", "pipeline", "binary", "binomial",
                                          "in-order_binary", "rabenseifner", NULL};
static const char *const ompi_reduce_scatter[] = {"non-overlapping", "recursive_halving", "ring",
                                                  "butterfly", NULL};
static const char *const ompi_reduce_scatter_block[] = {"basic_linear", "recursive_doubling",
                                                        "recursive_halving", "butterfly", NULL};
static const char *const ompi_scatter[] = {"basic_linear", "binomial", "linear_nb", NULL};

#define NO SIZE_NONE
/* Open MPI's COLLTYPE order (ompi/mca/coll/base/coll_base_functions.h, 4.1), coll_tuned's
 * algorithms, and each library's message size as m·P^k (README, "Message sizes"): only the
 * collectives with a stdlib model have one, so only they can be written. */
static const tuning_collective collectives[] = {
    {"allgather", 0, ompi_allgather, {NO, NO, NO, NO}, NULL, NULL},
    {"allgatherv", 1, ompi_allgatherv, {NO, NO, NO, NO}, NULL, NULL},
    {"allreduce", 2, ompi_allreduce, {0, 0, 1, 0}, "MPIR_Allreduce_inter_reduce_exchange_bcast", NULL},
    {"alltoall", 3, ompi_alltoall, {1, 0, 1, 0}, "MPIR_Alltoall_inter_pairwise_exchange",
     "MPIR_Alltoall_intra_pairwise_sendrecv_replace"},
    {"alltoallv", 4, ompi_alltoallv, {NO, NO, NO, NO}, NULL, NULL},
    {"alltoallw", 5, NULL, {NO, NO, NO, NO}, NULL, NULL},
    {"barrier", 6, ompi_barrier, {NO, NO, NO, NO}, NULL, NULL},
    {"bcast", 7, ompi_bcast, {0, 0, 1, 0}, "MPIR_Bcast_inter_remote_send_local_bcast", NULL},
    {"exscan", 8, ompi_scan, {NO, NO, NO, NO}, NULL, NULL},
    {"gather", 9, ompi_gather, {1, NO, 1, 0}, "MPIR_Gather_inter_linear", NULL},
    {"gatherv", 10, NULL, {NO, NO, NO, 0}, "MPIR_Gatherv_allcomm_linear", NULL},
    {"reduce", 11, ompi_reduce, {0, 0, 1, 0}, "MPIR_Reduce_inter_local_reduce_remote_send", NULL},
    {"reduce_scatter", 12, ompi_reduce_scatter, {NO, NO, NO, NO}, NULL, NULL},
    {"reduce_scatter_block", 13, ompi_reduce_scatter_block, {NO, NO, NO, NO}, NULL, NULL},
    {"scan", 14, ompi_scan, {NO, NO, NO, NO}, NULL, NULL},
    {"scatter", 15, ompi_scatter, {0, NO, 0, -1}, "MPIR_Scatter_inter_linear", NULL},
    {"scatterv", 16, NULL, {NO, NO, NO, NO}, NULL, NULL},
};
#undef NO
#define NCOLLECTIVES (sizeof collectives / sizeof *collectives)

static int ompi_algorithms(const tuning_collective *c) {
  int n = 0;
  while (c->ompi_names && c->ompi_names[n])
    n++;
  return n;
}

const tuning_collective *tuning_collective_named(const char *name) {
  for (size_t i = 0; i < NCOLLECTIVES; i++)
    if (!strcmp(collectives[i].name, name))
      return &collectives[i];
  return NULL;
}

double tuning_size(const tuning_collective *c, size_def d, double m, double P) {
  int k = c ? c->size[d] : 0;
  return k == SIZE_NONE ? NAN : k > 0 ? m * P : k < 0 ? m / P : m;
}

int tuning_ompi_alg_id(const char *collective, const char *name) {
  const tuning_collective *c = tuning_collective_named(collective);
  for (int i = 0; c && c->ompi_names && c->ompi_names[i]; i++)
    if (!strcmp(c->ompi_names[i], name))
      return i + 1;
  return 0;
}

int tuning_ompi_alg_count(const char *collective) {
  const tuning_collective *c = tuning_collective_named(collective);
  return c ? ompi_algorithms(c) : -1;
}

static const tuning_collective *collective_of_ompi_id(long id) {
  for (size_t i = 0; i < NCOLLECTIVES; i++)
    if (collectives[i].ompi_id == id)
      return &collectives[i];
  return NULL;
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
    return impi_lookup(t, tuning_size(t->coll, t->size, m, P), P);
  const block *b = NULL;
  for (size_t i = 0; i < t->n; i++)
    if (t->blocks[i].comm <= P)
      b = &t->blocks[i];
  const rule *r = NULL;
  double size = tuning_size(t->coll, t->size, m, P);
  for (size_t i = 0; b && i < b->n; i++)
    if (b->rules[i].msg <= size)
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

/* How the format measures the collective's messages: MPICH by avg_msg_size where it is
 * defined, else total_msg_size. */
static size_def format_size(const tuning_collective *c, tlop_tuning_format f) {
  if (f == TLOP_TUNING_IMPI)
    return SIZE_IMPI;
  if (f != TLOP_TUNING_MPICH_JSON)
    return SIZE_OMPI;
  return c && c->size[SIZE_MPICH_AVG] == SIZE_NONE ? SIZE_MPICH_TOTAL : SIZE_MPICH_AVG;
}

const char *tlop_tuning_library(tlop_tuning_format f) {
  return f == TLOP_TUNING_MPICH_JSON ? "MPICH"
         : f == TLOP_TUNING_IMPI     ? "Intel MPI"
                                     : "Open MPI coll_tuned";
}

/* The decision in the library's ids and sizes: one block per P, neighbours with one id
 * merged, each crossover m converted to the library's message size at that P. */
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
                 g->winner + 1, g->P, g->m_first, tlop_tuning_library(f));
      return TLOP_ERR_ARG;
    }
    int id = f == TLOP_TUNING_IMPI ? e->impi_id : e->ompi_id;
    if (!t->n || t->blocks[t->n - 1].comm != g->P)
      VEC_PUSH(t->blocks, t->n, t->cap, ((block){g->P, NULL, 0, 0}));
    block *b = &t->blocks[t->n - 1];
    if (b->n && tlop_tuning_same(b->rules[b->n - 1].e, e, f))
      continue;
    /* The first rule of a block starts at 0: smaller messages than the grid's take it too. */
    rule_add(b, b->n ? ceil(tuning_size(t->coll, t->size, g->m_from, g->P)) : 0, id, e);
  }
  return TLOP_OK;
}

static void write_ompi_rules(strbuf *o, const tlop_tuning *t, const tuning_collective *c, bool v2) {
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
                              tlop_tuning_format format, tlop_ranks ranks, char **text) {
  *text = NULL;
  if (ranks != TLOP_RANKS_ANY && format != TLOP_TUNING_OMPI_JSON) {
    diag_error(ctx, (span){0},
               "only Open MPI's JSON rules say where the ranks are (comm_rank_distribution): "
               "%s's file has no such condition",
               tlop_tuning_library(format));
    return TLOP_ERR_ARG;
  }
  const tuning_collective *c = tuning_collective_named(collective);
  tlop_tuning t = {.coll = c, .size = format_size(c, format), .ranks = ranks};
  /* MPICH measures no gatherv: its file can choose by communicator size only */
  bool by_comm_only = c && format == TLOP_TUNING_MPICH_JSON && c->size[t.size] == SIZE_NONE;
  if (!c || (c->size[t.size] == SIZE_NONE && !by_comm_only)) {
    diag_error(ctx, (span){0},
               "%s has no message size for '%s' that tlop knows: tuning files can be "
               "written for bcast, reduce, allreduce, alltoall, gather, scatter and gatherv "
               "(README, \"Message sizes\")",
               tlop_tuning_library(format), collective);
    return TLOP_ERR_ARG;
  }
  tlop_status st = decision_blocks(ctx, d, cands, format, &t);
  for (size_t i = 0; st == TLOP_OK && by_comm_only && i < t.n; i++)
    if (t.blocks[i].n > 1) {
      diag_error(ctx, (span){0},
                 "the winner of %s changes with m at P = %.0f, but MPICH's selection measures "
                 "no message size for it: no file written",
                 collective, t.blocks[i].comm);
      st = TLOP_ERR_ARG;
    }
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

static bool read_rule(reader *r, const tuning_collective *c, bool v2, bool keep, block *b) {
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
  int nalg = ompi_algorithms(c);
  if (!nalg)
    reader_fail(r, at_alg, "%s has no algorithms in coll_tuned: Open MPI ignores its rules",
                c->name);
  else if (alg < 1 || alg > nalg)
    reader_fail(r, at_alg, "%s has algorithms 1 to %d in coll_tuned, not %ld", c->name, nalg,
                alg);
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
    const tuning_collective *c = collective_of_ompi_id(id);
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
  t->coll = tuning_collective_named(collective);
  t->size = format_size(t->coll, format);
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
