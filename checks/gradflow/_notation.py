r"""Seeds 002–004's notation for gradient flow: ``\|A\|`` without an index is the spectral (operator) norm,
as seed 004 defines it (``\|A\| = \sqrt{\lambda_1(A^\top A)}``); ``\lambda_1`` is the largest eigenvalue of a
symmetric matrix; ``A^T`` of a matrix is its transpose (``\gamma^T`` of a number stays a power).

``\sigma`` is the claim's activation (its dim ``act``) and ``\gamma`` its ``sup|σ'|`` (tanh 1, sigmoid ¼,
…), as seeds 002–004 define it; a claim that samples γ itself (``vanish.s002.delta_subst``) reads its input
``gamma``.  ``\sigma'(h_t)`` is σ' at a claim's input ``h`` (``vanish.s003.diag_norm`` samples h_t so);
``\mathrm{diag}(\gamma)`` is γ on the diagonal of an n × n matrix.
"""

from __future__ import annotations

from checks._vocab.activations import SUP_D1, dact
from checks._vocab.notation import spectral
from checks._vocab.notation import symbols as shared
from lemmacheck import Derived, Function


def _top_eigenvalue(xp, S):
    return xp.eigvalsh(S)[..., -1]


def _batch_of(inputs: dict) -> int:
    return len(next(iter(inputs.values())))


def _gamma(xp, act=None, **inputs):
    """sup|σ'| of the claim's activation, one per instance; the claim's own ``gamma`` where it samples one."""
    if "gamma" in inputs:
        return inputs["gamma"]
    if act is None:
        raise TypeError("γ is sup|σ'| of the activation; this claim has neither a dim act nor an input gamma")
    return xp.zeros(_batch_of(inputs)) + SUP_D1[act]


def _dact_h(xp, h, act):
    return dact(xp, act, h)


def _diag_dact_h_squared(xp, h, act):
    d = dact(xp, act, h)
    return xp.diag_embed(d * d)


def _diag_gamma_squared(xp, n, act=None, **inputs):
    g = _gamma(xp, act, **inputs)
    return g[:, None, None] ** 2 * xp.eye(n)


symbols = shared.extend(
    "checks/gradflow/_notation.py",
    {
        r"\lambda_1": Function(_top_eigenvalue, doc="the largest eigenvalue of a symmetric matrix"),
        r"\gamma": Derived(_gamma, doc="sup|σ'| of the claim's activation, or its input gamma"),
        r"\sigma'(h_t)": Derived(_dact_h, doc="σ' of the claim's activation at its input h"),
        r"\mathrm{diag}(\sigma'(h_t))^2": Derived(_diag_dact_h_squared, doc="diag(σ'(h))², h the input"),
        r"\mathrm{diag}(\gamma)^2": Derived(_diag_gamma_squared, doc="γ² on the diagonal of an n × n matrix"),
    },
    norm=spectral,
    transpose_letters=("T",),
)
