/* cmd_prove.c — `tlop prove FILE…`: every claim of the files decided, its derivation,
 * counterexample or evidence printed, and a summary line (exit 0 when all are proved);
 * `tlop compare FILE A B`: A ≥ B, A ≤ B and the tightest c of A ≥ c·B. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const char prove_help[] =
    "usage: tlop prove [OPTION]... FILE...\n"
    "Decides every `claim` of the files: proved (with the derivation), refuted (with a\n"
    "counterexample the reference evaluator checked) or unknown (with numeric evidence\n"
    "when --params/--platform and --grid are given). Exit 0 when every claim is proved.\n\n"
    "      --strict           assume L strictly increasing in τ for every claim\n"
    "      --assume FACTS     more facts: 'P = 2^p, p >= 1'\n"
    "      --timeout SEC      per claim (default 5); an undecided claim is unknown\n"
    "      --grid NAME=SPEC   the evidence's grid (a..b:*f, a..b:+d or v1,v2,…)\n"
    "      --format F         text (default), latex or json\n"
    "      --axiom NAME       switch an optional axiom on (repeatable): o-monotone, …\n"
    "      --axioms           print the axioms (with --axiom: which are on) and exit\n"
    "  -o, --output FILE      write there instead of standard output\n" HELP_SOURCES HELP_PLATFORM
        HELP_PARAMS HELP_SET;

typedef struct prove_flags {
  char *assume, *axioms; /* axioms: the names of --axiom, separated by commas */
  int strict, list_axioms;
  double timeout;
} prove_flags;

static prove_flags pflags;

static int take_prove(cli *c, int opt, const char *arg) {
  switch (opt) {
  case 'a': cli_add_facts(&pflags.assume, arg); return 1;
  case 'S': pflags.strict = 1; return 1;
  case 'A': pflags.list_axioms = 1; return 1;
  case 'k':
    if (!tlop_axiom_known(arg)) {
      cli_misuse(c, "unknown axiom '%s' (tlop prove --axioms lists them)", arg);
      return -1;
    }
    cli_add_facts(&pflags.axioms, arg);
    return 1;
  case 't': {
    char *end;
    pflags.timeout = strtod(arg, &end);
    if (*end || !(pflags.timeout > 0)) {
      cli_misuse(c, "--timeout takes a positive number of seconds, not '%s'", arg);
      return -1;
    }
    return 1;
  }
  case 'g':
    return cli_take_grid(c, opt, arg);
  default: return cli_take_format_output(c, opt, arg);
  }
}

/* Decides the claims of one file into out; counts the verdicts. A claim that fails (its
 * error reported) counts as unknown and the others are still decided; false after any
 * failure. */
static bool prove_file(cli *c, const char *path, tlop_prove_opts *o, FILE *out, size_t count[3]) {
  tlop_model *m = cli_load(c, path);
  if (!m)
    return false;
  bool ok = true;
  tlop_axis *axes = calloc(c->o.ngrids + 1, sizeof *axes);
  size_t naxes = 0;
  for (; ok && naxes < c->o.ngrids; naxes++)
    ok = tlop_axis_parse(c->ctx, c->o.grids[naxes], &axes[naxes]) == TLOP_OK &&
         tlop_claim_axis_check(m, &axes[naxes]) == TLOP_OK;
  c->misused |= !ok;
  tlop_env *env = ok && cli_check_sets_named(c, m, NULL, 0) ? cli_env(c, m) : NULL;
  tlop_platform *pf = ok && (c->o.platform || c->o.nparams) ? cli_platform(c, m) : NULL;
  ok = ok && env && (pf || !(c->o.platform || c->o.nparams));
  o->platform = pf, o->env = env, o->axes = axes, o->naxes = ok ? naxes : 0;
  bool decided = ok;
  for (size_t i = 0; decided && i < tlop_model_claims(m); i++) {
    tlop_proof *p;
    tlop_status st = tlop_prove_claim(m, i, o, &p);
    c->misused |= st == TLOP_ERR_ARG && o->assume;
    if (st == TLOP_ERR_ARG && o->assume) { /* --assume is wrong for every claim */
      decided = false;
      break;
    }
    if (st != TLOP_OK) {
      ok = false;
      count[TLOP_UNKNOWN]++;
      continue;
    }
    fputs(tlop_proof_text(p), out);
    count[tlop_proof_verdict(p)]++;
    tlop_proof_free(p);
  }
  ok &= decided;
  for (size_t i = 0; i < naxes; i++)
    tlop_axis_free(&axes[i]);
  free(axes);
  tlop_platform_free(pf);
  tlop_env_free(env);
  return ok;
}

int cmd_prove(cli *c, int argc, char **argv) {
  cli_allow(c, "IPTsRYDLO");
  static const struct option opts[] = {
      {"assume", required_argument, 0, 'a'}, {"strict", no_argument, 0, 'S'},
      {"timeout", required_argument, 0, 't'}, {"grid", required_argument, 0, 'g'},
      {"axioms", no_argument, 0, 'A'},       {"axiom", required_argument, 0, 'k'},
      {"format", required_argument, 0, 'f'},
      {"output", required_argument, 0, 'o'}, {0, 0, 0, 0}};
  int rc = cli_parse_options(c, argc, argv, "prove", prove_help, opts, "o:", take_prove);
  const char *fmt = c->o.format ? c->o.format : "text";
  bool json = !strcmp(fmt, "json"), latex = !strcmp(fmt, "latex");
  if (rc < 0 && !json && !latex && strcmp(fmt, "text"))
    rc = cli_usage_error("prove", "--format takes text, latex or json, not '%s'", fmt);
  if (rc < 0 && !pflags.list_axioms && argc - optind < 1)
    rc = cli_usage_error("prove", "expected FILE");
  if (rc >= 0 || pflags.list_axioms) {
    if (rc < 0) {
      char *list = tlop_axioms_list(pflags.axioms);
      fputs(list, stdout);
      free(list);
    }
    free(pflags.assume);
    free(pflags.axioms);
    return rc < 0 ? EXIT_OK : rc;
  }
  tlop_prove_opts o = {.strict = pflags.strict, .timeout = pflags.timeout,
                       .format = latex ? TLOP_FORMAT_LATEX : TLOP_FORMAT_UNICODE, .json = json,
                       .assume = pflags.assume, .axioms = pflags.axioms};
  FILE *out = cli_output(c);
  size_t count[3] = {0, 0, 0};
  bool ok = out != NULL;
  /* every file, whatever failed before it, and the summary after them */
  for (int i = optind; out && i < argc && !c->misused; i++)
    ok &= prove_file(c, argv[i], &o, out, count);
  if (out && !json && !c->misused)
    fprintf(out, "%zu proved, %zu refuted, %zu unknown\n", count[TLOP_PROVED], count[TLOP_REFUTED],
            count[TLOP_UNKNOWN]);
  if (out && out != stdout)
    fclose(out);
  free(pflags.assume);
  free(pflags.axioms);
  if (!ok)
    return cli_failed(c);
  return count[TLOP_REFUTED] + count[TLOP_UNKNOWN] ? EXIT_INPUT : EXIT_OK;
}

static const char compare_help[] =
    "usage: tlop compare [OPTION]... FILE A B\n"
    "Compares two expressions over the model of FILE (algorithm calls, transfers, …):\n"
    "whether A >= B and A <= B are proved, refuted or unknown, and the largest constant c\n"
    "for which A >= c·B is proved (and whether c is tight). Exit 0 when an order is proved.\n\n"
    "      --assume FACTS     more facts: 'P = 2^p, p >= 1'\n"
    "      --strict           assume L strictly increasing in τ\n"
    "      --axiom NAME       switch an optional axiom on (repeatable; tlop prove --axioms)\n"
    "      --timeout SEC      (default 5)\n"
    "      --format F         text (default), latex or json\n"
    "  -o, --output FILE      write there instead of standard output\n" HELP_SOURCES;

int cmd_compare(cli *c, int argc, char **argv) {
  cli_allow(c, "IRYD");
  static const struct option opts[] = {
      {"assume", required_argument, 0, 'a'}, {"strict", no_argument, 0, 'S'},
      {"timeout", required_argument, 0, 't'}, {"format", required_argument, 0, 'f'},
      {"axiom", required_argument, 0, 'k'},  {"output", required_argument, 0, 'o'}, {0, 0, 0, 0}};
  int rc = cli_parse_options(c, argc, argv, "compare", compare_help, opts, "o:", take_prove);
  const char *fmt = c->o.format ? c->o.format : "text";
  bool json = !strcmp(fmt, "json"), latex = !strcmp(fmt, "latex");
  if (rc < 0 && !json && !latex && strcmp(fmt, "text"))
    rc = cli_usage_error("compare", "--format takes text, latex or json, not '%s'", fmt);
  if (rc < 0 && argc - optind != 3)
    rc = cli_usage_error("compare", "expected FILE, A and B");
  if (rc >= 0) {
    free(pflags.assume);
    free(pflags.axioms);
    return rc;
  }
  tlop_prove_opts o = {.strict = pflags.strict, .timeout = pflags.timeout,
                       .format = latex ? TLOP_FORMAT_LATEX : TLOP_FORMAT_UNICODE, .json = json,
                       .assume = pflags.assume, .axioms = pflags.axioms};
  tlop_model *m = cli_load(c, argv[optind]);
  tlop_proof *p = NULL;
  tlop_status st = m ? tlop_prove_compare(m, argv[optind + 1], argv[optind + 2], &o, &p) : TLOP_ERR_CHECK;
  c->misused |= st == TLOP_ERR_ARG;
  FILE *out = st == TLOP_OK ? cli_output(c) : NULL;
  if (out) {
    fputs(tlop_proof_text(p), out);
    if (out != stdout)
      fclose(out);
  }
  bool decided = p && tlop_proof_verdict(p) == TLOP_PROVED;
  tlop_proof_free(p);
  free(pflags.assume);
  free(pflags.axioms);
  if (!out)
    return cli_failed(c);
  return decided ? EXIT_OK : EXIT_INPUT;
}
