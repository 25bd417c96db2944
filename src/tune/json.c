/* json.c — a JSON reader for the tuning files (MPICH's CSEL, Open MPI's JSON rules): values
 * with their spans, so that a linter can point at file:line:col; objects keep their members
 * in order, which is CSEL's meaning. Numbers and literals are kept as tokens. */
#include "tune/tune.h"

#include <stdlib.h>
#include <string.h>

typedef struct json_parser {
  reader *r;
  arena *ar;
  uint32_t pos;
  bool comments;
} json_parser;

static json_value *json_parse_value(json_parser *p, int depth);

static const char *text(const json_parser *p) { return p->r->s.src->text; }

static span json_here(const json_parser *p) {
  return (span){p->r->s.src, p->pos, p->pos + (p->pos < p->r->s.src->len)};
}

/* Spaces, and with p->comments C comments as json-c skips them (MPICH's reader). */
static void json_skip_space(json_parser *p) {
  size_t n = p->r->s.src->len;
  for (;;) {
    while (p->pos < n && strchr(" \t\r\n", text(p)[p->pos]))
      p->pos++;
    if (!p->comments || p->pos + 1 >= n || text(p)[p->pos] != '/')
      return;
    const char *t = text(p);
    if (t[p->pos + 1] == '/')
      while (p->pos < n && t[p->pos] != '\n')
        p->pos++;
    else if (t[p->pos + 1] == '*') {
      const char *close = strstr(t + p->pos + 2, "*/");
      if (!close) {
        reader_fail(p->r, json_here(p), "a comment never closed: json-c rejects the file");
        p->pos = (uint32_t)n;
        return;
      }
      p->pos = (uint32_t)(close + 2 - t);
    } else
      return;
  }
}

static bool expect(json_parser *p, char c, const char *what) {
  json_skip_space(p);
  if (p->pos < p->r->s.src->len && text(p)[p->pos] == c) {
    p->pos++;
    return true;
  }
  reader_fail(p->r, json_here(p), "expected %s", what);
  return false;
}

/* Members of an object or elements of an array, from the heap into the arena. */
static void keep_members(json_parser *p, json_value *v) {
  json_member *kept = arena_alloc(p->ar, (v->n ? v->n : 1) * sizeof *kept);
  if (v->n)
    memcpy(kept, v->members, v->n * sizeof *kept);
  free(v->members);
  v->members = kept;
}

/* A string without escapes other than \" \\ \/: CSEL keys are plain ASCII. */
static char *parse_string(json_parser *p, span *at) {
  if (!expect(p, '"', "'\"'"))
    return NULL;
  strbuf b = {0};
  uint32_t lo = p->pos - 1;
  for (;;) {
    if (p->pos >= p->r->s.src->len || text(p)[p->pos] == '\n') {
      reader_fail(p->r, (span){p->r->s.src, lo, p->pos}, "unterminated string");
      free(b.s);
      return NULL;
    }
    char c = text(p)[p->pos++];
    if (c == '"')
      break;
    if (c == '\\') {
      char e = p->pos < p->r->s.src->len ? text(p)[p->pos++] : 0;
      if (e != '"' && e != '\\' && e != '/') {
        reader_fail(p->r, (span){p->r->s.src, p->pos - 2, p->pos},
                    "an escape the keys of a tuning file never need");
        free(b.s);
        return NULL;
      }
      c = e;
    }
    sb_putn(&b, &c, 1);
  }
  *at = (span){p->r->s.src, lo, p->pos};
  char *s = arena_strdup(p->ar, b.s ? b.s : "");
  free(b.s);
  return s;
}

static json_value *parse_array(json_parser *p, int depth) {
  json_value *v = arena_alloc(p->ar, sizeof *v);
  v->kind = JSON_ARRAY;
  v->at = json_here(p);
  p->pos++;
  size_t cap = 0;
  json_skip_space(p);
  bool empty = p->pos < p->r->s.src->len && text(p)[p->pos] == ']';
  while (!empty) {
    json_member m = {0};
    if (!(m.value = json_parse_value(p, depth + 1))) {
      free(v->members);
      return NULL;
    }
    v->members = grow_array(v->members, &cap, v->n + 1, sizeof *v->members);
    v->members[v->n++] = m;
    json_skip_space(p);
    if (p->pos < p->r->s.src->len && text(p)[p->pos] == ']')
      break;
    if (!expect(p, ',', "',' or ']'")) {
      free(v->members);
      return NULL;
    }
  }
  p->pos++;
  v->end = p->pos;
  keep_members(p, v);
  return v;
}

static json_value *parse_object(json_parser *p, int depth) {
  json_value *v = arena_alloc(p->ar, sizeof *v);
  v->kind = JSON_OBJECT;
  v->at = json_here(p);
  p->pos++;
  size_t cap = 0;
  json_skip_space(p);
  if (p->pos < p->r->s.src->len && text(p)[p->pos] == '}') {
    v->end = ++p->pos;
    return v;
  }
  for (;;) {
    json_member m = {0};
    if (!(m.key = parse_string(p, &m.key_at)) || !expect(p, ':', "':' after the key") ||
        !(m.value = json_parse_value(p, depth + 1))) {
      free(v->members);
      return NULL;
    }
    for (size_t i = 0; i < v->n; i++)
      if (!strcmp(v->members[i].key, m.key))
        reader_fail(p->r, m.key_at, "\"%s\" twice in one object: json-c keeps only one", m.key);
    v->members = grow_array(v->members, &cap, v->n + 1, sizeof *v->members);
    v->members[v->n++] = m;
    json_skip_space(p);
    if (p->pos < p->r->s.src->len && text(p)[p->pos] == '}') {
      v->end = ++p->pos;
      keep_members(p, v);
      return v;
    }
    if (!expect(p, ',', "',' or '}'")) {
      free(v->members);
      return NULL;
    }
  }
}

static json_value *json_parse_value(json_parser *p, int depth) {
  json_skip_space(p);
  if (depth > 64) {
    reader_fail(p->r, json_here(p), "nested more than 64 deep");
    return NULL;
  }
  if (p->pos < p->r->s.src->len && text(p)[p->pos] == '{')
    return parse_object(p, depth);
  if (p->pos < p->r->s.src->len && text(p)[p->pos] == '[')
    return parse_array(p, depth);
  /* CSEL has objects only; anything else is read as one token to point at */
  json_value *v = arena_alloc(p->ar, sizeof *v);
  v->kind = JSON_SCALAR;
  uint32_t lo = p->pos;
  if (p->pos < p->r->s.src->len && text(p)[p->pos] == '"') {
    if (!parse_string(p, &v->at))
      return NULL;
  } else {
    while (p->pos < p->r->s.src->len && !strchr(",}] \t\r\n", text(p)[p->pos]))
      p->pos++;
    if (p->pos == lo) {
      reader_fail(p->r, json_here(p), "expected a value");
      return NULL;
    }
    v->at = (span){p->r->s.src, lo, p->pos};
  }
  v->end = p->pos;
  return v;
}

json_value *json_parse_document(reader *r, bool comments) {
  json_parser p = {r, arena_new(), 0, comments};
  r->t->ar = p.ar;
  json_value *root = json_parse_value(&p, 0);
  if (!root)
    return NULL;
  json_skip_space(&p);
  if (p.pos < r->s.src->len) {
    reader_fail(r, json_here(&p), "text after the JSON value");
    return NULL;
  }
  return root;
}
