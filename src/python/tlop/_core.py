"""_core.py — contexts, diagnostics and errors: what every other module of the package uses.

Each loaded model owns one tlop_ctx (and, once a sweep compiles, one JIT); the context is
freed when the model and everything made from it are gone (weakref.finalize, so also at
interpreter exit, children first). The library never prints: its diagnostics are collected
here, errors raised as tlop.Error, warnings issued as tlop.TlopWarning.
"""
import collections
import ctypes
import functools
import os
import threading
import warnings
import weakref

from . import _lib
from ._lib import lib, enc

_DiagBase = collections.namedtuple("Diagnostic", "file line col message")


class Diagnostic(_DiagBase):
    """(file, line, col, message) — file None and line/col 0 when unknown — plus
    .severity ("error", "warning", "note") and .text (the full rendering with the source
    line and caret, as the tlop command prints it)."""

    severity = "error"
    text = ""

    def __str__(self):
        return self.text.rstrip("\n") if self.text else self.message


class Error(Exception):
    """A tlop call failed. .diagnostics: [(file, line, col, message), …] (Diagnostic
    tuples); .status: the library's status name (TLOP_ERR_SYNTAX, …)."""

    def __init__(self, message=None, diagnostics=(), status=None):
        self.diagnostics = list(diagnostics)
        self.status = status
        if message is None:
            message = "\n".join(str(d) for d in self.diagnostics) or (status or "tlop error")
        super().__init__(message)


class TlopWarning(UserWarning):
    """A warning of the library (a table extrapolated beyond its last row, …)."""


_SEVERITY = {_lib.ERROR: "error", _lib.WARNING: "warning", _lib.NOTE: "note"}


def _free_context(ptr, holder, _callback):
    # the JIT (bound to the context) first, then the context with every model, expression
    # and table it owns; the callback object is kept alive until here
    if holder[0]:
        lib.tlop_jit_free(holder[0])
        holder[0] = None
    lib.tlop_ctx_free(ptr)


def _installed_stdlib():
    """An installed library finds its stdlib beside itself (PREFIX/lib → PREFIX/share), as
    the installed command does; in a build tree the configured one (or the built-in) serves."""
    d = os.path.join(os.path.dirname(os.path.realpath(_lib.path)), "..", "share", "tlop", "stdlib")
    return os.path.normpath(d) if os.path.isdir(d) else None


class Context:
    """One tlop_ctx with its diagnostics."""

    def __init__(self, strict=False, tau_rule=None, max_terms=None, paths=()):
        ptr = lib.tlop_ctx_new()
        if not ptr:
            raise MemoryError("tlop: cannot create a context")
        self.ptr = ptr
        diags = self.diags = []

        def on_diag(_user, d):
            d = d.contents
            diag = Diagnostic(_lib.dec(d.file), d.line, d.col, _lib.dec(d.message) or "")
            diag.severity = _SEVERITY.get(d.severity, "error")
            diag.text = _lib.dec(d.text) or ""
            diags.append(diag)

        cb = _lib.DIAG_FN(on_diag)  # the closure holds the list, not self: no cycle
        lib.tlop_ctx_set_diag(ptr, cb, None)
        self.lock = threading.RLock()  # one call at a time: a context is not thread-safe
        self._jit = [None]
        self._finalizer = weakref.finalize(self, _free_context, ptr, self._jit, cb)
        stdlib = _installed_stdlib()
        if stdlib:
            lib.tlop_ctx_set_stdlib_dir(ptr, enc(stdlib))
        if strict:
            lib.tlop_ctx_set_strict(ptr, 1)
        if tau_rule is not None:
            rules = {"proportional": _lib.TAU_PROPORTIONAL, "clamp": _lib.TAU_CLAMP}
            if tau_rule not in rules:
                raise ValueError(f"tau_rule takes 'proportional' or 'clamp', not {tau_rule!r}")
            lib.tlop_ctx_set_tau_rule(ptr, rules[tau_rule])
        if max_terms is not None:
            lib.tlop_ctx_set_max_terms(ptr, float(max_terms))
        for p in paths:
            self.check(lib.tlop_ctx_add_path(ptr, enc(os.fspath(p))))

    # ---- diagnostics ----
    def begin(self):
        self.diags.clear()

    def flush_warnings(self, stacklevel=4):
        """After a call that succeeded: its warnings issued; an error among them (strict:
        a warning reported as an error) raised, as `tlop --strict` fails."""
        if any(d.severity == "error" for d in self.diags):
            raise self.error(None)
        for d in self.diags:
            if d.severity == "warning":
                warnings.warn(str(d), TlopWarning, stacklevel=stacklevel)
        self.diags.clear()

    def error(self, status=None, message=None):
        errs = [d for d in self.diags if d.severity == "error"] or list(self.diags)
        name = _lib.dec(lib.tlop_status_name(status)) if status is not None else None
        self.diags.clear()
        return Error(message, errs, name)

    def check(self, status, message=None):
        """Raises tlop.Error with the diagnostics when status is not TLOP_OK."""
        if status != _lib.OK:
            raise self.error(status, message)
        return status

    def strict_errors(self):
        return lib.tlop_ctx_errors(self.ptr)

    def jit(self):
        if not self._jit[0]:
            out = ctypes.c_void_p()
            self.check(lib.tlop_jit_new(self.ptr, ctypes.byref(out)))
            self._jit[0] = out.value
        return self._jit[0]


class Env:
    """A tlop_env: values given to parameters by name (freed with the object)."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.ptr = lib.tlop_env_new(ctx.ptr)
        weakref.finalize(self, lib.tlop_env_free, self.ptr)

    def set(self, model_ptr, name, value):
        """A value as the command's --set takes it: text with units ("1MiB", "3.5us"),
        a number (a bare number: it takes the kind it meets), or an operator's name for a
        parameter `op: op`."""
        n = enc(name)
        if isinstance(value, str) and lib.tlop_model_has_op_param(model_ptr, n):
            st = lib.tlop_env_set_op(self.ptr, n, enc(value))
        elif isinstance(value, (str, bytes)):
            st = lib.tlop_env_set_text(self.ptr, n, enc(value))
        else:
            try:
                v = float(value)
            except (TypeError, ValueError):
                raise TypeError(f"tlop: value of {name} must be a number or a string with "
                                f"units, not {type(value).__name__}") from None
            st = lib.tlop_env_set(self.ptr, n, v, _lib.KIND_NUMBER)
        self.ctx.check(st)

    def set_kind(self, name, value, kind):
        self.ctx.check(lib.tlop_env_set(self.ptr, enc(name), float(value), kind))


def parse_value(ctx, text):
    """("1MiB") → (1048576.0, kind): tlop_value_parse."""
    v = ctypes.c_double()
    k = ctypes.c_int()
    ctx.begin()
    ctx.check(lib.tlop_value_parse(ctx.ptr, enc(text), ctypes.byref(v), ctypes.byref(k)))
    return v.value, k.value


# ---- stack ----
# The stages after the parser recurse over an expression: the deepest the limits allow take
# about 10 MiB of stack (docs/hardening.md), more than a thread's 8 MiB. As the tlop command
# does (cli_grow_stack), the main thread's limit is raised to 64 MiB: its stack grows on
# demand up to the current limit. Calls from other threads run on a helper thread with a
# 64 MiB stack of its own.
STACK = 64 << 20


def _grow_stack():
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
        if soft != resource.RLIM_INFINITY and soft < STACK:
            want = STACK if hard == resource.RLIM_INFINITY else min(STACK, hard)
            resource.setrlimit(resource.RLIMIT_STACK, (want, hard))
    except (ImportError, ValueError, OSError):
        pass


_grow_stack()
_stack_lock = threading.Lock()


def big_stack(fn):
    """Runs fn on a thread whose stack is STACK bytes, unless on the main thread."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if threading.current_thread() is threading.main_thread() or getattr(
                _tls, "big", False):
            return fn(*args, **kwargs)
        box = {}

        def run():
            _tls.big = True
            try:
                box["value"] = fn(*args, **kwargs)
            except BaseException as e:  # handed to the caller's thread
                box["error"] = e

        with _stack_lock:  # stack_size is the module's setting for the next thread
            old = threading.stack_size(STACK)
            try:
                t = threading.Thread(target=run, name="tlop-stack")
                t.start()
            finally:
                threading.stack_size(old)
        t.join()
        if "error" in box:
            raise box["error"].with_traceback(box["error"].__traceback__)
        return box.get("value")

    return wrapper


_tls = threading.local()


def locked(fn):
    """A method of an object with a ._ctx: one call at a time per context (other models'
    calls run in parallel, the GIL released inside the library)."""

    @functools.wraps(fn)
    def wrapper(self, *args, **kwargs):
        with self._ctx.lock:
            return fn(self, *args, **kwargs)

    return wrapper
