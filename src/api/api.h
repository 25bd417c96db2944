/* api.h — what the public API (api.c) offers the libraries above it (the JIT):
 * model facts, environments read as kinds, extrapolation warnings. Depends on prove. */
#ifndef TLOP_API_H
#define TLOP_API_H

#include "prove/prove.h"

/* The model's `assume` facts and those of an --assume text, lowered (appended to
 * *facts); false (after diagnostics) when the text is wrong. */
bool model_facts(tlop_model *model, const char *assume, ir_node ***facts, size_t *n,
                 size_t *cap);
/* Binds env values of a model into a kinds map, for checking expressions. */
void env_kinds(const tlop_env *env, ptrmap *out);
/* Warns once per kind of extrapolation es saw, with its first example (also the JIT's). */
void warn_extrapolations(tlop_ctx *ctx, eval_state *es);

#endif
