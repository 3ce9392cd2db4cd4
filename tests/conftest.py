"""Shared test vocabulary: a scratch registry for planted claims, and their metadata."""

from __future__ import annotations

import pytest

from lemmacheck import REGISTRY, Source, Verdict

PLANTED_SOURCE = Source("planted.txt", "test")


def planted_meta(expected=Verdict.HOLDS, statement=r"a \le b", **kw):
    """The metadata every planted claim needs (its check is what a test is about)."""
    return dict(title="planted", source=PLANTED_SOURCE, statement=statement, expected=expected, **kw)


@pytest.fixture
def registry():
    """An empty registry for the test's planted claims; the catalogue is restored after it."""
    with REGISTRY.scratch() as reg:
        yield reg


@pytest.fixture(autouse=True)
def _planted_claims_stay_in_their_test():
    """A planted claim left in the catalogue changes what later tests see (the mutation gate's fixed
    sample is drawn from the whole catalogue): name the test that leaked it."""
    yield
    leaked = [c.id for c in REGISTRY if not c.module.startswith(("checks.", "derivations."))]
    assert not leaked, f"planted claims left in the catalogue (run them inside REGISTRY.scratch()): {leaked}"


def pytest_configure(config):
    """A shell starts a background job (``pytest &``, ``nohup``) with SIGINT ignored, and every process it
    starts inherits that: the tests that Ctrl-C a run or a watcher they start would then wait on a process
    that never sees the signal.  Restore Python's handler, which a child resets to the default."""
    import signal

    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_addoption(parser):
    parser.addoption(
        "--run-slow",
        action="store_true",
        default=False,
        help="also run the tests marked slow (every claim against the catalogue, the mutation gate, Dask "
        "clusters, the plugin over the catalogue, a property test's repeats, the browser, CLI runs racing "
        "for one folder): the README's test command and .ci/run pass it",
    )


def _names_what_it_wants(config) -> bool:
    """``-k lse`` or a node id such as ``tests/test_claims.py::test_claim[lse.bound]``."""
    return bool(config.getoption("keyword")) or any("::" in str(a) for a in config.args)


def pytest_xdist_auto_num_workers(config):
    """``-n auto`` (the default, in addopts): two workers for a run of the suite or a folder of it, none
    for a run of a file, a node id or ``-k`` (each worker collects what it is given, the catalogue
    included, so two workers cost a few tests more than they save).  ``-n 0`` runs in one process;
    ``-n 2`` or ``PYTEST_XDIST_AUTO_NUM_WORKERS`` say how many."""
    import os
    from pathlib import Path

    if _names_what_it_wants(config) or any(not Path(str(a)).is_dir() for a in config.args):
        return 0
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's own hook reads it
    return 2 if len(os.sched_getaffinity(0)) >= 2 else 0


def pytest_collection_modifyitems(config, items):
    """Slow tests are skipped in a plain run; a run that names what it wants (``-k lse``, a node id such
    as ``tests/test_claims.py::test_claim[lse.bound]``) gets it, as does ``--run-slow``.  Tests marked
    ``starts_first`` are collected first."""
    # the longest tests first (a stable sort keeps every other order): with two xdist workers, one started
    # last would leave the other idle for its whole length
    items.sort(key=lambda item: "starts_first" not in item.keywords)
    if config.getoption("--run-slow") or _names_what_it_wants(config):
        return
    skip = pytest.mark.skip(reason="slow: python -m pytest --run-slow runs it (as .ci/run does)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True, scope="session")
def _kept_counterexamples_in_a_scratch_folder(tmp_path_factory):
    """Counterexamples the tests' runs keep go to a folder of the session's, never the checkout's
    .lemmacheck-cache (a planted claim shares ids with others; a later session starts clean)."""
    import os

    saved = os.environ.get("LEMMACHECK_EXAMPLES")
    os.environ["LEMMACHECK_EXAMPLES"] = str(tmp_path_factory.mktemp("kept-examples"))
    yield
    if saved is None:
        os.environ.pop("LEMMACHECK_EXAMPLES", None)
    else:
        os.environ["LEMMACHECK_EXAMPLES"] = saved


@pytest.fixture(autouse=True, scope="session")
def _every_fast_parse_is_earleys():
    """Every statement a test parses, where the LALR fast path read it, is read by Earley too and the trees
    compared (tests/lark_trees.py): the fast path checked on the suite's texts, not only the catalogue's."""
    from lark_trees import difference
    from lemmacheck.latex import parse as parse_module

    read, differ = parse_module._parse, []

    def cross_checked(text, start):
        tree = read(text, start)
        if start == "start" and parse_module.fast_parse(text, parse_module.GRAMMAR) is not None:
            found = difference(parse_module._parser().parse(text, start="start"), tree)
            if found:
                differ.append(f"{text!r}: {found}")
        return tree

    parse_module._parse = cross_checked
    yield
    parse_module._parse = read
    assert not differ, "the LALR fast path's tree is not Earley's:\n" + "\n".join(differ)
