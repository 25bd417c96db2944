/* tuning.c — the dispatcher: tuning files of MPI libraries written from a decision, and
 * read back the way each library reads them, so that a file tlop writes is checked by the
 * same rules as one a user hands to `tlop lint`. Each format is its own file (tune.h); a
 * file is a list of blocks by communicator size (the block of the largest size not above P
 * applies), each a list of rules by message size (the rule of the largest size not above m
 * applies) — the shape of Open MPI's rules. */
#include "tune/tune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
  tlop_tuning_free(t->defaults);
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

/* One part as the library's blocks; false after reporting why it cannot be written. */
static bool part_blocks(tlop_ctx *ctx, const tlop_tuning_part *p, const tlop_tuning_target *to,
                        tlop_tuning *t) {
  tlop_tuning_format format = to->format;
  const tuning_collective *c = tuning_collective_named(p->collective);
  *t = (tlop_tuning){.coll = c, .size = format_size(c, format), .ranks = to->ranks};
  /* MPICH measures no gatherv, Open MPI no barrier or alltoallv: their files choose by
   * communicator size only */
  bool by_comm_only = c && ((format == TLOP_TUNING_MPICH_JSON && c->size[t->size] == SIZE_NONE) ||
                            c->size[t->size] == SIZE_ZERO);
  if (!c || (c->size[t->size] == SIZE_NONE && !by_comm_only)) {
    diag_error(ctx, (span){0},
               "%s has no message size for '%s' that tlop knows: tuning files can be "
               "written for bcast, reduce, allreduce, allgather, alltoall, gather, scatter, "
               "gatherv and (Open MPI) reduce_scatter, barrier and alltoallv (docs/tuning.md, "
               "\"Message sizes\")",
               tlop_tuning_library(format), p->collective);
    return false;
  }
  if (decision_blocks(ctx, p->d, p->cands, format, t) != TLOP_OK)
    return false;
  for (size_t i = 0; by_comm_only && i < t->n; i++)
    if (t->blocks[i].n > 1) {
      diag_error(ctx, (span){0},
                 "the winner of %s changes with m at P = %.0f, but %s measures no message "
                 "size for it: no file written",
                 p->collective, t->blocks[i].comm,
                 format == TLOP_TUNING_MPICH_JSON ? "MPICH's selection" : "Open MPI");
      return false;
    }
  return true;
}

tlop_status tlop_tuning_write(tlop_ctx *ctx, const tlop_tuning_part *parts, size_t n,
                              const tlop_tuning_target *to, char **text) {
  *text = NULL;
  tlop_tuning_format format = to->format;
  if (to->ranks != TLOP_RANKS_ANY && format != TLOP_TUNING_OMPI_JSON) {
    diag_error(ctx, (span){0},
               "only Open MPI's JSON rules say where the ranks are (comm_rank_distribution): "
               "%s's file has no such condition",
               tlop_tuning_library(format));
    return TLOP_ERR_ARG;
  }
  tlop_tuning *defaults = NULL;
  if (format == TLOP_TUNING_MPICH_JSON && !(defaults = csel_defaults(ctx, to->mpich_version)))
    return TLOP_ERR_ARG;
  tlop_tuning *ts = xcalloc(n ? n : 1, sizeof *ts);
  bool ok = n > 0;
  for (size_t i = 0; ok && i < n; i++) {
    for (size_t j = 0; j < i; j++)
      if (!strcmp(parts[j].collective, parts[i].collective)) {
        diag_error(ctx, (span){0}, "%s twice among the collectives of one file",
                   parts[i].collective);
        ok = false;
      }
    ok = ok && part_blocks(ctx, &parts[i], to, &ts[i]);
  }
  if (ok) {
    strbuf o = {0};
    if (format == TLOP_TUNING_MPICH_JSON)
      csel_write(&o, ts, n, defaults);
    else if (format == TLOP_TUNING_OMPI_JSON)
      ompi_json_write(&o, ts, n);
    else if (format == TLOP_TUNING_IMPI)
      impi_write(&o, ts, n);
    else
      ompi_rules_write(&o, ts, n, format == TLOP_TUNING_OMPI_RULES);
    *text = sb_take(&o);
  }
  for (size_t i = 0; i < n; i++)
    blocks_free(ts[i].blocks, ts[i].n);
  free(ts);
  tlop_tuning_free(defaults);
  return ok ? TLOP_OK : TLOP_ERR_ARG;
}

tlop_status tlop_tuning_read(tlop_ctx *ctx, const tlop_catalog *cat, const char *collective,
                             const tlop_tuning_target *as, const char *path, const char *text,
                             size_t len, tlop_tuning **out) {
  *out = NULL;
  tlop_tuning *t = xcalloc(1, sizeof *t);
  tlop_tuning_format format = as->format;
  t->coll = tuning_collective_named(collective);
  t->size = format_size(t->coll, format);
  if (format == TLOP_TUNING_MPICH_JSON && !(t->defaults = csel_defaults(ctx, as->mpich_version))) {
    free(t);
    return TLOP_ERR_ARG;
  }
  reader r = {{ctx, source_new(ctx, path, text, len), 0}, cat, collective, t, 0};
  if (format == TLOP_TUNING_MPICH_JSON)
    csel_read(&r);
  else if (format == TLOP_TUNING_OMPI_JSON)
    ompi_json_read(&r);
  else if (format == TLOP_TUNING_IMPI)
    impi_read(&r);
  else
    ompi_rules_read(&r, format == TLOP_TUNING_OMPI_RULES);
  if (r.errors) {
    tlop_tuning_free(t);
    return TLOP_ERR_SYNTAX;
  }
  *out = t;
  return TLOP_OK;
}
