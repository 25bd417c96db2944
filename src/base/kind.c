/* kind.c — the kind algebra: a kind is a unit, bytes^b · seconds^s, or a bare number that
 * adopts what it meets, a truth value, unknown, or a reduction operator. The checker
 * infers kinds; lowering, printing and the API read them. */
#include "base/base.h"

#include <stdio.h>

const kind KIND_NUM = {K_NUM, 0, 0, false}, KIND_COUNT = {K_DIM, 0, 0, false},
           KIND_SIZE = {K_DIM, 1, 0, false}, KIND_TIME = {K_DIM, 0, 1, false},
           KIND_BOOL = {K_BOOL, 0, 0, false}, KIND_ANY = {K_ANY, 0, 0, false},
           KIND_OP = {K_OP, 0, 0, false}, KIND_MAP = {K_MAP, 0, 0, false};

bool kind_eq(kind a, kind b) { return a.tag == b.tag && a.b == b.b && a.s == b.s; }

kind kind_agreed(kind a, kind b) { return kind_eq(a, b) ? a : KIND_ANY; }

bool kind_is_count(kind k) { return kind_is_dim(k, 0, 0) && !k.real; }

bool kind_is_dim(kind k, int b, int s) { return k.tag == K_DIM && k.b == b && k.s == s; }

const char *kind_name(kind k, char *buf, size_t n) {
  if (k.tag == K_NUM)
    return "number";
  if (k.tag == K_BOOL)
    return "truth value";
  if (k.tag == K_ANY)
    return "value of unknown kind";
  if (k.tag == K_OP)
    return "reduction operator";
  if (k.tag == K_MAP)
    return "mapping";
  if (kind_is_dim(k, 0, 0))
    return k.real ? "real" : "count";
  if (kind_is_dim(k, 1, 0))
    return "size";
  if (kind_is_dim(k, 0, 1))
    return "time";
  if (kind_is_dim(k, 1, -1))
    return "bandwidth";
  if (kind_is_dim(k, -1, 1))
    return "time per byte";
  snprintf(buf, n, "quantity in B^%d·s^%d", k.b, k.s);
  return buf;
}

tlop_kind kind_public(kind k) {
  if (k.tag != K_DIM)
    return TLOP_KIND_NUMBER;
  return kind_is_dim(k, 0, 0) ? TLOP_KIND_COUNT
         : kind_is_dim(k, 1, 0) ? TLOP_KIND_SIZE
         : kind_is_dim(k, 0, 1) ? TLOP_KIND_TIME
                           : TLOP_KIND_OTHER;
}

kind kind_from_public(tlop_kind k) {
  switch (k) {
  case TLOP_KIND_COUNT: return KIND_COUNT;
  case TLOP_KIND_SIZE: return KIND_SIZE;
  case TLOP_KIND_TIME: return KIND_TIME;
  case TLOP_KIND_OTHER: return KIND_ANY;
  default: return KIND_NUM;
  }
}
