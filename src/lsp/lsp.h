/* lsp.h — editor services over the library: the formatter (format.c), a JSON reader and
 * writer for JSON-RPC (json.c), a model's names and where they are used (index.c), and the
 * language server's requests (server.c). Depends on api. */
#ifndef TLOP_LSP_H
#define TLOP_LSP_H

#include "api/api.h"
#include "tlop_lsp.h"

/* ======== json.c: JSON values, read and written ======== */

typedef enum { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } json_type;

typedef struct json json;
struct json {
  json_type type;
  double number;     /* also a bool's 0 or 1 */
  const char *str;   /* a string's UTF-8 (NUL-terminated; it holds no NUL) */
  const char *key;   /* a member's name inside an object */
  json **items;      /* array elements or object members, in order */
  size_t n;
};

/* The value of text, or NULL when it is not JSON (or nests deeper than 64). */
json *json_read(arena *ar, const char *text, size_t len);
/* A member of an object (NULL when v is not an object or lacks it); a path "a.b.c". */
const json *json_get(const json *v, const char *path);
/* A string member's text, or NULL. */
const char *json_str(const json *v, const char *path);
/* A number member, or dflt. */
double json_num(const json *v, const char *path, double dflt);
/* Appends s as a JSON string, quoted and escaped. */
void json_put_string(strbuf *b, const char *s);
/* Appends v as JSON (a request's id, given back as it came). */
void json_put(strbuf *b, const json *v);

/* ======== format.c: the canonical layout of .tlop source ======== */

/* Lays out text (which must parse: its errors go to ctx) into *out, malloc'd. */
tlop_status format_source(tlop_ctx *ctx, const char *name, const char *text, size_t len,
                          tlop_ops ops, char **out);

/* ======== index.c: the names of a model, where each is defined and used ======== */

typedef struct occurrence {
  span use;           /* the name where it is written (a definition: its own name) */
  span def;           /* the name where it is defined */
  const ast_decl *decl; /* the declaration it names, or NULL (an argument, let, index) */
  const char *what;   /* "param", "fn", "algorithm", "argument", "let", "index", … */
} occurrence;

typedef struct model_index {
  occurrence *occ;
  size_t n, cap;
} model_index;

/* Every name of every module of the model, resolved. */
void index_model(tlop_model *model, model_index *ix);
void index_free(model_index *ix);
/* The occurrence at byte offset `at` of src, or NULL. */
const occurrence *index_at(const model_index *ix, const source *src, uint32_t at);
/* Whether two spans are one place. */
bool span_same(span a, span b);

#endif
