"""Statements with premises, conditions and connectives: which clause is the relation a check computes,
which a definition or a condition, and the truth value of a property's statement."""

from __future__ import annotations

import numpy as np
import pytest

from lemmacheck import Input, LatexError, SymbolTable
from lemmacheck.latex.statement import compile_property, compile_statement
from lemmacheck.latex.truth import settled_truth
from lemmacheck.xp import mp_precision, mpmath_xp, numpy_xp, to_mp

TABLE = SymbolTable(
    "tests/test_latex_logic.py",
    {"x": Input("x"), "y": Input("y"), "a": Input("a"), r"\beta": Input("beta"), "n": Input("n")},
    indices={"i": "n"},
)
RNG = np.random.default_rng(1)
X, Y = RNG.normal(size=(6, 3)), RNG.normal(size=(6, 3))
A = np.array([-2.0, -0.5, 0.0, 0.25, 1.0, 3.0])
INPUTS = {"x": X, "y": Y, "a": A, "beta": np.array([0.0, 0.2, 0.5, 0.99, 1.0, 1.5])}


# rtol: the relative tolerance the run gives a property (tolerance_for(claim.tol)); 1e-12 here so that
# the unit tests read relations almost exactly, and a test that needs the run's 1e-9 says so
def truth(text, inputs=INPUTS, xp=numpy_xp, rtol=1e-12):
    return compile_property(text, TABLE).values(xp, inputs, {"n": 3}, rtol)


@pytest.mark.parametrize(
    "text",
    [
        r"a \ge 0 \implies x^\top y \le \|x\|_2\|y\|_2",
        r"a \ge 0:\quad x^\top y \le \|x\|_2\|y\|_2",
        r"x^\top y \le \|x\|_2\|y\|_2,\quad a \ge 0",
        r"x^\top y \le \|x\|_2\|y\|_2 \quad (a \ge 0)",
        r"x^\top y \le \|x\|_2\|y\|_2\ \forall a \in [0, \infty)",
    ],
)
def test_conditions_are_read_wherever_the_document_puts_them(text):
    compiled = compile_statement(text, TABLE)
    assert compiled.relations == ("<=",)
    where = compiled.holds(numpy_xp, INPUTS, {"n": 3}, 1e-12)
    assert where.tolist() == (A >= 0).tolist()


def test_a_definition_before_the_colon_is_substituted():
    compiled = compile_statement(r"b = 2a:\quad b \le 3a", TABLE)
    lhs, rhs = compiled.sides(numpy_xp, INPUTS, {"n": 3})
    np.testing.assert_allclose(lhs, 2 * A)
    assert compiled.conditions is None


def test_a_hypothesis_equality_is_a_condition_not_a_definition():
    compiled = compile_statement(r"a = 1 \implies a \le 2", TABLE)
    assert compiled.holds(numpy_xp, INPUTS, {"n": 3}, 1e-12).tolist() == (A == 1).tolist()


def test_connectives_and_intervals():
    b = INPUTS["beta"]
    assert truth(r"\beta \in [0, 1)").tolist() == ((b >= 0) & (b < 1)).tolist()
    assert truth(r"\beta \in (0, 1] \implies a \ge 0").tolist() == (~((b > 0) & (b <= 1)) | (A >= 0)).tolist()
    assert truth(r"a > 0 \iff 2a > 0 \iff a \ne 0").tolist() == ((A > 0) == (A != 0)).tolist()
    assert truth(r"a < 0 \lor a > 1").tolist() == ((A < 0) | (A > 1)).tolist()
    assert truth(r"(\beta, a) \in [0,1]\times(0,\infty)").tolist() == ((b >= 0) & (b <= 1) & (A > 0)).tolist()
    assert truth(r"a, \beta \ge 0").tolist() == ((A >= 0) & (b >= 0)).tolist()


def test_equality_holds_to_the_tolerance_given():
    assert truth(r"x^\top y = y^\top x").all()
    # the run's 1e-9: a relative difference of 1e-4 is five orders past it, never absorbed as rounding
    assert not truth(r"x^\top y = 1.0001 y^\top x", rtol=1e-9).any()


def test_forall_over_an_index_range_is_the_conjunction():
    assert truth(r"\forall i:\ x_i \le \|x\|_\infty").all()
    assert truth(r"x_i \ge -\|x\|_\infty\ \forall i").all()
    assert truth(r"\forall i:\ x_i \le x_1").tolist() == (X.max(axis=1) <= X[:, 0]).tolist()


def test_truth_values_run_in_high_precision():
    with mp_precision(40):
        mp = truth(
            r"a \ge 0 \implies x^\top y \le \|x\|_2\|y\|_2",
            {k: to_mp(v) for k, v in INPUTS.items()},
            mpmath_xp,
        )
    assert mp.all()


def test_what_has_no_truth_value_is_refused_by_name():
    with pytest.raises(LatexError, match="no relation"):
        compile_property(r"x^\top y", TABLE)
    with pytest.raises(LatexError, match="quantified symbol"):
        compile_property(r"\forall z:\ a \ge 0", TABLE)
    with pytest.raises(LatexError, match="equivalence"):
        compile_statement(r"a > 0 \iff 2a > 0", TABLE)


def test_positive_definiteness_of_a_matrix_difference():
    S = np.array([[[2.0, 0.0], [0.0, 1.0]], [[1.0, 2.0], [2.0, 1.0]]])
    table = TABLE.extend("tests/test_latex_logic.py (S)", {"S": Input("S")})
    inputs = {"S": S}
    assert compile_property(r"S \succ 0", table).values(numpy_xp, inputs, {}, 1e-12).tolist() == [True, False]
    with pytest.raises(LatexError, match="compares numbers"):
        compile_statement(r"S \succ 0", table)


def test_lists_of_bound_indices_and_of_members():
    M = RNG.normal(size=(6, 3, 3))
    table = TABLE.extend("tests (M)", {"M": Input("M"), "j": Input("j")}, indices={"i": "n", "j": "n"})
    inputs = {**INPUTS, "M": M}
    whole = compile_property(r"\forall i,j:\ M_{ij} \le \max_{k=1}^{n} M_{ik}", table)
    assert whole.values(numpy_xp, inputs, {"n": 3}, 1e-12).all()
    post = compile_property(r"M_{ij} \le M_{i,1}\ \forall i,j", table).values(numpy_xp, inputs, {"n": 3}, 0.0)
    assert post.tolist() == (M.max(axis=2) <= M[:, :, 0]).all(axis=1).tolist()
    b = INPUTS["beta"]
    both = truth(r"a, \beta \in [0, 1]")
    assert both.tolist() == ((A >= 0) & (A <= 1) & (b >= 0) & (b <= 1)).tolist()


def test_rows_columns_and_slices():
    M = RNG.normal(size=(6, 3, 3))
    table = TABLE.extend("tests (rows)", {"M": Input("M")}, indices={"j": "n"})
    inputs = {**INPUTS, "M": M}
    (lhs, rhs) = compile_statement(r"M_{2,:} x = \sum_{j=1}^{n} M_{2,j} x_j", table).sides(
        numpy_xp, inputs, {"n": 3}
    )
    np.testing.assert_allclose(lhs, rhs)
    np.testing.assert_allclose(lhs, (M[:, 1, :] * X).sum(-1))
    (col, _) = compile_statement(r"x^\top M_{:,3} = 0", table).sides(numpy_xp, inputs, {"n": 3})
    np.testing.assert_allclose(col, (X * M[:, :, 2]).sum(-1))


def test_a_vector_equal_to_zero_is_the_zero_vector():
    Z = np.zeros_like(X)
    assert truth(r"x - x = 0").all()
    assert not truth(r"x \ne 0").tolist() == [False] * 6
    assert compile_property(r"x = 0", TABLE).values(numpy_xp, {**INPUTS, "x": Z}, {"n": 3}, 0.0).all()


def test_membership_in_sets_of_numbers():
    M = RNG.normal(size=(6, 3, 2))
    table = TABLE.extend("tests (R)", {"M": Input("M"), "m": Input("m")})
    inputs = {**INPUTS, "M": M}
    dims = {"n": 3, "m": 2}
    assert compile_property(r"M \in \mathbb{R}^{n\times m}", table).values(numpy_xp, inputs, dims, 0).all()
    assert (
        not compile_property(r"M \in \mathbb{R}^{m\times n}", table).values(numpy_xp, inputs, dims, 0).any()
    )
    assert compile_property(r"x^\top y \in \mathbb{R}", table).values(numpy_xp, inputs, dims, 0).all()
    assert truth(r"a \in \mathbb{N}").tolist() == [False, False, True, False, True, True]
    assert truth(r"a \in \mathbb{N}^*").tolist() == [False, False, False, False, True, True]


def test_a_labelled_symbol_transposed_in_one_superscript():
    U = RNG.normal(size=(6, 3, 3))
    table = TABLE.extend("tests (U)", {"U^{(f)}": Input("U")})
    (lhs, _) = compile_statement(r"x^\top U^{(f)\top} y = 0", table).sides(
        numpy_xp, {**INPUTS, "U": U}, {"n": 3}
    )
    np.testing.assert_allclose(lhs, np.einsum("bi,bji,bj->b", X, U, Y))
    with pytest.raises(LatexError, match="U\\^\\{\\(b\\)\\}"):
        compile_statement(r"x^\top U^{(b)\top} y = 0", table)


def test_words_entrywise_or_a_clause_the_table_names():
    from lemmacheck import Derived

    P = np.abs(RNG.normal(size=(6, 2, 2)))
    table = TABLE.extend(
        "tests (words)",
        {"P": Input("P"), r"a\ \text{small}": Derived(lambda xp, a: np.abs(a) < 1)},
    )
    inputs = {**INPUTS, "P": P}
    assert compile_property(r"P \ge 0\ \text{entrywise}", table).values(numpy_xp, inputs, {}, 0).all()
    assert not compile_property(r"P - 1 \ge 0\ \text{entrywise}", table).values(numpy_xp, inputs, {}, 0).all()
    small = compile_property(r"a\ \text{small} \implies a^2 < 1", table).values(numpy_xp, inputs, {}, 0)
    assert small.all()
    with pytest.raises(LatexError, match="name the clause"):
        compile_property(r"a\ \text{large} \implies a^2 > 1", table)


def test_compiling_a_statement_leaves_its_cached_parse_as_it_was():
    # `\forall i,j` parses as `\forall i` and a lone `j`; joining them appended `j` to the cached parse's
    # quantifier, so each compile added one more bound variable: n^k loops after k compiles, and the
    # supremum test (eleven runs of norms.s1_dominated_l1 in one process) hung in the statement check.
    from lemmacheck.latex.parse import parse
    from lemmacheck.latex.statement import compile_statement
    from lemmacheck.latex.tables import table_for
    from lemmacheck.model.claim import REGISTRY
    from lemmacheck.project.discovery import discover

    discover()
    claim = REGISTRY["norms.s1_dominated_l1"]
    before = parse(claim.statement).pretty()
    for _ in range(3):
        compile_statement(claim.statement, table_for(claim.module, claim.id))
    assert parse(claim.statement).pretty() == before


def test_an_equality_to_zero_is_settled_by_the_vanishing_rule():
    """A side that is 0 leaves the other side's rounding, at any precision, and a relative test refuses
    it (``E[a] = 0`` of a standardised law, init.s003.relu_half_needs_symmetry's condition); settled in
    high precision the residue is read as settling reads a difference: one that shrinks with the
    precision is rounding, a true difference stays."""
    exact = {k: to_mp(v) for k, v in INPUTS.items()}

    def truth_at(text):
        return lambda rtol, **reading: compile_property(text, TABLE).values(
            mpmath_xp, exact, {"n": 3}, rtol, **reading
        )

    zero = r"\|x\|_2^2 - x^\top x = 0"
    with mp_precision(60):
        plain = np.asarray(truth_at(zero)(1e-30), dtype=bool)
    assert not plain.all(), "the planted residue must be one a relative test refuses"
    assert np.asarray(settled_truth(truth_at(zero), 60), dtype=bool).all()
    off = np.asarray(settled_truth(truth_at(r"\|x\|_2^2 - 1.0001 x^\top x = 0"), 60), dtype=bool)
    assert not off.any()
