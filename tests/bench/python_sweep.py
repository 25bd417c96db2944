#!/usr/bin/env python3
"""python_sweep.py — issue 24's speed check: a 10^6-point sweep through the Python package
against the same sweep's evaluation in C, no formatting on either side. Not a ctest test
(it wants a quiet machine).

    PYTHONPATH=build/python /usr/bin/python3 tests/bench/python_sweep.py [--threads N] [--table T]

The grid is tlop_bench's: 1000 message sizes from 1 B to 64 MiB × P = 2 .. 1001, P fastest,
on a measured table (default ../shared/params/lusitania/SHM.txt, else examples/emit/shm.txt).

  python  model.sweep(algos, m=…, P=…, engine="jit"): everything the caller waits for —
          the grid built by NumPy, the expressions, the compile (object cache warm), one
          tlop_kernels_eval per algorithm, the columns returned.
  C       the same library calls with the points already in memory: tlop_algorithm_expr,
          tlop_jit_compile, tlop_kernels_eval per algorithm (what `tlop sweep` does between
          parsing its options and formatting; called through ctypes once each, so the
          time is C's).
  cli     `tlop sweep … -o /dev/null` for reference: it also formats 10^6 CSV lines.
Each is the median (and the best) of --repeat runs, Python and C alternating; the ratio
python / C is the issue's (≤ 1.2). Python's own work is the grid's layout by NumPy (≈ 10 to
50 ms for 10^6 points, most of it first-touch page faults) and a few library calls.
"""
import argparse
import ctypes
import os
import statistics
import subprocess
import sys
import time
import warnings

import numpy as np

import tlop
from tlop import _lib
from tlop._lib import lib

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=1, help="JIT threads (0: all cores)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--table")
    ap.add_argument("--algos", default="bcast_binomial,bcast_scatter_ring,allgather_ring")
    ap.add_argument("--cli", default=os.path.join(ROOT, "build", "tlop"))
    args = ap.parse_args()
    table = args.table or os.path.join(ROOT, "..", "shared", "params", "lusitania", "SHM.txt")
    if not os.path.exists(table):
        table = os.path.join(ROOT, "examples", "emit", "shm.txt")
    algos = args.algos.split(",")
    path = os.path.join(ROOT, "stdlib", "mpich", "bcast.tlop")
    ms = np.geomspace(1, 64 * 2 ** 20, 1000).round()
    Ps = np.arange(2, 1002, dtype=np.float64)
    warnings.simplefilter("ignore", tlop.TlopWarning)
    model = tlop.load(path)

    def python_sweep():
        t = time.perf_counter()
        out = model.sweep(algos, m=ms, P=Ps, params=table, engine="jit", threads=args.threads,
                          frame=False)
        return time.perf_counter() - t, out

    # the C side: the same calls, points prepared beforehand
    pts = np.empty((len(ms) * len(Ps), 2))
    pts[:, 0] = np.repeat(ms, len(Ps))
    pts[:, 1] = np.tile(Ps, len(ms))
    ctx = model._ctx

    def c_sweep():
        res = np.empty((len(algos), len(pts)))
        env = tlop._core.Env(ctx)
        env.set_kind("m", ms[0], _lib.KIND_NUMBER)
        env.set_kind("P", Ps[0], _lib.KIND_NUMBER)
        pf = model.platform(params=table)
        names = _lib.strings(["m", "P"])
        jit = ctx.jit()
        lib.tlop_jit_set_jobs(jit, args.threads)
        lib.tlop_jit_expect_points(jit, len(pts))
        t0 = time.perf_counter()
        exprs = []
        for a in algos:
            e = ctypes.c_void_p()
            ctx.check(lib.tlop_algorithm_expr(model.ptr, a.encode(), env.ptr, ctypes.byref(e)))
            exprs.append(e.value)
        earr = (ctypes.c_void_p * len(exprs))(*exprs)
        k = ctypes.c_void_p()
        ctx.check(lib.tlop_jit_compile(jit, earr, len(exprs), pf.ptr, env.ptr, names, 2,
                                       ctypes.byref(k)))
        t1 = time.perf_counter()
        for i in range(len(algos)):
            ctx.check(lib.tlop_kernels_eval(k.value, i, pts.ctypes.data, len(pts),
                                            res[i].ctypes.data))
        t2 = time.perf_counter()
        lib.tlop_kernels_free(k.value)
        return t2 - t0, t2 - t1, res

    python_sweep()  # warm: LLVM started, the object cache filled
    c_sweep()
    py_t, c_t, c_eval = [], [], []
    for _ in range(args.repeat):
        t, out = python_sweep()
        py_t.append(t)
        t, e, res = c_sweep()
        c_t.append(t)
        c_eval.append(e)
    for i, a in enumerate(algos):
        assert (out[a] == res[i]).all(), f"{a}: Python and C differ"
    cli_t = []
    if os.path.exists(args.cli):
        cmd = [args.cli, "sweep", path, *algos, "--grid", "m=" + ",".join("%.17g" % m for m in ms),
               "--grid", "P=2..1001:+1", "--params", table, "--engine", "jit", "-j",
               str(args.threads), "--no-progress", "-o", "/dev/null"]
        for _ in range(min(args.repeat, 3)):
            t = time.perf_counter()
            r = subprocess.run(cmd, capture_output=True)
            cli_t.append(time.perf_counter() - t)
            if r.returncode:
                print(r.stderr.decode()[-500:], file=sys.stderr)
                cli_t = []
                break
    med = statistics.median
    n = len(pts)
    print(f"{n} points × {len(algos)} algorithms ({', '.join(algos)}), {args.threads} thread(s), "
          f"table {os.path.relpath(table, ROOT)}")
    print(f"python model.sweep       {med(py_t) * 1e3:9.1f} ms  ({med(py_t) / n / len(algos) * 1e9:.1f} ns/pt)")
    print(f"C expr+compile+eval      {med(c_t) * 1e3:9.1f} ms  (eval alone {med(c_eval) * 1e3:.1f} ms)")
    if cli_t:
        print(f"tlop sweep -o /dev/null  {med(cli_t) * 1e3:9.1f} ms  (with process start, parsing "
              f"and CSV formatting)")
    print(f"ratio python / C         {med(py_t) / med(c_t):9.3f}  medians (issue 24: ≤ 1.2)")
    print(f"                         {min(py_t) / min(c_t):9.3f}  best runs (less sensitive to a "
          f"loaded machine)")


if __name__ == "__main__":
    main()
