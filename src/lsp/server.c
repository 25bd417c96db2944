/* server.c — the language server: documents, their analysis, and the requests of the
 * Language Server Protocol over JSON-RPC 2.0. Each change of a document loads and checks it
 * again in a context of its own (the library's diagnostics become the document's); the
 * last analysis answers hover, definition, references, completion and symbols. Positions
 * are LSP's: 0-based lines, columns in UTF-16 code units. */
#include "lsp/lsp.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* JSON-RPC's error codes. */
enum { RPC_PARSE_ERROR = -32700, RPC_INVALID_REQUEST = -32600, RPC_NO_METHOD = -32601 };
/* LSP's enumerations used here. */
enum { SEV_ERROR = 1, SEV_WARNING = 2, SEV_INFO = 3 };
enum { SYM_MODULE = 2, SYM_METHOD = 6, SYM_FIELD = 8, SYM_FUNCTION = 12, SYM_CONSTANT = 14,
       SYM_BOOLEAN = 17 };
enum { ITEM_FUNCTION = 3, ITEM_FIELD = 5, ITEM_VARIABLE = 6, ITEM_MODULE = 9, ITEM_KEYWORD = 14,
       ITEM_FILE = 17, ITEM_CONSTANT = 21, ITEM_OPERATOR = 24 };
/* How long `prove` may think about one claim when a document is saved. */
#define PROVE_SECONDS 2.0

typedef struct reported {
  tlop_severity severity;
  char *file, *message;
  int line, col, width; /* 1-based, in UTF-8 characters; width of the caret's underline */
} reported;

typedef struct document {
  char *uri, *path, *text;
  size_t len;
  /* the last analysis: its context, the document's source in it, the model (NULL when
   * the text does not parse) and its names */
  tlop_ctx *ctx;
  const source *src;
  tlop_model *model;
  bool checked; /* the model passed the checker: later stages may take it */
  model_index ix;
  reported *diags;
  size_t ndiags, diags_cap;
} document;

struct tlop_lsp {
  document **docs;
  size_t ndocs, docs_cap;
  bool shut_down;
  char *stdlib;
  char **include;
  size_t ninclude, include_cap;
  tlop_lsp_send_fn send;
  void *user;
};

/* ---- positions: byte offsets of a text ↔ LSP's (line, UTF-16 column) ---- */

static size_t utf8_length(unsigned char c) { return c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4; }

static void put_position(strbuf *b, const source *s, uint32_t off) {
  size_t lo = source_line_of(s, off);
  int units = 0;
  for (uint32_t i = s->lines[lo]; i < off && i < s->len;) {
    size_t n = utf8_length((unsigned char)s->text[i]);
    units += n == 4 ? 2 : 1;
    i += (uint32_t)n;
  }
  sb_printf(b, "{\"line\":%zu,\"character\":%d}", lo, units);
}

static void put_range(strbuf *b, span sp) {
  sb_puts(b, "{\"start\":");
  put_position(b, sp.src, sp.lo);
  sb_puts(b, ",\"end\":");
  put_position(b, sp.src, sp.hi);
  sb_puts(b, "}");
}

/* The byte offset of an LSP position in s (clamped to its line). */
static uint32_t offset_of(const source *s, const json *pos) {
  double line = json_num(pos, "line", 0), col = json_num(pos, "character", 0);
  if (line < 0 || s->nlines == 0)
    return 0;
  if (line >= (double)s->nlines)
    return (uint32_t)s->len;
  uint32_t i = s->lines[(size_t)line];
  for (double units = 0; units < col && i < s->len && s->text[i] != '\n';) {
    size_t n = utf8_length((unsigned char)s->text[i]);
    units += n == 4 ? 2 : 1;
    i += (uint32_t)n;
  }
  return i;
}

/* The span of `width` characters from 1-based (line, col in characters) of s. */
static span span_at(const source *s, int line, int col, int width) {
  if (line < 1 || (size_t)line > s->nlines)
    return (span){s, 0, 0};
  uint32_t i = s->lines[line - 1];
  for (int c = 1; c < col && i < s->len && s->text[i] != '\n'; c++)
    i += (uint32_t)utf8_length((unsigned char)s->text[i]);
  uint32_t end = i;
  for (int c = 0; c < width && end < s->len && s->text[end] != '\n'; c++)
    end += (uint32_t)utf8_length((unsigned char)s->text[end]);
  return (span){s, i, end};
}

/* ---- URIs and paths ---- */

static char *path_of_uri(const char *uri) {
  if (strncmp(uri, "file://", 7) == 0)
    uri += 7;
  strbuf b = {0};
  for (const char *p = uri; *p; p++) {
    unsigned v;
    if (*p == '%' && sscanf(p + 1, "%2x", &v) == 1 && v) {
      char c = (char)v;
      sb_putn(&b, &c, 1);
      p += 2;
    } else {
      sb_putn(&b, p, 1);
    }
  }
  return sb_take(&b);
}

/* The URI of a module's file: a built-in stdlib file is the one of the stdlib directory. */
static void put_uri_of(tlop_lsp *s, strbuf *b, const char *path) {
  strbuf u = {0};
  const char *builtin = "<stdlib>/";
  if (strncmp(path, builtin, strlen(builtin)) == 0 && s->stdlib)
    sb_printf(&u, "%s/%s", s->stdlib, path + strlen(builtin));
  else if (path[0] != '/') {
    char *real = realpath(path, NULL);
    sb_puts(&u, real ? real : path);
    free(real);
  } else
    sb_puts(&u, path);
  strbuf enc = {0};
  sb_puts(&enc, "file://");
  for (const char *p = u.s; *p; p++)
    if (strchr(" %#?\"", *p))
      sb_printf(&enc, "%%%02X", (unsigned char)*p);
    else
      sb_putn(&enc, p, 1);
  json_put_string(b, enc.s);
  free(u.s);
  free(enc.s);
}

/* ---- messages out ---- */

static void send_message(tlop_lsp *s, strbuf *b) {
  s->send(s->user, b->s ? b->s : "", b->len);
  free(b->s);
  *b = (strbuf){0};
}

/* Starts a response to `id`: the caller writes the result, then "}". */
static void begin_result(strbuf *b, const json *id) {
  sb_puts(b, "{\"jsonrpc\":\"2.0\",\"id\":");
  if (id)
    json_put(b, id);
  else
    sb_puts(b, "null");
  sb_puts(b, ",\"result\":");
}

static void send_error(tlop_lsp *s, const json *id, int code, const char *message) {
  strbuf b = {0};
  sb_puts(&b, "{\"jsonrpc\":\"2.0\",\"id\":");
  if (id)
    json_put(&b, id);
  else
    sb_puts(&b, "null");
  sb_printf(&b, ",\"error\":{\"code\":%d,\"message\":", code);
  json_put_string(&b, message);
  sb_puts(&b, "}}");
  send_message(s, &b);
}

/* ---- documents and their analysis ---- */

static document *find_document(tlop_lsp *s, const char *uri) {
  for (size_t i = 0; uri && i < s->ndocs; i++)
    if (strcmp(s->docs[i]->uri, uri) == 0)
      return s->docs[i];
  return NULL;
}

static void forget_analysis(document *d) {
  for (size_t i = 0; i < d->ndiags; i++) {
    free(d->diags[i].file);
    free(d->diags[i].message);
  }
  d->ndiags = 0;
  index_free(&d->ix);
  tlop_ctx_free(d->ctx);
  d->ctx = NULL;
  d->src = NULL;
  d->model = NULL;
  d->checked = false;
}

/* The width of a diagnostic's caret underline (^~~~), in characters. */
static int caret_width(const char *text) {
  const char *caret = strstr(text, "\n");
  while (caret && (caret = strchr(caret + 1, '^'))) {
    if (caret[-1] == ' ' || caret[-1] == '\n' || caret[-1] == '|') {
      int w = 1;
      for (const char *p = caret + 1; *p == '~'; p++)
        w++;
      return w;
    }
  }
  return 1;
}

static void collect_diag(void *user, const tlop_diag *d) {
  document *doc = user;
  reported r = {d->severity, d->file ? xstrdup(d->file) : NULL, xstrdup(d->message), d->line,
                d->col, caret_width(d->text)};
  VEC_PUSH(doc->diags, doc->ndiags, doc->diags_cap, r);
}

/* A context for the document's analysis, as the server is configured. */
static tlop_ctx *new_context(tlop_lsp *s, document *d) {
  tlop_ctx *ctx = tlop_ctx_new();
  tlop_ctx_set_diag(ctx, collect_diag, d);
  if (s->stdlib)
    tlop_ctx_set_stdlib_dir(ctx, s->stdlib);
  for (size_t i = 0; i < s->ninclude; i++)
    tlop_ctx_add_path(ctx, s->include[i]);
  return ctx;
}

static void warn_unused(document *d) {
  for (size_t i = 0; i < d->ix.n; i++) {
    const occurrence *def = &d->ix.occ[i];
    bool internal_fn = def->decl && def->decl->kind == D_FN && def->decl->name->name[0] == '_';
    if (def->use.src != d->src || !span_same(def->use, def->def) ||
        !(internal_fn || strcmp(def->what, "let") == 0))
      continue;
    bool used = false;
    for (size_t j = 0; j < d->ix.n && !used; j++)
      used = span_same(d->ix.occ[j].def, def->def) && !span_same(d->ix.occ[j].use, def->def);
    if (!used)
      diag_warning(d->ctx, def->use, "%s '%.*s' is never used", def->what,
                   (int)(def->use.hi - def->use.lo), d->src->text + def->use.lo);
  }
}

/* The claims of the document, proved: a refuted or undecided one is reported at it. */
static void prove_claims(document *d) {
  size_t n = tlop_model_claims(d->model), i = 0;
  for (const ast_decl *c = d->model->root->decls; c && i < n; c = c->next) {
    if (c->kind != D_CLAIM)
      continue;
    tlop_prove_opts opts = {.timeout = PROVE_SECONDS, .format = TLOP_FORMAT_UNICODE};
    tlop_proof *proof = NULL;
    if (tlop_prove_claim(d->model, i++, &opts, &proof) == TLOP_OK) {
      tlop_verdict v = tlop_proof_verdict(proof);
      if (v == TLOP_REFUTED)
        diag_error(d->ctx, c->sp, "the claim is false: %s", tlop_proof_text(proof));
      else if (v == TLOP_UNKNOWN)
        diag_warning(d->ctx, c->sp, "prove cannot decide this claim: %s", tlop_proof_text(proof));
    }
    tlop_proof_free(proof);
  }
}

static void publish(tlop_lsp *s, document *d) {
  strbuf b = {0};
  sb_puts(&b, "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/publishDiagnostics\",\"params\":{"
              "\"uri\":");
  json_put_string(&b, d->uri);
  sb_puts(&b, ",\"diagnostics\":[");
  for (size_t i = 0; i < d->ndiags; i++) {
    const reported *r = &d->diags[i];
    bool here = r->file && strcmp(r->file, d->path) == 0;
    strbuf msg = {0};
    if (!here && r->file) /* in an import: said at the top, with its place */
      sb_printf(&msg, "%s:%d:%d: ", r->file, r->line, r->col);
    sb_puts(&msg, r->message);
    sb_puts(&b, i ? ",{\"range\":" : "{\"range\":");
    put_range(&b, here ? span_at(d->src, r->line, r->col, r->width) : (span){d->src, 0, 0});
    sb_printf(&b, ",\"severity\":%d,\"source\":\"tlop\",\"message\":",
              r->severity == TLOP_ERROR ? SEV_ERROR : r->severity == TLOP_WARNING ? SEV_WARNING
                                                                                  : SEV_INFO);
    json_put_string(&b, msg.s ? msg.s : "");
    free(msg.s);
    if (strstr(r->message, "is never used"))
      sb_puts(&b, ",\"tags\":[1]");
    sb_puts(&b, "}");
  }
  sb_puts(&b, "]}}");
  send_message(s, &b);
}

/* Loads and checks the document again; with `prove`, decides its claims too. */
static void analyze(tlop_lsp *s, document *d, bool prove) {
  forget_analysis(d);
  d->ctx = new_context(s, d);
  module *root = load_module_text(d->ctx, d->path, d->text, d->len);
  d->src = root->src;
  tlop_model *model = NULL;
  tlop_status st = load_model(d->ctx, root, &model);
  /* a model whose check failed still has its names: the context keeps it */
  for (model_list *m = d->ctx->models; !model && st == TLOP_ERR_CHECK && m; m = m->next)
    if (m->model->root == root)
      model = m->model;
  d->model = model;
  d->checked = st == TLOP_OK;
  if (model) {
    index_model(model, &d->ix);
    warn_unused(d);
    if (prove && d->checked)
      prove_claims(d);
  }
  publish(s, d);
}

static document *open_document(tlop_lsp *s, const char *uri, const char *text) {
  document *d = xcalloc(1, sizeof *d);
  d->uri = xstrdup(uri);
  d->path = path_of_uri(uri);
  d->text = xstrdup(text);
  d->len = strlen(text);
  VEC_PUSH(s->docs, s->ndocs, s->docs_cap, d);
  return d;
}

static void close_document(tlop_lsp *s, document *d) {
  forget_analysis(d);
  publish(s, d);
  for (size_t i = 0; i < s->ndocs; i++)
    if (s->docs[i] == d)
      s->docs[i] = s->docs[--s->ndocs];
  free(d->uri);
  free(d->path);
  free(d->text);
  free(d->diags);
  free(d);
}

/* A change: the whole text, or a range of it replaced (incremental sync). */
static void apply_change(document *d, const json *change) {
  const char *text = json_str(change, "text");
  const json *range = json_get(change, "range");
  if (!text)
    return;
  if (!range || !d->src) {
    free(d->text);
    d->text = xstrdup(text);
    d->len = strlen(text);
    return;
  }
  uint32_t lo = offset_of(d->src, json_get(range, "start"));
  uint32_t hi = offset_of(d->src, json_get(range, "end"));
  if (hi < lo)
    hi = lo;
  strbuf b = {0};
  sb_putn(&b, d->text, lo);
  sb_puts(&b, text);
  sb_puts(&b, d->text + hi);
  free(d->text);
  d->len = b.len;
  d->text = sb_take(&b);
}

/* The document a request names, analysed (its source known), or NULL. */
static document *request_document(tlop_lsp *s, const json *params) {
  document *d = find_document(s, json_str(params, "textDocument.uri"));
  return d && d->src ? d : NULL;
}

/* ---- hover ---- */

/* `# tlop: set m=1MiB, P=16` in the document: values for hover's costs. */
static tlop_env *directive_env(document *d) {
  tlop_env *env = tlop_env_new(d->ctx);
  for (const char *p = d->text; (p = strstr(p, "tlop: set ")) != NULL;) {
    p += strlen("tlop: set ");
    size_t n = strcspn(p, "\n");
    char *list = xstrndup(p, n);
    for (char *save = NULL, *item = strtok_r(list, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
      char *eq = strchr(item, '=');
      if (!eq)
        continue;
      *eq = 0;
      char *name = item + strspn(item, " \t");
      name[strcspn(name, " \t")] = 0;
      if (tlop_env_set_text(env, name, eq + 1) != TLOP_OK)
        tlop_env_set_op(env, name, eq + 1 + strspn(eq + 1, " \t"));
    }
    free(list);
    p += n;
  }
  return env;
}

/* The last message the library reported since `from`, or NULL. */
static const char *said_since(const document *d, size_t from) {
  return d->ndiags > from ? d->diags[d->ndiags - 1].message : NULL;
}

/* An algorithm's or fn's normal form and its cost at the directive's values. */
static void hover_cost(document *d, const ast_decl *fn, strbuf *md) {
  size_t mark = d->ndiags;
  tlop_env *env = directive_env(d);
  tlop_platform *pf = NULL;
  tlop_expr *e = NULL, *simple = NULL;
  tlop_status st = tlop_platform_open(d->model, NULL, &pf);
  if (fn->kind == D_ALGORITHM) {
    st = st ? st : tlop_algorithm_expr(d->model, fn->name->name, NULL, &e);
  } else {
    strbuf call = {0};
    sb_printf(&call, "%s(", fn->name->name);
    for (int i = 0; i < fn->nargs; i++)
      sb_printf(&call, "%s%s", i ? ", " : "", fn->args[i]->name->name);
    sb_puts(&call, ")");
    st = st ? st : tlop_expr_parse_symbolic(d->model, call.s, &e);
    free(call.s);
  }
  tlop_simp_opts opts = {.platform = pf};
  if (!st && tlop_simplify(e, &opts, &simple) == TLOP_OK) {
    char *text = tlop_expr_print(d->ctx, simple, TLOP_FORMAT_UNICODE);
    if (text)
      sb_printf(md, "\n\n**normal form**\n```\n%s\n```", text);
    free(text);
  }
  double v;
  if (!st && tlop_eval(e, pf, env, &v) == TLOP_OK) {
    char buf[64];
    tlop_format_time(buf, sizeof buf, v);
    sb_printf(md, "\n\n**cost** on `%s`: %s", tlop_platform_name(pf), buf);
  } else if (pf) {
    const char *why = said_since(d, mark);
    sb_printf(md, "\n\n**cost** on `%s`: not known here%s%s (give values with a comment "
              "`# tlop: set m=1MiB, P=16`)", tlop_platform_name(pf), why ? ": " : "",
              why ? why : "");
  }
  /* what the library said while pricing is hover's, not the document's diagnostics */
  while (d->ndiags > mark) {
    d->ndiags--;
    free(d->diags[d->ndiags].file);
    free(d->diags[d->ndiags].message);
  }
  tlop_platform_free(pf);
  tlop_env_free(env);
}

/* The name under a request's position, its document in *doc and the answer begun in b;
 * NULL, with `null` answered, when there is none. */
static const occurrence *request_occurrence(tlop_lsp *s, const json *id, const json *params,
                                            document **doc, strbuf *b) {
  document *d = *doc = request_document(s, params);
  const occurrence *o =
      d ? index_at(&d->ix, d->src, offset_of(d->src, json_get(params, "position"))) : NULL;
  begin_result(b, id);
  if (!o) {
    sb_puts(b, "null}");
    send_message(s, b);
  }
  return o;
}

static void hover(tlop_lsp *s, const json *id, const json *params) {
  document *d;
  strbuf b = {0};
  const occurrence *o = request_occurrence(s, id, params, &d, &b);
  if (!o)
    return;
  strbuf md = {0};
  const ast_decl *decl = o->decl;
  span shown = o->def;
  if (decl && (decl->kind == D_FN || decl->kind == D_ALGORITHM) && decl->body)
    shown = (span){decl->sp.src, decl->sp.lo, ast_span(d->ctx, decl->body).lo};
  else if (decl)
    shown = decl->sp;
  /* the definition's text up to its body: `fn T(m: size) =`, `param S: size = 8 KiB;` */
  uint32_t hi = shown.hi;
  while (hi > shown.lo && strchr(" \t\n=", shown.src->text[hi - 1]))
    hi--;
  sb_printf(&md, "**%s** `%.*s`", o->what, (int)(o->use.hi - o->use.lo),
            o->use.src->text + o->use.lo);
  if (decl && decl->kind == D_PARAM && d->checked) {
    char k[64];
    sb_printf(&md, ": %s", kind_name(chk_param_kind(d->model, (ast_decl *)decl), k, sizeof k));
  } else if (decl && decl->kind == D_FN && d->checked) {
    char k[64];
    sb_printf(&md, " → %s", kind_name(chk_fn_result(d->model, (ast_decl *)decl), k, sizeof k));
  }
  if (decl) {
    size_t line = source_line_of(shown.src, shown.lo);
    sb_printf(&md, "\n```tlop\n%.*s\n```\n%s:%zu", (int)(hi - shown.lo),
              shown.src->text + shown.lo, shown.src->path, line + 1);
  }
  if (decl && (decl->kind == D_FN || decl->kind == D_ALGORITHM) && d->checked)
    hover_cost(d, decl, &md);
  sb_puts(&b, "{\"contents\":{\"kind\":\"markdown\",\"value\":");
  json_put_string(&b, md.s);
  sb_puts(&b, "},\"range\":");
  put_range(&b, o->use);
  sb_puts(&b, "}}");
  free(md.s);
  send_message(s, &b);
}

/* ---- definition, references ---- */

static void put_location(tlop_lsp *s, strbuf *b, span sp) {
  sb_puts(b, "{\"uri\":");
  put_uri_of(s, b, sp.src->path);
  sb_puts(b, ",\"range\":");
  put_range(b, sp);
  sb_puts(b, "}");
}

static void definition(tlop_lsp *s, const json *id, const json *params, bool references) {
  document *d;
  strbuf b = {0};
  const occurrence *o = request_occurrence(s, id, params, &d, &b);
  if (!o)
    return;
  if (!references) {
    put_location(s, &b, o->def);
    sb_puts(&b, "}");
  } else {
    const json *with_decl = json_get(params, "context.includeDeclaration");
    bool include_def = !with_decl || with_decl->number;
    span def = o->def;
    sb_puts(&b, "[");
    bool first = true;
    for (size_t i = 0; i < d->ix.n; i++) {
      const occurrence *u = &d->ix.occ[i];
      if (!span_same(u->def, def) || (!include_def && span_same(u->use, def)))
        continue;
      if (!first)
        sb_puts(&b, ",");
      first = false;
      put_location(s, &b, u->use);
    }
    sb_puts(&b, "]}");
  }
  send_message(s, &b);
}

/* ---- completion ---- */

static const char *const KEYWORDS[] = {
    "import", "param", "fn", "algorithm", "platform", "channel", "table", "assume", "claim",
    "strict", "axiom", "when", "let", "in", "if", "then", "else", "sum", "stages", "repeat",
    "schedule", "for", "at", "messages", "send", "flows", "under", "alone", "on", "and",
    "or", "not", "true", "false", "size", "count", "time", "real", "number", "bandwidth",
    "rate", "bool", "op"};
static const char *const BUILTINS[] = {"L", "o", "p", "gamma", "log2", "log", "sqrt", "ceil",
                                       "floor", "abs", "min", "max", "integer", "require",
                                       "node_of", "listed"};
/* Operators by their ASCII names: the item inserts the Unicode one. */
static const char *const OPERATORS[][3] = {
    {"par", "∥", "concurrency: A ∥ X"}, {"sum", "Σ", "sum: Σ i = a .. b : body"},
    {"tau", "τ", "τ, the transfers sharing a channel"}, {"gamma", "γ", "γ(op, m, τ)"},
    {"le", "≤", "≤"}, {"ge", "≥", "≥"}, {"ne", "≠", "≠"}, {"arrow", "→", "→ (send)"},
    {"times", "·", "·"}, {"ceil", "⌈⌉", "⌈x⌉"}, {"floor", "⌊⌋", "⌊x⌋"},
    {"log2", "log₂", "log₂ x"}, {"dots", "…", "… (a range)"}};

static void put_item(strbuf *b, bool *first, const char *label, int kind, const char *detail,
                     const char *insert) {
  sb_puts(b, *first ? "{\"label\":" : ",{\"label\":");
  *first = false;
  json_put_string(b, label);
  sb_printf(b, ",\"kind\":%d", kind);
  if (detail) {
    sb_puts(b, ",\"detail\":");
    json_put_string(b, detail);
  }
  if (insert) {
    sb_puts(b, ",\"insertText\":");
    json_put_string(b, insert);
    sb_puts(b, ",\"filterText\":");
    json_put_string(b, label);
  }
  sb_puts(b, "}");
}

/* The stdlib's modules under dir (recursively), as import names "mpich/bcast". */
static void put_modules(strbuf *b, bool *first, const char *dir, const char *prefix, int depth) {
  DIR *dh = depth < 4 ? opendir(dir) : NULL;
  if (!dh)
    return;
  for (struct dirent *e; (e = readdir(dh));) {
    if (e->d_name[0] == '.')
      continue;
    char path[PATH_MAX], name[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    snprintf(name, sizeof name, "%s%s", prefix, e->d_name);
    struct stat st;
    size_t n = strlen(name);
    if (stat(path, &st) != 0)
      continue;
    if (S_ISDIR(st.st_mode)) {
      strcat(name, "/");
      put_modules(b, first, path, name, depth + 1);
    } else if (n > 5 && strcmp(name + n - 5, ".tlop") == 0) {
      name[n - 5] = 0;
      put_item(b, first, name, ITEM_FILE, "stdlib module", NULL);
    }
  }
  closedir(dh);
}

/* Whether offset `at` is inside the string of an `import "…"` line. */
static bool in_import(const document *d, uint32_t at) {
  uint32_t start = at;
  while (start > 0 && d->text[start - 1] != '\n')
    start--;
  const char *line = d->text + start + strspn(d->text + start, " \t");
  if (strncmp(line, "import", 6) != 0)
    return false;
  int quotes = 0;
  for (const char *p = line; p < d->text + at; p++)
    quotes += *p == '"';
  return quotes % 2 == 1;
}

static int symbol_item_kind(const ast_decl *decl) {
  switch (decl->kind) {
  case D_PARAM: return ITEM_CONSTANT;
  case D_FN:
  case D_ALGORITHM: return ITEM_FUNCTION;
  case D_PLATFORM: return ITEM_MODULE;
  default: return ITEM_VARIABLE;
  }
}

static void complete_names(document *d, strbuf *b, bool *first, uint32_t at) {
  const ast_decl *around = NULL; /* the declaration the cursor is in: its locals */
  for (const ast_decl *decl = d->model->root->decls; decl; decl = decl->next)
    if (decl->sp.lo <= at && at <= decl->sp.hi)
      around = decl;
  ptrmap seen = {0};
  for (size_t i = 0; i < d->ix.n; i++) {
    const occurrence *o = &d->ix.occ[i];
    bool local = !o->decl && around && o->def.src == d->src && o->def.lo >= around->sp.lo &&
                 o->def.hi <= around->sp.hi && o->def.lo < at;
    if (!span_same(o->use, o->def) || (!o->decl && !local) ||
        (o->decl && (o->decl->kind == D_CLAIM || o->decl->kind == D_CHANNEL)))
      continue;
    char *name = xstrndup(o->use.src->text + o->use.lo, o->use.hi - o->use.lo);
    sym key = ctx_sym(d->ctx, name);
    if (!ptrmap_get(&seen, key)) {
      ptrmap_put(&seen, key, name);
      put_item(b, first, name, o->decl ? symbol_item_kind(o->decl) : ITEM_VARIABLE, o->what,
               NULL);
    }
    free(name);
  }
  /* the channels of the platforms in scope: L[ch](m, τ) */
  for (size_t i = 0; i < d->ix.n; i++) {
    const occurrence *o = &d->ix.occ[i];
    if (o->decl && o->decl->kind == D_CHANNEL && span_same(o->use, o->def)) {
      char *name = xstrndup(o->use.src->text + o->use.lo, o->use.hi - o->use.lo);
      put_item(b, first, name, ITEM_FIELD, "channel", NULL);
      free(name);
    }
  }
  ptrmap_free(&seen);
}

static void completion(tlop_lsp *s, const json *id, const json *params) {
  document *d = request_document(s, params);
  strbuf b = {0};
  begin_result(&b, id);
  sb_puts(&b, "[");
  bool first = true;
  uint32_t at = d ? offset_of(d->src, json_get(params, "position")) : 0;
  if (d && in_import(d, at)) {
    const char *dir = s->stdlib ? s->stdlib : d->ctx->stdlib_dir;
    if (dir)
      put_modules(&b, &first, dir, "", 0);
  } else if (d) {
    if (d->model)
      complete_names(d, &b, &first, at);
    for (size_t i = 0; i < sizeof KEYWORDS / sizeof *KEYWORDS; i++)
      put_item(&b, &first, KEYWORDS[i], ITEM_KEYWORD, "keyword", NULL);
    for (size_t i = 0; i < sizeof BUILTINS / sizeof *BUILTINS; i++)
      if (chk_is_builtin(ctx_sym(d->ctx, BUILTINS[i])))
        put_item(&b, &first, BUILTINS[i], ITEM_FUNCTION, "built-in", NULL);
    for (size_t i = 0; i < sizeof OPERATORS / sizeof *OPERATORS; i++)
      put_item(&b, &first, OPERATORS[i][0], ITEM_OPERATOR, OPERATORS[i][2], OPERATORS[i][1]);
  }
  sb_puts(&b, "]}");
  send_message(s, &b);
}

/* ---- document symbols ---- */

static int symbol_kind(const ast_decl *decl) {
  switch (decl->kind) {
  case D_PARAM: return SYM_CONSTANT;
  case D_FN: return SYM_FUNCTION;
  case D_ALGORITHM: return SYM_METHOD;
  case D_PLATFORM: return SYM_MODULE;
  case D_CHANNEL: return SYM_FIELD;
  default: return SYM_BOOLEAN; /* a claim */
  }
}

static void put_symbol(strbuf *b, const ast_decl *decl) {
  span name = decl->name_sp;
  char *label;
  if (decl->kind == D_CLAIM) { /* a claim has no name: its first line says it */
    uint32_t end = decl->sp.lo;
    while (end < decl->sp.hi && decl->sp.src->text[end] != '\n' && end - decl->sp.lo < 80)
      end++;
    name = (span){decl->sp.src, decl->sp.lo, end};
  }
  label = xstrndup(name.src->text + name.lo, name.hi - name.lo);
  sb_puts(b, "{\"name\":");
  json_put_string(b, label);
  free(label);
  sb_printf(b, ",\"kind\":%d,\"range\":", symbol_kind(decl));
  put_range(b, decl->sp);
  sb_puts(b, ",\"selectionRange\":");
  put_range(b, name);
  if (decl->kind == D_PLATFORM) {
    sb_puts(b, ",\"children\":[");
    bool first = true;
    for (int i = 0; i < decl->nmembers; i++)
      if (decl->members[i]->kind == D_CHANNEL) {
        sb_puts(b, first ? "" : ",");
        first = false;
        put_symbol(b, decl->members[i]);
      }
    sb_puts(b, "]");
  }
  sb_puts(b, "}");
}

static void document_symbols(tlop_lsp *s, const json *id, const json *params) {
  document *d = request_document(s, params);
  strbuf b = {0};
  begin_result(&b, id);
  sb_puts(&b, "[");
  bool first = true;
  for (const ast_decl *decl = d && d->model ? d->model->root->decls : NULL; decl;
       decl = decl->next) {
    if (decl->kind != D_PARAM && decl->kind != D_FN && decl->kind != D_ALGORITHM &&
        decl->kind != D_PLATFORM && decl->kind != D_CLAIM)
      continue;
    sb_puts(&b, first ? "" : ",");
    first = false;
    put_symbol(&b, decl);
  }
  sb_puts(&b, "]}");
  send_message(s, &b);
}

/* ---- formatting: one edit, the whole text laid out by tlop fmt ---- */

static void formatting(tlop_lsp *s, const json *id, const json *params) {
  document *d = request_document(s, params);
  strbuf b = {0};
  begin_result(&b, id);
  char *out = NULL;
  size_t mark = d ? d->ndiags : 0;
  if (d && format_source(d->ctx, d->path, d->text, d->len, TLOP_OPS_KEEP, &out) == TLOP_OK &&
      strcmp(out, d->text) != 0) {
    sb_puts(&b, "[{\"range\":");
    put_range(&b, (span){d->src, 0, (uint32_t)d->src->len});
    sb_puts(&b, ",\"newText\":");
    json_put_string(&b, out);
    sb_puts(&b, "}]}");
  } else {
    sb_puts(&b, "[]}");
  }
  while (d && d->ndiags > mark) { /* a text that does not parse is already reported */
    d->ndiags--;
    free(d->diags[d->ndiags].file);
    free(d->diags[d->ndiags].message);
  }
  free(out);
  send_message(s, &b);
}

/* ---- the protocol ---- */

static void initialize(tlop_lsp *s, const json *id, const json *params) {
  const char *stdlib = json_str(params, "initializationOptions.stdlib");
  if (stdlib) {
    free(s->stdlib);
    s->stdlib = xstrdup(stdlib);
  }
  const json *include = json_get(params, "initializationOptions.include");
  for (size_t i = 0; include && include->type == JSON_ARRAY && i < include->n; i++)
    if (include->items[i]->type == JSON_STRING)
      VEC_PUSH(s->include, s->ninclude, s->include_cap, xstrdup(include->items[i]->str));
  strbuf b = {0};
  begin_result(&b, id);
  sb_puts(&b, "{\"capabilities\":{"
              "\"textDocumentSync\":{\"openClose\":true,\"change\":1,\"save\":{\"includeText\":false}},"
              "\"hoverProvider\":true,\"definitionProvider\":true,\"referencesProvider\":true,"
              "\"completionProvider\":{\"triggerCharacters\":[\"\\\"\",\"/\",\"[\"]},"
              "\"documentSymbolProvider\":true,\"documentFormattingProvider\":true},"
              "\"serverInfo\":{\"name\":\"tlop\",\"version\":\"" TLOP_VERSION "\"}}}");
  send_message(s, &b);
}

static void text_sync(tlop_lsp *s, const char *method, const json *params) {
  const char *uri = json_str(params, "textDocument.uri");
  document *d = find_document(s, uri);
  if (strcmp(method, "textDocument/didOpen") == 0) {
    const char *text = json_str(params, "textDocument.text");
    if (!uri || !text)
      return;
    if (d)
      close_document(s, d);
    analyze(s, open_document(s, uri, text), true);
  } else if (d && strcmp(method, "textDocument/didChange") == 0) {
    const json *changes = json_get(params, "contentChanges");
    for (size_t i = 0; changes && changes->type == JSON_ARRAY && i < changes->n; i++)
      apply_change(d, changes->items[i]);
    analyze(s, d, false);
  } else if (d && strcmp(method, "textDocument/didSave") == 0) {
    analyze(s, d, true);
  } else if (d && strcmp(method, "textDocument/didClose") == 0) {
    close_document(s, d);
  }
}

tlop_lsp *tlop_lsp_new(void) { return xcalloc(1, sizeof(tlop_lsp)); }

void tlop_lsp_free(tlop_lsp *s) {
  if (!s)
    return;
  while (s->ndocs) {
    document *d = s->docs[s->ndocs - 1];
    forget_analysis(d);
    s->ndocs--;
    free(d->uri);
    free(d->path);
    free(d->text);
    free(d->diags);
    free(d);
  }
  free(s->docs);
  for (size_t i = 0; i < s->ninclude; i++)
    free(s->include[i]);
  free(s->include);
  free(s->stdlib);
  free(s);
}

int tlop_lsp_handle(tlop_lsp *s, const char *message, size_t len, tlop_lsp_send_fn send,
                    void *user) {
  s->send = send;
  s->user = user;
  arena *ar = arena_new();
  json *msg = json_read(ar, message, len);
  const json *id = json_get(msg, "id");
  const char *method = json_str(msg, "method");
  const json *params = json_get(msg, "params");
  int rc = -1;
  if (!msg)
    send_error(s, NULL, RPC_PARSE_ERROR, "not JSON");
  else if (!method) {
    if (!json_get(msg, "result") && !json_get(msg, "error")) /* a response: nothing to do */
      send_error(s, id, RPC_INVALID_REQUEST, "a request names its method");
  } else if (strcmp(method, "initialize") == 0)
    initialize(s, id, params);
  else if (strcmp(method, "shutdown") == 0) {
    s->shut_down = true;
    strbuf b = {0};
    begin_result(&b, id);
    sb_puts(&b, "null}");
    send_message(s, &b);
  } else if (strcmp(method, "exit") == 0)
    rc = s->shut_down ? 0 : 1;
  else if (strncmp(method, "textDocument/did", 16) == 0)
    text_sync(s, method, params);
  else if (strcmp(method, "textDocument/hover") == 0)
    hover(s, id, params);
  else if (strcmp(method, "textDocument/definition") == 0)
    definition(s, id, params, false);
  else if (strcmp(method, "textDocument/references") == 0)
    definition(s, id, params, true);
  else if (strcmp(method, "textDocument/completion") == 0)
    completion(s, id, params);
  else if (strcmp(method, "textDocument/documentSymbol") == 0)
    document_symbols(s, id, params);
  else if (strcmp(method, "textDocument/formatting") == 0)
    formatting(s, id, params);
  else if (id) /* an unknown notification is ignored, an unknown request answered */
    send_error(s, id, RPC_NO_METHOD, "method not handled by tlop lsp");
  arena_free(ar);
  return rc;
}
