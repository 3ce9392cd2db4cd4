"""``lemmacheck watch``: a save re-checks the claims it reaches and reports the verdicts that changed."""

from __future__ import annotations

import json

from lemmacheck.cli.watch import Watcher
from lemmacheck.report.changes import Transition
from lemmacheck.search.profile import QUICK
from planted_project import AM_GM, make_project

SECOND = """
@inequality("{pkg}.second.am_gm", inputs={"a": Array(positive=True), "b": Array(positive=True)}, **META)
def am_gm(xp, a, b):
    return xp.sqrt(a * b), (a + b) / 2
"""


def test_a_save_rechecks_what_it_reaches_and_prints_the_transition(tmp_path):
    pkg = make_project(tmp_path, {"first": AM_GM, "second": SECOND})
    lines: list[str] = []
    watcher = Watcher(tmp_path, QUICK.with_seed(3), jobs=1, html=False, echo=lines.append)
    try:
        watcher.start()
        assert {r.verdict.value for r in watcher.results.values()} == {"HOLDS"}
        first = tmp_path / pkg / "first.py"
        first.write_text(first.read_text().replace("(a + b) / 2", "(a + b) / 4"))  # now false
        transitions = watcher.handle([first])
        assert transitions == [Transition(f"{pkg}.am_gm", "verdict", "HOLDS", "REFUTED")]
        at = next(i for i, line in enumerate(lines) if f"{pkg}.am_gm: HOLDS -> REFUTED" in line)
        assert "after the save" in lines[at]
        # the counterexample under it, as Hypothesis prints a falsifying example (it printed none before)
        shown = "\n".join(lines[at + 1 : -1])
        assert shown.lstrip().startswith("counterexample (") and "lhs/rhs = " in shown, shown
        assert all(f"  {name} = " in shown for name in ("a", "b", "lhs", "rhs")), shown
        assert "1 claim(s) re-checked, 1 change(s)" in lines[-1], "the other module's claim is not re-run"
        saved = json.loads((tmp_path / "reports" / "results.json").read_text())
        assert {c["id"]: c["verdict"] for c in saved["claims"]}[f"{pkg}.am_gm"] == "REFUTED"

        second = tmp_path / pkg / "second.py"
        second.write_text(second.read_text().replace("second.am_gm", "second.renamed"))
        kinds = {(t.claim_id, t.what) for t in watcher.handle([second])}
        assert kinds == {(f"{pkg}.second.renamed", "new"), (f"{pkg}.second.am_gm", "removed")}
    finally:
        watcher.close()
