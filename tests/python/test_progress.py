"""The progress bar of `tlop best` and `tlop plot` (issue 23), drawn by the code of
`tlop sweep`'s (src/cli/progress.c): on a terminal, after a second, grid points done with
the time left; no diagnostic shares its line; none with --no-progress, nor when standard
error is no terminal."""
import os
import shutil
import subprocess

from conftest import CLI, ROOT, SHM, on_terminal

# Beyond the table's 8 τ columns each candidate warns, picky while the bar runs (it is
# evaluated after slow); picky refuses P ≥ 30 (P is the grid's outer axis), which is said
# after the bar. Neither may share a line with it.
MODEL = """\
algorithm slow(m: size, P: count) = sum i = 1 .. 150 : L(m, P) / i + P * o(m);
algorithm picky(m: size, P: count) = require(P < 30, sum i = 1 .. 150 : L(m, P + 1) / i);
"""


def commands(tmp_path):
    model = tmp_path / "slow.tlop"
    model.write_text(MODEL)
    grid = ["--grid", "P=1..40", "--grid", "m=1..1MiB:*1.05", "--engine", "interp",
            "--params", SHM]
    yield "best", ["best", str(model), "--collective", "bcast", "slow", "picky", *grid]
    if shutil.which("gnuplot"):
        yield "plot", ["plot", str(model), "slow", "picky", "--map", *grid,
                       "-o", str(tmp_path / "map.svg")]


def test_best_and_plot_show_the_bar_on_a_terminal(tmp_path):
    for name, args in commands(tmp_path):
        status, err, elapsed = on_terminal(args)
        assert status == 0, f"tlop {name}: {err}"
        lines = err.split("\n")
        said = [line for line in lines if "left out" in line or "warning:" in line]
        # each starts its own line: no bar before it on that line
        assert len(said) >= 3, err
        assert all(line.startswith(("left out", "tlop plot:", "warning:")) for line in said), err
        if elapsed > 2:  # the bar was due: it counts grid points, with the time left
            assert "/11400 points" in err and "evaluating" in err and "ETA" in err, err
            assert "\r[" in err and "100%" in err, err


def test_no_bar_with_no_progress(tmp_path):
    for name, args in commands(tmp_path):
        status, err, _ = on_terminal([*args, "--no-progress"])
        assert status == 0 and "/11400 points" not in err, f"tlop {name}: {err}"


def test_no_bar_off_a_terminal(tmp_path):
    for name, args in commands(tmp_path):
        r = subprocess.run([CLI, *args], capture_output=True, text=True, cwd=ROOT)
        assert r.returncode == 0 and "/11400 points" not in r.stderr and "\r" not in r.stderr, name
