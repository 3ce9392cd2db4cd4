"""The mutation score gate (issue 11, made honest in issue 20 §4): a fixed, seeded sample of the catalogue's
mutants, run as the suite runs, so `.ci/run` (the README's test command) fails when the checks stop
noticing small changes.

The whole catalogue (about 10,000 mutants, 1.5 h of one core) does not fit CI; `lemmacheck mutate` runs it.
Three samples, seeds 1, 2 and 3 (issue 32 §4: one seed's draw read 98.1 % where the same code read 87.3 %
and 88.5 % at seeds 3 and 4).  A mutant the run cannot decide (timed out, or an ERROR that is neither a
detection nor a crash of its own code) counts against the score; the cap counts CPU time, so a loaded
machine does not turn decided mutants into timeouts.  Measured on the judge branch (27 November 2026):
98.2 %, 96.5 %, 91.5 % at seeds 1, 2, 3 (95.9 % and 95.8 % at 4 and 5; docs/mutation.md has the counts and
the survivors); on the merged tree, whose catalogue draws another sample, seed 2 read 89.8 %, two of its six
survivors properties whose premise the mutant only narrows, which their code now shows weaker
(mutate/polarity.py): 98.1 %, 93.0 %, 95.1 % at seeds 1, 2, 3 (27 November 2026, branch sup).
"""

from __future__ import annotations

import json

import pytest

from lemmacheck.cli.exitcodes import ExitCode
from lemmacheck.cli.main import main

SAMPLE = ["--max-per-claim", "1", "--sample", "80", "--time-cap", "10", "--quiet"]
GATE = "0.90"
#: the first three seeds, fixed by that rule (issue 32 §4): one seed's sample read 98.1 % where the next
#: ones read 87.3 % and 88.5 %, so a single draw measured the draw as much as the tool
SEEDS = (1, 2, 3)
#: seeds whose sample is below the gate, with what was measured: data, strict, so the day the score
#: passes the entry must go (none since the property rule of mutate/polarity.py)
BELOW_THE_GATE: dict[int, str] = {}


@pytest.mark.slow  # 80 mutants, each a search of its own
@pytest.mark.starts_first  # about 57 s per seed: started last, one alone made the suite's tail
@pytest.mark.parametrize(
    "seed",
    [
        pytest.param(s, marks=pytest.mark.xfail(strict=True, reason=BELOW_THE_GATE[s]))
        if s in BELOW_THE_GATE
        else s
        for s in SEEDS
    ],
)
def test_the_checks_notice_a_fixed_sample_of_mutants_with_timeouts_counted(seed, tmp_path, capsys):
    code = main(["mutate", "--seed", str(seed), *SAMPLE, "--min-score", GATE, "--out", str(tmp_path)])
    out = capsys.readouterr().out
    data = json.loads((tmp_path / "mutation.json").read_text())
    assert code == ExitCode.OK, f"mutation score below the gate at --seed {seed}:\n{out[-3000:]}"
    counts = data["counts"]
    undecided = counts["survived"] + counts["timed_out"]
    assert data["score"] == counts["killed"] / (counts["killed"] + undecided)  # timeouts count against it
    assert data["selected"] == 80 and any(
        m["target"] == "derivation" for c in data["claims"] for m in c["mutants"]
    )  # the sample includes derivation mutants (13 to 26 of the 80 at seeds 1-5)
    not_noticed = [
        m for c in data["claims"] for m in c["mutants"] if m["status"] in ("survived", "timed_out")
    ]
    for m in not_noticed:  # every survivor carries its explanation into the report
        assert m.get("reason") or m.get("evidence"), m
