"""best.py — tlop.best: the cheapest algorithm of a collective at every (m, P) of a grid, as
`tlop best` decides it (tlop_best.h), and the tuning file an MPI library reads."""
import collections
import ctypes
import os
import weakref

import numpy as np

from . import _lib
from ._core import Error, big_stack, locked
from ._lib import lib, enc, dec
from .model import Evaluator, Model, load

Range = collections.namedtuple(
    "Range", "P m_first m_last m_from winner runner_up margin_min margin_max by_tie")

TUNING_FORMATS = ("ompi-rules", "ompi-rules-v1", "mpich-json", "ompi-json", "impi")


def _free_decision(ptr, cat):
    lib.tlop_decision_free(ptr)
    lib.tlop_catalog_free(cat)


class Decision:
    """The decision table: .candidates (names, in the tie rule's order), .ranges (Range
    tuples by P then m: the winner and runner-up by name, m_from where the run starts),
    .winner(m, P), .table() (a dict of arrays, or a DataFrame with pandas),
    .tuning(format) and .write(path, format) for the tuning files."""

    def __init__(self, model, collective, candidates, ms, Ps, ptr, cat, tie, refined):
        self.model, self.collective, self.candidates = model, collective, candidates
        self.m, self.P, self.tie, self.refined = ms, Ps, tie, refined
        self._ptr, self._cat = ptr, cat
        weakref.finalize(self, _free_decision, ptr, cat)
        self._read_ranges()

    def _read_ranges(self):
        candidates = self.candidates
        d = self._ptr.contents
        self.ranges = [Range(r.P, r.m_first, r.m_last, r.m_from, candidates[r.winner],
                             candidates[r.runner_up] if r.runner_up != r.winner else None,
                             r.margin_min, r.margin_max, bool(r.by_tie))
                       for r in (d.ranges[i] for i in range(d.nranges))]

    def winner(self, m, P):
        """The winner at (m, P) by the decision (tlop_best_lookup)."""
        return self.candidates[lib.tlop_best_lookup(self._ptr, float(m), float(P))]

    def table(self, frame=None):
        cols = {f: [getattr(r, f) for r in self.ranges] for f in Range._fields}
        for f in ("P", "m_first", "m_last", "m_from", "margin_min", "margin_max"):
            cols[f] = np.array(cols[f], dtype=np.float64)
        if frame is None:
            try:
                import pandas  # noqa: F401
                frame = True
            except ImportError:
                frame = False
        if frame:
            import pandas as pd
            return pd.DataFrame(cols)
        return cols

    def __str__(self):
        from . import format_size
        lines = [f"best {self.collective}: {len(self.candidates)} candidates, "
                 f"{len(self.P)} × {len(self.m)} grid points (tie {self.tie * 100:g}%)"]
        for i, r in enumerate(self.ranges):
            last = i + 1 == len(self.ranges) or self.ranges[i + 1].P != r.P
            to = "…" if last else format_size(
                self.ranges[i + 1].m_from - 1 if self.refined else r.m_last)
            runner = (f"{r.runner_up} {r.margin_min * 100:+.1f}% .. {r.margin_max * 100:+.1f}%"
                      f"{' (tie rule)' if r.by_tie else ''}" if r.runner_up else "-")
            lines.append(f"P={r.P:<6.0f} {format_size(r.m_from):>10} .. {to:>10}  {r.winner}  "
                         f"(runner-up {runner})")
        return "\n".join(lines)

    def _repr_pretty_(self, p, cycle):
        p.text(str(self))

    @property
    def _ctx(self):
        return self.model._ctx

    @big_stack
    @locked
    def tuning(self, format="ompi-rules", ranks="any", mpich_version=None):
        """The decision as an MPI library's tuning file (text), read back by the linter
        that mirrors the library and checked to give the decision's winner at every grid
        point (as `tlop best --emit`). format: ompi-rules, ompi-rules-v1, mpich-json,
        ompi-json or impi; ranks (ompi-json only): any, single_node or one_per_node;
        mpich_version: the MPICH release whose own tree completes an MPICH file (None:
        tlop's default, TLOP_MPICH_VERSION)."""
        ctx = self.model._ctx
        ctx.begin()
        f, rk = ctypes.c_int(), ctypes.c_int()
        if lib.tlop_tuning_format_parse(enc(format), ctypes.byref(f)) != _lib.OK:
            raise ValueError(f"tlop: format takes {', '.join(TUNING_FORMATS)}, not {format!r}")
        if lib.tlop_ranks_parse(enc(ranks), ctypes.byref(rk)) != _lib.OK:
            raise ValueError(f"tlop: ranks takes any, single_node or one_per_node, not {ranks!r}")
        n = len(self.candidates)
        cands = (ctypes.POINTER(_lib.CatalogEntry) * n)()
        for i, a in enumerate(self.candidates):
            e = lib.tlop_catalog_find(self._cat, enc(self.collective), enc(a))
            if not e:
                raise Error(f"{a} is not in the catalogue's {self.collective}: no tuning file")
            cands[i] = e
        for r in self._ptr.contents.ranges[:self._ptr.contents.nranges]:
            if not lib.tlop_tuning_names(cands[r.winner], f.value):
                raise Error(f"{self.candidates[r.winner]} wins at P = {r.P:.0f} from m = "
                            f"{r.m_from:.0f} B, but the catalogue gives it no name in {format}: "
                            f"no file written")
        target = _lib.TuningTarget(f.value, rk.value,
                                   enc(mpich_version) if mpich_version else None)
        part = _lib.TuningPart(enc(self.collective), self._ptr, cands)
        text = ctypes.c_void_p()
        ctx.check(lib.tlop_tuning_write(ctx.ptr, ctypes.byref(part), 1, ctypes.byref(target),
                                        ctypes.byref(text)))
        body = _lib.take_string(text.value)
        back = ctypes.c_void_p()
        raw = enc(body)
        ctx.check(lib.tlop_tuning_read(ctx.ptr, self._cat, enc(self.collective),
                                       ctypes.byref(target), b"<tuning>", raw, len(raw),
                                       ctypes.byref(back)))
        try:
            for P in self.P:
                for m in self.m:
                    want = cands[lib.tlop_best_lookup(self._ptr, m, P)]
                    got = lib.tlop_tuning_lookup(back.value, m, P)
                    if not got or not lib.tlop_tuning_same(got, want, f.value):
                        raise Error(f"internal error: the file read back gives "
                                    f"{dec(got.contents.algorithm) if got else 'nothing'} at "
                                    f"m = {m:.0f}, P = {P:.0f}, the decision "
                                    f"{dec(want.contents.algorithm)}")
        finally:
            lib.tlop_tuning_free(back.value)
        return body

    def write(self, path, format="ompi-rules", ranks="any", mpich_version=None):
        """Writes the tuning file (see tuning()) to path; returns the text."""
        text = self.tuning(format, ranks, mpich_version)
        with open(os.fspath(path), "w") as f:
            f.write(text)
        return text


@big_stack
def best(model, collective=None, algos=None, *, m, P, tie=0.01, refine=False, platform=None,
         params=None, catalog=None, emit=None, engine=None, threads=0, set=None):
    """The cheapest of ALGOS (default: the catalogue's algorithms of COLLECTIVE that the
    model defines, simplest first; with emit=FORMAT only those that library names) at every
    (m, P): `tlop best`. m ascending. tie: a candidate within this fraction of the cheapest
    loses to one listed before it (0.01). refine: crossovers located by bisection to the
    byte. model: a tlop.Model or a path. Returns a Decision."""
    if not isinstance(model, Model):
        model = load(model)
    with model._ctx.lock:
        return _best(model, collective, algos, m, P, tie, refine, platform, params, catalog,
                     emit, engine, threads, set)


def _best(model, collective, algos, m, P, tie, refine, platform, params, catalog, emit, engine,
          threads, set):
    ctx = model._ctx
    ctx.begin()
    if not 0 <= tie < 1:
        raise ValueError("tlop: tie is a fraction from 0 to 1 (0.01 for 1%)")
    cat = ctypes.c_void_p()
    ctx.check(lib.tlop_catalog_open(ctx.ptr, enc(catalog and os.fspath(catalog)),
                                    ctypes.byref(cat)))
    cat = cat.value
    try:
        if algos:
            names = [algos] if isinstance(algos, str) else list(algos)
            if collective is None and emit is None:
                collective = "?"
        else:
            if not collective:
                raise ValueError("tlop: best needs a collective (or the algorithms)")
            fmt = ctypes.c_int()
            if emit is not None and lib.tlop_tuning_format_parse(enc(emit), ctypes.byref(fmt)):
                raise ValueError(f"tlop: emit takes {', '.join(TUNING_FORMATS)}, not {emit!r}")
            entries = ctypes.POINTER(_lib.CatalogEntry)()
            n = lib.tlop_catalog_entries(cat, ctypes.byref(entries))
            names = []
            for i in range(n):
                e = entries[i]
                if dec(e.collective) != collective or not model._is_algorithm(dec(e.algorithm)):
                    continue
                if emit is None or lib.tlop_tuning_names(ctypes.byref(e), fmt.value):
                    names.append(dec(e.algorithm))
            if not names:
                raise Error(f"the catalogue lists no algorithm of '{collective}' that the model "
                            f"defines")
        # the grid: P outermost, m inner — the layout tlop_best_decide reads
        cols = model.sweep(names, P=P, m=m, platform=platform, params=params, engine=engine,
                           threads=threads, frame=False, set=set)
        Ps = np.unique(cols["P"])
        Ps = cols["P"][:: len(cols["m"]) // len(Ps)].copy() if len(Ps) else Ps
        ms = cols["m"][: len(cols["m"]) // max(len(Ps), 1)].copy()
        if np.any(np.diff(ms) < 0):
            raise ValueError("tlop: best takes m in ascending order")
        costs = np.ascontiguousarray(np.stack([cols[a] for a in names]))
        dp = lambda a: a.ctypes.data_as(ctypes.POINTER(ctypes.c_double))  # noqa: E731
        d = ctypes.POINTER(_lib.Decision)()
        ctx.check(lib.tlop_best_decide(dp(ms), len(ms), dp(Ps), len(Ps), dp(costs), len(names),
                                       float(tie), ctypes.byref(d)))
    except BaseException:
        lib.tlop_catalog_free(cat)
        raise
    decision = Decision(model, collective, names, ms, Ps, d, cat, tie, bool(refine))
    if refine:
        _refine(model, decision, names, platform, params, engine, threads, set, ms, Ps)
    return decision


def _refine(model, decision, names, platform, params, engine, threads, fixed, ms, Ps):
    ctx = model._ctx
    env = model._env(dict(fixed or {}))
    env.set_kind("P", Ps[0], _lib.KIND_NUMBER)
    env.set_kind("m", ms[0], _lib.KIND_NUMBER)
    ev = Evaluator(model, names, ["P", "m"], env, platform, params, engine, threads, len(ms) * len(Ps))
    pt = np.zeros(2)

    def cost_at(_user, m, P, costs):
        pt[0], pt[1] = P, m
        for a in range(len(names)):
            st = ev.run(a, pt.ctypes.data, 1, ctypes.cast(ctypes.byref(costs.contents, a * 8),
                                                          ctypes.c_void_p))
            if st != _lib.OK:
                return st
        return _lib.OK

    fn = _lib.COST_FN(cost_at)
    try:
        st = lib.tlop_best_refine(decision._ptr, float(decision.tie), fn, None)
        # refining re-evaluates between grid points: the grid's evaluation has warned already
        ctx.diags[:] = [d for d in ctx.diags if d.severity == "error"]
        ctx.check(st)
    finally:
        ev.close()
    decision.refined = True
    decision._read_ranges()
