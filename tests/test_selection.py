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


# A plain word matches a substring, so a short id also selects every id containing it (the case:
# `-k ext` picked viterbi.full_context_* beside ext.weyl); `id:` and `topic:` match a whole part.
EXACT_IDS = ["ext.weyl", "ext.weyl_dual", "viterbi.full_context_t2", "lse.bound", "lse.bound_eq3"]
EXACT_CASES = [
    ("ext", ["ext.weyl", "ext.weyl_dual", "viterbi.full_context_t2"]),
    ("id:ext.weyl", ["ext.weyl"]),
    ("ID:Ext.Weyl", ["ext.weyl"]),
    ("id:ext", []),
    ("topic:ext", ["ext.weyl", "ext.weyl_dual"]),
    ("topic:lse and not id:lse.bound", ["lse.bound_eq3"]),
    ("id:ext.weyl or id:lse.bound", ["ext.weyl", "lse.bound"]),
    ("full_context:x", []),  # an unknown prefix is an ordinary word (a substring), as in pytest
]


@pytest.mark.parametrize(("expression", "selected"), EXACT_CASES, ids=[c[0] for c in EXACT_CASES])
def test_id_and_topic_select_a_whole_id_or_its_first_part(expression, selected):
    assert select(EXACT_IDS, expression) == selected


@pytest.mark.parametrize("expression", ["id:", "topic:", "lse and topic:"])
def test_an_exact_selector_without_a_value_says_what_to_write(expression):
    with pytest.raises(SelectionError, match=r"needs a value, as in '(id:lse\.bound|topic:lse)'"):
        compile_expression(expression)
