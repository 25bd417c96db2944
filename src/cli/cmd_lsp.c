/* cmd_lsp.c — `tlop lsp`: the language server on standard input and output. The library
 * (tlop_lsp_handle) answers each message; this file frames them: `Content-Length: N`, a
 * blank line, N bytes of JSON. */
#include "cli.h"
#include "tlop_lsp.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char lsp_help[] =
    "usage: tlop lsp\n"
    "A Language Server Protocol server on standard input and output, for editors: the\n"
    "diagnostics of `tlop check` as one types, claims proved on save, hover with the\n"
    "normal form and the cost, definitions and references, completion, symbols and\n"
    "formatting (docs/editors.md).\n\n" HELP_MEMORY HELP_HELP;

/* A message larger than this is read and dropped: no editor sends one. */
#define MAX_MESSAGE (256u << 20)

static void send_framed(void *user, const char *json, size_t len) {
  (void)user;
  fprintf(stdout, "Content-Length: %zu\r\n\r\n", len);
  fwrite(json, 1, len, stdout);
  fflush(stdout);
}

/* The length a message's headers give; 0 at the end of input; SIZE_MAX when the headers
 * hold no Content-Length. */
static size_t read_headers(FILE *in, bool *eof) {
  char line[1024];
  size_t length = SIZE_MAX;
  while (fgets(line, sizeof line, in)) {
    if (strcmp(line, "\r\n") == 0 || strcmp(line, "\n") == 0)
      return length;
    if (strncasecmp(line, "Content-Length:", 15) == 0) {
      char *end;
      unsigned long long n = strtoull(line + 15, &end, 10);
      length = (end != line + 15 && n <= MAX_MESSAGE) ? (size_t)n : SIZE_MAX;
    }
  }
  *eof = true;
  return 0;
}

int cmd_lsp(cli *c, int argc, char **argv) {
  cli_allow(c, "");
  int rc = cli_parse_options(c, argc, argv, "lsp", lsp_help, NULL, "", NULL);
  if (rc >= 0)
    return rc;
  if (optind != argc)
    return cli_usage_error("lsp", "takes no operand");
  tlop_lsp *server = tlop_lsp_new();
  rc = -1;
  bool eof = false;
  while (rc < 0 && !eof) {
    size_t len = read_headers(stdin, &eof);
    if (eof || len == SIZE_MAX)
      continue; /* no length: the headers are skipped, the next message framed anew */
    char *body = malloc(len + 1);
    if (!body)
      abort();
    size_t got = fread(body, 1, len, stdin);
    body[got] = 0;
    if (got < len)
      eof = true;
    else
      rc = tlop_lsp_handle(server, body, len, send_framed, NULL);
    free(body);
  }
  tlop_lsp_free(server);
  return rc < 0 ? EXIT_INPUT : rc;
}
