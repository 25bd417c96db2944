/* main.c — the `tlop` command: a thin client of libtlop. It parses the subcommand and
 * the options every subcommand shares, prints diagnostics on stderr, and maps outcomes to
 * exit codes: 0 ok, 1 bad input, 2 usage. */
#include "cli.h"
#include "cmd_measure.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct command {
  const char *name;
  int (*run)(cli *c, int argc, char **argv);
  const char *summary;
} commands[] = {
    {"check", cmd_check, "parse and check .tlop files"},
    {"eval", cmd_eval, "evaluate an expression"},
    {"sweep", cmd_sweep, "evaluate algorithms over a grid of parameters"},
    {"explain", cmd_explain, "per-stage cost table of an algorithm"},
    {"simplify", cmd_simplify, "the form the papers derive: ∥ pushed in, sums closed"},
    {"dump-ir", cmd_dump_ir, "print the cost IR (DAG) of an expression"},
    {"emit", cmd_emit, "compile algorithms to LLVM IR, assembly or an object + C header"},
    {"prove", cmd_prove, "decide the claims of files: derivation, counterexample or evidence"},
    {"compare", cmd_compare, "A >= B, A <= B and the tightest c of A >= c·B"},
    {"measure", cmd_measure, "measure L(m,τ) and o(m) on this machine: a τ-Lop table"},
    {"validate", cmd_validate, "score predictions against IMB/OSU benchmark output"},
    {"best", cmd_best, "the cheapest algorithm per (m, P); MPI tuning files"},
    {"lint", cmd_lint, "check an MPI tuning file as the library reads it"},
    {"plot", cmd_plot, "cost against message size, or the best-algorithm map (gnuplot)"},
    {"fmt", cmd_fmt, "lay out .tlop files canonically (comments kept); --check for CI"},
    {"lsp", cmd_lsp, "a Language Server Protocol server for editors (stdin/stdout)"},
};

static void usage(FILE *f) {
  fprintf(f, "usage: tlop COMMAND [OPTION]... [ARG]...\n\n"
             "tlop compiles τ-Lop cost expressions of MPI collective algorithms and\n"
             "evaluates them against measured L(m,τ) tables or analytic platforms.\n\n"
             "Commands:\n");
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
    fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fprintf(f, "\n'tlop COMMAND --help' describes a command. Options: --help, --version.\n");
}

#define PUSH(arr, n, v)                                                          \
  do {                                                                           \
    arr = realloc((void *)arr, ((n) + 1) * sizeof *arr);                         \
    if (!arr)                                                                    \
      abort();                                                                   \
    arr[(n)++] = (v);                                                            \
  } while (0)

/* The warnings printed so far: a sweep or best evaluates its algorithms in many calls,
 * each of which may raise the same warning; it is printed once. */
static char **warnings_printed;
static size_t nwarnings_printed;

static bool repeated_warning; /* and its notes are not printed either */

void cli_print_diag(void *user, const tlop_diag *d) {
  (void)user;
  if (d->severity == TLOP_NOTE && repeated_warning)
    return;
  repeated_warning = false;
  if (d->severity == TLOP_WARNING) {
    for (size_t i = 0; i < nwarnings_printed; i++)
      if (!strcmp(warnings_printed[i], d->text)) {
        repeated_warning = true;
        return;
      }
    char *copy = strdup(d->text);
    if (!copy)
      abort();
    PUSH(warnings_printed, nwarnings_printed, copy);
  }
  fputs(d->text, stderr);
}

static void forget_warnings(void) {
  for (size_t i = 0; i < nwarnings_printed; i++)
    free(warnings_printed[i]);
  free(warnings_printed);
}

int cli_usage_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "tlop %s: ", cmd);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\nTry 'tlop %s --help'.\n", cmd);
  va_end(ap);
  return EXIT_USAGE;
}

void cli_allow(cli *c, const char *letters) { c->allowed = letters; }

int cli_common_option(cli *c, int opt, const char *arg) {
  if (c->allowed && opt != 'h' && opt != 'z' && !strchr(c->allowed, opt))
    return 0; /* "does not apply here" */
  switch (opt) {
  case 'z': {
    double bytes;
    if (!cli_memory_value(c, arg, &bytes))
      return -1;
    cli_limit_memory(bytes);
    return 1;
  }
  case 'I':
    tlop_ctx_add_path(c->ctx, arg);
    return 1;
  case 'W':
    tlop_ctx_set_strict(c->ctx, 1);
    c->o.strict = true;
    return 1;
  case 'P':
    if (!*arg) {
      cli_usage_error(c->cmd, "--platform takes a name");
      return -1;
    }
    c->o.platform = arg;
    return 1;
  case 'T':
    PUSH(c->o.params, c->o.nparams, arg);
    return 1;
  case 's':
    PUSH(c->o.sets, c->o.nsets, arg);
    return 1;
  case 'B':
    if (!strcmp(arg, "proportional"))
      tlop_ctx_set_tau_rule(c->ctx, TLOP_TAU_PROPORTIONAL);
    else if (!strcmp(arg, "clamp"))
      tlop_ctx_set_tau_rule(c->ctx, TLOP_TAU_CLAMP);
    else {
      cli_usage_error(c->cmd, "--tau-beyond takes 'proportional' or 'clamp', not '%s'", arg);
      return -1;
    }
    return 1;
  case 'M':
  case 'G':
  case 'Q':
  case 'R':
  case 'Y':
  case 'D':
  case 'J':
  case 'V':
  case 'x':
  case 'L':
  case 'O': {
    static const struct {
      int opt;
      const char *name;
      void (*set)(tlop_ctx *, double);
    } limits[] = {{'M', "--max-terms", tlop_ctx_set_max_terms},
                  {'G', "--max-steps", tlop_ctx_set_max_steps},
                  {'Q', "--max-messages", tlop_ctx_set_max_messages},
                  {'R', "--max-errors", tlop_ctx_set_max_errors},
                  {'Y', "--max-inline", tlop_ctx_set_max_inline},
                  {'D', "--max-depth", tlop_ctx_set_max_depth},
                  {'J', "--max-unroll", tlop_ctx_set_max_unroll},
                  {'V', "--max-print", tlop_ctx_set_max_print},
                  {'x', "--max-stages", tlop_ctx_set_max_stages},
                  {'L', "--max-table-rows", tlop_ctx_set_max_table_rows},
                  {'O', "--max-table-cols", tlop_ctx_set_max_table_cols}};
    size_t i = 0;
    while (limits[i].opt != opt)
      i++;
    double v;
    if (!cli_limit_value(c, limits[i].name, arg, &v))
      return -1;
    limits[i].set(c->ctx, v);
    return 1;
  }
  }
  return 0;
}

bool cli_limit_value(cli *c, const char *option, const char *arg, double *value) {
  char *end;
  errno = 0;
  *value = strtod(arg, &end);
  if (*end || errno || !(*value >= 1) || !isfinite(*value)) {
    cli_usage_error(c->cmd, "%s takes a finite number of at least 1, not '%s'", option, arg);
    return false;
  }
  return true;
}

/* Parses the options of a subcommand: the shared ones plus `extra` (handled by `take`).
 * Returns -1 to go on, or the exit code. */
int cli_parse_options(cli *c, int argc, char **argv, const char *cmd, const char *help,
                         const struct option *extra, const char *extra_short, cli_option_fn take) {
  struct option common[] = {CLI_COMMON_LONGOPTS};
  size_t nc = sizeof common / sizeof *common, ne = 0;
  while (extra && extra[ne].name)
    ne++;
  struct option *all = calloc(nc + ne + 1, sizeof *all);
  /* the command's own options first: prove's --strict (the strict axiom) is its own */
  if (ne)
    memcpy(all, extra, ne * sizeof *all);
  memcpy(all + ne, common, nc * sizeof *all);
  /* ':' first: a missing value is told apart from an unknown option */
  char shorts[32];
  snprintf(shorts, sizeof shorts, ":%s%s", CLI_COMMON_SHORTOPTS, extra_short ? extra_short : "");
  optind = 1;
  opterr = 0;
  int rc = -1, opt, li = -1;
  while (rc < 0 && (opt = getopt_long(argc, argv, shorts, all, &li)) != -1) {
    /* the option as the user wrote it, for messages: --params or -I */
    char given[64];
    if (li >= 0)
      snprintf(given, sizeof given, "--%s", all[li].name);
    else
      snprintf(given, sizeof given, "-%c", opt);
    li = -1;
    if (opt == 'h') {
      fputs(help, stdout);
      rc = EXIT_OK;
    } else if (opt == ':') {
      rc = cli_usage_error(cmd, "option '%s' needs a value", argv[optind - 1]);
    } else if (opt == '?' && optopt && !isalpha(optopt)) {
      /* getopt is inside a word that starts with '-': an expression such as '-2 ∥ …' */
      rc = cli_usage_error(cmd, "unknown option '-%c' (an expression starting with '-'? put it "
                           "after --)", optopt);
    } else if (opt == '?' && optopt) {
      rc = cli_usage_error(cmd, "unknown option '-%c'", optopt);
    } else if (opt == '?') {
      rc = cli_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
    } else {
      int r = cli_common_option(c, opt, optarg);
      if (r == 0)
        r = take ? take(c, opt, optarg) : 0;
      if (r == 0)
        rc = cli_usage_error(cmd, "option '%s' does not apply here", given);
      else if (r < 0)
        rc = EXIT_USAGE;
    }
  }
  free(all);
  return rc;
}

int cli_take_format_output(cli *c, int opt, const char *arg) {
  if (opt == 'f')
    c->o.format = arg;
  else if (opt == 'o')
    c->o.output = arg;
  else
    return 0;
  return 1;
}

const struct option cli_format_output_opts[] = {
    {"format", required_argument, 0, 'f'}, {"output", required_argument, 0, 'o'}, {0, 0, 0, 0}};

/* An algorithm's name stands for its body with its parameters free; any other text is
 * parsed as an expression over the model, with the names of env as free variables. */
tlop_expr *cli_expr(cli *c, tlop_model *m, const char *text, const tlop_env *env, bool symbolic) {
  tlop_expr *e;
  size_t n;
  if (tlop_algorithm_params(m, text, &n)) {
    tlop_status st = tlop_algorithm_expr(m, text, env, &e);
    c->misused |= st == TLOP_ERR_CHECK; /* a --set or --grid value of the wrong kind */
    return st == TLOP_OK ? e : NULL;
  }
  tlop_status st = symbolic ? tlop_expr_parse_symbolic(m, text, &e) : tlop_expr_parse(m, text, env, &e);
  return st == TLOP_OK ? e : NULL;
}

tlop_model *cli_load(cli *c, const char *path) {
  tlop_model *m;
  return tlop_load_file(c->ctx, path, &m) == TLOP_OK ? m : NULL;
}

/* The next NAME=VALUE of a --set list "a=1MiB,b=2" (split at commas outside parentheses),
 * cut in place; false at its end. *value is NULL when there is no NAME=. */
static bool next_set(char **rest, char **name, char **value) {
  char *p = *rest, *q = p;
  if (!*p)
    return false;
  for (int depth = 0; *q && !(*q == ',' && depth == 0); q++)
    depth += (*q == '(') - (*q == ')');
  bool last = !*q;
  *q = 0;
  char *eq = strchr(p, '=');
  *name = p;
  *value = eq && eq != p ? (*eq = 0, eq + 1) : NULL;
  *rest = last ? q : q + 1;
  return true;
}

/* A value spelt as a mapping is one: sequential, round_robin, nodes(…). */
static bool mapping_spelt(const char *value) {
  return !strcmp(value, "sequential") || !strcmp(value, "round_robin") ||
         !strncmp(value, "nodes(", 6);
}

/* A name that the model's functions declare an operator (op: op) takes an operator's name
 * (op=max), a mapping (map: mapping) a mapping's (map=round_robin, map=nodes(0,0,1,1)); so
 * does a name no parameter declares when its value is spelt as a mapping (a free name of
 * the expression: 'bcast_binomial(m, P, M, map2)' --set map2=nodes(0,1)). */
static bool set_values(cli *c, tlop_model *model, tlop_env *env, const char *spec) {
  char *copy = strdup(spec), *rest = copy, *name, *value;
  bool ok = true;
  while (ok && next_set(&rest, &name, &value)) {
    if (!value) {
      cli_misuse(c, "--set takes NAME=VALUE, not '%s'", name);
      ok = false;
    } else {
      bool mapping = tlop_model_has_mapping_param(model, name) ||
                     (!tlop_model_has_op_param(model, name) && mapping_spelt(value));
      ok = (mapping ? tlop_env_set_mapping(env, name, value)
            : tlop_model_has_op_param(model, name)    ? tlop_env_set_op(env, name, value)
                                                      : tlop_env_set_text(env, name, value)) == TLOP_OK;
    }
  }
  free(copy);
  return ok;
}

/* NAME is written in TEXT as a whole word: a name the user typed is used even when the
 * cost does not depend on it (log_nP's bcast ignores m). */
static bool written_in(const char *text, const char *name) {
  size_t len = strlen(name);
  for (const char *s = strstr(text, name); s; s = strstr(s + 1, name)) {
    bool starts = s == text || !(isalnum((unsigned char)s[-1]) || s[-1] == '_');
    bool ends = !(isalnum((unsigned char)s[len]) || s[len] == '_');
    if (starts && ends)
      return true;
  }
  return false;
}

/* The nearest name so far, for "did you mean": the same letters in another case, else a
 * name as near as the checker suggests. */
typedef struct nearest_name {
  const char *name;
  unsigned distance;
} nearest_name;

/* Whether one of KNOWN is NAME; else keeps the nearest of them in *near. */
static bool among(const char *name, const char *const *known, size_t n, nearest_name *near) {
  size_t len = strlen(name);
  for (size_t i = 0; i < n; i++) {
    if (!strcmp(known[i], name))
      return true;
    unsigned d = !strcasecmp(known[i], name) ? 0 : tlop_name_distance(name, known[i]);
    if (d < near->distance && (d == 0 || (d < len && d <= (len > 3 ? 2u : 1u))))
      *near = (nearest_name){known[i], d};
  }
  return false;
}

/* Whether `name` is a parameter of the algorithm `text` is, or of an algorithm of the
 * model's file that the expression `text` calls: --set gives a defaulted one its value. */
static bool param_of_named(tlop_model *m, const char *text, const char *name, nearest_name *near) {
  size_t nparams = 0;
  const char *const *params = tlop_algorithm_params(m, text, &nparams);
  if (params)
    return among(name, params, nparams, near);
  const char **algos;
  size_t nalgos = tlop_model_algorithms(m, &algos);
  for (size_t i = 0; i < nalgos; i++) {
    params = tlop_algorithm_params(m, algos[i], &nparams);
    if (written_in(text, algos[i]) && among(name, params, nparams, near))
      return true;
  }
  return false;
}

/* Whether `name` is written in one of texts, a variable of one of exprs (NULL: texts are
 * algorithm names), a parameter of an algorithm a text names, or one of `others`. */
static bool used_by(tlop_model *m, const cli_set_users *u, const char *name, nearest_name *near) {
  for (size_t a = 0; a < u->n; a++) {
    const char **vars = NULL;
    size_t nvars = u->exprs ? tlop_expr_variables(u->exprs[a], &vars) : 0;
    if (written_in(u->texts[a], name) || among(name, vars, nvars, near) ||
        param_of_named(m, u->texts[a], name, near))
      return true;
  }
  return among(name, u->others, u->nothers, near);
}

bool cli_check_sets(cli *c, tlop_model *m, const cli_set_users *users) {
  bool ok = true;
  for (size_t i = 0; i < c->o.nsets; i++) {
    char *copy = strdup(c->o.sets[i]), *rest = copy, *name, *value;
    nearest_name near = {NULL, 99};
    while (next_set(&rest, &name, &value))
      if (value && !tlop_model_has_param(m, name) && !tlop_model_has_op_param(m, name) &&
          !tlop_model_has_mapping_param(m, name) && !used_by(m, users, name, &near)) {
        if (near.name)
          cli_misuse(c, "--set %s: nothing evaluated has a variable '%s' (did you mean '%s'?)",
                     name, name, near.name);
        else
          cli_misuse(c, "--set %s: nothing evaluated has a variable '%s'", name, name);
        ok = false;
      }
    free(copy);
  }
  return ok;
}

bool cli_check_sets_named(cli *c, tlop_model *m, const char *const *algorithms, size_t n) {
  const char **claim_vars;
  size_t nclaim_vars = tlop_model_claim_variables(m, &claim_vars);
  return cli_check_sets(c, m, &(cli_set_users){(char *const *)algorithms, NULL, n, claim_vars,
                                               nclaim_vars});
}

tlop_env *cli_env(cli *c, tlop_model *model) {
  tlop_env *env = tlop_env_new(c->ctx);
  for (size_t i = 0; i < c->o.nsets; i++)
    if (!set_values(c, model, env, c->o.sets[i])) {
      tlop_env_free(env);
      c->misused = true;
      return NULL;
    }
  return env;
}

void cli_misuse(cli *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "tlop %s: ", c->cmd);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  c->misused = true;
}

int cli_failed(cli *c) {
  if (!c->misused)
    return EXIT_INPUT;
  fprintf(stderr, "Try 'tlop %s --help'.\n", c->cmd);
  return EXIT_USAGE;
}

tlop_platform *cli_platform(cli *c, tlop_model *model) {
  tlop_platform *pf;
  if (tlop_platform_open(model, c->o.platform, &pf) != TLOP_OK)
    return NULL;
  for (size_t i = 0; i < c->o.nparams; i++) {
    const char *spec = c->o.params[i];
    const char *eq = strchr(spec, '=');
    char *channel = eq ? strndup(spec, (size_t)(eq - spec)) : NULL;
    tlop_status st = tlop_platform_bind_table(pf, channel, eq ? eq + 1 : spec);
    free(channel);
    if (st != TLOP_OK) {
      tlop_platform_free(pf);
      return NULL;
    }
  }
  return pf;
}

char *cli_platform_label(const cli *c, const tlop_platform *pf) {
  const char *name = tlop_platform_name(pf);
  size_t n = strlen(name) + sizeof " with --params";
  for (size_t i = 0; i < c->o.nparams; i++)
    n += strlen(c->o.params[i]) + 2;
  char *s = malloc(n);
  if (!s)
    return NULL;
  strcpy(s, name);
  for (size_t i = 0; i < c->o.nparams; i++) {
    strcat(s, i ? ", " : " with --params ");
    strcat(s, c->o.params[i]);
  }
  return s;
}

FILE *cli_output(cli *c) {
  if (!c->o.output || !strcmp(c->o.output, "-"))
    return stdout;
  FILE *f = fopen(c->o.output, "w");
  if (!f)
    fprintf(stderr, "tlop: cannot write '%s': %s\n", c->o.output, strerror(errno));
  return f;
}

void cli_fmt_value(char *buf, size_t n, double v, tlop_kind k) {
  if (k == TLOP_KIND_TIME)
    tlop_format_time(buf, n, v);
  else if (k == TLOP_KIND_SIZE)
    tlop_format_size(buf, n, v);
  else
    snprintf(buf, n, "%.10g", v);
}

int cli_text_width(const char *s) {
  int w = 0;
  for (; *s; s++)
    w += ((unsigned char)*s & 0xC0) != 0x80;
  return w;
}

int cli_room(int width, const char *s) {
  int w = width - cli_text_width(s);
  return w > 0 ? w : 0;
}

/* An installed command finds its stdlib beside itself (PREFIX/bin → PREFIX/share), so an
 * installation can be moved; a command in a build tree keeps the configured one. */
static void use_installed_stdlib(tlop_ctx *ctx) {
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 64);
  if (n <= 0)
    return;
  exe[n] = 0;
  char *slash = strrchr(exe, '/');
  if (!slash)
    return;
  strcpy(slash, "/../share/tlop/stdlib");
  struct stat st;
  if (stat(exe, &st) == 0 && S_ISDIR(st.st_mode))
    tlop_ctx_set_stdlib_dir(ctx, exe);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return EXIT_USAGE;
  }
  const char *name = argv[1];
  if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
    usage(stdout);
    return EXIT_OK;
  }
  if (!strcmp(name, "--version")) {
    printf("tlop %s\n", tlop_version());
    return EXIT_OK;
  }
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
    if (strcmp(name, commands[i].name) != 0)
      continue;
    cli_limit_memory(DEFAULT_MAX_MEMORY);
    cli_grow_stack();
    cli c = {0};
    c.cmd = name;
    c.ctx = tlop_ctx_new();
    tlop_ctx_set_diag(c.ctx, cli_print_diag, NULL);
    use_installed_stdlib(c.ctx);
    int rc = commands[i].run(&c, argc - 1, argv + 1);
    /* --strict: a warning was reported as an error, whatever the command made of it */
    if (c.o.strict && rc == EXIT_OK && tlop_ctx_errors(c.ctx) > 0)
      rc = EXIT_INPUT;
    tlop_ctx_free(c.ctx);
    free((void *)c.o.params);
    free((void *)c.o.sets);
    free((void *)c.o.grids);
    forget_warnings();
    return rc;
  }
  fprintf(stderr, "tlop: unknown command '%s'\n", name);
  usage(stderr);
  return EXIT_USAGE;
}
