/* cmd_expr.c — the subcommands that work on one expression or file: check, eval,
 * explain and dump-ir. */
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* ---- check ---- */

static const char check_help[] =
    "usage: tlop check [OPTION]... FILE...\n"
    "Parse and check each FILE and what it imports: syntax, names, arity, recursion,\n"
    "kinds, and the tables of the platforms it declares (and of --platform, --params),\n"
    "including the gamma table's operators its algorithms reduce with. Silent on success.\n\n" HELP_SOURCES HELP_PLATFORM HELP_PARAMS HELP_SET HELP_HELP;

int cmd_check(cli *c, int argc, char **argv) {
  cli_allow(c, "IPTsRYDLO");
  int rc = cli_parse_options(c, argc, argv, "check", check_help, NULL, NULL, NULL);
  if (rc >= 0)
    return rc;
  if (optind >= argc)
    return cli_usage_error("check", "no FILE to check");
  bool ok = true;
  for (int i = optind; i < argc; i++) {
    tlop_model *m = cli_load(c, argv[i]);
    if (!m) {
      ok = false;
      continue;
    }
    /* --set, --platform and --params are checked too: the values parse, the platform
     * exists, the tables read; every platform's gamma table has the operators the file's
     * algorithms reduce with (their defaults, or --set's). The platform the algorithms
     * are known to run on (--platform, or the file's only one) has their channels too. */
    const char **names;
    size_t n = tlop_model_algorithms(m, &names);
    tlop_env *env = cli_check_sets_named(c, m, names, n) ? cli_env(c, m) : NULL;
    ok &= env != NULL;
    n = tlop_model_platforms(m, &names);
    bool named = c->o.platform || c->o.nparams;
    for (size_t j = 0; j <= n; j++) {
      tlop_platform *pf = NULL;
      if (j < n)
        ok &= tlop_platform_open(m, names[j], &pf) == TLOP_OK;
      else if (named)
        ok &= (pf = cli_platform(c, m)) != NULL;
      bool known = j == n || (n == 1 && !named);
      if (pf && env)
        ok &= (known ? tlop_platform_check_algorithms : tlop_platform_check_operators)(pf, m, env) ==
              TLOP_OK;
      tlop_platform_free(pf);
    }
    tlop_env_free(env);
  }
  return ok && tlop_ctx_errors(c->ctx) == 0 ? EXIT_OK : cli_failed(c);
}

/* ---- eval ---- */

static const char eval_help[] =
    "usage: tlop eval [OPTION]... FILE EXPR\n"
    "Evaluate EXPR, any expression over FILE's definitions (e.g. 'bcast_binomial(m,P)'),\n"
    "with the values of --set, on a platform. Prints the cost in seconds.\n\n" COMMON_HELP
    "  -f, --format FMT       text (default: value with unit), plain (only the number,\n"
    "                         %.17g, seconds for a cost) or json\n"
    "  -o, --output FILE      write there instead of standard output\n" HELP_ENGINE;

/* Loads FILE, parses EXPR with --set values and opens the platform. */
typedef struct job {
  tlop_model *model;
  tlop_env *env;
  tlop_expr *expr;
  tlop_platform *pf;
} job;

static void job_free(job *j) {
  tlop_platform_free(j->pf);
  tlop_env_free(j->env);
}

/* With `symbolic`, names the model does not define are free variables. */
static bool job_open(cli *c, job *j, tlop_model *model, const char *text, bool platform,
                     bool symbolic) {
  memset(j, 0, sizeof *j);
  if (!(j->model = model) || !(j->env = cli_env(c, j->model)))
    return false;
  if (!(j->expr = cli_expr(c, j->model, text, symbolic ? NULL : j->env, symbolic)) ||
      !cli_check_sets(c, j->model, &(cli_set_users){(char *const *)&text, &j->expr, 1, NULL, 0}))
    return false;
  return !platform || (j->pf = cli_platform(c, j->model)) != NULL;
}

void cli_json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      fprintf(f, "\\%c", *s);
    else if ((unsigned char)*s < 0x20)
      fprintf(f, "\\u%04x", *s);
    else
      fputc(*s, f);
  }
  fputc('"', f);
}

static const char *unit_of(tlop_kind k) {
  return k == TLOP_KIND_TIME ? "s" : k == TLOP_KIND_SIZE ? "B" : "";
}

static int take_eval(cli *c, int opt, const char *arg) {
  int r = cli_take_engine(c, opt, arg);
  return r ? r : cli_take_format_output(c, opt, arg);
}

int cmd_eval(cli *c, int argc, char **argv) {
  static const struct option opts[] = {{"format", required_argument, 0, 'f'},
                                       {"output", required_argument, 0, 'o'},
                                       CLI_ENGINE_LONGOPTS,
                                       {0, 0, 0, 0}};
  int rc = cli_parse_options(c, argc, argv, "eval", eval_help, opts, "f:o:" CLI_ENGINE_SHORTOPTS,
                             take_eval);
  if (rc >= 0)
    return rc;
  if (argc - optind != 2)
    return cli_usage_error("eval", "expected FILE and EXPR");
  const char *fmt = c->o.format ? c->o.format : "text";
  if (strcmp(fmt, "text") && strcmp(fmt, "plain") && strcmp(fmt, "json"))
    return cli_usage_error("eval", "--format takes text, plain or json, not '%s'", fmt);
  job j = {0};
  double v = 0;
  bool jit = false;
  bool ok = cli_engine(c, 1, &jit) &&
            job_open(c, &j, cli_load(c, argv[optind]), argv[optind + 1], true, false) &&
            (jit ? cli_eval_jit(c, j.expr, j.pf, j.env, &v) : tlop_eval(j.expr, j.pf, j.env, &v)) ==
                TLOP_OK;
  cli_jit_close(c);
  FILE *out = ok ? cli_output(c) : NULL;
  if (out) {
    tlop_kind k = tlop_expr_kind(j.expr);
    if (!strcmp(fmt, "plain")) {
      fprintf(out, "%.17g\n", v);
    } else if (!strcmp(fmt, "json")) {
      fputs("{\"expr\": ", out);
      cli_json_string(out, argv[optind + 1]);
      fprintf(out, ", \"value\": %.17g, \"unit\": \"%s\", \"platform\": ", v, unit_of(k));
      cli_json_string(out, tlop_platform_name(j.pf));
      fputs("}\n", out);
    } else {
      char buf[64];
      cli_fmt_value(buf, sizeof buf, v, k);
      fprintf(out, "%s = %s", argv[optind + 1], buf);
      if (k == TLOP_KIND_TIME)
        fprintf(out, "  (%.9g s)", v);
      fputc('\n', out);
    }
    if (out != stdout)
      fclose(out);
  }
  job_free(&j);
  return out ? EXIT_OK : cli_failed(c);
}

/* ---- explain ---- */

static const char explain_help[] =
    "usage: tlop explain [OPTION]... FILE ALGO\n"
    "Print the stages of algorithm ALGO with its numbers substituted: each stage's\n"
    "τ-Lop expression (∥ pushed into the transfers), its cost and the cumulative cost.\n"
    "ALGO may also be any expression, e.g. 'bcast_binomial(4MiB, 16)'.\n\n" COMMON_HELP
    "      --max-stages N     most stages the breakdown may have (1e5)\n"
    "  -f, --format FMT       text (default) or json\n"
    "  -o, --output FILE      write there instead of standard output\n";

int cmd_explain(cli *c, int argc, char **argv) {
  int rc = cli_parse_options(c, argc, argv, "explain", explain_help, cli_format_output_opts, "f:o:",
                         cli_take_format_output);
  if (rc >= 0)
    return rc;
  if (argc - optind != 2)
    return cli_usage_error("explain", "expected FILE and ALGO");
  const char *fmt = c->o.format ? c->o.format : "text";
  if (strcmp(fmt, "text") && strcmp(fmt, "json"))
    return cli_usage_error("explain", "--format takes text or json, not '%s'", fmt);
  tlop_model *m = cli_load(c, argv[optind]);
  if (!m)
    return EXIT_INPUT;
  const char *call = argv[optind + 1];
  job j;
  tlop_stage *rows = NULL;
  size_t n = 0;
  bool ok = job_open(c, &j, m, call, true, false) &&
            tlop_explain(j.expr, j.pf, j.env, &rows, &n) == TLOP_OK;
  FILE *out = ok ? cli_output(c) : NULL;
  if (out && !strcmp(fmt, "json")) {
    fputs("{\"algorithm\": ", out);
    cli_json_string(out, call);
    fputs(", \"stages\": [", out);
    for (size_t i = 0; i < n; i++) {
      fputs(i ? ",\n  {\"stage\": " : "\n  {\"stage\": ", out);
      cli_json_string(out, rows[i].index);
      if (rows[i].label) {
        fputs(", \"label\": ", out);
        cli_json_string(out, rows[i].label);
      }
      fputs(", \"expr\": ", out);
      cli_json_string(out, rows[i].expr);
      fprintf(out, ", \"times\": %.17g, \"cost\": %.17g, \"cumulative\": %.17g}", rows[i].times,
              rows[i].cost, rows[i].cumulative);
    }
    fprintf(out, "\n], \"total\": %.17g}\n", n ? rows[n - 1].cumulative : 0.0);
  } else if (out) {
    char *label = cli_platform_label(c, j.pf);
    fprintf(out, "%s on platform %s\n\n", call, label ? label : tlop_platform_name(j.pf));
    free(label);
    /* the expression column as wide as its widest row: a long one would push its row's
     * costs out of their columns */
    int width = 44;
    for (size_t i = 0; i < n; i++) {
      int w = cli_text_width(rows[i].expr) + (rows[i].label ? cli_text_width(rows[i].label) + 2 : 0);
      width = w > width ? w : width;
    }
    fprintf(out, "%-8s  %-*s  %16s  %12s\n", "stage", width, "expression", "cost", "cumulative");
    for (size_t i = 0; i < n; i++) {
      char cost[48], cum[48], each[96];
      cli_fmt_value(cost, sizeof cost, rows[i].cost, TLOP_KIND_TIME);
      cli_fmt_value(cum, sizeof cum, rows[i].cumulative, TLOP_KIND_TIME);
      if (rows[i].times != 1)
        snprintf(each, sizeof each, "%.10g × %s", rows[i].times, cost);
      else
        snprintf(each, sizeof each, "%s", cost);
      char label[160] = "";
      if (rows[i].label)
        snprintf(label, sizeof label, "%s: ", rows[i].label);
      fprintf(out, "%-8s  %s%s", rows[i].index, label, rows[i].expr);
      /* Pad by characters, not bytes: the expressions are UTF-8 (∥, ·). */
      for (int w = cli_text_width(label) + cli_text_width(rows[i].expr); w < width; w++)
        fputc(' ', out);
      /* "3 × 1.2 µs": right-aligned by characters too */
      fprintf(out, "  %*s%s  %*s%s\n", cli_room(16, each), "", each, cli_room(12, cum), "", cum);
    }
    char total[48];
    cli_fmt_value(total, sizeof total, n ? rows[n - 1].cumulative : 0, TLOP_KIND_TIME);
    fprintf(out, "\ntotal: %s  (%.9g s)\n", total, n ? rows[n - 1].cumulative : 0.0);
  }
  if (out && out != stdout)
    fclose(out);
  tlop_stages_free(rows, n);
  job_free(&j);
  return out ? EXIT_OK : cli_failed(c);
}

/* ---- dump-ir ---- */

static const char dump_help[] =
    "usage: tlop dump-ir [OPTION]... FILE EXPR\n"
    "Print the cost IR of EXPR: the hash-consed DAG with one line per distinct node\n"
    "(--format dag, default), or the expression in the papers' notation (unicode) or\n"
    "as .tlop source (tlop). Names the file does not define are symbols.\n\n" HELP_SOURCES HELP_HELP
    "  -f, --format FMT       dag, unicode or tlop\n"
    "      --max-print N      most nodes unicode or tlop may print as a tree (1e6)\n"
    "  -o, --output FILE      write there instead of standard output\n";

int cmd_dump_ir(cli *c, int argc, char **argv) {
  cli_allow(c, "IRYDV");
  int rc = cli_parse_options(c, argc, argv, "dump-ir", dump_help, cli_format_output_opts, "f:o:",
                         cli_take_format_output);
  if (rc >= 0)
    return rc;
  if (argc - optind != 2)
    return cli_usage_error("dump-ir", "expected FILE and EXPR");
  const char *fmt = c->o.format ? c->o.format : "dag";
  if (strcmp(fmt, "dag") && strcmp(fmt, "unicode") && strcmp(fmt, "tlop"))
    return cli_usage_error("dump-ir", "--format takes dag, unicode or tlop, not '%s'", fmt);
  tlop_model *m = cli_load(c, argv[optind]);
  if (!m)
    return EXIT_INPUT;
  job j;
  bool ok = job_open(c, &j, m, argv[optind + 1], false, true);
  FILE *out = ok ? cli_output(c) : NULL;
  if (out) {
    char *s = !strcmp(fmt, "dag") ? tlop_expr_dump(c->ctx, j.expr)
                                  : tlop_expr_print(c->ctx, j.expr,
                                                    !strcmp(fmt, "tlop") ? TLOP_FORMAT_TLOP
                                                                         : TLOP_FORMAT_UNICODE);
    ok = s != NULL;
    if (s)
      fprintf(out, strcmp(fmt, "dag") ? "%s\n" : "%s", s);
    free(s);
    if (out != stdout)
      fclose(out);
  }
  job_free(&j);
  return out && ok ? EXIT_OK : cli_failed(c);
}

/* ---- simplify ---- */

static const char simplify_help[] =
    "usage: tlop simplify [OPTION]... FILE EXPR\n"
    "Print EXPR (or algorithm EXPR) in the form the papers derive by hand: ∥ pushed into\n"
    "the transfers (A ∥ L(m,τ) = L(m,A·τ); o unaffected), like terms combined, sums\n"
    "closed where a closed form exists (Σ 2^i = 2^n − 1, …), min/max/if decided when the\n"
    "assumptions decide them. Sums with symbolic bounds are never unrolled. Names the\n"
    "file does not define are symbols.\n\n"
    "  -I, --include DIR      search DIR for imports\n"
    "      --set NAME=VALUE,… substitute values (they win over --assume)\n"
    "      --platform NAME    name the default channel (for channel-scoped ∥)\n"
    HELP_DEPTH HELP_MEMORY
    "  -h, --help             this help\n"
    "  -a, --assume FACTS     facts besides the file's `assume`s, comma separated:\n"
    "                         x = e (substitute), P = 2^p (a power of two, p integer),\n"
    "                         x >= e, x <= e (bounds), a + b <= c + d (a linear\n"
    "                         order: a bound of one variable), integer(x)\n"
    "  -f, --format FMT       unicode (default, the papers' notation), latex or tlop\n"
    "                         (source that parses back to the same expression)\n"
    "      --expand           multiply polynomials out instead of taking common factors\n"
    "      --unroll           write out sums and maxima with concrete bounds (up to 64 terms)\n"
    "      --max-unroll N     most terms a sum written out may give, values a nest may have (4096)\n"
    "      --max-print N      most nodes the expression may print as a tree (1e6)\n"
    "  -o, --output FILE      write there instead of standard output\n";

void cli_add_facts(char **facts, const char *more) {
  size_t old = *facts ? strlen(*facts) : 0;
  *facts = realloc(*facts, old + strlen(more) + 3);
  if (!*facts)
    abort();
  snprintf(*facts + old, strlen(more) + 3, "%s%s", old ? ", " : "", more);
}

typedef struct simplify_flags {
  char *assume;
  int expand, unroll;
} simplify_flags;

static simplify_flags sflags;

static int take_simplify(cli *c, int opt, const char *arg) {
  switch (opt) {
  case 'a': cli_add_facts(&sflags.assume, arg); return 1;
  case 'X': sflags.expand = 1; return 1;
  case 'U': sflags.unroll = 1; return 1;
  default: return cli_take_format_output(c, opt, arg);
  }
}

int cmd_simplify(cli *c, int argc, char **argv) {
  cli_allow(c, "IPsRYDJV");
  static const struct option opts[] = {{"assume", required_argument, 0, 'a'},
                                       {"format", required_argument, 0, 'f'},
                                       {"output", required_argument, 0, 'o'},
                                       {"expand", no_argument, 0, 'X'},
                                       {"unroll", no_argument, 0, 'U'},
                                       {0, 0, 0, 0}};
  int rc = cli_parse_options(c, argc, argv, "simplify", simplify_help, opts, "a:f:o:", take_simplify);
  if (rc < 0 && argc - optind != 2)
    rc = cli_usage_error("simplify", "expected FILE and EXPR");
  const char *fmt = c->o.format ? c->o.format : "unicode";
  tlop_format f = !strcmp(fmt, "latex") ? TLOP_FORMAT_LATEX
                  : !strcmp(fmt, "tlop") ? TLOP_FORMAT_TLOP
                                         : TLOP_FORMAT_UNICODE;
  if (rc < 0 && f == TLOP_FORMAT_UNICODE && strcmp(fmt, "unicode"))
    rc = cli_usage_error("simplify", "--format takes unicode, latex or tlop, not '%s'", fmt);
  if (rc >= 0) {
    free(sflags.assume);
    return rc;
  }
  tlop_model *m = cli_load(c, argv[optind]);
  job j;
  tlop_expr *r = NULL;
  bool ok = job_open(c, &j, m, argv[optind + 1], false, true);
  if (ok && c->o.platform)
    ok = (j.pf = cli_platform(c, m)) != NULL;
  if (ok) {
    tlop_simp_opts o = {sflags.assume, sflags.expand, sflags.unroll, j.pf, j.env};
    tlop_status st = tlop_simplify(j.expr, &o, &r);
    c->misused |= st == TLOP_ERR_ARG; /* a bad --assume */
    ok = st == TLOP_OK;
  }
  FILE *out = ok ? cli_output(c) : NULL;
  if (out) {
    char *s = tlop_expr_print(c->ctx, r, f);
    ok = s != NULL;
    if (s)
      fprintf(out, "%s\n", s);
    free(s);
    if (out != stdout)
      fclose(out);
  }
  free(sflags.assume);
  job_free(&j);
  return out && ok ? EXIT_OK : cli_failed(c);
}
