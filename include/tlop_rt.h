/* tlop_rt.h — the runtime that compiled code calls: the JIT's kernels and the objects
 * `tlop emit` writes price the messages of a messages stage through it, so libtlop
 * exports it. Not for calling by hand. */
#ifndef TLOP_RT_H
#define TLOP_RT_H

#include "tlop.h"

#include <stdbool.h>
#include <stdint.h>

/* A message of a messages stage: ranks, size, how many (loops that ignore their index),
 * and where it goes: the destination node, across the network or not. */
typedef struct tlop_rt_msg {
  double src, dst, size, count;
  double node;
  bool net;
} tlop_rt_msg;

/* A JIT'd transmission T(m, τ) on one channel (its L without a T): the point x with m
 * and τ appended. */
typedef double (*tlop_rt_price)(const double *x, const void *tables, uint8_t *xflags);
/* What the code of a messages stage calls, the JIT's and emitted objects' (hence exported
 * by libtlop): msgs_cost with the price functions of shm and net (NULL: no such channel),
 * NaN where the interpreter must look; the look-ups' TAB_* flags are or'ed into *xflags. */
TLOP_API double tlop_rt_messages(tlop_rt_msg *ms, int64_t n, double par_shm, double par_net,
                                 tlop_rt_price shm, tlop_rt_price net, const double *x,
                                 int64_t nx, const void *tables, uint8_t *xflags);

/* A regular stage: count messages of size bytes from p = lo, lo + 1, … to a partner
 * given by shape: 0 a ring, (p + shift) mod modulus; 1 a shift, p + shift; 2 a swap of
 * blocks of shift ranks, p + shift where ⌊p / shift⌋ is even, p − shift where it is odd
 * (p XOR shift for a power of two). The ranks are placed by sequential(group) (node
 * p ÷ group) or, round_robin ≠ 0, by round_robin(group) (node p mod group); more than
 * max_messages is an error. (Named tlop_rt_ring with 8 fields before 29 Nov 2026: the new
 * name makes an object emitted against the old layout fail to link, not misread.) */
typedef struct tlop_rt_regular {
  double lo, count, shift, modulus, size, group, round_robin, max_messages, shape;
} tlop_rt_regular;
enum { TLOP_RT_RING, TLOP_RT_SHIFT, TLOP_RT_SWAP };
/* tlop_rt_messages of the stage's messages, counted per node without placing them where
 * their ranks and counts allow (a regular stage: its cost does not grow with the ranks),
 * placed one by one otherwise; NaN where the interpreter must look. */
TLOP_API double tlop_rt_messages_regular(const tlop_rt_regular *ring, double par_shm,
                                         double par_net, tlop_rt_price shm, tlop_rt_price net,
                                         const double *x, int64_t nx, const void *tables,
                                         uint8_t *xflags);

#endif
