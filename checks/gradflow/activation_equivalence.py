"""Seed 003, Question 5.1: 'Those two conditions being equivalent' (h_t = σ⁻¹(g_t) and g_{t-1} = "
"σ(h_{t-1}))."""

from checks._vocab.activations import act, dact
from checks._vocab.sources import SEED_003
from lemmacheck import Array, Source, Verdict, prop

_EQUIV = (
    "we are tempted to write \\forall t, h_t = \\sigma^{-1}(g_t) and g_{t-1} = \\sigma(h_{t-1}). Those two "
    "conditions being equivalent, setting \\forall t, g_t = \\sigma(h_t) suffices"
)
PAIRS = {"h": Array("n", low=-3.0, high=3.0), "other": Array("n", low=-3.0, high=3.0)}


def _same_image_same_point(xp, h, other, name):
    """σ(h) = σ(h') ⇒ h = h' on pairs that collide when σ is not injective (relu: two negatives; "
    "abs: ±h)."""
    if name == "relu":
        h, other = -xp.abs(h) - 1, -xp.abs(other) - 1
    elif name == "abs":
        other = -h
    same_image = xp.max(xp.abs(act(xp, name, h) - act(xp, name, other)), axis=-1) == 0
    same_point = xp.max(xp.abs(h - other), axis=-1) == 0
    return ~same_image | same_point


@prop(
    "act.s003.conditions_equivalent",
    title="'Those two conditions being equivalent': h = σ⁻¹(g) ⟺ σ(h) = g, for the activations of "
    "the question",
    source=Source(SEED_003, "Question 5, part 1", quote=_EQUIV),
    statement=r"h_t = \sigma^{-1}(g_t)\ \forall t \iff g_{t-1} = \sigma(h_{t-1})\ \forall t",
    expected=Verdict.REFUTED,
    inputs=PAIRS,
    dims={"n": [1, 2, 3], "act": ["relu", "abs"]},
    exact=True,
    same_as=("act.s003.eq21_inverse", "act.s002.inverse_step"),
    notes="The question allows any activation σ. The direction σ(h) = g ⇒ h = σ⁻¹(g) needs σ "
    "injective: for "
    "relu (two negative pre-activations) and abs (h and −h) two states give the same g, so no σ⁻¹ recovers "
    "h. Checked as injectivity on colliding pairs of relu and abs (the injective activations cannot "
    "collide; the corrected form covers them); exact because the images compared are exactly 0 (relu) or "
    "|h| (abs). Previously recorded only in the notes of act.s003.eq21_inverse. The recipe g_t = σ(h_t) "
    "itself holds (act.s003.identification). Corrected: act.s003.conditions_equivalent_injective.",
)
def conditions_equivalent_003(xp, h, other, act):
    return _same_image_same_point(xp, h, other, act)


@prop(
    "act.s003.conditions_equivalent_injective",
    title="Corrected: for an injective σ (tanh, sigmoid, softplus) the two conditions are equivalent",
    source=Source(SEED_003, "Question 5, part 1 (corrected: σ injective)", quote=_EQUIV),
    statement=r"\sigma \text{ injective}:\ h = \sigma^{-1}(g) \iff \sigma(h) = g",
    expected=Verdict.HOLDS,
    corrects="act.s003.conditions_equivalent",
    inputs={"h": Array("n", low=-3.0, high=3.0)},
    dims={"n": [1, 2, 3], "act": ["tanh", "sigmoid", "softplus"]},
    notes="Checked through the sufficient condition σ' > 0 (σ strictly increasing, hence injective), since "
    "comparing images of nearby points for equality only tests the precision of the arithmetic.",
)
def conditions_equivalent_injective_003(xp, h, act):
    return xp.min(dact(xp, act, h), axis=-1) > 0
