/* tlop_int.h — private declarations shared by the compiler's stages, one section per
 * defining file, in pipeline order: util → diag → ast (parser) → load → check → ir →
 * lower → eval → simplify → print → platform → api. */
#ifndef TLOP_INT_H
#define TLOP_INT_H

#include "table.h"
#include "tlop.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TLOP_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* ======== util.c: arenas, growable arrays, interned symbols, string buffers ======== */

/* The handler of tlop_set_oom_handler, then abort: a request of `bytes` was refused. */
_Noreturn void out_of_memory(size_t bytes);
/* malloc, calloc and realloc that call out_of_memory rather than return NULL. */
void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);

typedef struct arena arena;
arena *arena_new(void);
void arena_free(arena *a);
void *arena_alloc(arena *a, size_t size); /* zeroed */
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
void ptrmap_put(ptrmap *m, const void *key, void *val);
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
} source;

typedef struct span {
  const source *src; /* NULL: no location */
  uint32_t lo, hi;   /* byte offsets, hi exclusive */
} span;

source *source_new(tlop_ctx *ctx, const char *path, const char *text, size_t len);

void diag_error(tlop_ctx *ctx, span at, const char *fmt, ...) TLOP_PRINTF(3, 4);
void diag_warning(tlop_ctx *ctx, span at, const char *fmt, ...) TLOP_PRINTF(3, 4);
void diag_note(tlop_ctx *ctx, span at, const char *fmt, ...) TLOP_PRINTF(3, 4);
/* "file:line: error: …" for line-oriented inputs (tables); line 0 omits it. */
void diag_error_line(tlop_ctx *ctx, const char *file, int line, const char *fmt, ...)
    TLOP_PRINTF(4, 5);
void diag_emit(tlop_ctx *ctx, tlop_severity sev, span at, const char *fmt, va_list ap);

/* ======== kinds (check.c) ======== */

/* A kind is a unit: bytes^b · seconds^s, or a bare number that adopts what it meets,
 * a truth value, unknown (an unannotated parameter, which defers the check), or a
 * reduction operator (a parameter `op: op`: a name, never a number). */
typedef enum { K_DIM, K_NUM, K_BOOL, K_ANY, K_OP } kind_tag;
typedef struct kind {
  kind_tag tag;
  int8_t b, s;
} kind;

extern const kind KIND_NUM, KIND_COUNT, KIND_SIZE, KIND_TIME, KIND_BOOL, KIND_ANY, KIND_OP;
bool kind_eq(kind a, kind b);
/* a where b is the same kind, else KIND_ANY: one let value read with two kinds. */
kind kind_agreed(kind a, kind b);
const char *kind_name(kind k, char *buf, size_t n);
tlop_kind kind_public(kind k);
kind kind_from_public(tlop_kind k);

/* ======== ast.c: the syntax tree the parser builds ======== */

typedef enum {
  E_NUM,    /* num.v in bytes/seconds, num.k the kind of its unit */
  E_NAME,
  E_CALL,   /* f(args); L[ch](m,τ), o[ch](m), gamma(op, m, τ), p(m) */
  E_UNARY,  /* -x, not x */
  E_BINARY,
  E_PAR,    /* A ∥[ch] X; the checker tells count ∥ cost from cost ∥ cost */
  E_IF,
  E_LET,
  E_SUM,    /* sum i = lo .. hi : body; `stages i = …` sets is_stage */
  E_STAGES, /* stages { a; "label": b; … } */
  E_REPEAT, /* repeat N { body } */
  E_SCHEDULE, /* schedule L[ch](size) { statements }: the statements place transfers */
  E_AT,     /* at step: count; — a placement inside a schedule */
  E_MESSAGES, /* messages on MAPPING(args) { statements }: a stage of messages */
  E_SEND,   /* send src -> dst : size [at start]; — a message, or a flow of a flows stage */
  E_FLOWS   /* flows under CUTS alone TIME { statements }: Martinasso's flows between nodes */
} ast_ekind;

typedef enum {
  OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_POW,
  OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE, OP_AND, OP_OR,
  OP_NEG, OP_NOT
} ast_op;

typedef struct ast_expr ast_expr;
struct ast_expr {
  ast_ekind kind;
  uint32_t depth;
  span sp;
  ast_expr *next; /* list link while parsing */
  union {
    struct { double v; kind k; } num;
    struct { sym name; } name;
    struct { sym name, channel, op; span name_sp, op_sp; ast_expr **args; int nargs; } call;
    struct { ast_op op; ast_expr *l, *r; } bin; /* unary: l only */
    struct { ast_expr *count, *body; sym channel; } par;
    struct { ast_expr *c, *t, *f; } cond;
    struct {
      sym name;
      span name_sp;
      ast_expr *value, *body;
      kind value_kind; /* the checker's, KIND_ANY where checks of it disagree */
      bool checked;
    } let;
    struct { sym index; span index_sp; ast_expr *lo, *hi, *body; bool is_stage; } sum;
    struct { ast_expr **items; sym *labels; int n; } stages;
    struct { ast_expr *count, *body; } repeat;
    struct { sym channel; ast_expr *size, *body; } sched;
    struct { ast_expr *step, *count; } at;
    struct { sym mapping; span mapping_sp; ast_expr **args; int nargs; ast_expr *body; } msgs;
    struct { ast_expr *src, *dst, *size, *start; } send; /* start: NULL unless `at` */
    struct { ast_expr *cuts, *alone, *body; } flows;      /* cuts, alone: NULL if missing */
  } u;
};

typedef enum {
  D_IMPORT, D_PARAM, D_FN, D_ALGORITHM, D_PLATFORM, D_CHANNEL, D_GAMMA, D_ASSUME, D_CLAIM
} ast_dkind;

typedef struct ast_arg {
  sym name;
  span sp;
  kind k;          /* KIND_ANY when not annotated */
  ast_expr *dflt;  /* `op: op = sum`: the value when a call leaves it out, or NULL */
  struct ast_arg *next;
} ast_arg;

typedef struct ast_decl ast_decl;
struct ast_decl {
  ast_dkind kind;
  bool strict;        /* claim under the axiom that L is strictly increasing in τ */
  kind k;             /* param: annotated kind or KIND_ANY */
  span sp, name_sp;
  sym name;
  ast_expr *body;     /* fn/algorithm body, param default, claim (a comparison) */
  ast_decl *next;
  struct module *mod; /* the file that declares it */
  /* A param ends here (ast_decl_new): a file of 600 000 params holds nothing else. */
  union {
    struct { ast_arg **args; int nargs; };        /* fn, algorithm, L/o/p, gamma */
    struct {                                      /* assume; a claim's `when` */
      ast_expr **facts;
      int nfacts;
      sym *counts;    /* a claim's variables given as an algorithm's count (check.c) */
      int ncounts;
    };
    struct { ast_decl **members; int nmembers; }; /* platform: channels and gamma;
                                                     channel: its L, o, p */
  };
  const char *path;   /* import path; channel/gamma table path */
  span path_sp;
};

/* Parser state handed to the flex scanner and the bison parser (parse-params). */
typedef struct parse_state {
  tlop_ctx *ctx;
  arena *ar;
  const source *src;
  int start_token; /* START_FILE or START_EXPR, returned first */
  ast_decl *decls; /* result of a file */
  ast_expr *expr;  /* result of an expression */
  int errors;
  uint32_t offset; /* byte offset of the scanner in src */
  uint32_t comment_at; /* where the block comment being skipped began */
  bool too_deep;   /* the nesting limit was reported */
  bool stopped;    /* --max-errors or the nesting limit reached: the scanner reads no further */
  bool end_statement; /* an unterminated string ended its line: give ';' next */
} parse_state;


ast_expr *ast_expr_new(parse_state *ps, ast_ekind k, span sp);
ast_expr *ast_num(parse_state *ps, double v, kind k, span sp);
ast_expr *ast_name(parse_state *ps, sym name, span sp);
ast_expr *ast_call(parse_state *ps, sym name, sym channel, ast_expr *args, span name_sp, span sp);
ast_expr *ast_binary(parse_state *ps, ast_op op, ast_expr *l, ast_expr *r, span sp);
ast_expr *ast_unary(parse_state *ps, ast_op op, ast_expr *e, span sp);
ast_expr *ast_stages(parse_state *ps, ast_expr *items, span sp);
ast_expr *ast_finish(parse_state *ps, ast_expr *e);
/* A schedule's statements in order, as one expression: placements added up, a `let`
 * scoping over the statements after it. */
ast_expr *ast_block(parse_state *ps, ast_expr *statements, span sp);
ast_expr *ast_at(parse_state *ps, ast_expr *step, ast_expr *count, span sp);
ast_expr *ast_send(parse_state *ps, ast_expr *src, ast_expr *dst, ast_expr *size, ast_expr *start,
                   span sp);
ast_decl *ast_decl_new(parse_state *ps, ast_dkind k, span sp);
int ast_list_len(const ast_expr *e);
ast_arg **ast_args_array(parse_state *ps, ast_arg *list, int *n);
ast_decl **ast_decls_array(parse_state *ps, ast_decl *list, int *n);
ast_expr **ast_exprs_array(parse_state *ps, ast_expr *list, int *n);
span span_join(span a, span b);

/* parse.c glue (grammar/parser.y): returns the number of syntax errors. */
int parse_file(tlop_ctx *ctx, arena *ar, const source *src, ast_decl **out);
int parse_expr(tlop_ctx *ctx, arena *ar, const source *src, ast_expr **out);
/* A comma-separated list of facts, where `=` means equality: "P = 2^p, p >= 1". */
int parse_facts(tlop_ctx *ctx, arena *ar, const source *src, ast_expr ***out, int *n);

/* ======== load.c: files, imports, the model's global scope ======== */

typedef struct module {
  const source *src;
  const char *dir;      /* directory of the file, for relative imports and tables */
  ast_decl *decls;
  bool loading;         /* on the import chain being loaded: cycle detection */
  bool failed;          /* did not parse */
} module;

struct tlop_model {
  tlop_ctx *ctx;
  module *root;
  ptrmap values;    /* sym → ast_decl (D_PARAM) */
  ptrmap funcs;     /* sym → ast_decl (D_FN, D_ALGORITHM) */
  ptrmap platforms; /* sym → ast_decl (D_PLATFORM) */
  ptrmap claim_vars;   /* sym → ast_expr: the free names of the claims, at a use */
  ptrmap claim_counts; /* those given as an algorithm's count, in some claim */
  ast_decl **params; /* every D_PARAM of the model, in load order */
  size_t nparams, params_cap;
  const char **algos; /* the root file's algorithms */
  size_t nalgos, algos_cap;
  struct module **mods; /* the root and every file it imports */
  size_t nmods, mods_cap;
  struct chk_state *chk;
};

/* Reads a whole file; NULL (with a diagnostic at `from`) when it cannot be read. */
char *load_read_file(tlop_ctx *ctx, const char *path, span from, size_t *len);
/* Resolves an import path to a file and loads it (once per canonical path). */
module *load_module_path(tlop_ctx *ctx, const char *path, span from);
/* Resolves an import as `from` would (NULL: from nowhere, search path only). With
 * `quiet_missing` false, a missing file is reported. */
module *load_import(tlop_ctx *ctx, const module *from, const char *name, span at,
                    bool report_missing);
module *load_module_text(tlop_ctx *ctx, const char *name, const char *text, size_t len);
tlop_status load_model(tlop_ctx *ctx, module *root, tlop_model **out);
/* The directory part of a path ("." when it has none). */
char *path_dir(arena *ar, const char *path);
/* The built-in copy of a stdlib file ("mpich/bcast.tlop"), or NULL. */
const char *stdlib_builtin(const char *name, size_t *len);

/* ======== check.c: names, arity, kinds ======== */

typedef struct chk_state chk_state;
/* Checks every declaration of the model; returns the number of errors. */
int chk_model(tlop_model *model);
/* Checks an expression in the model's scope; `free_names` (with kinds) are extra globals. */
/* With `implicit`, names the model does not define are free variables. */
int chk_expr(tlop_model *model, ast_expr *e, const ptrmap *free_kinds, bool implicit,
             kind *out);
/* Checks an assumption: a comparison whose unknown names are new variables (P = 2^p). */
int chk_fact(tlop_model *model, ast_expr *e);
bool chk_is_builtin(sym name);
kind chk_param_kind(tlop_model *model, ast_decl *param);
kind chk_fn_result(tlop_model *model, ast_decl *fn);
void chk_free(chk_state *c);

/* ======== ir.c: the hash-consed cost DAG ======== */

/* The node kinds: name, printed operator, arity (-1: special). ORDER IR_OPS */
#define IR_OPS(X)                                                              \
  X(NUM, "num", 0)      /* num; name = its unit "B", "s", "B/s" or NULL */      \
  X(VAR, "var", 0)      /* name */                                             \
  X(ADD, "+", 2) X(SUB, "-", 2) X(MUL, "*", 2) X(DIV, "/", 2)                  \
  X(MOD, "%", 2) X(POW, "^", 2) X(NEG, "-", 1)                                 \
  X(MIN, "min", 2) X(MAX, "max", 2)                                            \
  X(LOG2, "log2", 1) X(LOG, "log", 2) X(CEIL, "ceil", 1) X(FLOOR, "floor", 1)  \
  X(ABS, "abs", 1) X(SQRT, "sqrt", 1)                                          \
  X(LT, "<", 2) X(LE, "<=", 2) X(GT, ">", 2) X(GE, ">=", 2)                    \
  X(EQ, "==", 2) X(NE, "!=", 2) X(AND, "and", 2) X(OR, "or", 2) X(NOT, "not", 1) \
  X(IF, "if", 3)                                                               \
  X(SUM, "sum", 3)      /* name = index; kids lo, hi, body */                  \
  X(PAR, "par", 2)      /* name = channel or NULL; kids count, body */         \
  X(CONC, "conc", 2)    /* binary ∥ of two transfer sets */                    \
  X(L, "L", 2)          /* name = channel or NULL; kids m, tau */              \
  X(O, "o", 1)          /* name = channel or NULL; kid m */                    \
  X(GAMMA, "gamma", 2)  /* name = operator; kids m, tau */                     \
  X(PACK, "p", 1)       /* name = channel or NULL; kid m */                    \
  X(STAGE, "stage", 1)  /* name = label or NULL; transparent for evaluation */ \
  X(REPEAT, "repeat", 2) /* kids count, body: count × body, one stage repeated */ \
  X(SCHED, "schedule", 2) /* name = channel or NULL; kids size, placements */    \
  X(AT, "at", 2)        /* kids step, count: transfers placed in a schedule */   \
  X(MSGS, "messages", 2) /* name = the rank variable; kids node(rank), sends */   \
  X(SEND, "send", 3)    /* kids src, dst, size: a message of a messages stage */   \
  X(FLOWS, "flows", 3)  /* name = Q; kids alone(Q), sum over entry of cut(entry), flows */ \
  X(FLOW, "flow", 2)    /* kids send(src, dst, size), start: a flow of a flows stage */

typedef enum {
#define X(n, s, a) IR_##n,
  IR_OPS(X)
#undef X
  IR_NOPS
} ir_op;

typedef struct ir_node ir_node;
/* IR_COMPOUND: a product, quotient or power, or a sum or negation of one (where the
 * evaluator's wide range starts: eval_starts_wide); IR_WIDE_TERM: a node that starts the
 * wide range, or a sum or negation of one */
enum { IR_HAS_COST = 1, IR_HAS_STAGE = 2, IR_HAS_AT = 4, IR_HAS_SUM = 8, IR_COMPOUND = 16,
       IR_WIDE_TERM = 32 };

/* Deepest DAG the lowering builds (inlining nests bodies): the evaluator recurses over
 * it, within an 8 MiB stack. --max-depth goes no further. */
#define IR_MAX_DEPTH 20000

struct ir_node {
  uint8_t op;
  uint8_t nkids;
  uint8_t flags;       /* IR_HAS_* of the node and everything below it */
  uint32_t depth;
  uint32_t id;
  uint32_t hash;
  uint64_t vars;       /* bloom of the names used or bound inside (bit id % 64) */
  double num;
  sym name;
  span origin;         /* where the first lowering that built it came from */
  ir_node *next_in_bucket;
  ir_node *kid[3];
};

typedef struct ir_table ir_table;
ir_table *ir_table_new(void);
void ir_table_free(ir_table *t);
const char *ir_op_name(ir_op op);
ir_node *ir_make(tlop_ctx *ctx, ir_op op, sym name, double num, ir_node *a, ir_node *b,
                 ir_node *c);
ir_node *ir_num(tlop_ctx *ctx, double v);
ir_node *ir_var(tlop_ctx *ctx, sym name);
ir_node *ir_un(tlop_ctx *ctx, ir_op op, ir_node *a);
ir_node *ir_bin(tlop_ctx *ctx, ir_op op, ir_node *a, ir_node *b);
bool ir_has_sum(const ir_node *n);
bool ir_mentions(const ir_node *n, sym var); /* uses or binds; may answer true for a bloom collision */
/* How often v occurs in n written out as a tree, x^k counting x k times, capped at 10^6
 * (memo: node → count + 1, for one v). */
size_t ir_tree_count(const ir_node *n, const ir_node *v, ptrmap *memo);
bool ir_uses(const ir_node *n, sym var);     /* exactly: var occurs free in n */
/* name′: the next candidate for a fresh index */
sym ir_primed(tlop_ctx *ctx, sym name);
/* n with every sum over `old` inside it renamed to sum over `fresh` */
ir_node *ir_rebind(tlop_ctx *ctx, ir_node *n, sym old, sym fresh);
/* A total order on nodes by structure, for canonical forms. */
int ir_cmp(const ir_node *a, const ir_node *b);
bool ir_has_cost(const ir_node *n);          /* contains a transfer, overhead, γ or p */
/* The mapping of a messages stage as written: "sequential" (⌊p/Q⌋) or "round_robin"
 * (p mod M) with *arg its Q or M; NULL for any other (by(…), nodes(…)). */
const char *ir_mapping(const ir_node *msgs, const ir_node **arg);
bool ir_has_stage(const ir_node *n);
/* Applies a scalar operator to numbers; the one arithmetic of interp and simplifier. */
double ir_apply(ir_op op, double a, double b);
/* Names used in nodes, each once: the free variables (sum indices excluded) and the
 * channels of transfers, appended to what the lists hold. */
typedef struct ir_names {
  sym *v;
  size_t n, cap;
} ir_names;
void ir_collect_names(const ir_node *const *nodes, size_t n, ir_names *vars, ir_names *channels);
/* The names that sums and messages inside root bind. */
void ir_collect_indices(const ir_node *root, ir_names *indices);
/* Substitutes var := value everywhere in n (no capture: sum indices are unique). */
ir_node *ir_subst(tlop_ctx *ctx, ir_node *n, sym var, ir_node *value);
/* n with every occurrence of the node `from` replaced by `to` (printing a let's name). */
ir_node *ir_replace(tlop_ctx *ctx, ir_node *n, const ir_node *from, ir_node *to);

/* ======== lower.c: checked AST → IR ======== */

/* A let as a name for a node of an expression, which holds the node inlined (shared):
 * the lets written in it, whose value uses no index (lowering), or those simplify keeps.
 * Only printing uses them; everything else sees the inlined DAG. */
typedef struct expr_let {
  sym name;
  ir_node *value;
  kind k; /* the value's kind as the checker read the source (KIND_ANY: unknown) */
} expr_let;

/* Lowers an expression: functions are inlined, lets shared, sum indices renamed apart.
 * Reduction operators are names, not numbers: each is resolved here, so the IR's γ
 * always carries a literal operator; env (may be NULL) gives free operator names. */
ir_node *lower_expr(tlop_model *model, ast_expr *e, const tlop_env *env);
/* lower_expr, and the lets of e whose value is not a leaf and uses no index (in the
 * context's arena; *lets NULL when none). */
ir_node *lower_expr_lets(tlop_model *model, ast_expr *e, const tlop_env *env, expr_let **lets,
                         size_t *nlets);
/* Lowers an algorithm or function body with its parameters as free variables, except
 * its operators: env's value for one, else its default. */
ir_node *lower_function(tlop_model *model, ast_decl *fn, const tlop_env *env);
ir_node *lower_function_lets(tlop_model *model, ast_decl *fn, const tlop_env *env,
                             expr_let **lets, size_t *nlets);

/* ======== eval.c: the reference evaluator ======== */

typedef struct pf_channel pf_channel;
typedef struct eval_state eval_state;

/* A message of a messages stage: ranks, size, how many (loops that ignore their index),
 * and where it goes: the destination node, across the network or not. */
typedef struct msg {
  double src, dst, size, count;
  double node;
  bool net;
} msg;

/* Values of variables by symbol id; NaN means unbound. */
typedef struct valuation {
  double *v;
  size_t n;
} valuation;

eval_state *eval_new(tlop_ctx *ctx, const tlop_platform *pf);
void eval_free(eval_state *es);
/* Binds a variable (by sym) for subsequent evaluations. */
void eval_bind(eval_state *es, sym name, double v);
/* Binds the model's parameters from env or their defaults, on demand. */
void eval_use_env(eval_state *es, const tlop_env *env, const tlop_model *model);
/* Evaluates n; on failure reports a diagnostic and returns false. */
bool eval_node(eval_state *es, const ir_node *n, double *out);
/* Evaluates n under a ∥ multiplier for all channels (used by explain). */
bool eval_node_scaled(eval_state *es, const ir_node *n, double par, double *out);
/* The wide range of values m·2^e: n's node starts it (a product or quotient, not x/x, with
 * an operand that is IR_COMPOUND, or a sum of such: IR_WIDE_TERM), where its value in doubles overflows; inside it, an
 * operator of `op` keeps its operands in it (sums, products, quotients, negations), and
 * a^b is the number it is when eval_wide_power: a finite a ≠ 0 to a finite power that is
 * defined (a > 0, or a whole exponent). */
bool eval_starts_wide(const ir_node *n);
bool eval_keeps_wide(int op);
bool eval_wide_power(double a, double b);
double eval_lookup_var(eval_state *es, sym name, bool *found);
const tlop_platform *eval_platform(const eval_state *es);
tlop_ctx *eval_ctx(const eval_state *es);
/* Causes of extrapolation seen so far (TAB_* flags), for the warning the command prints. */
unsigned eval_extrapolations(const eval_state *es);
/* The first look-up that needed extrapolation `bit`, as text: "L[shm](1 MiB, 64)". */
void eval_extrapolation_example(const eval_state *es, int bit, char *buf, size_t n);
bool eval_extrapolation_is_gamma(const eval_state *es, int bit);
/* Whether that look-up was in a table whose one row is at m = 0 (v(0) serves every m). */
bool eval_extrapolation_from_zero_row(const eval_state *es, int bit);
/* The transfers a schedule places at each step (taus[t], t = 1 … nsteps − 1). */
bool eval_schedule_taus(eval_state *es, const ir_node *n, const double **taus, size_t *nsteps);
/* The messages of a messages stage, with their nodes. */
bool eval_messages(eval_state *es, const ir_node *n, msg **msgs, size_t *count);

/* The flows of a flows stage, each interval of its progression as the paper writes the
 * pattern ("0 → 1 → 2 [0, 3] & 2 → 3 [0]"), for explain; *text is malloc'd. */
bool eval_flows_trace(eval_state *es, const ir_node *n, char **text);

/* ======== flows.c: Martinasso & Méhaut's flows between nodes (CATALOG.md §5.2–5.3) ======== */

/* The entries of a flows stage's cut data (Table 2), as its `under` clause numbers them. */
enum {
  FLOW_CUT_PAIRED,      /* an outgo/income chain of an even number of flows: every flow */
  FLOW_CUT_CHAIN_END,   /* one of an odd number of flows (≥ 3): positions 0, 2, 4, … */
  FLOW_CUT_CHAIN_INNER, /* … positions 1, 3, … */
  FLOW_CUT_ENTERING,    /* a same-direction conflict →X→ or ←X←: the flow entering X */
  FLOW_CUT_LEAVING,     /* … the flow leaving X */
  FLOW_NCUTS
};

/* A flow: nodes, size, time alone (T(f|NC)), start; the progression fills cut and done. */
typedef struct net_flow {
  double src, dst, size, alone, start;
  double cut;   /* α in the last pattern decomposed */
  int group;    /* the elementary conflict it belongs to in that pattern */
  int order;    /* its place in the path of that conflict */
  double done;  /* completion time */
} net_flow;

/* R1–R3 on the flows active[0 … n-1]: sets their cut and group. NULL, or a malloc'd
 * message (a node with more than two flows at once). */
char *flows_decompose(net_flow *f, const size_t *active, size_t n, const double cuts[FLOW_NCUTS]);
/* The pattern of the flows active[0 … n-1] as the paper writes it, each elementary
 * conflict with its cuts, after flows_decompose. */
void flows_describe(strbuf *out, const net_flow *f, const size_t *active, size_t n);
/* §5.3's progression: every flow's completion (done). With trace, each interval's start
 * and pattern is appended to it. NULL, or a malloc'd message. */
char *flows_progress(net_flow *f, size_t n, const double cuts[FLOW_NCUTS], strbuf *trace);

/* Prices L(m, τ) on one channel; false when it cannot (a diagnostic was given, or the
 * point is left to the interpreter). */
typedef struct msg_pricer {
  bool (*L)(void *self, double m, double tau, double *cost);
  void *self;
} msg_pricer;
/* The cost of the messages of one stage (only size, count, node and net are read; ms is
 * sorted), par[net] the ∥ around it for each channel, pr[net] its look-ups: what both the
 * interpreter and the JIT's tlop_rt_messages compute. */
bool msgs_cost(msg *ms, size_t n, const double par[2], const msg_pricer pr[2], double *out);
/* A JIT'd L(m, τ) on one channel: the point x with m and τ appended. */
typedef double (*tlop_rt_price)(const double *x, const void *tables, uint8_t *xflags);
/* What the code of a messages stage calls, the JIT's and emitted objects' (hence exported
 * by libtlop): msgs_cost with the price functions of shm and net (NULL: no such channel),
 * NaN where the interpreter must look; the look-ups' TAB_* flags are or'ed into *xflags. */
TLOP_API double tlop_rt_messages(msg *ms, int64_t n, double par_shm, double par_net,
                                 tlop_rt_price shm, tlop_rt_price net, const double *x,
                                 int64_t nx, const void *tables, uint8_t *xflags);

/* ======== poly.c: the normal form of scalar expressions ======== */

/* A polynomial over canonical factors: Σ c · Π base^e · Π b^E, where base is a canonical
 * IR node (a variable, or an opaque function such as ⌈log₂P⌉), e an integer (negative
 * for denominators), and b^E an exponential with a numeric base and a polynomial
 * exponent. Polys are immutable values in the session's scratch arena. */
typedef struct poly poly;
typedef struct simp simp;

poly *poly_num(simp *s, double c);
poly *poly_factor(simp *s, ir_node *base);
poly *poly_add(simp *s, const poly *a, const poly *b);
poly *poly_sub(simp *s, const poly *a, const poly *b);
poly *poly_mul(simp *s, const poly *a, const poly *b);
poly *poly_div(simp *s, const poly *a, const poly *b);
poly *poly_pow(simp *s, const poly *base, const poly *expo);
/* b^e (b > 0, ≠ 1) as an exponential, for a power out of the range of doubles (2^−2097152),
 * which the evaluator computes in the wide range. */
poly *poly_power_of(simp *s, double b, double e);
/* b^e of numbers: the number, or poly_power_of where it leaves the range of doubles
 * (b > 0, b ≠ 1): 2^2097152 cancels 2^−2097152, and 2^−2929 is not 0. */
poly *poly_number_pow(simp *s, double b, double e);
bool poly_is_num(const poly *p, double *v);
bool poly_is_zero(const poly *p);
bool poly_leading_negative(const poly *p);
poly *poly_negate(simp *s, const poly *p);
bool poly_uses(const poly *p, sym var);
/* Integer-valued for every value of its variables that `is_int` accepts. */
bool poly_is_integer(const poly *p, bool (*is_int)(simp *s, const ir_node *base), simp *s);
/* One monomial c·Π f^e·Π b^E with c ≥ least and every factor accepted by `factor_ok`;
 * with `at_least_one`, also every b^E ≥ 1. */
bool poly_monomial_over(simp *s, const poly *p, double least, bool at_least_one,
                        bool (*factor_ok)(simp *s, const ir_node *base, int e));
/* As IR: with `factored`, the common monomial is taken out: 2·k·(P − 1)/P. */
ir_node *poly_to_ir(simp *s, const poly *p, bool factored);
/* Σ_{var=lo}^{hi} p in closed form for the parts that have one (constants, var, var²,
 * geometric series); the rest stays as a sum. Requires integer bounds and hi ≥ lo − 1. */
poly *poly_sum(simp *s, sym var, const poly *lo, const poly *hi, const poly *body);
/* Substitutes var := value in p. */
poly *poly_subst(simp *s, const poly *p, sym var, const poly *value);
/* The numbers of monomials, and access for the decision procedures. */
int poly_terms(const poly *p);
/* Linear in var with numeric coefficient: p = a·var + rest; false otherwise. */
bool poly_linear_in(simp *s, const poly *p, sym var, double *a, poly **rest);
/* p = c1·2^E1 + c2·2^E2 with no other factor: the pieces; false otherwise. */
bool poly_two_powers(simp *s, const poly *p, double *c1, poly **e1, double *c2, poly **e2);
/* The variables p uses, at most max of them. */
int poly_vars(const poly *p, sym *out, int max);
/* log_base(p) when p = c·base^E (c > 0, nothing else): log_base(c) + E. */
bool poly_log(simp *s, const poly *p, double base, poly **out);
/* For a one-monomial p: p = indep · dep, dep holding what uses var. */
bool poly_split(simp *s, const poly *p, sym var, poly **indep, poly **dep);
/* The common shift c of the exponents a·var + a·c in p (see poly.c). */
bool poly_shift_of(simp *s, const poly *p, sym var, double *off, bool *seen);
/* Rewrites 2^(c·p + R) as base^c · 2^R for an assumption base = 2^p. */
poly *poly_unpow2(simp *s, const poly *p, sym expo, ir_node *base);

/* ======== simplify.c: ∥ laws, normal forms, sums, assumptions ======== */

/* The session's services the polynomial layer calls back. */
arena *simp_arena(simp *s);
tlop_ctx *simp_ctx(simp *s);
/* A let whose value's normal form has at least this many terms, and which the normal form
 * uses more than once, stays a let (simplify.c; printing shows such lets). */
#define LET_MIN_TERMS 4

/* The normal form of n under facts (lowered `assume`s) and the options. Of the lets of n
 * (lowering's), those whose normal form is a sum of LET_MIN_TERMS terms or more and that
 * the normal form uses more than once stay lets: *kept (in the context's arena; the
 * result holds their values inlined). kept may be NULL: every let is inlined. */
ir_node *simp_simplify(tlop_ctx *ctx, const ir_node *n, ir_node *const *facts, size_t nfacts,
                       const tlop_simp_opts *o, const expr_let *lets, size_t nlets,
                       expr_let **kept, size_t *nkept);
/* Whether r, the simplified form of n, holds only finite numbers; if not, reports the
 * constant operation of n that overflows (2^100000), or n itself when folding sums did. */
bool simp_finite(tlop_ctx *ctx, const ir_node *n, const ir_node *r);
/* Polynomials larger than this stay opaque rather than multiply out. */
#define POLY_MAX_TERMS 256
/* After --expand: notes a power of a sum that r, the form of n, still holds. */
void simp_note_unexpanded(tlop_ctx *ctx, const ir_node *n, const ir_node *r);
/* A stage of `explain`: the values of es substituted, sums written out, ∥ par applied:
 * `4 ∥ T(1 MiB)` → `o(1 MiB) + 2·L(1 MiB, 4)`. */
ir_node *simp_instantiate(eval_state *es, const ir_node *n, double par);
/* Normalizes a scalar IR node into a poly. */
poly *simp_poly(simp *s, const ir_node *n);
/* Proves p ≥ 0 (p > 0) under the assumptions and the bounds of the sums in scope. */
bool simp_nonneg(simp *s, const poly *p);
bool simp_positive(simp *s, const poly *p);
/* 1: a ≥ b proved; -1: a < b proved; 0: unknown. */
int simp_compare(simp *s, const poly *a, const poly *b);
/* p as canonical IR, with the powers of two of the assumptions named again. */
ir_node *simp_canon(simp *s, const poly *p);

/* A session for the decision procedures (prove.c): the facts are assumed once, then
 * normal forms, signs and sums are asked of it. */
typedef struct simp_term {
  ir_node *atom; /* NULL: the scalar part */
  poly *c;
} simp_term;
simp *simp_open(tlop_ctx *ctx, ir_node *const *facts, size_t nfacts, const tlop_simp_opts *o);
void simp_close(simp *s);
/* The normal form of a cost as a linear combination of atoms (transfers, sums, …). */
int simp_terms(simp *s, const ir_node *n, const simp_term **out);
ir_node *simp_terms_ir(simp *s, const simp_term *t, int n);
/* A sum's index in scope, with its bounds, while its body is worked on. */
void simp_push_index(simp *s, sym idx, poly *lo, poly *hi);
void simp_pop_index(simp *s);

bool simp_is_integer(simp *s, const poly *p);

/* ======== refute.c: counterexamples and numeric evidence for claims ======== */

typedef struct refutation {
  char *where;        /* the parameter values: "P = 2, p = 1, m = 1" */
  const char *family; /* the L: "L(m, τ) = 1" */
  const char *free_channel; /* a channel whose L is 0 instead, or NULL */
  bool overhead;      /* o(m) = 1 (else 0) */
  bool transfers;     /* the claim has costs (L, o, γ, p) at all */
  double lhs, rhs;
} refutation;

typedef struct evidence {
  size_t points;
  double min, max;    /* of lhs / rhs */
  char *min_at, *max_at;
} evidence;

/* Searches small parameter values (where the facts hold) and the extremal L the axioms
 * allow (strictly increasing ones only with `strict`) for a point where lhs op rhs fails. */
bool refute_search(tlop_model *model, ir_node *const *facts, size_t nfacts, const ir_node *lhs,
                   ir_op op, const ir_node *rhs, bool strict, double deadline, refutation *out);
/* lhs / rhs over the grid of o->axes on o->platform. */
bool refute_evidence(tlop_model *model, ir_node *const *facts, size_t nfacts, const ir_node *lhs,
                     const ir_node *rhs, const tlop_prove_opts *o, double deadline, evidence *out);

/* ======== latex.c: reading back the printer's LaTeX ======== */

/* The papers' notation for a LaTeX text that print.c wrote; NULL and *error otherwise. */
char *latex_read(const char *tex, const char **error);

/* ======== print.c: IR → text ======== */

char *prt_expr(tlop_ctx *ctx, const ir_node *n, tlop_format f);
void prt_expr_to(strbuf *b, const ir_node *n, tlop_format f);
/* The expression with its lets shown (let x = v in …); .tlop with the units restored.
 * NULL when it does not fit --max-print (said so). */
char *prt_expr_lets(tlop_ctx *ctx, const tlop_expr *e, tlop_format f);
/* Whether n prints within --max-print nodes as a tree; if not, says so. */
bool prt_fits(tlop_ctx *ctx, const ir_node *n);
char *prt_dump(tlop_ctx *ctx, const ir_node *n);

/* ======== units.c: the units a simplified expression's numbers lost, for printing ======== */
ir_node *units_restore(const tlop_expr *e);
/* The kind of a node of e, as the checker would read it. */
kind units_kind(const tlop_expr *e, const ir_node *n);

/* ======== platform.c: channels behind L, o, γ, p ======== */

struct pf_channel {
  sym name;
  tab_table *table;       /* table-backed, or NULL */
  const char *table_path;
  ir_node *L, *o, *p;     /* analytic bodies, over the variables below */
  sym L_m, L_tau, o_m, p_m;
};

struct tlop_platform {
  tlop_ctx *ctx;
  tlop_model *model;
  sym name;
  pf_channel *ch;
  size_t nch, ch_cap;
  tab_table *gamma;
  ir_node *gamma_expr;
  sym gamma_m, gamma_tau;
};

const pf_channel *pf_channel_find(const tlop_platform *pf, sym name); /* NULL name: default */
/* The channel of that name, added when the platform has none. */
pf_channel *pf_add_channel(tlop_platform *pf, sym name);
/* Reports channels the expression uses that the platform lacks; false if any. */
bool pf_check_expr(const tlop_platform *pf, const ir_node *n);
/* NULL when the platform can price γ of operator op; else what is wrong, to free: its
 * gamma table has no such column (naming those it has). */
char *pf_gamma_lacks(const tlop_platform *pf, sym op);

/* ======== measure.c: the measured table ======== */

/* r->L_seg from the cells of r (Fig. 18b): for each τ, the mean of tlop_measure_seg_row's
 * estimates over the rows m = k·S (derived cells do not count); NaN without such a row.
 * tlop_measure calls it once every cell is measured. */
struct tlop_measure_result;
void measure_seg_estimates(struct tlop_measure_result *r);

/* ======== api.c: the context ======== */

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
  double max_table_cols; /* most value columns (τ, operators) of a parameter table */
  bool strict;           /* warnings are errors */
  bool warn_once;        /* extrapolations reported once over several calls: */
  unsigned warned;       /* the kinds met since (tlop_ctx_set_warn_once), */
  char *held[3];         /* their messages, given in one call's order when it ends */
  struct model_list *models; /* every model loaded, freed with the context */
  tlop_model *empty;         /* the scope of constant values (--set, grids) */
  unsigned sources;          /* sources loaded from text, for their unique keys */
};

struct tlop_expr {
  ir_node *node;
  tlop_model *model;
  kind k;
  const sym *free; /* the kinds its free variables were given (env, parameters) */
  const kind *free_kinds;
  size_t nfree;
  const expr_let *lets; /* printed as lets: their values are nodes of `node` */
  size_t nlets;
};

struct tlop_env {
  tlop_ctx *ctx;
  sym *names;
  double *values;
  kind *kinds;
  size_t n, cap;
  /* operators given by name (--set op=max): kept apart, as they are not numbers */
  sym *op_names, *ops;
  size_t nops, ops_cap;
};

/* The operator env gives for name, or NULL. */
sym env_op(const tlop_env *env, sym name);

sym ctx_sym(tlop_ctx *ctx, const char *s);
/* The context frees the model's maps when it is freed. */
void ctx_track_model(tlop_ctx *ctx, tlop_model *model);
/* The model's `assume` facts and those of an --assume text, lowered (appended to
 * *facts); false (after diagnostics) when the text is wrong. */
bool model_facts(tlop_model *model, const char *assume, ir_node ***facts, size_t *n,
                 size_t *cap);
/* Binds env values of a model into a kinds map, for checking expressions. */
void env_kinds(const tlop_env *env, ptrmap *out);
/* Warns once per kind of extrapolation es saw, with its first example (also the JIT's). */
void warn_extrapolations(tlop_ctx *ctx, eval_state *es);

#endif
