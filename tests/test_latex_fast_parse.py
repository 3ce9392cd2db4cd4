"""The LALR fast path gives Earley's tree or none: every token's type, value and position and every node's
rule and position, on the catalogue's statements, on the readings Earley resolves its own way, and on
statements generated from the grammar (a differential property test)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark, Tree

from lark_trees import difference
from lemmacheck import REGISTRY
from lemmacheck.latex import parse as parse_module
from lemmacheck.latex.fast_parse import bar_roles, fast_parse
from lemmacheck.project.discovery import discover

GRAMMAR = parse_module.GRAMMAR


def _earley(text: str) -> Tree | None:
    try:
        return parse_module._parser().parse(text, start="start")
    except Exception:
        return None


def _assert_same_or_refused(text: str) -> bool:
    """True where the fast path answered (and its tree is Earley's)."""
    fast = fast_parse(text, GRAMMAR)
    if fast is None:
        return False
    earley = _earley(text)
    assert earley is not None, f"the fast path reads {text!r}, which Earley refuses"
    assert difference(earley, fast) is None, f"{text!r}: {difference(earley, fast)}"
    return True


# Each is read by Earley its own way (or two ways at once); the fast path must answer Earley's or nothing.
EARLEY_READS_ITS_OWN_WAY = [
    r"a = \|W\|\|D\| c \|E\|",  # the last two norms nested
    r"|a|b|c| = 1",  # not nested
    r"a = \|W\|\|D\sigma(h)\|\cdots\|W\|\|D\sigma(g)\|",
    r"\nabla_V f_t = 1",  # _t on the gradient, not on f
    r"\begin{aligned}\nabla0''&=0\end{aligned}",  # one prime each
    r"\mathbb{E}[x]^2 = 1",
    r"0\text{and}\quad0",  # \text{and} qualifying the 0, then \quad joining
    r"a\text{and}a\text{and}\text{and}",  # \text{and} joining, then qualifying the a, then prose
    r"\text{}\quad0\text{and}\text{}",
    r"\forall\emptyset,A:0",  # a list of two bound variables
    r"\mathbf A_{ij} \ge 0\ \forall i,j \Rightarrow a = 1",
    r"x^23 = 1",  # a DIGIT exponent, then a NUMBER
    r"\sum_{t=1}^T a_t = 1",  # '=' of the bound, '=' of the relation
    r"\|x\|_2 \le \|\,\|y\|_1\|_2",
    # scripts after a gradient's operand: "the last to the gradient, the others to the operand" is not
    # Earley's rule (a branch that read them so gave another tree for 464 of 798 such texts)
    r"\begin{aligned}\nabla\infty''''&\le0\end{aligned}",
    r"\nabla\theta'''_t\le0",
    r"\nabla_V\theta_t'''\le0",
    r"\nabla\mathbb{E}[a]^2'''\le0",
]


@pytest.mark.parametrize("text", EARLEY_READS_ITS_OWN_WAY)
def test_where_earley_resolves_an_ambiguity_the_fast_path_gives_its_tree_or_none(text):
    _assert_same_or_refused(text)
    assert difference(_earley(text), parse_module._parse(text, "start")) is None


def test_the_fast_path_reads_the_plain_statements():
    plain = [
        r"\|x\|_2^2 \le \sum_i |x_i|\,\|x\|_\infty",
        r"f(x) = \frac12 x^\top A x + b^\top x,\quad A = A^\top",
    ]
    assert all(_assert_same_or_refused(text) for text in plain)
    # the same statement with a space inside its separator is refused by Earley, and so never read here
    assert fast_parse(plain[1].replace(",\\quad", ", \\quad"), GRAMMAR) is None
    assert _earley(plain[1].replace(",\\quad", ", \\quad")) is None


def test_a_bar_that_could_open_or_close_is_left_to_earley():
    assert bar_roles(r"|a|b|c|") is None
    assert bar_roles(r"\|x\|_2\|y\|_2") == {0: True, 3: False, 7: True, 10: False}


@pytest.mark.slow
def test_every_catalogue_statement_has_earleys_tree():
    discover()
    texts = sorted({REGISTRY[i].statement for i in REGISTRY.ids()})
    answered = sum(_assert_same_or_refused(text) for text in texts)
    assert answered > len(texts) // 2, f"the fast path answered {answered} of {len(texts)} statements"


_GENERATOR = Lark(GRAMMAR.read_text(encoding="utf-8"), parser="earley", lexer="dynamic", start="start")


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(from_lark(_GENERATOR, start="start"))
def test_whenever_the_fast_path_answers_its_tree_is_earleys(text):
    _assert_same_or_refused(text)


# Statements composed of the constructs where Earley's tie-breaks live (bars, scripts, gradients,
# expectations, bounds, separators): from_lark rarely draws a bar pair or a '\text{and}'.
_ATOM = st.sampled_from(["a", "b", "x", "W", "1", "2", r"\sigma", r"\infty", r"\mathbf{x}", r"\Delta x"])
_JUXTAPOSED = st.sampled_from(["", " ", r"\,", r"\cdot ", r"\odot ", "/", "+", " - "])
_SCRIPT = st.sampled_from(["_2", "^2", "'", "_t", "^\\top", "_{S^1}", "^*", "^+", "_\\infty"])


# '@' is where the inner expression goes (twice: two expressions drawn apart)
_AROUND = ["|@|", r"\|@\|", r"\left|@\right|", "(@)", "[@]", r"\mathbb{E}[@]", r"\nabla_x @"]
_AROUND += [r"\sum_{t=1}^T @", r"\log @", "-@", r"\frac{@}{@}", r"\langle @, @\rangle", "(@, @)"]


def _filled(template: str, inner):
    parts = template.split("@")
    drawn = st.tuples(*[inner] * (len(parts) - 1))
    return drawn.map(lambda es: parts[0] + "".join(e + rest for e, rest in zip(es, parts[1:], strict=True)))


def _wrapped(inner):
    return st.one_of(
        *[_filled(t, inner) for t in _AROUND],
        st.tuples(inner, _SCRIPT).map("".join),
        st.tuples(inner, _JUXTAPOSED, inner).map("".join),
    )


_EXPR = st.recursive(_ATOM, _wrapped, max_leaves=8)
_CHAIN = st.tuples(_EXPR, st.sampled_from([" = ", r" \le ", " < "]), _EXPR).map("".join)
_SEPARATOR = st.sampled_from([r",\quad ", ", ", r", \quad ", r"\ \text{and}\ ", r" \implies ", r" \lor "])
_JOINED = st.tuples(_CHAIN, _SEPARATOR, _CHAIN).map("".join)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.one_of(_CHAIN, _JOINED))
def test_whenever_the_fast_path_reads_a_composed_statement_its_tree_is_earleys(text):
    _assert_same_or_refused(text)
