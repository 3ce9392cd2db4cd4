"""A bad declaration, or a check returning the wrong thing, is an ERROR naming the claim and the field,
never a verdict (issue 21 §2).

Each case is planted as a user would write it, in a content module of its own next to a good claim
(JAX ``lax_autodiff_test`` style: one table, one parametrised test).  ``before`` records what the same
declaration got before the validation existed.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import sys
import textwrap
import uuid

import pytest

from lemmacheck import Verdict
from lemmacheck.project.index import load_index
from lemmacheck.run.engine import run_claims
from lemmacheck.search.profile import QUICK
from planted_project import make_project

PROFILE = QUICK.with_seed(21)

HEADER = """\
import math

import sympy as sp

from lemmacheck import Source, Tolerance, Verdict, approximation, complexity, derivation, identity
from lemmacheck import StudyResult, inequality, prop, study, value
from lemmacheck.model.inputs import Array, ProbVector, Scalar

SRC = Source("planted.txt", "test")
META = dict(title="planted", source=SRC, statement=r"a \\le b", expected=Verdict.HOLDS)

value("planted.good", computed=lambda: 2, stated=2, **META)  # the module's other claim
"""


@dataclasses.dataclass(frozen=True)
class Bad:
    name: str
    declaration: str  # the bad claim ``planted.bad``, as a user writes it
    names: tuple[str, ...]  # what the ERROR message must quote besides the claim id: the field, the value
    before: str  # what it got before issue 21

    def __repr__(self) -> str:
        return self.name


BAD = [
    Bad(
        "negative_rtol",
        """
        @inequality("planted.bad", inputs={"x": Scalar(0.5, 1)}, tol=Tolerance(-1, reason="loose"), **META)
        def bad(xp, x):
            return x * 0 + 0.5, x * 0 + 0.5
        """,
        ("tol", "rtol=-1"),
        "REFUTED with a 'certified' counterexample lhs = rhs = 0.5",
    ),
    Bad(
        "nan_atol",
        """
        @inequality("planted.bad", inputs={"x": Scalar(0.5, 1)}, tol=Tolerance(1e-7, math.nan, "r"), **META)
        def bad(xp, x):
            return x, x + 1
        """,
        ("tol", "atol=nan"),
        "HOLDS (every comparison with a NaN slack is False)",
    ),
    Bad(
        "rtol_of_one",
        """
        @inequality("planted.bad", inputs={"x": Scalar(0.5, 1)}, tol=Tolerance(1, reason="loose"), **META)
        def bad(xp, x):
            return x + 1, x
        """,
        ("tol", "rtol=1"),
        "HOLDS: a slack of |lhs| + |rhs| covers every difference",
    ),
    Bad(
        "prop_returns_floats",
        """
        @prop("planted.bad", inputs={"p": ProbVector(3)}, **META)
        def bad(xp, p):
            return xp.abs(xp.sum(p, axis=-1) - 1)  # the error, not 'the sum is 1'
        """,
        ("property", "float64", "booleans"),
        "REFUTED (a float read as a boolean)",
    ),
    Bad(
        "complex_sides",
        """
        @identity("planted.bad", inputs={"x": Scalar(0.5, 2)}, **META)
        def bad(xp, x):
            return xp.exp(1j * x) * xp.exp(-1j * x), x * 0 + 1
        """,
        ("e0", "complex", "real"),
        "HOLDS (the imaginary part dropped with a warning)",
    ),
    Bad(
        "complex_approximation",
        """
        @approximation("planted.bad", inputs={"x": Scalar(0.5, 2)}, **META)
        def bad(xp, eps, x):
            return xp.exp(1j * eps * x), 1 + 1j * eps * x
        """,
        ("lhs", "complex", "real"),
        "APPROXIMATE, the imaginary parts dropped with a warning",
    ),
    Bad(
        "fractional_dim",
        """
        @inequality("planted.bad", inputs={"x": Array("n")}, dims={"n": [2.5]}, **META)
        def bad(xp, x):
            return xp.max(x, axis=-1), xp.sum(xp.abs(x), axis=-1)
        """,
        ("dims['n']", "2.5"),
        "HOLDS, silently run at n = 2",
    ),
    Bad(
        "zero_dim",
        """
        @inequality("planted.bad", inputs={"x": Array("n")}, dims={"n": [0, 2]}, **META)
        def bad(xp, x):
            return xp.max(x, axis=-1), xp.sum(xp.abs(x), axis=-1)
        """,
        ("dims['n']", "0"),
        "ERROR from numpy ('zero-size array to reduction operation'), not naming the field",
    ),
    Bad(
        "infinite_effort",
        """
        @inequality("planted.bad", inputs={"x": Array()}, effort=math.inf, **META)
        def bad(xp, x):
            return x, x + xp.abs(x)
        """,
        ("effort=inf",),
        "OverflowError out of run_claim: the run killed (exit 3 under -j 1)",
    ),
    Bad(
        "reversed_scalar",
        """
        @inequality("planted.bad", inputs={"x": Scalar(5, 1)}, **META)
        def bad(xp, x):
            return x, x + 1
        """,
        ("input 'x'", "low=5", "high=1"),
        "the module fails to import ('Array: low=5 must be < high=1'), taking planted.good with it",
    ),
    Bad(
        "log_scalar_from_zero",
        """
        @inequality("planted.bad", inputs={"x": Scalar(0, 1, log=True)}, **META)
        def bad(xp, x):
            return x, x + 1
        """,
        ("input 'x'", "log=True", "low > 0"),
        "the module fails to import ('Scalar(log=True) needs 0 < low < high'), planted.good with it",
    ),
    Bad(
        "fractional_fixed_shape",
        """
        @inequality("planted.bad", inputs={"x": Array(2.5)}, **META)
        def bad(xp, x):
            return x[:, 0], x[:, 0] + 1
        """,
        ("input 'x'", "2.5"),
        "HOLDS, silently run with 2 entries",
    ),
    Bad(
        "unbalanced_statement",
        """
        @inequality("planted.bad", inputs={"x": Array()}, **{**META, "statement": r"\\frac{a}{b"})
        def bad(xp, x):
            return x, x + xp.abs(x)
        """,
        ("statement", "never closed"),
        "HOLDS, the statement rendered as a fraction with no warning",
    ),
    Bad(
        "statement_left_without_right",
        """
        @inequality("planted.bad", inputs={"x": Array()}, **{**META, "statement": r"\\left( a \\le b"})
        def bad(xp, x):
            return x, x + xp.abs(x)
        """,
        ("statement", "latex2mathml"),
        "HOLDS; the report showed the raw LaTeX with a warning",
    ),
    Bad(
        "approximation_infinite_order",
        """
        @approximation("planted.bad", inputs={"x": Array()}, order=math.inf, **META)
        def bad(xp, eps, x):
            return xp.exp(eps * x), 1 + eps * x
        """,
        ("order=inf",),
        "REFUTED: a measured order judged against an infinite one",
    ),
    Bad(
        "complexity_grid_through_zero",
        """
        complexity("planted.bad", cost=lambda n: n * n, grid={"n": [0, 8, 16]}, stated={"n": 2}, **META)
        """,
        ("grid['n']", "0"),
        "ERROR mid-run: 'cost must be finite and positive at every grid point', with a traceback",
    ),
    Bad(
        "derivation_reversed_domain",
        """
        x = sp.Symbol("x")
        derivation("planted.bad", chain=[x**2, ">=", 0], domain={x: (1, -1)}, **META)
        """,
        ("domain[x]", "(1, -1)"),
        "ERROR mid-run: numpy's 'high - low < 0', with a traceback",
    ),
    Bad(
        "study_cited_by_a_string",
        """
        @study("planted.bad", title="width sweep", source="planted.txt")
        def bad():
            return StudyResult(conclusion="measured")
        """,
        ("source", "'planted.txt'", "not a Source"),
        "registered; run_study raised AttributeError ('str' has no 'file') outside its try",
    ),
]


def _import_planted(tmp_path, body: str) -> None:
    """Import a content module holding ``body`` (no exception may escape: that is the point)."""
    name = f"planted_{uuid.uuid4().hex[:8]}"
    path = tmp_path / f"{name}.py"
    path.write_text(HEADER + textwrap.dedent(body))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]


@pytest.mark.parametrize("case", BAD, ids=repr)
def test_a_bad_declaration_is_an_error_naming_the_claim_and_the_field(case, registry, tmp_path):
    _import_planted(tmp_path, case.declaration)
    results = {r.id: r for r in run_claims(PROFILE, with_studies=False).results}
    assert results["planted.good"].verdict is not Verdict.ERROR, "the module's other claim still runs"
    bad = results["planted.bad"]
    assert bad.verdict is Verdict.ERROR, f"{case.name}: got {bad.verdict} (before issue 21: {case.before})"
    assert "planted.bad" in bad.message, bad.message
    for name in case.names:
        assert name in bad.message, f"{name!r} not in {bad.message!r}"
    if "planted.bad" not in registry:  # a declaration error, found before anything ran
        assert "fix:" in bad.message, bad.message


def test_a_bad_input_spec_costs_only_its_claim_in_a_run_through_the_index(tmp_path, registry):
    """The module that failed to import before (``Scalar(5, 1)``) imports in the index's subprocess; the
    run reports the bad claim as ERROR and runs the others, ``effort=inf`` under ``-j 1`` included."""
    bad = """
        import math

        from lemmacheck.model.inputs import Scalar

        @inequality("{pkg}.reversed", inputs={"x": Scalar(5, 1)}, **META)
        def reversed_(xp, x):
            return x, x + 1

        @inequality("{pkg}.endless", inputs={"x": Array()}, effort=math.inf, **META)
        def endless(xp, x):
            return x, x + abs(x)

        @inequality("{pkg}.fine", inputs={"x": Array()}, **META)
        def fine(xp, x):
            return x, x + abs(x)
        """
    pkg = make_project(tmp_path, {"mod": bad})
    run = run_claims(PROFILE, with_studies=False, index=load_index(tmp_path), root=tmp_path, jobs=1)
    results = {r.id: r for r in run.results}
    assert results[f"{pkg}.fine"].verdict is Verdict.HOLDS, results[f"{pkg}.fine"].message
    assert results[f"{pkg}.reversed"].verdict is Verdict.ERROR
    assert "input 'x'" in results[f"{pkg}.reversed"].message
    assert results[f"{pkg}.endless"].verdict is Verdict.ERROR
    assert "effort=inf" in results[f"{pkg}.endless"].message


@pytest.mark.parametrize("scale", ["inf", "nan", "0", "-2", "lots"])
def test_a_run_scale_that_is_not_a_finite_positive_number_is_named(scale, monkeypatch):
    """LEMMACHECK_SCALE scales every claim as ``effort`` scales one: ``inf`` raised OverflowError mid-run."""
    from lemmacheck.search.profile import profile_named

    monkeypatch.setenv("LEMMACHECK_SCALE", scale)
    with pytest.raises(ValueError, match=f"LEMMACHECK_SCALE='{scale}' must be a finite number > 0"):
        profile_named("quick")
