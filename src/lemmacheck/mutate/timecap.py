"""A wall-clock cap on one mutant: a mutated loop bound or exponent can make a check slow or endless."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

__all__ = ["MutantTimeout", "time_cap", "CAP_AVAILABLE"]


class MutantTimeout(BaseException):
    """Raised inside a mutant's run when its time is up.

    A BaseException on purpose: the engine turns every ``Exception`` of a check into an ERROR verdict,
    which would make a slow mutant look like a detection.
    """


def _cap_available() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


CAP_AVAILABLE = _cap_available()


@contextlib.contextmanager
def time_cap(seconds: float) -> Iterator[None]:
    """Raise :class:`MutantTimeout` after ``seconds`` (SIGALRM; without it — off the main thread, or on
    Windows — no cap, and the run says so)."""
    if not _cap_available() or seconds <= 0:
        yield
        return

    def expire(signum, frame):
        raise MutantTimeout(f"no verdict within {seconds:g}s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
