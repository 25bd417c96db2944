/* print.h — IR back to text: the printer (print.c), the units it restores (units.c),
 * and reading back its LaTeX (latex.c). Depends on ir. */
#ifndef TLOP_PRINT_H
#define TLOP_PRINT_H

#include "ir/ir.h"

/* ======== latex.c: reading back the printer's LaTeX ======== */

/* The papers' notation for a LaTeX text that print.c wrote; NULL and *error otherwise. */
char *latex_read(const char *tex, const char **error);

/* ======== print.c: IR → text ======== */

char *prt_expr(tlop_ctx *ctx, const ir_node *n, tlop_format f);
void prt_expr_to(strbuf *b, const ir_node *n, tlop_format f);
/* The expression with its lets shown (let x = v in …); .tlop with the units restored.
 * NULL when it does not fit --max-print (said so). */
char *prt_expr_lets(tlop_ctx *ctx, const tlop_expr *e, tlop_format f);
/* Whether n prints within --max-print nodes as a tree; if not, says so. */
bool prt_fits(tlop_ctx *ctx, const ir_node *n);
char *prt_dump(tlop_ctx *ctx, const ir_node *n);

/* ======== units.c: the units a simplified expression's numbers lost, for printing ======== */
/* Every number that needs its unit to check again (.tlop source), or, with
 * comparisons_only, those compared with a size or time (the papers' m > 4 B). */
ir_node *units_restore(const tlop_expr *e, bool comparisons_only);
/* The kind of a node of e, as the checker would read it. */
kind units_kind(const tlop_expr *e, const ir_node *n);

#endif
