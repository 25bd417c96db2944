"""Large arrays, freeing, and the example (issue 24, items 5 and 6)."""
import gc
import glob
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
    out = m.sweep(["bcast_binomial", "allgather_ring"], m=ms, P=Ps, engine="jit", frame=False)
    assert len(out["m"]) == 10 ** 6 and np.isfinite(out["allgather_ring"]).all()
    # a sample of points through the interpreter: the same bits
    rng = np.random.default_rng(1)
    idx = rng.choice(10 ** 6, 2000, replace=False)
    ref = m.sweep(["bcast_binomial", "allgather_ring"], m=out["m"][idx], P=out["P"][idx],
                  mesh=False, engine="interp", frame=False)
    for a in ("bcast_binomial", "allgather_ring"):
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
    m.sweep(["allgather_ring"], m=[1, 1024], P=[4, 8], frame=False, engine="interp")
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


def test_hostile_inputs_raise_never_crash(tmp_path):
    """tests/bad's corpus (deep nesting past an 8 MiB stack, binary files, huge sums, …):
    tlop.Error or a value, in a child process so that a crash shows as its exit status."""
    bad = os.path.join(ROOT, "tests", "bad")  # a folder per feature (tests/README.md)
    for gen in sorted(glob.glob(os.path.join(bad, "*", "*.gen"))):
        subprocess.run(["bash", gen], cwd=tmp_path, capture_output=True)
    files = sorted(f for f in glob.glob(os.path.join(bad, "*", "*.tlop"))
                   if not os.path.islink(f))  # a link names a file of another folder
    files += sorted(str(p) for p in tmp_path.glob("*.tlop"))
    r = subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "hostile.py"),
                        *files], capture_output=True, text=True, timeout=600, cwd=ROOT)
    last = r.stdout.strip().splitlines()[-1:] or [""]
    assert r.returncode == 0, f"exit {r.returncode} after {last[0]}\n{r.stderr[-2000:]}"
    assert last[0].startswith(f"{len(files)} files")


def test_python_threads():
    """Models in several Python threads at once (the GIL released in the library), one model
    shared by threads (its calls serialised), and calls from a thread on a 64 MiB stack."""
    import threading
    ref = tlop.load(BCAST).sweep(["bcast_binomial"], m=np.arange(1, 2001), P=np.arange(2, 66),
                                 engine="interp", frame=False)["bcast_binomial"]
    shared = tlop.load(BCAST)
    results, errors = {}, []

    def work(i, model):
        try:
            engine = "jit" if i % 2 else "interp"
            out = model.sweep(["bcast_binomial"], m=np.arange(1, 2001), P=np.arange(2, 66),
                              engine=engine, threads=1, frame=False)
            results[i] = out["bcast_binomial"]
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i, shared if i < 2 else tlop.load(BCAST)))
               for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert all((results[i] == ref).all() for i in range(4))


def test_deep_expression_in_a_thread(tmp_path):
    """19 900 levels once inlined: past a thread's 8 MiB stack, within the limit; the call
    from a Python thread runs on a 64 MiB one (a child process: a crash is its status)."""
    gen = os.path.join(ROOT, "tests", "bad", "nesting", "deep_fn_long_bodies.gen")
    subprocess.run(["bash", gen], cwd=tmp_path, check=True)
    code = ("import threading, tlop\n"
            f"m = tlop.load({str(tmp_path / 'deep_fn_long_bodies.tlop')!r})\n"
            "out = []\n"
            "t = threading.Thread(target=lambda: out.append(m.eval('f9(1)')))\n"
            "t.start(); t.join()\n"
            "print(out[0], m.eval('f9(1)'))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["-19899.0", "-19899.0"]  # 1 − 10·1990: subtractions
