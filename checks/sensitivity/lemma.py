r"""Seed 001 §B: Lemma 3 (the derivative of λ'_t), eq. (19)–(20).  Eq. (17), (18), (28), (31) are in
``lemma3_parts`` (one table for U and W); eq. (29), (30) and Lemma 4 in ``lemma_w``.

The question the issue asks — "which time index, t or t−1, must the sensitivity carry?" — is answered
by ``lemma3.eq19``/``lemma3.corrected``: ∂λ'_{t,q}/∂Φ = (λ''_q/λ'_q)·∂s_{t,q}/∂Φ, i.e. Q_t (P_t), not
Q_{t−1} (P_{t−1}).  Eq. (17), (18), (20), (28), (31) and both Lipschitz constants use t−1.
Throughout, ``D`` is the step ΔU (or ΔW) and ``v`` the row V_p.
"""

from checks._vocab.activations import curvature_ratio
from checks._vocab.linalg import frob, inf_norm, s1, sinf
from checks._vocab.sources import S1_B1
from checks.sensitivity._helpers import (
    FD_PROBED,
    FD_TOL,
    SENS_RNN_DIMS,
    forward_sensitivities,
    sens_rnn_inputs,
    tangents,
    true_dlam,
)
from checks.sensitivity._notation import EQ19_PROBED, EQ20_ROW_ONE, by_direction
from lemmacheck import Verdict, identity, inequality

#: each statement read with the table of its direction (checks/sensitivity/_notation.py)
claim_symbols = by_direction(u=("lemma3.as_written", "lemma3.corrected"))
#: eq. (20)'s free row p is its checks' first row
claim_symbols |= {"lemma3.eq20": EQ20_ROW_ONE, "lemma3.eq20.corrected": EQ20_ROW_ONE}
#: eq. (19)'s sides are 3-tensors, named through the check's probe B
claim_symbols["lemma3.eq19"] = EQ19_PROBED


def _lam(xp, U, W, s0, X, act, T, dU, dW, tensors):
    """The forward pass with the sensitivity tensors ``tensors`` ("P", "Q"), the tangents ṡ and λ̇ along
    (ΔU, ΔW) (not those of the tensors: no caller reads them) and σ''/σ' at z_t."""
    fw = forward_sensitivities(xp, U, W, s0, X, act, tensors=tensors)
    tg = tangents(xp, U, W, s0, X, act, dU, dW, fw, tensors="")
    ratio = curvature_ratio(xp, fw["pre"][T - 1], act)
    return fw, tg, ratio


# --------------------------------------------------------------------------- Lemma 3 and eq. (19)–(20)

_L3_QUOTE = "Lemma 3 ||d/d_t λ'_t||_∞ ≤ max_q(λ'_{t_q}^{−1} λ''_{t_q} ||Q_{t:,:,q}||_{S1})"
#: Lemma 3, as written and corrected, along a step ΔU = D
_LEMMA3 = dict(inputs=sens_rnn_inputs(direction="U"), dims=SENS_RNN_DIMS)


@inequality(
    "lemma3.as_written",
    uses=("lemma3.eq19",),
    title="Lemma 3 as written: ‖dλ'_t/dt‖_∞ ≤ max_q(λ'^{-1}_{t,q}λ''_{t,q}‖Q_{t,:,:,q}‖_{S¹})",
    source=S1_B1.at("Lemma 3").quote(_L3_QUOTE),
    statement=r"\|\tfrac{d}{d_t}\lambda_t'\|_\infty \le \max_q(\lambda_{t_q}'^{-1}\lambda_{t_q}''\|"
    r"\mathbf{Q}_{t:,:,q}\|_{S^1})",
    expected=Verdict.REFUTED,
    **_LEMMA3,
    notes="Two defects: the factor ‖ΔU‖_{S∞} is missing (d/dt λ'_t is linear in ΔU, so the claim fails as "
    "soon as ΔU is scaled up), and the ratio λ''/λ' is signed (negative for tanh at z > 0, for sigmoid at "
    "z > 0), so the right side can be negative. The time index t is right (lemma3.eq19). Corrected: "
    "lemma3.corrected.",
)
def lemma3_as_written(xp, U, W, s0, X, D, act, T):
    fw, tg, ratio = _lam(xp, U, W, s0, X, act, T, D, 0 * W, "Q")
    return inf_norm(xp, tg["lamdot"][T]), xp.max(ratio * s1(xp, fw["Q"][T]), axis=-1)


@inequality(
    "lemma3.corrected",
    title="Lemma 3 corrected: ‖dλ'_t/dt‖_∞ ≤ max_q(|λ''_{t,q}/λ'_{t,q}|‖Q_{t,:,:,q}‖_{S¹})‖ΔU‖_{S∞}",
    source=S1_B1.at("Lemma 3 (corrected)").quote(_L3_QUOTE),
    statement=r"\|\tfrac{d}{d_t}\lambda_t'\|_\infty \le \max_q\Big(\Big|\frac{\lambda_{t_q}''}{"
    r"\lambda_{t_q}'}\Big|\|\mathbf{Q}_{t:,:,q}\|_{S^1}\Big)\|\Delta\mathbf{U}\|_{S^\infty}",
    expected=Verdict.HOLDS,
    corrects="lemma3.as_written",
    **_LEMMA3,
    notes="Proof: [dλ'_t/dt]_q = λ''_q⟨∂z_{t,q}/∂U, ΔU⟩ and ∂z_{t,q}/∂U = Q_{t,:,:,q}/λ'_q (eq. (19)), "
    "then Hölder. Tight when one q dominates and ΔU is the polar factor of Q_{t,:,:,q}.",
)
def lemma3_corrected(xp, U, W, s0, X, D, act, T):
    fw, tg, ratio = _lam(xp, U, W, s0, X, act, T, D, 0 * W, "Q")
    return inf_norm(xp, tg["lamdot"][T]), xp.max(xp.abs(ratio) * s1(xp, fw["Q"][T]), axis=-1) * sinf(xp, D)


@identity(
    "lemma3.eq19",
    title="Eq. (19): ∂λ'_t/∂U = Q_t Λ̃'^{-1}_t Λ̃''_t, i.e. ∂λ'_{t,q}/∂U = (λ''_{t,q}/λ'_{t,q}) Q_{t,:,:,q}",
    source=S1_B1.at("eq. (19)").quote("(∂s_t/∂U)/λ'_t = (∂λ'_t/∂U)/λ''_t → ∂λ'_t/∂U = Q_t Λ̃'_t^{−1} Λ̃''_t"),
    statement=r"\frac{\partial\lambda'_t}{\partial\mathbf{U}} = \mathbf{Q}_t\tilde{\mathbf{"
    r"\Lambda}}_t'^{-1}\tilde{\mathbf{\Lambda}}_t''",
    expected=Verdict.HOLDS,
    **FD_PROBED["U"],
    notes="Both λ'_t and s_t are functions of the same pre-activation z_t, so their gradients are "
    "proportional entrywise: this fixes the time index of the sensitivity at t (Q_t), not t−1. Checked "
    "against finite differences of σ'(z_t) contracted with probes c, B.",
)
def lemma3_eq19(xp, U, W, s0, X, c, B, act, T):
    fw = forward_sensitivities(xp, U, W, s0, X, act, tensors="Q")
    ratio = curvature_ratio(xp, fw["pre"][T - 1], act)
    truth = xp.sum(c * true_dlam(xp, U, W, s0, X, act, T, dU=B), axis=-1)
    rec = xp.sum(c * ratio * frob(xp, fw["Q"][T], B[:, None]), axis=-1)
    return truth, rec


_EQ20_QUOTE = (
    "[d/d_t λ_t]_p = tr[∂λ'_t/∂W_{:,:,p} ΔW] ≤ ||P_{t−1:,:,p} λ'_p^{−1} λ''_p||_{S1} ||ΔW||_{S∞} = "
    "λ'_p^{−1} λ''_p ||P_{t−1:,:,p}||_{S1} ||ΔW||_{S∞}"
)


#: eq. (20), as written and corrected: its first step compares the formula with a finite difference
_EQ20 = dict(
    inputs=sens_rnn_inputs(direction="W"), dims=SENS_RNN_DIMS, relations=("=", "<=", "="), tol=FD_TOL
)


def _eq20(xp, U, W, s0, X, D, act, T, corrected):
    fw = forward_sensitivities(xp, U, W, s0, X, act, tensors="P")
    r0 = curvature_ratio(xp, fw["pre"][T - 1], act)[:, 0]
    truth = true_dlam(xp, U, W, s0, X, act, T, dW=D)[:, 0]
    e1 = r0 * frob(xp, fw["P"][T][:, 0], D)
    Pk = fw["P"][T if corrected else T - 1][:, 0]
    if corrected:
        return (
            truth,
            e1,
            s1(xp, xp.abs(r0)[:, None, None] * Pk) * sinf(xp, D),
            xp.abs(r0) * s1(xp, Pk) * sinf(xp, D),
        )
    return truth, e1, s1(xp, r0[:, None, None] * Pk) * sinf(xp, D), r0 * s1(xp, Pk) * sinf(xp, D)


@inequality(
    "lemma3.eq20",
    title="Eq. (20): [dλ_t/dt]_p ≤ ‖P_{t-1,:,:,p}λ'^{-1}_pλ''_p‖_{S¹}‖ΔW‖ = "
    "λ'^{-1}_pλ''_p‖P_{t-1,:,:,p}‖_{S¹}‖ΔW‖",
    source=S1_B1.at("eq. (20)").quote(_EQ20_QUOTE),
    statement=r"[\tfrac{d}{d_t}\lambda_t]_p = \mathrm{tr}[\tfrac{\partial\lambda_t'}{\partial"
    r"\mathbf{W}}_{:,:,p}\Delta\mathbf{W}]\le \|\mathbf{P}_{t-1:,:,p}\lambda_p'^{-1}\lambda_p''\|_{S^1}\|"
    r"\Delta\mathbf{W}\|_{S^\infty} = \lambda_p'^{-1}\lambda_p''\|\mathbf{P}_{t-1:,:,p}\|_{S^1}\|\Delta"
    r"\mathbf{W}\|_{S^\infty}",
    expected=Verdict.REFUTED,
    expected_broken_step=2,
    **_EQ20,
    labels=(
        "∂λ'_{t,p}/∂W = (λ''_p/λ'_p)P_{t,:,:,p} (eq. 19 for W)",
        "Hölder with P_{t-1} in place of P_t",
        "pull the signed scalar out of the norm",
    ),
    notes="p = first entry. By eq. (19) the slice must be P_t, not P_{t−1}: at t = 1, P_0 = 0 and the "
    "bound claims dλ_1/dt = 0 although dλ_1/dt = λ''_1 ⊙ ΔW s_0. Step 3 also needs |λ''_p/λ'_p|. "
    "Corrected: lemma3.eq20.corrected.",
)
def lemma3_eq20(xp, U, W, s0, X, D, act, T):
    return _eq20(xp, U, W, s0, X, D, act, T, corrected=False)


@inequality(
    "lemma3.eq20.corrected",
    title="Eq. (20) corrected: [dλ_t/dt]_p ≤ |λ''_p/λ'_p|‖P_{t,:,:,p}‖_{S¹}‖ΔW‖_{S∞}",
    source=S1_B1.at("eq. (20) (corrected)").quote(_EQ20_QUOTE),
    statement=r"[\tfrac{d}{d_t}\lambda_t]_p = \tfrac{\lambda_p''}{\lambda_p'}\langle\mathbf{P}_{t:,:,p},"
    r"\Delta\mathbf{W}\rangle\le \Big|\tfrac{\lambda_p''}{\lambda_p'}\Big|\|\mathbf{P}_{t:,:,p}\|_{S^1}\|"
    r"\Delta\mathbf{W}\|_{S^\infty}",
    expected=Verdict.HOLDS,
    corrects="lemma3.eq20",
    proof_not_asserted="the catalogue's corrected route (|λ''/λ'| and the S¹ norm of P_t); the document's "
    "chain is lemma3.eq20 (broken at step 2)",
    **_EQ20,
    labels=("eq. (19) for W", "Hölder with P_t", "pull |·| out"),
)
def lemma3_eq20_corrected(xp, U, W, s0, X, D, act, T):
    return _eq20(xp, U, W, s0, X, D, act, T, corrected=True)


# --------------------------------------------------------------------------- eq. (17), (18): the U parts
