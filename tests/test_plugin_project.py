"""pytest in a researcher's own project: the plugin (the ``pytest11`` entry point) collects every claim of
the project pytest runs in as a test item, named by its id, with ``-k``, ``-x``, ``--lf``, xdist and
``--lemmacheck-report`` as in this repository; and loading it costs a session without claims nothing.

Found: in a fresh folder with ``pyproject.toml`` and the README's example claim in ``checks/``, ``pytest``
collected 0 items (exit 5), and every pytest session imported NumPy, mpmath and Hypothesis with the plugin.
Each test runs pytest in a subprocess in a project outside this repository.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

# the README's example claim, as a newcomer pastes it (with its imports)
README_CLAIM = """
from lemmacheck import Array, Source, Verdict, inequality


@inequality(
    "schatten.hadamard_l1",
    title="‖x ⊙ y‖₁ ≤ ‖x‖₂‖y‖₂ (Cauchy–Schwarz on |x| and |y|)",
    source=Source.project("my derivation, step 2"),
    statement=r"\\|\\mathbf{x}\\odot\\mathbf{y}\\|_1 \\le \\|\\mathbf{x}\\|_2\\|\\mathbf{y}\\|_2",
    expected=Verdict.HOLDS,
    inputs={"x": Array("n"), "y": Array("n")},
    dims={"n": [1, 2, 3, 5, 8, 16]},
)
def schatten_hadamard_l1(xp, x, y):
    return xp.vector_norm(x * y, 1), xp.vector_norm(x, 2) * xp.vector_norm(y, 2)
"""

# false as declared; its file sorts first, so -x stops before the README's claim runs
SLIP = """
from lemmacheck import Array, Source, Verdict, inequality


@inequality("mine.square_of_sum", title="(sum x)^2 <= sum x^2", source=Source.project("my slip"),
            statement="(sum x)^2 <= sum x^2", expected=Verdict.HOLDS, inputs={"x": Array("n")},
            dims={"n": [2, 3]})
def square_of_sum(xp, x):
    return xp.sum(x, axis=-1) ** 2, xp.sum(x * x, axis=-1)
"""

README_ID = "checks/norms/schatten.py::schatten.hadamard_l1"
SLIP_ID = "checks/norms/early.py::mine.square_of_sum"


def _own_project(root: Path, *, pytest_ini: str = "", slip: bool = True, broken: bool = False) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(f'[project]\nname = "mine"\nversion = "0"\n{pytest_ini}')
    (root / "checks" / "norms").mkdir(parents=True)
    (root / "checks" / "norms" / "schatten.py").write_text(README_CLAIM)
    if slip:
        (root / "checks" / "norms" / "early.py").write_text(SLIP)
    if broken:  # one broken module never takes the session down: it is a failing item of its own
        broken_module = "import lemmacheck\n\nraise RuntimeError('boom')\n"
        (root / "checks" / "norms" / "later.py").write_text(broken_module)
    return root


def _pytest(root: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("LEMMACHECK_ROOT", "LEMMACHECK_SEED")}
    env.pop("PYTEST_XDIST_WORKER", None)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rA", *args],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_pytest_in_ones_own_project_checks_every_claim_and_writes_the_report(tmp_path):
    root = _own_project(tmp_path / "mine", broken=True)
    proc = _pytest(root, "--lemmacheck-report", "rep")
    out = proc.stdout
    assert proc.returncode == 1, out + proc.stderr
    assert f"PASSED {README_ID}" in out and f"FAILED {SLIP_ID}" in out, out
    assert "FAILED checks/norms/later.py::checks.norms.later" in out and "RuntimeError: boom" in out, out
    assert "replay: lemmacheck run --seed " in out
    # the failure reads as the CLI's: the difference, then the counterexample
    assert "mine.square_of_sum: computed REFUTED, expected HOLDS" in out
    assert "counterexample (proved by" in out and "lhs/rhs = " in out, out
    data = json.loads((root / "rep" / "results.json").read_text())
    assert sorted(c["id"] for c in data["claims"]) == ["mine.square_of_sum", "schatten.hadamard_l1"]


def _fenced_python(path: Path, after: str = "") -> str:
    text = path.read_text()
    return text[text.index("```python\n", text.index(after)) + 10 :].split("```", 1)[0]


def test_the_readme_example_in_ones_own_project_passes_with_the_table_the_docs_show(tmp_path):
    """The README's example is a LaTeX statement read with this repository's norms table; pasted into
    one's own project it failed ("no symbol table") and no page said what to add."""
    repo = Path(__file__).resolve().parents[1]
    claim = _fenced_python(repo / "README.md", "## Adding a claim")
    table = _fenced_python(repo / "docs" / "your-project.md", "### The README's example claim")
    root = _own_project(tmp_path / "mine", slip=False)
    imports = "from lemmacheck import Array, Source, Verdict, from_statement, inequality\n"
    (root / "checks" / "norms" / "schatten.py").write_text(imports + table + claim)
    proc = _pytest(root)
    assert proc.returncode == 0 and f"PASSED {README_ID}" in proc.stdout, proc.stdout + proc.stderr


@pytest.mark.slow  # four nested pytest sessions, one on two xdist workers
def test_k_x_lf_and_xdist_work_on_the_claims_as_on_any_test(tmp_path):
    root = _own_project(tmp_path / "mine")
    selected = _pytest(root, "-k", "hadamard")
    assert selected.returncode == 0 and f"PASSED {README_ID}" in selected.stdout, selected.stdout
    assert "1 deselected" in selected.stdout
    stopped = _pytest(root, "-x")
    assert stopped.returncode == 1 and "stopping after 1 failures" in stopped.stdout, stopped.stdout
    assert README_ID not in stopped.stdout
    last_failed = _pytest(root, "--lf")
    assert f"FAILED {SLIP_ID}" in last_failed.stdout and README_ID not in last_failed.stdout
    on_two = _pytest(root, "-n", "2", "--lemmacheck-report", "rep2")
    assert "1 failed, 1 passed" in on_two.stdout, on_two.stdout
    data = json.loads((root / "rep2" / "results.json").read_text())
    assert len(data["claims"]) == 2


def test_a_project_that_checks_its_claims_itself_opts_out_of_the_items(tmp_path):
    """As this repository does (tests/test_claims.py): no claim is collected twice."""
    ini = "\n[tool.pytest.ini_options]\nlemmacheck_claims = false\n"
    root = _own_project(tmp_path / "mine", pytest_ini=ini, slip=False)
    proc = _pytest(root, "--collect-only")
    assert proc.returncode == 5 and "no tests collected" in proc.stdout, proc.stdout


def test_loading_the_plugin_imports_nothing_heavy_in_a_session_without_claims(tmp_path):
    (tmp_path / "test_light.py").write_text(
        textwrap.dedent(
            """
            import sys

            def test_nothing_heavy_loaded():
                heavy = [m for m in ("lemmacheck", "numpy", "sympy", "mpmath", "flint") if m in sys.modules]
                assert not heavy, heavy
            """
        )
    )
    proc = _pytest(tmp_path, "-p", "no:cacheprovider", "-n", "0")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "lemmacheck: seed" not in proc.stdout  # no header for a session with no claims
