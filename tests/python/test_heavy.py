"""Large arrays, freeing, and the example (issue 24, items 5 and 6)."""
import gc
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import tlop
from conftest import BCAST, ROOT, SHM


def test_million_points():
    m = tlop.load(BCAST)
    ms = np.geomspace(1, 1 << 26, 10000).round()
    Ps = np.arange(2, 102)
    out = m.sweep(["bcast_binomial", "allgather_rda"], m=ms, P=Ps, engine="jit", frame=False)
    assert len(out["m"]) == 10 ** 6 and np.isfinite(out["allgather_rda"]).all()
    # a sample of points through the interpreter: the same bits
    rng = np.random.default_rng(1)
    idx = rng.choice(10 ** 6, 2000, replace=False)
    ref = m.sweep(["bcast_binomial", "allgather_rda"], m=out["m"][idx], P=out["P"][idx],
                  mesh=False, engine="interp", frame=False)
    for a in ("bcast_binomial", "allgather_rda"):
        assert (ref[a] == out[a][idx]).all()


def _rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    pytest.skip("no /proc/self/status")


def _cycle():
    m = tlop.load(BCAST)
    m.eval("bcast_binomial", m="1MiB", P=8)
    m.sweep(["allgather_rda"], m=[1, 1024], P=[4, 8], frame=False, engine="interp")
    m.explain("bcast_binomial", m="1KiB", P=4)
    try:
        tlop.load("algorithm a(m: size) = m +;")
    except tlop.Error:
        pass


def test_no_leak_under_repeated_loads():
    for _ in range(30):  # warm up: allocator pools, ctypes caches
        _cycle()
    gc.collect()
    before = _rss_kib()
    for _ in range(200):
        _cycle()
    gc.collect()
    grown = _rss_kib() - before
    # a leaked context (the stdlib's bcast and its imports) costs far more than this
    assert grown < 8 * 1024, f"RSS grew by {grown} KiB over 200 loads"


def test_model_freed_with_its_objects():
    import weakref
    m = tlop.load(BCAST)
    pf = m.platform(params=SHM)
    ref = weakref.ref(m)
    del m
    gc.collect()
    assert ref() is not None  # the platform keeps its model (and context) alive
    assert pf.table()[0][0] == 1
    del pf
    gc.collect()
    assert ref() is None


def test_jit_model_freed():
    for _ in range(3):
        m = tlop.load(BCAST)
        m.sweep(["bcast_binomial"], m=[1, 2], P=[2, 4], engine="jit", frame=False)
        del m
        gc.collect()


def test_example_runs(tmp_path):
    script = os.path.join(ROOT, "examples", "python", "rda_vs_scatter.py")
    env = dict(os.environ, MPLBACKEND="Agg")
    r = subprocess.run([sys.executable, script, "--output", str(tmp_path / "ratio.png")],
                       capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "proved" in r.stdout and "measured" in r.stdout
