"""A throw-away project (pyproject.toml + one content package) for tests that need worker processes:
a worker imports content from the project root, so a planted claim must live in an importable module."""

from __future__ import annotations

import contextlib
import textwrap
import uuid
from pathlib import Path

HEADER = """\
import os
import signal
import time

from lemmacheck import Source, Verdict, inequality
from lemmacheck.model.inputs import Array

SRC = Source("planted.txt", "test")
META = dict(title="planted", source=SRC, statement=r"a \\le b", expected=Verdict.HOLDS)
"""

AM_GM = """
@inequality("{pkg}.am_gm", inputs={"a": Array(positive=True), "b": Array(positive=True)}, **META)
def am_gm(xp, a, b):
    return xp.sqrt(a * b), (a + b) / 2
"""

SLEEPS_FOREVER = """
@inequality("{pkg}.sleeps_forever", inputs={"x": Array()}, **META)
def sleeps_forever(xp, x):
    time.sleep(10**6)
    return x, x
"""

SLOW_SWEEP = """
@inequality("{pkg}.slow_sweep", inputs={"x": Array()}, **META)
def slow_sweep(xp, x):
    time.sleep(0.2)  # per batch: the sweep gets somewhere before the limit
    return x, x + 1
"""

RARELY_FALSE = """
@inequality("{pkg}.rarely_false", inputs={"x": Array(2, low=-3.0, high=3.0)}, **META)
def rarely_false(xp, x):
    # false only within 0.032 of the origin (1 instance in ~10^4): a needle a large sweep finds
    return 0 * x[:, 0] + 1e-3, x[:, 0] ** 2 + x[:, 1] ** 2
"""

IGNORES_ALARM = """
@inequality("{pkg}.ignores_alarm", inputs={"x": Array()}, **META)
def ignores_alarm(xp, x):
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})  # like C code that never returns
    time.sleep(10**6)
    return x, x
"""

KILLS_ITS_PROCESS = """
@inequality("{pkg}.kills_its_process", inputs={"x": Array()}, **META)
def kills_its_process(xp, x):
    os._exit(3)
"""


def make_project(root: Path, modules: dict[str, str], *, helpers: dict[str, str] | None = None) -> str:
    """Write a project under ``root`` whose content package (a unique name, returned) holds ``modules``
    (name -> body after HEADER, ``{pkg}`` replaced by the package name) and ``helpers`` (name -> source)."""
    pkg = f"planted_{uuid.uuid4().hex[:8]}"
    pyproject = f'[project]\nname = "planted"\n\n[tool.lemmacheck]\ncontent = ["{pkg}"]\n'
    (root / "pyproject.toml").write_text(pyproject)
    (root / pkg).mkdir()
    (root / pkg / "__init__.py").write_text("")
    for name, body in modules.items():
        path = root / pkg / f"{name}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        (path.parent / "__init__.py").touch()
        path.write_text(HEADER + textwrap.dedent(body).replace("{pkg}", pkg))
    for name, source in (helpers or {}).items():
        (root / pkg / f"{name}.py").write_text(textwrap.dedent(source).replace("{pkg}", pkg))
    return pkg


# A claim that computes a constant, for the tests where only a hung or dying claim may hit a short limit: the
# imports its check needs (SymPy for the value kind's comparison, NumPy's random generators) come with its
# module, which a worker imports before the limit starts, so its 1 s holds a few milliseconds of work
# however loaded the machine.  (An AM-GM sweep in these tests, 0.3 s of CPU plus the imports of a fresh
# worker, ran past 1 s at load 4-13 and timed out too.)
INSTANT_VALUE = """
import numpy.random  # noqa: F401
import sympy  # noqa: F401

from lemmacheck import value

value("{pkg}.instant", computed=lambda: 4, stated=4, **META)
"""


INSTANT_VALUES = """
from lemmacheck import value

for _i in range(8):
    value(f"{pkg}.instant_{_i}", computed=lambda: 4, stated=4, **META)
"""

# Counts the engine modules a worker has not imported when the check runs: a claim's time limit starts
# with its check, so a worker imports them before (PROVED when none is left).
LAZY_ENGINE = """
import sys

from lemmacheck import value

ENGINE = tuple(f"lemmacheck.{p}." for p in ("kinds", "settling", "search", "xp", "certify"))


def _imported_before_the_check():
    import lemmacheck, pkgutil

    names = [m.name for m in pkgutil.walk_packages(lemmacheck.__path__, "lemmacheck.")]
    return len([n for n in names if n.startswith(ENGINE) and n not in sys.modules])


PROVED = META | {"expected": Verdict.PROVED}
value("{pkg}.engine_warm", computed=_imported_before_the_check, stated=0, **PROVED)
"""


# two claims of one check module; the second has its derivation in another module (no metadata there)
TWO_CHECKS = """
from lemmacheck import identity

@identity("{pkg}.checks.plain", inputs={"x": Array()}, **META)
def plain(xp, x):
    return x + x, 2 * x

@identity("{pkg}.checks.derived", inputs={"x": Array()}, **META)
def derived(xp, x):
    return (x + 1) ** 2, x * x + 2 * x + 1
"""

ITS_DERIVATION = """
import sympy as sp
from lemmacheck import derivation

_x = sp.Symbol("x", real=True)
derivation("{pkg}.checks.derived", chain=[(_x + 1) ** 2, "=", _x**2 + 2 * _x + 1])
"""

CALLS_SYS_EXIT = """
@inequality("{pkg}.calls_sys_exit", inputs={"x": Array()}, **META)
def calls_sys_exit(xp, x):
    import sys

    sys.exit(0)
"""

# A retry loop with a bare except: it swallows the time limit's alarm, Ctrl-C and SIGTERM alike.  It
# writes its pid to $PLANTED_MARKER once it is inside the loop, so a test can wait for that.
SWALLOWS_EVERYTHING = """
@inequality("{pkg}.swallows_everything", inputs={"x": Array()}, **META)
def swallows_everything(xp, x):
    marker = os.environ.get("PLANTED_MARKER")
    if marker:
        with open(marker + ".tmp", "w") as fh:
            fh.write(str(os.getpid()))
        os.replace(marker + ".tmp", marker)
    while True:
        try:
            time.sleep(0.01)
        except:  # noqa: E722
            pass
"""

# A test module of a planted project, as tests/test_claims.py is of the real one: every claim of the
# project checked under the pytest plugin's fixtures, so a pytest session there writes a report.
CLAIM_TESTS = """
import pytest

from lemmacheck.model.claim import REGISTRY
from lemmacheck.project.discovery import discover
from lemmacheck.run.engine import run_with_links

discover()
IDS = REGISTRY.ids()


@pytest.mark.parametrize("claim_id", IDS, ids=IDS)
def test_claim(claim_id, lemmacheck_profile, lemmacheck_record):
    result = run_with_links(REGISTRY[claim_id], lemmacheck_profile)
    lemmacheck_record(result)
    assert result.verdict is REGISTRY[claim_id].expected, result.message
"""


def make_pytest_project(root: Path, modules: dict[str, str]) -> str:
    """A planted project (:func:`make_project`) with ``tests/test_claims.py`` checking each of its claims,
    for a pytest session run there in a subprocess; returns the content package's name."""
    pkg = make_project(root, modules)
    (root / "tests").mkdir()
    (root / "tests" / "test_claims.py").write_text(CLAIM_TESTS)
    return pkg


@contextlib.contextmanager
def watching(root: Path, *args: str):
    """``lemmacheck watch ARGS`` started in ``root``; yields ``(process, lines)``, the lines of its output
    as they come (read on a thread); Ctrl-C stops it at the end."""
    import os
    import signal
    import subprocess
    import sys
    import threading

    proc = subprocess.Popen(
        [sys.executable, "-m", "lemmacheck.cli", "watch", *args],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True)
    reader.start()
    try:
        yield proc, lines
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)
        reader.join(timeout=10)
        proc.stdout.close()
