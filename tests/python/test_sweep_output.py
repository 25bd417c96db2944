"""`tlop sweep`'s output end to end (issue 22): the .npy format read by numpy, CSV and JSON
numbers that read back to the very doubles computed, the same bytes whatever -j, memory
that does not grow with the grid, and a progress bar no diagnostic shares a line with."""
import json
import os
import resource
import subprocess

import numpy as np

from conftest import BCAST, CLI, ROOT, SHM, on_terminal, run_cli

GRID = ["--grid", "P=2..41:+1", "--grid", "m=1..64MiB:*1.5", "--params", SHM]
ALGOS = ["bcast_binomial", "allgather_ring"]


def test_npy_is_the_csv_bit_for_bit(tmp_path):
    npy, csv = tmp_path / "costs.npy", tmp_path / "costs.csv"
    run_cli("sweep", BCAST, *ALGOS, *GRID, "--format", "npy", "-o", str(npy))
    run_cli("sweep", BCAST, *ALGOS, *GRID, "-o", str(csv))
    a = np.load(npy)
    assert a.dtype.names == ("P", "m", *ALGOS) and a.dtype["P"] == np.dtype("<f8")
    lines = csv.read_text().splitlines()
    assert lines[0] == "P,m," + ",".join(ALGOS) and len(a) == len(lines) - 1 == 40 * 45
    text = np.array([[float(x) for x in line.split(",")] for line in lines[1:]])
    for j, name in enumerate(a.dtype.names):  # the shortest text, read back: the same bits
        assert (text[:, j].view(np.uint64) == a[name].view(np.uint64)).all(), name
    rows = json.loads(run_cli("sweep", BCAST, *ALGOS, *GRID, "--format", "json").stdout)
    assert [r["bcast_binomial"] for r in rows] == a["bcast_binomial"].tolist()


def test_threads_write_the_same_bytes(tmp_path):
    # 300 000 points: several chunks, each split across the threads
    grid = ["--grid", "P=2..301:+1", "--grid", "m=1..1000:+1", "--params", SHM, "--engine", "jit"]
    outs = []
    for jobs in ("1", "2", "3"):
        out = tmp_path / f"j{jobs}.csv"
        run_cli("sweep", BCAST, *ALGOS, *grid, "-j", jobs, "--no-cache", "-o", str(out))
        outs.append(out.read_bytes())
    assert outs[0] == outs[1] == outs[2] and outs[0].count(b"\n") == 300001


def test_memory_does_not_grow_with_the_grid():
    # 10^7 points: the whole grid in memory would be ≥ 300 MB (56 B a point, and more)
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    run_cli("sweep", BCAST, "bcast_binomial", "--grid", "P=2..1001:+1", "--grid",
            "m=1..10000:+1", "--params", SHM, "--engine", "jit", "--format", "npy", "-o",
            os.devnull)
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    assert peak_kib > before or before < 100 * 1024  # the peak is this child's
    assert peak_kib < 100 * 1024, f"peak {peak_kib / 1024:.0f} MiB"


def test_no_diagnostic_shares_the_progress_bar_line(tmp_path):
    """On a terminal the bar appears after a second; a point failing late (the log of a
    negative number, at the grid's last x) gives an error, which must start a line."""
    model = tmp_path / "late.tlop"
    model.write_text("algorithm slow(x, P: count) = sum i = 1 .. 2000 : log2(x + i) + P;\n")
    args = ["sweep", str(model), "slow", "--grid", "x=1,2,3,-3000", "--grid", "P=1..6000:+1",
            "--engine", "interp", "-o", os.devnull]
    status, err, elapsed = on_terminal(args, stdout_on_terminal=False)
    assert status == 1
    lines = err.split("\n")
    errors = [line for line in lines if "error:" in line]
    assert errors and all(line.split("\r")[-1].startswith(str(model)) for line in errors)
    if elapsed > 2:  # the bar was due: it counts points and names what the sweep does
        assert "points" in err and "evaluating" in err


def test_the_bar_counts_points_and_shows_the_writing(tmp_path):
    """On a terminal the bar counts grid points, gives the time left and says when the
    rows are written (chunk by chunk, between evaluations)."""
    model = tmp_path / "slow.tlop"
    model.write_text("algorithm slow(x, P: count) = sum i = 1 .. 2000 : log2(x + i) + P;\n")
    args = ["sweep", str(model), "slow", "--grid", "x=1,2,3", "--grid", "P=1..6000:+1",
            "--engine", "interp", "-o", str(tmp_path / "out.csv")]
    status, err, elapsed = on_terminal(args, stdout_on_terminal=False)
    assert status == 0, err
    if elapsed > 2:  # the bar was due
        assert "/18000 points" in err and "ETA" in err, err
        assert "writing" in err and "evaluating" in err, err
        assert "100%" in err and "done" in err, err
