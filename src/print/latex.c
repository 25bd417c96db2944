/* latex.c — reading back the LaTeX that print.c writes: a translation into the papers'
 * notation, which the grammar reads (\frac{a}{b} → ((a)/(b)), \sum_{i=0}^{n} → Σ_{i=0}^{n},
 * \left( → (, \lceil → ⌈, L_{\mathrm{net}} → L[net], 1 \cdot 10^{-6} → 1e-6, …). It covers
 * the printer's LaTeX, not LaTeX at large. */
#include "print/print.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct reader {
  const char *begin, *p, *end;
  strbuf out;
  const char *error;
} reader;

static void translate(reader *r, const char *end);

static void skip_space(reader *r) {
  while (r->p < r->end && isspace((unsigned char)*r->p))
    r->p++;
}

static bool take(reader *r, const char *s) {
  size_t n = strlen(s);
  if ((size_t)(r->end - r->p) >= n && strncmp(r->p, s, n) == 0) {
    r->p += n;
    return true;
  }
  return false;
}

/* The end of the group that starts at r->p ('{'), or NULL. */
static const char *group_end(const reader *r) {
  if (r->p >= r->end || *r->p != '{')
    return NULL;
  int depth = 0;
  for (const char *q = r->p; q < r->end; q++) {
    if (*q == '\\' && q + 1 < r->end) {
      q++;
      continue;
    }
    depth += (*q == '{') - (*q == '}');
    if (depth == 0)
      return q;
  }
  return NULL;
}

/* Translates a {…} group in place of it, wrapped in `open` and `close`. */
static void group(reader *r, const char *open, const char *close) {
  const char *end = group_end(r);
  if (!end) {
    r->error = "a '{' without its '}'";
    r->p = r->end;
    return;
  }
  r->p++;
  sb_puts(&r->out, open);
  translate(r, end);
  sb_puts(&r->out, close);
  r->p = end + 1;
}

/* The text of a {…} group, untranslated (names: \mathrm{net}, \mathit{k}). */
static char *group_text(reader *r) {
  const char *end = group_end(r);
  if (!end) {
    r->error = "a '{' without its '}'";
    r->p = r->end;
    return xstrdup("");
  }
  strbuf b = {0};
  for (const char *q = r->p + 1; q < end; q++) {
    if (*q == '\\' && q + 1 < end && q[1] == '_')
      continue; /* \_ in a name */
    sb_putn(&b, q, 1);
  }
  r->p = end + 1;
  return sb_take(&b);
}

/* "_{\mathrm{X}}" after L, o, p, γ or ∥: the channel or operator X, or NULL. */
static char *subscript_name(reader *r) {
  const char *save = r->p;
  if (!take(r, "_{\\mathrm"))
    return NULL;
  char *name = group_text(r);
  if (!take(r, "}")) {
    free(name);
    r->p = save;
    return NULL;
  }
  return name;
}

/* \sum_{i=a}^{b} and \max_{i=a}^{b} (after the command): Σ_{i=a}^{b} and max_{i=a}^{b}. */
static void range_bounds(reader *r, bool is_max) {
  if (!take(r, "_")) {
    r->error = "\\sum without its bounds";
    return;
  }
  group(r, is_max ? "max_{" : "Σ_{", "}");
  if (!take(r, "^")) {
    r->error = is_max ? "\\max_{…} without its upper bound" : "\\sum without its upper bound";
    return;
  }
  group(r, "^{", "} ");
}

static void command(reader *r) {
  const char *start = r->p;
  while (r->p < r->end && isalpha((unsigned char)*r->p))
    r->p++;
  size_t n = (size_t)(r->p - start);
  if (n == 0 && r->p < r->end) { /* \_ \, \{ …; "\ " a space (\mathrm{let}\ x) */
    char c = *r->p++;
    if (c == '_' || c == '{' || c == '}' || c == ' ')
      sb_putn(&r->out, &c, 1);
    return;
  }
#define IS(word) (n == strlen(word) && strncmp(start, word, n) == 0)
  if (IS("sum") || (IS("max") && r->p < r->end && *r->p == '_')) {
    range_bounds(r, IS("max"));
    return;
  }
  static const struct { const char *name, *out; } simple[] = {
      {"left", ""},         {"right", ""},       {"cdot", "·"},      {"times", "×"},
      {"lceil", "⌈"},       {"rceil", "⌉"},      {"lfloor", "⌊"},    {"rfloor", "⌋"},
      {"min", "min"},       {"max", "max"},      {"tau", "τ"},       {"le", " ≤ "},
      {"ge", " ≥ "},        {"ne", " ≠ "},       {"wedge", " and "}, {"vee", " or "},
      {"neg", "not "},      {"bmod", " % "}};
  for (size_t i = 0; i < sizeof simple / sizeof *simple; i++)
    if (strlen(simple[i].name) == n && strncmp(start, simple[i].name, n) == 0) {
      sb_puts(&r->out, simple[i].out);
      return;
    }
  if (IS("frac")) {
    sb_puts(&r->out, "((");
    group(r, "", "");
    sb_puts(&r->out, ")/(");
    group(r, "", "");
    sb_puts(&r->out, "))");
  } else if (IS("log")) {
    if (take(r, "_2")) {
      sb_puts(&r->out, "log₂");
    } else if (r->p < r->end && *r->p == '_') {
      r->p++;
      group(r, "log((", "), ");
      skip_space(r);
      take(r, "\\left");
      take(r, "(");
      /* the argument runs to the matching \right) */
      int depth = 1;
      const char *q = r->p;
      for (; q < r->end && depth; q++)
        depth += (*q == '(') - (*q == ')');
      const char *close = q - 1;
      if (close - r->p >= 6 && strncmp(close - 6, "\\right", 6) == 0)
        close -= 6;
      translate(r, close);
      sb_puts(&r->out, ")");
      r->p = q;
    }
  } else if (IS("sqrt")) {
    group(r, "sqrt(", ")");
  } else if (IS("operatorname") || IS("mathit") || IS("mathrm")) {
    char *name = group_text(r);
    sb_puts(&r->out, name);
    free(name);
  } else if (IS("text")) {
    group(r, "", "");
  } else if (IS("parallel")) {
    char *ch = subscript_name(r);
    sb_puts(&r->out, "∥");
    if (ch) {
      sb_printf(&r->out, "[%s]", ch);
      free(ch);
    }
  } else if (IS("gamma")) {
    char *op = subscript_name(r);
    skip_space(r);
    if (op && take(r, "(")) {
      sb_printf(&r->out, "gamma(%s, ", op);
    } else {
      r->error = "\\gamma without its operator";
    }
    free(op);
  } else {
    r->error = "a LaTeX command tlop does not write";
  }
#undef IS
}

static void translate(reader *r, const char *end) {
  const char *outer = r->end;
  r->end = end;
  while (r->p < r->end && !r->error) {
    char c = *r->p;
    if (c == '\\') {
      r->p++;
      command(r);
    } else if (c == '^' && r->p + 1 < r->end && r->p[1] == '{') {
      r->p++;
      group(r, "^(", ")");
    } else if (isdigit((unsigned char)c)) {
      /* a number, and 1 \cdot 10^{-6} as 1e-6 */
      const char *s = r->p;
      while (r->p < r->end && (isdigit((unsigned char)*r->p) || *r->p == '.'))
        r->p++;
      sb_putn(&r->out, s, (size_t)(r->p - s));
      const char *save = r->p;
      if (take(r, " \\cdot 10^{")) {
        const char *e = r->p;
        while (r->p < r->end && *r->p != '}')
          r->p++;
        sb_printf(&r->out, "e%.*s", (int)(r->p - e), e);
        r->p++;
      } else {
        r->p = save;
      }
    } else if ((c == 'L' || c == 'o' || c == 'p') && (r->p + 1 < r->end && r->p[1] == '_') &&
               (r->p == r->begin || !(isalpha((unsigned char)r->p[-1]) || r->p[-1] == '_'))) {
      r->p++;
      char *ch = subscript_name(r);
      sb_putn(&r->out, &c, 1);
      if (ch) {
        sb_printf(&r->out, "[%s]", ch);
        free(ch);
      } else {
        sb_putn(&r->out, "_", 1);
        r->p++;
      }
    } else {
      sb_putn(&r->out, &c, 1);
      r->p++;
    }
  }
  r->end = outer;
}

char *latex_read(const char *tex, const char **error) {
  reader r = {tex, tex, tex + strlen(tex), {0}, NULL};
  translate(&r, r.end);
  *error = r.error;
  if (r.error) {
    free(r.out.s);
    return NULL;
  }
  return sb_take(&r.out);
}
