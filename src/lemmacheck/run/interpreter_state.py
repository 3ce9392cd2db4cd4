"""The interpreter-global state a claim may change and the next claim in the same process would inherit.

A worker runs many claims one after another.  A check that sets ``mpmath.mp.dps = 3`` and does not put
it back changed the tightness figures of 7 of the 14 catalogue claims that ran after it in its worker;
``os.chdir``, ``os.environ``, ``np.seterr``, the warning filters and the recursion limit happened not to
matter.  A worker therefore takes a :func:`snapshot` before it imports any content and :func:`restore`
s it before each claim, so whatever one claim leaves behind is gone before the next one starts: every
piece of global state the engine depends on is listed here, and a new one is added here.
"""

from __future__ import annotations

import dataclasses
import decimal
import os
import signal
import sys
import threading
import warnings
from typing import Any

import mpmath
import numpy as np

__all__ = ["InterpreterState", "snapshot", "restore"]


@dataclasses.dataclass(frozen=True)
class InterpreterState:
    mp_prec: int  # mpmath's working precision (mp.dps is derived from it)
    mp_pretty: bool
    arb_prec: int  # python-flint's working precision of balls
    np_errors: Any
    np_error_call: object
    np_print: Any
    warning_filters: tuple
    cwd: str
    environ: dict  # all of it: the engine reads LEMMACHECK_*, and content reads what it likes
    recursion_limit: int
    decimal_context: decimal.Context
    signal_handlers: dict  # the ones the worker and the time limit rely on
    streams: tuple  # sys.stdin, stdout, stderr: a check that swaps one keeps later claims' output
    hooks: tuple  # sys.excepthook, sys.unraisablehook, threading.excepthook


_SIGNALS = [getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGALRM", "SIGPIPE") if hasattr(signal, n)]


def _arb_ctx():
    from flint import ctx

    return ctx


def snapshot() -> InterpreterState:
    return InterpreterState(
        mp_prec=mpmath.mp.prec,
        mp_pretty=mpmath.mp.pretty,
        arb_prec=_arb_ctx().prec,
        np_errors=np.geterr(),
        np_error_call=np.geterrcall(),
        np_print=np.get_printoptions(),
        warning_filters=tuple(warnings.filters),
        cwd=os.getcwd(),
        environ=dict(os.environ),
        recursion_limit=sys.getrecursionlimit(),
        decimal_context=decimal.getcontext().copy(),
        signal_handlers={n: signal.getsignal(n) for n in _SIGNALS},
        streams=(sys.stdin, sys.stdout, sys.stderr),
        hooks=(sys.excepthook, sys.unraisablehook, threading.excepthook),
    )


def restore(state: InterpreterState) -> None:
    """Put every piece of ``state`` back."""
    mpmath.mp.prec, mpmath.mp.pretty = state.mp_prec, state.mp_pretty
    _arb_ctx().prec = state.arb_prec
    np.seterr(**state.np_errors)
    np.seterrcall(state.np_error_call)  # type: ignore[arg-type]  # None or what was set
    np.set_printoptions(**state.np_print)
    if tuple(warnings.filters) != state.warning_filters:
        warnings.resetwarnings()  # also invalidates the per-module "already shown" registries
        warnings.filters[:] = list(state.warning_filters)  # type: ignore[index]  # a list at run time
    try:
        here = os.getcwd()
    except OSError:  # a check removed the folder it had moved to
        here = ""
    if here != state.cwd:
        os.chdir(state.cwd)
    for name in set(os.environ) - set(state.environ):
        del os.environ[name]
    for name, value in state.environ.items():
        if os.environ.get(name) != value:
            os.environ[name] = value
    sys.setrecursionlimit(state.recursion_limit)
    decimal.setcontext(state.decimal_context.copy())
    for signum, handler in state.signal_handlers.items():
        if signal.getsignal(signum) is not handler and handler is not None:
            signal.signal(signum, handler)
    sys.stdin, sys.stdout, sys.stderr = state.streams
    sys.excepthook, sys.unraisablehook, threading.excepthook = state.hooks
