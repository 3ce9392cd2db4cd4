"""pytest plugin: options registered in one place, the seed in the header, the report on request.

Kept light (Hypothesis ``_hypothesis_pytestplugin`` style): nothing heavy is imported until a test
asks for the ``lemmacheck_profile`` fixture or the report is written.
"""

from __future__ import annotations

import os

import pytest

from .search.seed import DEFAULT_SEED, parse_seed, resolve_seed

_RESULTS_KEY = pytest.StashKey[list]()
#: the run seed of this session (the controller's under xdist)
SEED_KEY = pytest.StashKey[int]()
_WORKER_RESULTS = "lemmacheck_results"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("lemmacheck", "lemmacheck claim checking")
    group.addoption(
        "--lemmacheck-seed",
        default=os.environ.get("LEMMACHECK_SEED", str(DEFAULT_SEED)),
        help="run seed for claim checks: an integer, or 'random' (default %(default)s)",
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


def pytest_configure(config: pytest.Config) -> None:
    worker_input = getattr(config, "workerinput", None)  # set on pytest-xdist workers
    if worker_input is not None and "lemmacheck_seed" in worker_input:
        config.stash[SEED_KEY] = int(worker_input["lemmacheck_seed"])  # the controller's, never redrawn
    else:
        raw = config.getoption("--lemmacheck-seed")
        try:
            seed = parse_seed(raw)
        except ValueError:
            raise pytest.UsageError(f"--lemmacheck-seed: an integer or 'random', not {raw!r}") from None
        config.stash[SEED_KEY] = resolve_seed(seed)
    config.stash[_RESULTS_KEY] = []
    config.pluginmanager.register(_XdistController(), "lemmacheck-xdist")


class _XdistController:
    """Under ``pytest -n``: the controller hands its seed to every worker, and each worker hands its
    claim results back when it finishes (the pattern pytest-html and JUnit XML use), so one report
    holds every worker's claims.  Optional hooks: nothing happens without pytest-xdist."""

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node) -> None:
        node.workerinput["lemmacheck_seed"] = node.config.stash[SEED_KEY]

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node, error) -> None:
        sent = getattr(node, "workeroutput", {}).get(_WORKER_RESULTS, [])
        if sent:
            from .run.cache import result_from_dict

            node.config.stash[_RESULTS_KEY].extend(result_from_dict(d) for d in sent)


def pytest_report_header(config: pytest.Config) -> str:
    prof = "deep" if config.getoption("--lemmacheck-deep") else "quick"
    return (
        f"lemmacheck: seed {config.stash[SEED_KEY]}, profile {prof} (replay: --lemmacheck-seed "
        f"{config.stash[SEED_KEY]})"
    )


@pytest.fixture(scope="session")
def lemmacheck_profile(request: pytest.FixtureRequest):
    from .search.profile import profile_named

    cfg = request.config
    profile = profile_named("deep" if cfg.getoption("--lemmacheck-deep") else "quick")
    return profile.with_seed(cfg.stash[SEED_KEY])


@pytest.fixture(scope="session")
def lemmacheck_record(request: pytest.FixtureRequest):
    """Call with a ClaimResult to include it in the session's report."""
    return request.config.stash[_RESULTS_KEY].append


def pytest_sessionfinish(session: pytest.Session) -> None:
    out = session.config.getoption("--lemmacheck-report")
    results = session.config.stash.get(_RESULTS_KEY, [])
    worker_output = getattr(session.config, "workeroutput", None)
    if worker_output is not None:  # an xdist worker: the controller writes the one report
        worker_output[_WORKER_RESULTS] = [r.to_dict() for r in results]
        return
    if not out or not results:
        return
    results = _catalogue_order(results)
    from pathlib import Path

    from .report.folder import write_report
    from .run.engine import RunResult
    from .schema import validate_written

    run = RunResult(
        seed=session.config.stash[SEED_KEY],
        profile="deep" if session.config.getoption("--lemmacheck-deep") else "quick",
        results=results,
        studies=[],
        started="pytest session",
        seconds=sum(r.seconds for r in results),
    )
    # the same atomic, locked pair of files the CLI writes, checked against the schema as the CLI's are
    data = run.to_dict()
    validate_written(data)
    write_report(Path(out).resolve(), data, html=True)


def _catalogue_order(results: list) -> list:
    """One result per claim (the last), in catalogue order when the content index knows it."""
    by_id = {r.id: r for r in results}
    try:
        from .project.discovery import find_root
        from .project.index import load_index

        order = {cid: i for i, cid in enumerate(load_index(find_root()).claim_ids())}
    except Exception:  # the index is a nicety here: without it, order by id
        order = {}
    return sorted(by_id.values(), key=lambda r: (order.get(r.id, len(order)), r.id))
