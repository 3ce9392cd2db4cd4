"""A wall-clock cap on SymPy: ``simplify`` has no budget in counts, and on some false identities (nested
undefined functions) it does not return in any time worth waiting for.

The cap is an alarm (``SIGALRM``), so it is enforced in the main thread on POSIX only; elsewhere (a Dask
worker's thread) SymPy runs uncapped and the run's own time limit still applies.  An alarm already set
(the run's per-claim limit, a mutant's cap) is respected: when it falls first it is left to fire as it
would have; otherwise it is re-armed with its remaining time when the capped block ends.

Once up, the cap raises again every :data:`REPEAT_SECONDS` until the block is left: a ``SymPyStopped``
raised inside a gc callback or a ``__del__`` is only printed by Python, and a one-shot alarm would then
leave SymPy running with no alarm armed at all, the run's own limit included (seen under ``run
--certify``: four claims ran on to the worker's 120 s limit and were killed).

With ``cpu=True`` the cap counts the process's CPU seconds (``ITIMER_PROF``, ``SIGPROF``), not the wall
clock's: a machine loaded many times over stretches the wall clock, not the CPU time a block spends, so a
CPU cap falls at nearly the same point of the work at any load (certification's safety nets).
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
import time
from collections.abc import Iterator

__all__ = ["SymPyStopped", "sympy_cap", "capped", "REPEAT_SECONDS"]

#: seconds between the cap's alarms once it is up, until the capped block is left
REPEAT_SECONDS = 0.1


class SymPyStopped(BaseException):
    """SymPy's time is up.  A BaseException: SymPy's own ``except Exception`` must not swallow it."""


def capped() -> bool:
    """Whether a cap can be enforced here."""
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def sympy_cap(seconds: float, *, cpu: bool = False) -> Iterator[None]:
    """Raise :class:`SymPyStopped` in the block after ``seconds`` of the wall clock, or of the process's
    CPU time with ``cpu`` (nothing happens when it ends first)."""
    if not capped():
        yield
        return
    timer, signum = (signal.ITIMER_PROF, signal.SIGPROF) if cpu else (signal.ITIMER_REAL, signal.SIGALRM)
    clock = time.process_time if cpu else time.monotonic
    outer_left, outer_interval = signal.getitimer(timer)
    if outer_left and outer_left <= seconds:
        yield  # the alarm already set falls first: it is the cap
        return
    armed = [True]

    def stop(signum, frame):
        if armed[0]:  # an alarm landing while the block is being left is not this cap's business
            raise SymPyStopped(f"SymPy stopped after {seconds:g} s")

    previous = signal.signal(signum, stop)
    previous_hook = sys.unraisablehook

    def unraisable(info) -> None:  # a swallowed stop is retried by the next alarm: not a crash to print
        if not isinstance(info.exc_value, SymPyStopped):
            previous_hook(info)

    sys.unraisablehook = unraisable
    start = clock()
    signal.setitimer(timer, seconds, REPEAT_SECONDS)
    try:
        yield
    finally:
        try:
            armed[0] = False
        finally:  # restored even when the alarm interrupts the line above
            signal.setitimer(timer, 0)
            signal.signal(signum, previous if previous is not None else signal.SIG_DFL)
            sys.unraisablehook = previous_hook
            if outer_left:
                left = max(outer_left - (clock() - start), 1e-3)
                signal.setitimer(timer, left, outer_interval)
