/* axiom.c — the names of the prover's axioms (front.h). Here, before the prover, because
 * `check` refuses a file's `axiom NAME;` whose name is unknown. */
#include "front/front.h"

#include <string.h>

const axiom_info AXIOMS_KNOWN[AX_COUNT] = {
    [AX_L_NONNEG] = {"L-nonnegative", "L(m, τ) ≥ 0", true},
    [AX_L_MONO_M] = {"L-monotone-m", "L is non-decreasing in m", true},
    [AX_L_MONO_TAU] = {"L-monotone-tau", "L is non-decreasing in τ", true},
    [AX_L_SUBLINEAR] = {"L-sublinear",
                        "L(m, A·τ) ≤ A·L(m, τ) for A ≥ 1 (sub-linearity: sharing a channel never "
                        "costs more than taking turns)",
                        true},
    [AX_O_NONNEG] = {"o-nonnegative", "o(m) ≥ 0", true},
    [AX_GAMMA_NONNEG] = {"gamma-nonnegative", "γ(m, τ) ≥ 0", true},
    [AX_P_NONNEG] = {"p-nonnegative", "p(m) ≥ 0", true},
    [AX_O_MONO] = {"o-monotone", "o is non-decreasing in m", false},
    [AX_P_MONO] = {"p-monotone", "p is non-decreasing in m", false},
    [AX_GAMMA_MONO] = {"gamma-monotone", "γ is non-decreasing in τ", false},
    [AX_GAMMA_SUBLINEAR] = {"gamma-sublinear", "γ(m, A·τ) ≤ A·γ(m, τ) for A ≥ 1", false},
    [AX_L_SUBADDITIVE] = {"L-subadditive", "L(m + n, τ) ≤ L(m, τ) + L(n, τ)", false},
    [AX_L_STRICT] = {"L-strict", "L is strictly increasing in τ (also: claim strict …, --strict)",
                     false},
};

int axiom_find(const char *name) {
  for (int i = 0; i < AX_COUNT; i++)
    if (!strcmp(AXIOMS_KNOWN[i].name, name))
      return i;
  return -1;
}

/* A literal, not built on first use: a library may be called from several threads. */
const char *axiom_names(void) {
  return "L-nonnegative, L-monotone-m, L-monotone-tau, L-sublinear, o-nonnegative, "
         "gamma-nonnegative, p-nonnegative, o-monotone, p-monotone, gamma-monotone, "
         "gamma-sublinear, L-subadditive, L-strict";
}
