"""Every results file lemmacheck writes is one it can read back (issue 32 §5): the writer validates against
the shipped schema, so no run of the suite (or of a user) leaves a results.json that `render` refuses."""

from __future__ import annotations

import math

import pytest

from lemmacheck.cli.exitcodes import ExitCode
from lemmacheck.cli.main import main
from lemmacheck.errors import OutputError
from lemmacheck.run.results import ClaimResult, jsonable
from lemmacheck.schema import load_results, validate_written
from lemmacheck.search.tightness import _candidate_witness

#: the default run of the one claim the issue found (a fresh computation: no cached result)
RUN = ["run", "-k", "lemma1.bound_hw.max_entry", "-j", "1", "--quiet", "--no-cache"]


def test_the_default_run_of_the_claim_the_issue_found_writes_results_render_reads(tmp_path):
    # lemma1.bound_hw.max_entry's witness is a candidate whose float64 sides underflowed (about 1e-381):
    # its float64 ratio was written as null, which the schema refuses, so `render` refused the run.
    assert main([*RUN, "--out", str(tmp_path)]) == ExitCode.OK
    data = load_results(tmp_path / "results.json")  # raises, naming the field, if it does not conform
    (claim,) = data["claims"]
    witness = claim["evidence"].get("tightness_witness") or {}
    assert "float64_ratio" not in witness or witness["float64_ratio"] is not None, witness


def test_a_witness_whose_float64_ratio_is_not_finite_says_so_in_the_schemas_numbers():
    class Conf:
        lhs, rhs, dps, route = "1e-381", "1e-381", 338, "enclosure"

    class Cand:
        ratio = math.nan
        instance = type("I", (), {"dims": {"n": 1}, "inputs": {"x": [[0.0]]}})()

    w = jsonable(_candidate_witness(1.0, Cand(), Conf()))
    assert w["float64_ratio"] == "nan"


def test_the_writer_refuses_results_that_do_not_conform_naming_the_field(tmp_path, monkeypatch, capsys):
    with pytest.raises(OutputError, match="'run' is a required property"):
        validate_written({"schema_version": 2, "claims": []})
    # the run's own writer: a result the schema refuses is not written, and the run says which field
    to_dict = ClaimResult.to_dict
    monkeypatch.setattr(ClaimResult, "to_dict", lambda self: to_dict(self) | {"verdict": "FINE"})
    main([*RUN, "--out", str(tmp_path)])
    assert not (tmp_path / "results.json").exists()
    assert "claims[0].verdict" in capsys.readouterr().err


def test_the_one_writer_of_results_json_refuses_what_render_refuses_whoever_calls_it(tmp_path):
    # Audit of issue 32 §5 (aud4): `run`, the pytest plugin and `watch` each validated before writing, but
    # report.folder.write_report, the writer they share, wrote whatever it was given: a new caller (or
    # one that forgot) could ship a results.json that `render` then refuses
    from lemmacheck.report.folder import write_report

    good = _fresh_run_results(tmp_path / "good")
    bad = good | {"claims": [good["claims"][0] | {"verdict": "FINE"}]}
    with pytest.raises(OutputError, match=r"claims\[0\]\.verdict"):
        write_report(tmp_path / "bad", bad, html=False)
    assert not (tmp_path / "bad" / "results.json").exists()
    write_report(tmp_path / "again", good, html=False)
    assert load_results(tmp_path / "again" / "results.json")["claims"] == good["claims"]


def _fresh_run_results(out) -> dict:
    assert main([*RUN, "--no-html", "--out", str(out)]) == ExitCode.OK
    return load_results(out / "results.json")
