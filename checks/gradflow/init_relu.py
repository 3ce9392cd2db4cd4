"""Seed 003, Question 1, part 2: E[ReLU(a)^2] = 1/2 for a symmetric a with V[a] = 1, the chain as written
and read with the square inside the expectation; exact on symmetric discrete laws."""

from checks._vocab.sources import S3_Q1
from checks.gradflow._helpers import expect, symmetric_law
from checks.gradflow.init import SYM_LAW, _relu
from lemmacheck import Verdict, identity

_RELU_HALF_SOURCE = S3_Q1.at("part 2").quote(
    "1 = \\mathbb{V}[a_j^{(t-1)}] &\\Leftrightarrow 1 = \\mathbb{E}[a_j^{(t-1)}]^2 - "
    "\\underbrace{\\mathbb{E}[a_j^{(t-1)}]^2}_{=0} ... \\Leftrightarrow \\frac{1}{2} = "
    "\\mathbb{E}[g(a_j^{(t-1)})^2]"
)
_RELU_HALF_LABELS = (
    "Var = E[·²] − E[·]²",
    "E[a] = 0",
    "symmetry of p",
    "(x 1_{x>0})^2 = x^2 1_{x>0}",
    "conclusion",
)


def _relu_half_chain(xp, s, p, second):
    """The chain of seed 003's 'E[ReLU(a)^2] = 1/2' on a symmetric law, its second expression given by
    ``second(values, probabilities, mean)`` (its reading)."""
    v, q = symmetric_law(xp, s, p)
    m = expect(xp, q, v)
    pos = xp.where(v > 0, 0 * v + 1, 0 * v)
    return (
        expect(xp, q, (v - m[:, None]) ** 2),
        second(v, q, m) - m * m,
        expect(xp, q, v * v),
        2 * expect(xp, q, v * v * pos),
        2 * expect(xp, q, _relu(xp, v) ** 2),
        0 * m + 1,
    )


@identity(
    "init.s003.relu_half",
    inputs=SYM_LAW,
    dims={},
    relations=("=",) * 5,
    labels=_RELU_HALF_LABELS,
    step_is={1: "init.s003.relu_var_line"},
    expected_broken_step=1,
    title="symmetric a, E[a] = 0, V[a] = 1 => E[ReLU(a)^2] = 1/2 (seed 003, part 2; E[a]^2 - E[a]^2 as "
    "written)",
    source=_RELU_HALF_SOURCE,
    statement=r"1 = \mathbb{V}[a] = \mathbb{E}[a]^2 - \mathbb{E}[a]^2 = \int x^2 p(x)\,dx = 2\int_0^\infty "
    r"x^2 p(x)\,dx = 2\int (x\mathbb{1}_{x>0})^2 p(x)\,dx,\ \text{so}\ \mathbb{E}[\mathrm{ReLU}(a)^2] = "
    r"\tfrac12",
    expected=Verdict.HOLDS,
    same_as=("init.s003.relu_half_second_moment", "init.s003.relu_var_line"),
    notes="The second expression as written, E[a]^2 - E[a]^2, is 0 whatever the law, so the chain breaks at "
    "step 1 (1 = V[a] against 0) while its ends agree: E[ReLU(a)^2] = 1/2 holds. Read as E[a^2] - E[a]^2 "
    "(a misplaced square), every link holds: init.s003.relu_half_second_moment. Exact on symmetric "
    "discrete laws with variance 1 and an optional atom at 0 (the integrals become sums; an atom at 0 "
    "contributes nothing). True for every symmetric law with V[a] = 1; symbolic integrals for the "
    "Gaussian, uniform and Laplace laws in init.s003.relu_half_families. Without symmetry it fails: "
    "init.s003.relu_half_needs_symmetry.",
)
def relu_half(xp, s, p):
    return _relu_half_chain(xp, s, p, lambda v, q, m: m * m)


@identity(
    "init.s003.relu_half_second_moment",
    inputs=SYM_LAW,
    dims={},
    relations=("=",) * 5,
    labels=_RELU_HALF_LABELS,
    proof_not_asserted="the document writes E[a]^2 - E[a]^2; this chain reads it as E[a^2] - E[a]^2 (our "
    "square moved inside). The chain as written is init.s003.relu_half, broken at step 1",
    title="symmetric a, E[a] = 0, V[a] = 1 => E[ReLU(a)^2] = 1/2 (seed 003, part 2; read as E[a^2] - E[a]^2)",
    source=_RELU_HALF_SOURCE,
    statement=r"1 = \mathbb{V}[a] = \mathbb{E}[a^2] - \mathbb{E}[a]^2 = \int x^2 p(x)\,dx = "
    r"2\int_0^\infty x^2 p(x)\,dx = 2\int (x\mathbb{1}_{x>0})^2 p(x)\,dx,\ \text{so}\ "
    r"\mathbb{E}[\mathrm{ReLU}(a)^2] = \tfrac12",
    expected=Verdict.HOLDS,
    same_as=("init.s003.relu_half",),
)
def relu_half_second_moment(xp, s, p):
    return _relu_half_chain(xp, s, p, lambda v, q, m: expect(xp, q, v * v))
