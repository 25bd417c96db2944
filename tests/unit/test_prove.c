/* test_prove.c — the prover. (1) Every claim of examples/claims.tlop and
 * examples/rda_vs_scatter.tlop reaches the verdict its `# expect:` comment names, and a
 * refutation's counterexample really breaks the claim. (2) Soundness: every proved claim
 * holds at thousands of random points for random L that satisfy the axioms (and, for
 * `claim strict`, are strictly increasing in τ), evaluated by the reference evaluator. */
#define _POSIX_C_SOURCE 200809L
#include "api/api.h"
#include "unit.h"

#include <stdint.h>
#include <stdlib.h>

static tlop_ctx *ctx;

static uint64_t rng = 0x9e3779b97f4a7c15u;
static double uniform(void) { /* [0, 1) */
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (double)(rng >> 11) / 9007199254740992.0;
}

/* The verdict named by the `# expect:` line above the claim at offset `at`. */
static int expected(const source *src, uint32_t at) {
  const char *t = src->text, *line = t + at;
  while (line > t && line[-1] != '\n')
    line--;
  const char *prev = line > t ? line - 1 : t;
  while (prev > t && prev[-1] != '\n')
    prev--;
  if (strncmp(prev, "# expect: proved", 16) == 0)
    return TLOP_PROVED;
  if (strncmp(prev, "# expect: refuted", 17) == 0)
    return TLOP_REFUTED;
  if (strncmp(prev, "# expect: unknown", 17) == 0)
    return TLOP_UNKNOWN;
  return -1;
}

/* L = a + b·m + c·(1 + m)·τ^e: ≥ 0, non-decreasing, L(m, A·τ) ≤ A·L(m, τ) for e ≤ 1;
 * strictly increasing in τ when c, e > 0. The network pays more: `net` adds to `shm`. */
static ir_node *random_L(sym m, sym tau, ir_node *base) {
  ir_node *M = ir_var(ctx, m), *T = ir_var(ctx, tau);
  ir_node *grow = ir_bin(ctx, IR_MUL, ir_num(ctx, 0.1 + uniform()),
                         ir_bin(ctx, IR_MUL, ir_bin(ctx, IR_ADD, ir_num(ctx, 1), M),
                                ir_bin(ctx, IR_POW, T, ir_num(ctx, 0.1 + 0.9 * uniform()))));
  ir_node *L = ir_bin(ctx, IR_ADD, ir_num(ctx, uniform()),
                      ir_bin(ctx, IR_ADD, ir_bin(ctx, IR_MUL, ir_num(ctx, uniform()), M), grow));
  return base ? ir_bin(ctx, IR_ADD, base, L) : L;
}

static tlop_platform *random_platform(void) {
  tlop_platform *pf = calloc(1, sizeof *pf);
  pf->ctx = ctx;
  pf->name = ctx_sym(ctx, "random");
  sym m = ctx_sym(ctx, "m"), tau = ctx_sym(ctx, "τ");
  pf_channel *shm = pf_add_channel(pf, ctx_sym(ctx, "shm"));
  shm->L = random_L(m, tau, NULL);
  pf_channel *net = pf_add_channel(pf, ctx_sym(ctx, "net"));
  net->L = random_L(m, tau, pf->ch[0].L);
  for (size_t i = 0; i < pf->nch; i++) {
    pf->ch[i].L_m = pf->ch[i].o_m = pf->ch[i].p_m = m;
    pf->ch[i].L_tau = tau;
    /* o and p ≥ 0 and, as no default axiom makes them non-decreasing in m, falling with m
     * half of the time: a + b/(1 + m) */
    for (int k = 0; k < 2; k++) {
      ir_node *v = ir_num(ctx, uniform());
      if (uniform() < 0.5)
        v = ir_bin(ctx, IR_ADD, v, ir_bin(ctx, IR_DIV, ir_num(ctx, uniform()),
                                          ir_bin(ctx, IR_ADD, ir_num(ctx, 1), ir_var(ctx, m))));
      *(k ? &pf->ch[i].p : &pf->ch[i].o) = v;
    }
  }
  pf->gamma_expr = ir_num(ctx, 0);
  pf->gamma_m = m, pf->gamma_tau = tau;
  return pf;
}

/* A proved claim at random points where its facts hold, under random axiomatic L. */
static void check_sound(tlop_model *model, ast_decl *d) {
  ir_node **facts = NULL;
  size_t n = 0, cap = 0;
  CHECK(model_facts(model, NULL, &facts, &n, &cap));
  for (int i = 0; i < d->nfacts; i++)
    VEC_PUSH(facts, n, cap, lower_expr(model, d->facts[i], NULL));
  ir_node *lhs = lower_expr(model, d->body->u.bin.l, NULL);
  ir_node *rhs = lower_expr(model, d->body->u.bin.r, NULL);
  ir_op op = d->body->op == OP_GE ? IR_GE : d->body->op == OP_GT ? IR_GT
             : d->body->op == OP_LE ? IR_LE : d->body->op == OP_LT ? IR_LT : IR_EQ;
  ir_names vars = {0}, channels = {0};
  const ir_node *parts[2] = {lhs, rhs};
  ir_collect_names(parts, 2, &vars, &channels);
  ir_collect_names((const ir_node *const *)facts, n, &vars, &channels);
  static const double values[] = {1, 2, 3, 4, 8, 16, 32};
  int tried = 0;
  for (int trial = 0; trial < 20000 && tried < 300; trial++) {
    tlop_platform *pf = random_platform();
    eval_state *es = eval_new(ctx, pf);
    eval_use_env(es, NULL, model);
    for (size_t i = 0; i < vars.n; i++)
      eval_bind(es, vars.v[i], values[(size_t)(uniform() * 7)]);
    bool hold = true;
    double v, l, r;
    for (size_t i = 0; i < n && hold; i++)
      hold = eval_node(es, facts[i], &v) && v != 0;
    if (hold && eval_node(es, lhs, &l) && eval_node(es, rhs, &r)) {
      tried++;
      double tol = 1e-9 * fmax(1, fmax(fabs(l), fabs(r)));
      bool ok = op == IR_GE ? l >= r - tol : op == IR_GT ? l > r + tol : op == IR_LE ? l <= r + tol
                : op == IR_LT ? l < r - tol : fabs(l - r) <= tol;
      if (!ok)
        fprintf(stderr, "proved claim fails: left %.17g, right %.17g\n", l, r);
      CHECK(ok);
    }
    eval_free(es);
    tlop_platform_free(pf);
  }
  CHECK(tried >= 50); /* the facts let enough points through to mean something */
  free(vars.v);
  free(channels.v);
  free(facts);
}

static void check_file(const char *root, const char *name, size_t want_claims) {
  char path[4096];
  snprintf(path, sizeof path, "%s/examples/%s", root, name);
  tlop_model *model;
  CHECK(tlop_load_file(ctx, path, &model) == TLOP_OK);
  if (!model)
    return;
  size_t n = tlop_model_claims(model);
  CHECK(n == want_claims);
  size_t k = 0;
  for (ast_decl *d = model->root->decls; d; d = d->next) {
    if (d->kind != D_CLAIM)
      continue;
    tlop_proof *p;
    CHECK(tlop_prove_claim(model, k++, NULL, &p) == TLOP_OK);
    int want = expected(model->root->src, d->sp.lo);
    CHECK(want >= 0);
    if ((int)tlop_proof_verdict(p) != want)
      fprintf(stderr, "%s", tlop_proof_text(p));
    CHECK((int)tlop_proof_verdict(p) == want);
    if (tlop_proof_verdict(p) == TLOP_PROVED)
      check_sound(model, d);
    if (tlop_proof_verdict(p) == TLOP_REFUTED)
      CHECK(strstr(tlop_proof_text(p), "counterexample: ") != NULL);
    tlop_proof_free(p);
  }
}

int main(int argc, char **argv) {
  const char *root = argc > 1 ? argv[1] : ".";
  ctx = tlop_ctx_new();
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/stdlib", root);
  tlop_ctx_set_stdlib_dir(ctx, dir);
  check_file(root, "claims.tlop", 33);
  check_file(root, "rda_vs_scatter.tlop", 5);
  check_file(root, "twolog.tlop", 2);

  /* The axioms are stated; a claim that compares nothing is refused. */
  CHECK(strstr(tlop_axioms(), "L(m, A·τ) ≤ A·L(m, τ)") != NULL);
  tlop_model *m;
  static const char bad[] = "claim L(m, 1) < 1 s and L(m, 2) < 2 s;\n";
  CHECK(tlop_load_source(ctx, "bad.tlop", bad, strlen(bad), &m) == TLOP_OK);
  tlop_proof *p = NULL;
  CHECK(m && tlop_prove_claim(m, 0, NULL, &p) == TLOP_ERR_ARG && !p);

  /* o is non-decreasing in m only under the optional axiom, named in the file or the
   * options; an unknown name is refused */
  static const char mono[] = "claim o(m) >= o(m / 2);\n";
  CHECK(tlop_load_source(ctx, "mono.tlop", mono, strlen(mono), &m) == TLOP_OK);
  CHECK(m && tlop_prove_claim(m, 0, NULL, &p) == TLOP_OK && p);
  CHECK(p && tlop_proof_verdict(p) == TLOP_REFUTED);
  tlop_proof_free(p);
  tlop_prove_opts with = {.axioms = "o-monotone"};
  CHECK(m && tlop_prove_claim(m, 0, &with, &p) == TLOP_OK && p);
  CHECK(p && tlop_proof_verdict(p) == TLOP_PROVED && strstr(tlop_proof_text(p), "(axiom o-monotone)"));
  tlop_proof_free(p);
  with.axioms = "o-monotone, no-such-axiom";
  CHECK(m && tlop_prove_claim(m, 0, &with, &p) == TLOP_ERR_ARG && !p);
  static const char in_file[] = "axiom o-monotone;\nclaim o(m) >= o(m / 2);\n";
  CHECK(tlop_load_source(ctx, "in_file.tlop", in_file, strlen(in_file), &m) == TLOP_OK);
  CHECK(m && tlop_prove_claim(m, 0, NULL, &p) == TLOP_OK && p && tlop_proof_verdict(p) == TLOP_PROVED);
  tlop_proof_free(p);
  char *list = tlop_axioms_list("gamma-monotone");
  CHECK(list && strstr(list, "on   gamma-monotone") && strstr(list, "off  o-monotone"));
  free(list);
  CHECK(tlop_axioms_list("nope") == NULL);

  /* compare: the tightest constant of RDA ≥ c·scatter is 2 */
  char path[4096];
  snprintf(path, sizeof path, "%s/examples/rda_vs_scatter.tlop", root);
  CHECK(tlop_load_file(ctx, path, &m) == TLOP_OK);
  CHECK(m && tlop_prove_compare(m, "rda(m, P)", "scatter(m, P)", NULL, &p) == TLOP_OK);
  CHECK(p && strstr(tlop_proof_text(p), "c = 2\n") && strstr(tlop_proof_text(p), "tight:"));
  tlop_proof_free(p);

  tlop_ctx_free(ctx);
  printf("%d checks, %d failed\n", unit_checks, unit_failures);
  return unit_failures != 0;
}
