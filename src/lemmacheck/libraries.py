"""The libraries a result depends on, and the versions this interpreter has of them.

A seed replays a run only with the same libraries: Hypothesis draws other examples from one version to
the next, SciPy's L-BFGS-B climbs the margin, lark parses the statement that is compared with the check,
python-flint's balls and Z3 decide which certificates a ``--certify`` run finds.  The result cache keys on
these versions (the content index on latex2mathml's), and ``results.json`` records them, so that a run
whose figures differ from another's can be told apart by its libraries before anything else is suspected.
"""

from __future__ import annotations

import functools
from importlib import metadata

__all__ = ["RESULT_LIBRARIES", "library_versions"]

RESULT_LIBRARIES = (
    "numpy",
    "scipy",
    "sympy",
    "mpmath",
    "hypothesis",
    "python-flint",
    "z3-solver",
    "lark",
    "latex2mathml",
)


@functools.lru_cache(maxsize=1)
def library_versions() -> dict[str, str | None]:
    """Each of :data:`RESULT_LIBRARIES` by its distribution name: its version, or None when absent."""
    versions: dict[str, str | None] = {}
    for name in RESULT_LIBRARIES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return versions
