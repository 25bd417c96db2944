/* ir.h — the hash-consed cost DAG (ir.c) and the lowering of checked syntax into it
 * (lower.c). Depends on front. */
#ifndef TLOP_IR_H
#define TLOP_IR_H

#include "front/front.h"

#include <math.h>

/* ======== ir.c: the hash-consed cost DAG ======== */

/* The node kinds: name, printed operator, arity (-1: special). ORDER IR_OPS */
#define IR_OPS(X)                                                              \
  X(NUM, "num", 0)      /* num; name = its unit "B", "s", "B/s", "bool" or NULL */ \
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
  X(TX, "T", 2)         /* name = channel; kids m, tau: one message's whole cost */ \
  X(STAGE, "stage", 1)  /* name = label or NULL; transparent for evaluation */ \
  X(REPEAT, "repeat", 2) /* kids count, body: count × body, one stage repeated */ \
  X(SCHED, "schedule", 2) /* name = channel or NULL; kids size, placements */    \
  X(AT, "at", 2)        /* kids step, count: transfers placed in a schedule */   \
  X(MSGS, "messages", 2) /* name = rank variable; num 1: priced by L; kids node(rank), sends */ \
  X(SEND, "send", 3)    /* kids src, dst, size: a message of a messages stage */   \
  X(FLOWS, "flows", 3)  /* name = Q; kids alone(Q), sum over entry of cut(entry), flows */ \
  X(FLOW, "flow", 2)    /* kids send(src, dst, size), start: a flow of a flows stage */ \
  X(MAXOVER, "max_over", 3) /* name = index; kids lo, hi, body: the sum's binding, the maximum */

typedef enum {
#define X(n, s, a) IR_##n,
  IR_OPS(X)
#undef X
  IR_NOPS
} ir_op;

/* The entries of a flows stage's cut data (Table 2), as its `under` clause numbers them. */
enum {
  FLOW_CUT_PAIRED,      /* an outgo/income chain of an even number of flows: every flow */
  FLOW_CUT_CHAIN_END,   /* one of an odd number of flows (≥ 3): positions 0, 2, 4, … */
  FLOW_CUT_CHAIN_INNER, /* … positions 1, 3, … */
  FLOW_CUT_ENTERING,    /* a same-direction conflict →X→ or ←X←: the flow entering X */
  FLOW_CUT_LEAVING,     /* … the flow leaving X */
  FLOW_NCUTS
};

typedef struct ir_node ir_node;
/* IR_COMPOUND: a product, quotient or power, or a sum or negation of one (where the
 * evaluator's wide range starts: ir_starts_wide); IR_WIDE_TERM: a node that starts the
 * wide range, or a sum or negation of one */
enum { IR_HAS_COST = 1, IR_HAS_STAGE = 2, IR_HAS_AT = 4, IR_HAS_SUM = 8, IR_COMPOUND = 16,
       IR_WIDE_TERM = 32, IR_CALLED = 64 /* the node alone: a call's (ir_called) */ };

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
/* A sum or a maximum over a range: binds its index (name) in its body (kid 2). */
static inline bool ir_is_range(int op) { return op == IR_SUM || op == IR_MAXOVER; }
bool ir_mentions(const ir_node *n, sym var); /* uses or binds; may answer true for a bloom collision */
/* How often v occurs in n written out as a tree, x^k counting x k times, capped at 10^6
 * (memo: node → count + 1, for one v). */
size_t ir_tree_count(const ir_node *n, const ir_node *v, ptrmap *memo);
bool ir_uses(const ir_node *n, sym var);     /* exactly: var occurs free in n */
/* Whether every free variable of `value` occurs free in `body`. */
bool ir_uses_all(const ir_node *body, const ir_node *value);
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
/* An algorithm's call whose count arguments both engines check whole where they enter its
 * inlined body: a fraction there is an error at the argument that names the algorithm and
 * its parameter, not one from deep inside the body. Recorded only when the body uses every
 * variable of the arguments, so that they have values wherever the body is evaluated. */
typedef struct ir_count_arg {
  sym param;
  span decl;      /* the parameter's declaration */
  span at;        /* the argument (the call, for one left out) */
  ir_node *value;
} ir_count_arg;
typedef struct ir_call {
  sym callee;
  ir_count_arg *args;
  size_t nargs;
  const struct ir_call *next; /* the calls of an inner call's node the body is: checked after */
} ir_call;
/* The node of the call: a copy of its inlined body that carries it (IR_CALLED), the same
 * for an equal call lowered again. Its own node, not hash-consed: the same expression
 * written out, or inlined by a call of whole counts, is another node, not checked for it. */
ir_node *ir_called(tlop_ctx *ctx, ir_node *body, const ir_call *call);
/* The calls the node of a call checks, outermost first; NULL for any other node. */
const ir_call *ir_calls(const tlop_ctx *ctx, const ir_node *n);
/* A call lowering inlined, as an engine may evaluate it instead: its body lowered once
 * with its numbers free (lower_call_body) at the values passed. For each parameter of the
 * callee, values[i] is the number passed, or named[i] the operator or mapping (the other
 * NULL). Kept for calls with a large body, not with a nodes(…) list. Where the node is
 * evaluated, an argument has a value when its variables occur in the node (ir_uses_all). */
typedef struct ir_inlined {
  ast_decl *callee;
  ir_node **values;
  sym *named;
  int nargs;
} ir_inlined;
/* Records that n is the node of the call; the first record of a node stays (another
 * call with an equal node has an equal value). */
void ir_inlined_put(tlop_ctx *ctx, const ir_node *n, const ir_inlined *call);
/* The call whose node n is, or NULL. */
const ir_inlined *ir_inlined_call(const tlop_ctx *ctx, const ir_node *n);
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

/* The wide range of values m·2^e: a node starts it (a product or quotient, not x/x, with
 * an operand that is IR_COMPOUND, or a sum of such: IR_WIDE_TERM), where its value in doubles overflows; inside it, an
 * operator of `op` keeps its operands in it (sums, products, quotients, negations), and
 * a^b is the number it is when ir_wide_power: a finite a ≠ 0 to a finite power that is
 * defined (a > 0, or a whole exponent). */
/* Inline: the evaluator asks them at every node it visits. */
static inline bool ir_starts_wide(const ir_node *n) {
  /* a sum of such products too: multiplied out, (2^i − 12)·(|k| − k) is terms k·2^i that
   * cancel (overflow-expanded-1); not every sum with a product, which would take the wide
   * range's slower path (the interpreter at 1.7–2.8× its time) */
  if (n->op == IR_ADD || n->op == IR_SUB)
    return (n->flags & IR_WIDE_TERM) != 0;
  return (n->op == IR_MUL || (n->op == IR_DIV && n->kid[1] != n->kid[0])) &&
         ((n->kid[0]->flags | n->kid[1]->flags) & IR_COMPOUND);
}
/* A refusal's gate, repeat log₂(if cond then 2 else 0) { x } (require, a nodes(…) list
 * checked against M): x where cond holds, else the error its log₂'s name says. */
static inline bool ir_is_gate(const ir_node *n) {
  return n->op == IR_REPEAT && n->kid[0]->op == IR_LOG2 && n->kid[0]->name;
}
static inline bool ir_keeps_wide(int op) {
  return op == IR_NEG || op == IR_DIV || op == IR_MUL || op == IR_ADD || op == IR_SUB;
}
static inline bool ir_wide_power(double a, double b) {
  return isfinite(a) && a != 0 && isfinite(b) && (a > 0 || b == floor(b));
}

/* ======== lower.c: checked AST → IR ======== */

/* A let as a name for a node of an expression, which holds the node inlined (shared):
 * the lets written in it, whose value uses no index (lowering), or those simplify keeps.
 * Only printing uses them; everything else sees the inlined DAG. */
typedef struct expr_let {
  sym name;
  ir_node *value;
  kind k; /* the value's kind as the checker read the source (KIND_ANY: unknown) */
} expr_let;

/* A let whose value's normal form has at least this many terms, and which the normal form
 * uses more than once, stays a let (simplify.c keeps them; print.c shows such lets). */
#define LET_MIN_TERMS 4

/* Lowers an expression: functions are inlined, lets shared, sum indices renamed apart.
 * Reduction operators are names, not numbers: each is resolved here, so the IR's γ
 * always carries a literal operator; env (may be NULL) gives free operator names. */
ir_node *lower_expr(tlop_model *model, ast_expr *e, const tlop_env *env);
/* lower_expr, and the lets of e whose value is not a leaf and uses no index (in the
 * context's arena; *lets NULL when none). */
ir_node *lower_expr_lets(tlop_model *model, ast_expr *e, const tlop_env *env, expr_let **lets,
                         size_t *nlets);
/* Lowers an algorithm or function body with its parameters as free variables, except
 * its operators and mappings (env's value for one, else its default) and its numbers
 * with a default that env does not give, which take the default — unless defaults_free
 * (compiled functions take every number). */
ir_node *lower_function(tlop_model *model, ast_decl *fn, const tlop_env *env);
ir_node *lower_function_lets(tlop_model *model, ast_decl *fn, const tlop_env *env,
                             bool defaults_free, expr_let **lets, size_t *nlets);


/* A lowered expression: what the front end hands to every later stage. */
struct tlop_expr {
  ir_node *node;
  tlop_model *model;
  kind k;
  const sym *free; /* the kinds its free variables were given (env, parameters) */
  const kind *free_kinds;
  const span *free_decl; /* where each was declared: an algorithm's parameters; NULL for a
                          * text, whose free names come from env */
  size_t nfree;
  const expr_let *lets; /* printed as lets: their values are nodes of `node` */
  size_t nlets;
};

/* The body of a call ir_inlined recorded, its numbers free (variables of their names),
 * its operators and mappings bound as the call binds them; NULL when it fails to lower. */
ir_node *lower_call_body(tlop_model *model, const ir_inlined *call);

/* A model parameter as every stage after lowering sees it: the kind the checker gave it
 * and its default, lowered (NULL when it has none, or when it `failed` to lower, which
 * lowering said why). */
typedef struct param_info {
  kind k;
  ir_node *dflt;
  bool failed;
} param_info;
/* The parameter `name` of the model, lowered once and kept in the model; NULL when the
 * model has no such parameter. */
const param_info *lower_param(tlop_model *model, sym name);

/* ======== expr.c: the hand-over, text or algorithm → tlop_expr ======== */

/* Parses and checks a lone expression in a model's scope (`what` names it in messages),
 * and lowers it; with `implicit`, names the model does not define are free variables.
 * env's names given as bare numbers take the kinds their uses need (chk_expr_free), and
 * so do the free variables of `implicit` (for printing, chk_expr_symbols); `named`, when
 * not NULL, is given them (free, free_kinds, nfree). NULL with *st the failure. */
ir_node *expr_parse_checked(tlop_model *model, const char *what, const char *text,
                            const tlop_env *env, bool implicit, kind *k, tlop_status *st,
                            expr_let **lets, size_t *nlets, tlop_expr *named);
tlop_status expr_of_text(tlop_model *model, const char *text, const tlop_env *env, bool implicit,
                         tlop_expr **out);
/* An algorithm's body with its parameters free (operators and mappings bound from env or
 * defaults, numbers with a default that env does not give bound to it unless
 * defaults_free); TLOP_ERR_ARG when the model has no such algorithm. */
tlop_status expr_of_algorithm(tlop_model *model, const char *name, const tlop_env *env,
                              bool defaults_free, tlop_expr **out);
/* A count is a whole number, 0 or more: false, after an error saying where v came from
 * ("the value given for"), when v is not one. */
bool count_fits(tlop_ctx *ctx, const char *given, double v, const char *name, const char *owner,
                span decl);
/* Warns of a value given for `name` that fits its kind but is suspect: a count from 2^53
 * on (not exact in doubles), a size below one byte. */
void given_value_warnings(tlop_ctx *ctx, double v, const char *name, kind want);
/* The model's `assume` facts and those of an --assume text, lowered (appended to
 * *facts); false (after diagnostics) when the text is wrong. */
bool model_facts(tlop_model *model, const char *assume, ir_node ***facts, size_t *n,
                 size_t *cap);

#endif
