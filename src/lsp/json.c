/* json.c — JSON for JSON-RPC: a reader into an arena (strings decoded to UTF-8) and a
 * writer of strings and of values read. A message is small and trusted no further than
 * its syntax: any error gives NULL, and the server answers "parse error". */
#include "lsp/lsp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_DEPTH 64

typedef struct reader_state {
  arena *ar;
  const char *s;
  size_t pos, len;
} reader_state;

static json *read_value(reader_state *r, int depth);

static void skip_blanks(reader_state *r) {
  while (r->pos < r->len && strchr(" \t\r\n", r->s[r->pos]) && r->s[r->pos])
    r->pos++;
}

static bool take(reader_state *r, char c) {
  skip_blanks(r);
  if (r->pos < r->len && r->s[r->pos] == c) {
    r->pos++;
    return true;
  }
  return false;
}

static int hex4(const char *s) {
  int v = 0;
  for (int i = 0; i < 4; i++) {
    char c = s[i];
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
          : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0)
      return -1;
    v = v * 16 + d;
  }
  return v;
}

static void put_utf8(strbuf *b, unsigned cp) {
  char u[4];
  size_t n;
  if (cp < 0x80)
    u[0] = (char)cp, n = 1;
  else if (cp < 0x800)
    u[0] = (char)(0xC0 | cp >> 6), u[1] = (char)(0x80 | (cp & 0x3F)), n = 2;
  else if (cp < 0x10000)
    u[0] = (char)(0xE0 | cp >> 12), u[1] = (char)(0x80 | ((cp >> 6) & 0x3F)),
    u[2] = (char)(0x80 | (cp & 0x3F)), n = 3;
  else
    u[0] = (char)(0xF0 | cp >> 18), u[1] = (char)(0x80 | ((cp >> 12) & 0x3F)),
    u[2] = (char)(0x80 | ((cp >> 6) & 0x3F)), u[3] = (char)(0x80 | (cp & 0x3F)), n = 4;
  sb_putn(b, u, n);
}

/* A string's text after its opening quote; NULL when malformed. */
static const char *read_string(reader_state *r) {
  strbuf b = {0};
  while (r->pos < r->len) {
    char c = r->s[r->pos++];
    if (c == '"') {
      char *s = arena_strdup(r->ar, b.s ? b.s : "");
      free(b.s);
      return s;
    }
    if ((unsigned char)c < 0x20)
      break;
    if (c != '\\') {
      sb_putn(&b, &c, 1);
      continue;
    }
    if (r->pos >= r->len)
      break;
    c = r->s[r->pos++];
    const char *plain = strchr("\"\\/bfnrt", c);
    if (plain && c) {
      sb_putn(&b, &"\"\\/\b\f\n\r\t"[plain - "\"\\/bfnrt"], 1);
      continue;
    }
    if (c != 'u' || r->pos + 4 > r->len)
      break;
    int cp = hex4(r->s + r->pos);
    r->pos += 4;
    if (cp >= 0xD800 && cp < 0xDC00 && r->pos + 6 <= r->len && r->s[r->pos] == '\\' &&
        r->s[r->pos + 1] == 'u') {
      int low = hex4(r->s + r->pos + 2);
      if (low >= 0xDC00 && low < 0xE000) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        r->pos += 6;
      }
    }
    if (cp <= 0) /* malformed, or a NUL the C string could not hold */
      break;
    put_utf8(&b, (unsigned)cp);
  }
  free(b.s);
  return NULL;
}

static json *new_value(reader_state *r, json_type t) {
  json *v = arena_alloc(r->ar, sizeof *v);
  v->type = t;
  return v;
}

/* Elements (or members, with keys) up to `close`. */
static json *read_items(reader_state *r, json_type t, char close, int depth) {
  json *v = new_value(r, t);
  json **items = NULL;
  size_t cap = 0;
  bool ok = take(r, close);
  while (!ok) {
    const char *key = NULL;
    if (t == JSON_OBJECT) {
      if (!take(r, '"') || !(key = read_string(r)) || !take(r, ':'))
        break;
    }
    json *item = read_value(r, depth + 1);
    if (!item)
      break;
    item->key = key;
    VEC_PUSH(items, v->n, cap, item);
    if (take(r, close))
      ok = true;
    else if (!take(r, ','))
      break;
  }
  if (ok && v->n) {
    v->items = arena_alloc(r->ar, v->n * sizeof *items);
    memcpy(v->items, items, v->n * sizeof *items);
  }
  free(items);
  return ok ? v : NULL;
}

static bool take_word(reader_state *r, const char *w) {
  size_t n = strlen(w);
  if (r->len - r->pos < n || strncmp(r->s + r->pos, w, n) != 0)
    return false;
  r->pos += n;
  return true;
}

static json *read_value(reader_state *r, int depth) {
  if (depth > JSON_MAX_DEPTH)
    return NULL;
  skip_blanks(r);
  if (r->pos >= r->len)
    return NULL;
  char c = r->s[r->pos];
  if (c == '{' || c == '[') {
    r->pos++;
    return read_items(r, c == '{' ? JSON_OBJECT : JSON_ARRAY, c == '{' ? '}' : ']', depth);
  }
  if (c == '"') {
    r->pos++;
    const char *s = read_string(r);
    json *v = s ? new_value(r, JSON_STRING) : NULL;
    if (v)
      v->str = s;
    return v;
  }
  bool truth = take_word(r, "true");
  if (truth || take_word(r, "false")) {
    json *v = new_value(r, JSON_BOOL);
    v->number = truth;
    return v;
  }
  if (take_word(r, "null"))
    return new_value(r, JSON_NULL);
  if (c == '-' || (c >= '0' && c <= '9')) {
    char buf[64];
    size_t n = strspn(r->s + r->pos, "+-0123456789.eE");
    if (n >= sizeof buf || n > r->len - r->pos)
      return NULL;
    memcpy(buf, r->s + r->pos, n);
    buf[n] = 0;
    char *end;
    double d = strtod(buf, &end);
    if (*end || !isfinite(d))
      return NULL;
    r->pos += n;
    json *v = new_value(r, JSON_NUMBER);
    v->number = d;
    return v;
  }
  return NULL;
}

json *json_read(arena *ar, const char *text, size_t len) {
  reader_state r = {ar, text, 0, len};
  json *v = read_value(&r, 0);
  skip_blanks(&r);
  return v && r.pos == len ? v : NULL;
}

const json *json_get(const json *v, const char *path) {
  while (v && *path) {
    size_t n = strcspn(path, ".");
    const json *found = NULL;
    for (size_t i = 0; v->type == JSON_OBJECT && i < v->n && !found; i++)
      if (strlen(v->items[i]->key) == n && strncmp(v->items[i]->key, path, n) == 0)
        found = v->items[i];
    v = found;
    path += n + (path[n] == '.');
  }
  return v;
}

const char *json_str(const json *v, const char *path) {
  const json *s = json_get(v, path);
  return s && s->type == JSON_STRING ? s->str : NULL;
}

double json_num(const json *v, const char *path, double dflt) {
  const json *s = json_get(v, path);
  return s && s->type == JSON_NUMBER ? s->number : dflt;
}

void json_put_string(strbuf *b, const char *s) {
  sb_puts(b, "\"");
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      sb_printf(b, "\\%c", c);
    else if (c == '\n')
      sb_puts(b, "\\n");
    else if (c == '\t')
      sb_puts(b, "\\t");
    else if (c < 0x20)
      sb_printf(b, "\\u%04x", c);
    else
      sb_putn(b, s, 1);
  }
  sb_puts(b, "\"");
}

void json_put(strbuf *b, const json *v) {
  char num[32];
  switch (v->type) {
  case JSON_NULL: sb_puts(b, "null"); break;
  case JSON_BOOL: sb_puts(b, v->number ? "true" : "false"); break;
  case JSON_NUMBER: fmt_double(num, sizeof num, v->number); sb_puts(b, num); break;
  case JSON_STRING: json_put_string(b, v->str); break;
  case JSON_ARRAY:
  case JSON_OBJECT:
    sb_puts(b, v->type == JSON_ARRAY ? "[" : "{");
    for (size_t i = 0; i < v->n; i++) {
      if (i)
        sb_puts(b, ",");
      if (v->type == JSON_OBJECT) {
        json_put_string(b, v->items[i]->key);
        sb_puts(b, ":");
      }
      json_put(b, v->items[i]);
    }
    sb_puts(b, v->type == JSON_ARRAY ? "]" : "}");
    break;
  }
}
