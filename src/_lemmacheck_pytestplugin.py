"""lemmacheck's pytest plugin (the ``pytest11`` entry point): every claim of the project pytest runs in is
a test item, with the seed in the header and the report on request.

A top-level module, as Hypothesis's ``_hypothesis_pytestplugin`` is: importing anything inside the
``lemmacheck`` package imports the façade and with it NumPy, mpmath and Hypothesis, so this module imports
only the standard library and pytest.  The engine is imported once a session has lemmacheck work: a
project with claims, a ``--lemmacheck-*`` option or ``LEMMACHECK_SEED``, a test asking for a lemmacheck
fixture, or lemmacheck already imported (a conftest).  Any other pytest session pays nothing for it.

Claims are collected from the project's content folders (``[tool.lemmacheck] content``, default
``derivations`` and ``checks``): each content module is a collector whose items are the claims it declares,
named by id, so ``pytest -k lse``, ``pytest checks/loss/lse.py``, ``-x``, ``--lf`` and ``-n 2`` work on
them as on any test.  A project that checks its claims through a test of its own (this repository's
``tests/test_claims.py``) sets ``lemmacheck_claims = false`` in its pytest configuration, so no claim is
collected twice.
"""

from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path

import pytest

_RESULTS_KEY = pytest.StashKey[list]()
#: the run seed of this session (the controller's under xdist)
SEED_KEY = pytest.StashKey[int]()
_PROJECT_KEY = pytest.StashKey[tuple]()
_INDEX_KEY = pytest.StashKey[object]()
_WORKER_RESULTS = "lemmacheck_results"
_DEFAULT_DIRS = ("derivations", "checks")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("lemmacheck", "lemmacheck claim checking")
    group.addoption(
        "--lemmacheck-seed",
        default=None,
        help="run seed for claim checks: an integer, or 'random' (default: $LEMMACHECK_SEED, else fixed)",
    )
    group.addoption(
        "--lemmacheck-deep", action="store_true", default=False, help="use the deep search profile (long)"
    )
    group.addoption(
        "--lemmacheck-report",
        default=None,
        metavar="DIR",
        help="write results.json and index.html of the claims checked in this session to DIR",
    )
    parser.addini(
        "lemmacheck_claims",
        type="bool",
        default=True,
        help="collect every claim of the project's content folders as a test item (false where a test of "
        "the project's own checks them)",
    )


# --------------------------------------------------------------------------- the project, found cheaply


def _project(config: pytest.Config) -> tuple[Path, tuple[str, ...]] | None:
    """``(root, content folders)`` of the lemmacheck project pytest runs in, or None: the nearest
    ``pyproject.toml`` at or above the rootdir, with ``[tool.lemmacheck]`` or a ``checks/`` or
    ``derivations/`` folder beside it.  Read with tomllib: nothing of lemmacheck is imported."""
    if _PROJECT_KEY not in config.stash:
        config.stash[_PROJECT_KEY] = (_find_project(Path(str(config.rootpath)).resolve()),)
    return config.stash[_PROJECT_KEY][0]


def _find_project(start: Path) -> tuple[Path, tuple[str, ...]] | None:
    for folder in (start, *start.parents):
        pyproject = folder / "pyproject.toml"
        if not pyproject.is_file():
            continue
        try:
            tool = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("tool", {})
        except (OSError, ValueError):
            return None
        configured = tool.get("lemmacheck", {}).get("content")
        dirs = tuple(d for d in (configured or _DEFAULT_DIRS) if (folder / d).is_dir())
        return (folder, dirs) if dirs else None
    return None


def _collects_claims(config: pytest.Config) -> bool:
    return _project(config) is not None and bool(config.getini("lemmacheck_claims"))


def _active(config: pytest.Config) -> bool:
    """Whether this session has lemmacheck work (then the engine is imported and the header printed)."""
    return (
        _collects_claims(config)
        or "lemmacheck" in sys.modules
        # the variables that set the search ask for lemmacheck: their values are checked as the command
        # line checks them (LEMMACHECK_EXAMPLES and _ROOT only say where things are)
        or any(os.environ.get(name) for name in ("LEMMACHECK_SEED", "LEMMACHECK_SCALE"))
        or any(
            config.getoption(o) not in (None, False)
            for o in ("--lemmacheck-seed", "--lemmacheck-deep", "--lemmacheck-report")
        )
    )


# --------------------------------------------------------------------------- seed, header, xdist


def session_seed(config: pytest.Config) -> int:
    """The session's seed (resolved once; an xdist worker takes its controller's)."""
    if SEED_KEY not in config.stash:
        worker_input = getattr(config, "workerinput", None)  # set on pytest-xdist workers
        if worker_input is not None and "lemmacheck_seed" in worker_input:
            config.stash[SEED_KEY] = int(worker_input["lemmacheck_seed"])  # the controller's, never redrawn
        else:
            from lemmacheck.cli.values import SEED_WORDS, environment_problem
            from lemmacheck.search.seed import DEFAULT_SEED, parse_seed, resolve_seed

            raw = config.getoption("--lemmacheck-seed") or os.environ.get("LEMMACHECK_SEED")
            raw = raw or str(DEFAULT_SEED)
            try:
                seed = parse_seed(raw)
            except ValueError:
                raise pytest.UsageError(
                    f"--lemmacheck-seed (default: LEMMACHECK_SEED): {SEED_WORDS}, not {raw!r}"
                ) from None
            problem = environment_problem()  # as the command line checks them: before any claim runs
            if problem:
                raise pytest.UsageError(problem)
            config.stash[SEED_KEY] = resolve_seed(seed)
    return config.stash[SEED_KEY]


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_RESULTS_KEY] = []
    if _active(config):
        session_seed(config)
    config.pluginmanager.register(_XdistController(), "lemmacheck-xdist")


class _XdistController:
    """Under ``pytest -n``: the controller hands its seed to every worker, and each worker hands its
    claim results back when it finishes (the pattern pytest-html and JUnit XML use), so one report
    holds every worker's claims.  Optional hooks: nothing happens without pytest-xdist."""

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node) -> None:
        if SEED_KEY in node.config.stash:
            node.workerinput["lemmacheck_seed"] = node.config.stash[SEED_KEY]

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node, error) -> None:
        sent = getattr(node, "workeroutput", {}).get(_WORKER_RESULTS, [])
        if sent:
            from lemmacheck.run.cache import result_from_dict

            node.config.stash[_RESULTS_KEY].extend(result_from_dict(d) for d in sent)


def pytest_report_header(config: pytest.Config) -> str | None:
    if SEED_KEY not in config.stash:
        return None
    seed = config.stash[SEED_KEY]
    return f"lemmacheck: seed {seed}, profile {_profile_name(config)} (replay: --lemmacheck-seed {seed})"


def _profile_name(config: pytest.Config) -> str:
    return "deep" if config.getoption("--lemmacheck-deep") else "quick"


def session_profile(config: pytest.Config):
    from lemmacheck.search.profile import profile_named

    return profile_named(_profile_name(config)).with_seed(session_seed(config))


@pytest.fixture(scope="session")
def lemmacheck_profile(request: pytest.FixtureRequest):
    return session_profile(request.config)


@pytest.fixture(scope="session")
def lemmacheck_record(request: pytest.FixtureRequest):
    """Call with a ClaimResult to include it in the session's report."""
    return request.config.stash[_RESULTS_KEY].append


# --------------------------------------------------------------------------- claims as items


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    config = parent.config
    if file_path.suffix != ".py" or not _collects_claims(config):
        return None
    root, dirs = _project(config)  # type: ignore[misc]
    try:
        rel = file_path.resolve().relative_to(root)
    except ValueError:
        return None
    # a helper (a name starting with '_', __init__ aside) is imported by the modules that use it
    helper = any(p.startswith("_") for p in rel.with_suffix("").parts if p != "__init__")
    if rel.parts[0] not in dirs or helper:
        return None
    return ClaimModule.from_parent(parent, path=file_path)


def _index(config: pytest.Config):
    """The project's content index (which module declares which claim), loaded once a session."""
    if _INDEX_KEY not in config.stash:
        from lemmacheck.project.index import load_index

        config.stash[_INDEX_KEY] = load_index(_project(config)[0])  # type: ignore[index]
    return config.stash[_INDEX_KEY]


class ClaimModule(pytest.File):
    """A content module: its items are the claims it is the first module to declare."""

    def collect(self):
        from lemmacheck.plugin import module_claims

        root = _project(self.config)[0]  # type: ignore[index]
        for name, problem in module_claims(_index(self.config), self.path.resolve().relative_to(root)):
            yield ClaimItem.from_parent(self, name=name, problem=problem)


class ClaimDiffers(AssertionError):
    """A claim whose computed verdict or proof differs from the catalogue's expectation."""


class ClaimItem(pytest.Item):
    """One claim: checked in this process (links judged), its verdict asserted against the expectation."""

    def __init__(self, *, problem: str = "", **kw) -> None:
        super().__init__(**kw)
        self.problem = problem  # a malformed declaration or a module that failed to import

    def runtest(self) -> None:
        if self.problem:
            raise ClaimDiffers(self.problem)
        from lemmacheck.plugin import check_claim

        result, difference = check_claim(_index(self.config), self.name, session_profile(self.config))
        self.config.stash[_RESULTS_KEY].append(result)
        if difference:
            raise ClaimDiffers(difference)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ClaimDiffers):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, None, f"claim {self.name}"


# --------------------------------------------------------------------------- the report


def pytest_sessionfinish(session: pytest.Session) -> None:
    results = session.config.stash.get(_RESULTS_KEY, [])
    worker_output = getattr(session.config, "workeroutput", None)
    if worker_output is not None:  # an xdist worker: the controller writes the one report
        worker_output[_WORKER_RESULTS] = [r.to_dict() for r in results]
        return
    out = session.config.getoption("--lemmacheck-report")
    if not out or not results:
        return
    from lemmacheck.plugin import write_session_report

    seed, profile = session_seed(session.config), _profile_name(session.config)
    write_session_report(Path(out), results, seed=seed, profile=profile)
