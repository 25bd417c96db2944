"""Fixtures of the Python package's tests: the source tree, the tlop command of the same
build (TLOP_CLI, set by ctest) and the small measured table of examples/emit."""
import csv
import io
import os
import pty
import subprocess
import time

import pytest

ROOT = os.environ.get("TLOP_ROOT") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CLI = os.environ.get("TLOP_CLI") or os.path.join(ROOT, "build", "tlop")
SHM = os.path.join(ROOT, "examples", "emit", "shm.txt")
BCAST = os.path.join(ROOT, "stdlib", "mpich", "bcast.tlop")
RDA = os.path.join(ROOT, "examples", "rda_vs_scatter.tlop")


def run_cli(*args, check=True):
    r = subprocess.run([CLI, *args], capture_output=True, text=True, cwd=ROOT)
    if check and r.returncode != 0:
        raise AssertionError(f"tlop {' '.join(args)}: exit {r.returncode}\n{r.stderr}")
    return r


def on_terminal(args, stdout_on_terminal=True):
    """Runs tlop with its standard error (and output) on a pseudo-terminal: (exit status,
    what it wrote there, seconds)."""
    leader, follower = pty.openpty()
    start = time.monotonic()
    proc = subprocess.Popen([CLI, *args], stdin=subprocess.DEVNULL,
                            stdout=follower if stdout_on_terminal else subprocess.DEVNULL,
                            stderr=follower, cwd=ROOT)
    os.close(follower)
    err = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        err += chunk
    proc.wait()
    os.close(leader)
    return proc.returncode, err.decode().replace("\r\n", "\n"), time.monotonic() - start


def cli_csv(*args):
    """`tlop sweep … --format csv` parsed: {column: [float, …]} in the CLI's order."""
    out = run_cli("sweep", *args, "--format", "csv", "--no-progress").stdout
    rows = list(csv.reader(io.StringIO(out)))
    cols = {h: [] for h in rows[0]}
    for row in rows[1:]:
        for h, v in zip(rows[0], row):
            cols[h].append(float(v))
    return cols


@pytest.fixture(autouse=True)
def _cwd(monkeypatch):
    monkeypatch.chdir(ROOT)
