/* base.h — what every stage uses: memory, symbols, strings, sources and diagnostics,
 * the kind algebra, the context and its environments of values. Depends on nothing but tlop.h. */
#ifndef TLOP_BASE_H
#define TLOP_BASE_H

#include "tlop.h"
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TLOP_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* ======== util.c: arenas, growable arrays, interned symbols, string buffers ======== */

/* The handler of tlop_set_oom_handler, then abort: a request of `bytes` was refused. */
_Noreturn void out_of_memory(size_t bytes);
/* malloc, calloc and realloc that call out_of_memory rather than return NULL: the one
 * path out of memory takes in the library (src/cli, the command, installs a handler). They
 * are as thread-safe as the handler is (the JIT's and tlop_measure's threads call them). */
void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
/* strdup and strndup (at most n bytes of s, then a NUL) likewise: malloc'd, for free(). */
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

typedef struct arena arena;
arena *arena_new(void);
void arena_free(arena *a);
void *arena_alloc(arena *a, size_t size); /* zeroed */
/* zeroed, aligned to `align` (a power of two ≤ max_align_t's): the small nodes a large
 * file has hundreds of thousands of (8 bytes of padding each, at 16) */
void *arena_alloc_aligned(arena *a, size_t size, size_t align);
char *arena_strndup(arena *a, const char *s, size_t n);
char *arena_strdup(arena *a, const char *s);

/* Grows *p (an array of elem-sized items with capacity *cap) to hold `need` items. */
void *grow_array(void *p, size_t *cap, size_t need, size_t elem);
#define VEC_PUSH(arr, n, cap, item)                                            \
  do {                                                                         \
    (arr) = grow_array((arr), &(cap), (n) + 1, sizeof *(arr));                 \
    (arr)[(n)++] = (item);                                                     \
  } while (0)

/* Interned name: pointer equality is name equality; `id` indexes per-name arrays. */
typedef const struct symbol {
  const char *name;
  uint32_t id;
  uint32_t hash; /* of the name, in the symbol table */
} *sym;

typedef struct symtab symtab;
symtab *symtab_new(void);
void symtab_free(symtab *t);
sym sym_intern(symtab *t, const char *s, size_t n);
uint32_t symtab_count(const symtab *t);

/* A map from pointers (syms, nodes) to pointers. */
typedef struct ptrmap {
  const void **keys;
  void **vals;
  size_t cap, count;
} ptrmap;
void *ptrmap_get(const ptrmap *m, const void *key);
/* Where key lies in keys and vals, or cap when it is absent: an index of an array kept
 * beside the map's, while no key is added. */
size_t ptrmap_slot(const ptrmap *m, const void *key);
void ptrmap_put(ptrmap *m, const void *key, void *val);
/* Room for `more` keys beyond those m has: a large map grown once, not through each
 * doubling, whose last would hold the old slots and the new at once. */
void ptrmap_reserve(ptrmap *m, size_t more);
void ptrmap_free(ptrmap *m);

/* A growing string. */
typedef struct strbuf {
  char *s;
  size_t len, cap;
} strbuf;
void sb_puts(strbuf *b, const char *s);
void sb_putn(strbuf *b, const char *s, size_t n);
void sb_printf(strbuf *b, const char *fmt, ...) TLOP_PRINTF(2, 3);
void sb_vprintf(strbuf *b, const char *fmt, va_list ap);
char *sb_take(strbuf *b); /* hands the malloc'd string over; "" when empty */

/* Largest input file read (hostile inputs: /dev/zero, huge or sparse files). */
#define FILE_MAX_MIB 256
/* Reads a whole input file ("-": standard input), NUL-terminated, into `ar` (NULL: into
 * malloc'd memory). Every input of every command comes through here: what is not a
 * regular file (a FIFO, a device, a directory) and what holds more than FILE_MAX_MIB are
 * refused before a byte is read, so no input hangs or fills the memory. NULL on success,
 * else why it failed (a static string). */
const char *file_read(arena *ar, const char *path, char **text, size_t *len);

/* Edit distance of two names (Levenshtein), 99 past 40 bytes: "did you mean". */
unsigned name_distance(const char *a, const char *b);

/* A monotonic clock, in seconds: deadlines. */
double clock_seconds(void);

/* Shortest decimal that reads back to the same double. */
void fmt_double(char *buf, size_t n, double v);

/* ======== diag.c: sources, spans and the one diagnostic renderer ======== */

typedef struct source {
  const char *path;  /* as the user named it (for messages) */
  const char *text;  /* the bytes, NUL-terminated */
  size_t len;
  uint32_t *lines;   /* byte offset of each line start */
  size_t nlines;
  uint32_t base;     /* where its bytes begin in the context's offset space; 0: outside it */
} source;

typedef struct span {
  const source *src; /* NULL: no location */
  uint32_t lo, hi;   /* byte offsets, hi exclusive */
} span;

/* A span as two offsets of its context's offset space (source.base), without a source of
 * its own: what the syntax tree keeps of its 11 million nodes in a 50 MB model. 0..0: no
 * location. */
typedef struct spot {
  uint32_t lo, hi;
} spot;

source *source_new(tlop_ctx *ctx, const char *path, const char *text, size_t len);
/* Inline: the parser takes one for each of a model's nodes. */
static inline spot spot_of(span sp) {
  uint32_t base = sp.src ? sp.src->base : 0;
  return base ? (spot){base + sp.lo, base + sp.hi} : (spot){0, 0};
}
/* The span of a spot, in the source that holds it. */
span span_of(const tlop_ctx *ctx, spot p);
/* The line (from 0) that holds byte offset `off`. */
size_t source_line_of(const source *s, uint32_t off);

void diag_error(tlop_ctx *ctx, span at, const char *fmt, ...) TLOP_PRINTF(3, 4);
void diag_warning(tlop_ctx *ctx, span at, const char *fmt, ...) TLOP_PRINTF(3, 4);
void diag_note(tlop_ctx *ctx, span at, const char *fmt, ...) TLOP_PRINTF(3, 4);
/* "file:line: error: …" for line-oriented inputs (tables); line 0 omits it. */
void diag_error_line(tlop_ctx *ctx, const char *file, int line, const char *fmt, ...)
    TLOP_PRINTF(4, 5);
void diag_emit(tlop_ctx *ctx, tlop_severity sev, span at, const char *fmt, va_list ap);

/* ======== kind.c: the kind algebra ======== */

/* A kind is a unit: bytes^b · seconds^s, or a bare number that adopts what it meets,
 * a truth value, unknown (an unannotated parameter, which defers the check), or a
 * reduction operator (a parameter `op: op`: a name, never a number). */
typedef enum { K_DIM, K_NUM, K_BOOL, K_ANY, K_OP, K_MAP } kind_tag;
/* 4 bytes: a 50 MB model's numbers and the checker's record of each fn hold one. */
typedef struct kind {
  uint8_t tag; /* a kind_tag */
  int8_t b, s;
  /* `real`: a dimensionless value that may be a fraction, the unit of a count, so equal
   * to one (kind_eq), but never checked whole where it enters (kind_is_count) */
  bool real;
} kind;

extern const kind KIND_NUM, KIND_COUNT, KIND_SIZE, KIND_TIME, KIND_BOOL, KIND_ANY, KIND_OP,
    KIND_MAP;
/* A reduction operator or a mapping: a name, not a number, bound when an expression is
 * lowered (--set op=max, --set map=round_robin). */
static inline bool kind_by_name(kind k) { return k.tag == K_OP || k.tag == K_MAP; }
/* The same unit: a real and a count are equal. */
bool kind_eq(kind a, kind b);
/* A count, whole where it enters an algorithm or the model: not a real. */
bool kind_is_count(kind k);
/* Dimensioned as bytes^b · seconds^s (b = s = 0: a count). */
bool kind_is_dim(kind k, int b, int s);
/* a where b is the same kind, else KIND_ANY: one let value read with two kinds. */
kind kind_agreed(kind a, kind b);
const char *kind_name(kind k, char *buf, size_t n);
tlop_kind kind_public(kind k);
kind kind_from_public(tlop_kind k);


/* ======== context.c: the context every stage works in ======== */

/* Deepest expression the parser reads and DAG the lowering builds the lowering builds (inlining nests bodies): the evaluator recurses over
 * it, within an 8 MiB stack. --max-depth goes no further. */
#define IR_MAX_DEPTH 20000

typedef struct ir_table ir_table; /* the IR stage's node table (ir.h) */

typedef struct model_list {
  tlop_model *model;
  struct model_list *next;
} model_list;

struct tlop_ctx {
  arena *ar;
  symtab *syms;
  ir_table *ir;
  tlop_diag_fn diag_fn;
  void *diag_user;
  int errors;
  char **paths;
  size_t npaths, paths_cap;
  ptrmap modules;        /* canonical path sym → module */
  ptrmap unused_facts;   /* assumptions already warned of as not used */
  char *stdlib_dir;      /* the installed stdlib, or NULL */
  tlop_tau_rule tau_rule;
  double max_terms;
  double max_steps;      /* most pipeline steps of a schedule */
  double max_messages;   /* most messages of one messages stage */
  double max_inline;     /* most function calls inlined into one expression */
  double max_errors;     /* errors in one file before its reading stops */
  double max_depth;      /* deepest expression parsed, at most IR_MAX_DEPTH */
  double max_unroll;     /* most terms a nest of sums written out by simplify may have */
  double max_print;      /* most nodes an expression printed as a tree may have */
  double max_stages;     /* most rows of an explained breakdown */
  double max_table_rows; /* most rows (message sizes) of a parameter table */
  double max_axis_points; /* most points of a grid axis (tlop_axis_parse) */
  double max_table_cols; /* most value columns (τ, operators) of a parameter table */
  bool strict;           /* warnings are errors */
  bool warn_once;        /* extrapolations reported once over several calls, per group: */
  struct warn_group {
    unsigned warned;     /* the kinds met since (tlop_ctx_set_warn_once), */
    char *held[3];       /* their messages, given in one call's order when it ends */
  } *warn_groups;        /* in the order of their numbers (tlop_ctx_set_warn_group) */
  size_t nwarn_groups, warn_group;
  char *warn_source;     /* what the calls evaluate, named in their warnings */
  struct model_list *models; /* every model loaded, freed with the context */
  tlop_model *empty;         /* the scope of constant values (--set, grids) */
  unsigned sources;          /* sources loaded from text, for their unique keys */
  /* Every source in the offset space, in the order of their bases: a syntax tree's node
   * keeps two offsets of it, not a source of its own (ast_span). */
  const source **spaced;
  size_t nspaced, spaced_cap;
  uint32_t offsets_end;      /* the next source's base */
};

struct tlop_env {
  tlop_ctx *ctx;
  sym *names;
  double *values;
  kind *kinds;
  size_t n, cap;
  /* operators and mappings given by name (--set op=max, map=round_robin): kept apart, as
   * they are not numbers; op_kinds says which (KIND_OP or KIND_MAP) */
  sym *op_names, *ops;
  const kind **op_kinds;
  size_t nops, ops_cap;
};

/* The context frees the model (its maps) when it is freed. */
void ctx_track_model(tlop_ctx *ctx, tlop_model *model);
/* The operator env gives for name, or NULL. */
sym env_op(const tlop_env *env, sym name);
/* Whether env gives name a number. */
bool env_has_value(const tlop_env *env, sym name);
/* Binds env values of a model into a kinds map, for checking expressions. */
void env_kinds(const tlop_env *env, ptrmap *out);

/* The symbol of a name, interned in the context's table. */
sym ctx_sym(tlop_ctx *ctx, const char *s);
/* The context frees the model (its maps) when it is freed. */
void ctx_track_model(tlop_ctx *ctx, tlop_model *model);
/* The operator env gives for name, or NULL. */
sym env_op(const tlop_env *env, sym name);
/* Binds env values of a model into a kinds map, for checking expressions. */
void env_kinds(const tlop_env *env, ptrmap *out);

#endif
