/* tune.h — the tuner's internals (src/tune/), behind the public tlop_best.h: what its files
 * offer one another. Depends on base and front (the catalogue loads stdlib text).
 *
 * Files call downwards only, no cycle:
 *   best.c                    decisions from costs (no file of the folder)
 *   tuning.c                  dispatcher: the public tlop_tuning_* API → the formats
 *   ompi_rules.c csel.c ompi_json.c impi.c
 *                             the formats; csel.c, ompi_json.c → json.c
 *   catalog.c                 stdlib/catalog.txt; entries by library id
 *   ompi_tables.c reader.c    the collectives' tables; the word scanner, reader errors,
 *                             rules and sizes */
#ifndef TLOP_TUNE_H
#define TLOP_TUNE_H

#include "tlop_best.h"
#include "base/base.h"

typedef struct word_scan {
  tlop_ctx *ctx;
  const source *src;
  uint32_t pos;
} word_scan;

/* The next word: on this line only (across_lines false: false at the line's end, the
 * position left there), or anywhere after (false at the end of the text). */
bool word_next(word_scan *s, bool across_lines, span *w);
/* Moves past the end of the current line; false at the end of the text. */
bool word_next_line(word_scan *s);
/* The word as a non-negative whole number (Open MPI reads them with strtol); false if it is
 * none (word_number) or after reporting it at the word (word_count). */
bool word_number(const word_scan *s, span w, long *out);
bool word_count(word_scan *s, span w, const char *what, long *out);
/* An empty span just past the last word: where "expected …" at the end points. */
span word_end(const word_scan *s);

/* ---- collectives, as each library numbers and measures them (ompi_tables.c; tuning_size
 * in reader.c) ---- */

/* Which library's message size: Open MPI's coll_tuned, MPICH CSEL's avg_msg_size and
 * total_msg_size, Intel MPI's. */
typedef enum { SIZE_OMPI, SIZE_MPICH_AVG, SIZE_MPICH_TOTAL, SIZE_IMPI } size_def;
#define SIZE_NONE 9 /* a size the library does not define for the collective */
#define SIZE_ZERO 8 /* none either, but the library looks its rules up at size 0: it decides
                       by communicator size alone (Open MPI's barrier and alltoallv) */

typedef struct tuning_collective {
  const char *name;
  int ompi_id;                   /* Open MPI's COLLTYPE */
  const char *const *ompi_names; /* coll_tuned's algorithms by id from 1, NULL-ended */
  signed char size[4];           /* by size_def: the size is m·P^k for k = -1, 0, 1 */
  const char *mpich_inter;       /* MPICH's algorithm for inter-communicators */
  /* The calls MPICH's own tree sends to an algorithm that tlop does not choose, which a
   * file keeps: "is_sendbuf_inplace" (MPI_IN_PLACE calls, which the collective's other
   * algorithms refuse) or "comm_hierarchy" (communicators split by node, the only ones its
   * smp algorithm runs on); NULL: none such */
  const char *mpich_kept_key;
  const char *mpich_kept; /* the algorithm those calls keep */
} tuning_collective;

/* NULL when Open MPI has no such collective. */
const tuning_collective *tuning_collective_named(const char *name);
/* The library's message size of the collective's m on P processes: NAN when it has none; m
 * for a collective tlop does not know (c NULL). */
double tuning_size(const tuning_collective *c, size_def d, double m, double P);

/* ---- the shape the formats share (reader.c) ---- */

typedef struct rule {
  double msg;                  /* from this message size (bytes) on */
  int id;                      /* the library's algorithm id */
  const tlop_catalog_entry *e; /* its catalogue entry; NULL when the catalogue has none */
} rule;

typedef struct block {
  double comm; /* from this communicator size on */
  rule *rules;
  size_t n, cap;
} block;

/* An Intel MPI condition: its algorithm for messages mlo..mhi on plo..phi processes. */
typedef struct impi_cond {
  int id;
  const tlop_catalog_entry *e;
  double mlo, mhi, plo, phi;
} impi_cond;

struct tlop_tuning {
  block *blocks; /* Open MPI's rules */
  size_t n, cap;
  impi_cond *conds; /* Intel MPI's, tried in order */
  size_t nconds, conds_cap;
  arena *ar; /* an MPICH file: its JSON tree, kept to be walked as MPICH does */
  struct json_value *csel;
  const tuning_collective *coll; /* the collective read (NULL: one tlop does not know) */
  size_def size;                 /* and how the file measures its messages */
  tlop_ranks ranks;              /* written: Open MPI JSON's comm_rank_distribution */
  struct tlop_tuning *defaults;  /* MPICH: the release's own tree (csel_defaults) */
  const char *mpich_version;     /* and that release */
  const char *mpich_algorithms;  /* its algorithms, one a line (NULL: tlop has no list) */
};

/* "any", "single_node", "one_per_node" */
const char *tuning_ranks_name(tlop_ranks r);

void rule_add(block *b, double msg, int id, const tlop_catalog_entry *e);

typedef struct reader {
  word_scan s;
  const tlop_catalog *cat;
  const char *collective; /* the one whose rules are kept */
  tlop_tuning *t;
  int errors;
} reader;

void reader_fail(reader *r, span at, const char *fmt, ...) TLOP_PRINTF(3, 4);

/* ---- Open MPI's numbering (ompi_tables.c) ---- */

/* Open MPI's coll_tuned algorithms of a collective: the id of a name (0: none such), how
 * many there are (-1: not a collective); of a known collective (0: none in coll_tuned). */
int tuning_ompi_alg_id(const char *collective, const char *name);
int tuning_ompi_alg_count(const char *collective);
int tuning_ompi_algorithms(const tuning_collective *c);
/* The collective of Open MPI's COLLTYPE id (NULL: none such); how many ids there are. */
const tuning_collective *tuning_collective_of_ompi_id(long id);
size_t tuning_collective_count(void);

/* ---- the catalogue (catalog.c) ---- */

/* The entry of the collective with Open MPI's algorithm id (NULL: the catalogue has none). */
const tlop_catalog_entry *catalog_ompi_entry(const tlop_catalog *cat, const char *collective,
                                             int id);

/* ---- Open MPI's rules files (ompi_rules.c) ---- */
void ompi_rules_write(strbuf *o, const tlop_tuning *ts, size_t n, bool v2);
/* v2: Open MPI 5's rule-file-version-2 */
void ompi_rules_read(reader *r, bool v2);

/* ---- JSON (json.c) ---- */
typedef enum { JSON_OBJECT, JSON_ARRAY, JSON_SCALAR } json_kind;

typedef struct json_member {
  span key_at;
  char *key; /* NULL in an array */
  struct json_value *value;
  const tlop_catalog_entry *entry; /* an algorithm of the collective read: its entry */
} json_member;

typedef struct json_value {
  json_kind kind;
  span at;
  json_member *members; /* an object's members or an array's elements, in order */
  size_t n;
  uint32_t end; /* just past the value's text (at.lo is where it starts) */
} json_value;

/* The whole text as one JSON value, kept in an arena the tuning owns; NULL after reporting
 * where it breaks. comments: skip C comments as json-c does (MPICH's reader). */
json_value *json_parse_document(reader *r, bool comments);

/* ---- MPICH's CSEL JSON (csel.c) ---- */
/* The release's own MPIR-level tree (stdlib/tuning/mpich-VERSION.json) held in a tuning
 * (its csel: the root object); NULL after saying tlop does not know the release. */
tlop_tuning *csel_defaults(tlop_ctx *ctx, const char *version);
/* The whole tree: the n tunings' collectives, and the defaults' own for every other. */
void csel_write(strbuf *o, const tlop_tuning *ts, size_t n, const tlop_tuning *defaults);
void csel_read(reader *r);
const tlop_catalog_entry *csel_lookup(const tlop_tuning *t, double m, double P);

/* ---- Open MPI's JSON rules (ompi_json.c) ---- */
void ompi_json_write(strbuf *o, const tlop_tuning *ts, size_t n);
void ompi_json_read(reader *r);

/* ---- Intel MPI's I_MPI_ADJUST_<COLL> (impi.c) ---- */
/* one assignment a line, a collective each */
void impi_write(strbuf *o, const tlop_tuning *ts, size_t n);
void impi_read(reader *r);
/* size: the message in Intel MPI's measure */
const tlop_catalog_entry *impi_lookup(const tlop_tuning *t, double size, double P);

#endif
