/* tokens.c — the scanner's tokens of a source, with their classes: what a formatter or an
 * editor needs to lay text out without a second scanner. Comments and blanks are what lies
 * between the tokens. */
#include "front/front.h"
#include "parser.h"

#include <stdlib.h>
#include <string.h>

typedef void *yyscan_t;
int tlop_yylex_init_extra(parse_state *extra, yyscan_t *scanner);
int tlop_yylex_destroy(yyscan_t scanner);
int tlop_yylex(TLOP_YYSTYPE *lval, TLOP_YYLTYPE *lloc, void *scanner);

static token_class class_of(int code) {
  switch (code) {
  case IDENT: return TOK_NAME;
  case NUMBER: case TRUE: case FALSE: return TOK_NUMBER; /* literals, laid out alike */
  case UNIT: return TOK_UNIT;
  case STRING: return TOK_STRING;
  case AXIOM_NAME: return TOK_NAME;
  case '(': case '[': case '{': case CEIL_OPEN: case FLOOR_OPEN: case SIGMA_OPEN: case MAX_OPEN:
    return TOK_OPEN;
  case ')': case ']': case '}': case CEIL_CLOSE: case FLOOR_CLOSE: return TOK_CLOSE;
  case ',': case ';': case ':': return TOK_PUNCT;
  case '+': case '-': case '*': case '/': case '%': case '^': case '=': case '<': case '>':
  case PAR: case DOTDOT: case LE: case GE: case EQEQ: case NE: case ARROW: case AND: case OR:
    return TOK_OPERATOR;
  default: return TOK_KEYWORD; /* import, sum, not, gamma, log₂, … */
  }
}

size_t front_tokens(tlop_ctx *ctx, arena *ar, const source *src, src_token **out) {
  parse_state ps = {.ctx = ctx, .ar = ar, .src = src};
  src_token *toks = NULL;
  size_t n = 0, cap = 0;
  yyscan_t scanner;
  if (src->len <= (size_t)INT32_MAX && !memchr(src->text, 0, src->len) &&
      tlop_yylex_init_extra(&ps, &scanner) == 0) {
    TLOP_YYSTYPE value;
    TLOP_YYLTYPE at;
    int code;
    while ((code = tlop_yylex(&value, &at, scanner)) > 0) {
      uint32_t lo = at.lo;
      while (lo < at.hi && strchr(" \t", src->text[lo])) /* a unit's blanks after its number */
        lo++;
      VEC_PUSH(toks, n, cap, ((src_token){lo, at.hi, code, class_of(code)}));
    }
    tlop_yylex_destroy(scanner);
  }
  *out = arena_alloc(ar, (n ? n : 1) * sizeof **out);
  if (n)
    memcpy(*out, toks, n * sizeof *toks);
  free(toks);
  return n;
}
