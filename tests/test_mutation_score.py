"""The mutation score gate (issue 11, made honest in issue 20 §4): a fixed, seeded sample of the catalogue's
mutants, run as the suite runs, so `.ci/run` (the README's test command) fails when the checks stop
noticing small changes.

The whole catalogue (about 10,000 mutants, 1.5 h of one core) does not fit CI; `lemmacheck mutate` runs it.
The sample's seed was fixed before its result was seen (docs/mutation.md).  A mutant the run cannot decide
(timed out, or an ERROR that is not a detection) counts against the score; the cap counts CPU time, so a
loaded machine does not turn decided mutants into timeouts.  Measured: 98.1 % (53 killed, 1 survived — an
ERROR on the mutant —, 0 timed out, 7 equivalent, 19 still false, 0 invalid; 78.5 % before the rules of
issue 20 §4); with about fifty judged mutants the gate leaves room for four more undecided ones.
"""

from __future__ import annotations

import json

import pytest

from lemmacheck.cli.exitcodes import ExitCode
from lemmacheck.cli.main import main

SAMPLE = ["--seed", "1", "--max-per-claim", "1", "--sample", "80", "--time-cap", "10", "--quiet"]
GATE = "0.90"


@pytest.mark.slow  # 80 mutants, each a search of its own
@pytest.mark.starts_first  # about 57 s: started last, it alone made the suite's tail
def test_the_checks_notice_a_fixed_sample_of_mutants_with_timeouts_counted(tmp_path, capsys):
    code = main(["mutate", *SAMPLE, "--min-score", GATE, "--out", str(tmp_path)])
    out = capsys.readouterr().out
    data = json.loads((tmp_path / "mutation.json").read_text())
    assert code == ExitCode.OK, f"mutation score below the gate:\n{out[-3000:]}"
    counts = data["counts"]
    undecided = counts["survived"] + counts["timed_out"]
    assert data["score"] == counts["killed"] / (counts["killed"] + undecided)  # timeouts count against it
    assert data["selected"] == 80 and any(
        m["target"] == "derivation" for c in data["claims"] for m in c["mutants"]
    )  # the sample includes derivation mutants
    not_noticed = [
        m for c in data["claims"] for m in c["mutants"] if m["status"] in ("survived", "timed_out")
    ]
    for m in not_noticed:  # every survivor carries its explanation into the report
        assert m.get("reason") or m.get("evidence"), m
