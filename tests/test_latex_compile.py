"""The statement compiler: grammar, meaning from the symbol table, errors that say where and why."""

from __future__ import annotations

import math

import numpy as np
import pytest

from lemmacheck import Function, Input, LatexError, SymbolTable
from lemmacheck.latex import compile_statement
from lemmacheck.xp import ball_xp, mp_precision, mpmath_xp, numpy_xp, to_mp

TABLE = SymbolTable(
    "tests/test_latex_compile.py",
    {
        "x": Input("x"),
        "y": Input("y"),
        r"\mathbf{A}": Input("A"),
        r"\mathbf{B}": Input("B"),
        "n": Input("n"),
        r"\mathrm{softmax}": Function(lambda xp, v: xp.softmax(v, axis=-1)),
        r"\mathrm{tr}": Function(lambda xp, M: xp.trace(M)),
    },
    euler="e",
)
RNG = np.random.default_rng(0)
X, Y = RNG.normal(size=(3, 4)), RNG.normal(size=(3, 4))
A, B = RNG.normal(size=(3, 4, 4)), RNG.normal(size=(3, 4, 4))
INPUTS = {"x": X, "y": Y, "A": A, "B": B}


def sides(text, inputs=INPUTS, dims=None, xp=numpy_xp):
    return compile_statement(text, TABLE).sides(xp, inputs, dims or {"n": 4})


def test_juxtaposition_follows_the_ranks():
    inner, outer_trace = sides(r"x^\top y = \mathrm{tr}(\mathbf{A}^\top\mathbf{B})")
    np.testing.assert_allclose(inner, np.sum(X * Y, axis=-1))
    np.testing.assert_allclose(outer_trace, np.trace(np.swapaxes(A, -1, -2) @ B, axis1=-2, axis2=-1))


def test_norms_sums_fractions_and_prefix_operators():
    lhs, rhs = sides(
        r"\|x\|_\infty + \tfrac12\|\mathbf{A}\|_{S^1} \le \sum_{i=1}^{n} x_i^2 + \log\sum_{j=1}^n e^{x_j}"
    )
    np.testing.assert_allclose(lhs, np.abs(X).max(-1) + np.linalg.svd(A, compute_uv=False).sum(-1) / 2)
    np.testing.assert_allclose(rhs, (X * X).sum(-1) + np.log(np.exp(X).sum(-1)))


def test_a_definition_after_quad_is_used():
    lhs, rhs = sides(r"p^\top y \le \|y\|_\infty \quad (p = \mathrm{softmax}(x))")
    p = np.exp(X) / np.exp(X).sum(-1, keepdims=True)
    np.testing.assert_allclose(lhs, (p * Y).sum(-1))


def test_the_same_compiled_statement_runs_on_mpmath_and_balls():
    text = r"\|x\odot y\|_2 \le \|x\|_\infty\|y\|_2"
    f64 = sides(text)
    with mp_precision(60):
        mp = sides(text, {"x": to_mp(X), "y": to_mp(Y)}, xp=mpmath_xp)
    balls = sides(text, {"x": ball_xp.asarray(X), "y": ball_xp.asarray(Y)}, xp=ball_xp)
    for a, b, c in zip(f64, mp, balls, strict=True):
        # float64 against mpmath rounded to float64: a few ulps of the float64 evaluation, nothing more
        np.testing.assert_allclose(a, [float(v) for v in b], rtol=1e-14)
        assert all(v.lower() <= w <= v.upper() for v, w in zip(c, b, strict=True))  # balls enclose


@pytest.mark.parametrize(
    ("text", "construct", "column"),
    [
        (r"\|x\|_2 \lessdot y", r"\lessdot", 9),
        (r"x \le \frac{1}{2", "end of statement", 17),
        (r"\exists x: x \le y", r"\exists", 1),
    ],
)
def test_a_parse_error_names_the_construct_and_its_column(text, construct, column):
    with pytest.raises(LatexError) as err:
        compile_statement(text, TABLE)
    assert err.value.construct == construct and err.value.column == column, str(err.value)
    assert f"column {column}" in err.value.reason


def test_an_unknown_symbol_names_the_table_to_extend():
    with pytest.raises(LatexError) as err:
        compile_statement(r"x \le \mathbf{z}", TABLE)
    assert err.value.construct == r"\mathbf{z}" and err.value.column == 7
    assert "tests/test_latex_compile.py" in err.value.reason and "add" in err.value.fix


def test_two_column_vectors_side_by_side_are_refused_not_guessed():
    with pytest.raises(LatexError, match="no transpose"):
        sides(r"x y \le 1")


def test_a_matrix_norm_without_a_declared_meaning_is_refused():
    with pytest.raises(LatexError, match="matrix_norm"):
        sides(r"\|\mathbf{A}\|_2 \le 1")
    with pytest.raises(LatexError, match="norm=fn"):
        sides(r"\|\mathbf{A}\| \le 1")
    spectral = TABLE.extend("t", norm=lambda xp, a, rank: xp.schatten_norm(a, math.inf))
    (lhs, _) = compile_statement(r"\|\mathbf{A}\| \le 1", spectral).sides(numpy_xp, INPUTS, {})
    np.testing.assert_allclose(lhs, np.linalg.norm(A, 2, axis=(-2, -1)))


def test_a_subscript_indexes_a_vectors_entries_and_a_stacks_rows():
    table = TABLE.extend("t", {"g": Input("g")})
    g = RNG.normal(size=(3, 4, 2))  # four gradients of size 2 per instance
    lhs, rhs = compile_statement(r"\sum_{i=1}^{n} g_i^\top y \le \sum_{j=1}^{n} x_j", table).sides(
        numpy_xp, {"g": g, "x": X, "y": Y[:, :2]}, {"n": 4}
    )
    np.testing.assert_allclose(lhs, np.einsum("btk,bk->b", g, Y[:, :2]))
    np.testing.assert_allclose(rhs, X.sum(-1))
    with pytest.raises(LatexError, match="outside 1..4"):
        compile_statement(r"g_5^\top y \le 1", table).sides(numpy_xp, {"g": g, "y": Y[:, :2]}, {})


def test_a_power_whose_exponent_is_an_input_is_taken_per_instance():
    table = TABLE.extend("t", {"t": Input("t"), r"\beta": Input("beta")})
    beta, t = np.array([0.5, 0.9, 0.1]), np.array([1.0, 2.5, 7.0])
    (lhs, rhs) = compile_statement(r"\beta^t \le 1", table).sides(numpy_xp, {"beta": beta, "t": t}, {})
    np.testing.assert_allclose(lhs, beta**t)


def test_a_vector_is_an_n_by_1_matrix_for_a_schatten_norm():
    lhs, mid, rhs = compile_statement(r"\|x\|_{S^\infty} = \|x\|_{S^1} = \|x\|_2", TABLE).sides(
        numpy_xp, INPUTS, {}
    )
    np.testing.assert_allclose(lhs, np.linalg.norm(X, axis=-1))
    np.testing.assert_allclose(mid, rhs)


def test_a_quotient_of_vectors_is_entrywise_only_where_the_table_says_so():
    entrywise = TABLE.extend(
        "tests/test_latex_compile.py (entrywise)", {"c": Input("c")}, elementwise_powers=True
    )
    c = RNG.normal(size=(3, 4))
    text = r"c^\top\frac{x}{y^2} = c^\top\frac{x}{y^2}"
    lhs, _ = compile_statement(text, entrywise).sides(numpy_xp, {**INPUTS, "c": c}, {"n": 4})
    np.testing.assert_allclose(lhs, np.sum(c * X / Y**2, axis=-1))
    with pytest.raises(LatexError, match="divides by a rank-1 value"):
        sides(r"\frac{x}{y} = x")
