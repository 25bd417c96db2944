/* eval.h — the reference evaluator (eval.c), its platforms (platform.c) and tables
 * (table.h), and Martinasso's flows (flows.c). Depends on ir and print. */
#ifndef TLOP_EVAL_H
#define TLOP_EVAL_H

#include "eval/table.h"
#include "ir/ir.h"
#include "tlop_rt.h"

/* ======== eval.c: the reference evaluator ======== */

typedef struct pf_channel pf_channel;
typedef struct eval_state eval_state;
/* The messages runtime's message (tlop_rt.h), by its short name inside the library. */
typedef tlop_rt_msg msg;

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
/* The same for evaluating expr (or parts of it), whose free parameters' declarations then
 * locate a "has no value" error. */
void eval_use_expr(eval_state *es, const tlop_env *env, const tlop_expr *expr);
/* An evaluation's failure: what went wrong, with the expression and the values of its
 * variables ("division by zero in m/(P − 2) where P = 2"), and where it was written. */
typedef struct eval_error {
  span at;
  char *what;
  span note_at; /* where a note points ("'P' is a count here"), when `note` is not NULL */
  char *note;
} eval_error;
/* Evaluates n; false when it fails, the failure kept as a value (eval_failure) and
 * reported by nobody until a caller asks (eval_report). */
bool eval_node(eval_state *es, const ir_node *n, double *out);
/* The first failure of the last evaluation; NULL when it did not fail, or when what failed
 * was the lowering of a parameter's default, which lowering reported. */
const eval_error *eval_failure(const eval_state *es);
/* What evaluating n checks first, for a caller that walks n's parts instead (explain): the
 * count arguments of the algorithm calls n is the node of are whole. False when one is not,
 * the failure kept as eval_node's. */
bool eval_counts_whole(eval_state *es, const ir_node *n);
/* Reports the last evaluation's failure as an error; false when there is none to report. */
bool eval_report(eval_state *es);
/* Evaluates n under a ∥ multiplier for all channels (used by explain). */
bool eval_node_scaled(eval_state *es, const ir_node *n, double par, double *out);
double eval_lookup_var(eval_state *es, sym name, bool *found);
const tlop_platform *eval_platform(const eval_state *es);
tlop_ctx *eval_ctx(const eval_state *es);
/* Causes of extrapolation seen so far (TAB_* flags), for the warning the command prints. */
unsigned eval_extrapolations(const eval_state *es);
/* The first look-up that needed extrapolation `bit`, as text: "L[shm](1 MiB, 64)". */
void eval_extrapolation_example(const eval_state *es, int bit, char *buf, size_t n);
bool eval_extrapolation_is_gamma(const eval_state *es, int bit);
/* The variables (by sym, alive while es is used) whose values make a grid's point: a
 * warning then says at which point its first look-up was. */
void eval_use_point_vars(eval_state *es, const sym *vars, size_t n);
/* That point as text ("m = 8, P = 4"); NULL without point variables. */
const char *eval_extrapolation_point(const eval_state *es, int bit);
/* Whether that look-up was in a table whose one row is at m = 0 (v(0) serves every m). */
bool eval_extrapolation_from_zero_row(const eval_state *es, int bit);
/* The transfers a schedule places at each step (taus[t], t = 1 … nsteps − 1). */
bool eval_schedule_taus(eval_state *es, const ir_node *n, const double **taus, size_t *nsteps);
/* The messages of a messages stage, with their nodes. */
bool eval_messages(eval_state *es, const ir_node *n, msg **msgs, size_t *count);
/* qsort's order of messages by resource: within a node first, then by destination node,
 * then by size (msgs_cost prices each resource's run). */
int msg_resource_order(const void *a, const void *b);

/* The flows of a flows stage, each interval of its progression as the paper writes the
 * pattern ("0 → 1 → 2 [0, 3] & 2 → 3 [0]"), for explain; *text is malloc'd. */
bool eval_flows_trace(eval_state *es, const ir_node *n, char **text);

/* Prices one message on one channel (its T, else its L); false when it cannot (a
 * diagnostic was given, or the point is left to the interpreter). */
typedef struct msg_pricer {
  bool (*L)(void *self, double m, double tau, double *cost);
  void *self;
} msg_pricer;
/* The cost of the messages of one stage (only size, count, node and net are read; ms is
 * sorted), par[net] the ∥ around it for each channel, pr[net] its look-ups: what both the
 * interpreter and the JIT's tlop_rt_messages compute. */
bool msgs_cost(msg *ms, size_t n, const double par[2], const msg_pricer pr[2], double *out);

/* The runtime's ring (tlop_rt.h), by its short name inside the library. */
typedef tlop_rt_regular msg_ring;
/* A regular stage as written: `for i = LO .. HI { send i -> DST : SIZE; }` placed by
 * sequential(GROUP) or round_robin(GROUP), DST one of (i + SHIFT) % N (a ring), i + SHIFT
 * (a shift) or `if floor(i / SHIFT) % 2 == 0 then i + SHIFT else i − SHIFT` (a swap;
 * SHIFT + i for i + SHIFT too), SHIFT, N, SIZE and GROUP free of i and of look-ups, sums
 * and stages (their values are the same at every i); modulus is NULL but for a ring. */
typedef struct msg_ring_form {
  const ir_node *loop, *dst, *shift, *modulus, *size, *group;
  bool round_robin;
  int shape; /* TLOP_RT_RING, TLOP_RT_SHIFT or TLOP_RT_SWAP */
} msg_ring_form;
bool msgs_ring_form(const ir_node *stage, msg_ring_form *form);
/* What msgs_cost gives for the stage's messages, counted per node without placing them:
 * *closed is false (and nothing priced) unless the ranks are whole, a ring rotates the
 * whole ranks 0 … N − 1, and the counts are exact. */
bool msgs_ring_cost(const msg_ring *r, const double par[2], const msg_pricer pr[2], double *out,
                    bool *closed);

/* ======== flows.c: Martinasso & Méhaut's flows between nodes (CATALOG.md §5.2–5.3) ======== */

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

/* ======== platform.c: channels behind L, o, γ, p ======== */

struct pf_channel {
  sym name;
  tab_table *table;       /* table-backed, or NULL */
  const char *table_path;
  ir_node *L, *o, *p;     /* analytic bodies, over the variables below */
  sym L_m, L_tau, o_m, p_m;
  ir_node *T;             /* one message's whole cost, over the platform's L, o, p; */
  sym T_m, T_tau;         /* NULL: L(m, τ) of the channel */
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

#endif
