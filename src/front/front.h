/* front.h — the front end: the syntax tree the grammar builds (grammar/), files and
 * imports (load.c), and the checker (check.c). Depends on base. */
#ifndef TLOP_FRONT_H
#define TLOP_FRONT_H

#include "base/base.h"

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
  E_SUM,    /* sum i = lo .. hi : body; `stages i = …` sets is_stage, `max i = …` is_max */
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

/* A node is 4 bytes before its kind's member of the union (a 50 MB model holds 11
 * million): its kind, the operator of a unary or binary node, how it keeps its spot and
 * its depth packed in one word (the parser bounds the depth far below 2^21: --max-depth,
 * its own stack). Where it lies is a spot in the context's offset space, not a span with a
 * source of its own (ast_spot): stored in the 8 bytes before the node; for a name or a
 * number, its start in the 4 bytes before it and its length in `depth` (a leaf's depth is
 * 1: ast_depth); for a binary node that spans exactly its operands, derived from theirs.
 * The union's pointers and doubles follow at 4-byte alignment, which x86-64 and AArch64
 * read at full speed: a name node takes 16 bytes, not 24, a number 20, not 32, an
 * operator 20 or 28, not 32. */
typedef struct ast_expr ast_expr;
struct __attribute__((packed, aligned(4))) ast_expr {
  uint32_t kind : 5;  /* an ast_ekind */
  uint32_t op : 4;    /* E_UNARY, E_BINARY: an ast_op */
  uint32_t derived : 1; /* E_BINARY: no spot of its own, it spans l's start to r's end */
  uint32_t short_spot : 1; /* E_NAME, E_NUM: its start before it, its length in depth */
  uint32_t depth : 21;
  union {
    struct __attribute__((packed)) { double v; kind k; } num; /* 12 bytes, not 16 */
    struct { sym name; } name;
    /* the name is the call's first token (f, L, log₂, ⌈, gamma): it ends at name_hi;
     * gamma's operator lies at op_lo..op_hi (ast_call_name_sp, ast_call_op_sp), offsets
     * in the call's source */
    struct {
      sym name, channel, op;
      ast_expr **args;
      int nargs;
      uint32_t name_hi, op_lo, op_hi;
    } call;
    struct { ast_expr *l, *r; } bin; /* unary: l only */
    struct { ast_expr *count, *body; sym channel; } par;
    struct { ast_expr *c, *t, *f; } cond;
    struct {
      sym name;
      span name_sp;
      ast_expr *value, *body;
      kind value_kind; /* the checker's, KIND_ANY where checks of it disagree */
      bool checked;
    } let;
    struct { sym index; span index_sp; ast_expr *lo, *hi, *body; bool is_stage, is_max; } sum;
    struct { ast_expr **items; sym *labels; int n; } stages;
    struct { ast_expr *count, *body; } repeat;
    struct { sym channel; ast_expr *size, *body; } sched;
    struct { ast_expr *step, *count; } at;
    /* priced: NULL (each message its channel's T) or L (`messages[L]`: its transfer) */
    struct { sym mapping, priced; span mapping_sp, priced_sp; ast_expr **args; int nargs; ast_expr *body; } msgs;
    struct { ast_expr *src, *dst, *size, *start; } send; /* start: NULL unless `at` */
    struct { ast_expr *cuts, *alone, *body; } flows;      /* cuts, alone: NULL if missing */
  } u;
};

typedef enum {
  D_IMPORT, D_PARAM, D_FN, D_ALGORITHM, D_PLATFORM, D_CHANNEL, D_GAMMA, D_ASSUME, D_CLAIM,
  D_AXIOM /* `axiom NAME;`: name, name_sp */
} ast_dkind;

/* 28 bytes at 4-byte alignment, as the nodes: two for each of a 50 MB model's fns. */
typedef struct __attribute__((packed, aligned(4))) ast_arg {
  sym name;
  spot loc;        /* where it lies: span_of */
  kind k;          /* KIND_ANY when not annotated */
  ast_expr *dflt;  /* `op: op = sum`: the value when a call leaves it out, or NULL */
} ast_arg;

typedef struct ast_decl ast_decl;
struct ast_decl {
  uint8_t kind;       /* an ast_dkind: with strict and k, 8 bytes before the spans */
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
      sym *counts;    /* a claim's variables given as an algorithm's count (check.c) */
      int nfacts, ncounts; /* after both pointers: the union takes 24 bytes, not 32 */
    };
    struct { ast_decl **members; int nmembers; }; /* platform: channels and gamma;
                                                     channel: its L, o, p */
  };
  /* A fn or an algorithm ends after nargs (ast_decl_new): a file of 676 000 small fns. */
  const char *path;   /* import path; channel/gamma table path */
  span path_sp;
};

/* Expressions or formals as the parser collects them, backwards (cheap left recursion);
 * the cells go back to the parser's spares once the list is an array (ast_exprs_array,
 * ast_args_array), so that the items need no link of their own. */
typedef struct ast_list {
  void *item;
  struct ast_list *next;
} ast_list;

/* Parser state handed to the flex scanner and the bison parser (parse-params). */
typedef struct parse_state {
  tlop_ctx *ctx;
  arena *ar;
  const source *src;
  int start_token; /* START_FILE or START_EXPR, returned first */
  ast_decl *decls; /* result of a file */
  ast_expr *expr;  /* result of an expression */
  ast_list *facts; /* result of facts */
  ast_list *spare_cells; /* of lists made arrays, for the next lists */
  int errors;
  uint32_t offset; /* byte offset of the scanner in src */
  size_t fed;      /* bytes of src handed to the scanner (lexer.l, YY_INPUT) */
  uint32_t comment_at; /* where the block comment being skipped began */
  bool too_deep;   /* the nesting limit was reported */
  bool stopped;    /* --max-errors or the nesting limit reached: the scanner reads no further */
  bool end_statement; /* an unterminated string ended its line: give ';' next */
} parse_state;


ast_expr *ast_expr_new(parse_state *ps, ast_ekind k, span sp);
ast_expr *ast_num(parse_state *ps, double v, kind k, span sp);
ast_expr *ast_name(parse_state *ps, sym name, span sp);
/* name_sp: the call's first token, where sp begins. */
ast_expr *ast_call(parse_state *ps, sym name, sym channel, ast_list *args, span name_sp, span sp);
/* Where e lies: the one way to read a node's spot, and the span of it in its source. */
spot ast_spot(const ast_expr *e);
/* The depth of e's tree (a leaf's is 1), 0 for NULL: the one way to read it. */
uint32_t ast_depth(const ast_expr *e);
span ast_span(const tlop_ctx *ctx, const ast_expr *e);
span ast_call_name_sp(const tlop_ctx *ctx, const ast_expr *call);
span ast_call_op_sp(const tlop_ctx *ctx, const ast_expr *call);
ast_expr *ast_binary(parse_state *ps, ast_op op, ast_expr *l, ast_expr *r, span sp);
ast_expr *ast_unary(parse_state *ps, ast_op op, ast_expr *e, span sp);
ast_expr *ast_stages(parse_state *ps, ast_list *items, span sp);
ast_expr *ast_finish(parse_state *ps, ast_expr *e);
/* A schedule's statements in order, as one expression: placements added up, a `let`
 * scoping over the statements after it. */
ast_expr *ast_block(parse_state *ps, ast_list *statements, span sp);
ast_expr *ast_at(parse_state *ps, ast_expr *step, ast_expr *count, span sp);
ast_expr *ast_send(parse_state *ps, ast_expr *src, ast_expr *dst, ast_expr *size, ast_expr *start,
                   span sp);
ast_decl *ast_decl_new(parse_state *ps, ast_dkind k, span sp);
/* item in front of the list rest (built backwards). */
ast_list *ast_cons(parse_state *ps, void *item, ast_list *rest);
ast_arg **ast_args_array(parse_state *ps, ast_list *list, int *n);
ast_decl **ast_decls_array(parse_state *ps, ast_decl *list, int *n);
ast_expr **ast_exprs_array(parse_state *ps, ast_list *list, int *n);
span span_join(span a, span b);

/* parse.c glue (grammar/parser.y): returns the number of syntax errors. */
int parse_file(tlop_ctx *ctx, arena *ar, const source *src, ast_decl **out);
int parse_expr(tlop_ctx *ctx, arena *ar, const source *src, ast_expr **out);
/* A comma-separated list of facts, where `=` means equality: "P = 2^p, p >= 1". */
int parse_facts(tlop_ctx *ctx, arena *ar, const source *src, ast_expr ***out, int *n);

/* ======== tokens.c: the scanner's tokens, for layout (formatting, editors) ======== */

typedef enum {
  TOK_NAME, TOK_KEYWORD, TOK_NUMBER, TOK_UNIT, TOK_STRING, TOK_OPEN, TOK_CLOSE,
  TOK_PUNCT, /* , ; : */
  TOK_OPERATOR
} token_class;

typedef struct src_token {
  uint32_t lo, hi; /* bytes of the source; a unit's starts at its first letter */
  int code;        /* the parser's token: equal codes, the same token */
  token_class cls;
} src_token;

/* Every token of src in order, into the arena; comments and blanks lie between them. The
 * scanner's errors go to ctx (a caller parses first and lays out only what parses). */
size_t front_tokens(tlop_ctx *ctx, arena *ar, const source *src, src_token **out);

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
  ptrmap lowered;      /* sym → param_info: a parameter as later stages see it (lower_param) */
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
/* chk_expr of a command-line text: a free name given as a bare number (K_NUM in
 * free_kinds, whose kinds it may change) takes the kind its uses need, the fewest names
 * changed from the number's own; errors (of the names as given) when no kinds fit. With
 * `settable`, an undefined name's message says how to give it a value. */
int chk_expr_free(tlop_model *model, ast_expr *e, ptrmap *free_kinds, bool settable, kind *out);
/* The names a symbolic expression (checked with `implicit`) uses that the model does not
 * define, in *names, and in *kinds the kinds their uses need, count where nothing else is
 * needed (K_ANY for all when no kinds fit); *out the kind of e under them, if they fit. */
size_t chk_expr_symbols(tlop_model *model, ast_expr *e, sym **names, kind **kinds, kind *out);
/* Checks an assumption: a comparison whose unknown names are new variables (P = 2^p). */
int chk_fact(tlop_model *model, ast_expr *e);
bool chk_is_builtin(sym name);
kind chk_param_kind(tlop_model *model, ast_decl *param);
/* fn: one of model->funcs, as every function the checker checks. */
kind chk_fn_result(tlop_model *model, ast_decl *fn);
void chk_free(chk_state *c);

/* ======== axiom.c: the prover's axioms, by name ======== */

/* The papers state the default ones; the others a user switches on (`axiom NAME;` in a
 * file, --axiom NAME). The prover may use only the active ones and cites each by name. */
typedef enum {
  AX_L_NONNEG, AX_L_MONO_M, AX_L_MONO_TAU, AX_L_SUBLINEAR, AX_O_NONNEG, AX_GAMMA_NONNEG,
  AX_P_NONNEG, /* the defaults */
  AX_O_MONO, AX_P_MONO, AX_GAMMA_MONO, AX_GAMMA_SUBLINEAR, AX_L_SUBADDITIVE, AX_L_STRICT,
  AX_COUNT
} axiom_id;

typedef struct axiom_info {
  const char *name, *text;
  bool dflt;
} axiom_info;

extern const axiom_info AXIOMS_KNOWN[AX_COUNT];
#define AX_BIT(a) (1u << (a))
#define AX_DEFAULTS (AX_BIT(AX_O_MONO) - 1u)
/* The axiom of that name, or -1. */
int axiom_find(const char *name);
/* "o-monotone, p-monotone, …": every name, for messages. */
const char *axiom_names(void);

#endif
