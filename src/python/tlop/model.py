"""model.py — tlop.load and the Model: eval, sweep, explain, simplify, prove, compare.

Each method mirrors a command of src/cli/: the same library calls in the same order, so
the numbers are the command's to the bit.
"""
import collections
import ctypes
import json
import os
import re
import weakref

import numpy as np

from . import _lib
from ._core import Context, Env, Error, big_stack, locked, parse_value
from ._lib import lib, enc, dec

ENGINES = {"auto": _lib.ENGINE_AUTO, "jit": _lib.ENGINE_JIT, "interp": _lib.ENGINE_INTERP}
FORMATS = {"unicode": _lib.FORMAT_UNICODE, "tlop": _lib.FORMAT_TLOP, "latex": _lib.FORMAT_LATEX}

Stage = collections.namedtuple("Stage", "index label expr times cost cumulative")


def _has_pandas():
    try:
        import pandas  # noqa: F401
        return True
    except ImportError:
        return False


class Formula(str):
    """An expression as text (the format asked for); in a notebook it shows as LaTeX."""

    latex = None

    def _repr_latex_(self):
        return f"${self.latex}$" if self.latex is not None else None


class Platform:
    """Where costs are priced: a platform by name (of the model or stdlib/platforms/), with
    channels backed by measured tables, or an analytic definition in τ-Lop source.

        tlop.Platform("lusitania")                           # declared by the model
        tlop.Platform(tables="SHM.txt")                      # default channel ← a table
        tlop.Platform("generic", tables={"net": "IB.txt"})   # channel net ← a table
        tlop.Platform(source="platform toy { channel c { L(m, τ) = 1 us + m / 1 GB/s; "
                             "o(m) = 0.1 us; } }")
    """

    def __init__(self, name=None, tables=None, source=None):
        self.name = name
        self.tables = _table_specs(tables)
        self.source = source

    @classmethod
    def from_tables(cls, tables, name=None):
        return cls(name=name, tables=tables)

    @classmethod
    def analytic(cls, source, name=None):
        return cls(name=name, source=source)

    def __repr__(self):
        return f"tlop.Platform(name={self.name!r}, tables={self.tables!r}, source={'…' if self.source else None})"


def _table_specs(tables):
    """None, "FILE", "CH=FILE", [...], {channel: FILE} → [(channel or None, path)]."""
    if tables is None:
        return []
    if isinstance(tables, (str, os.PathLike)):
        tables = [tables]
    if isinstance(tables, dict):
        return [(ch, os.fspath(p)) for ch, p in tables.items()]
    out = []
    for t in tables:
        if isinstance(t, tuple):
            out.append((t[0], os.fspath(t[1])))
            continue
        t = os.fspath(t)
        ch, eq, path = t.partition("=")
        # "CH=FILE" as --params takes it; a path with '=' in it and no channel stays whole
        out.append((ch, path) if eq and "/" not in ch else (None, t))
    return out


class BoundPlatform:
    """A platform opened for one model (tlop_platform; freed with the object)."""

    def __init__(self, model, ptr):
        self.model = model
        self.ptr = ptr
        weakref.finalize(self, lib.tlop_platform_free, ptr)

    @property
    def _ctx(self):
        return self.model._ctx

    @property
    def name(self):
        return dec(lib.tlop_platform_name(self.ptr))

    @locked
    def table(self, channel=None):
        """The measured table behind a channel: (m, v) NumPy arrays (copies), v of
        nrows × ncols (column 0 o(m), column τ L(m, τ))."""
        m = ctypes.POINTER(ctypes.c_double)()
        v = ctypes.POINTER(ctypes.c_double)()
        nr, nc = ctypes.c_size_t(), ctypes.c_size_t()
        ctx = self.model._ctx
        ctx.begin()
        ctx.check(lib.tlop_platform_table(self.ptr, enc(channel), ctypes.byref(m), ctypes.byref(v),
                                          ctypes.byref(nr), ctypes.byref(nc)))
        ms = np.ctypeslib.as_array(m, (nr.value,)).copy() if nr.value else np.empty(0)
        vs = (np.ctypeslib.as_array(v, (nr.value * nc.value,)).copy().reshape(nr.value, nc.value)
              if nr.value and nc.value else np.empty((nr.value, nc.value)))
        return ms, vs

    def __repr__(self):
        return f"<tlop platform {self.name}>"


class Claim:
    """A `claim` of the model's file (by index; .prove() decides it)."""

    def __init__(self, model, index):
        self.model, self.index = model, index

    def prove(self, **opts):
        return self.model.prove(claims=[self.index], **opts)[0]

    def __repr__(self):
        return f"<tlop claim {self.index}>"


class Verdict:
    """A decided claim or comparison: .verdict ("proved", "refuted", "unknown"), .claim,
    .steps [(step, why or None)], .derivation (the text), .counterexample (the steps of a
    refutation that name one), .seconds. bool(v): proved."""

    def __init__(self, verdict, claim, steps, text, seconds):
        self.verdict, self.claim, self.steps, self.seconds = verdict, claim, steps, seconds
        self.derivation = text

    @property
    def proved(self):
        return self.verdict == "proved"

    @property
    def counterexample(self):
        if self.verdict != "refuted":
            return None
        hits = [s for s, w in self.steps if "counterexample" in s.lower() or
                (w and "counterexample" in w.lower())]
        return hits or [s for s, _ in self.steps]

    def __bool__(self):
        return self.proved

    def __str__(self):
        return self.derivation

    def __repr__(self):
        return f"<tlop {self.verdict}: {self.claim}>"

    def _repr_markdown_(self):
        return f"**{self.verdict}** `{self.claim}`\n\n```\n{self.derivation}```"


class Comparison(Verdict):
    """compare(a, b): the steps of A ≥ B, A ≤ B and the tightest c of A ≥ c·B.
    .ge, .le: "proved", "refuted" or "unknown"; .bound: c (a float) or None."""

    def _step(self, prefix):
        for s, _ in self.steps:
            if s.startswith(prefix):
                return s[len(prefix):].strip()
        return None

    @property
    def ge(self):
        s = self._step("A ≥ B:")
        return s.split(":")[0].strip() if s else None

    @property
    def le(self):
        s = self._step("A ≤ B:")
        return s.split(":")[0].strip() if s else None

    @property
    def bound(self):
        s = self._step("A ≥ c·B with c =")
        try:
            return float(s) if s is not None else None
        except ValueError:
            return s


def _verdict_from(ctx, p, fmt, cls=Verdict):
    try:
        text = dec(lib.tlop_proof_text(p))
        verdict = ("proved", "refuted", "unknown")[lib.tlop_proof_verdict(p)]
        seconds = lib.tlop_proof_seconds(p)
    finally:
        lib.tlop_proof_free(p)
    claim, steps = "", []
    if fmt == "json":
        objs = [json.loads(line) for line in text.splitlines() if line.strip()]
        if objs:
            claim = objs[0].get("claim", "")
        for o in objs:
            steps += [(s.get("step", ""), s.get("why")) for s in o.get("steps", [])]
        lines = [f"{verdict}: {claim}"]
        for s, w in steps:
            lines.append(f"  {s}")
            if w:
                lines.append(f"      ∵ {w}")
        text = "\n".join(lines) + "\n"
    return cls(verdict, claim, steps, text, seconds)


def _looks_like_path(src):
    if isinstance(src, os.PathLike):
        return True
    if isinstance(src, bytes):
        return False
    return "\n" not in src and (os.path.exists(src) or src.endswith(".tlop"))


@big_stack
def load(source, *, name=None, paths=(), strict=False, tau_rule=None, max_terms=None):
    """A model from a file path or from τ-Lop source text (name: the file name its
    diagnostics give, default "<string>"). paths: import directories besides the file's
    own; strict: every warning is an error (--strict); tau_rule: "proportional" or "clamp";
    max_terms: --max-terms. Raises tlop.Error with the diagnostics."""
    return Model(source, name=name, paths=paths, strict=strict, tau_rule=tau_rule,
                 max_terms=max_terms)


class Model:
    """A checked program (one file and its imports) in a context of its own."""

    def __init__(self, source, *, name=None, paths=(), strict=False, tau_rule=None,
                 max_terms=None):
        self._ctx = ctx = Context(strict=strict, tau_rule=tau_rule, max_terms=max_terms,
                                  paths=paths)
        out = ctypes.c_void_p()
        ctx.begin()
        if _looks_like_path(source):
            self.path = os.fspath(source)
            st = lib.tlop_load_file(ctx.ptr, enc(self.path), ctypes.byref(out))
        else:
            self.path = None
            text = enc(source)
            st = lib.tlop_load_source(ctx.ptr, enc(name or "<string>"), text, len(text),
                                      ctypes.byref(out))
        ctx.check(st)
        ctx.flush_warnings()
        self.ptr = out.value
        self._side_models = {}

    # ---- what the model defines ----
    @property
    def algorithms(self):
        """The algorithms the model's own file defines, in source order."""
        names = _lib.STRS()
        n = lib.tlop_model_algorithms(self.ptr, ctypes.byref(names))
        return [dec(names[i]) for i in range(n)]

    @property
    def platforms(self):
        """The platforms the model's own file declares, in source order."""
        names = _lib.STRS()
        n = lib.tlop_model_platforms(self.ptr, ctypes.byref(names))
        return [dec(names[i]) for i in range(n)]

    def params(self, algorithm):
        """The numeric parameters of an algorithm (of the file or an import), in order."""
        n = ctypes.c_size_t()
        p = lib.tlop_algorithm_params(self.ptr, enc(algorithm), ctypes.byref(n))
        if not p:
            raise Error(f"'{algorithm}' is not an algorithm of the model")
        return [dec(p[i]) for i in range(n.value)]

    @property
    def parameters(self):
        """{algorithm: [its numeric parameters]} for the algorithms of the file."""
        return {a: self.params(a) for a in self.algorithms}

    def has_param(self, name):
        """Does the model (its file or an import) declare a `param` of this name?"""
        return bool(lib.tlop_model_has_param(self.ptr, enc(name)))

    @property
    def claims(self):
        """The `claim`s of the model's file (each .prove()s)."""
        return [Claim(self, i) for i in range(lib.tlop_model_claims(self.ptr))]

    def __repr__(self):
        return f"<tlop model {self.path or '<string>'}: {len(self.algorithms)} algorithms>"

    # ---- helpers ----
    def _env(self, values):
        env = Env(self._ctx)
        for k, v in (values or {}).items():
            env.set(self.ptr, k, v)
        return env

    @big_stack
    @locked
    def platform(self, platform=None, params=None):
        """The platform opened for this model: None (the file's first platform, else the
        stdlib's generic), a name, or a tlop.Platform; params: tables as --params takes
        them ("FILE", "CH=FILE", a list, or {channel: FILE})."""
        if isinstance(platform, BoundPlatform):
            if params:
                raise ValueError("tlop: params applies to a platform given by name or tlop.Platform")
            return platform
        ctx = self._ctx
        spec = platform if isinstance(platform, Platform) else Platform(name=platform)
        tables = spec.tables + _table_specs(params)
        owner = self.ptr
        name = spec.name
        if spec.source is not None:
            owner = self._side_models.get(spec.source)
            if owner is None:
                out = ctypes.c_void_p()
                text = enc(spec.source)
                ctx.begin()
                ctx.check(lib.tlop_load_source(ctx.ptr, b"<platform>", text, len(text),
                                               ctypes.byref(out)))
                owner = self._side_models[spec.source] = out.value
            if name is None:
                names = _lib.STRS()
                if lib.tlop_model_platforms(owner, ctypes.byref(names)) == 0:
                    raise Error("tlop.Platform(source=…) declares no platform")
                name = dec(names[0])
        out = ctypes.c_void_p()
        ctx.begin()
        ctx.check(lib.tlop_platform_open(owner, enc(name), ctypes.byref(out)))
        pf = BoundPlatform(self, out.value)
        for ch, path in tables:
            ctx.check(lib.tlop_platform_bind_table(pf.ptr, enc(ch), enc(path)))
        return pf

    def _expr(self, text, env):
        """An algorithm's name stands for its body with its parameters free; other text is
        an expression over the model with the names of env free (cli_expr)."""
        out = ctypes.c_void_p()
        n = ctypes.c_size_t()
        if lib.tlop_algorithm_params(self.ptr, enc(text), ctypes.byref(n)):
            st = lib.tlop_algorithm_expr(self.ptr, enc(text), env.ptr, ctypes.byref(out))
        else:
            st = lib.tlop_expr_parse(self.ptr, enc(text), env.ptr, ctypes.byref(out))
        self._ctx.check(st)
        return out.value

    # ---- eval ----
    @big_stack
    @locked
    def eval(self, expr, platform=None, params=None, engine="interp", **values):
        """The value of EXPR (an algorithm's name or any expression over the model:
        'bcast_binomial(m, P)') with VALUES ("1MiB", 64, an operator's name), on a
        platform: `tlop eval`. A cost is in seconds."""
        ctx = self._ctx
        ctx.begin()
        env = self._env(values)
        e = self._expr(expr, env)
        pf = self.platform(platform, params)
        v = ctypes.c_double()
        if _engine(engine, 1) == _lib.ENGINE_JIT:
            k = ctypes.c_void_p()
            lib.tlop_jit_expect_points(ctx.jit(), 1)
            ctx.check(lib.tlop_jit_compile(ctx.jit(), ctypes.byref(ctypes.c_void_p(e)), 1, pf.ptr,
                                           env.ptr, None, 0, ctypes.byref(k)))
            try:
                ctx.check(lib.tlop_kernels_eval(k.value, 0, None, 1, ctypes.byref(v)))
            finally:
                lib.tlop_kernels_free(k.value)
        else:
            ctx.check(lib.tlop_eval(e, pf.ptr, env.ptr, ctypes.byref(v)))
        ctx.flush_warnings()
        return v.value

    @big_stack
    @locked
    def kind(self, expr, **values):
        """The kind of an expression's value: "number", "count", "size", "time", "other"."""
        self._ctx.begin()
        env = self._env(values)
        return ("number", "count", "size", "time", "other")[lib.tlop_expr_kind(self._expr(expr, env))]

    # ---- sweep ----
    @big_stack
    @locked
    def sweep(self, algos, *, platform=None, params=None, engine=None, threads=0, mesh=True,
              frame=None, set=None, **axes):
        """Every algorithm of ALGOS at every point of the grid: `tlop sweep`.

        Keyword arguments are the grid's axes, first outermost (as --grid in order):
        an array or list of numbers, a list of strings with units (["1KiB", "1MiB"]), or
        an axis spec as --grid takes it ("1KiB..4MiB:*2", "32,64,128"). A scalar (a
        number, or a string with units and no '..' or ',') is a fixed value (--set), as
        are the entries of `set`. mesh=False: the axes are broadcast together point by
        point instead of crossed (for fits: one point per element).

        engine: "auto" (interpret small grids, compile large ones), "jit" or "interp"
        (default: $TLOP_ENGINE, else auto); threads: threads of the JIT (0: all cores).
        Returns the CLI's columns (axes, then algorithms) as a dict of NumPy arrays, or a
        pandas DataFrame when pandas imports (frame=False: the dict anyway)."""
        if isinstance(algos, str):
            algos = [algos]
        algos = list(algos)
        if not algos:
            raise ValueError("tlop: sweep needs at least one algorithm")
        ctx = self._ctx
        ctx.begin()
        for a in algos:
            if re.fullmatch(r"\w+", a) and not self._is_algorithm(a):
                raise Error(f"'{a}' is not an algorithm of {self.path or 'the model'}")
        fixed = dict(set or {})
        grid = []  # (name, float64 array, kind)
        for name, v in axes.items():
            if isinstance(v, str) and (".." in v or "," in v):
                grid.append((name,) + self._axis_spec(name, v))
            elif isinstance(v, (str, bytes, int, float, np.number)) or np.ndim(v) == 0:
                fixed[name] = v
            else:
                grid.append((name,) + self._axis_values(v))
        if not grid:
            raise ValueError("tlop: sweep needs at least one axis (an array of values)")
        names = [g[0] for g in grid]
        for name in names:
            if lib.tlop_model_has_op_param(self.ptr, enc(name)):
                raise Error(f"grid axis '{name}' is a reduction operator, not a number: give it "
                            f"as a fixed value, one sweep per operator")
        if mesh:
            shape = tuple(len(g[1]) for g in grid)
            npts = int(np.prod(shape, dtype=np.int64)) if shape else 1
            pts = np.empty((npts, len(grid)))
            view = pts.reshape(shape + (len(grid),))
            for j, g in enumerate(grid):
                idx = [np.newaxis] * len(grid)
                idx[j] = slice(None)
                view[..., j] = g[1][tuple(idx)]
            columns = [pts[:, j] for j in range(len(grid))]
        else:
            cols = np.broadcast_arrays(*[g[1] for g in grid])
            npts = cols[0].size
            if len(grid) == 1:
                pts = np.ascontiguousarray(cols[0].reshape(-1, 1))  # no copy for a float64 array
            else:
                pts = np.empty((npts, len(grid)))
                for j, c in enumerate(cols):
                    pts[:, j] = c.reshape(-1)
            columns = [pts[:, j] for j in range(len(grid))]
        env = self._env(fixed)
        self._check_axes(algos, grid)
        for name, vals, kind in grid:
            # grid names are free variables of the calls, with the kinds of their values
            env.set_kind(name, vals[0] if len(vals) else 0.0, kind)
        res = self._evaluate(algos, names, pts, env, platform, params, engine, threads)
        out = {}
        for name, col in zip(names, columns):
            out[name] = col
        for a, r in zip(algos, res):
            out[a] = r
        if frame is None:
            frame = _has_pandas()
        if frame:
            import pandas as pd
            return pd.DataFrame(out, copy=False)
        return out

    def _axis_spec(self, name, spec):
        ax = _lib.Axis()
        ctx = self._ctx
        ctx.check(lib.tlop_axis_parse(ctx.ptr, enc(f"{name}={spec}"), ctypes.byref(ax)))
        try:
            vals = np.ctypeslib.as_array(ax.values, (ax.count,)).copy()
            return vals, ax.kind
        finally:
            lib.tlop_axis_free(ctypes.byref(ax))

    def _axis_values(self, v):
        seq = v if isinstance(v, np.ndarray) else list(v)
        if len(seq) and isinstance(seq[0], (str, bytes)):
            parsed = [parse_value(self._ctx, s) for s in seq]
            return np.array([p[0] for p in parsed], dtype=np.float64), parsed[0][1]
        arr = np.ascontiguousarray(seq, dtype=np.float64).reshape(-1)
        return arr, _lib.KIND_NUMBER

    def _check_axes(self, algos, grid):
        """As cli_grid_open: an axis binds a parameter of an algorithm or a model param,
        and a count takes whole numbers ≥ 0 (tlop_axis_check)."""
        ctx = self._ctx
        algo_names = [a for a in algos if self._is_algorithm(a)]
        params = {p for a in algo_names for p in self.params(a)}
        arr = _lib.strings(algo_names)
        seen = []
        for name, vals, kind in grid:
            if name in seen:
                raise Error(f"grid axis '{name}' is given twice")
            seen.append(name)
            if len(algo_names) == len(algos) and name not in params and not self.has_param(name):
                raise Error(f"grid axis '{name}' is neither a parameter of the algorithms nor a "
                            f"param of the model")
            ax = _lib.Axis(enc(name), vals.ctypes.data_as(ctypes.POINTER(ctypes.c_double)),
                           len(vals), kind)
            ctx.check(lib.tlop_axis_check(self.ptr, arr, len(algo_names), ctypes.byref(ax)))

    def _is_algorithm(self, name):
        n = ctypes.c_size_t()
        return bool(lib.tlop_algorithm_params(self.ptr, enc(name), ctypes.byref(n)))

    def _evaluate(self, algos, names, pts, env, platform, params, engine, threads):
        """Each expression at every row of pts (npts × len(names), C order, float64): one
        tlop_kernels_eval or tlop_eval_batch call per expression, no Python per point."""
        ctx = self._ctx
        pts = np.ascontiguousarray(pts, dtype=np.float64)
        npts = pts.shape[0]
        res = np.empty((len(algos), npts))
        ev = Evaluator(self, algos, names, env, platform, params, engine, threads, npts)
        try:
            for a in range(len(algos)):
                lib.tlop_ctx_set_warn_once(ctx.ptr, 1)  # one algorithm warns as one call
                ctx.check(ev.run(a, pts.ctypes.data, npts, res[a].ctypes.data))
            lib.tlop_ctx_set_warn_once(ctx.ptr, 0)
        finally:
            ev.close()
        ctx.flush_warnings(stacklevel=5)
        return res

    # ---- explain ----
    @big_stack
    @locked
    def explain(self, algo, platform=None, params=None, **values):
        """The stages of an algorithm (or expression) with their costs: `tlop explain`.
        Rows: Stage(index, label, expr, times, cost, cumulative)."""
        ctx = self._ctx
        ctx.begin()
        env = self._env(values)
        e = self._expr(algo, env)
        pf = self.platform(platform, params)
        rows = ctypes.POINTER(_lib.Stage)()
        n = ctypes.c_size_t()
        ctx.check(lib.tlop_explain(e, pf.ptr, env.ptr, ctypes.byref(rows), ctypes.byref(n)))
        try:
            out = [Stage(dec(r.index), dec(r.label), dec(r.expr), r.times, r.cost, r.cumulative)
                   for r in (rows[i] for i in range(n.value))]
        finally:
            lib.tlop_stages_free(rows, n.value)
        ctx.flush_warnings()
        return out

    # ---- simplify ----
    @big_stack
    @locked
    def simplify(self, expr, assume=None, format="unicode", expand=False, unroll=False,
                 platform=None, **values):
        """The form the papers derive by hand: `tlop simplify`. Names the model does not
        define are free variables; VALUES are substituted. assume: facts ("P = 2^p, p >= 1",
        or a list of them). format: "unicode", "tlop" or "latex". Returns a str whose
        _repr_latex_ shows the LaTeX form in a notebook."""
        if format not in FORMATS:
            raise ValueError(f"tlop: format takes unicode, latex or tlop, not {format!r}")
        if assume is not None and not isinstance(assume, str):
            assume = ", ".join(assume)
        ctx = self._ctx
        ctx.begin()
        env = self._env(values)
        e = ctypes.c_void_p()
        if self._is_algorithm(expr):  # the algorithm's body, its parameters free (cli_expr)
            ctx.check(lib.tlop_algorithm_expr(self.ptr, enc(expr), None, ctypes.byref(e)))
        else:
            ctx.check(lib.tlop_expr_parse_symbolic(self.ptr, enc(expr), ctypes.byref(e)))
        pf = self.platform(platform) if platform is not None else None
        opts = _lib.SimpOpts(enc(assume), int(bool(expand)), int(bool(unroll)),
                             pf.ptr if pf else None, env.ptr)
        r = ctypes.c_void_p()
        ctx.check(lib.tlop_simplify(e, ctypes.byref(opts), ctypes.byref(r)))
        text = _lib.take_string(lib.tlop_expr_print(ctx.ptr, r, FORMATS[format]))
        if text is None:
            raise ctx.error()
        latex = text if format == "latex" else _lib.take_string(
            lib.tlop_expr_print(ctx.ptr, r, _lib.FORMAT_LATEX))
        ctx.flush_warnings()
        f = Formula(text)
        f.latex = latex
        return f

    # ---- prove, compare ----
    def _prove_opts(self, strict, timeout, assume, axioms, format, platform, params, values,
                    keep):
        if format not in ("unicode", "text", "json", "latex"):
            raise ValueError(f"tlop: format takes unicode, latex or json, not {format!r}")
        if assume is not None and not isinstance(assume, str):
            assume = ", ".join(assume)
        o = _lib.ProveOpts()
        o.strict = int(bool(strict))
        o.timeout = float(timeout or 0)
        o.format = _lib.FORMAT_LATEX if format == "latex" else _lib.FORMAT_UNICODE
        o.json = int(format != "latex")  # parsed into steps, rendered as the text form
        o.assume = enc(assume)
        keep.append(o.assume)
        if axioms is not None and not isinstance(axioms, str):
            axioms = ",".join(axioms)
        o.axioms = enc(axioms)  # optional axioms switched on: "o-monotone,p-monotone"
        keep.append(o.axioms)
        if platform is not None or params:
            pf = self.platform(platform, params)
            keep.append(pf)
            o.platform = pf.ptr
        env = self._env(values)
        keep.append(env)
        o.env = env.ptr
        return o

    @big_stack
    @locked
    def prove(self, claims=None, strict=False, timeout=0, assume=None, axioms=None,
              format="unicode", platform=None, params=None, grid=None, **values):
        """Decides the model's claims (all, or the indices given): `tlop prove`. A list of
        Verdict objects with derivation and counterexample. axioms: optional axioms to
        switch on (names, as --axiom). grid: {name: axis spec or values} — numeric evidence
        for an undecided claim on the platform."""
        ctx = self._ctx
        ctx.begin()
        keep = []
        o = self._prove_opts(strict, timeout, assume, axioms, format, platform, params, values,
                             keep)
        axes = []
        for name, spec in (grid or {}).items():
            ax = _lib.Axis()
            if not isinstance(spec, str):
                spec = ",".join(repr(float(x)) for x in spec)
            ctx.check(lib.tlop_axis_parse(ctx.ptr, enc(f"{name}={spec}"), ctypes.byref(ax)))
            axes.append(ax)
        arr = (_lib.Axis * max(len(axes), 1))(*axes)
        try:
            for i in range(len(axes)):
                ctx.check(lib.tlop_claim_axis_check(self.ptr, ctypes.byref(arr[i])))
            o.axes = arr
            o.naxes = len(axes)
            n = lib.tlop_model_claims(self.ptr)
            which = range(n) if claims is None else claims
            out = []
            for i in which:
                if not 0 <= i < n:
                    raise IndexError(f"tlop: the model has {n} claims, not claim {i}")
                p = ctypes.c_void_p()
                ctx.check(lib.tlop_prove_claim(self.ptr, i, ctypes.byref(o), ctypes.byref(p)))
                out.append(_verdict_from(ctx, p.value, "latex" if format == "latex" else "json"))
        finally:
            for i in range(len(axes)):
                lib.tlop_axis_free(ctypes.byref(arr[i]))
        ctx.flush_warnings()
        return out

    @big_stack
    @locked
    def compare(self, a, b, strict=False, timeout=0, assume=None, axioms=None,
                format="unicode"):
        """A ≥ B, A ≤ B (each proved, refuted or unknown) and the largest c for which
        A ≥ c·B is proved: `tlop compare`. A Comparison (a Verdict: proved when A ≥ B…
        as the command's exit status says)."""
        ctx = self._ctx
        ctx.begin()
        keep = []
        o = self._prove_opts(strict, timeout, assume, axioms, format, None, None, {}, keep)
        p = ctypes.c_void_p()
        ctx.check(lib.tlop_prove_compare(self.ptr, enc(a), enc(b), ctypes.byref(o), ctypes.byref(p)))
        v = _verdict_from(ctx, p.value, "latex" if format == "latex" else "json", Comparison)
        ctx.flush_warnings()
        return v


class Evaluator:
    """What `tlop sweep` and `tlop best` share (cli_evaluator): the expressions of ALGOS over
    the variables NAMES, compiled by the JIT in one module or interpreted."""

    def __init__(self, model, algos, names, env, platform, params, engine, threads, npts):
        ctx = self.ctx = model._ctx
        self.env = env
        self.exprs = [model._expr(a, env) for a in algos]
        self.pf = model.platform(platform, params)
        self.names = _lib.strings(names)
        self.nvars = len(names)
        self.kern = None
        if _engine(engine, npts) == _lib.ENGINE_JIT:
            jit = ctx.jit()
            lib.tlop_jit_set_jobs(jit, int(threads or 0))
            lib.tlop_jit_expect_points(jit, int(npts))
            earr = (ctypes.c_void_p * len(self.exprs))(*self.exprs)
            k = ctypes.c_void_p()
            ctx.check(lib.tlop_jit_compile(jit, earr, len(self.exprs), self.pf.ptr, env.ptr,
                                           self.names, self.nvars, ctypes.byref(k)))
            self.kern = k.value

    def run(self, which, pts, npts, out):
        if self.kern:
            return lib.tlop_kernels_eval(self.kern, which, pts, npts, out)
        return lib.tlop_eval_batch(self.exprs[which], self.pf.ptr, self.env.ptr, self.names,
                                   self.nvars, pts, npts, out)

    def close(self):
        if self.kern:
            lib.tlop_kernels_free(self.kern)
            self.kern = None


def _engine(engine, npts):
    if engine is None:
        engine = os.environ.get("TLOP_ENGINE") or "auto"
    if engine not in ENGINES:
        raise ValueError(f"tlop: engine takes auto, jit or interp, not {engine!r}")
    return lib.tlop_engine_pick(ENGINES[engine], npts)
