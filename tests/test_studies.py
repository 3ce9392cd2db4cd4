"""Studies run on a thread of the process driving the run while its workers check the claims: the same
results as run in turn, the cache read and written only on the calling thread, a failing study reported,
never kept."""

from __future__ import annotations

from lemmacheck.model.claim import REGISTRY
from lemmacheck.project.index import import_modules, load_index
from lemmacheck.run.cache import ResultCache
from lemmacheck.run.studies import StudiesAhead, run_study
from lemmacheck.search.profile import QUICK
from planted_project import make_project

PROFILE = QUICK.with_seed(11)

STUDIES = """
import threading

from lemmacheck import StudyResult, study

THREADS = []


@study("{pkg}.studies.draw", title="a planted study")
def draw(profile):
    THREADS.append(threading.current_thread().name)
    return StudyResult(conclusion=f"drew {{profile.rng.standard_normal():.6f}}")


@study("{pkg}.studies.broken", title="a planted study that raises")
def broken(profile):
    THREADS.append(threading.current_thread().name)
    raise ValueError("no table")
"""


def _without_seconds(result: dict) -> dict:
    return {k: v for k, v in result.items() if k != "seconds"}


def test_studies_ahead_compute_off_the_calling_thread_and_keep_only_what_succeeded(tmp_path):
    pkg = make_project(tmp_path, {"studies": STUDIES})
    ids = [f"{pkg}.studies.draw", f"{pkg}.studies.broken"]
    with REGISTRY.scratch():
        import_modules(tmp_path, load_index(tmp_path).declaring_modules(ids))
        studies = [REGISTRY.studies[i] for i in ids]
        threads = studies[0].fn.__globals__["THREADS"]
        in_turn = [run_study(s, PROFILE) for s in studies]
        threads.clear()
        seen = []
        cache = ResultCache(tmp_path)
        first = StudiesAhead(studies, PROFILE, cache).results(
            lambda sid, i, n: seen.append((sid, i, n)), first=3, total=5
        )
        assert threads == ["studies", "studies"]  # both computed, on the background thread
        assert seen == [(ids[0], 3, 5), (ids[1], 4, 5)]  # counted after the claims, in order
        assert [_without_seconds(r) for r in first] == [_without_seconds(r) for r in in_turn]
        assert "ValueError: no table" in first[1]["error"]

        threads.clear()
        again = StudiesAhead(studies, PROFILE, ResultCache(tmp_path)).results(None, first=0, total=2)
    assert threads == ["studies"]  # the stored one is read, the failed one computed again
    assert again[0].pop("cached") is True and again[0] == first[0]
    assert _without_seconds(again[1]) == _without_seconds(first[1])


def test_a_run_reports_its_studies_as_when_they_ran_in_turn(tmp_path):
    """The index path (workers check the claims) runs the studies ahead; its report of them is the one
    they give run one after the other."""
    from lemmacheck.run.engine import run_claims

    pkg = make_project(tmp_path, {"studies": STUDIES})
    ids = [f"{pkg}.studies.draw", f"{pkg}.studies.broken"]
    with REGISTRY.scratch():
        ahead = run_claims(PROFILE, index=load_index(tmp_path), root=tmp_path, jobs=1)
        in_turn = [run_study(REGISTRY.studies[i], PROFILE) for i in ids]
    assert [_without_seconds(s) for s in ahead.studies] == [_without_seconds(s) for s in in_turn]


def test_each_study_is_handed_on_as_it_is_read_or_computed(tmp_path):
    """``on_study`` (the report's prewarm) sees every study while the claims are still checked: the
    computed ones on the studies' thread, the stored ones at once, each the result the run reports."""
    import threading

    pkg = make_project(tmp_path, {"studies": STUDIES})
    ids = [f"{pkg}.studies.draw", f"{pkg}.studies.broken"]
    with REGISTRY.scratch():
        import_modules(tmp_path, load_index(tmp_path).declaring_modules(ids))
        studies = [REGISTRY.studies[i] for i in ids]
        seen: list[tuple[str, str]] = []

        def on_study(result: dict) -> None:
            seen.append((result["id"], threading.current_thread().name))

        cache = ResultCache(tmp_path)
        first = StudiesAhead(studies, PROFILE, cache, on_study).results(None, first=0, total=2)
        assert seen == [(ids[0], "studies"), (ids[1], "studies")]
        seen.clear()
        ahead = StudiesAhead(studies, PROFILE, ResultCache(tmp_path), on_study)
        again = ahead.results(None, first=0, total=2)
    assert sorted(seen) == sorted([(ids[0], threading.current_thread().name), (ids[1], "studies")])
    assert again[0]["conclusion"] == first[0]["conclusion"]
