"""tlop — τ-Lop cost models from Python, over libtlop_jit through ctypes.

    import tlop
    model = tlop.load("stdlib/mpich/bcast.tlop")
    model.sweep(["allgather_rda"], m=[1024], P=[16])      # the columns of `tlop sweep`
    model.eval("bcast_binomial(m, P)", m="1MiB", P=64)      # seconds
    model.simplify("bcast_binomial(m, P)", format="latex")
    tlop.load("examples/rda_vs_scatter.tlop").prove()       # verdicts with derivations

See docs/python.md.
"""
from ._core import Diagnostic, Error, TlopWarning
from ._lib import lib as _clib
from .model import Claim, Comparison, Formula, Model, Platform, BoundPlatform, Stage, Verdict, load
from .best import Decision, best

__version__ = _clib.tlop_version().decode()

__all__ = ["load", "Model", "Platform", "BoundPlatform", "Claim", "Verdict", "Comparison",
           "Formula", "Stage", "best", "Decision", "Error", "Diagnostic", "TlopWarning",
           "axioms", "format_size", "format_time"]


def axioms():
    """The axioms the prover uses, as text (`tlop prove --axioms`)."""
    return _clib.tlop_axioms().decode()


def format_size(nbytes):
    """1048576 → '1 MiB' (the library's human form)."""
    import ctypes
    buf = ctypes.create_string_buffer(64)
    _clib.tlop_format_size(buf, 64, float(nbytes))
    return buf.value.decode()


def format_time(seconds):
    """1.235e-05 → '12.35 µs'."""
    import ctypes
    buf = ctypes.create_string_buffer(64)
    _clib.tlop_format_time(buf, 64, float(seconds))
    return buf.value.decode()
