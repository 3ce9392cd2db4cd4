"""Seed 003, Question 1: the remark likening the schemes to Glorot initialisation; (9)-(10) as typeset."""

from fractions import Fraction

from checks._vocab.sources import S3_Q1
from checks.gradflow._notation import WEIGHT_MOMENTS
from lemmacheck import Scalar, Verdict, identity, value

#: (fan_in, fan_out) = (d^{(t-1)}, d^{(t)}) of a few layers
LAYERS = [(4, 4), (10, 5), (64, 128), (300, 100)]
SQUARE_LAYERS = [(1, 1), (4, 4), (64, 64), (300, 300)]
#: the variance σ² = 2/d^{(t-1)} of seed 003's ReLU scheme on those layers
RELU_SCHEME = [Fraction(2, fan_in) for fan_in, _ in LAYERS]
_REMARK = (
    "This kind of scheme reminds us of the Glorot initialization we already encountered in the previous "
    "homework."
)


def _glorot_variance(layers):
    """Glorot (Xavier) initialisation: Var[w] = 2/(fan_in + fan_out), for the normal and the uniform law."""
    return [Fraction(2, fan_in + fan_out) for fan_in, fan_out in layers]


def _he_variance(layers):
    """He (Kaiming): fan_in · Var[w] · E[ReLU(a)²] = 1 with E[ReLU(a)²] = 1/2 for a symmetric "
    "unit-variance a."""
    relu_second_moment = Fraction(1, 2)
    return [1 / (fan_in * relu_second_moment) for fan_in, _ in layers]


value(
    "init.s003.glorot_relu",
    computed=lambda: _glorot_variance(LAYERS),
    stated=RELU_SCHEME,
    title="Remark (c): the ReLU scheme σ² = 2/d^{(t-1)} read as Glorot's variance 2/(fan_in + fan_out)",
    source=S3_Q1.at("part 2(c)").quote(_REMARK),
    statement=r"\frac{2}{d^{(t-1)}} = \frac{2}{d^{(t-1)} + d^{(t)}}",
    expected=Verdict.REFUTED,
    notes="Our reading of 'reminds us of' (flagged): the scheme just derived is Glorot's. Glorot's "
    "variance "
    "2/(fan_in + fan_out) (uniform bound √(6/(fan_in + fan_out))) never equals the ReLU scheme's 2/fan_in "
    "(uniform bound √(6/fan_in)) for a layer with fan_out ≥ 1; on square layers it is half of it. The ReLU "
    "scheme is He (Kaiming) initialisation (init.s003.he_relu); the linear scheme of part 1 does match "
    "Glorot on square layers (init.s003.glorot_linear_square). Previously recorded only in the notes of "
    "init.s003.relu_gauss.",
)

value(
    "init.s003.he_relu",
    computed=lambda: _he_variance(LAYERS),
    stated=RELU_SCHEME,
    title="Corrected: the ReLU scheme σ² = 2/d^{(t-1)} is He (Kaiming) initialisation",
    source=S3_Q1.at("part 2(a)-(c) (corrected attribution)").quote(_REMARK),
    statement=r"\sigma^2 = \frac{2}{d^{(t-1)}} = \frac{2}{\mathrm{fan\_in}}",
    expected=Verdict.PROVED,
    corrects="init.s003.glorot_relu",
    same_as=("init.s003.relu_gauss",),
)

value(
    "init.s003.glorot_linear_square",
    computed=lambda: _glorot_variance(SQUARE_LAYERS),
    stated=[Fraction(1, fan_in) for fan_in, _ in SQUARE_LAYERS],
    title="Where the likeness holds: the linear scheme σ² = 1/d^{(t-1)} is Glorot's on square layers",
    source=S3_Q1.at("part 1(a) and part 2(c)").quote(_REMARK),
    statement=r"d^{(t)} = d^{(t-1)} \implies \frac{1}{d^{(t-1)}} = \frac{2}{d^{(t-1)} + d^{(t)}}",
    expected=Verdict.PROVED,
    same_as=("init.s003.linear_gauss",),
    notes="Glorot's compromise between forward and backward variance is 1/fan_in when fan_in = fan_out.",
)

_EQ10 = (
    "1 = \\sum_{j=1}^{d^{(t-1)}} \\mathbb{V}[w_{ij}^{(t)}] + \\mathbb{E}[w_{ij}^{(t)}]^2 = "
    "d^{(t-1)} \\left( \\mathbb{V}[w_{i1}^{(t)}] + \\mathbb{E}[w_{i1}^{(t)}]^2 \\right) (10)"
)
MOMENTS = {"var_w": Scalar(0.01, 2.0), "mean_w": Scalar(0.05, 2.0)}


@identity(
    "init.s003.eq10_as_typeset",
    title="(10) as typeset: Σ_j V[w_ij] + E[w_ij]² (mean term outside the sum) = d(V[w] + E[w]²)",
    source=S3_Q1.at("part 1, eq. (9)-(10)").quote(_EQ10),
    statement=r"\sum_{j=1}^{d}\mathbb{V}[w_{ij}] + \mathbb{E}[w_{ij}]^2 = "
    r"d\,(\mathbb{V}[w_{i1}] + \mathbb{E}[w_{i1}]^2)",
    expected=Verdict.REFUTED,
    inputs=MOMENTS,
    dims={"d": [1, 2, 3, 8]},
    notes="In (9) and (10) the term E[w_ij]² (in (9) V[h_j]E[w_ij]²) is typeset after the sum, with j "
    "free. Read that way the left side is d·V[w] + E[w]², which differs from d(V[w] + E[w]²) "
    "whenever d ≥ 2 and "
    "E[w] ≠ 0 (i.i.d. weights). Read with the term inside the sum, as the right side of (10) requires, "
    "it is init.s003.eq8_10 (holds). The schemes of (a)-(b) take E[w] = 0, where both readings "
    "agree. Previously "
    "recorded only in the notes of init.s003.eq9.",
)
def eq10_as_typeset_003(xp, var_w, mean_w, d):
    return d * var_w + mean_w**2, d * (var_w + mean_w**2)


claim_symbols = {"init.s003.eq10_as_typeset": WEIGHT_MOMENTS}
