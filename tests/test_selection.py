"""``-k`` follows pytest's grammar: checked against pytest's own parser on a table of expressions."""

from __future__ import annotations

import pytest

from lemmacheck.project.selection import SelectionError, compile_expression, matches, select

IDS = [
    "lse.bound",
    "lse.hessian_inf_bound",
    "schatten.hadamard",
    "rnn.grad_norm",
    "rnn.LSE_like",
    "sigma.max",
]

# (expression, the ids it selects)
CASES = [
    ("lse", ["lse.bound", "lse.hessian_inf_bound", "rnn.LSE_like"]),
    ("LSE", ["lse.bound", "lse.hessian_inf_bound", "rnn.LSE_like"]),
    ("lse and not hessian", ["lse.bound", "rnn.LSE_like"]),
    ("lse and not (hessian or rnn)", ["lse.bound"]),
    ("hadamard or sigma", ["schatten.hadamard", "sigma.max"]),
    ("not lse", ["schatten.hadamard", "rnn.grad_norm", "sigma.max"]),
    ("not not lse.bound", ["lse.bound"]),
    ("(rnn)", ["rnn.grad_norm", "rnn.LSE_like"]),
    ("rnn and grad or max", ["rnn.grad_norm", "sigma.max"]),
    ("rnn and (grad or max)", ["rnn.grad_norm"]),
    ("nomatch", []),
    ("schatten.hadamard", ["schatten.hadamard"]),
]
BAD = ["lse hessian", "lse and", "(lse", "lse)", "not", "and lse", "lse & bound", "lse or or x"]


@pytest.mark.parametrize(("expression", "selected"), CASES, ids=[c[0] for c in CASES])
def test_selection_table(expression, selected):
    assert select(IDS, expression) == selected


@pytest.mark.parametrize(("expression", "selected"), CASES, ids=[c[0] for c in CASES])
def test_agrees_with_pytests_own_parser(expression, selected):
    expr_mod = pytest.importorskip("_pytest.mark.expression")
    compiled = expr_mod.Expression.compile(expression)
    for claim_id in IDS:
        ours = matches(expression, claim_id)

        def matcher(word, /, claim_id=claim_id, **kwargs):
            return word.lower() in claim_id.lower()

        assert ours == compiled.evaluate(matcher), (expression, claim_id)


@pytest.mark.parametrize("expression", BAD)
def test_malformed_expression_is_a_clear_error_like_pytests(expression):
    with pytest.raises(SelectionError, match="column"):
        compile_expression(expression)
    expr_mod = pytest.importorskip("_pytest.mark.expression")
    with pytest.raises(SyntaxError):
        expr_mod.Expression.compile(expression)


@pytest.mark.parametrize("expression", ["", None, "   "])
def test_empty_expression_selects_everything(expression):
    assert select(IDS, expression) == IDS


def test_select_takes_objects_with_an_id():
    class C:
        def __init__(self, id):
            self.id = id

    claims = [C(i) for i in IDS]
    assert [c.id for c in select(claims, "sigma")] == ["sigma.max"]
