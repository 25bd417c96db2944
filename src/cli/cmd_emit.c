/* cmd_emit.c — the JIT in the `tlop` command: the --engine, --jobs and --no-cache options that
 * eval and sweep share (with TLOP_ENGINE), and `tlop emit`, which writes cost functions
 * as LLVM IR, assembly, or an object file plus a C header for other programs to call. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- --engine, --jobs, --no-cache ---- */

int cli_take_engine(cli *c, int opt, const char *arg) {
  tlop_engine e;
  char *end;
  switch (opt) {
  case 'E':
    if (tlop_engine_parse(arg, &e) != TLOP_OK) {
      cli_usage_error(c->cmd, "--engine takes auto, jit or interp, not '%s'", arg);
      return -1;
    }
    c->o.engine = arg;
    return 1;
  case 'j': {
    errno = 0;
    long n = strtol(arg, &end, 10);
    if (*end || errno || n < 1 || n > 4096) {
      cli_usage_error(c->cmd, "--jobs takes a number of threads from 1 to 4096, not '%s'", arg);
      return -1;
    }
    c->o.jobs = (int)n;
    return 1;
  }
  case 'C':
    c->o.no_cache = true;
    return 1;
  }
  return 0;
}

bool cli_engine(cli *c, size_t npoints, bool *jit) {
  const char *text = c->o.engine ? c->o.engine : getenv("TLOP_ENGINE");
  tlop_engine e = TLOP_ENGINE_AUTO;
  if (text && *text && tlop_engine_parse(text, &e) != TLOP_OK) {
    cli_misuse(c, "TLOP_ENGINE takes auto, jit or interp, not '%s'", text);
    return false;
  }
  *jit = tlop_engine_pick(e, npoints) == TLOP_ENGINE_JIT;
  return true;
}

static tlop_jit *jit_open(cli *c) {
  if (!c->jit && tlop_jit_new(c->ctx, &c->jit) == TLOP_OK) {
    tlop_jit_set_jobs(c->jit, c->o.jobs);
    if (c->o.no_cache)
      tlop_jit_set_cache(c->jit, 0, NULL);
  }
  return c->jit;
}

tlop_kernels *cli_compile(cli *c, tlop_expr *const *exprs, size_t n, const tlop_platform *pf,
                          const tlop_env *env, const char *const *names, size_t nvars,
                          size_t npoints) {
  tlop_kernels *k = NULL;
  tlop_jit *jit = jit_open(c);
  if (jit)
    tlop_jit_expect_points(jit, npoints);
  if (jit && tlop_jit_compile(jit, (const tlop_expr *const *)exprs, n, pf, env, names, nvars,
                              &k) != TLOP_OK)
    k = NULL;
  return k;
}

tlop_status cli_eval_jit(cli *c, tlop_expr *e, const tlop_platform *pf, const tlop_env *env,
                         double *out) {
  tlop_kernels *k = cli_compile(c, &e, 1, pf, env, NULL, 0, 1);
  tlop_status st = k ? tlop_kernels_eval(k, 0, NULL, 1, out) : TLOP_ERR_INTERNAL;
  tlop_kernels_free(k);
  return st;
}

void cli_jit_close(cli *c) {
  tlop_jit_free(c->jit);
  c->jit = NULL;
}

/* ---- tlop emit ---- */

static const char emit_help[] =
    "usage: tlop emit [OPTION]... FILE [ALGO]...\n"
    "Compile algorithms of FILE (all that FILE defines when none is named) to native\n"
    "code: one C function per algorithm, `double ALGO(double p1, …)`, its parameters in\n"
    "order, returning the cost in seconds (NaN where the model has no value). Tables of\n"
    "the platform are read at run time from a platform the caller loads through tlop.h\n"
    "(the header says how), or baked into the code with --bake-params. Other parameters\n"
    "keep their defaults or --set values. Code is for a generic CPU of this machine.\n\n"
    HELP_SOURCES HELP_PLATFORM HELP_PARAMS HELP_SET HELP_EVAL HELP_HELP
    "  -t, --target T         llvm-ir (default), asm or object\n"
    "  -o, --output FILE      write there (default: standard output; an object needs -o)\n"
    "      --header FILE      also write a C header declaring the functions\n"
    "      --bake-params [CH=]FILE  back channel CH (default: the first) with this table\n"
    "                         and bake every table into the code (repeat for more)\n";

typedef struct emit_flags {
  const char *target, *header;
  const char **bake;
  size_t nbake;
} emit_flags;

static emit_flags eflags;

static int take_emit(cli *c, int opt, const char *arg) {
  switch (opt) {
  case 't':
    eflags.target = arg;
    return 1;
  case 'H':
    eflags.header = arg;
    return 1;
  case 'K':
    eflags.bake = realloc((void *)eflags.bake, (eflags.nbake + 1) * sizeof *eflags.bake);
    if (!eflags.bake)
      abort();
    eflags.bake[eflags.nbake++] = arg;
    return 1;
  }
  return cli_take_format_output(c, opt, arg);
}

/* The header's file name without directory and extension, as a C identifier. */
static char *prefix_of(const char *path) {
  const char *base = path ? strrchr(path, '/') : NULL;
  base = base ? base + 1 : path ? path : "tlop_costs";
  size_t n = strcspn(base, ".");
  char *p = malloc(n + 2);
  if (!p)
    abort();
  size_t k = 0;
  if (!(base[0] >= 'A' && base[0] <= 'Z') && !(base[0] >= 'a' && base[0] <= 'z') && base[0] != '_')
    p[k++] = '_';
  for (size_t i = 0; i < n; i++) {
    char ch = base[i];
    bool ok = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
    p[k++] = ok ? ch : '_';
  }
  p[k] = 0;
  return p;
}

static bool write_file(const char *cmd, const char *path, const char *data, size_t n) {
  FILE *f = !path || !strcmp(path, "-") ? stdout : fopen(path, "wb");
  bool ok = f && fwrite(data, 1, n, f) == n;
  if (f && f != stdout)
    ok = fclose(f) == 0 && ok;
  if (!ok)
    fprintf(stderr, "tlop %s: cannot write '%s': %s\n", cmd, path ? path : "-", strerror(errno));
  return ok;
}

static bool bind_bake(tlop_platform *pf, const char *spec) {
  const char *eq = strchr(spec, '=');
  char *channel = eq ? strndup(spec, (size_t)(eq - spec)) : NULL;
  tlop_status st = tlop_platform_bind_table(pf, channel, eq ? eq + 1 : spec);
  free(channel);
  return st == TLOP_OK;
}

int cmd_emit(cli *c, int argc, char **argv) {
  static const struct option opts[] = {{"target", required_argument, 0, 't'},
                                       {"output", required_argument, 0, 'o'},
                                       {"header", required_argument, 0, 'H'},
                                       {"bake-params", required_argument, 0, 'K'},
                                       {0, 0, 0, 0}};
  memset(&eflags, 0, sizeof eflags);
  cli_allow(c, "IPTsBMGQRYDLO");
  int rc = cli_parse_options(c, argc, argv, "emit", emit_help, opts, "t:o:", take_emit);
  if (rc < 0 && optind >= argc)
    rc = cli_usage_error("emit", "expected FILE (and the algorithms to compile)");
  const char *tname = eflags.target ? eflags.target : "llvm-ir";
  tlop_emit_target target = !strcmp(tname, "asm") ? TLOP_EMIT_ASM
                            : !strcmp(tname, "object") ? TLOP_EMIT_OBJECT
                                                       : TLOP_EMIT_LLVM_IR;
  if (rc < 0 && strcmp(tname, "llvm-ir") && strcmp(tname, "asm") && strcmp(tname, "object"))
    rc = cli_usage_error("emit", "--target takes llvm-ir, asm or object, not '%s'", tname);
  if (rc < 0 && target == TLOP_EMIT_OBJECT && (!c->o.output || !strcmp(c->o.output, "-")))
    rc = cli_usage_error("emit", "an object file needs -o FILE");
  if (rc >= 0) {
    free((void *)eflags.bake);
    return rc;
  }
  rc = EXIT_INPUT;
  tlop_env *env = NULL;
  tlop_platform *pf = NULL;
  char *code = NULL, *header = NULL, *prefix = prefix_of(eflags.header ? eflags.header : c->o.output);
  size_t len = 0;
  tlop_model *m = cli_load(c, argv[optind]);
  const char **algos = (const char **)argv + optind + 1;
  size_t nalgos = (size_t)(argc - optind - 1);
  bool ok = m && (nalgos || (nalgos = tlop_model_algorithms(m, &algos)));
  if (m && !ok)
    fprintf(stderr, "tlop emit: %s defines no algorithm\n", argv[optind]);
  ok = ok && cli_check_sets_named(c, m, algos, nalgos) && (env = cli_env(c, m)) &&
       (pf = cli_platform(c, m));
  for (size_t i = 0; ok && i < eflags.nbake; i++)
    ok = bind_bake(pf, eflags.bake[i]);
  tlop_jit *jit = ok ? jit_open(c) : NULL;
  if (jit && tlop_jit_emit(jit, m, algos, nalgos, pf, env, eflags.nbake > 0, target, prefix, &code,
                           &len, eflags.header ? &header : NULL) == TLOP_OK &&
      write_file("emit", c->o.output, code, len) &&
      (!header || write_file("emit", eflags.header, header, strlen(header))))
    rc = EXIT_OK;
  else if (!ok)
    rc = cli_failed(c);
  free(code);
  free(header);
  free(prefix);
  free((void *)eflags.bake);
  tlop_env_free(env);
  tlop_platform_free(pf);
  cli_jit_close(c);
  return rc;
}
