/* api.h — what the public API (api.c) offers the libraries above it (the JIT):
 * model facts, environments read as kinds, extrapolation warnings. Depends on prove. */
#ifndef TLOP_API_H
#define TLOP_API_H

#include "prove/prove.h"

/* Warns once per kind of extrapolation es saw, with its first example (also the JIT's). */
void warn_extrapolations(tlop_ctx *ctx, eval_state *es);
/* The kinds of extrapolation (bits as eval_extrapolations) warn_extrapolations would still
 * report: all, or under warn_once those the current group has not met. */
unsigned warn_pending(const tlop_ctx *ctx);

#endif
