/* ompi_rules.c — Open MPI's rules files (coll_tuned_dynamic_file_name) written, and read
 * as coll_tuned does (coll_tuned_dynamic_file.c, 4.1; coll_base_dynamic_file.c, 5.0 for
 * rule-file-version-2). */
#include "tune/tune.h"

#include <stdlib.h>
#include <string.h>

void ompi_rules_write(strbuf *o, const tlop_tuning *ts, size_t n, bool v2) {
  if (v2)
    sb_puts(o, "rule-file-version-2\n");
  sb_printf(o, "%zu # collectives\n", n);
  for (size_t k = 0; k < n; k++) {
    const tlop_tuning *t = &ts[k];
    sb_printf(o, "%d # %s\n%zu # communicator sizes\n", t->coll->ompi_id, t->coll->name, t->n);
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
}

/* What Open MPI does with a file it cannot read to the end (coll_tuned_dynamic_file.c drops
 * every rule read and returns; coll_tuned keeps its fixed decisions, rc = 0, no message). */
#define IGNORED "Open MPI ignores the whole file (it keeps its fixed decisions and says nothing)"

/* The next number the counts promise; `what` names it for the message. */
static bool number(reader *r, const char *what, long *v, span *at) {
  if (!word_next(&r->s, true, at)) {
    reader_fail(r, word_end(&r->s),
                "the file ends where %s should be, the counts before promising more: " IGNORED,
                what);
    return false;
  }
  if (!word_number(&r->s, *at, v)) {
    reader_fail(r, *at, "expected %s (a whole number), not '%.*s': " IGNORED, what,
                (int)(at->hi - at->lo), r->s.src->text + at->lo);
    return false;
  }
  return true;
}

/* Open MPI looks rules up in file order, keeping the last whose size is not above the
 * call's and stopping at the first above it (coll_tuned_dynamic_rules.c): with sizes out
 * of order it reads the file, and a rule takes sizes other than its own. */
static void out_of_order(reader *r, span at, const char *what, long size, double prev) {
  if (size == prev)
    reader_fail(r, at,
                "%s size %ld twice: Open MPI accepts the file and takes the later rule for it, "
                "so the earlier one never runs",
                what, size);
  else
    reader_fail(r, at,
              "%s sizes must ascend: %ld follows %.0f. Open MPI accepts the file and misreads "
              "it: walking the rules in file order it stops at %.0f for a size below that, so "
              "this rule takes only sizes from %.0f on",
              what, size, prev, prev, prev);
}

static bool read_rule(reader *r, const tuning_collective *c, bool v2, bool keep, block *b) {
  long msg, alg, fan, seg, reqs = 0;
  span at_msg, at_alg, at;
  if (!number(r, "a message size", &msg, &at_msg) || !number(r, "an algorithm", &alg, &at_alg) ||
      !number(r, "a fan-in/out", &fan, &at) || !number(r, "a segment size", &seg, &at) ||
      (v2 && !number(r, "a number of max requests", &reqs, &at)))
    return false;
  if (!b->n && msg != 0)
    reader_fail(r, at_msg, "the first rule of a communicator size must start at message size 0: "
                IGNORED);
  if (b->n && msg <= b->rules[b->n - 1].msg)
    out_of_order(r, at_msg, "message", msg, b->rules[b->n - 1].msg);
  int nalg = tuning_ompi_algorithms(c);
  if (!nalg)
    reader_fail(r, at_alg, "%s has no algorithms in coll_tuned: Open MPI ignores its rules",
                c->name);
  else if (alg < 1 || alg > nalg)
    reader_fail(r, at_alg, "%s has algorithms 1 to %d in coll_tuned, not %ld", c->name, nalg,
                alg);
  rule_add(b, (double)msg, (int)alg,
           keep ? catalog_ompi_entry(r->cat, r->collective, (int)alg) : NULL);
  return true;
}

void ompi_rules_read(reader *r, bool v2) {
  span at;
  long ncoll;
  if (!word_next(&r->s, true, &at)) {
    reader_fail(r, word_end(&r->s),
                "the file is empty: Open MPI expects the number of collectives; " IGNORED);
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
    reader_fail(r, at, "'rule-file-version-2' is Open MPI 5's header, and 4.1 reads no header: "
                       "Open MPI 4.1 ignores the whole file (it keeps its fixed decisions and says "
                       "nothing)");
    return;
  }
  if (has_header ? !number(r, "the number of collectives", &ncoll, &at)
                 : !word_number(&r->s, at, &ncoll)) {
    if (!has_header)
      reader_fail(r, at,
                  "expected the number of collectives (a whole number), not '%.*s': " IGNORED,
                  (int)(at.hi - at.lo), r->s.src->text + at.lo);
    return;
  }
  if (ncoll < 1)
    reader_fail(r, at, "no collectives: the file sets nothing");
  uint64_t seen = 0; /* by Open MPI's id, below 64 */
  for (long i = 0; i < ncoll; i++) {
    long id, ncomm;
    span at_id;
    if (!number(r, "a collective id", &id, &at_id))
      return;
    const tuning_collective *c = tuning_collective_of_ompi_id(id);
    if (!c) {
      reader_fail(r, at_id, "%ld is not a collective id of Open MPI (0 to %zu): " IGNORED, id,
                  tuning_collective_count() - 1);
      return;
    }
    if (seen >> id & 1)
      reader_fail(r, at_id, "%s (%ld) has rules already", c->name, id);
    seen |= (uint64_t)1 << id;
    bool keep = !strcmp(c->name, r->collective);
    if (!number(r, "the number of communicator sizes", &ncomm, &at))
      return;
    if (ncomm < 1)
      reader_fail(r, at, "%s has no communicator sizes", c->name);
    double prev_comm = -1;
    for (long j = 0; j < ncomm; j++) {
      long comm, nmsg;
      span at_comm;
      if (!number(r, "a communicator size", &comm, &at_comm))
        return;
      block b = {(double)comm, NULL, 0, 0};
      if (j && comm <= prev_comm)
        out_of_order(r, at_comm, "communicator", comm, prev_comm);
      prev_comm = (double)comm;
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

