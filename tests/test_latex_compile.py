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


def _table_with(phrases):
    from lemmacheck import Derived

    return TABLE.extend("tests/test_latex_compile.py (phrases)", {k: Derived(f) for k, f in phrases.items()})


def test_a_derivative_an_expectation_an_elision_and_a_mark_are_phrases_the_table_names():
    table = _table_with(
        {
            r"\frac{\partial y}{\partial x}": lambda xp, x: 2 * x,
            r"\mathbb{V}[x]": lambda xp, x: xp.ones(x.shape[0]),
            r"\mathbb{E}_R\|x\|_2^2": lambda xp, x: xp.sum(x * x, axis=-1),
            r"x_1\cdots x_n": lambda xp, x: xp.prod(x, axis=-1),
            r"\mathbf{A}^*": lambda xp, A: A,
        }
    )
    text = (
        r"x^\top\frac{\partial y}{\partial x} + \mathbb{V}[x] = 2\|x\|_2^2 + 1"
        r" + \mathbb{E}_R\|x\|_2^2 - \|x\|_2^2"
    )
    lhs, rhs = compile_statement(text, table).sides(numpy_xp, INPUTS, {"n": 4})
    np.testing.assert_allclose(lhs, rhs)
    (p, q) = compile_statement(
        r"x_1\cdots x_n = \mathrm{tr}(\mathbf{A}^*) - \mathrm{tr}(\mathbf{A}) + x_1\cdots x_n", table
    ).sides(numpy_xp, INPUTS, {"n": 4})
    np.testing.assert_allclose(p, q)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (r"\frac{\partial y}{\partial x} = x", "a derivative the table does not name"),
        (r"\mathbb{V}[x] = 1", "an expectation or variance"),
        (r"x_1\cdots x_n = 1", "an elision"),
    ],
)
def test_a_phrase_the_table_does_not_name_says_so_and_what_to_add(text, why):
    with pytest.raises(LatexError) as err:
        compile_statement(text, TABLE).sides(numpy_xp, INPUTS, {"n": 4})
    assert why in str(err.value) and "tests/test_latex_compile.py" in str(err.value)


def test_braces_lesssim_and_assignment():
    a, b = sides(r"\{x^\top y\} \lesssim \|x\|_2\|y\|_2")
    assert compile_statement(r"x^\top y \lesssim \|x\|_2\|y\|_2", TABLE).relations == ("<=",)
    assert compile_statement(r"n \leftarrow x^\top y", TABLE).relations == ("=",)
    np.testing.assert_allclose(a, (X * Y).sum(-1))


def test_a_function_reads_the_claims_dims_by_keyword():
    def act(xp, v, *, act):
        return xp.tanh(v) if act == "tanh" else v

    table = TABLE.extend("tests (act)", {r"\sigma": Function(act)})
    (lhs, _) = compile_statement(r"\sigma(x)^\top y = 0", table).sides(
        numpy_xp, INPUTS, {"n": 4, "act": "tanh"}
    )
    np.testing.assert_allclose(lhs, (np.tanh(X) * Y).sum(-1))


def test_a_derived_takes_the_bound_index_and_one_that_ignores_it_is_refused():
    from lemmacheck import Derived

    table = TABLE.extend(
        "tests (bound)",
        {"a_t": Derived(lambda xp, x, t: x[:, t - 1] ** 2), "b_t": Derived(lambda xp, x: x[:, 0])},
    )
    (lhs, rhs) = compile_statement(r"\sum_{t=1}^{n} a_t = x^\top x", table).sides(numpy_xp, INPUTS, {"n": 4})
    np.testing.assert_allclose(lhs, rhs)
    with pytest.raises(LatexError, match="mentions t, bound around it"):
        compile_statement(r"\sum_{t=1}^{n} b_t = 1", table).sides(numpy_xp, INPUTS, {"n": 4})


def test_a_probe_function_compares_matrix_sides_as_the_check_does():
    table = TABLE.extend(
        "tests (probe)", probe_fn=lambda xp, M, inputs: xp.sum(M * inputs["B"], axis=(-2, -1))
    )
    lhs, rhs = compile_statement(r"\mathbf{A}^\top = \mathbf{A}", table).sides(numpy_xp, INPUTS, {"n": 4})
    np.testing.assert_allclose(lhs, (np.swapaxes(A, -1, -2) * B).sum((-2, -1)))
    np.testing.assert_allclose(rhs, (A * B).sum((-2, -1)))


def test_a_schatten_index_below_one_is_the_quasi_norm():
    table = TABLE.extend("tests (r)", {"r": Input("r")})
    (lhs, _) = compile_statement(r"\|\mathbf{A}\|_{S^r} = 0", table).sides(
        numpy_xp, INPUTS, {"n": 4, "r": 0.5}
    )
    s = np.linalg.svd(A, compute_uv=False)
    np.testing.assert_allclose(lhs, (np.sqrt(s).sum(-1)) ** 2)
    with pytest.raises(LatexError, match="norm index"):
        compile_statement(r"\|x\|_r = 0", table).sides(numpy_xp, INPUTS, {"n": 4, "r": 0.5})


def test_glued_slices_stars_and_scripted_font_arguments_are_phrases_the_table_names():
    from lemmacheck import Derived

    table = _table_with(
        {
            r"\|\mathbf{A}_{2:,:,q}\|_{S^1}": lambda xp, A: xp.schatten_norm(A, 1),
            r"\mathbf{x_t}": lambda xp, x: x,
        }
    ).extend("tests (row)", {"r": Input("y", row=True), "v": Derived(lambda xp, x: x, row=True)})
    lhs, rhs = compile_statement(
        r"\|\mathbf{A}_{2:,:,q}\|_{S^1} + r\mathbf{x_t} = \|\mathbf{A}\|_{S^1} + v y", table
    ).sides(numpy_xp, INPUTS, {"n": 4})
    np.testing.assert_allclose(lhs, rhs)
    with pytest.raises(LatexError, match="only a phrase of the table names"):
        compile_statement(r"\|\mathbf{A}_{:,*}\|_2 = 1", table)


def test_with_joins_a_statement_to_its_definitions():
    (lhs, rhs) = sides(r"x^\top y = n\,z\ \text{with}\ z = \tfrac{1}{n} x^\top y")
    np.testing.assert_allclose(lhs, rhs)


def test_a_phrase_that_starts_at_a_prefix_operator():
    table = _table_with({r"\max_j x_j^2": lambda xp, x: xp.max(x * x, axis=-1)})
    (lhs, _) = compile_statement(r"\max_j x_j^2\,y^\top x = 0", table).sides(numpy_xp, INPUTS, {"n": 4})
    np.testing.assert_allclose(lhs, (X * X).max(-1) * (X * Y).sum(-1))


def test_how_odot_binds_before_more_factors_is_the_tables_to_say():
    text = r"\mathrm{tr}(\mathbf{A}\odot\mathbf{B}\mathbf{A}) = 0"
    with pytest.raises(LatexError, match="odot_binds"):
        compile_statement(text, TABLE)
    tight = compile_statement(text, TABLE.extend("t", odot_binds="tight")).sides(numpy_xp, INPUTS, {"n": 4})
    loose = compile_statement(text, TABLE.extend("t", odot_binds="loose")).sides(numpy_xp, INPUTS, {"n": 4})
    np.testing.assert_allclose(tight[0], np.trace((A * B) @ A, axis1=-2, axis2=-1))
    np.testing.assert_allclose(loose[0], np.trace(A * (B @ A), axis1=-2, axis2=-1))


def test_argmax_over_an_index_range_is_the_first_best_index():
    (best, _) = sides(r"\arg\max_{j=1}^{n} x_j = 0")
    np.testing.assert_allclose(best, X.argmax(-1) + 1)
    (worst, _) = sides(r"\arg\min_{j=1}^{n} x_j = 0")
    np.testing.assert_allclose(worst, X.argmin(-1) + 1)


def test_a_range_of_indices_is_a_phrase_the_table_names():
    table = _table_with({r"\max_{\mathbf{x}_{1:n}}p(\mathbf{x}_{1:n})": lambda xp, x: xp.max(x, axis=-1)})
    (lhs, _) = compile_statement(r"\max_{\mathbf{x}_{1:n}} p(\mathbf{x}_{1:n}) = 0", table).sides(
        numpy_xp, INPUTS, {"n": 4}
    )
    np.testing.assert_allclose(lhs, X.max(-1))
    with pytest.raises(LatexError, match=r"add .\\\\mathbf\{x\}_\{1:n\}. to t"):
        compile_statement(
            r"p(\mathbf{x}_{1:n}) = 0", TABLE.extend("t", {"p": Function(lambda xp, v: v)})
        ).sides(numpy_xp, INPUTS, {"n": 4})


def test_an_index_range_the_table_gives_as_a_number_counts_that_many_terms():
    table = TABLE.extend("tests (count)", indices={"j": 3, "i": "n"})
    (three, four) = compile_statement(r"\sum_j x_j = \sum_i x_i", table).sides(numpy_xp, INPUTS, {"n": 4})
    np.testing.assert_allclose(three, X[:, :3].sum(-1))
    np.testing.assert_allclose(four, X.sum(-1))
    assert not np.allclose(three, four)  # the count is the table's 3, not the dim n = 4


def test_a_gradient_of_a_sum_is_a_phrase_the_table_names_or_is_refused_with_its_column():
    text = r"\nabla_x\sum_{j=1}^{n} x_j^2 = 2x^\top y"
    with pytest.raises(LatexError, match="column 1: \\\\nabla of something the table gives no gradient for"):
        compile_statement(text, TABLE).sides(numpy_xp, INPUTS, {"n": 4})
    table = _table_with({r"\nabla_x\sum_{j=1}^{n}x_j^2": lambda xp, x: 2 * x})
    (lhs, rhs) = compile_statement(r"y^\top\nabla_x\sum_{j=1}^{n} x_j^2 = 2x^\top y", table).sides(
        numpy_xp, INPUTS, {"n": 4}
    )
    np.testing.assert_allclose(lhs, rhs)
