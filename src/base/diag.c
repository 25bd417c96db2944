/* diag.c — source texts and the one renderer of diagnostics: `file:line:col: error: msg`,
 * the source line, and carets under the span. Columns count UTF-8 characters. The result
 * goes to the context's handler; the library itself never prints. */
#include "base/base.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Gives s its base, one past the last source's end (offset 0 is no location, and a span
 * may end at its source's end). Beyond 4 GiB of sources in one context, a source is
 * left outside: its syntax trees carry no locations. */
static void place_in_offsets(tlop_ctx *ctx, source *s) {
  uint32_t base = ctx->offsets_end ? ctx->offsets_end : 1;
  if (s->len >= UINT32_MAX - base)
    return;
  s->base = base;
  ctx->offsets_end = base + (uint32_t)s->len + 1;
  VEC_PUSH(ctx->spaced, ctx->nspaced, ctx->spaced_cap, (const source *)s);
}

source *source_new(tlop_ctx *ctx, const char *path, const char *text, size_t len) {
  source *s = arena_alloc(ctx->ar, sizeof *s);
  s->path = arena_strdup(ctx->ar, path);
  s->text = text;
  s->len = len;
  size_t n = 1;
  for (size_t i = 0; i < len; i++)
    n += text[i] == '\n';
  s->lines = arena_alloc(ctx->ar, n * sizeof *s->lines);
  s->lines[0] = 0;
  s->nlines = 1;
  for (size_t i = 0; i < len; i++)
    if (text[i] == '\n')
      s->lines[s->nlines++] = (uint32_t)(i + 1);
  place_in_offsets(ctx, s);
  return s;
}

span span_of(const tlop_ctx *ctx, spot p) {
  if (!p.lo || !ctx->nspaced) /* the first base is 1 */
    return (span){0};
  size_t first = 0, last = ctx->nspaced; /* the last source whose base is at most p.lo */
  while (last - first > 1) {
    size_t mid = (first + last) / 2;
    if (ctx->spaced[mid]->base <= p.lo)
      first = mid;
    else
      last = mid;
  }
  const source *s = ctx->spaced[first];
  return (span){s, p.lo - s->base, p.hi - s->base};
}

size_t source_line_of(const source *s, uint32_t off) {
  size_t lo = 0, hi = s->nlines;
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (s->lines[mid] <= off)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

/* The length of the UTF-8 character at p (before end), or 0 when p starts none: a lone
 * continuation byte, a cut sequence, an overlong form, a surrogate or a code point beyond
 * U+10FFFF. */
static int char_len(const char *p, const char *end) {
  unsigned char c = (unsigned char)*p;
  int len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
  if (len == 0 || p + len > end)
    return 0;
  unsigned cp = len == 1 ? c : c & (0x7Fu >> len);
  for (int i = 1; i < len; i++) {
    if (((unsigned char)p[i] & 0xC0) != 0x80)
      return 0;
    cp = (cp << 6) | ((unsigned char)p[i] & 0x3Fu);
  }
  static const unsigned least[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < least[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return len;
}

/* Columns of [a, b): one per character, and one per byte that starts none (as echo shows
 * it). */
static int utf8_width(const char *a, const char *b) {
  int w = 0;
  for (; a < b; w++) {
    int len = char_len(a, b);
    a += len ? len : 1;
  }
  return w;
}

/* Copies source bytes for display: control bytes and broken UTF-8 become '?', so the
 * message stays one line of valid text (the caret counts one column for each). */
static void echo(strbuf *b, const char *p, const char *end) {
  while (p < end) {
    unsigned char c = (unsigned char)*p;
    int len = char_len(p, end);
    if (!len || (c < 0x20 && c != '\t') || c == 0x7F) {
      sb_putn(b, "?", 1);
      p++;
    } else {
      sb_putn(b, p, (size_t)len);
      p += len;
    }
  }
}

static const char *severity_word(tlop_severity sev) {
  return sev == TLOP_ERROR ? "error" : sev == TLOP_WARNING ? "warning" : "note";
}

static void deliver(tlop_ctx *ctx, tlop_severity sev, const char *file, int line, int col,
                    const char *msg, const char *text) {
  if (sev == TLOP_ERROR)
    ctx->errors++;
  if (!ctx->diag_fn)
    return;
  tlop_diag d = {sev, file, line, col, msg, text};
  ctx->diag_fn(ctx->diag_user, &d);
}

/* Longest name quoted whole in a message: a 1 MB identifier or import path is cut. */
#define QUOTE_MAX 80

/* m with each quoted part longer than QUOTE_MAX bytes cut: 'aaaa…' (1000000 characters).
 * A quote after a letter or digit is an apostrophe (the table's), not an opening one. */
static char *shorten_quotes(char *m) {
  strbuf b = {0};
  const char *p = m;
  bool cut = false;
  for (const char *q = m; (q = strchr(q, '\'')) != NULL;) {
    if (q > m && isalnum((unsigned char)q[-1])) {
      q++;
      continue;
    }
    const char *end = strchr(q + 1, '\'');
    if (!end)
      break;
    if (end - q - 1 > QUOTE_MAX) {
      const char *keep = q + 1 + QUOTE_MAX;
      while (keep > q + 1 && ((unsigned char)*keep & 0xC0) == 0x80)
        keep--; /* never inside a UTF-8 character */
      sb_putn(&b, p, (size_t)(keep - p));
      sb_printf(&b, "…' (%d characters)", utf8_width(q + 1, end));
      cut = true;
    } else {
      sb_putn(&b, p, (size_t)(end + 1 - p));
    }
    p = q = end + 1;
  }
  if (!cut) {
    free(b.s);
    return m;
  }
  sb_puts(&b, p);
  free(m);
  return sb_take(&b);
}

void diag_emit(tlop_ctx *ctx, tlop_severity sev, span at, const char *fmt, va_list ap) {
  if (sev == TLOP_WARNING && ctx->strict)
    sev = TLOP_ERROR;
  strbuf msg = {0}, text = {0};
  sb_vprintf(&msg, fmt, ap);
  char *m = shorten_quotes(sb_take(&msg));
  const source *s = at.src;
  if (!s) {
    sb_printf(&text, "%s: %s\n", severity_word(sev), m);
    char *t = sb_take(&text);
    deliver(ctx, sev, NULL, 0, 0, m, t);
    free(t);
    free(m);
    return;
  }
  uint32_t lo = at.lo > s->len ? (uint32_t)s->len : at.lo;
  uint32_t hi = at.hi < lo ? lo : at.hi > s->len ? (uint32_t)s->len : at.hi;
  size_t li = source_line_of(s, lo);
  const char *line = s->text + s->lines[li];
  const char *eol = memchr(line, '\n', (size_t)(s->text + s->len - line));
  if (!eol)
    eol = s->text + s->len;
  if (eol > line && eol[-1] == '\r')
    eol--;
  int col = utf8_width(line, s->text + lo) + 1;
  sb_printf(&text, "%s:%zu:%d: %s: %s\n", s->path, li + 1, col, severity_word(sev), m);
  /* Very long lines (minified or hostile input) are cut around the caret. */
  const char *from = line, *to = eol;
  if (to - from > 200) {
    from = s->text + lo - (s->text + lo - line > 60 ? 60 : s->text + lo - line);
    while (from > line && ((unsigned char)*from & 0xC0) == 0x80)
      from--;
    to = from + 200 < eol ? from + 200 : eol;
    while (to < eol && ((unsigned char)*to & 0xC0) == 0x80)
      to++;
  }
  sb_puts(&text, "  ");
  echo(&text, from, to);
  sb_puts(&text, "\n  ");
  for (const char *p = from; p < s->text + lo && p < to;) {
    int len = char_len(p, to);
    sb_putn(&text, *p == '\t' ? "\t" : " ", 1);
    p += len ? len : 1;
  }
  const char *end = s->text + hi < to ? s->text + hi : to;
  int carets = utf8_width(s->text + lo, end);
  sb_puts(&text, "^");
  for (int i = 1; i < carets; i++)
    sb_puts(&text, "~");
  sb_puts(&text, "\n");
  char *t = sb_take(&text);
  deliver(ctx, sev, s->path, (int)li + 1, col, m, t);
  free(t);
  free(m);
}

#define DIAG_FN(fname, sev)                                                     \
  void fname(tlop_ctx *ctx, span at, const char *fmt, ...) {                    \
    va_list ap;                                                                 \
    va_start(ap, fmt);                                                          \
    diag_emit(ctx, sev, at, fmt, ap);                                           \
    va_end(ap);                                                                 \
  }
DIAG_FN(diag_error, TLOP_ERROR)
DIAG_FN(diag_warning, TLOP_WARNING)
DIAG_FN(diag_note, TLOP_NOTE)

void diag_error_line(tlop_ctx *ctx, const char *file, int line, const char *fmt, ...) {
  strbuf msg = {0}, text = {0};
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(&msg, fmt, ap);
  va_end(ap);
  char *m = sb_take(&msg);
  if (line > 0)
    sb_printf(&text, "%s:%d: error: %s\n", file, line, m);
  else
    sb_printf(&text, "%s: error: %s\n", file, m);
  char *t = sb_take(&text);
  deliver(ctx, TLOP_ERROR, file, line, 0, m, t);
  free(t);
  free(m);
}
