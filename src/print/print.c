/* print.c — IR → text, in the papers' notation (unicode), as LaTeX math, or as .tlop
 * source that parses back to the same DAG, with the fewest parentheses the precedences
 * allow; an expression with its lets (let x = … in …); and a debug listing of the DAG
 * with one numbered line per distinct node. */
#include "print/print.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Precedences, loosest first; they mirror grammar/parser.y. */
enum { P_OPEN = 1, P_OR, P_AND, P_NOT, P_CMP, P_PAR, P_ADD, P_MUL, P_NEG, P_POW, P_ATOM };

typedef struct printer {
  strbuf *b;
  tlop_format f;
  bool followed; /* more of a product follows: a Σ here needs parentheses */
  sym bound;            /* a flows stage's variable, printed as the name its clause binds */
  const char *bound_as;
} printer;

static void pr(printer *p, const ir_node *n, int min);

static bool uni(const printer *p) { return p->f == TLOP_FORMAT_UNICODE; }
static bool tex(const printer *p) { return p->f == TLOP_FORMAT_LATEX; }
/* The papers' notation, in Unicode or LaTeX. */
static bool paper(const printer *p) { return p->f != TLOP_FORMAT_TLOP; }

static int prec(const ir_node *n) {
  switch (n->op) {
  case IR_NUM: return n->num < 0 ? P_NEG : P_ATOM;
  case IR_ADD: case IR_SUB: return P_ADD;
  case IR_MUL: case IR_DIV: case IR_MOD: return P_MUL;
  case IR_REPEAT: return P_MUL;
  case IR_NEG: return P_NEG;
  case IR_POW: return P_POW;
  case IR_LT: case IR_LE: case IR_GT: case IR_GE: case IR_EQ: case IR_NE: return P_CMP;
  case IR_AND: return P_AND;
  case IR_OR: return P_OR;
  case IR_NOT: return P_NOT;
  case IR_PAR: case IR_CONC: return P_PAR;
  case IR_IF: return P_OPEN;
  case IR_SUM: case IR_MAXOVER: return P_OPEN; /* the papers' Σ is handled in pr */
  case IR_STAGE: return P_ATOM;
  default: return P_ATOM;
  }
}

static void put(printer *p, const char *s) { sb_puts(p->b, s); }

/* A time in the largest unit that reads back as the same double (3.5 µs, 12 ms). */
static bool exact_time(char *buf, size_t n, double s) {
  static const struct { const char *unit; double scale; } units[] = {
      {"s", 1}, {"ms", 1e-3}, {"µs", 1e-6}, {"ns", 1e-9}};
  for (size_t i = 0; i < 4; i++) {
    char digits[48];
    fmt_double(digits, sizeof digits, s / units[i].scale);
    if (fabs(s) >= units[i].scale && strtod(digits, NULL) * units[i].scale == s) {
      snprintf(buf, n, "%s %s", digits, units[i].unit);
      return true;
    }
  }
  return false;
}

/* A number with its unit: 8192 B (source), 8 KiB (the papers' notation). */
static void quantity(printer *p, const ir_node *n) {
  char buf[64];
  const char *unit = n->name->name;
  if (!strcmp(unit, "bool")) {
    snprintf(buf, sizeof buf, "%s", n->num ? "true" : "false");
  } else if (paper(p) && !strcmp(unit, "B") && n->num >= 0) {
    tlop_format_size(buf, sizeof buf, n->num);
  } else if (paper(p) && !strcmp(unit, "s") && exact_time(buf, sizeof buf, n->num)) {
  } else {
    char digits[48];
    fmt_double(digits, sizeof digits, n->num);
    snprintf(buf, sizeof buf, "%s %s", digits, unit);
  }
  put(p, tex(p) ? "\\text{" : "");
  put(p, buf);
  put(p, tex(p) ? "}" : "");
}

static void num(printer *p, double v) {
  char buf[48];
  fmt_double(buf, sizeof buf, v);
  char *e = strchr(buf, 'e');
  if (tex(p) && e) {
    /* 1e+300 → 1 \cdot 10^{300} */
    *e = 0;
    put(p, buf);
    put(p, " \\cdot 10^{");
    char *x = e + 1 + (e[1] == '+');
    if (*x == '-')
      put(p, "-"), x++;
    while (*x == '0' && x[1])
      x++;
    put(p, x);
    put(p, "}");
    return;
  }
  if (uni(p) && buf[0] == '-') {
    put(p, "−");
    put(p, buf + 1);
  } else {
    put(p, buf);
  }
}

static void name(printer *p, sym s) {
  const char *text = s == p->bound ? p->bound_as : s->name;
  if (!strcmp(text, "tau") && paper(p)) {
    put(p, tex(p) ? "\\tau" : "τ");
    return;
  }
  if (!tex(p)) {
    put(p, text);
    return;
  }
  /* LaTeX: one letter as it is (primes kept), longer names upright-italic, _ escaped */
  size_t letters = strcspn(text, "'");
  bool single = letters == 1 || (((unsigned char)text[0] & 0xE0) == 0xC0 && letters == 2);
  if (!single)
    put(p, "\\mathit{");
  for (const char *c = text; *c && (size_t)(c - text) < letters; c++) {
    if (*c == '_')
      put(p, "\\_");
    else
      sb_putn(p->b, c, 1);
  }
  if (!single)
    put(p, "}");
  put(p, text + letters);
}

static void open_paren(printer *p) { put(p, tex(p) ? "\\left(" : "("); }
static void close_paren(printer *p) { put(p, tex(p) ? "\\right)" : ")"); }

static void args(printer *p, const ir_node *n, int from) {
  bool outer = p->followed;
  p->followed = false;
  open_paren(p);
  for (int i = from; i < n->nkids; i++) {
    if (i > from)
      put(p, ", ");
    pr(p, n->kid[i], P_OPEN + 1);
  }
  close_paren(p);
  p->followed = outer;
}

/* A message size: with its unit in the papers' notation. */
static void size_arg(printer *p, const ir_node *m) {
  if (paper(p) && m->op == IR_NUM && m->num >= 0) {
    char buf[64];
    tlop_format_size(buf, sizeof buf, m->num);
    put(p, tex(p) ? "\\text{" : "");
    put(p, buf);
    put(p, tex(p) ? "}" : "");
  } else {
    pr(p, m, P_OPEN + 1);
  }
}

static void transfer(printer *p, const ir_node *n, const char *fname) {
  bool outer = p->followed;
  p->followed = false;
  put(p, fname);
  if (tex(p) && n->name) {
    /* L_{net}(m, τ), \gamma_{sum}(m, τ) */
    put(p, "_{\\mathrm{");
    put(p, n->name->name);
    put(p, "}}");
  } else if (n->op != IR_GAMMA && n->name) {
    put(p, "[");
    put(p, n->name->name);
    put(p, "]");
  }
  put(p, "(");
  if (n->op == IR_GAMMA && !tex(p)) {
    put(p, n->name->name);
    put(p, ", ");
  }
  size_arg(p, n->kid[0]);
  if (n->nkids > 1) {
    put(p, ", ");
    pr(p, n->kid[1], P_OPEN + 1);
  }
  put(p, ")");
  p->followed = outer;
}

/* stages { a; "label": b; } from the chain of additions of STAGE nodes. */
static bool all_stages(const ir_node *n) {
  if (n->op == IR_STAGE)
    return true;
  return n->op == IR_ADD && all_stages(n->kid[0]) && n->kid[1]->op == IR_STAGE;
}

static void stage_items(printer *p, const ir_node *n) {
  if (n->op == IR_ADD) {
    stage_items(p, n->kid[0]);
    n = n->kid[1];
  }
  put(p, " ");
  if (n->name) {
    put(p, "\"");
    put(p, n->name->name);
    put(p, "\": ");
  }
  pr(p, n->kid[0], P_OPEN);
  put(p, ";");
}

static void binary(printer *p, const ir_node *n, const char *op, int lp, int rp) {
  bool outer = p->followed;
  /* the left operand of a product has more of the product after it */
  p->followed = outer || rp >= P_MUL;
  pr(p, n->kid[0], lp);
  p->followed = rp >= P_MUL && outer;
  put(p, op);
  pr(p, n->kid[1], rp);
  p->followed = outer;
}

static void pr_sum(printer *p, const ir_node *n) {
  const ir_node *body = n->kid[2];
  /* an indexed stage is an unlabelled STAGE; a labelled one prints as a stages block */
  bool stage = body->op == IR_STAGE && !body->name && p->f == TLOP_FORMAT_TLOP;
  bool is_max = n->op == IR_MAXOVER;
  if (paper(p)) {
    put(p, is_max ? (tex(p) ? "\\max_{" : "max_{") : tex(p) ? "\\sum_{" : "Σ_{");
    name(p, n->name);
    put(p, "=");
    pr(p, n->kid[0], P_OPEN + 1);
    put(p, "}^{");
    pr(p, n->kid[1], P_OPEN + 1);
    put(p, "} ");
    pr(p, body->op == IR_STAGE ? body->kid[0] : body, P_MUL);
    return;
  }
  put(p, stage ? "stages " : is_max ? "max " : "sum ");
  name(p, n->name);
  put(p, " = ");
  pr(p, n->kid[0], P_OPEN + 1);
  put(p, " .. ");
  pr(p, n->kid[1], P_OPEN + 1);
  if (stage) {
    put(p, " { ");
    pr(p, body->kid[0], P_OPEN);
    put(p, " }");
  } else {
    put(p, " : ");
    pr(p, body, P_OPEN);
  }
}

static void send(printer *p, const ir_node *n) {
  put(p, "send ");
  pr(p, n->kid[0], P_OPEN + 1);
  put(p, " -> ");
  pr(p, n->kid[1], P_OPEN + 1);
  put(p, " : ");
  size_arg(p, n->kid[2]);
}

/* A flows stage's cuts or time alone, its variable v named as that clause binds it (v
 * may have been renamed apart). */
static void flows_clause(printer *p, sym v, const ir_node *body, const char *as) {
  sym bound = p->bound;
  const char *bound_as = p->bound_as;
  p->bound = v;
  p->bound_as = as;
  pr(p, body, P_OPEN + 1);
  p->bound = bound;
  p->bound_as = bound_as;
}

/* A schedule's placements as statements: for, if, at (a sum of them is a sequence). */
static void statements(printer *p, const ir_node *n) {
  switch (n->op) {
  case IR_ADD:
    statements(p, n->kid[0]);
    statements(p, n->kid[1]);
    return;
  case IR_NUM:
    return; /* an empty block */
  case IR_SUM:
    put(p, " for ");
    name(p, n->name);
    put(p, " = ");
    pr(p, n->kid[0], P_OPEN + 1);
    put(p, " .. ");
    pr(p, n->kid[1], P_OPEN + 1);
    put(p, " {");
    statements(p, n->kid[2]);
    put(p, " }");
    return;
  case IR_IF:
    put(p, " if ");
    pr(p, n->kid[0], P_OPEN + 1);
    put(p, " {");
    statements(p, n->kid[1]);
    put(p, " }");
    if (!(n->kid[2]->op == IR_NUM && n->kid[2]->num == 0)) {
      put(p, " else {");
      statements(p, n->kid[2]);
      put(p, " }");
    }
    return;
  default:
    put(p, " ");
    pr(p, n, P_OPEN);
  }
}

/* Does n print starting with a letter? Then a number before it is written 2k, 2L(S,1). */
static bool starts_with_letter(const ir_node *n) {
  switch (n->op) {
  case IR_VAR: case IR_L: case IR_TX: case IR_O: case IR_PACK: case IR_GAMMA: case IR_MIN: case IR_MAX:
  case IR_LOG2: case IR_LOG: case IR_ABS: case IR_SQRT:
    return true;
  case IR_MUL: case IR_DIV:
    return starts_with_letter(n->kid[0]);
  default:
    return false;
  }
}

/* The operator words of each format: unicode, latex, tlop. */
static const char *word(const printer *p, const char *u, const char *l, const char *t) {
  return uni(p) ? u : tex(p) ? l : t;
}

static void pr(printer *p, const ir_node *n, int min) {
  /* In the papers' notation Σ is a prefix of its body, which reaches over the rest of the
   * product: it stands bare only where nothing of the product follows it. */
  int level = ir_is_range(n->op) && paper(p) ? (p->followed ? 0 : P_ATOM) : prec(n);
  /* \frac{}{} needs no parentheses around itself */
  if (tex(p) && n->op == IR_DIV)
    level = P_ATOM;
  bool paren = level < min, outer = p->followed;
  if (paren) {
    open_paren(p);
    p->followed = false; /* parentheses close the product */
  }
  switch (n->op) {
  case IR_NUM:
    if (n->name)
      quantity(p, n);
    else
      num(p, n->num);
    break;
  case IR_VAR: name(p, n->name); break;
  case IR_ADD:
    if (!paper(p) && all_stages(n)) {
      put(p, "stages {");
      stage_items(p, n);
      put(p, " }");
    } else {
      binary(p, n, " + ", P_ADD, P_ADD + 1);
    }
    break;
  case IR_SUB: binary(p, n, word(p, " − ", " - ", " - "), P_ADD, P_ADD + 1); break;
  case IR_MUL: {
    int left = P_MUL;
    char digits[48];
    if (n->kid[0]->op == IR_NUM)
      fmt_double(digits, sizeof digits, n->kid[0]->num);
    bool juxtapose = paper(p) && n->kid[0]->op == IR_NUM && n->kid[0]->num > 0 &&
                     !strchr(digits, 'e') && starts_with_letter(n->kid[1]);
    binary(p, n, juxtapose ? "" : word(p, "·", " \\cdot ", " * "), left, P_MUL + 1);
    break;
  }
  case IR_DIV:
    if (tex(p)) {
      put(p, "\\frac{");
      pr(p, n->kid[0], P_OPEN);
      put(p, "}{");
      pr(p, n->kid[1], P_OPEN);
      put(p, "}");
    } else {
      binary(p, n, "/", P_MUL, P_MUL + 1);
    }
    break;
  case IR_MOD: binary(p, n, word(p, " mod ", " \\bmod ", " % "), P_MUL, P_MUL + 1); break;
  case IR_POW:
    pr(p, n->kid[0], P_ATOM);
    if (tex(p)) {
      put(p, "^{");
      pr(p, n->kid[1], P_OPEN);
      put(p, "}");
    } else {
      put(p, "^");
      pr(p, n->kid[1], P_POW);
    }
    break;
  case IR_NEG:
    put(p, word(p, "−", "-", "-"));
    /* −a·b reads as −(a·b) in the papers; the source form keeps the tree exact */
    pr(p, n->kid[0], paper(p) ? P_MUL : P_NEG);
    break;
  case IR_LT: binary(p, n, " < ", P_CMP + 1, P_CMP + 1); break;
  case IR_LE: binary(p, n, word(p, " ≤ ", " \\le ", " <= "), P_CMP + 1, P_CMP + 1); break;
  case IR_GT: binary(p, n, " > ", P_CMP + 1, P_CMP + 1); break;
  case IR_GE: binary(p, n, word(p, " ≥ ", " \\ge ", " >= "), P_CMP + 1, P_CMP + 1); break;
  case IR_EQ: binary(p, n, word(p, " == ", " = ", " == "), P_CMP + 1, P_CMP + 1); break;
  case IR_NE: binary(p, n, word(p, " ≠ ", " \\ne ", " != "), P_CMP + 1, P_CMP + 1); break;
  case IR_AND: binary(p, n, word(p, " and ", " \\wedge ", " and "), P_AND, P_AND + 1); break;
  case IR_OR: binary(p, n, word(p, " or ", " \\vee ", " or "), P_OR, P_OR + 1); break;
  case IR_NOT:
    put(p, word(p, "not ", "\\neg ", "not "));
    pr(p, n->kid[0], P_NOT);
    break;
  case IR_PAR:
    pr(p, n->kid[0], P_PAR + 1);
    put(p, word(p, " ∥", " \\parallel", " ||"));
    if (n->name) {
      put(p, tex(p) ? "_{\\mathrm{" : "[");
      put(p, n->name->name);
      put(p, tex(p) ? "}}" : "]");
    }
    put(p, " ");
    /* A sum under ∥ is parenthesized, as the papers write it: A ∥ (X + Y). */
    pr(p, n->kid[1], P_ADD + 1);
    break;
  case IR_CONC: binary(p, n, word(p, " ∥ ", " \\parallel ", " || "), P_PAR + 1, P_PAR); break;
  case IR_MIN: case IR_MAX: case IR_LOG: case IR_ABS: case IR_SQRT:
    if (tex(p) && n->op == IR_SQRT) {
      put(p, "\\sqrt{");
      pr(p, n->kid[0], P_OPEN);
      put(p, "}");
    } else if (tex(p) && n->op == IR_LOG) {
      put(p, "\\log_{");
      pr(p, n->kid[0], P_OPEN);
      put(p, "}");
      open_paren(p);
      pr(p, n->kid[1], P_OPEN);
      close_paren(p);
    } else {
      if (tex(p))
        put(p, n->op == IR_MIN ? "\\min" : n->op == IR_MAX ? "\\max" : "\\operatorname{abs}");
      else
        put(p, ir_op_name((ir_op)n->op));
      args(p, n, 0);
    }
    break;
  case IR_LOG2:
    put(p, word(p, "log₂", "\\log_2 ", "log2"));
    if (paper(p) && n->kid[0]->op == IR_VAR)
      name(p, n->kid[0]->name); /* log₂P */
    else
      args(p, n, 0);
    break;
  case IR_CEIL: case IR_FLOOR:
    if (paper(p)) {
      bool c = n->op == IR_CEIL;
      put(p, uni(p) ? (c ? "⌈" : "⌊") : (c ? "\\lceil " : "\\lfloor "));
      pr(p, n->kid[0], P_OPEN);
      put(p, uni(p) ? (c ? "⌉" : "⌋") : (c ? " \\rceil" : " \\rfloor"));
    } else {
      put(p, ir_op_name((ir_op)n->op));
      args(p, n, 0);
    }
    break;
  case IR_IF:
    put(p, word(p, "if ", "\\text{if } ", "if "));
    pr(p, n->kid[0], P_OPEN);
    put(p, word(p, " then ", "\\text{ then } ", " then "));
    pr(p, n->kid[1], P_OPEN);
    put(p, word(p, " else ", "\\text{ else } ", " else "));
    pr(p, n->kid[2], P_OPEN);
    break;
  case IR_SUM: case IR_MAXOVER: pr_sum(p, n); break;
  case IR_L: transfer(p, n, "L"); break;
  case IR_TX: transfer(p, n, "T"); break;
  case IR_O: transfer(p, n, "o"); break;
  case IR_PACK: transfer(p, n, "p"); break;
  case IR_GAMMA: transfer(p, n, word(p, "γ", "\\gamma", "gamma")); break;
  case IR_STAGE:
    if (paper(p)) {
      pr(p, n->kid[0], min);
    } else {
      put(p, "stages {");
      stage_items(p, n);
      put(p, " }");
    }
    break;
  case IR_SCHED:
    put(p, "schedule L");
    if (n->name) {
      put(p, "[");
      put(p, n->name->name);
      put(p, "]");
    }
    put(p, "(");
    size_arg(p, n->kid[0]);
    put(p, ") {");
    statements(p, n->kid[1]);
    put(p, " }");
    break;
  case IR_MSGS: {
    const ir_node *arg;
    const char *mapping = ir_mapping(n, &arg);
    put(p, n->num ? "messages[L] on " : "messages on ");
    put(p, mapping ? mapping : "by");
    put(p, "(");
    pr(p, mapping ? arg : n->kid[0], P_OPEN + 1);
    put(p, ") {");
    statements(p, n->kid[1]);
    put(p, " }");
    break;
  }
  case IR_SEND:
    send(p, n);
    put(p, ";");
    break;
  case IR_FLOWS:
    put(p, "flows under ");
    flows_clause(p, n->kid[1]->name, n->kid[1]->kid[2], "entry");
    put(p, " alone ");
    flows_clause(p, n->name, n->kid[0], "Q");
    put(p, " {");
    statements(p, n->kid[2]);
    put(p, " }");
    break;
  case IR_FLOW:
    send(p, n->kid[0]);
    if (!(n->kid[1]->op == IR_NUM && n->kid[1]->num == 0 && n->kid[1]->name &&
          !strcmp(n->kid[1]->name->name, "s"))) { /* not the start lowering gives */
      put(p, " at ");
      pr(p, n->kid[1], P_OPEN + 1);
    }
    put(p, ";");
    break;
  case IR_AT:
    put(p, "at ");
    pr(p, n->kid[0], P_OPEN + 1);
    if (!(n->kid[1]->op == IR_NUM && n->kid[1]->num == 1)) {
      put(p, ": ");
      pr(p, n->kid[1], P_OPEN + 1);
    }
    put(p, ";");
    break;
  case IR_REPEAT:
    if (paper(p)) {
      binary(p, n, word(p, " × ", " \\times ", ""), P_MUL, P_MUL + 1);
    } else {
      put(p, "repeat ");
      pr(p, n->kid[0], P_OPEN + 1);
      put(p, " { ");
      pr(p, n->kid[1], P_OPEN);
      put(p, " }");
    }
    break;
  default: put(p, "?"); break;
  }
  p->followed = outer;
  if (paren)
    close_paren(p);
}

void prt_expr_to(strbuf *b, const ir_node *n, tlop_format f) {
  printer p = {.b = b, .f = f};
  pr(&p, n, P_OPEN);
}

char *prt_expr(tlop_ctx *ctx, const ir_node *n, tlop_format f) {
  (void)ctx;
  strbuf b = {0};
  prt_expr_to(&b, n, f);
  return sb_take(&b);
}

/* Nodes of n printed as a tree: a DAG of nested doublings (let x = y + y) has 2^depth. */
static double tree_size(const ir_node *n, ptrmap *memo) {
  double *known = ptrmap_get(memo, n);
  if (known)
    return *known;
  double size = 1;
  for (int i = 0; i < n->nkids; i++)
    size += tree_size(n->kid[i], memo);
  double *slot = xmalloc(sizeof *slot);
  *slot = size;
  ptrmap_put(memo, n, slot);
  return size;
}

bool prt_fits(tlop_ctx *ctx, const ir_node *n) {
  ptrmap memo = {0};
  double size = tree_size(n, &memo);
  for (size_t i = 0; i < memo.cap; i++)
    if (memo.keys[i])
      free(memo.vals[i]);
  ptrmap_free(&memo);
  if (size <= ctx->max_print)
    return true;
  char num[40], lim[40];
  fmt_double(num, sizeof num, size);
  fmt_double(lim, sizeof lim, ctx->max_print);
  diag_error(ctx, n->origin, "expression too large to print: %s nodes as a tree, more than %s "
             "(--max-print; or print its DAG: dump-ir --format dag)", num, lim);
  return false;
}

/* ---- the DAG listing ---- */

static void dump(strbuf *b, const ir_node *n, ptrmap *done, uint32_t *next) {
  if (ptrmap_get(done, n))
    return;
  for (int i = 0; i < n->nkids; i++)
    dump(b, n->kid[i], done, next);
  uint32_t *slot = xmalloc(sizeof *slot);
  *slot = ++*next;
  ptrmap_put(done, n, slot);
  sb_printf(b, "%%%u = %s", *slot, ir_op_name((ir_op)n->op));
  if (n->op == IR_NUM) {
    char buf[48];
    fmt_double(buf, sizeof buf, n->num);
    sb_printf(b, " %s", buf);
  }
  if (n->name)
    sb_printf(b, " [%s]", n->name->name);
  for (int i = 0; i < n->nkids; i++)
    sb_printf(b, " %%%u", *(uint32_t *)ptrmap_get(done, n->kid[i]));
  sb_puts(b, "\n");
}

char *prt_dump(tlop_ctx *ctx, const ir_node *n) {
  (void)ctx;
  strbuf b = {0};
  ptrmap done = {0};
  uint32_t next = 0;
  dump(&b, n, &done, &next);
  for (size_t i = 0; i < done.cap; i++)
    if (done.keys[i])
      free(done.vals[i]);
  ptrmap_free(&done);
  return sb_take(&b);
}

/* ---- an expression with its lets ---- */

/* Terms of a sum, through a factor taken out: 2·(a + b + c + d)/P has 4 (at most
 * LET_MIN_TERMS: a DAG of nested doublings is not walked as a tree). */
static int sum_terms(const ir_node *n, ptrmap *memo) {
  void *known = ptrmap_get(memo, n);
  if (known)
    return (int)(uintptr_t)known;
  int k = 1;
  switch (n->op) {
  case IR_ADD:
  case IR_SUB: k = sum_terms(n->kid[0], memo) + sum_terms(n->kid[1], memo); break;
  case IR_MUL: {
    int a = sum_terms(n->kid[0], memo), b = sum_terms(n->kid[1], memo);
    k = a > b ? a : b;
    break;
  }
  case IR_DIV:
  case IR_NEG: k = sum_terms(n->kid[0], memo); break;
  default: break;
  }
  k = k > LET_MIN_TERMS ? LET_MIN_TERMS : k;
  ptrmap_put(memo, n, (void *)(uintptr_t)k);
  return k;
}

/* Whether a let of e is printed as one: a sum of LET_MIN_TERMS terms or more that the
 * expression holds more than once, x^k counting k times (the lets simplify keeps; written
 * ones alike). */
static bool let_shown(const tlop_expr *e, const expr_let *l) {
  if (l->value->flags & (IR_HAS_COST | IR_HAS_STAGE | IR_HAS_AT | IR_HAS_SUM))
    return false;
  ptrmap memo = {0};
  bool shown = sum_terms(l->value, &memo) >= LET_MIN_TERMS;
  ptrmap_free(&memo);
  if (shown)
    shown = ir_tree_count(e->node, l->value, &memo) >= 2;
  ptrmap_free(&memo);
  return shown;
}

static char *print_node(tlop_ctx *ctx, const tlop_expr *e, tlop_format format) {
  if (!prt_fits(ctx, e->node))
    return NULL;
  /* .tlop source must check again: its numbers need their units; the papers' notation
   * shows those of comparisons (m > 4 B) */
  return prt_expr(ctx, units_restore(e, format != TLOP_FORMAT_TLOP), format);
}

/* let x = v in …: each let shown printed once, its value named wherever the body or a
 * later value holds it (values by depth: a value holds only shallower ones). */
static char *print_lets(tlop_ctx *ctx, const tlop_expr *expr, tlop_format format) {
  size_t n = 0;
  expr_let *lets = xcalloc(expr->nlets, sizeof *lets);
  for (size_t i = 0; i < expr->nlets; i++) {
    bool again = false;
    for (size_t j = 0; j < n && !again; j++)
      if ((again = lets[j].value == expr->lets[i].value))
        lets[j].k = kind_agreed(lets[j].k, expr->lets[i].k);
    if (!again && let_shown(expr, &expr->lets[i]))
      lets[n++] = expr->lets[i];
  }
  for (size_t i = 1; i < n; i++) /* insertion sort by depth, stable */
    for (size_t j = i; j > 0 && lets[j].value->depth < lets[j - 1].value->depth; j--) {
      expr_let t = lets[j];
      lets[j] = lets[j - 1], lets[j - 1] = t;
    }
  sym *names = xcalloc(expr->nfree + n + 1, sizeof *names);
  kind *kinds = xcalloc(expr->nfree + n + 1, sizeof *kinds);
  for (size_t i = 0; i < expr->nfree; i++)
    names[i] = expr->free[i], kinds[i] = expr->free_kinds[i];
  tlop_expr part = *expr;
  part.free = names, part.free_kinds = kinds, part.lets = NULL, part.nlets = 0;
  /* a name the expression uses otherwise is primed */
  for (size_t i = 0; i < n; i++) {
    bool taken = true;
    while (taken) {
      taken = ir_mentions(expr->node, lets[i].name);
      for (size_t j = 0; j < i && !taken; j++)
        taken = lets[j].name == lets[i].name;
      if (taken)
        lets[i].name = ir_primed(ctx, lets[i].name);
    }
  }
  strbuf out = {0};
  char *text = NULL;
  bool ok = true;
  for (size_t i = 0; i <= n && ok; i++) {
    ir_node *v = i < n ? lets[i].value : expr->node;
    for (size_t j = i; j-- > 0;)
      v = ir_replace(ctx, v, lets[j].value, ir_var(ctx, lets[j].name));
    part.node = v;
    part.k = i == n                   ? expr->k
             : lets[i].k.tag == K_DIM ? lets[i].k
                                      : units_kind(&part, v);
    text = print_node(ctx, &part, format);
    if (!(ok = text != NULL))
      break;
    if (i == n) {
      sb_printf(&out, "%s", text);
    } else {
      char *name = prt_expr(ctx, ir_var(ctx, lets[i].name), format);
      sb_printf(&out, format == TLOP_FORMAT_LATEX ? "\\mathrm{let}\\ %s = %s\\ \\mathrm{in}\\ "
                                                  : "let %s = %s in ",
                name, text);
      free(name);
      names[part.nfree] = lets[i].name, kinds[part.nfree] = part.k;
      part.nfree++;
    }
    free(text);
  }
  free(lets);
  free(names);
  free(kinds);
  if (!ok) {
    free(out.s);
    return NULL;
  }
  return out.s;
}

char *prt_expr_lets(tlop_ctx *ctx, const tlop_expr *expr, tlop_format format) {
  return expr->nlets ? print_lets(ctx, expr, format) : print_node(ctx, expr, format);
}
