/* ompi_json.c — Open MPI's JSON rules for coll_tuned (newer than any Debian release: read
 * by coll_tuned_dynamic_file.c of Open MPI's main branch): "collectives" maps a collective's
 * name to an array of communicator rules (comm_size_min/max, comm_rank_distribution, rules),
 * each rule a message-size range (msg_size_min/max, an integer or "inf") and an "alg", a
 * name or an id. Written from a decision; read and checked against that reader's grammar;
 * a valid file has contiguous ranges, so it is kept as blocks (largest start not above). */
#include "tune/tune.h"

#include <stdlib.h>
#include <string.h>

void ompi_json_write(strbuf *o, const tlop_tuning *ts, size_t n) {
  sb_puts(o, "{\n  \"rule_file_version\": 3,\n  \"module\": \"tuned\",\n  \"collectives\": {");
  for (size_t k = 0; k < n; k++) {
    const tlop_tuning *t = &ts[k];
    sb_printf(o, "%s\n    \"%s\": [", k ? "," : "", t->coll->name);
    for (size_t i = 0; i < t->n; i++) {
      const block *b = &t->blocks[i];
      /* the first block takes the sizes below it too, the last has no end (as tlop looks up) */
      sb_printf(o, "%s\n      {\"comm_size_min\": %.0f, ", i ? "," : "", i ? b->comm : 0);
      if (i + 1 < t->n)
        sb_printf(o, "\"comm_size_max\": %.0f, ", t->blocks[i + 1].comm - 1);
      sb_printf(o, "\"comm_rank_distribution\": \"%s\",\n       \"rules\": [",
                tuning_ranks_name(t->ranks));
      for (size_t j = 0; j < b->n; j++) {
        sb_printf(o, "%s\n         {\"msg_size_min\": %.0f, \"msg_size_max\": ", j ? "," : "",
                  b->rules[j].msg);
        if (j + 1 < b->n)
          sb_printf(o, "%.0f", b->rules[j + 1].msg - 1);
        else
          sb_puts(o, "\"inf\"");
        sb_printf(o, ", \"alg\": \"%s\"}", b->rules[j].e->ompi_name);
      }
      sb_puts(o, "]}");
    }
    sb_puts(o, "\n    ]");
  }
  sb_puts(o, "\n  }\n}\n");
}

static const json_value *member(const json_value *obj, const char *key, span *at) {
  for (size_t i = 0; obj->kind == JSON_OBJECT && i < obj->n; i++)
    if (!strcmp(obj->members[i].key, key)) {
      if (at)
        *at = obj->members[i].key_at;
      return obj->members[i].value;
    }
  return NULL;
}

static bool token_is(const reader *r, const json_value *v, const char *s) {
  return v->at.hi - v->at.lo == strlen(s) && !strncmp(r->s.src->text + v->at.lo, s, strlen(s));
}

/* An integer field, or "inf" (as Open MPI reads them); absent: `dflt`. */
static bool integer_field(reader *r, const json_value *obj, const char *key, double dflt,
                          double *out) {
  const json_value *v = member(obj, key, NULL);
  *out = dflt;
  if (!v)
    return true;
  if (token_is(r, v, "\"inf\"") || token_is(r, v, "\"Inf\"") || token_is(r, v, "\"INF\"")) {
    *out = 1e300;
    return true;
  }
  long n;
  if (v->kind == JSON_SCALAR && r->s.src->text[v->at.lo] != '"' &&
      word_count(&r->s, v->at, key, &n)) {
    *out = (double)n;
    return true;
  }
  reader_fail(r, v->at, "\"%s\" must be an integer or \"inf\": Open MPI drops the whole file", key);
  return false;
}

/* One message rule: its range and algorithm; false when the rule is broken. */
static bool read_rule(reader *r, const json_value *rule, const char *coll, block *b,
                      double *prev_max) {
  if (rule->kind != JSON_OBJECT) {
    reader_fail(r, rule->at, "a message rule is an object");
    return false;
  }
  double lo, hi;
  if (!integer_field(r, rule, "msg_size_min", 0, &lo) ||
      !integer_field(r, rule, "msg_size_max", 1e300, &hi))
    return false;
  span at = rule->at;
  const json_value *alg = member(rule, "alg", &at);
  int id = 0;
  long n;
  if (!alg) {
    reader_fail(r, rule->at, "a rule without \"alg\": Open MPI drops the whole file");
    return false;
  }
  if (r->s.src->text[alg->at.lo] == '"') {
    char *name = xstrndup(r->s.src->text + alg->at.lo + 1, alg->at.hi - alg->at.lo - 2);
    id = tuning_ompi_alg_id(coll, name);
    free(name);
  } else if (word_count(&r->s, alg->at, "an algorithm", &n))
    id = n <= tuning_ompi_alg_count(coll) ? (int)n : 0;
  if (!id)
    reader_fail(r, alg->at, "not an algorithm of %s in coll_tuned: Open MPI ignores this rule",
                coll);
  if (hi < lo)
    reader_fail(r, rule->at, "msg_size_max is below msg_size_min: the rule matches nothing");
  else if (!b->n && lo != 0)
    reader_fail(r, rule->at,
                "the first rule starts at %.0f B, not 0: smaller messages fall back "
                "to the fixed decision",
                lo);
  else if (b->n && lo != *prev_max + 1)
    reader_fail(r, rule->at,
                "this rule starts at %.0f B, but the one before ends at %.0f B: "
                "sizes between fall back to the fixed decision",
                lo, *prev_max);
  *prev_max = hi;
  rule_add(b, lo, id, catalog_ompi_entry(r->cat, r->collective, id));
  return true;
}

static void read_comm_rules(reader *r, const json_value *arr, const char *coll, bool keep) {
  if (arr->kind != JSON_ARRAY) {
    reader_fail(r, arr->at, "a collective takes an array of communicator rules");
    return;
  }
  double prev_max = -1;
  for (size_t i = 0; i < arr->n; i++) {
    const json_value *cr = arr->members[i].value;
    double lo, hi;
    if (cr->kind != JSON_OBJECT) {
      reader_fail(r, cr->at, "a communicator rule is an object");
      continue;
    }
    if (!integer_field(r, cr, "comm_size_min", 0, &lo) ||
        !integer_field(r, cr, "comm_size_max", 1e300, &hi))
      continue;
    if (hi < lo || lo <= prev_max)
      reader_fail(r, cr->at, "communicator ranges must ascend without overlap");
    prev_max = hi;
    const json_value *distro = member(cr, "comm_rank_distribution", NULL);
    if (distro && !token_is(r, distro, "\"any\"") && !token_is(r, distro, "\"one_per_node\"") &&
        !token_is(r, distro, "\"single_node\""))
      reader_fail(r, distro->at,
                  "comm_rank_distribution is \"any\", \"one_per_node\" or "
                  "\"single_node\" (Open MPI assumes \"any\")");
    const json_value *rules = member(cr, "rules", NULL);
    if (!rules || rules->kind != JSON_ARRAY) {
      reader_fail(r, cr->at, "a communicator rule needs \"rules\", an array");
      continue;
    }
    block b = {lo, NULL, 0, 0};
    double prev = -1;
    /* Open MPI drops the whole file at a broken rule: the rest would only echo it */
    for (size_t j = 0; j < rules->n; j++)
      if (!read_rule(r, rules->members[j].value, coll, &b, &prev))
        break;
    if (keep)
      VEC_PUSH(r->t->blocks, r->t->n, r->t->cap, b);
    else
      free(b.rules);
  }
}

void ompi_json_read(reader *r) {
  json_value *root = json_parse_document(r, false);
  if (!root)
    return;
  const json_value *colls = member(root, "collectives", NULL);
  if (!colls || colls->kind != JSON_OBJECT) {
    reader_fail(r, root->at,
                "expected an object with \"collectives\", an object: Open MPI "
                "requires it");
    return;
  }
  for (size_t i = 0; i < root->n; i++) {
    const char *k = root->members[i].key;
    if (strcmp(k, "collectives") && strcmp(k, "rule_file_version") && strcmp(k, "module") &&
        strcmp(k, "$schema"))
      reader_fail(r, root->members[i].key_at, "\"%s\" is not a field of Open MPI's rules", k);
  }
  bool found = false;
  for (size_t i = 0; i < colls->n; i++) {
    const json_member *m = &colls->members[i];
    if (tuning_ompi_alg_count(m->key) < 0) {
      reader_fail(r, m->key_at,
                  "\"%s\" is not a collective of Open MPI (all lower case, such as "
                  "\"bcast\"): Open MPI drops the whole file",
                  m->key);
      continue;
    }
    bool keep = !strcmp(m->key, r->collective);
    found |= keep;
    read_comm_rules(r, m->value, m->key, keep);
  }
  if (!found && !r->errors)
    reader_fail(r, colls->at, "no rules for %s: Open MPI keeps its fixed decision", r->collective);
}
