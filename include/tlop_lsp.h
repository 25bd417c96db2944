/* tlop_lsp.h — editor services of libtlop: the canonical layout of .tlop source (`tlop fmt`)
 * and a Language Server Protocol server (`tlop lsp`) that is handed one JSON-RPC message
 * at a time and hands its answers to a callback: the caller owns the input and the output
 * and their framing (Content-Length headers). docs/editors.md describes both. */
#ifndef TLOP_LSP_H_PUBLIC
#define TLOP_LSP_H_PUBLIC

#include "tlop.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Operators as written (∥ or ||, Σ or sum, ≤ or <=, …), or all of them made one kind. */
typedef enum { TLOP_OPS_KEEP, TLOP_OPS_ASCII, TLOP_OPS_UNICODE } tlop_ops;

/* The canonical layout of TEXT (named NAME in messages): one statement's lines indented by
 * its brackets, one space around operators, comments and line breaks kept, at most one
 * blank line in a row. TLOP_ERR_SYNTAX (with diagnostics on ctx) when TEXT does not parse.
 * *out is malloc'd. Formatting its own output changes nothing. */
TLOP_API tlop_status tlop_format_source(tlop_ctx *ctx, const char *name, const char *text, size_t len,
                                 tlop_ops ops, char **out);

typedef struct tlop_lsp tlop_lsp;
/* Writes one JSON-RPC message (a response or a notification, without framing). */
typedef void (*tlop_lsp_send_fn)(void *user, const char *json, size_t len);

/* A server. Its client may give, in initialize's initializationOptions, "stdlib": the
 * directory of the stdlib's files (else the installed one; the copy built into the library
 * has no file to jump to) and "include": directories searched for imports. */
TLOP_API tlop_lsp *tlop_lsp_new(void);
/* Handles one message; returns -1 while the server runs, else the exit status the client
 * asked for (0 after shutdown then exit, 1 after exit alone). A malformed message is
 * answered with a JSON-RPC error and the server goes on. */
TLOP_API int tlop_lsp_handle(tlop_lsp *server, const char *message, size_t len,
                             tlop_lsp_send_fn send, void *user);
TLOP_API void tlop_lsp_free(tlop_lsp *server);

#ifdef __cplusplus
}
#endif
#endif
