/* format.c — the canonical layout of .tlop source, from the scanner's tokens (front_tokens):
 * line breaks and comments are the author's, blanks are the formatter's. A line is indented
 * two spaces per bracket open around it (from the line that opened it) and two more when it
 * continues a statement; tokens are set one space apart, but none inside brackets, before
 * , ; ) ], around ^, after a unary minus, nor between a name and its ( or [. The result is
 * scanned again and must give the same tokens, or nothing is written. */
#include "lsp/lsp.h"

#include <stdlib.h>
#include <string.h>

#define INDENT 2

/* Operators with an ASCII and a Unicode spelling, and other spellings of the same token
 * (the scanner reads them all as one): --ascii writes the first, --unicode the second. */
static const char *const SPELLINGS[][4] = {
    {"||", "∥", "‖"}, {"<=", "≤"}, {">=", "≥"}, {"!=", "≠"}, {"->", "→"},
    {"*", "·", "×", "⋅"}, {"sum", "Σ"}, {"sum_{", "Σ_{"}, {"-", "−"}, {"gamma", "γ"},
    {"tau", "τ"}, {"..", "…"}, {"and", "∧", "&&"}, {"or", "∨"}, {"not", "¬", "!"},
};

/* The spelling of a token under `ops`, or NULL to keep its text. */
static const char *spelled(const char *text, size_t n, tlop_ops ops) {
  if (ops == TLOP_OPS_KEEP)
    return NULL;
  for (size_t i = 0; i < sizeof SPELLINGS / sizeof *SPELLINGS; i++)
    for (size_t j = 0; j < 4 && SPELLINGS[i][j]; j++)
      if (strlen(SPELLINGS[i][j]) == n && strncmp(text, SPELLINGS[i][j], n) == 0)
        return SPELLINGS[i][ops == TLOP_OPS_ASCII ? 0 : 1];
  return NULL;
}

typedef struct opener {
  int code;
  int base;   /* indentation of the line that opened it */
  bool tight; /* Σ_{…}^{…}: no blanks inside */
} opener;

typedef struct layout {
  const source *src;
  const src_token *t;
  size_t n;
  tlop_ops ops;
  strbuf out;
  size_t line_start; /* where the line being written starts in out */
  bool line_empty;   /* nothing but its indentation written yet */
  int blank_lines;   /* newlines in a row since the last thing written */
  opener *open;
  size_t nopen, open_cap;
  long prev;         /* the token written last, or -1 */
  bool prev_unary;   /* it was a unary minus or ! */
  bool prev_tight_open;
} layout;

static const char *tok_text(const layout *l, const src_token *t) { return l->src->text + t->lo; }
static bool tok_is(const layout *l, const src_token *t, const char *s) {
  return t->hi - t->lo == strlen(s) && strncmp(tok_text(l, t), s, t->hi - t->lo) == 0;
}
static bool is_code(const src_token *t, char c) { return t->code == c; }

/* Ends the line being written: no blanks at its end. */
static void end_line(layout *l) {
  while (l->out.len > l->line_start && l->out.s[l->out.len - 1] == ' ')
    l->out.len--;
  if (l->out.len > 0) {
    sb_puts(&l->out, "\n");
  }
  l->line_start = l->out.len;
  l->line_empty = true;
}

/* Whether the line that starts with `next` continues a statement: the last token ended
 * none. A closing brace ends a statement (a platform, a loop of a schedule) unless an
 * operator or else/then/in/when goes on from it (stages { … } + x). */
static bool continues(const layout *l, const src_token *next) {
  if (l->prev < 0 || (l->nopen && l->open[l->nopen - 1].code != '{'))
    return false;
  const src_token *p = &l->t[l->prev];
  if (is_code(p, '}'))
    return next && (next->cls == TOK_OPERATOR || tok_is(l, next, "else") ||
                    tok_is(l, next, "then") || tok_is(l, next, "in") || tok_is(l, next, "when"));
  return !is_code(p, ';') && !is_code(p, '{');
}

static int indentation(const layout *l, const src_token *next) {
  if (!l->nopen)
    return continues(l, next) ? INDENT : 0;
  const opener *o = &l->open[l->nopen - 1];
  if (next && next->cls == TOK_CLOSE)
    return o->base;
  return o->base + INDENT + (continues(l, next) ? INDENT : 0);
}

/* Starts writing on the current line: the indentation first, a blank line kept. */
static void begin(layout *l, const src_token *next) {
  if (!l->line_empty)
    return;
  if (l->blank_lines >= 2 && l->out.len > 0)
    sb_puts(&l->out, "\n");
  l->line_start = l->out.len;
  for (int i = indentation(l, next); i > 0; i--)
    sb_puts(&l->out, " ");
  l->line_empty = false;
  l->blank_lines = 0;
}

static int current_indent(const layout *l) {
  size_t i = l->line_start;
  while (i < l->out.len && l->out.s[i] == ' ')
    i++;
  return (int)(i - l->line_start);
}

/* The comments and line breaks of the text between two tokens. */
static void gap(layout *l, uint32_t lo, uint32_t hi, const src_token *next) {
  const char *s = l->src->text;
  uint32_t i = lo;
  while (i < hi) {
    if (s[i] == '\n') {
      if (!l->line_empty)
        end_line(l);
      l->blank_lines++;
      i++;
      continue;
    }
    if (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
      i++;
      continue;
    }
    /* a comment: to the end of its line, or to its closing star-slash */
    uint32_t end = i;
    if (s[i] == '/' && s[i + 1] == '*') {
      const char *close = strstr(s + i + 2, "*/");
      end = close ? (uint32_t)(close - s) + 2 : hi;
    } else {
      while (end < hi && s[end] != '\n')
        end++;
    }
    while (end > i && strchr(" \t\r", s[end - 1]))
      end--;
    if (l->line_empty) {
      begin(l, next && next->cls == TOK_CLOSE ? NULL : next);
    } else {
      uint32_t blanks = 0; /* the author's blanks before a comment that ends a line */
      while (i - blanks > lo && (s[i - blanks - 1] == ' ' || s[i - blanks - 1] == '\t'))
        blanks++;
      for (uint32_t k = 0; k < (blanks ? blanks : 1); k++)
        sb_puts(&l->out, " ");
    }
    sb_putn(&l->out, s + i, end - i);
    l->blank_lines = 0;
    i = end;
  }
}

static bool is_unary_position(const layout *l) {
  if (l->prev < 0)
    return true;
  token_class c = l->t[l->prev].cls;
  return c == TOK_OPEN || c == TOK_PUNCT || c == TOK_OPERATOR || c == TOK_KEYWORD;
}

/* Whether a blank goes between the token written last and t. */
static bool blank_before(const layout *l, const src_token *t) {
  if (l->prev < 0)
    return false;
  const src_token *a = &l->t[l->prev];
  if (is_code(t, ',') || is_code(t, ';'))
    return false;
  if (is_code(t, ':')) /* `m: size` and `sum i = 0 .. n : body`: as written */
    return t->lo > a->hi && strchr(" \t", l->src->text[t->lo - 1]);
  if (is_code(a, '^') || is_code(t, '^') || l->prev_unary || l->prev_tight_open)
    return false;
  if (a->cls == TOK_OPEN)
    return is_code(a, '{') && !is_code(t, '}');
  if (t->cls == TOK_CLOSE)
    return is_code(t, '}') && !(l->nopen && l->open[l->nopen - 1].tight);
  if (is_code(t, '(') || is_code(t, '[')) { /* f(x), L[ch](m), A ∥[ch] X, γ(op, m, τ), messages[L] */
    bool callee = a->cls == TOK_NAME || is_code(a, ']') || tok_is(l, a, "gamma") ||
                  tok_is(l, a, "γ") || tok_is(l, a, "log₂") ||
                  (is_code(t, '[') && tok_is(l, a, "messages"));
    return !(callee || (is_code(t, '[') && a->cls == TOK_OPERATOR));
  }
  if (a->cls == TOK_NUMBER && t->cls == TOK_NAME) /* 2L(S, 1): as written (2 B is a unit) */
    return t->lo > a->hi;
  return true;
}

static void put_token(layout *l, size_t i) {
  const src_token *t = &l->t[i];
  bool fresh = l->line_empty;
  begin(l, t);
  if (!fresh && blank_before(l, t))
    sb_puts(&l->out, " ");
  const char *text = tok_text(l, t);
  size_t n = t->hi - t->lo;
  /* gamma(sum, …): `sum` names the operator there, and stays a word */
  bool op_name = l->prev >= 0 && is_code(&l->t[l->prev], '(') && t->cls == TOK_KEYWORD;
  const char *respelled = op_name ? NULL : spelled(text, n, l->ops);
  if (respelled)
    text = respelled, n = strlen(respelled);
  sb_putn(&l->out, text, n);
  bool unary = (is_code(t, '-') && is_unary_position(l)) || (n == 1 && *text == '!') ||
               (n == 2 && !strncmp(text, "¬", 2));
  l->prev_tight_open = false;
  if (t->cls == TOK_OPEN) {
    /* Σ_{i=0}^{n}: its bounds are written close */
    bool tight = t->code == '{' ? l->prev >= 0 && is_code(&l->t[l->prev], '^')
                                : tok_text(l, t)[t->hi - t->lo - 1] == '{';
    VEC_PUSH(l->open, l->nopen, l->open_cap, ((opener){t->code, current_indent(l), tight}));
    l->prev_tight_open = tight;
  } else if (t->cls == TOK_CLOSE && l->nopen) {
    l->nopen--;
  }
  l->prev = (long)i;
  l->prev_unary = unary;
}

/* Whether two token lists are the same program: same tokens, same names and numbers. */
static bool same_tokens(const source *a, const src_token *ta, size_t na, const source *b,
                        const src_token *tb, size_t nb) {
  if (na != nb)
    return false;
  for (size_t i = 0; i < na; i++) {
    if (ta[i].code != tb[i].code)
      return false;
    if (ta[i].cls == TOK_OPERATOR || ta[i].cls == TOK_KEYWORD || ta[i].cls == TOK_PUNCT ||
        ta[i].cls == TOK_OPEN || ta[i].cls == TOK_CLOSE)
      continue;
    const char *x = a->text + ta[i].lo, *y = b->text + tb[i].lo;
    size_t nx = ta[i].hi - ta[i].lo, ny = tb[i].hi - tb[i].lo;
    bool tau_x = (nx == 3 && !strncmp(x, "tau", 3)) || (nx == 2 && !strncmp(x, "τ", 2));
    bool tau_y = (ny == 3 && !strncmp(y, "tau", 3)) || (ny == 2 && !strncmp(y, "τ", 2));
    if (tau_x && tau_y)
      continue;
    if (nx != ny || strncmp(x, y, nx) != 0)
      return false;
  }
  return true;
}

tlop_status format_source(tlop_ctx *ctx, const char *name, const char *text, size_t len,
                          tlop_ops ops, char **out) {
  *out = NULL;
  arena *ar = arena_new();
  const source *src = source_new(ctx, name, text, len);
  ast_decl *decls;
  tlop_status st = TLOP_OK;
  if (parse_file(ctx, ar, src, &decls) != 0) {
    arena_free(ar);
    return TLOP_ERR_SYNTAX;
  }
  layout l = {.src = src, .ops = ops, .prev = -1, .line_empty = true};
  l.n = front_tokens(ctx, ar, src, (src_token **)&l.t);
  uint32_t at = src->len >= 3 && !memcmp(src->text, "\xEF\xBB\xBF", 3) ? 3 : 0;
  for (size_t i = 0; i < l.n; i++) {
    gap(&l, at, l.t[i].lo, &l.t[i]);
    put_token(&l, i);
    at = l.t[i].hi;
  }
  gap(&l, at, (uint32_t)src->len, NULL);
  if (!l.line_empty)
    end_line(&l);
  free(l.open);
  char *result = sb_take(&l.out);
  const source *again = source_new(ctx, name, result, strlen(result));
  src_token *t2;
  size_t n2 = front_tokens(ctx, ar, again, &t2);
  if (!same_tokens(src, l.t, l.n, again, t2, n2)) {
    diag_error(ctx, (span){src, 0, 0}, "tlop fmt: the layout would change what %s says; "
               "it is left as it is (please report this file)", name);
    free(result);
    st = TLOP_ERR_INTERNAL;
  } else {
    *out = result;
  }
  arena_free(ar);
  return st;
}

tlop_status tlop_format_source(tlop_ctx *ctx, const char *name, const char *text, size_t len,
                        tlop_ops ops, char **out) {
  if (!ctx || !name || !text || !out)
    return TLOP_ERR_ARG;
  return format_source(ctx, name, text, len, ops, out);
}
