/* csel.c — MPICH's collective selection file (CSEL, MPICH 4.0): a JSON tree whose keys are
 * conditions ("comm_size<=8", "avg_msg_size=any") tried in order, a matching key's object
 * tried next, down to an "algorithm=NAME" leaf. Written from a decision; read with a JSON
 * reader of its own and walked as MPICH's csel.c walks it, keys checked against the ones
 * the Debian build of MPICH 4.0.2 knows. */
#include "tune/tune.h"
#include "front/front.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- writing ---- */

static void indent(strbuf *o, int depth) { sb_printf(o, "\n%*s", 2 * depth, ""); }

/* "KEY<=N" bounding a block or rule by the next one's start, or "KEY=any" for the last. */
static void bound(strbuf *o, int depth, const char *key, bool last, double next_start) {
  indent(o, depth);
  if (last)
    sb_printf(o, "\"%s=any\": {", key);
  else
    sb_printf(o, "\"%s<=%.0f\": {", key, next_start - 1);
}

/* One tuned collective's "collective=NAME": {…} member. */
static void write_collective(strbuf *o, const tlop_tuning *t) {
  const char *key = t->size == SIZE_MPICH_AVG ? "avg_msg_size" : "total_msg_size";
  bool sized = t->coll->size[t->size] != SIZE_NONE;
  sb_printf(o, "  \"collective=%s\": {\n    \"comm_type=intra\": {", t->coll->name);
  /* in-place calls keep the one algorithm MPICH has for them (alltoall's pairwise and
   * scattered assert a separate send buffer), communicators split by node the smp barrier
   * (tlop does not model it) */
  const char *kept = t->coll->mpich_kept_key;
  bool inplace = kept && !strcmp(kept, "is_sendbuf_inplace");
  if (kept)
    sb_printf(o, "\n      \"%s=%s\": {\"algorithm=%s\": {}},\n      \"%s=%s\": {", kept,
              inplace ? "yes" : "parent", t->coll->mpich_kept, kept, inplace ? "no" : "any");
  for (size_t i = 0; i < t->n; i++) {
    const block *b = &t->blocks[i];
    bool last_block = i + 1 == t->n;
    bound(o, 3, "comm_size", last_block, last_block ? 0 : t->blocks[i + 1].comm);
    /* a collective MPICH measures no size of has one rule a block (part_blocks) */
    if (!sized) {
      sb_printf(o, "\"algorithm=%s\": {}}%s", b->rules[0].e->mpich_name, last_block ? "" : ",");
      continue;
    }
    for (size_t j = 0; j < b->n; j++) {
      bool last = j + 1 == b->n;
      bound(o, 4, key, last, last ? 0 : b->rules[j + 1].msg);
      sb_printf(o, "\"algorithm=%s\": {}}%s", b->rules[j].e->mpich_name, last ? "" : ",");
    }
    indent(o, 3);
    sb_puts(o, last_block ? "}" : "},");
  }
  /* inter-communicators keep MPICH's algorithm for them: without a branch MPICH would abort */
  sb_printf(o, "\n    }%s,\n    \"comm_type=inter\": {\"algorithm=%s\": {}}\n  }",
            kept ? "}" : "", t->coll->mpich_inter);
}

tlop_tuning *csel_defaults(tlop_ctx *ctx, const char *version) {
  if (!version)
    version = TLOP_MPICH_VERSION;
  char name[64];
  size_t len = 0;
  const char *text = NULL;
  if (strlen(version) < 32) {
    snprintf(name, sizeof name, "tuning/mpich-%s.json", version);
    text = stdlib_builtin(name, &len);
  }
  if (!text) {
    diag_error(ctx, (span){0},
               "tlop has MPICH's own selection tree of release %s only (stdlib/tuning/), not "
               "of '%s': an MPICH file is the library's whole tree, so none can be written or "
               "checked for that release",
               TLOP_MPICH_VERSION, version);
    return NULL;
  }
  tlop_tuning *t = xcalloc(1, sizeof *t);
  reader r = {{ctx, source_new(ctx, name, text, len), 0}, NULL, "", t, 0};
  t->csel = json_parse_document(&r, true);
  if (!t->csel || t->csel->kind != JSON_OBJECT) {
    tlop_tuning_free(t);
    return NULL; /* the stdlib's own file: reported where it breaks */
  }
  t->mpich_version = arena_strdup(t->ar, version);
  snprintf(name, sizeof name, "tuning/mpich-%s.algorithms", version);
  t->mpich_algorithms = stdlib_builtin(name, &len);
  return t;
}

/* Is NAME a line of the release's list of algorithms (stdlib/tuning/mpich-VERSION.algorithms)? */
static bool known_algorithm(const tlop_tuning *dflt, const char *name) {
  size_t n = strlen(name);
  for (const char *p = dflt->mpich_algorithms; p && *p;
       p = strchr(p, '\n') ? strchr(p, '\n') + 1 : "")
    if (!strncmp(p, name, n) && (p[n] == '\n' || !p[n]))
      return true;
  return false;
}

void csel_write(strbuf *o, const tlop_tuning *ts, size_t n, const tlop_tuning *defaults) {
  const json_value *root = defaults->csel;
  const char *version = defaults->mpich_version;
  /* json-c, MPICH's reader, skips C comments: the only place for what the file is */
  sb_printf(o,
            "/* tlop best: MPICH %s's MPIR-level collective selection, for\n"
            "   MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE, which replaces MPICH's tree whole: "
            "tlop's\n   decisions for",
            version);
  for (size_t k = 0; k < n; k++)
    sb_printf(o, "%s %s", k ? (k + 1 == n ? " and" : ",") : "", ts[k].coll->name);
  sb_printf(o, "; MPICH %s's own for every other collective. */\n{\n", version);
  for (size_t i = 0; i < root->n; i++) {
    const json_member *m = &root->members[i];
    const tlop_tuning *tuned = NULL;
    for (size_t k = 0; k < n && !tuned; k++)
      if (!strcmp(m->key + 11, ts[k].coll->name))
        tuned = &ts[k];
    if (tuned)
      write_collective(o, tuned);
    else
      sb_printf(o, "  \"%s\": %.*s", m->key, (int)(m->value->end - m->value->at.lo),
                defaults->csel->at.src->text + m->value->at.lo);
    sb_puts(o, i + 1 < root->n ? ",\n" : "\n}\n");
  }
}

/* ---- CSEL's keys ---- */

typedef enum { KEY_BAD, KEY_COND, KEY_ANY, KEY_ALGORITHM } key_class;

/* The conditions MPICH 4.0.2 parses (the strings of Debian's libmpich.so.12): a prefix, and
 * whether a number follows it. */
static const struct {
  const char *prefix;
  bool number;
} conditions[] = {
    {"comm_type=intra", false},
    {"comm_type=inter", false},
    {"comm_size<=", true},
    {"comm_size<", true},
    {"comm_size=pow2", false},
    {"comm_size=node_comm_size", false},
    {"avg_msg_size<=", true},
    {"avg_msg_size<", true},
    {"total_msg_size<=", true},
    {"total_msg_size<", true},
    {"count<=", true},
    {"count<pow2", false},
    {"comm_avg_ppn<=", true},
    {"is_multi_threaded=yes", false},
    {"is_multi_threaded=no", false},
    {"is_commutative=yes", false},
    {"is_commutative=no", false},
    {"is_op_built_in=yes", false},
    {"is_op_built_in=no", false},
    {"is_sendbuf_inplace=yes", false},
    {"is_sendbuf_inplace=no", false},
    {"is_block_regular=yes", false},
    {"is_block_regular=no", false},
    {"is_node_consecutive=yes", false},
    {"is_node_consecutive=no", false},
    {"comm_hierarchy=flat", false},
    {"comm_hierarchy=node", false},
    {"comm_hierarchy=node_roots", false},
    {"comm_hierarchy=parent", false},
};

static const char *const any_keys[] = {"comm_size=any", "avg_msg_size=any", "total_msg_size=any",
                                       "count=any", "comm_hierarchy=any"};

static key_class classify(const char *key, long *threshold) {
  for (size_t i = 0; i < sizeof any_keys / sizeof *any_keys; i++)
    if (!strcmp(key, any_keys[i]))
      return KEY_ANY;
  if (!strncmp(key, "algorithm=", 10))
    return KEY_ALGORITHM;
  for (size_t i = 0; i < sizeof conditions / sizeof *conditions; i++) {
    size_t n = strlen(conditions[i].prefix);
    if (strncmp(key, conditions[i].prefix, n))
      continue;
    if (!conditions[i].number)
      return key[n] ? KEY_BAD : KEY_COND;
    char *end;
    *threshold = strtol(key + n, &end, 10);
    if (end != key + n && !*end && *threshold >= 0)
      return KEY_COND;
  }
  return KEY_BAD;
}

/* The part of a condition key before its operator: thresholds of one kind must grow. */
static size_t kind_len(const char *key) { return strcspn(key, "<="); }

static const tlop_catalog_entry *mpich_entry(const reader *r, const char *name) {
  const tlop_catalog_entry *es;
  size_t n = tlop_catalog_entries(r->cat, &es);
  for (size_t i = 0; i < n; i++)
    if (!strcmp(es[i].collective, r->collective) && es[i].mpich_name &&
        !strcmp(es[i].mpich_name, name))
      return &es[i];
  return NULL;
}

/* Is the collective (or its nonblocking form, "i" before it) in the list of names? */
static bool listed(const char *const *list, const char *coll) {
  for (; *list; list++)
    if (!strcmp(*list, coll) || (coll[0] == 'i' && !strcmp(*list, coll + 1)))
      return true;
  return false;
}

/* A key MPICH 4.0's csel.c does not measure for the collective (it prints "avg_msg_size not
 * defined for coll_type" and aborts, or fails an assertion): its name, or NULL. */
static const char *undefined_size(const char *coll, const char *key) {
  static const char *const avg[] = {"allreduce", "bcast", "reduce", "alltoall", NULL};
  static const char *const count[] = {"allreduce", "bcast", "reduce", "allgather", "allgatherv",
                                      "reduce_scatter", "reduce_scatter_block", NULL};
  static const char *const total[] = {"allreduce", "bcast", "reduce", "alltoall", "alltoallv",
                                      "alltoallw", "allgather", "allgatherv", "gather", "scatter",
                                      "reduce_scatter", "reduce_scatter_block", NULL};
  if (key[kind_len(key)] != '<')
    return NULL;
  if (!strncmp(key, "avg_msg_size", 12) && !listed(avg, coll))
    return "avg_msg_size";
  if (!strncmp(key, "total_msg_size", 14) && !listed(total, coll))
    return "total_msg_size";
  if (!strncmp(key, "count", 5) && !listed(count, coll))
    return "count";
  return NULL;
}

/* Keys that between them match every call (intra and inter) end an object as =any does. */
static bool covers_both(const json_value *v, const char *a, const char *b) {
  bool has_a = false, has_b = false;
  for (size_t i = 0; i < v->n; i++) {
    has_a |= !strcmp(v->members[i].key, a);
    has_b |= !strcmp(v->members[i].key, b);
  }
  return has_a && has_b;
}

/* The calls that can get where the walk has got to: communicator sizes lo..hi, whether a
 * "comm_size=pow2" on the way allows powers of two only, whether a "comm_hierarchy=parent"
 * allows communicators split by node only, whether a size key allows empty calls only
 * ("avg_msg_size<=0"), and whether "is_sendbuf_inplace" keys (or the ones before them)
 * allow MPI_IN_PLACE calls only or calls with a send buffer only. */
typedef struct {
  long lo, hi;
  bool pow2, parent, empty, inplace_only, sendbuf_only;
} comm_sizes;

/* The smallest size that is not a power of two a call can have here, or 0 for none (of two
 * consecutive sizes above 2 one is not a power of two). */
static long first_non_power_of_two(comm_sizes c) {
  long n = c.lo < 3 ? 3 : c.lo;
  if ((n & (n - 1)) == 0)
    n++;
  return c.pow2 || n > c.hi ? 0 : n;
}

/* Algorithms Debian's MPICH 4.0.2 asserts a power-of-two communicator size in (its build
 * checks errors): the call aborts at any other size. */
static const char *const power_of_two_only[] = {"MPIR_Allgather_intra_recursive_doubling"};

static bool needs_power_of_two(const char *algorithm) {
  for (size_t i = 0; i < sizeof power_of_two_only / sizeof *power_of_two_only; i++)
    if (!strcmp(algorithm, power_of_two_only[i]))
      return true;
  return false;
}

/* Node-aware algorithms of Debian's MPICH 4.0.2 that work on a communicator split by node
 * only (MPICH's own tree puts them under "comm_hierarchy=parent", or allreduce's under
 * "avg_msg_size<=0"), and what a call on another does — on one node too, where the node
 * communicator their first step calls the collective on is no parent (seen with
 * tests/best/all_colls.c at P = 2 and 3; the allreduce's wrong results need data: an empty
 * call has none to get wrong). */
static const struct {
  const char *algorithm, *consequence;
  bool with_data;
} parent_only[] = {
    {"MPIR_Barrier_intra_smp", "aborts (\"Assertion failed … MPIR_Comm_is_parent_comm\")", false},
    {"MPIR_Bcast_intra_smp", "aborts (\"Assertion failed … MPIR_Comm_is_parent_comm\")", false},
    {"MPIR_Allreduce_intra_smp", "returns wrong results, silently", true},
};

/* Algorithms Debian's MPICH 4.0.2 asserts a send buffer in (sendbuf != MPI_IN_PLACE), or
 * an MPI_IN_PLACE call in (the pairwise sendrecv_replace ones), read in MPICH's
 * alltoall_intra_*.c and alltoallv_intra_*.c: a call of the other kind aborts. */
static const char *const sendbuf_only[] = {
    "MPIR_Alltoall_intra_brucks", "MPIR_Alltoall_intra_pairwise", "MPIR_Alltoall_intra_scattered",
    "MPIR_Alltoallv_intra_scattered"};
static const char *const inplace_only[] = {"MPIR_Alltoall_intra_pairwise_sendrecv_replace",
                                           "MPIR_Alltoallv_intra_pairwise_sendrecv_replace"};

static bool listed_in(const char *const *names, size_t n, const char *algorithm) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(algorithm, names[i]))
      return true;
  return false;
}

/* The kind of call that reaches ALGORITHM here and fails its assertion, or NULL for none;
 * *belongs: the key the algorithm belongs under. */
static const char *buffer_kind_refused(const char *algorithm, comm_sizes calls,
                                       const char **belongs) {
  *belongs = "is_sendbuf_inplace=no";
  if (!calls.sendbuf_only && listed_in(sendbuf_only, sizeof sendbuf_only / sizeof *sendbuf_only, algorithm))
    return "an MPI_IN_PLACE call (\"Assertion failed … sendbuf != MPI_IN_PLACE\")";
  *belongs = "is_sendbuf_inplace=yes";
  if (!calls.inplace_only && listed_in(inplace_only, sizeof inplace_only / sizeof *inplace_only, algorithm))
    return "a call with a send buffer (\"Assertion failed … sendbuf == MPI_IN_PLACE\")";
  return NULL;
}

static const char *parent_only_consequence(const char *algorithm, comm_sizes calls) {
  for (size_t i = 0; !calls.parent && i < sizeof parent_only / sizeof *parent_only; i++)
    if (!strcmp(algorithm, parent_only[i].algorithm) && !(parent_only[i].with_data && calls.empty))
      return parent_only[i].consequence;
  return NULL;
}

/* Checks one object of conditions as MPICH will try it: every key known, nothing after a key
 * that always matches, thresholds of a kind ascending, something matching at the end, no
 * power-of-two-only algorithm where another size can arrive. SIZES: the communicator sizes
 * that reach the object; a "comm_size<…" key takes its sizes from the keys after it. */
static void check_node(reader *r, json_value *v, const char *coll, const char *algorithm_prefix,
                       bool keep, comm_sizes sizes) {
  if (v->kind != JSON_OBJECT) {
    reader_fail(r, v->at, "expected an object: CSEL's tree has objects only");
    return;
  }
  if (!v->n) {
    reader_fail(r, v->at,
                "an empty object: a call that reaches it matches nothing and MPICH aborts");
    return;
  }
  for (size_t i = 0; i < v->n; i++) {
    json_member *m = &v->members[i];
    long th = 0, prev_th = 0;
    key_class k = classify(m->key, &th);
    if (k == KEY_BAD) {
      reader_fail(r, m->key_at,
                  "MPICH 4.0 does not know the key \"%s\" (it aborts: \"unknown key\")", m->key);
      continue;
    }
    const char *undefined = undefined_size(coll, m->key);
    if (undefined)
      reader_fail(r, m->key_at, "MPICH 4.0 measures no %s for %s: a call that reaches this key "
                  "aborts", undefined, coll);
    if (i > 0) {
      const char *pk = v->members[i - 1].key;
      key_class pkc = classify(pk, &prev_th);
      if (pkc == KEY_ANY || pkc == KEY_ALGORITHM)
        reader_fail(r, m->key_at, "unreachable: \"%s\" before it always matches", pk);
      else if (pkc == KEY_COND && k == KEY_COND && kind_len(pk) == kind_len(m->key) &&
               !strncmp(pk, m->key, kind_len(pk)) && pk[kind_len(pk)] == '<' &&
               m->key[kind_len(m->key)] == '<' && strcmp(pk, "count<pow2") &&
               strcmp(m->key, "count<pow2") && th <= prev_th)
        reader_fail(r, m->key_at,
                    "unreachable: \"%s\" comes after \"%s\", which takes all it would", m->key, pk);
    }
    comm_sizes here = sizes;
    if (k == KEY_COND && !strncmp(m->key, "comm_size<", 10)) {
      long last_size = m->key[10] == '=' ? th : th - 1;
      here.hi = last_size < sizes.hi ? last_size : sizes.hi;
      if (last_size + 1 > sizes.lo)
        sizes.lo = last_size + 1;
    } else if (!strcmp(m->key, "comm_size=pow2"))
      here.pow2 = true;
    else if (!strcmp(m->key, "comm_hierarchy=parent"))
      here.parent = true;
    else if (!strcmp(m->key, "is_sendbuf_inplace=yes"))
      here.inplace_only = sizes.sendbuf_only = true; /* the keys after it get the others */
    else if (!strcmp(m->key, "is_sendbuf_inplace=no"))
      here.sendbuf_only = sizes.inplace_only = true;
    else if (!strcmp(m->key + kind_len(m->key), "<=0") && strstr(m->key, "msg_size<"))
      here.empty = true;
    if (k == KEY_ALGORITHM) {
      const tlop_tuning *dflt = r->t->defaults;
      long bad_size = needs_power_of_two(m->key + 10) ? first_non_power_of_two(here) : 0;
      if (bad_size)
        reader_fail(r, m->key_at,
                    "MPICH %s aborts in %s at a communicator size that is not a power of two "
                    "(\"Assertion failed … !(comm_size & (comm_size - 1))\"), and a call of "
                    "%ld processes reaches it: put it under \"comm_size=pow2\"",
                    dflt->mpich_version, m->key + 10, bad_size);
      const char *belongs, *refused = buffer_kind_refused(m->key + 10, here, &belongs);
      if (refused)
        reader_fail(r, m->key_at,
                    "MPICH %s aborts in %s at %s, and such a call reaches it: put it under "
                    "\"%s\"",
                    dflt->mpich_version, m->key + 10, refused, belongs);
      const char *not_parent = parent_only_consequence(m->key + 10, here);
      if (not_parent)
        reader_fail(r, m->key_at,
                    "MPICH %s runs %s on communicators split by node only, and a call on "
                    "another (a node's own communicator, every call with MPIR_CVAR_NOLOCAL=1) "
                    "reaches it: MPICH %s; put it under \"comm_hierarchy=parent\"",
                    dflt->mpich_version, m->key + 10, not_parent);
      if (algorithm_prefix && strncmp(m->key + 10, algorithm_prefix, strlen(algorithm_prefix)))
        reader_fail(r, m->key_at, "\"%s\" is not an algorithm of this collective (%s…)",
                    m->key + 10, algorithm_prefix);
      else if (dflt->mpich_algorithms && !known_algorithm(dflt, m->key + 10))
        reader_fail(r, m->key_at,
                    "MPICH %s has no algorithm \"%s\": it aborts reading the file "
                    "(\"unrecognized key\")",
                    dflt->mpich_version, m->key + 10);
      if (m->value->kind != JSON_OBJECT)
        reader_fail(r, m->value->at, "an algorithm's parameters are an object ({} for none)");
      m->entry = keep ? mpich_entry(r, m->key + 10) : NULL;
    } else
      check_node(r, m->value, coll, algorithm_prefix, keep, here);
  }
  long th;
  key_class last = classify(v->members[v->n - 1].key, &th);
  static const char *const pairs[][2] = {
      {"comm_type=intra", "comm_type=inter"},       {"is_multi_threaded=yes", "is_multi_threaded=no"},
      {"is_commutative=yes", "is_commutative=no"},   {"is_op_built_in=yes", "is_op_built_in=no"},
      {"is_sendbuf_inplace=yes", "is_sendbuf_inplace=no"},
      {"is_block_regular=yes", "is_block_regular=no"},
      {"is_node_consecutive=yes", "is_node_consecutive=no"}};
  bool covered = false;
  for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++)
    covered |= covers_both(v, pairs[i][0], pairs[i][1]);
  if (last == KEY_COND && !covered)
    reader_fail(r, v->members[v->n - 1].key_at,
                "no \"…=any\" last: a call that matches none of "
                "these keys makes MPICH abort");
}

static const json_member *member_named(const json_value *obj, const char *key) {
  for (size_t i = 0; i < obj->n; i++)
    if (!strcmp(obj->members[i].key, key))
      return &obj->members[i];
  return NULL;
}

/* MPICH reads the file as its whole MPIR-level tree: a collective the file leaves out has no
 * branch, and the first call of it fails MPICH's assertion (mpir_coll.c: cnt). */
static void check_complete(reader *r, const json_value *root) {
  const tlop_tuning *dflt = r->t->defaults;
  strbuf missing = {0};
  size_t nmissing = 0;
  for (size_t i = 0; i < dflt->csel->n; i++) {
    const char *key = dflt->csel->members[i].key;
    if (member_named(root, key))
      continue;
    if (nmissing < 6)
      sb_printf(&missing, "%s%s", nmissing ? ", " : "", key + 11);
    nmissing++;
  }
  if (nmissing > 6)
    sb_printf(&missing, " and %zu more", nmissing - 6);
  if (nmissing)
    reader_fail(r, root->at,
                "MPICH %s takes this file as its whole selection tree, and it has no %s: a "
                "program calling %s aborts at the call (\"Assertion failed in file "
                "src/mpi/coll/src/mpir_coll.c … cnt\"); tlop best --emit mpich-json writes the "
                "release's own decisions for them",
                dflt->mpich_version, missing.s, nmissing == 1 ? "it" : "any of them");
  free(missing.s);
}

void csel_read(reader *r) {
  json_value *root = json_parse_document(r, true);
  if (!root)
    return;
  if (root->kind != JSON_OBJECT) {
    reader_fail(r, root->at, "expected an object of \"collective=NAME\" keys");
    return;
  }
  for (size_t i = 0; i < root->n; i++) {
    json_member *m = &root->members[i];
    if (strncmp(m->key, "collective=", 11)) {
      reader_fail(r, m->key_at, "expected \"collective=NAME\" at the top, not \"%s\"", m->key);
      continue;
    }
    if (!member_named(r->t->defaults->csel, m->key)) {
      reader_fail(r, m->key_at, "MPICH %s has no collective \"%s\" (it aborts: unknown key)",
                  r->t->defaults->mpich_version, m->key + 11);
      continue;
    }
    /* MPIR_Bcast_… for bcast: the collective's name with a capital */
    char prefix[64];
    snprintf(prefix, sizeof prefix, "MPIR_%s_", m->key + 11);
    prefix[5] = (char)(prefix[5] >= 'a' && prefix[5] <= 'z' ? prefix[5] - 'a' + 'A' : prefix[5]);
    bool keep = !strcmp(m->key + 11, r->collective);
    check_node(r, m->value, m->key + 11, prefix, keep, (comm_sizes){1, LONG_MAX, false, false, false, false, false});
    if (keep)
      r->t->csel = m->value;
  }
  if (!r->t->csel && !r->errors)
    reader_fail(r, root->at, "no \"collective=%s\": MPICH would abort at the first %s",
                r->collective, r->collective);
  else
    check_complete(r, root);
}

/* ---- walking the tree as MPICH does: the first key that matches, never back ---- */

static bool matches(const tlop_tuning *t, const char *key, double m, double P) {
  long th = 0;
  key_class k = classify(key, &th);
  if (k == KEY_ANY)
    return true;
  if (k != KEY_COND)
    return false;
  size_t n = kind_len(key);
  bool le = key[n] == '<' && key[n + 1] == '=';
  /* one node: P processes per node */
  if ((!strncmp(key, "comm_size", 9) || !strncmp(key, "comm_avg_ppn", 12)) && key[n] == '<')
    return le ? P <= th : P < th;
  /* MPI_BYTE buffers: a count is bytes; sizes as csel.c measures them (NAN where MPICH
   * aborts, which the linter has reported) */
  if (key[n] == '<' && strcmp(key, "count<pow2")) {
    double v = !strncmp(key, "avg", 3)     ? tuning_size(t->coll, SIZE_MPICH_AVG, m, P)
               : !strncmp(key, "total", 5) ? tuning_size(t->coll, SIZE_MPICH_TOTAL, m, P)
                                           : m;
    return le ? v <= th : v < th;
  }
  if (!strcmp(key, "count<pow2"))
    return m < exp2(floor(log2(P)));
  if (!strcmp(key, "comm_size=pow2"))
    return P >= 1 && ((unsigned long)P & ((unsigned long)P - 1)) == 0;
  /* one node, one thread, a flat intra-communicator, a built-in commutative operator, separate
   * buffers, equal blocks: the calls tlop models */
  static const char *const modelled[] = {
      "comm_type=intra",    "comm_size=node_comm_size", "is_multi_threaded=no",
      "comm_hierarchy=flat", "is_commutative=yes",      "is_op_built_in=yes",
      "is_sendbuf_inplace=no", "is_block_regular=yes",  "is_node_consecutive=yes"};
  for (size_t i = 0; i < sizeof modelled / sizeof *modelled; i++)
    if (!strcmp(key, modelled[i]))
      return true;
  return false;
}

const tlop_catalog_entry *csel_lookup(const tlop_tuning *t, double m, double P) {
  const json_value *v = t->csel;
  for (;;) {
    const json_member *hit = NULL;
    for (size_t i = 0; !hit && v->kind == JSON_OBJECT && i < v->n; i++)
      if (!strncmp(v->members[i].key, "algorithm=", 10) || matches(t, v->members[i].key, m, P))
        hit = &v->members[i];
    if (!hit)
      return NULL;
    if (!strncmp(hit->key, "algorithm=", 10))
      return hit->entry;
    v = hit->value;
  }
}
