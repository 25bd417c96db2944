#!/usr/bin/env python3
"""rda_vs_scatter.py — §4.3 of the τ-Lop paper in a notebook's steps: the recursive-doubling
allgather (RDA) of m bytes per process over the binomial scatter of P·m bytes, swept over
m and P on a measured shared-memory table, beside the bounds the prover proves for every
platform that satisfies the axioms: 2 ≤ RDA/scatter ≤ 2(P − 1)/log2 P.

    PYTHONPATH=build/python python3 examples/python/rda_vs_scatter.py [--params TABLE] [--output PNG]

The table: --params, else ../shared/params/lusitania/SHM.txt beside the repository when
present, else the small examples/emit/shm.txt. The plot needs matplotlib (skipped without).
"""
import argparse
import os
import warnings

import numpy as np

import tlop

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--params", help="the measured table (default: Lusitania's SHM.txt or "
                                     "examples/emit/shm.txt)")
    ap.add_argument("--output", default="rda_vs_scatter.png", help="the plot (PNG)")
    args = ap.parse_args()
    table = args.params
    if not table:
        lusitania = os.path.join(ROOT, "..", "shared", "params", "lusitania", "SHM.txt")
        table = lusitania if os.path.exists(lusitania) else os.path.join(ROOT, "examples", "emit", "shm.txt")

    model = tlop.load(os.path.join(ROOT, "examples", "rda_vs_scatter.tlop"))

    # 1. What holds on every platform: the prover's bounds, with their derivations.
    cmp = model.compare("rda(m, P)", "scatter(m, P)")
    lower = cmp.bound
    claims = model.prove()
    upper = next(v for v in claims if "upper_bound" in v.claim)
    print(f"compare: RDA ≥ {lower:g}·scatter {cmp.ge}; RDA ≤ scatter {cmp.le}")
    print(f"claim {upper.claim.split(':', 2)[-1].strip()}: {upper.verdict}")
    for v in claims:
        print(f"  {v.verdict:8} {v.claim.split(':', 2)[-1].strip()}")

    # 2. What the measured table says: one sweep, NumPy arrays in and out.
    Ps = 2 ** np.arange(1, 8)  # P = 2 … 128
    ms = 2.0 ** np.arange(10, 23, 2)  # 1 KiB … 4 MiB
    with warnings.catch_warnings(record=True) as beyond:
        warnings.simplefilter("always", tlop.TlopWarning)
        res = model.sweep(["ratio", "upper_bound"], P=Ps, m=ms, params=table, frame=False)
    ratio = res["ratio"].reshape(len(Ps), len(ms))
    bound = res["upper_bound"].reshape(len(Ps), len(ms))[:, 0]
    print(f"\nmeasured RDA / scatter on {os.path.relpath(table, ROOT)}"
          f"{' (τ beyond the table: proportional rule)' if beyond else ''}")
    print("     P  " + "".join(f"{tlop.format_size(m):>10}" for m in ms) + "     bound")
    for i, P in enumerate(Ps):
        print(f"{P:6d}  " + "".join(f"{r:10.3f}" for r in ratio[i]) + f"  {bound[i]:8.3f}")
    inside = (ratio >= lower * (1 - 1e-12)) & (ratio <= bound[:, None] * (1 + 1e-12))
    print(f"{inside.sum()} of {inside.size} points between the proved bounds "
          f"{lower:g} and 2(P − 1)/log2 P")

    # 3. The plot, when matplotlib is there.
    try:
        import matplotlib
        matplotlib.use(os.environ.get("MPLBACKEND", "Agg"))
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot skipped: no matplotlib")
        return
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for j, m in enumerate(ms):
        ax.plot(Ps, ratio[:, j], marker="o", label=f"measured, m = {tlop.format_size(m)}")
    ax.plot(Ps, bound, "k--", label="proved upper bound 2(P − 1)/log₂P")
    ax.axhline(lower, color="k", linestyle=":", label=f"proved lower bound {lower:g}")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("P")
    ax.set_ylabel("RDA / scatter")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(args.output)
    print(f"plot: {args.output}")


if __name__ == "__main__":
    main()
