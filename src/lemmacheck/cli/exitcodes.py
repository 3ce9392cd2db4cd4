"""What every ``lemmacheck`` command returns: pytest's exit codes, defined once.

The names and numbers are pytest's (``pytest.ExitCode``), so a CI script written for pytest reads a
lemmacheck run the same way.  Every command, the pytest plugin's helpers and the tests use these names.
"""

from __future__ import annotations

import enum

__all__ = [
    "ExitCode",
    "OK",
    "TESTS_FAILED",
    "INTERRUPTED",
    "INTERNAL_ERROR",
    "USAGE_ERROR",
    "NO_TESTS_COLLECTED",
]


class ExitCode(enum.IntEnum):
    #: every computed verdict matches the catalogue
    OK = 0
    #: a verdict (or a proof's broken step) differs, a claim is ERROR, or a study failed; for ``list``, a
    #: module that fails to import or a malformed declaration (as ``pytest --collect-only``)
    TESTS_FAILED = 1
    #: Ctrl-C or SIGTERM: the work done is kept in a partial report marked incomplete
    INTERRUPTED = 2
    #: lemmacheck itself failed (a bug: please report it with the traceback)
    INTERNAL_ERROR = 3
    #: bad arguments, -k syntax, an unreachable cluster, a report folder that cannot be written, a bad
    #: file given to render, no project found, an optional extra a feature needs not installed
    USAGE_ERROR = 4
    #: -k selected no claim (the existing report is left alone)
    NO_TESTS_COLLECTED = 5


OK = ExitCode.OK
TESTS_FAILED = ExitCode.TESTS_FAILED
INTERRUPTED = ExitCode.INTERRUPTED
INTERNAL_ERROR = ExitCode.INTERNAL_ERROR
USAGE_ERROR = ExitCode.USAGE_ERROR
NO_TESTS_COLLECTED = ExitCode.NO_TESTS_COLLECTED

#: the one-line summary the CLI's --help shows
EPILOG = (
    "exit codes (pytest's): 0 every verdict matches; 1 a verdict differs (or a claim is ERROR, or a "
    "study failed; for list, a declaration or import error); 2 interrupted (partial report kept, "
    "marked incomplete); 3 internal error; 4 usage "
    "error (arguments, -k syntax, no project, unreachable cluster, report folder not writable, bad "
    "results file, an optional extra not installed); 5 nothing selected (the existing report is left alone)"
)
