"""A cap on one mutant: a mutated loop bound or exponent can make a check slow or endless.

The cap counts the process's CPU time (``ITIMER_PROF``), not the wall clock: how much work a mutant is
allowed is then the same on an idle machine and on one running eight other jobs, so a loaded CI runner
does not turn decided mutants into timeouts (on a machine at load 17 on 2 cores a 10 s wall-clock cap
left about 1 s of work).  A mutant that waits instead of computing is stopped by a wall-clock backstop
at :data:`WALL_FACTOR` times the cap: far enough that it is not what stops a computing mutant on a
loaded machine (at 10×, a niced run at load 23 got about a twelfth of a core, and the backstop stopped
a mutant after some 8 s of CPU, under its 10 s cap).  Both repeat every :data:`_REFIRE` seconds until
the block exits: a timeout raised where Python ignores exceptions (a garbage-collector callback) is
raised again.  Python reports such an ignored exception to ``sys.unraisablehook``, and pytest turns that
report into a failure of whatever test is running; the repeat already makes up for the lost timeout, so
inside the block the hook drops a :class:`MutantTimeout` and passes anything else on.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
import time
from collections.abc import Iterator

__all__ = ["MutantTimeout", "time_cap", "CAP_AVAILABLE", "cpu_seconds", "WALL_FACTOR"]

# Wall-clock backstop, in multiples of the CPU-time cap.
WALL_FACTOR = 30.0
# Seconds between repeats of an expired cap.
_REFIRE = 0.5


class MutantTimeout(BaseException):
    """Raised inside a mutant's run when its time is up.

    A BaseException on purpose: the engine turns every ``Exception`` of a check into an ERROR verdict,
    which would make a slow mutant look like a detection.
    """


def _cap_available() -> bool:
    return (
        hasattr(signal, "setitimer")
        and hasattr(signal, "SIGPROF")
        and threading.current_thread() is threading.main_thread()
    )


CAP_AVAILABLE = _cap_available()


def cpu_seconds() -> float:
    """The process's CPU time, the clock the cap counts (all threads, user and system)."""
    return time.process_time()


@contextlib.contextmanager
def time_cap(seconds: float) -> Iterator[None]:
    """Raise :class:`MutantTimeout` after ``seconds`` of CPU time, or ``WALL_FACTOR × seconds`` of wall
    clock (signals; without them — off the main thread, or on Windows — no cap, and the run says so)."""
    if not _cap_available() or seconds <= 0:
        yield
        return

    def expire_cpu(signum, frame):
        raise MutantTimeout(f"no verdict within {seconds:g} s of CPU time")

    def expire_wall(signum, frame):
        raise MutantTimeout(f"no verdict within {WALL_FACTOR * seconds:g} s of wall-clock time")

    previous_hook = sys.unraisablehook

    def drop_lost_timeouts(unraisable):
        if not isinstance(unraisable.exc_value, MutantTimeout):
            previous_hook(unraisable)

    sys.unraisablehook = drop_lost_timeouts
    previous = signal.signal(signal.SIGPROF, expire_cpu), signal.signal(signal.SIGALRM, expire_wall)
    signal.setitimer(signal.ITIMER_PROF, seconds, _REFIRE)
    signal.setitimer(signal.ITIMER_REAL, WALL_FACTOR * seconds, _REFIRE)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGPROF, previous[0])
        signal.signal(signal.SIGALRM, previous[1])
        sys.unraisablehook = previous_hook
