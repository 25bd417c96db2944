"""The sweep's numbers are the command's to the bit: JIT and interpreter, tables, fixed
values, units, threads (issue 24, item 5)."""
import warnings

import numpy as np
import pytest

import tlop
from conftest import BCAST, RDA, SHM, cli_csv

ALGOS = ["bcast_binomial", "bcast_scatter_rda", "allgather_rda", "bcast_scatter_ring"]


def _same(py, cli):
    assert list(py) == list(cli), "columns in the CLI's order"
    for k in cli:
        a = np.asarray(py[k])
        b = np.array(cli[k])
        assert a.shape == b.shape, k
        assert (a.view(np.uint64) == b.view(np.uint64)).all(), f"{k}: not the same bits"


@pytest.mark.parametrize("engine", ["jit", "interp"])
def test_sweep_matches_cli_bitwise(engine):
    m = tlop.load(BCAST)
    py = m.sweep(ALGOS, m="1..4MiB:*4", P="2..64:*2", engine=engine, frame=False)
    cli = cli_csv(BCAST, *ALGOS, "--grid", "m=1..4MiB:*4", "--grid", "P=2..64:*2", "--engine", engine)
    _same(py, cli)
    # the same grid as NumPy arrays: the same points, the same numbers
    ms = np.array(cli["m"][:: len(set(cli["P"]))])
    Ps = np.unique(cli["P"])
    py2 = m.sweep(ALGOS, m=ms, P=Ps, engine=engine, frame=False)
    _same(py2, cli)


@pytest.mark.parametrize("engine", ["jit", "interp"])
def test_sweep_table_and_fixed_values_bitwise(engine):
    m = tlop.load(RDA)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tlop.TlopWarning)
        py = m.sweep(["ratio", "rda", "scatter"], P=[2, 4, 8, 16, 32, 64], m="1KiB..1MiB:*2",
                     params=SHM, engine=engine, frame=False)
        cli = cli_csv(RDA, "ratio", "rda", "scatter", "--grid", "P=2,4,8,16,32,64", "--grid",
                      "m=1KiB..1MiB:*2", "--params", SHM, "--engine", engine)
        _same(py, cli)
        py = m.sweep(["ratio", "upper_bound"], P=[32, 64, 128], m="8KiB", engine=engine,
                     frame=False)
        cli = cli_csv(RDA, "ratio", "upper_bound", "--grid", "P=32,64,128", "--set", "m=8KiB",
                      "--engine", engine)
        _same(py, cli)


def test_units_as_strings():
    m = tlop.load(BCAST)
    a = m.sweep("bcast_binomial", m=["1KiB", "1MiB", "3 MiB"], P=[4], frame=False)
    b = m.sweep("bcast_binomial", m=[1024, 1048576, 3 * 1048576], P=[4], frame=False)
    assert list(a["m"]) == list(b["m"]) and (a["bcast_binomial"] == b["bcast_binomial"]).all()
    c = m.sweep("bcast_binomial", m="1KiB,1MiB,3MiB", P=[4], frame=False)
    assert (c["bcast_binomial"] == a["bcast_binomial"]).all()


def test_engines_agree_and_threads():
    m = tlop.load(BCAST)
    ms = np.geomspace(1, 1 << 24, 300).round()
    Ps = np.tile(2.0 ** np.arange(1, 8), 18)  # RDA takes powers of two only: 126 of them
    ref = m.sweep(ALGOS, m=ms, P=Ps, engine="interp", frame=False)
    for threads in (1, 2, 0):
        jit = m.sweep(ALGOS, m=ms, P=Ps, engine="jit", threads=threads, frame=False)
        for a in ALGOS:
            assert (jit[a] == ref[a]).all(), (a, threads)


def test_pointwise_mesh_false():
    m = tlop.load(BCAST)
    ms = np.array([1.0, 2048.0, 65536.0, 1048576.0])
    Ps = np.array([2.0, 16.0, 5.0, 64.0])
    out = m.sweep(["bcast_binomial"], m=ms, P=Ps, mesh=False, frame=False)
    for i in range(len(ms)):
        assert out["bcast_binomial"][i] == m.eval("bcast_binomial", m=ms[i], P=Ps[i])
    # one axis, float64 and contiguous: handed to the kernels as it is
    one = m.sweep(["allgather_rda"], m=ms, P=16, mesh=False, frame=False)
    assert np.shares_memory(one["m"], ms) or (one["m"] == ms).all()
