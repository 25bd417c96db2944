/* flows.c — Martinasso & Méhaut's model of flows between the nodes of a cluster (CATALOG.md
 * §5.2–5.3). A node holds at most two flows at once (dual-processor nodes, one process a
 * flow), so the flows active together form paths and cycles, two flows meeting at a node
 * in an elementary conflict: outgo/income (both leave or both enter it) or through (one
 * enters, one leaves). R2 keeps each run of outgo/income conflicts whole, cut by Table 2's
 * chain vectors; R3 lets those dominate, and R1 pairs what is left along through
 * conflicts, from the source end (the catalog's reading of the paper's examples). The
 * progression (§5.3) re-decomposes the active flows at each start and completion. */
#include "eval/eval.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef enum { LINK_NONE, LINK_CHAIN, LINK_THROUGH } link_kind;

/* A flow's end at a node: which flow (index into active), at its source or destination. */
typedef struct end {
  double node;
  size_t flow;
  int side; /* 0 source, 1 destination */
} end;

/* The pattern as a graph of degree ≤ 2: each flow's neighbour through each of its ends. */
typedef struct pattern {
  size_t n;
  long (*next)[2];     /* the other flow at that end's node, or -1 */
  int (*next_side)[2]; /* which end of it */
  link_kind (*kind)[2];
} pattern;

static int end_order(const void *a, const void *b) {
  const end *x = a, *y = b;
  if (x->node != y->node)
    return x->node < y->node ? -1 : 1;
  return x->flow < y->flow ? -1 : x->flow > y->flow;
}

static char *too_many(double node, size_t count) {
  strbuf b = {0};
  char num[40];
  fmt_double(num, sizeof num, node);
  sb_printf(&b, "node %s has %zu flows at once; Martinasso & Méhaut's conflicts pair at most "
            "two flows at a node (dual-processor nodes, one flow per process)", num, count);
  return sb_take(&b);
}

/* Links the two flows that meet at each node; NULL, or why the pattern is out of the model. */
static char *link_ends(pattern *p, const net_flow *f, const size_t *active) {
  size_t n = p->n;
  end *ends = xmalloc(2 * n * sizeof *ends);
  for (size_t i = 0; i < n; i++) {
    ends[2 * i] = (end){f[active[i]].src, i, 0};
    ends[2 * i + 1] = (end){f[active[i]].dst, i, 1};
    p->next[i][0] = p->next[i][1] = -1;
  }
  qsort(ends, 2 * n, sizeof *ends, end_order);
  char *error = NULL;
  for (size_t i = 0; i < 2 * n && !error;) {
    size_t j = i;
    while (j < 2 * n && ends[j].node == ends[i].node)
      j++;
    if (j - i > 2) {
      error = too_many(ends[i].node, j - i);
    } else if (j - i == 2) {
      end a = ends[i], b = ends[i + 1];
      /* both leaving or both entering the node: outgo/income; otherwise through */
      link_kind k = a.side == b.side ? LINK_CHAIN : LINK_THROUGH;
      p->next[a.flow][a.side] = (long)b.flow, p->next_side[a.flow][a.side] = b.side;
      p->next[b.flow][b.side] = (long)a.flow, p->next_side[b.flow][b.side] = a.side;
      p->kind[a.flow][a.side] = p->kind[b.flow][b.side] = k;
    }
    i = j;
  }
  free(ends);
  return error;
}

/* A path or cycle of the pattern in order: flows, the end each leaves by towards the next,
 * and the link to the next (for a cycle, the last links back to the first). */
typedef struct walk {
  size_t *flow;
  int *out;
  link_kind *link;
  size_t len;
  bool cycle;
} walk;

static void walk_from(const pattern *p, size_t start, int out, bool *seen, walk *w) {
  w->len = 0;
  w->cycle = false;
  for (size_t cur = start;;) {
    seen[cur] = true;
    w->flow[w->len] = cur;
    w->out[w->len] = out;
    long nx = p->next[cur][out];
    w->link[w->len++] = nx < 0 ? LINK_NONE : p->kind[cur][out];
    if (nx < 0)
      return;
    if ((size_t)nx == start) {
      w->cycle = true;
      return;
    }
    out = 1 - p->next_side[cur][out];
    cur = (size_t)nx;
  }
}

/* Rotates a cycle so that it is cut at a through link, the last before its first flow
 * (an all outgo/income cycle is whole, as R2 says): it is then a path. */
static void open_cycle(walk *w) {
  size_t cut = w->len;
  for (size_t i = w->len; i-- > 0 && cut == w->len;)
    if (w->link[i] == LINK_THROUGH)
      cut = i;
  if (cut == w->len)
    return;
  size_t n = w->len, k = cut + 1;
  size_t *flow = xmalloc(n * sizeof *flow);
  int *out = xmalloc(n * sizeof *out);
  link_kind *link = xmalloc(n * sizeof *link);
  for (size_t i = 0; i < n; i++) {
    flow[i] = w->flow[(k + i) % n];
    out[i] = w->out[(k + i) % n];
    link[i] = w->link[(k + i) % n];
  }
  link[n - 1] = LINK_NONE;
  memcpy(w->flow, flow, n * sizeof *flow);
  memcpy(w->out, out, n * sizeof *out);
  memcpy(w->link, link, n * sizeof *link);
  free(flow);
  free(out);
  free(link);
  w->cycle = false;
}

static void set_cut(net_flow *f, const size_t *active, const walk *w, size_t i, double cut,
                    int group) {
  net_flow *x = &f[active[w->flow[i]]];
  x->cut = cut;
  x->group = group;
  x->order = (int)i;
}

/* R2: runs of outgo/income links stay whole; an even number of flows is cut by the paired
 * value throughout, an odd number alternates from the ends. Marks the flows it cuts. */
static void cut_chains(net_flow *f, const size_t *active, const walk *w, const double *cuts,
                       bool *in_chain, int *groups) {
  size_t last = w->cycle ? w->len : w->len - 1; /* links that join two flows of the walk */
  for (size_t i = 0; i < w->len;) {
    size_t j = i;
    while (j < last && w->link[j] == LINK_CHAIN)
      j++;
    size_t count = w->cycle && j == last ? w->len - i : j - i + 1;
    if (count > 1) {
      int g = (*groups)++;
      for (size_t k = 0; k < count; k++) {
        double cut = count % 2 == 0 ? cuts[FLOW_CUT_PAIRED]
                     : k % 2 == 0   ? cuts[FLOW_CUT_CHAIN_END]
                                    : cuts[FLOW_CUT_CHAIN_INNER];
        set_cut(f, active, w, i + k, cut, g);
        in_chain[i + k] = true;
      }
    }
    i += count;
  }
}

/* R1 and R3 on the rest: runs of through links between flows no chain took are paired
 * from their source end, the flow entering the shared node and the one leaving it; an
 * odd flow out runs as if alone. */
static void cut_throughs(net_flow *f, const size_t *active, const walk *w, const double *cuts,
                         const bool *in_chain, int *groups) {
  for (size_t i = 0; i < w->len;) {
    if (in_chain[i]) {
      i++;
      continue;
    }
    size_t j = i;
    while (j + 1 < w->len && w->link[j] == LINK_THROUGH && !in_chain[j + 1])
      j++;
    /* the walk runs with the flows when the first leaves by its destination */
    bool forward = w->out[i] == 1;
    size_t count = j - i + 1;
    for (size_t k = 0; k < count; k++) {
      size_t at = forward ? i + k : j - k;
      bool paired = k + 1 < count || k % 2 == 1;
      if (k % 2 == 0)
        (*groups)++;
      double cut = !paired ? 0 : k % 2 == 0 ? cuts[FLOW_CUT_ENTERING] : cuts[FLOW_CUT_LEAVING];
      set_cut(f, active, w, at, cut, *groups - 1);
    }
    i = j + 1;
  }
}

char *flows_decompose(net_flow *f, const size_t *active, size_t n, const double cuts[FLOW_NCUTS]) {
  pattern p = {n, xmalloc(n * sizeof *p.next), xmalloc(n * sizeof *p.next_side),
               xmalloc(n * sizeof *p.kind)};
  walk w = {.flow = xmalloc(n * sizeof *w.flow), .out = xmalloc(n * sizeof *w.out),
            .link = xmalloc(n * sizeof *w.link)};
  bool *seen = xcalloc(n, sizeof *seen), *in_chain = xcalloc(n, sizeof *in_chain);
  char *error = link_ends(&p, f, active);
  int groups = 0;
  /* paths from their ends first, then what is left: cycles */
  for (int pass = 0; pass < 2 && !error; pass++)
    for (size_t i = 0; i < n; i++) {
      bool end = p.next[i][0] < 0 || p.next[i][1] < 0;
      if (seen[i] || (pass == 0 && !end))
        continue;
      walk_from(&p, i, pass == 0 && p.next[i][1] < 0 ? 0 : 1, seen, &w);
      if (w.cycle)
        open_cycle(&w);
      memset(in_chain, 0, w.len * sizeof *in_chain);
      cut_chains(f, active, &w, cuts, in_chain, &groups);
      cut_throughs(f, active, &w, cuts, in_chain, &groups);
    }
  free(p.next);
  free(p.next_side);
  free(p.kind);
  free(w.flow);
  free(w.out);
  free(w.link);
  free(seen);
  free(in_chain);
  return error;
}

/* ---- the pattern as the paper writes it: 0 → 1 → 2 [0, 3] & 2 → 3 [0] ---- */

/* Conflicts from the lowest node up, as the paper writes a pattern from left to right;
 * each conflict's flows in the order of its path. */
static int by_group(const net_flow *f, const double *low, size_t x, size_t y) {
  int a = f[x].group, b = f[y].group;
  if (a != b)
    return low[a] != low[b] ? (low[a] < low[b] ? -1 : 1) : (a < b ? -1 : 1);
  return f[x].order < f[y].order ? -1 : f[x].order > f[y].order;
}

static void put_node(strbuf *out, double node) {
  char num[40];
  fmt_double(num, sizeof num, node);
  sb_puts(out, num);
}

/* One conflict: its nodes in a line, lowest end first, each flow an arrow, then the cuts. */
static void describe_group(strbuf *out, const net_flow *f, const size_t *g, size_t k) {
  double *nodes = xmalloc((k + 1) * sizeof *nodes);
  bool *right = xmalloc(k * sizeof *right);
  /* the first node is the end of g[0] that g[1] does not share */
  const net_flow *a = &f[g[0]];
  bool src_first = k < 2 || (f[g[1]].src != a->src && f[g[1]].dst != a->src);
  nodes[0] = src_first ? a->src : a->dst;
  for (size_t i = 0; i < k; i++) {
    right[i] = f[g[i]].src == nodes[i];
    nodes[i + 1] = right[i] ? f[g[i]].dst : f[g[i]].src;
  }
  bool flip = nodes[k] < nodes[0];
  for (size_t i = 0; i <= k; i++) {
    size_t at = flip ? k - i : i;
    put_node(out, nodes[at]);
    if (i < k)
      sb_puts(out, (flip ? !right[k - 1 - i] : right[i]) ? " → " : " ← ");
  }
  sb_puts(out, " [");
  for (size_t i = 0; i < k; i++) {
    if (i)
      sb_puts(out, ", ");
    put_node(out, f[g[flip ? k - 1 - i : i]].cut);
  }
  sb_puts(out, "]");
  free(nodes);
  free(right);
}

void flows_describe(strbuf *out, const net_flow *f, const size_t *active, size_t n) {
  size_t *g = xmalloc(n * sizeof *g);
  double *low = xmalloc(n * sizeof *low); /* by group: its lowest node */
  for (size_t i = 0; i < n; i++)
    low[i] = INFINITY;
  for (size_t i = 0; i < n; i++) {
    const net_flow *x = &f[active[i]];
    low[x->group] = fmin(low[x->group], fmin(x->src, x->dst));
    g[i] = active[i];
  }
  /* insertion sort: the patterns of a stage are small */
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0 && by_group(f, low, g[j - 1], g[j]) > 0; j--) {
      size_t t = g[j];
      g[j] = g[j - 1];
      g[j - 1] = t;
    }
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && f[g[j]].group == f[g[i]].group)
      j++;
    if (i)
      sb_puts(out, " & ");
    describe_group(out, f, g + i, j - i);
    i = j;
  }
  free(g);
  free(low);
}

/* ---- §5.3: the progression ---- */

static void trace_interval(strbuf *trace, double t, const net_flow *f, const size_t *active,
                           size_t n) {
  if (!trace)
    return;
  if (trace->len)
    sb_puts(trace, "; ");
  char num[40];
  fmt_double(num, sizeof num, t);
  sb_printf(trace, "from %s s: ", num);
  flows_describe(trace, f, active, n);
}

/* Between events every active flow runs at 1/((1 + α)·T(f|NC)) of itself per second; the
 * next event is the first completion or the next start, where the cuts change. */
char *flows_progress(net_flow *f, size_t n, const double cuts[FLOW_NCUTS], strbuf *trace) {
  double *left = xmalloc(n * sizeof *left); /* the part of each flow still to move */
  size_t *active = xmalloc(n * sizeof *active);
  double t = INFINITY;
  size_t remaining = n;
  for (size_t i = 0; i < n; i++) {
    left[i] = 1;
    f[i].done = NAN;
    f[i].cut = 0;
    f[i].group = -1;
    t = fmin(t, f[i].start);
  }
  char *error = NULL;
  while (remaining > 0 && !error) {
    size_t k = 0;
    double next_start = INFINITY;
    for (size_t i = 0; i < n; i++) {
      if (!isnan(f[i].done))
        continue;
      if (f[i].start <= t)
        active[k++] = i;
      else
        next_start = fmin(next_start, f[i].start);
    }
    if (k == 0) {
      t = next_start;
      continue;
    }
    if ((error = flows_decompose(f, active, k, cuts)))
      break;
    trace_interval(trace, t, f, active, k);
    double end = next_start;
    for (size_t j = 0; j < k; j++) {
      const net_flow *x = &f[active[j]];
      end = fmin(end, t + left[active[j]] * (1 + x->cut) * x->alone);
    }
    for (size_t j = 0; j < k; j++) {
      size_t i = active[j];
      double stretch = (1 + f[i].cut) * f[i].alone;
      /* the flow that set the next event ends exactly there, rounding aside */
      if (t + left[i] * stretch <= end * (1 + 1e-12) || stretch == 0) {
        f[i].done = end;
        remaining--;
      } else {
        left[i] -= (end - t) / stretch;
      }
    }
    t = end;
  }
  free(left);
  free(active);
  return error;
}
