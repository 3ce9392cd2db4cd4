"""A run with no result cache to answer from starts its workers before it builds the content index, so
their imports of the engine overlap the index's imports of the content.

Found (issue 35, benchmarks/run_timeline.py on a fresh checkout, whole catalogue, load 5-8): the index
took 9.9 s, the workers were spawned only after it and started their first claims 3.6 s later, one core
idle meanwhile.
"""

from __future__ import annotations

import json

import pytest

from lemmacheck.cli import main as cli
from lemmacheck.cli.exitcodes import ExitCode
from lemmacheck.model.claim import REGISTRY
from lemmacheck.project import index as index_module
from lemmacheck.run import worker as worker_module
from planted_project import AM_GM, make_project


@pytest.fixture
def events(tmp_path, monkeypatch):
    """The order in which the run spawns workers and builds the index."""
    make_project(tmp_path, {"mod": AM_GM})
    monkeypatch.chdir(tmp_path)
    seen: list[str] = []
    spawn, load = worker_module.Worker.__init__, index_module.load_index

    def spawned(self, *args, **kwargs):
        seen.append("worker")
        spawn(self, *args, **kwargs)

    def loaded(*args, **kwargs):
        seen.append("index")
        return load(*args, **kwargs)

    monkeypatch.setattr(worker_module.Worker, "__init__", spawned)
    monkeypatch.setattr(index_module, "load_index", loaded)
    with REGISTRY.scratch():
        yield seen


def test_without_a_cache_the_workers_start_before_the_index_and_are_the_pool(events):
    assert cli.main(["run", "--no-cache", "-j", "2", "--quiet", "--no-html"]) == ExitCode.OK
    # both workers before the index, and no others: the pool used the workers started ahead
    assert events == ["worker", "worker", "index"], events


def test_a_cache_that_answers_every_claim_starts_no_worker(events):
    assert cli.main(["run", "-j", "2", "--quiet", "--no-html"]) == ExitCode.OK
    first = list(events)
    events.clear()
    assert cli.main(["run", "-j", "2", "--quiet", "--no-html"]) == ExitCode.OK
    assert first[0] == "worker", first  # a fresh checkout has no cache yet: started ahead
    assert "worker" not in events, events  # the rerun is answered from the cache


REFUTED_AS_DECLARED = """
@inequality("{pkg}.off_by_one", inputs={"x": Array()}, title="planted", source=SRC, statement="x + 1 <= x",
            expected=Verdict.REFUTED)
def off_by_one(xp, x):
    return x + 1, x
"""


def test_workers_started_ahead_keep_the_run_s_counterexamples(tmp_path, monkeypatch):
    """The run keeps the counterexamples it finds (an environment variable its workers inherit when
    they start): started before it was set, the workers kept none (found by tests/test_cache.py)."""
    make_project(tmp_path, {"mod": REFUTED_AS_DECLARED})
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LEMMACHECK_EXAMPLES", str(tmp_path / "kept"))
    with REGISTRY.scratch():
        assert cli.main(["run", "--no-cache", "-j", "1", "--quiet", "--no-html"]) == ExitCode.OK
    assert (tmp_path / "kept").is_dir() and any((tmp_path / "kept").iterdir()), "no counterexample kept"


def test_a_link_outside_the_selection_runs_on_the_pool_s_workers(events, tmp_path):
    # issue 35: the claims a selection's chains link to were run by a second pool, whose workers each
    # imported the engine (and the content) again after the first pool had stopped its own
    from test_exitfirst import CHAIN_BEFORE_ITS_LINK

    make_project(tmp_path, {"mod": CHAIN_BEFORE_ITS_LINK})
    out = tmp_path / "reports"
    assert (
        cli.main(["run", "--no-cache", "-j", "1", "--quiet", "--no-html", "-k", "chain", "--out", str(out)])
        == ExitCode.OK
    )
    assert events == ["worker", "index"], events  # one worker, the link's claim run on it
    (chain,) = json.loads((out / "results.json").read_text())["claims"]
    assert chain["id"].endswith(".chain") and chain["proof"]["status"] != "unsettled", chain["proof"]


def test_failed_first_runs_both_halves_on_one_pool(events, tmp_path):
    # the same for --ff: the claims that differed last time, then the others, were two pools
    from test_exitfirst import WRONG_EXPECTATION

    make_project(tmp_path, {"mod": AM_GM + WRONG_EXPECTATION})
    assert cli.main(["run", "--no-cache", "-j", "1", "--quiet", "--no-html"]) == ExitCode.TESTS_FAILED
    events.clear()
    assert cli.main(["run", "--no-cache", "-j", "1", "--quiet", "--no-html", "--ff"]) == ExitCode.TESTS_FAILED
    assert events == ["worker", "index"], events


def test_show_checks_a_claim_its_links_and_its_premises_on_one_worker(events, tmp_path):
    # and for show, which ran up to four executions (the claim, its links, its premises, theirs)
    from test_exitfirst import CHAIN_BEFORE_ITS_LINK

    pkg = make_project(tmp_path, {"mod": CHAIN_BEFORE_ITS_LINK})
    assert cli.main(["show", f"{pkg}.chain"]) == ExitCode.OK
    assert events == ["index", "worker"], events
