"""One claim in this process under its time limit, and the ERROR of a claim that ran out of time
(here or in another process): what a worker process (:mod:`.execution`) and a Dask task
(:mod:`.cluster`) run for each claim."""

from __future__ import annotations

import contextlib
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..search.profile import Profile
from ..search.reproducible import pinned_hypothesis_constants
from .claimrun import blank_result, run_claim, unknown_result
from .results import ClaimResult

__all__ = ["ClaimTimeout", "run_one", "timed_out", "timed_out_elsewhere", "load_claims"]


class ClaimTimeout(BaseException):
    """Raised inside a claim when its time is up.  A BaseException so that neither the engine's nor a
    check's ``except Exception`` (nor Hypothesis, which would try to shrink it) can swallow it.  Code it
    interrupts can still lose it (a bare ``except:``, a gc callback, where Python only prints it) or turn
    it into an error of its own (Hypothesis's ``FlakyStrategyDefinition`` when it lands inside a draw), so
    the claim's result is decided by :class:`_Limit`'s record, not by the exception that comes out."""


class _Limit:
    """Whether a claim's time limit fired, and where the claim was when it first did: where its time ran
    out.  A later firing only stops a claim whose code lost the first, and may find it in engine code that
    ran on after it (the local optimiser after Hypothesis made the timeout an error of its own)."""

    def __init__(self) -> None:
        self.fired = False
        self.reached: dict = {}


_PHASES = {
    "run_sweep": "the random sweep",
    "sweep_chunk": "the random sweep",
    "hypothesis_search": "the Hypothesis search",
    "refine": "local refinement",
    "optimise": "the local optimiser",
    "explicit_examples": "the pinned examples",
    "_confirm_first": "high-precision re-verification",
    "reverify": "high-precision re-verification",
    "check_derivation": "the SymPy derivation",
    "measure_approximation": "the remainder-order fit",
    "compare_value": "the worked value",
    "fit_complexity": "the complexity fit",
}


def _reached(frame) -> dict:
    """Where an interrupted claim was: its search phase, the instances checked so far, and the innermost
    line of content code (read from the interrupted stack; nothing is recomputed)."""
    out: dict = {}
    trackers: set[int] = set()
    f = frame
    while f is not None:
        name, filename = f.f_code.co_name, f.f_code.co_filename
        if (
            "where" not in out
            and f"{os.sep}lemmacheck{os.sep}" not in filename
            and "site-packages" not in filename
            and f"{os.sep}lib{os.sep}python" not in filename
        ):
            out["where"] = f"{filename}:{f.f_lineno} in {name}"
        if "phase" not in out and name in _PHASES and f"{os.sep}lemmacheck{os.sep}" in filename:
            out["phase"] = _PHASES[name]
        tracker = f.f_locals.get("tracker")
        # the sweep's chunk and the claim's whole search each keep one: their counts add up
        if tracker is not None and hasattr(tracker, "instances") and id(tracker) not in trackers:
            trackers.add(id(tracker))
            out["instances"] = out.get("instances", 0) + int(tracker.instances)
            end = getattr(tracker, "end", None)
            if end is not None and hasattr(end, "violations"):
                out["float64_violations"] = out.get("float64_violations", 0) + int(end.violations)
        f = f.f_back
    return out


def _timeout_message(claim_id: str | None, seconds: float | None, reached: dict, replay: str) -> str:
    where = []
    if "phase" in reached:
        where.append(f"in {reached['phase']}")
    if "instances" in reached:
        where.append(
            f"after {reached['instances']} instances checked "
            f"({reached.get('float64_violations', 0)} float64 violations so far, unconfirmed)"
        )
    if "where" in reached:
        where.append(f"at {reached['where']}")
    got = "; reached: " + ", ".join(where) if where else ""
    return (
        f"claim {claim_id!r}: timed out after {seconds:g} s{got}. Raise --timeout or lower the claim's "
        f"effort; replay: {replay}"
    )


# about three years: the CLI refuses more than 1e6 s (cli/values.py); an API caller's 1e308 is no limit
_TIMER_MAX = 1e8


@contextlib.contextmanager
def _time_limit(seconds: float | None, limit: _Limit):
    """Raise ClaimTimeout (with where the claim got to) after ``seconds``, then every second until the
    block exits (a check that swallows it is interrupted again), recording in ``limit`` that it fired.
    Main thread only; else no limit here (the worker's parent still enforces it)."""
    usable = (
        seconds is not None
        and math.isfinite(seconds)
        and seconds < _TIMER_MAX  # setitimer overflows past it: a limit of years is none (the API's)
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    if not usable or seconds is None:
        yield
        return

    def on_alarm(signum, frame):
        if not limit.fired:
            limit.fired, limit.reached = True, _reached(frame)
        raise ClaimTimeout(limit.reached)

    previous = signal.signal(signal.SIGALRM, on_alarm)
    previous_hook = sys.unraisablehook

    def unraisable(info) -> None:
        # A ClaimTimeout that Python can only print (raised in a gc callback or a __del__) is recorded in
        # ``limit`` already: the claim's result says it timed out, so it is not printed as a crash.
        if not isinstance(info.exc_value, ClaimTimeout):
            previous_hook(info)

    sys.unraisablehook = unraisable
    signal.setitimer(signal.ITIMER_REAL, seconds, 1.0)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        sys.unraisablehook = previous_hook


def run_one(
    claim_id: str,
    profile: Profile,
    timeout: float | None,
    root: Path | None,
    modules: Sequence[str] = (),
    *,
    sweep_runner=None,
) -> ClaimResult:
    """Run one claim under the time limit, after importing ``modules`` (every module the index says
    declares it: a claim may have its check in one module and its derivation in another, and a process
    that imported only the first for an earlier claim would run it without its derivation).
    ``sweep_runner``: where the chunks of its sweep run (a cluster; default here)."""
    from ..model.claim import REGISTRY
    from ..project.index import import_modules

    errors = import_modules(root, modules) if root is not None and modules else []
    if claim_id not in REGISTRY and root is not None:
        errors += load_claims(root, [claim_id])
        if claim_id not in REGISTRY:
            detail = "; ".join(f"{m}: {e.splitlines()[0]}" for m, e in errors) or "no module declares it"
            return unknown_result(
                claim_id, profile, f"claim {claim_id!r} is not in the catalogue of {root} ({detail})"
            )
    claim = REGISTRY[claim_id]
    t0, limit = time.perf_counter(), _Limit()
    try:
        with pinned_hypothesis_constants(), _time_limit(timeout, limit):
            result = run_claim(claim, profile, sweep_runner=sweep_runner)
    except KeyboardInterrupt:
        raise
    except SystemExit as exc:  # sys.exit() in content ends the claim, never the run
        result = blank_result(claim, profile)
        result.message = (
            f"claim {claim_id!r}: the check called sys.exit({exc.code!r}); a check returns its values and "
            f"never ends the process; replay: {result.replay}"
        )
        result.seconds = time.perf_counter() - t0
    except BaseException:
        if not limit.fired:
            raise
    if limit.fired:
        # Whatever came out (the timeout, an error the interrupted code made of it, or a verdict computed
        # after the interrupted code swallowed it), the claim overran its limit.
        result = timed_out(blank_result(claim, profile), timeout, limit.reached)
        result.seconds = time.perf_counter() - t0
    return result


def timed_out(result: ClaimResult, seconds: float | None, reached: dict, how: str = "") -> ClaimResult:
    """``result`` (the claim's blank ERROR) saying it timed out, where it got to and how it was stopped."""
    result.message = _timeout_message(result.id, seconds, reached, result.replay) + how
    result.evidence = {"timed_out_after": seconds, "reached": reached}
    return result


def timed_out_elsewhere(
    claim_id: str, profile: Profile, seconds: float, reached: dict, root: Path, how: str
) -> ClaimResult:
    """The ERROR of a claim stopped outside this process (its metadata read from the content here)."""
    from ..model.claim import REGISTRY

    if claim_id not in REGISTRY:
        load_claims(root, [claim_id])
    if claim_id not in REGISTRY:
        return timed_out(unknown_result(claim_id, profile, ""), seconds, reached, how)
    return timed_out(blank_result(REGISTRY[claim_id], profile), seconds, reached, how)


def load_claims(root: Path, claim_ids: Iterable[str]) -> list[tuple[str, str]]:
    """Import the modules declaring ``claim_ids`` (from the index); the whole catalogue if it fails."""
    from ..model.claim import REGISTRY
    from ..project.discovery import discover
    from ..project.index import import_modules, load_index

    ids = list(claim_ids)
    errors = import_modules(root, load_index(root).declaring_modules(ids))
    if any(c not in REGISTRY for c in ids):
        errors += discover(root)
    return errors
