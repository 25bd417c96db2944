/* load.c — files, imports and the model's global scope. An import is looked up relative
 * to the importing file, then in the -I directories, then TLOP_PATH, then the installed
 * stdlib, then the stdlib built into the library; each file is loaded once per context
 * and an import cycle is an error. */
#include "front/front.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Prefix of the directories of modules that come from the built-in stdlib. */
#define BUILTIN_DIR "<stdlib>"

char *path_dir(arena *ar, const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash)
    return arena_strdup(ar, ".");
  if (slash == path)
    return arena_strdup(ar, "/");
  return arena_strndup(ar, path, (size_t)(slash - path));
}

char *load_read_file(tlop_ctx *ctx, const char *path, span from, size_t *len) {
  char *text = NULL;
  const char *why = file_read(ctx->ar, path, &text, len);
  if (why)
    diag_error(ctx, from, "cannot read '%s': %s", path, why);
  return why ? NULL : text;
}

/* A candidate of the search path: a name that is there, or that a loop of symbolic links
 * hides (reading it then says so, rather than "cannot find"). */
static bool is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 || errno == ELOOP;
}
/* Folds "a/./b/../c" into "a/c" for names inside the built-in stdlib. */
static char *normalize(arena *ar, const char *path) {
  size_t n = strlen(path);
  char *out = arena_alloc(ar, n + 1);
  size_t len = 0;
  const char *p = path;
  while (*p) {
    const char *e = strchr(p, '/');
    size_t seg = e ? (size_t)(e - p) : strlen(p);
    if (seg == 2 && p[0] == '.' && p[1] == '.') {
      while (len > 0 && out[len - 1] != '/')
        len--;
      if (len > 0)
        len--;
    } else if (!(seg == 0 || (seg == 1 && p[0] == '.'))) {
      if (len)
        out[len++] = '/';
      memcpy(out + len, p, seg);
      len += seg;
    }
    p += seg + (e != NULL);
  }
  out[len] = 0;
  return out;
}

static char *join(arena *ar, const char *dir, const char *name) {
  if (strcmp(dir, ".") == 0)
    return arena_strdup(ar, name);
  strbuf b = {0};
  sb_printf(&b, "%s/%s", dir, name);
  char *s = arena_strdup(ar, b.s);
  free(b.s);
  return s;
}

/* The module registered under a key, or a new one read from text. */
static module *module_from_text(tlop_ctx *ctx, const char *key, const char *shown,
                                const char *dir, const char *text, size_t len) {
  sym k = ctx_sym(ctx, key);
  module *m = ptrmap_get(&ctx->modules, k);
  if (m)
    return m;
  m = arena_alloc(ctx->ar, sizeof *m);
  m->src = source_new(ctx, shown, text, len);
  m->dir = arena_strdup(ctx->ar, dir);
  ptrmap_put(&ctx->modules, k, m);
  if (parse_file(ctx, ctx->ar, m->src, &m->decls) != 0)
    m->decls = NULL, m->failed = true;
  for (ast_decl *d = m->decls; d; d = d->next)
    d->mod = m;
  return m;
}

/* A file of the disk, or standard input for "-" (its imports are looked up from the
 * working directory). */
static module *module_from_disk(tlop_ctx *ctx, const char *path, span from) {
  bool from_stdin = !strcmp(path, "-");
  char *real = from_stdin ? NULL : realpath(path, NULL);
  const char *key = from_stdin ? "<stdin>" : real ? real : path;
  module *m = ptrmap_get(&ctx->modules, ctx_sym(ctx, key));
  if (!m) {
    size_t len;
    char *text = load_read_file(ctx, path, from, &len);
    if (text)
      m = module_from_text(ctx, key, from_stdin ? key : path, path_dir(ctx->ar, path), text, len);
  }
  free(real);
  return m;
}

static module *module_builtin(tlop_ctx *ctx, const char *name) {
  size_t len;
  const char *text = stdlib_builtin(name, &len);
  if (!text)
    return NULL;
  strbuf key = {0};
  sb_printf(&key, "%s/%s", BUILTIN_DIR, name);
  const char *dir = path_dir(ctx->ar, key.s);
  module *m = module_from_text(ctx, key.s, key.s, dir, text, len);
  free(key.s);
  return m;
}

/* Where an import names a file: every candidate in search order; the first that exists. */
module *load_import(tlop_ctx *ctx, const module *from, const char *name, span at,
                    bool report_missing) {
  const char *file = name;
  size_t n = strlen(name);
  if (n < 5 || strcmp(name + n - 5, ".tlop") != 0) {
    strbuf b = {0};
    sb_printf(&b, "%s.tlop", name);
    file = arena_strdup(ctx->ar, b.s);
    free(b.s);
  }
  if (file[0] == '/')
    return module_from_disk(ctx, file, at);
  if (from && strncmp(from->dir, BUILTIN_DIR, strlen(BUILTIN_DIR)) == 0) {
    const char *rel = from->dir + strlen(BUILTIN_DIR);
    rel += *rel == '/';
    module *m = module_builtin(ctx, normalize(ctx->ar, *rel ? join(ctx->ar, rel, file) : file));
    if (m)
      return m;
  } else if (from) {
    char *p = join(ctx->ar, from->dir, file);
    if (is_file(p))
      return module_from_disk(ctx, p, at);
  }
  for (size_t i = 0; i < ctx->npaths; i++) {
    char *p = join(ctx->ar, ctx->paths[i], file);
    if (is_file(p))
      return module_from_disk(ctx, p, at);
  }
  const char *env = getenv("TLOP_PATH");
  if (env && *env) {
    char *list = arena_strdup(ctx->ar, env);
    for (char *save = NULL, *dir = strtok_r(list, ":", &save); dir;
         dir = strtok_r(NULL, ":", &save)) {
      char *p = join(ctx->ar, dir, file);
      if (is_file(p))
        return module_from_disk(ctx, p, at);
    }
  }
  if (ctx->stdlib_dir) {
    char *p = join(ctx->ar, ctx->stdlib_dir, file);
    if (is_file(p))
      return module_from_disk(ctx, p, at);
  }
  module *m = module_builtin(ctx, normalize(ctx->ar, file));
  if (!m && report_missing)
    diag_error(ctx, at,
               "cannot find '%s': looked beside the importing file, in -I directories, "
               "TLOP_PATH and the stdlib",
               file);
  return m;
}

module *load_module_path(tlop_ctx *ctx, const char *path, span from) {
  return module_from_disk(ctx, path, from);
}

module *load_module_text(tlop_ctx *ctx, const char *name, const char *text, size_t len) {
  /* Each source is a new module, even under a name used before. */
  char *copy = arena_strndup(ctx->ar, text, len);
  strbuf key = {0};
  sb_printf(&key, "<source %u>%s", ctx->sources++, name);
  module *m = module_from_text(ctx, key.s, name, path_dir(ctx->ar, name), copy, len);
  free(key.s);
  return m;
}

/* ---- the model: a root module and its imports, one global scope ---- */

typedef struct loader {
  tlop_model *model;
  module **stack; /* the import chain being loaded, for the cycle message */
  size_t depth, cap;
  ptrmap seen;
} loader;

static void define(loader *ld, ptrmap *space, ast_decl *d, const char *what) {
  tlop_ctx *ctx = ld->model->ctx;
  ast_decl *old = ptrmap_get(space, d->name);
  if (old && old != d) {
    diag_error(ctx, d->name_sp, "%s '%s' is defined twice", what, d->name->name);
    diag_note(ctx, old->name_sp, "the other definition of '%s' is here", d->name->name);
    return;
  }
  ptrmap_put(space, d->name, d);
}

/* The functions and algorithms a module declares. */
static size_t count_fns(const module *m) {
  size_t n = 0;
  for (const ast_decl *d = m->decls; d; d = d->next)
    n += d->kind == D_FN || d->kind == D_ALGORITHM;
  return n;
}

static void visit(loader *ld, module *m) {
  tlop_ctx *ctx = ld->model->ctx;
  if (ptrmap_get(&ld->seen, m))
    return;
  ptrmap_put(&ld->seen, m, m);
  VEC_PUSH(ld->model->mods, ld->model->nmods, ld->model->mods_cap, m);
  m->loading = true;
  VEC_PUSH(ld->stack, ld->depth, ld->cap, m);
  tlop_model *model = ld->model;
  ptrmap_reserve(&model->funcs, count_fns(m));
  for (ast_decl *d = m->decls; d; d = d->next) {
    switch (d->kind) {
    case D_IMPORT: {
      module *dep = load_import(ctx, m, d->path, d->path_sp, true);
      if (dep && dep->loading) {
        strbuf chain = {0};
        size_t i = ld->depth;
        while (i > 0 && ld->stack[i - 1] != dep)
          i--;
        for (size_t j = i ? i - 1 : 0; j < ld->depth; j++)
          sb_printf(&chain, "%s → ", ld->stack[j]->src->path);
        sb_puts(&chain, dep->src->path);
        diag_error(ctx, d->sp, "import cycle: %s", chain.s);
        free(chain.s);
      } else if (dep) {
        visit(ld, dep);
      }
      break;
    }
    case D_PARAM:
      define(ld, &model->values, d, "parameter");
      VEC_PUSH(model->params, model->nparams, model->params_cap, d);
      break;
    case D_FN:
    case D_ALGORITHM:
      if (chk_is_builtin(d->name))
        diag_error(ctx, d->name_sp, "'%s' is a builtin function and cannot be redefined",
                   d->name->name);
      else
        define(ld, &model->funcs, d, d->kind == D_FN ? "function" : "algorithm");
      if (d->kind == D_ALGORITHM && m == model->root)
        VEC_PUSH(model->algos, model->nalgos, model->algos_cap, d->name->name);
      break;
    case D_PLATFORM:
      define(ld, &model->platforms, d, "platform");
      break;
    default:
      break;
    }
  }
  m->loading = false;
  ld->depth--;
}

tlop_status load_model(tlop_ctx *ctx, module *root, tlop_model **out) {
  *out = NULL;
  if (!root || root->failed)
    return root ? TLOP_ERR_SYNTAX : TLOP_ERR_IO;
  int before = ctx->errors;
  tlop_model *model = arena_alloc(ctx->ar, sizeof *model);
  model->ctx = ctx;
  model->root = root;
  loader ld = {.model = model};
  visit(&ld, root);
  bool failed_import = false;
  for (size_t i = 0; i < ld.seen.cap; i++)
    if (ld.seen.keys[i] && ((const module *)ld.seen.keys[i])->failed)
      failed_import = true;
  free(ld.stack);
  ptrmap_free(&ld.seen);
  ctx_track_model(ctx, model);
  if (ctx->errors > before || failed_import)
    return failed_import ? TLOP_ERR_SYNTAX : TLOP_ERR_CHECK;
  if (chk_model(model) != 0)
    return TLOP_ERR_CHECK;
  *out = model;
  return TLOP_OK;
}
