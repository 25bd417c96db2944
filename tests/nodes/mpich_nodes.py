#!/usr/bin/env python3
"""mpich_nodes.py TLOP SOURCE_DIR PART — stdlib/mpich's collectives on 1 and 4 nodes.

PART nodes: each collective of mpich/bcast.tlop, mpich/gather.tlop, mpich/barrier.tlop and
mpich/alltoallv.tlop on one node and on 4 nodes (sequential, round robin and an explicit
nodes(…) list), against a pricing written here from the MPI algorithms and
docs/semantics.md, not from tlop: which rank sends what to whom at each stage (MPICH's code:
MPIR_Bcast_intra_binomial, MPIR_Scatter_intra_binomial, MPIR_Gather_intra_binomial, the
recursive-doubling and ring allgathers, MPIR_Barrier_intra_dissemination,
MPIR_Alltoallv_intra_scattered and MPIR_Alltoallv_intra_pairwise_sendrecv_replace, and
MPIR_Bcast_intra_smp's leaders' and nodes' broadcasts), which node each rank is on, how
many messages share a channel towards a node (their τ), each message at its channel's T from a table this script writes.
The _seg and _iter forms split each stage: each node's own messages through the paper's
pipeline on its shared memory, the rest at the network's T; gatherv_linear is the root
node's fan-in beside the other nodes' blocks by the network. Every sweep runs in both engines, which must
agree to the bit. Then the τ-Lop authors' library's "minimum part" rounds (LIBTAULOP.md §4.4,
with an exact inverse: its residue rounds, §11 #3, aside) against tlop's rule where the two
agree, and where they do not (docs/stdlib.md, "On several nodes: tlop vs libtaulop").

PART one_node: with M = 1 every algorithm gives the value of its definition before it took
nodes (tests/nodes/mpich_unchanged.tlop keeps those), over a grid of m and P.
"""
import collections
import csv
import io
import itertools
import math
import os
import subprocess
import sys
import tempfile

TLOP, SRC, PART = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(abs(a), abs(b))


def run_tlop(args):
    return subprocess.run([TLOP] + args + ["-I", os.path.join(SRC, "stdlib")],
                          capture_output=True, text=True)


def sweep(model, algos, grids, sets, extra=()):
    """Rows of `tlop sweep` (dicts of floats), the same in both engines to the bit."""
    args = ["sweep", model] + algos + list(extra)
    for g in grids:
        args += ["--grid", g]
    if sets:
        args += ["--set", sets]
    outs = []
    for engine in ("interp", "jit"):
        r = run_tlop(args + ["--engine", engine])
        if r.returncode != 0:
            check(False, "tlop %s: %s" % (" ".join(args), r.stderr.strip()))
            return []
        outs.append(r.stdout)
    check(outs[0] == outs[1], "the JIT and the interpreter differ: tlop " + " ".join(args))
    return [{k: float(v) for k, v in row.items()} for row in csv.DictReader(io.StringIO(outs[0]))]


# ---- the platform: two channels from tables this script writes ----

SIZES = [1, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304]
TAUS = 16


def shm_o(m):
    return 0.3e-6 + m / 40e9


def shm_L(m, tau):  # four copies at once saturate the memory system
    return 0.15e-6 + m * max(1.0, tau / 4) / (6e9 if m < 65536 else 5e9)


def net_o(m):
    return 1.5e-6 + m / 100e9


def net_L(m, tau):  # one link towards a node, shared
    return 4e-6 + m * tau / (2.5e9 if m < 65536 else 3e9)


TABLES = {ch: [[o(m)] + [L(m, t) for t in range(1, TAUS + 1)] for m in SIZES]
          for ch, o, L in (("shm", shm_o, shm_L), ("net", net_o, net_L))}


def write_table(path, rows):
    with open(path, "w") as f:
        f.write("#m\t%d\n#tau\t%d\n#m o(m) L(m,1..%d)\n" % (len(SIZES), TAUS, TAUS))
        for m, row in zip(SIZES, rows):
            f.write("\t".join([str(m)] + [repr(v) for v in row]) + "\n")


def lookup(ch, col, m):
    """Column col (0: o, τ: L(m, τ)) of channel ch at m bytes, linear between rows; below
    the first row (a barrier's empty messages) tlop takes the first row."""
    m = max(m, SIZES[0])
    assert m <= SIZES[-1] and 0 <= col <= TAUS, (m, col)
    rows = TABLES[ch]
    for i in range(1, len(SIZES)):
        if m <= SIZES[i]:
            a, b = rows[i - 1][col], rows[i][col]
            return a + (m - SIZES[i - 1]) * (b - a) / (SIZES[i] - SIZES[i - 1])
    raise AssertionError(m)


def T(ch, m, tau):
    """One message: libtaulop's SHM rule o + 2L within a node, IB's o + L across."""
    return lookup(ch, 0, m) + (2 if ch == "shm" else 1) * lookup(ch, tau, m)


def T_inverse(ch, tau, t):
    """The bytes m with T(ch, m, tau) = t (T is linear between rows and increasing)."""
    lo = T(ch, SIZES[0], tau)
    for i in range(1, len(SIZES)):
        hi = T(ch, SIZES[i], tau)
        if t <= hi:
            return SIZES[i - 1] + (t - lo) * (SIZES[i] - SIZES[i - 1]) / (hi - lo)
        lo = hi
    raise AssertionError(t)


# ---- the mappings ----

NODES = [0, 1, 1, 2, 3, 0, 2, 3, 1, 0, 3, 2, 2, 1, 0, 3]  # an explicit one, for P ≤ 16
LISTED = "nodes(%s)" % ",".join(map(str, NODES))
ONE_NODE_LISTED = "nodes(%s)" % ",".join("0" * 16)  # messages, every rank on node 0
MAPPINGS = [(1, "sequential"), (4, "sequential"), (4, "round_robin"), (4, LISTED),
            (4, ONE_NODE_LISTED)]


SMP_EQUAL_12 = "nodes(2,0,3,0,2,3,3,0,2,2,0,3)"  # bcast_smp's: 3 nodes of 4, node 1 empty
SMP_EQUAL_16 = "nodes(0,3,1,0,3,1,1,0,3,0,1,3,2,2,2,2)"  # 4 nodes of 4, node 4 empty
SMP_UNEQUAL = "nodes(0,1,1,2,3,0,2,3,1,0,3,2,2,1,0,0)"  # 5, 4, 4, 3: every node the tree
# 5, 9, 2 and node 1 empty: from 12 KiB the node of 9 runs scatter + ring, the others the tree
SMP_UNEQUAL_CHOICES = "nodes(0,3,3,2,3,0,3,3,0,3,2,3,0,3,0,3)"


def node_of(M, mapping, P):
    if mapping == "sequential":
        q = -(-P // M)
        return lambda p: p // q
    if mapping == "round_robin":
        return lambda p: p % M
    listed = [int(n) for n in mapping[len("nodes("):-1].split(",")]
    return lambda p: listed[p]


# ---- what the algorithms send: stages of (source, destination, bytes) ----

def lowbit(r):
    return r & -r


def tree_children(P):
    """MPICH's binomial tree rooted at 0: rank r receives from r − lowbit(r) and sends to
    r + d for every power of two d below lowbit(r) (below 2^h at the root), r + d < P."""
    h = math.ceil(math.log2(P)) if P > 1 else 0
    for r in range(P):
        top = lowbit(r) if r else 1 << h
        d = top >> 1
        while d >= 1:
            if r + d < P:
                yield r, r + d, d
            d >>= 1


def by_distance(P, make, descending):
    edges = list(tree_children(P))
    ds = sorted({d for _, _, d in edges}, reverse=descending)
    return [[make(r, c, d) for r, c, dd in edges if dd == d] for d in ds]


def subtree_blocks(P, c, d):  # ranks c … c + d − 1 that exist
    return min(c + d, P) - c


def bcast_binomial_mpich(m, P):  # far half first, stages in lock step by distance
    return by_distance(P, lambda r, c, d: (r, c, m), True)


def scatter_binomial(m, P):
    return by_distance(P, lambda r, c, d: (r, c, subtree_blocks(P, c, d) * m / P), True)


def gather_binomial(m, P):
    return by_distance(P, lambda r, c, d: (c, r, subtree_blocks(P, c, d) * m), False)


def bcast_binomial(m, P):  # eq. 13's tree: the holders 0 … 2^i − 1 send 2^i further on
    stages, i = [], 0
    while (1 << i) < P:
        stages.append([(t, t + (1 << i), m) for t in range(1 << i) if t + (1 << i) < P])
        i += 1
    return stages


def allgather_rda(m, P):
    return [[(p, p ^ (1 << i), (1 << i) * m) for p in range(P)] for i in range(P.bit_length() - 1)]


def allgather_ring(m, P):
    return [[(p, (p + 1) % P, m) for p in range(P)] for _ in range(P - 1)]


def bcast_scatter_rda(m, P):
    return scatter_binomial(m, P) + allgather_rda(m / P, P)


def bcast_scatter_ring(m, P):
    return scatter_binomial(m, P) + allgather_ring(m / P, P)


def barrier_dissemination(_m, P):  # step k: r to r + 2^k (mod P), empty messages
    return [[(p, (p + (1 << k)) % P, 0) for p in range(P)] for k in range(math.ceil(math.log2(P)))]


def alltoallv_scattered(m, P):  # in the order posted: round i, r to r − i (mod P)
    return [[(p, (p - i) % P, m) for p in range(P)] for i in range(1, P)]


def alltoallv_pairwise_sendrecv_replace(m, P):
    """Every rank walks the pairs (i, j), i < j, in order: rank i's turn with j comes once i
    is done with j − 1 and j with i − 1, so each step s holds the pairs with i + j = s.
    Found here by walking that schedule, not from the formula."""
    ready, steps = [0] * P, {}
    for i in range(P):
        for j in range(i + 1, P):
            s = max(ready[i], ready[j]) + 1
            ready[i] = ready[j] = s
            steps.setdefault(s, []).extend([(i, j, m), (j, i, m)])
    return [steps[s] for s in sorted(steps)]


def own_block(m, P):  # every rank's copy of its own block at once: L(m, P), first channel
    return lookup("shm", P, m)


def bcast(m, P):  # MPIR_Bcast_intra_auto's thresholds
    if m < 12288 or P < 8:
        return bcast_binomial(m, P)
    if m < 524288 and P & (P - 1) == 0:
        return bcast_scatter_rda(m, P)
    return bcast_scatter_ring(m, P)


# ---- pricing: docs/semantics.md's messages rules ----

def resources(stage, node):
    """The messages on one channel towards one node share it: their sizes, by resource."""
    groups = {}
    for s, d, size in stage:
        ch = "shm" if node(s) == node(d) else "net"
        groups.setdefault((ch, node(d)), []).append(size)
    return groups


def rounds(price, sizes):
    """Sizes on one resource progress together: the smallest left ends a round at the
    round's τ, the others move as many bytes (same channel, same τ), and the τ drops by
    those that ended."""
    cost, done, tau = 0.0, 0.0, len(sizes)
    for size in sorted(set(sizes)):
        cost += price(size - done, tau)
        tau -= sizes.count(size)
        done = size
    return cost


def tlop_rule(stage, node):
    """Resources do not contend: the slowest; each message at its channel's T."""
    return max(rounds(lambda m, tau: T(ch, m, tau), sizes)
               for (ch, _), sizes in resources(stage, node).items())


def one_node_rule(stage, _node):
    """M = 1, the papers' closed forms: every sender's overhead at once (the largest
    message's), then the copies into and out of the shared buffer progressing together."""
    sizes = [size for _, _, size in stage]
    return lookup("shm", 0, max(sizes)) + 2 * rounds(lambda m, tau: lookup("shm", tau, m), sizes)


def libtaulop_rule(stage, node):
    """LIBTAULOP.md §4.4: the groups (channel, destination node) all advance through the
    same rounds; a round is the cheapest group's T at its summed τ and smallest m (ties:
    the later group); its members move that m, the others the bytes that time buys at
    their own group's τ."""
    heads = [["shm" if node(s) == node(d) else "net", node(d), size] for s, d, size in stage]
    total = 0.0
    while heads:
        groups = {}
        for ch, dst, size in heads:
            g = groups.setdefault((ch, dst), [size, 0])
            g[0], g[1] = min(g[0], size), g[1] + 1
        best = None
        for key, (size, tau) in groups.items():
            if best is None or not T(key[0], size, tau) > best[1]:
                best = (key, T(key[0], size, tau), size)
        total += best[1]
        left = []
        for ch, dst, size in heads:
            moved = best[2] if (ch, dst) == best[0] else T_inverse(ch, groups[(ch, dst)][1], best[1])
            if size - moved > 1e-6 * size:
                left.append([ch, dst, size - moved])
        heads = left
    return total


def cost(stages, node, rule=tlop_rule):
    return sum(rule(stage, node) for stage in stages)


def smp_phases(m, P, node):
    """MPIR_Bcast_intra_smp's two phases from root 0: MPICH's own broadcast (bcast above)
    among the lowest ranks of the nodes that hold ranks, then on every node from its lowest
    rank: the leaders' stages, and each node's."""
    members = {}
    for p in range(P):
        members.setdefault(node(p), []).append(p)
    ranks_by_node = [members[j] for j in sorted(members)]

    def on(ranks, stages):  # a broadcast among `ranks`, its rank i being ranks[i]
        return [[(ranks[s], ranks[d], size) for s, d, size in stage] for stage in stages]

    leaders = on([ranks[0] for ranks in ranks_by_node], bcast(m, len(ranks_by_node)))
    return leaders, [on(ranks, bcast(m, len(ranks))) for ranks in ranks_by_node]


def bcast_smp(m, P, M, mapping):
    """For short messages, few ranks, or medium ones at a power-of-two P, the two phases,
    all nodes at once; otherwise the flat scatter + ring. The nodes' phase costs its
    slowest node's whole broadcast, each priced as on one node: the nodes' shared memories
    are separate resources and MPICH does not synchronise one node's broadcast with
    another's (bcast_smp_lock_step is the alternative not taken), whatever the sizes of the
    nodes (a nodes(…) list may give each its own)."""
    node = node_of(M, mapping, P)
    if not (m < 12288 or P < 8 or (m < 524288 and P & (P - 1) == 0)):
        return cost(bcast_scatter_ring(m, P), node, one_node_rule if M == 1 else tlop_rule)
    leaders, per_node = smp_phases(m, P, node)
    return cost(leaders, node) + max(cost(stages, node, one_node_rule) for stages in per_node)


def bcast_smp_lock_step(m, P, node):
    """The nodes' phase stage by stage, each stage its slowest node's: more than the slowest
    node's whole broadcast where the nodes' broadcasts differ."""
    leaders, per_node = smp_phases(m, P, node)
    return cost(leaders, node) + sum(max(one_node_rule(stage, node) for stage in together if stage)
                                     for together in itertools.zip_longest(*per_node, fillvalue=[]))


# ---- the segmented and iterative forms on several nodes (mpich/bcast's header) ----

S = 8192  # taulop/transmission's segment


def pipeline(x, mode, exch, L):
    """The paper's pipelines (eqs. 10, 17, 22; the contention paper's eqs. 2, 3) for n
    messages of x bytes on one node's shared memory, L(size, k) giving L(size, k·n)."""
    if exch:
        if mode == 1:
            return lookup("shm", 0, x) + 2 * math.ceil(x / S) * L(S, 1)
        return 2 * (x / S) * L(S, 1)
    if mode == 1:
        return 2 * L(x, 1) if x <= S else 2 * L(S, 1) + (math.ceil(x / S) - 1) * L(S, 2)
    return x / S * L(S, 2)


def pipelined_rule(mode, exch):
    """A stage on several nodes: each node's messages within it through the pipeline on its
    own shared memory, those across nodes at the network's T as the messages rules price
    them; the slowest node or network link."""
    def rule(stage, node):
        within, across = {}, []
        for s, d, size in stage:
            if node(s) == node(d):
                within.setdefault(node(d), []).append(size)
            else:
                across.append((s, d, size))
        costs = [tlop_rule(across, node)] if across else [0.0]
        for sizes in within.values():
            n, x = len(sizes), sizes[0]
            costs.append(pipeline(x, mode, exch, lambda size, k: lookup("shm", k * n, size)))
        return max(costs)
    return rule


def priced_pipelined(parts, node, mode):
    """parts: (stages, exch) in order, e.g. a scatter's transmissions, then an allgather's
    exchanges."""
    return sum(cost(stages, node, pipelined_rule(mode, exch)) for stages, exch in parts)


def scatter_pow2(m, P):  # the paper's pieces, a power of two: MPICH's tree, m/2^(i+1) each
    return scatter_binomial(m, P)


PIPELINED = [  # (name without _seg/_iter, its parts, P)
    ("bcast_binomial", lambda m, P: [(bcast_binomial(m, P), False)], [1, 2, 3, 5, 8]),
    ("scatter_binomial", lambda m, P: [(scatter_pow2(m, P), False)], [2, 4, 8]),
    ("allgather_rda", lambda m, P: [(allgather_rda(m, P), True)], [2, 4, 8]),
    ("allgather_ring", lambda m, P: [(allgather_ring(m, P), True)], [1, 2, 3, 5, 8]),
    ("bcast_scatter_rda", lambda m, P: [(scatter_pow2(m, P), False), (allgather_rda(m / P, P), True)],
     [2, 4, 8]),
    ("bcast_scatter_ring", lambda m, P: [(scatter_pow2(m, P), False), (allgather_ring(m / P, P), True)],
     [2, 4, 8]),
]


def fan_in(m, P):  # gatherv_linear: P − 1 copies in at once, the root's copies out in turn
    return lookup("shm", 0, m) + lookup("shm", P - 1, m) + (P - 1) * lookup("shm", 1, m) if P > 1 else 0.0


def gatherv_linear(m, P, node):
    """The root's node: its other ranks' fan-in through shared memory; the ranks elsewhere
    send to the root by the network at once; the slower of the two."""
    local = [p for p in range(P) if node(p) == node(0)]
    remote = [(p, 0, m) for p in range(P) if node(p) != node(0)]
    return max(fan_in(m, len(local)), tlop_rule(remote, node) if remote else 0.0)


# ---- the parts ----

ANY_P = [1, 2, 3, 5, 8, 12, 16]
POWERS = [2, 4, 8, 16]
SIZES_TESTED = [1000, 65536, 300000]
ALGORITHMS = [  # (name, its messages, P, m)
    ("bcast_binomial", bcast_binomial, ANY_P, SIZES_TESTED),
    ("bcast_binomial_mpich", bcast_binomial_mpich, ANY_P, SIZES_TESTED),
    ("scatter_binomial", scatter_binomial, ANY_P, SIZES_TESTED),
    ("scatter_binomial_exact", scatter_binomial, ANY_P, SIZES_TESTED),
    ("gather_binomial", gather_binomial, ANY_P, SIZES_TESTED),
    ("allgather_rda", allgather_rda, POWERS, SIZES_TESTED),
    ("allgather_ring", allgather_ring, ANY_P, SIZES_TESTED),
    ("bcast_scatter_rda", bcast_scatter_rda, POWERS, SIZES_TESTED),
    ("bcast_scatter_ring", bcast_scatter_ring, ANY_P, SIZES_TESTED),
    ("bcast", bcast, ANY_P, [1000, 65536, 300000, 600000]),
    ("barrier_dissemination", barrier_dissemination, ANY_P, [0]),
    ("alltoallv_scattered", alltoallv_scattered, ANY_P, SIZES_TESTED),
    ("alltoallv_pairwise_sendrecv_replace", alltoallv_pairwise_sendrecv_replace, ANY_P,
     SIZES_TESTED),
]
# Written as messages on every M (a one-node stage is a messages stage too), and the local
# copies besides the messages.
MESSAGES_ON_ONE_NODE = {"barrier_dissemination", "alltoallv_scattered",
                        "alltoallv_pairwise_sendrecv_replace"}
LOCAL = {"alltoallv_scattered": own_block, "alltoallv_pairwise_sendrecv_replace": own_block}
ONE_NODE_ONLY = ["bcast_binomial_full"]


def axis(values):
    return ",".join(str(v) for v in values)


def part_nodes(tmp):
    write_table(os.path.join(tmp, "shm.txt"), TABLES["shm"])
    write_table(os.path.join(tmp, "net.txt"), TABLES["net"])
    model = os.path.join(tmp, "model.tlop")
    with open(model, "w") as f:
        f.write('import "mpich/bcast";\nimport "mpich/barrier";\nimport "mpich/alltoallv";\n'
                "platform nodes_test {\n"
                '  channel shm = table "shm.txt" { T(m, τ) = o(m) + 2 * L(m, τ); }\n'
                '  channel net = table "net.txt" { T(m, τ) = o(m) + L(m, τ); }\n'
                "}\n")
    points = 0
    for name, messages, Ps, ms in ALGORITHMS:
        for M, mapping in MAPPINGS:
            rows = sweep(model, [name], ["m=" + axis(ms), "P=" + axis(Ps)],
                         "M=%d,map=%s" % (M, mapping))
            for row in rows:
                m, P = row["m"], int(row["P"])
                rule = one_node_rule if M == 1 and name not in MESSAGES_ON_ONE_NODE else tlop_rule
                want = cost(messages(m, P), node_of(M, mapping, P), rule)
                want += LOCAL[name](m, P) if name in LOCAL else 0.0
                check(close(row[name], want), "%s(m=%g, P=%d) on %d nodes, %s: tlop %.17g, "
                      "expected %.17g" % (name, m, P, M, mapping, row[name], want))
                points += 1
    # the segmented and iterative forms: on one node the paper's closed forms (and so with
    # every rank listed on one node), on 4 nodes each node's pipeline beside the network's
    for base, parts, Ps in PIPELINED:
        for M, mapping in MAPPINGS:
            rows = sweep(model, [base + "_seg", base + "_iter"],
                         ["m=" + axis(SIZES_TESTED), "P=" + axis(Ps)], "M=%d,map=%s" % (M, mapping))
            for row in rows:
                m, P = row["m"], int(row["P"])
                for mode, name in ((1, base + "_seg"), (2, base + "_iter")):
                    want = priced_pipelined(parts(m, P), node_of(M, mapping, P), mode)
                    check(close(row[name], want), "%s(m=%g, P=%d) on %d nodes, %s: tlop %.17g, "
                          "expected %.17g" % (name, m, P, M, mapping, row[name], want))
                    points += 1
    # gatherv_linear: the fan-in of the root's node beside the other nodes' blocks arriving
    # by the network (mpich/gather.tlop)
    for M, mapping in MAPPINGS:
        for row in sweep(model, ["gatherv_linear"], ["m=" + axis(SIZES_TESTED), "P=" + axis(ANY_P)],
                         "M=%d,map=%s" % (M, mapping)):
            m, P = row["m"], int(row["P"])
            want = gatherv_linear(m, P, node_of(M, mapping, P))
            check(close(row["gatherv_linear"], want), "gatherv_linear(m=%g, P=%d) on %d nodes, %s: "
                  "tlop %.17g, expected %.17g" % (m, P, M, mapping, row["gatherv_linear"], want))
            points += 1
    # MPICH's node-aware broadcast: two phases on nodes of equal and unequal sizes (empty
    # nodes under sequential: P = 5 on 4 nodes has 3 leaders), both sides of 12 KiB and
    # 512 KiB, 8 nodes for the leaders' own scatter + recursive doubling, nodes whose
    # broadcasts differ (64 ranks on 7 and 9 nodes), lists of equal nodes (one empty); the
    # flat scatter + ring for any P
    two_phase_ms = [1000, 12287, 12288, 65536, 300000, 600000]
    smp_cases = [([1], "sequential", ANY_P, [1000, 12287, 12288, 65536, 600000]),
                 ([1], "round_robin", [3, 8, 12], [1000, 65536]),
                 ([2, 3, 4, 5], "sequential", list(range(1, 17)) + [24, 32], two_phase_ms),
                 ([2, 3, 4, 5], "round_robin", list(range(1, 17)) + [24, 32], two_phase_ms),
                 ([7, 8], "sequential", [8, 64], [1000, 65536, 300000]),
                 ([8, 9], "round_robin", [16, 64], [1000, 65536, 300000]),
                 ([4], SMP_EQUAL_12, [12], [1000, 65536]), ([5], SMP_EQUAL_16, [16], two_phase_ms),
                 ([4], LISTED, [16], two_phase_ms), ([4], SMP_UNEQUAL, [16], two_phase_ms),
                 ([4, 6], SMP_UNEQUAL_CHOICES, [16], two_phase_ms)]
    for Ms, mapping, Ps, ms in smp_cases:
        for row in sweep(model, ["bcast_smp", "bcast"], ["m=" + axis(ms), "P=" + axis(Ps), "M=" + axis(Ms)],
                         "map=" + mapping):
            m, P, M = row["m"], int(row["P"]), int(row["M"])
            want = bcast_smp(m, P, M, mapping)
            check(close(row["bcast_smp"], want), "bcast_smp(m=%g, P=%d) on %d "
                  "nodes, %s: tlop %.17g, expected %r" % (m, P, M, mapping, row["bcast_smp"], want))
            if M == 1:  # one node: MPICH's own choice, the flat bcast
                check(row["bcast_smp"] == row["bcast"], "bcast_smp(m=%g, P=%d) on one node: %.17g, "
                      "bcast %.17g" % (m, P, row["bcast_smp"], row["bcast"]))
            points += 1
    # the points above include one where the nodes in lock step, stage by stage, would cost
    # more than the slowest node's whole broadcast (the model's choice, mpich/bcast.tlop)
    node = node_of(9, "round_robin", 64)
    lock_step = bcast_smp_lock_step(65536, 64, node)
    check(lock_step > bcast_smp(65536, 64, 9, "round_robin") * (1 + 1e-6),
          "bcast_smp(m=65536, P=64) on 9 round robin nodes: the lock step's %.17g should exceed "
          "the slowest node's %.17g" % (lock_step, bcast_smp(65536, 64, 9, "round_robin")))
    # a list whose nodes' broadcasts differ in kind: at 64 KiB its node of 9 (scatter + ring)
    # is faster than its node of 5 (the tree), so the maximum over its nodes, which the
    # sweep above checked, is not the fullest node's broadcast
    node = node_of(4, SMP_UNEQUAL_CHOICES, 16)
    _, per_node = smp_phases(65536, 16, node)
    sizes = collections.Counter(map(node, range(16)))
    by_size = {sizes[node(stages[0][0][0])]: cost(stages, node, one_node_rule) for stages in per_node}
    check(sorted(by_size) == [2, 5, 9] and max(by_size.values()) == by_size[5] > by_size[9],
          "bcast_smp's nodes on %s at 64 KiB: %r" % (SMP_UNEQUAL_CHOICES, by_size))
    # what is not modelled is an error naming the algorithm and why, at the user's call,
    # never a price
    for name in ONE_NODE_ONLY:
        r = run_tlop(["eval", model, "%s(64 KiB, 8, 4, round_robin)" % name])
        check(r.returncode != 0 and r.stderr.startswith("<expr>:1:1: error: %s requires M == 1\n" % name),
              "%s on 4 nodes: exit %d, %s" % (name, r.returncode, r.stderr.strip()))
    for name in ("allgather_rda", "bcast_scatter_rda"):
        r = run_tlop(["eval", model, "%s(64 KiB, 12, 4, round_robin)" % name])
        check(r.returncode != 0 and "P is not a power of two" in r.stderr,
              "%s at P = 12: exit %d, %s" % (name, r.returncode, r.stderr.strip()))
    # libtaulop's rounds: equal to tlop's rule where every stage's resources cost the
    # same (one node; the recursive doubling under round robin, 4 equal messages towards
    # every node), higher where a round ends before a slower resource (the overhead and
    # latency of what is left are paid again)
    agree = [("bcast_binomial_mpich", bcast_binomial_mpich, 16, 4, ONE_NODE_LISTED),
             ("gather_binomial", gather_binomial, 12, 4, ONE_NODE_LISTED),
             ("allgather_rda", allgather_rda, 16, 4, "round_robin")]
    for name, messages, P, M, mapping in agree:
        r = run_tlop(["eval", model, "%s(65536, %d, %d, %s)" % (name, P, M, mapping), "--format", "plain"])
        node = node_of(M, mapping, P)
        lib = cost(messages(65536, P), node, libtaulop_rule)
        check(r.returncode == 0 and close(float(r.stdout), lib),
              "%s P=%d M=%d %s: tlop %s, libtaulop's rounds %.17g" % (name, P, M, mapping, r.stdout.strip(), lib))
    node = node_of(4, "sequential", 12)
    ours, lib = cost(gather_binomial(65536, 12), node), cost(gather_binomial(65536, 12), node, libtaulop_rule)
    check(lib > ours * (1 + 1e-6), "gather_binomial P=12 on 4 sequential nodes: libtaulop's rounds "
          "%.17g should exceed the slowest resource's %.17g" % (lib, ours))
    print("nodes: %d points of %d collectives on 1 and 4 nodes, both engines; %d refusals; "
          "libtaulop's rounds in %d cases" % (points, len(ALGORITHMS) + 2 + 2 * len(PIPELINED), len(ONE_NODE_ONLY) + 4, len(agree) + 1))


# With M = 1 the value before, for each algorithm, was_NAME, to the bit; and their messages
# with every rank on one node, the same but where mpich/gather's header says (a tree stage
# with a smaller last sender, P not a power of two): expected_NAME, within rounding.
UNCHANGED = ["bcast_binomial", "bcast_binomial_mpich", "bcast_binomial_full", "bcast_binomial_seg",
             "bcast_binomial_iter", "allgather_ring", "allgather_ring_seg", "allgather_ring_iter",
             "gatherv_linear"]
POWERS_ONLY = ["scatter_binomial_seg", "scatter_binomial_iter", "allgather_rda", "allgather_rda_seg",
               "allgather_rda_iter", "bcast_scatter_rda", "bcast_scatter_rda_seg",
               "bcast_scatter_rda_iter", "bcast_scatter_ring_seg", "bcast_scatter_ring_iter"]
MESSAGES = ["bcast_binomial", "bcast_binomial_mpich", "allgather_ring", "gather_binomial",
            "scatter_binomial", "scatter_binomial_exact", "bcast_scatter_ring", "bcast"]
TREES = ["gather_binomial", "scatter_binomial", "scatter_binomial_exact", "bcast_scatter_ring", "bcast"]


def part_one_node(tmp):
    model = os.path.join(SRC, "tests", "nodes", "mpich_unchanged.tlop")
    table = os.path.join(tmp, "shm.txt")
    write_table(table, TABLES["shm"])
    # Sizes below a table's first row and beyond its last, where (T flat there, or jumping
    # by a row) the progression's two rounds do not split at the smaller size, are left out
    # of the departing ones' points on the table: their pieces stay within its rows.
    every_m, within_rows = "m=1,1000,3000,65536,100000,1MiB,4MiB", "m=1000,3000,65536,100000"
    one_node, listed = "M=1,map=sequential", "M=4,map=nodes(%s)" % ",".join("0" * 64)
    cases = [(UNCHANGED + TREES, "P=1..40:+1", "was_", 0.0, every_m, one_node),
             (POWERS_ONLY, "P=1..64:*2", "was_", 0.0, every_m, one_node),
             ([n for n in MESSAGES if n not in TREES] + ["allgather_rda", "bcast_scatter_rda"],
              "P=1..64:*2", "was_", 1e-15, every_m, listed),
             (TREES, "P=1..40:+1", "expected_", 1e-12, within_rows, listed)]
    points = 0
    for names, Ps, before, rel, ms, sets in cases:
        for platform in ([], ["--params", table]):  # generic: analytic, and with a table
            algos = [a for n in names for a in (n, before + n)]
            grid_m = every_m if not platform else ms
            for row in sweep(model, algos, [grid_m, Ps], sets, platform):
                for n in names:
                    same = row[n] == row[before + n] if rel == 0 else close(row[n], row[before + n], rel)
                    check(same, "%s(m=%g, P=%g), M = 1: %.17g, before %.17g" %
                          (n, row["m"], row["P"], row[n], row[before + n]))
                    points += 1
    print("one node: %d points equal to the definitions before (tests/nodes/mpich_unchanged.tlop), "
          "both engines" % points)


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        {"nodes": part_nodes, "one_node": part_one_node}[PART](tmp)
    if failures:
        print("%d failures" % len(failures))
        sys.exit(1)
