/* measure.h — measurement's internals that its tests reach: the estimator of L(S, τ)
 * from a measured result. Depends on base and the public tlop_measure.h. */
#ifndef TLOP_MEASURE_INT_H
#define TLOP_MEASURE_INT_H

#include "base/base.h"
#include "tlop_measure.h"

/* r->L_seg from the cells of r (Fig. 18b): for each τ, the mean of tlop_measure_seg_row's
 * estimates over the rows m = k·S (derived cells do not count); NaN without such a row.
 * tlop_measure calls it once every cell is measured. */
void measure_seg_estimates(tlop_measure_result *r);

#endif
