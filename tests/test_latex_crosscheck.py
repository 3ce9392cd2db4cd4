"""statement_check: a statement and its check compared on the same instances.

Each drift is planted in the LaTeX only (the check stays the correct one), the way a statement and its
check drift apart in the catalogue: every one must be reported ``differs``, with the instance and both
values settled in high precision; the faithful statement ``agrees``, also where the check moved terms
across or scaled both sides.
"""

from __future__ import annotations

import math

import pytest

from lemmacheck import REGISTRY, Array, Function, Input, SymbolTable, Verdict, identity, inequality
from lemmacheck.latex.crosscheck import same_relation, statement_check
from lemmacheck.xp import numpy_xp


def _lse(xp, v):
    return xp.logsumexp(v, axis=-1)


def _softmax(xp, v):
    return xp.softmax(v, axis=-1)


symbols = SymbolTable(
    "tests/test_latex_crosscheck.py",
    {
        r"\mathbf{x}": Input("x"),
        r"\Delta\mathbf{x}": Input("dx"),
        r"\mathbf{A}": Input("A"),
        r"\mathbf{B}": Input("B"),
        "h": Function(_lse, grad=_softmax),
        r"\mathrm{tr}": Function(lambda xp, M: xp.trace(M)),
    },
)

LSE = (
    r"h(\mathbf{x}+\Delta\mathbf{x}) \le h(\mathbf{x}) + \langle\nabla h(\mathbf{x}),\Delta\mathbf{x}\rangle"
    r" + \frac12\|\Delta\mathbf{x}\|_\infty^2"
)
TRACE = r"\mathrm{tr}(\mathbf{A}^\top\mathbf{B}) \le \|\mathbf{A}\|_{S^1}\|\mathbf{B}\|_{S^\infty}"

DRIFTS = {
    "factor": (LSE, r"\frac12", r"\frac14"),
    "exponent": (LSE, r"\|_\infty^2", r"\|_\infty^3"),
    "norm index": (LSE, r"\|_\infty^2", r"\|_2^2"),
    "sign": (LSE, r"+ \langle", r"- \langle"),
    "missing term": (LSE, r" + \frac12\|\Delta\mathbf{x}\|_\infty^2", ""),
    "transpose": (TRACE, r"\mathbf{A}^\top\mathbf{B}", r"\mathbf{A}\mathbf{B}"),
}


def _declare(statement: str, which: str, *, scaled: bool = False):
    """A claim whose check is the correct one (remainder form for the bound) and whose statement is given."""
    if which == "lse":

        @inequality(
            "planted.lse",
            title="t",
            source=_SOURCE,
            statement=statement,
            expected=Verdict.HOLDS,
            inputs={"x": Array("n"), "dx": Array("n")},
            dims={"n": [1, 2, 3, 5]},
        )
        def check(xp, x, dx):
            remainder = _lse(xp, x + dx) - _lse(xp, x) - xp.sum(_softmax(xp, x) * dx, axis=-1)
            bound = xp.max(xp.abs(dx), axis=-1) ** 2 / 2
            return (2 * remainder, 2 * bound) if scaled else (remainder, bound)

    else:

        @inequality(
            "planted.trace",
            title="t",
            source=_SOURCE,
            statement=statement,
            expected=Verdict.HOLDS,
            inputs={"A": Array("n", "n"), "B": Array("n", "n")},
            dims={"n": [1, 2, 3]},
        )
        def check(xp, A, B):
            return xp.trace(xp.transpose(A) @ B), xp.schatten_norm(A, 1) * xp.schatten_norm(B, math.inf)

    return REGISTRY["planted." + which]


from lemmacheck import Source  # noqa: E402  (after the helpers that name it)

_SOURCE = Source.project("planted statement drifts")


@pytest.fixture
def scratch():
    with REGISTRY.scratch():
        yield


def test_the_faithful_statements_agree(scratch):
    for statement, which in ((LSE, "lse"), (TRACE, "trace")):
        sc = statement_check(_declare(statement, which), {}, seed=7)
        assert sc["status"] == "agrees", sc
        assert sc["instances"] >= 12


def test_a_check_that_moves_terms_and_scales_both_sides_agrees_once_it_declares_the_factor(
    scratch, monkeypatch
):
    claim = _declare(LSE, "lse", scaled=True)
    assert statement_check(claim, {}, seed=7)["status"] == "differs"  # undeclared: not the same margins
    monkeypatch.setitem(globals(), "statement_scaled_by", {"planted.lse": "2"})
    assert statement_check(claim, {}, seed=7)["status"] == "agrees"
    monkeypatch.setitem(globals(), "statement_scaled_by", {"planted.lse": "4"})  # a wrong factor
    assert statement_check(claim, {}, seed=7)["status"] == "differs"


@pytest.mark.parametrize("drift", list(DRIFTS))
def test_each_drift_planted_in_the_latex_differs(scratch, drift):
    base, old, new = DRIFTS[drift]
    assert old in base
    claim = _declare(base.replace(old, new, 1), "lse" if base is LSE else "trace")
    sc = statement_check(claim, {}, seed=7)
    assert sc["status"] == "differs", (drift, sc)
    assert sc["digits"] >= 50 and sc["instance"]["inputs"], sc
    assert len(sc["statement"]) == 2 and len(sc["check"]) == 2


def test_a_quarter_never_passes_for_a_half_because_both_hold():
    # remainder 0.1, bound ||d||^2 = 1: 0.1 <= 1/2 and 0.1 <= 1/4 both hold, yet they differ
    assert not same_relation((0.1, 0.25), (0.1, 0.5), ("<=", "<="), 1e-9)
    assert same_relation((0.1, 0.5), (0.2, 1.0), ("<=", "<="), 1e-9)  # both sides scaled by 2
    assert same_relation((0.6, 0.5 + 0.5), (0.1, 0.5), ("<=", "<="), 1e-9)  # a term moved across


def _on_x(claim_id: str, statement: str, fn, relations=("=",), x=None, n=(2, 3, 8)):
    """An identity on one vector x (``Array("n")`` unless given) whose check is ``fn`` and whose statement
    is given."""
    identity(
        claim_id,
        title="t",
        source=_SOURCE,
        statement=statement,
        expected=Verdict.HOLDS,
        inputs={"x": x or Array("n")},
        dims={"n": list(n)},
        relations=relations,
    )(fn)
    return REGISTRY[claim_id]


def test_an_identity_differing_only_by_rounding_agrees(scratch):
    def gram(xp, x):
        return xp.sum(x * x, axis=-1), xp.vector_norm(x, 2) ** 2  # rounds differently from x^T x

    statement = r"\|\mathbf{x}\|_2^2 = \mathbf{x}^\top\mathbf{x}"
    claim = _on_x("planted.gram", statement, gram, x=Array("n", scale=(1e-3, 1e3)), n=(1, 3, 8, 16))
    assert statement_check(claim, {}, seed=3)["status"] == "agrees"


def test_the_adversarial_instances_push_the_two_apart_and_stay_in_range(scratch):
    import numpy as np

    from lemmacheck.latex.adversarial import harder_instances
    from lemmacheck.latex.crosscheck import _sides, compiled_for
    from lemmacheck.latex.instances import check_instances as _instances
    from lemmacheck.latex.relation import mismatch

    claim = _declare(LSE.replace(r"\frac12", r"\frac14", 1), "lse")
    compiled = compiled_for(claim)
    sampled = _instances(claim, claim.check, {}, seed=7)
    pairs = [((0, 1), (0, 1), ("<=", "<="))]

    def sides(xp, inputs, dims):
        return _sides(claim, compiled, xp, inputs, dims)

    def worst(instances):
        out = []
        for dims, inputs in instances:
            w, c = sides(numpy_xp, inputs, dims)
            out.append(
                max(mismatch((w[0][b], w[1][b]), (c[0][b], c[1][b]), pairs[0][2]) for b in range(len(w[0])))
            )
        return out

    harder = harder_instances(claim, sampled, sides, pairs, seed=7)
    assert len(harder) == len(sampled)
    assert all(h >= s for h, s in zip(worst(harder), worst(sampled), strict=True))
    assert all(np.all(np.isfinite(v)) for _, inst in harder for v in inst.values())


def test_sides_that_are_both_zero_up_to_a_residue_of_rounding_agree(scratch):
    # the check takes exp(log(x^2)): its zero is a residue of 1e-16 in float64, of 1e-60 at 60
    # digits, of 1e-120 at 120; a residue that shrinks with the precision is rounding, not a difference
    def cancel(xp, x):
        return xp.sum(xp.exp(xp.log(x * x)), axis=-1) - xp.sum(x * x, axis=-1), 0.0

    statement = r"\mathbf{x}^\top\mathbf{x} - \mathbf{x}^\top\mathbf{x} = 0"
    sc = statement_check(_on_x("planted.cancel", statement, cancel, n=(3, 5)), {}, seed=3)
    assert sc["status"] == "agrees", sc


def _gram(statement: str):
    return _on_x(
        "planted.gram_eq", statement, lambda xp, x: (xp.sum(x * x, axis=-1), xp.vector_norm(x, 2) ** 2)
    )


def test_a_true_identity_never_passes_for_another_true_identity(scratch):
    # both margins are 0 wherever both hold: found by an author whose 'T = T' agreed with a Viterbi check
    unrelated = statement_check(_gram(r"h(\mathbf{x}) = h(\mathbf{x})"), {}, seed=3)
    assert unrelated["status"] == "differs", unrelated
    assert unrelated["digits"] >= 50 and unrelated["instance"]["inputs"], unrelated


def test_an_identity_written_the_other_way_round_agrees(scratch):
    sc = statement_check(_gram(r"\|\mathbf{x}\|_2^2 = \mathbf{x}^\top\mathbf{x}"), {}, seed=3)
    assert sc["status"] == "agrees", sc


def _shifted(xp, x):
    # the check subtracts h(x) from every member, as the Lemma chains subtract f_t
    lse, sq = _lse(xp, x), xp.sum(x * x, axis=-1)
    return sq, xp.vector_norm(x, 2) ** 2, sq + lse - lse


def _shifted_chain(statement: str):
    return _on_x("planted.shifted", statement, _shifted, relations=("=", "="))


def test_a_chain_moved_by_one_common_term_agrees_and_a_member_that_drifts_differs(scratch):
    faithful = r"h(\mathbf{x}) + \mathbf{x}^\top\mathbf{x} = h(\mathbf{x}) + \|\mathbf{x}\|_2^2 = "
    faithful += r"\|\mathbf{x}\|_2^2 + h(\mathbf{x})"
    assert statement_check(_shifted_chain(faithful), {}, seed=3)["status"] == "agrees"
    with REGISTRY.scratch():
        drifted = faithful.replace(r"= \|\mathbf{x}\|_2^2 + h", r"= 2\|\mathbf{x}\|_2^2 + h", 1)
        assert drifted != faithful
        sc = statement_check(_shifted_chain(drifted), {}, seed=3)
        assert sc["status"] == "differs", sc
