/* cmd_fmt.c — `tlop fmt`: the canonical layout of .tlop files (tlop_format), written back,
 * printed, or only checked (--check, for CI). */
#include "cli.h"
#include "tlop_lsp.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char fmt_help[] =
    "usage: tlop fmt [OPTION]... [FILE]...\n"
    "Lay out each FILE in the canonical layout and write it back (no FILE, or '-': read\n"
    "standard input, write standard output). Comments and line breaks are kept; blanks\n"
    "and indentation are the formatter's. Formatting twice changes nothing.\n\n"
    "      --check            change nothing: name each FILE that is not formatted, exit 1\n"
    "      --stdout           write the layout to standard output, not back to FILE\n"
    "      --ascii            operators in ASCII: || sum <= >= != -> * - .. and or not\n"
    "      --unicode          operators in Unicode: ∥ Σ ≤ ≥ ≠ → · − … ∧ ∨ ¬ γ τ\n"
    "                         (default: each operator as written)\n" HELP_MEMORY HELP_HELP;

static const struct option fmt_opts[] = {{"check", no_argument, 0, 'c'},
                                         {"stdout", no_argument, 0, 'o'},
                                         {"ascii", no_argument, 0, 'a'},
                                         {"unicode", no_argument, 0, 'u'},
                                         {0, 0, 0, 0}};

static struct {
  bool check, to_stdout;
  tlop_ops ops;
} fo;

static int take(cli *c, int opt, const char *arg) {
  (void)c, (void)arg;
  switch (opt) {
  case 'c': fo.check = true; return 1;
  case 'o': fo.to_stdout = true; return 1;
  case 'a': fo.ops = TLOP_OPS_ASCII; return 1;
  case 'u': fo.ops = TLOP_OPS_UNICODE; return 1;
  default: return 0;
  }
}

/* One file (or standard input, path "-"): 0 formatted, 1 not (--check) or an error. */
static int format_one(cli *c, const char *path) {
  bool std = strcmp(path, "-") == 0;
  size_t len = 0;
  char *text;
  if (tlop_read_file(c->ctx, path, &text, &len) != TLOP_OK)
    return EXIT_INPUT;
  char *out = NULL;
  int rc = EXIT_INPUT;
  if (tlop_format_source(c->ctx, std ? "<stdin>" : path, text, len, fo.ops, &out) == TLOP_OK) {
    bool same = strlen(out) == len && memcmp(out, text, len) == 0;
    rc = EXIT_OK;
    if (fo.check) {
      if (!same) {
        printf("%s\n", path);
        rc = EXIT_INPUT;
      }
    } else if (std || fo.to_stdout) {
      fputs(out, stdout);
    } else if (!same) {
      FILE *f = fopen(path, "wb");
      if (!f || fputs(out, f) == EOF || fclose(f) != 0) {
        fprintf(stderr, "tlop fmt: cannot write '%s': %s\n", path, strerror(errno));
        rc = EXIT_INPUT;
      }
    }
  }
  free(out);
  free(text);
  return rc;
}

int cmd_fmt(cli *c, int argc, char **argv) {
  fo.check = fo.to_stdout = false;
  fo.ops = TLOP_OPS_KEEP;
  cli_allow(c, "");
  int rc = cli_parse_options(c, argc, argv, "fmt", fmt_help, fmt_opts, "", take);
  if (rc >= 0)
    return rc;
  if (optind == argc)
    return format_one(c, "-");
  rc = EXIT_OK;
  for (int i = optind; i < argc; i++) {
    int one = format_one(c, argv[i]);
    rc = rc ? rc : one;
  }
  return rc;
}
