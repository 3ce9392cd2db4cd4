"""Drawing a run's plots and statements while its last claims are still being checked.

The run's own process only waits while the workers check claims, and the report at the end spent most of
its time drawing plots (matplotlib) and converting statements to MathML, on one core, after the last
claim.  Each is a pure function of a claim's (or a study's) result, kept in the render cache under its
data (:mod:`.render_cache`), so it is drawn here as each result arrives, in a thread of that process,
and the report finds it there.  :meth:`Prewarm.close` waits for the thread before the report is rendered: the
render cache's folder is the process's while either draws.
"""

from __future__ import annotations

import functools
import queue
import threading
from collections.abc import Callable
from pathlib import Path

from .context import draw_study
from .mathml import latex_to_mathml
from .plots import approx_plot
from .render_cache import kept_in

__all__ = ["Prewarm"]


class Prewarm:
    """A thread drawing, into the render cache at ``folder``, what the report will show of each claim."""

    def __init__(self, folder: Path):
        self._folder = folder
        self._todo: queue.SimpleQueue[Callable[[], object] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name="lemmacheck-prewarm", daemon=True)
        self._thread.start()

    def claim(self, claim: dict) -> None:
        """Draw ``claim``'s (a result's ``to_dict()``) statement and plot, in the order given."""
        self._todo.put(functools.partial(_draw_claim, claim))

    def study(self, study: dict) -> None:
        """Draw a study's (a result of :func:`lemmacheck.run.studies.run_study`) plots."""
        self._todo.put(functools.partial(draw_study, dict(study)))  # a copy: the report's is its own

    def close(self) -> None:
        """Stop after what was given, and wait for it (drawn or not, the report draws what is missing)."""
        self._todo.put(None)
        self._thread.join()

    def _work(self) -> None:
        with kept_in(self._folder):
            while (draw := self._todo.get()) is not None:
                try:
                    draw()
                except Exception:  # noqa: S112 - the report draws it again, and says what failed there
                    continue


def _draw_claim(claim: dict) -> None:
    latex_to_mathml(claim.get("statement", ""))
    if claim.get("kind") == "approximation":
        approx_plot(claim)
