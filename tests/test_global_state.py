"""Interpreter-global state never leaks from one claim into the next: a worker puts back everything the
engine depends on before each claim, and the engine's own high-precision code sets the precision it
reads.  Found with a check that set ``mpmath.mp.dps = 3`` and did not restore it: 7 of the 14
catalogue claims run after it in its worker changed their tightness figures."""

from __future__ import annotations

import decimal
import io
import json
import os
import shutil
import signal
import sys
import warnings
from pathlib import Path

import mpmath
import numpy as np
import pytest
from flint import ctx

from lemmacheck.model.claim import REGISTRY
from lemmacheck.project.discovery import find_root
from lemmacheck.project.index import import_modules, load_index
from lemmacheck.run.claimrun import run_claim
from lemmacheck.run.execution import execute
from lemmacheck.run.interpreter_state import restore, snapshot
from lemmacheck.search.profile import QUICK

PROFILE = QUICK.with_seed(5)
TIMING_FIELDS = ("seconds", "phase_seconds")
# catalogue claims whose tightness figure a global precision of 3 digits changed
CATALOGUE = ["lse.bound_eq3.corrected", "loss.lse_weighted_theorem1"]
REGISTRY_EXPECTED = {"lse.bound_eq3.corrected": "HOLDS", "loss.lse_weighted_theorem1": "HOLDS"}
COPIED = [
    "__init__.py",
    "_notation.py",
    "_vocab",
    "loss/__init__.py",
    "loss/_helpers.py",
    "loss/_notation.py",
    "loss/lse.py",
    "loss/weighted_lse.py",
]

POLLUTE = """
def pollute():
    import decimal, os, sys, warnings
    import mpmath, numpy as np
    from flint import ctx

    mpmath.mp.dps = 3
    ctx.prec = 12
    np.seterr(all="raise")
    np.set_printoptions(precision=2, threshold=4)
    warnings.simplefilter("error")
    os.chdir("/")
    os.environ["LEMMACHECK_SCALE"] = "0.01"
    sys.setrecursionlimit(400)
    decimal.getcontext().prec = 3
    return 4
"""

POLLUTER = (
    POLLUTE
    + """
pollute()  # at import: what a module sets is as global as what a check sets

from lemmacheck import Source, Verdict, value

value(
    "polluters.everything", computed=pollute, stated=4, title="planted", source=Source("planted.txt", "test"),
    statement="4 = 4", expected=Verdict.PROVED,
)
"""
)


def _comparable(result) -> str:
    return json.dumps({k: v for k, v in result.to_dict().items() if k not in TIMING_FIELDS}, sort_keys=True)


def _project(tmp_path: Path) -> Path:
    """The two catalogue claims' modules (as they are in checks/) beside a content package that pollutes."""
    real = find_root() / "checks"
    for rel in COPIED:
        (tmp_path / "checks" / rel).parent.mkdir(parents=True, exist_ok=True)
        copy = shutil.copytree if (real / rel).is_dir() else shutil.copy
        copy(real / rel, tmp_path / "checks" / rel)
    (tmp_path / "polluters").mkdir()
    (tmp_path / "polluters" / "__init__.py").write_text("")
    (tmp_path / "polluters" / "pollute.py").write_text(POLLUTER)
    (tmp_path / "pyproject.toml").write_text('[tool.lemmacheck]\ncontent = ["checks", "polluters"]\n')
    return tmp_path


def test_a_claim_that_pollutes_every_global_changes_no_later_claim_in_its_worker(tmp_path):
    root = _project(tmp_path)
    alone = execute(CATALOGUE, PROFILE, jobs=1, root=root)
    after = execute(["polluters.everything", *CATALOGUE], PROFILE, jobs=1, root=root)
    assert after[0].verdict.value == "PROVED", after[0].message  # the polluter ran, in the same worker
    for a, b in zip(alone, after[1:], strict=True):
        assert a.verdict.value == b.verdict.value == REGISTRY_EXPECTED[a.id], (a.id, a.message, b.message)
        assert _comparable(a) == _comparable(b), (
            f"{a.id}: tightness {a.evidence.get('tightness')} alone, {b.evidence.get('tightness')} after the "
            "polluter in the same worker"
        )


def test_the_engine_reads_no_mpmath_precision_it_did_not_set():
    root = find_root()
    import_modules(root, load_index(root).declaring_modules(CATALOGUE))
    claim = REGISTRY["lse.bound_eq3.corrected"]
    clean = _comparable(run_claim(claim, PROFILE))
    saved = mpmath.mp.prec
    try:
        mpmath.mp.dps = 3  # as a check would leave it, in the process that runs the claim
        polluted = _comparable(run_claim(claim, PROFILE))
    finally:
        mpmath.mp.prec = saved
    assert json.loads(polluted)["evidence"]["tightness"] == json.loads(clean)["evidence"]["tightness"]
    assert polluted == clean


POLLUTERS = {
    "mpmath precision": lambda: setattr(mpmath.mp, "dps", 3),
    "arb precision": lambda: setattr(ctx, "prec", 12),
    "numpy errors": lambda: np.seterr(all="raise"),
    "numpy error call": lambda: np.seterrcall(print),
    "numpy print": lambda: np.set_printoptions(precision=2),
    "warning filters": lambda: warnings.simplefilter("error"),
    "cwd": lambda: os.chdir("/"),
    "environment added": lambda: os.environ.__setitem__("LEMMACHECK_PLANTED", "1"),
    "environment changed": lambda: os.environ.__setitem__("LEMMACHECK_SCALE", "0.01"),
    "recursion limit": lambda: sys.setrecursionlimit(400),
    "decimal context": lambda: setattr(decimal.getcontext(), "prec", 3),
    "signal handler": lambda: signal.signal(signal.SIGALRM, signal.SIG_IGN),
    "stdout": lambda: setattr(sys, "stdout", io.StringIO()),
    "excepthook": lambda: setattr(sys, "excepthook", print),
}


def _observable(state) -> dict:
    """The snapshot with its decimal context as text (Context objects compare by identity)."""
    fields = {k: v for k, v in vars(state).items() if k != "decimal_context"}
    return fields | {"decimal_context": repr(state.decimal_context)}


@pytest.mark.parametrize("polluter", POLLUTERS)
def test_each_piece_of_global_state_a_check_can_change_is_put_back(polluter, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with warnings.catch_warnings():  # the test's own filters are pytest's business
        before = snapshot()
        POLLUTERS[polluter]()
        assert _observable(snapshot()) != _observable(before), f"{polluter}: the polluter changed nothing"
        restore(before)
        assert _observable(snapshot()) == _observable(before), polluter
