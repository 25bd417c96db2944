/* ast.c — constructors of the syntax tree, called from the grammar's actions. Lists are
 * built backwards while parsing (cheap left recursion) and turned into arrays in source
 * order here. Nesting depth is bounded so that the recursive stages after the parser
 * cannot exhaust the stack on hostile input. */
#include "front/front.h"

#include <stddef.h>
#include <stdlib.h>

_Static_assert(E_FLOWS < 32 && OP_NOT < 16, "a node's kind fits 5 bits, its operator 4");
_Static_assert(IR_MAX_DEPTH < (1 << 21), "a node's depth fits 21 bits, beyond --max-depth");

/* Deepest binary node whose span is derived from its operands': finding its span walks at
 * most this many nodes, so that no stage pays a node's depth for each span it asks for. */
#define DERIVED_MAX_DEPTH 16

/* A short leaf's length lies in its depth field: a leaf's depth is 1. */
uint32_t ast_depth(const ast_expr *e) { return !e ? 0 : e->short_spot ? 1 : e->depth; }

/* The spot stored before a node that has one, and a short leaf's start. */
static spot *own_spot(const ast_expr *e) { return (spot *)((char *)e - sizeof(spot)); }
static uint32_t *short_start(const ast_expr *e) {
  return (uint32_t *)((char *)e - sizeof(uint32_t));
}

/* Where a node that is not derived begins and ends. */
static uint32_t start_of(const ast_expr *e) {
  return e->short_spot ? *short_start(e) : own_spot(e)->lo;
}
static uint32_t end_of(const ast_expr *e) {
  return e->short_spot ? *short_start(e) + e->depth : own_spot(e)->hi;
}

spot ast_spot(const ast_expr *e) {
  const ast_expr *first = e, *last = e;
  while (first->derived)
    first = first->u.bin.l;
  while (last->derived)
    last = last->u.bin.r;
  return (spot){start_of(first), end_of(last)};
}

span ast_span(const tlop_ctx *ctx, const ast_expr *e) { return span_of(ctx, ast_spot(e)); }

static void note_depth(parse_state *ps, ast_expr *e) {
  double max = ps->ctx->max_depth;
  if (ast_depth(e) > max && !ps->too_deep) {
    span at = ast_span(ps->ctx, e);
    ps->too_deep = true;
    ps->stopped = true; /* the scanner reads no further: a 10 MB line would build on */
    ps->errors++;
    /* 1 + 1 + … + 1 nests to the left: say so rather than "nested" */
    bool chain = e->kind == E_BINARY && e->u.bin.r && e->u.bin.l->kind == E_BINARY &&
                 e->u.bin.l->op == e->op && e->u.bin.l->u.bin.r;
    char lim[40];
    fmt_double(lim, sizeof lim, max);
    if (chain)
      diag_error(ps->ctx, at, "expression too long: more than %s operators in a row (each "
                 "one nests; write a sum; --max-depth)", lim);
    else
      diag_error(ps->ctx, at, "expression nested too deeply (more than %s levels, "
                 "--max-depth)", lim);
  }
}

/* How a node keeps its spot, and the bytes that takes before it. */
typedef enum { SPOT_OWN = sizeof(spot), SPOT_SHORT = sizeof(uint32_t), SPOT_DERIVED = 0 } spot_room;

/* A node with room for `size` bytes of its union, after its spot: leaves, operators and
 * calls, most of a file's nodes, take a third to a half of a full node (600 000
 * `param a = 1;` on one line, 676 000 small `fn`s). Only the member of its kind is ever
 * read or written. */
static ast_expr *node_sized(parse_state *ps, ast_ekind k, spot at, spot_room room, size_t size) {
  char *p = arena_alloc_aligned(ps->ar, room + offsetof(ast_expr, u) + size, _Alignof(ast_expr));
  ast_expr *e = (ast_expr *)(p + room);
  e->kind = k;
  e->depth = 1;
  e->derived = room == SPOT_DERIVED;
  e->short_spot = room == SPOT_SHORT;
  if (room == SPOT_OWN)
    *own_spot(e) = at;
  if (room == SPOT_SHORT) {
    *short_start(e) = at.lo;
    e->depth = at.hi - at.lo;
  }
  return e;
}

static ast_expr *expr_sized(parse_state *ps, ast_ekind k, span sp, size_t size) {
  return node_sized(ps, k, spot_of(sp), SPOT_OWN, size);
}

/* A name or a number: its start and length, unless that is too long for the depth field. */
static ast_expr *leaf(parse_state *ps, ast_ekind k, span sp, size_t size) {
  spot at = spot_of(sp);
  bool fits = at.hi - at.lo < (1u << 21);
  return node_sized(ps, k, at, fits ? SPOT_SHORT : SPOT_OWN, size);
}

ast_expr *ast_expr_new(parse_state *ps, ast_ekind k, span sp) {
  return expr_sized(ps, k, sp, sizeof(((ast_expr *)0)->u));
}

ast_expr *ast_num(parse_state *ps, double v, kind k, span sp) {
  ast_expr *e = leaf(ps, E_NUM, sp, sizeof e->u.num);
  e->u.num.v = v;
  e->u.num.k = k;
  return e;
}

ast_expr *ast_name(parse_state *ps, sym name, span sp) {
  ast_expr *e = leaf(ps, E_NAME, sp, sizeof e->u.name);
  e->u.name.name = name;
  return e;
}

ast_expr *ast_call(parse_state *ps, sym name, sym channel, ast_list *args, span name_sp,
                   span sp) {
  ast_expr *e = expr_sized(ps, E_CALL, sp, sizeof e->u.call);
  e->u.call.name = name;
  e->u.call.channel = channel;
  e->u.call.name_hi = name_sp.hi;
  e->u.call.args = ast_exprs_array(ps, args, &e->u.call.nargs);
  for (int i = 0; i < e->u.call.nargs; i++)
    if (e->depth < ast_depth(e->u.call.args[i]) + 1)
      e->depth = ast_depth(e->u.call.args[i]) + 1;
  note_depth(ps, e);
  return e;
}

span ast_call_name_sp(const tlop_ctx *ctx, const ast_expr *call) {
  span sp = ast_span(ctx, call);
  sp.hi = call->u.call.name_hi;
  return sp;
}

span ast_call_op_sp(const tlop_ctx *ctx, const ast_expr *call) {
  span sp = ast_span(ctx, call);
  sp.lo = call->u.call.op_lo;
  sp.hi = call->u.call.op_hi;
  return sp;
}

/* items[0..n) added up as a balanced tree, in their order, on the + nodes of *pool. */
static ast_expr *balanced_sum(ast_expr **items, size_t n, ast_expr ***pool) {
  if (n == 1)
    return items[0];
  ast_expr *e = *(*pool)++;
  e->u.bin.l = balanced_sum(items, n / 2, pool);
  e->u.bin.r = balanced_sum(items + n / 2, n - n / 2, pool);
  uint32_t dl = ast_depth(e->u.bin.l), dr = ast_depth(e->u.bin.r);
  e->depth = (dl > dr ? dl : dr) + 1;
  if (!e->derived) /* a derived one spans its operands already */
    *own_spot(e) = (spot){ast_spot(e->u.bin.l).lo, ast_spot(e->u.bin.r).hi};
  return e;
}

/* A sum deeper than half the nesting limit, rebuilt balanced over its terms in source
 * order, on its own + nodes, for the stages after the parser, which recurse: a generated
 * sum of 10^5 terms stays within the limit. Parts at most `keep` deep are kept whole, as
 * terms: the sum ends at most keep + log2(its terms) deep, and each rebuild walks the
 * terms added since the last and the few nodes above the kept parts, without recursion. */
static ast_expr *rebalanced(ast_expr *sum, uint32_t keep) {
  ast_expr **terms = NULL, **adds = NULL, **todo = NULL;
  size_t nterms = 0, terms_cap = 0, nadds = 0, adds_cap = 0, ntodo = 0, todo_cap = 0;
  VEC_PUSH(todo, ntodo, todo_cap, sum);
  while (ntodo) {
    ast_expr *e = todo[--ntodo];
    if (e->kind == E_BINARY && e->op == OP_ADD && ast_depth(e) > keep) {
      VEC_PUSH(adds, nadds, adds_cap, e);
      VEC_PUSH(todo, ntodo, todo_cap, e->u.bin.r); /* the left first, in source order */
      VEC_PUSH(todo, ntodo, todo_cap, e->u.bin.l);
    } else {
      VEC_PUSH(terms, nterms, terms_cap, e);
    }
  }
  ast_expr **pool = adds;
  ast_expr *r = balanced_sum(terms, nterms, &pool);
  free(terms);
  free(adds);
  free(todo);
  return r;
}

ast_expr *ast_binary(parse_state *ps, ast_op op, ast_expr *l, ast_expr *r, span sp) {
  uint32_t d = ast_depth(l) > ast_depth(r) ? ast_depth(l) : ast_depth(r);
  spot at = spot_of(sp);
  /* most operators span exactly their operands (not when one is parenthesised) */
  bool derived = r && d + 1 <= DERIVED_MAX_DEPTH && at.lo == ast_spot(l).lo &&
                 at.hi == ast_spot(r).hi;
  ast_expr *e = node_sized(ps, E_BINARY, at, derived ? SPOT_DERIVED : SPOT_OWN, sizeof e->u.bin);
  e->op = op;
  e->u.bin.l = l;
  e->u.bin.r = r;
  e->depth = d + 1;
  if (op == OP_ADD && e->depth > ps->ctx->max_depth / 2 && l->kind == E_BINARY &&
      l->op == OP_ADD)
    e = rebalanced(e, (uint32_t)(ps->ctx->max_depth / 8));
  note_depth(ps, e);
  return e;
}

ast_expr *ast_unary(parse_state *ps, ast_op op, ast_expr *x, span sp) {
  ast_expr *e = ast_binary(ps, op, x, NULL, sp);
  e->kind = E_UNARY;
  return e;
}

ast_expr *ast_stages(parse_state *ps, ast_list *items, span sp) {
  ast_expr *e = ast_expr_new(ps, E_STAGES, sp);
  int n = 0;
  ast_expr **arr = ast_exprs_array(ps, items, &n);
  e->u.stages.items = arena_alloc(ps->ar, (size_t)(n ? n : 1) * sizeof *arr);
  e->u.stages.labels = arena_alloc(ps->ar, (size_t)(n ? n : 1) * sizeof(sym));
  for (int i = 0; i < n; i++) {
    ast_expr *it = arr[i];
    /* A labelled item arrives as a one-stage block carrying its label. */
    if (it->kind == E_STAGES && it->u.stages.n == 1 && it->u.stages.labels[0]) {
      e->u.stages.labels[i] = it->u.stages.labels[0];
      it = it->u.stages.items[0];
    }
    e->u.stages.items[i] = it;
    if (e->depth < ast_depth(it) + 1)
      e->depth = ast_depth(it) + 1;
  }
  e->u.stages.n = n;
  note_depth(ps, e);
  return e;
}

ast_decl *ast_decl_new(parse_state *ps, ast_dkind k, span sp) {
  /* a param has none of the lists and paths of the other declarations, a fn or an
   * algorithm only its formals */
  size_t size = k == D_PARAM                     ? offsetof(ast_decl, args)
                : k == D_FN || k == D_ALGORITHM ? offsetof(ast_decl, nargs) + sizeof(int)
                                                : sizeof(ast_decl);
  ast_decl *d = arena_alloc_aligned(ps->ar, size, _Alignof(ast_decl));
  d->kind = k;
  d->sp = sp;
  d->k = KIND_ANY;
  return d;
}

ast_list *ast_cons(parse_state *ps, void *item, ast_list *rest) {
  ast_list *cell = ps->spare_cells;
  if (cell)
    ps->spare_cells = cell->next;
  else
    cell = arena_alloc_aligned(ps->ar, sizeof *cell, _Alignof(ast_list));
  cell->item = item;
  cell->next = rest;
  return cell;
}

/* A list built backwards, linked through the pointer at byte `link` of each item, as an
 * array in source order. */
static void **reversed(parse_state *ps, void *list, size_t link, int *n) {
  *n = 0;
  for (char *x = list; x; x = *(char **)(x + link))
    (*n)++;
  void **a = arena_alloc_aligned(ps->ar, (size_t)(*n ? *n : 1) * sizeof *a, _Alignof(void *));
  int i = *n;
  for (char *x = list; x; x = *(char **)(x + link))
    a[--i] = x;
  return a;
}

/* The items of a list built backwards, as an array in source order; its cells become
 * spares. */
static void **list_items(parse_state *ps, ast_list *list, int *n) {
  *n = 0;
  for (ast_list *cell = list; cell; cell = cell->next)
    (*n)++;
  void **a = arena_alloc_aligned(ps->ar, (size_t)(*n ? *n : 1) * sizeof *a, _Alignof(void *));
  for (int i = *n; list; i--) {
    ast_list *cell = list;
    list = cell->next;
    a[i - 1] = cell->item;
    cell->next = ps->spare_cells;
    ps->spare_cells = cell;
  }
  return a;
}

ast_expr **ast_exprs_array(parse_state *ps, ast_list *list, int *n) {
  return (ast_expr **)list_items(ps, list, n);
}

ast_arg **ast_args_array(parse_state *ps, ast_list *list, int *n) {
  return (ast_arg **)list_items(ps, list, n);
}

ast_decl **ast_decls_array(parse_state *ps, ast_decl *list, int *n) {
  return (ast_decl **)reversed(ps, list, offsetof(ast_decl, next), n);
}

span span_join(span a, span b) {
  if (!a.src)
    return b;
  if (!b.src || a.src != b.src)
    return a;
  return (span){a.src, a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi};
}

/* Sets the depth of a node built field by field in the grammar (if, let, sum, ∥, repeat). */
ast_expr *ast_finish(parse_state *ps, ast_expr *e) {
  ast_expr *kids[4] = {0};
  switch (e->kind) {
  case E_IF: kids[0] = e->u.cond.c, kids[1] = e->u.cond.t, kids[2] = e->u.cond.f; break;
  case E_LET: kids[0] = e->u.let.value, kids[1] = e->u.let.body; break;
  case E_SUM: kids[0] = e->u.sum.lo, kids[1] = e->u.sum.hi, kids[2] = e->u.sum.body; break;
  case E_PAR: kids[0] = e->u.par.count, kids[1] = e->u.par.body; break;
  case E_REPEAT: kids[0] = e->u.repeat.count, kids[1] = e->u.repeat.body; break;
  case E_SCHEDULE: kids[0] = e->u.sched.size, kids[1] = e->u.sched.body; break;
  case E_AT: kids[0] = e->u.at.step, kids[1] = e->u.at.count; break;
  case E_SEND:
    kids[0] = e->u.send.src, kids[1] = e->u.send.dst, kids[2] = e->u.send.size;
    kids[3] = e->u.send.start;
    break;
  case E_FLOWS:
    kids[0] = e->u.flows.cuts, kids[1] = e->u.flows.alone, kids[2] = e->u.flows.body;
    break;
  default: break;
  }
  for (int i = 0; i < 4; i++)
    if (kids[i] && e->depth < ast_depth(kids[i]) + 1)
      e->depth = ast_depth(kids[i]) + 1;
  note_depth(ps, e);
  return e;
}

ast_expr *ast_at(parse_state *ps, ast_expr *step, ast_expr *count, span sp) {
  ast_expr *e = ast_expr_new(ps, E_AT, sp);
  e->u.at.step = step;
  e->u.at.count = count ? count : ast_num(ps, 1, KIND_NUM, sp);
  uint32_t ds = ast_depth(step), dc = ast_depth(e->u.at.count);
  e->depth = (ds > dc ? ds : dc) + 1;
  return e;
}

ast_expr *ast_block(parse_state *ps, ast_list *statements, span sp) {
  int n = 0;
  ast_expr **items = ast_exprs_array(ps, statements, &n);
  ast_expr *block = NULL;
  /* from the last statement back: a let takes everything after it as its body */
  for (int i = n; i-- > 0;) {
    ast_expr *s = items[i];
    if (s->kind == E_LET && !s->u.let.body) {
      s->u.let.body = block ? block : ast_num(ps, 0, KIND_NUM, ast_span(ps->ctx, s));
      ast_finish(ps, s);
      block = s;
    } else {
      block = block ? ast_binary(ps, OP_ADD, s, block,
                                 span_join(ast_span(ps->ctx, s), ast_span(ps->ctx, block)))
                    : s;
    }
  }
  return block ? block : ast_num(ps, 0, KIND_NUM, sp);
}

ast_expr *ast_send(parse_state *ps, ast_expr *src, ast_expr *dst, ast_expr *size, ast_expr *start,
                   span sp) {
  ast_expr *e = ast_expr_new(ps, E_SEND, sp);
  e->u.send.src = src;
  e->u.send.dst = dst;
  e->u.send.size = size;
  e->u.send.start = start;
  return ast_finish(ps, e);
}
