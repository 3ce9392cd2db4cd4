r"""Seed 001 §B: Lemma 3 (the derivative of λ'_t), eq. (17)–(20), (28)–(31), and Lemma 4.

The question the issue asks — "which time index, t or t−1, must the sensitivity carry?" — is answered
by ``lemma3.eq19``/``lemma3.corrected``: ∂λ'_{t,q}/∂Φ = (λ''_q/λ'_q)·∂s_{t,q}/∂Φ, i.e. Q_t (P_t), not
Q_{t−1} (P_{t−1}).  Eq. (17), (18), (20), (28), (31) and both Lipschitz constants use t−1.
Throughout, ``D`` is the step ΔU (or ΔW) and ``v`` the row V_p.
"""

from checks._vocab.activations import SMOOTH, curvature_ratio
from checks._vocab.linalg import frob, inf_norm, matvec, norm2, s1, sinf
from checks._vocab.sources import SEED_001
from checks.sensitivity._helpers import (
    FD_TOL,
    SENS_RNN_DIMS,
    forward_sensitivities,
    row_grad,
    sens_rnn_inputs,
    tangents,
    true_dlam,
)
from lemmacheck import Source, Verdict, identity, inequality
from lemmacheck.inputs import Array


def _u_lam(xp, U, W, s0, X, D, act, T):
    """λ'_t, σ''/σ' at z_t, dλ'_t/dt along ΔU = D (exact tangent), Q_{t-1}, Q_t."""
    fw = forward_sensitivities(xp, U, W, s0, X, act)
    tg = tangents(xp, U, W, s0, X, act, D, 0 * W, fw)
    ratio = curvature_ratio(xp, fw["pre"][T - 1], act)
    return fw, tg["lamdot"][T], ratio


def _w_lam(xp, U, W, s0, X, D, act, T):
    fw = forward_sensitivities(xp, U, W, s0, X, act)
    tg = tangents(xp, U, W, s0, X, act, 0 * U, D, fw)
    ratio = curvature_ratio(xp, fw["pre"][T - 1], act)
    return fw, tg, ratio


# --------------------------------------------------------------------------- Lemma 3 and eq. (19)–(20)

_L3_QUOTE = "Lemma 3 ||d/d_t λ'_t||_∞ ≤ max_q(λ'_{t_q}^{−1} λ''_{t_q} ||Q_{t:,:,q}||_{S1})"


@inequality(
    "lemma3.as_written",
    title="Lemma 3 as written: ‖dλ'_t/dt‖_∞ ≤ max_q(λ'^{-1}_{t,q}λ''_{t,q}‖Q_{t,:,:,q}‖_{S¹})",
    source=Source(SEED_001, "§B.1, Lemma 3", quote=_L3_QUOTE),
    statement=r"\|\tfrac{d}{d_t}\lambda_t'\|_\infty \le "
    r"\max_q(\lambda_{t_q}'^{-1}\lambda_{t_q}''\|\mathbf{Q}_{t:,:,q}\|_{S^1})",
    expected=Verdict.REFUTED,
    inputs=sens_rnn_inputs(direction="U"),
    dims=SENS_RNN_DIMS,
    notes="Two defects: the factor ‖ΔU‖_{S∞} is missing (d/dt λ'_t is linear in ΔU, so the claim fails as "
    "soon as ΔU is scaled up), and the ratio λ''/λ' is signed (negative for tanh at z > 0, for sigmoid at "
    "z > 0), so the right side can be negative. The time index t is right (lemma3.eq19). Corrected: "
    "lemma3.corrected.",
)
def lemma3_as_written(xp, U, W, s0, X, D, act, T):
    fw, lamdot, ratio = _u_lam(xp, U, W, s0, X, D, act, T)
    return inf_norm(xp, lamdot), xp.max(ratio * s1(xp, fw["Q"][T]), axis=-1)


@inequality(
    "lemma3.corrected",
    title="Lemma 3 corrected: ‖dλ'_t/dt‖_∞ ≤ max_q(|λ''_{t,q}/λ'_{t,q}|‖Q_{t,:,:,q}‖_{S¹})‖ΔU‖_{S∞}",
    source=Source(SEED_001, "§B.1, Lemma 3 (corrected)", quote=_L3_QUOTE),
    statement=r"\|\tfrac{d}{d_t}\lambda_t'\|_\infty \le "
    r"\max_q\Big(\Big|\frac{\lambda_{t_q}''}{\lambda_{t_q}'}\Big|\|\mathbf{Q}_{t:,:,q}\|_{S^1}\Big)\|\Delta\mathbf{U}\|_{S^\infty}",
    expected=Verdict.HOLDS,
    corrects="lemma3.as_written",
    inputs=sens_rnn_inputs(direction="U"),
    dims=SENS_RNN_DIMS,
    notes="Proof: [dλ'_t/dt]_q = λ''_q⟨∂z_{t,q}/∂U, ΔU⟩ and ∂z_{t,q}/∂U = Q_{t,:,:,q}/λ'_q (eq. (19)), "
    "then Hölder. Tight when one q dominates and ΔU is the polar factor of Q_{t,:,:,q}.",
)
def lemma3_corrected(xp, U, W, s0, X, D, act, T):
    fw, lamdot, ratio = _u_lam(xp, U, W, s0, X, D, act, T)
    return inf_norm(xp, lamdot), xp.max(xp.abs(ratio) * s1(xp, fw["Q"][T]), axis=-1) * sinf(xp, D)


@identity(
    "lemma3.eq19",
    title="Eq. (19): ∂λ'_t/∂U = Q_t Λ̃'^{-1}_t Λ̃''_t, i.e. ∂λ'_{t,q}/∂U = (λ''_{t,q}/λ'_{t,q}) Q_{t,:,:,q}",
    source=Source(
        SEED_001, "§B.1, eq. (19)", quote="(∂s_t/∂U)/λ'_t = (∂λ'_t/∂U)/λ''_t → ∂λ'_t/∂U = Q_t Λ̃'_t^{−1} Λ̃''_t"
    ),
    statement=r"\frac{\partial\lambda'_t}{\partial\mathbf{U}} = "
    r"\mathbf{Q}_t\tilde{\mathbf{\Lambda}}_t'^{-1}\tilde{\mathbf{\Lambda}}_t''",
    expected=Verdict.HOLDS,
    inputs=sens_rnn_inputs(direction="U", probe=True),
    dims=SENS_RNN_DIMS,
    tol=FD_TOL,
    notes="Both λ'_t and s_t are functions of the same pre-activation z_t, so their gradients are "
    "proportional entrywise: this fixes the time index of the sensitivity at t (Q_t), not t−1. Checked "
    "against finite differences of σ'(z_t) contracted with probes c, B.",
)
def lemma3_eq19(xp, U, W, s0, X, c, B, act, T):
    fw = forward_sensitivities(xp, U, W, s0, X, act)
    ratio = curvature_ratio(xp, fw["pre"][T - 1], act)
    truth = xp.sum(c * true_dlam(xp, U, W, s0, X, act, T, dU=B), axis=-1)
    rec = xp.sum(c * ratio * frob(xp, fw["Q"][T], B[:, None]), axis=-1)
    return truth, rec


_EQ20_QUOTE = (
    "[d/d_t λ_t]_p = tr[∂λ'_t/∂W_{:,:,p} ΔW] ≤ ||P_{t−1:,:,p} λ'_p^{−1} λ''_p||_{S1} ||ΔW||_{S∞} = "
    "λ'_p^{−1} λ''_p ||P_{t−1:,:,p}||_{S1} ||ΔW||_{S∞}"
)


def _eq20(xp, U, W, s0, X, D, act, T, corrected):
    fw, tg, ratio = _w_lam(xp, U, W, s0, X, D, act, T)
    r0 = ratio[:, 0]
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
    source=Source(SEED_001, "§B.1, eq. (20)", quote=_EQ20_QUOTE),
    statement=r"[\tfrac{d}{d_t}\lambda_t]_p = "
    r"\mathrm{tr}[\tfrac{\partial\lambda_t'}{\partial\mathbf{W}}_{:,:,p}\Delta\mathbf{W}]\le "
    r"\|\mathbf{P}_{t-1:,:,p}\lambda_p'^{-1}\lambda_p''\|_{S^1}\|\Delta\mathbf{W}\|_{S^\infty} = "
    r"\lambda_p'^{-1}\lambda_p''\|\mathbf{P}_{t-1:,:,p}\|_{S^1}\|\Delta\mathbf{W}\|_{S^\infty}",
    expected=Verdict.REFUTED,
    expected_broken_step=2,
    inputs=sens_rnn_inputs(direction="W"),
    dims=SENS_RNN_DIMS,
    relations=("=", "<=", "="),
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
    source=Source(SEED_001, "§B.1, eq. (20) (corrected)", quote=_EQ20_QUOTE),
    statement=r"[\tfrac{d}{d_t}\lambda_t]_p = "
    r"\tfrac{\lambda_p''}{\lambda_p'}\langle\mathbf{P}_{t:,:,p},\Delta\mathbf{W}\rangle\le "
    r"\Big|\tfrac{\lambda_p''}{\lambda_p'}\Big|\|\mathbf{P}_{t:,:,p}\|_{S^1}\|\Delta\mathbf{W}\|_{S^\infty}",
    expected=Verdict.HOLDS,
    corrects="lemma3.eq20",
    inputs=sens_rnn_inputs(direction="W"),
    dims=SENS_RNN_DIMS,
    relations=("=", "<=", "="),
    labels=("eq. (19) for W", "Hölder with P_t", "pull |·| out"),
    tol=FD_TOL,
)
def lemma3_eq20_corrected(xp, U, W, s0, X, D, act, T):
    return _eq20(xp, U, W, s0, X, D, act, T, corrected=True)


# --------------------------------------------------------------------------- eq. (17), (18): the U parts


def _eq17(xp, U, W, s0, X, v, D, act, T, corrected):
    fw, lamdot, ratio = _u_lam(xp, U, W, s0, X, D, act, T)
    x = X[:, T - 1]
    e0 = s1(xp, xp.outer(lamdot * v, x))
    e1 = norm2(xp, lamdot * v) * norm2(xp, x)
    e2 = inf_norm(xp, lamdot) * norm2(xp, v) * norm2(xp, x)
    if corrected:
        m = xp.max(xp.abs(ratio) * s1(xp, fw["Q"][T]), axis=-1)
    else:
        m = xp.max(ratio * s1(xp, fw["Q"][T - 1]), axis=-1)
    return e0, e1, e2, m * sinf(xp, D) * norm2(xp, v) * norm2(xp, x)


_EQ17_QUOTE = (
    "||d/d_t Λ'_t V_pᵀ x_t||_{S1} ≤ ||d/d_t λ'_t ⊙ V_pᵀ||_2 ||x_t||_2 ≤ ||d/d_t λ'_t||_∞ ||V_p||_2 "
    "||x_t||_2 ≤ max_q(λ'_{t_q}^{−1} λ''_{t_q} ||Q_{t−1...,q}||_{S1}) ||ΔU||_{S∞} ||V_p||_2 ||x_t||_2"
)


@inequality(
    "sens.eq17",
    title="Eq. (17): ‖(dΛ'_t/dt)V_pᵀx_tᵀ‖_{S¹} ≤ … ≤ max_q(λ'^{-1}λ''‖Q_{t-1,:,:,q}‖_{S¹})‖ΔU‖‖V_p‖‖x_t‖",
    source=Source(SEED_001, "§B.1, eq. (17)", quote=_EQ17_QUOTE),
    statement=r"\|\tfrac{d}{d_t}\mathbf{\Lambda}_t'\mathbf{V}_p^T\mathbf{x}_t\|_{S^1} \le "
    r"\|\tfrac{d}{d_t}\lambda_t'\odot\mathbf{V}_p^T\|_2\|\mathbf{x}_t\|_2 \le "
    r"\|\tfrac{d}{d_t}\lambda_t'\|_\infty\|\mathbf{V}_p\|_2\|\mathbf{x}_t\|_2\le "
    r"\max_q(\lambda_{t_q}'^{-1}\lambda_{t_q}''\|\mathbf{Q}_{t-1,:,:,q}\|_{S^1})\|\Delta\mathbf{U}\|_{S^\infty}\|\mathbf{V}_p\|_2\|\mathbf{x}_t\|_2",
    expected=Verdict.REFUTED,
    expected_broken_step=3,
    inputs=sens_rnn_inputs(direction="U"),
    dims=SENS_RNN_DIMS,
    relations=("<=", "<=", "<="),
    labels=("rank one", "eq. (11)", "Lemma 3 with Q_{t-1}"),
    notes="The last step applies Lemma 3 with Q_{t−1} where Lemma 3 (and eq. (19)) has Q_t, and with the "
    "signed ratio λ''/λ'. At t = 1, Q_0 = 0 and the right side vanishes. 'V_pᵀ x_t' is the outer product "
    "V_pᵀx_tᵀ. Corrected: sens.eq17.corrected.",
)
def eq17(xp, U, W, s0, X, v, D, act, T):
    return _eq17(xp, U, W, s0, X, v, D, act, T, corrected=False)


@inequality(
    "sens.eq17.corrected",
    title="Eq. (17) with Q_t and |λ''/λ'| in the last step",
    source=Source(SEED_001, "§B.1, eq. (17) (corrected)", quote=_EQ17_QUOTE),
    statement=r"\|\tfrac{d}{d_t}\mathbf{\Lambda}_t'\mathbf{V}_p^T\mathbf{x}_t^T\|_{S^1} \le "
    r"\max_q\Big(\Big|\tfrac{\lambda_{t_q}''}{\lambda_{t_q}'}\Big|\|\mathbf{Q}_{t,:,:,q}\|_{S^1}\Big)\|\Delta\mathbf{U}\|_{S^\infty}\|\mathbf{V}_p\|_2\|\mathbf{x}_t\|_2",
    expected=Verdict.HOLDS,
    corrects="sens.eq17",
    inputs=sens_rnn_inputs(direction="U"),
    dims=SENS_RNN_DIMS,
    relations=("<=", "<=", "<="),
    labels=("rank one", "eq. (11)", "corrected Lemma 3"),
)
def eq17_corrected(xp, U, W, s0, X, v, D, act, T):
    return _eq17(xp, U, W, s0, X, v, D, act, T, corrected=True)


def _eq18(xp, U, W, s0, X, v, D, act, T, corrected):
    fw, lamdot, ratio = _u_lam(xp, U, W, s0, X, D, act, T)
    Q1 = fw["Q"][T - 1]
    a = lamdot * v
    wa = matvec(xp.transpose(W), a)  # W̃ᵀ (dλ' ⊙ V_pᵀ)
    qn = norm2(xp, s1(xp, Q1))
    e0 = s1(xp, row_grad(xp, wa, Q1))
    e1 = qn * norm2(xp, wa)
    e2 = qn * sinf(xp, W) * norm2(xp, a)
    e3 = qn * sinf(xp, W) * inf_norm(xp, lamdot) * norm2(xp, v)
    if corrected:
        m = xp.max(xp.abs(ratio) * s1(xp, fw["Q"][T]), axis=-1)
    else:
        m = xp.max(ratio * s1(xp, Q1), axis=-1)
    return e0, e1, e2, e3, qn * sinf(xp, W) * m * sinf(xp, D) * norm2(xp, v)


_EQ18_QUOTE = (
    "||Q_{t−1}W̃ᵀ d/d_t Λ̃'_t Ṽ_pᵀ||_{S1} ≤ || ||Q_{t−1:,:,*}||_{S1} ||_2 ||Wᵀ d/d_t λ'_t ⊙ V_pᵀ||_2 ≤ ... "
    "≤ || ||Q_{t−1:,:,*}||_{S1} ||_2 ||W||_{S∞} max_q(λ'_{tq}^{−1} λ''_{tq} ||Q_{t−1:,:,q}||_{S1}) "
    "||ΔU||_{S∞} ||V_p||_2"
)


@inequality(
    "sens.eq18",
    title="Eq. (18): ‖Q_{t-1}W̃ᵀ(dΛ̃'_t/dt)Ṽ_pᵀ‖_{S¹} ≤ ‖‖Q_{t-1}‖_{S¹}‖₂‖W‖ "
    "max_q(λ'^{-1}λ''‖Q_{t-1,q}‖_{S¹})‖ΔU‖‖V_p‖",
    source=Source(SEED_001, "§B.1, eq. (18) (unnumbered display before Lemma 3)", quote=_EQ18_QUOTE),
    statement=r"\|\mathbf{Q}_{t-1}\tilde{\mathbf{W}}^T\tfrac{d}{d_t}\tilde{\mathbf{\Lambda}}_t'\tilde{\mathbf{V}}_p^T\|_{S^1}\le "
    r"\|\|\mathbf{Q}_{t-1:,:,*}\|_{S^1}\|_2\|\mathbf{W}\|_{S^\infty}\max_q(\lambda_{tq}'^{-1}\lambda_{tq}''\|\mathbf{Q}_{t-1:,:,q}\|_{S^1})\|\Delta\mathbf{U}\|_{S^\infty}\|\mathbf{V}_p\|_2",
    expected=Verdict.REFUTED,
    expected_broken_step=4,
    inputs=sens_rnn_inputs(direction="U"),
    dims={"H": [1, 2, 3], "T": [2, 3], "act": SMOOTH},
    relations=("<=", "<=", "<=", "<="),
    labels=("Lemma 4", "‖Wᵀy‖ ≤ ‖W‖_{S∞}‖y‖", "eq. (11)", "Lemma 3 with Q_{t-1}"),
    notes="The display carries no number in the converted text (the (18) tag is lost; its last line is "
    "printed three times). Same defect as eq. (17) in the last step. Corrected: sens.eq18.corrected.",
)
def eq18(xp, U, W, s0, X, v, D, act, T):
    return _eq18(xp, U, W, s0, X, v, D, act, T, corrected=False)


@inequality(
    "sens.eq18.corrected",
    title="Eq. (18) with Q_t and |λ''/λ'| in the last step",
    source=Source(SEED_001, "§B.1, eq. (18) (corrected)", quote=_EQ18_QUOTE),
    statement=r"\|\mathbf{Q}_{t-1}\tilde{\mathbf{W}}^T\tfrac{d}{d_t}\tilde{\mathbf{\Lambda}}_t'\tilde{\mathbf{V}}_p^T\|_{S^1}\le "
    r"\|\|\mathbf{Q}_{t-1:,:,*}\|_{S^1}\|_2\|\mathbf{W}\|_{S^\infty}\max_q\Big(\Big|\tfrac{\lambda_{tq}''}{\lambda_{tq}'}\Big|\|\mathbf{Q}_{t:,:,q}\|_{S^1}\Big)\|\Delta\mathbf{U}\|_{S^\infty}\|\mathbf{V}_p\|_2",
    expected=Verdict.HOLDS,
    corrects="sens.eq18",
    inputs=sens_rnn_inputs(direction="U"),
    dims={"H": [1, 2, 3], "T": [2, 3], "act": SMOOTH},
    relations=("<=", "<=", "<=", "<="),
    labels=("Lemma 4", "‖Wᵀy‖ ≤ ‖W‖_{S∞}‖y‖", "eq. (11)", "corrected Lemma 3"),
)
def eq18_corrected(xp, U, W, s0, X, v, D, act, T):
    return _eq18(xp, U, W, s0, X, v, D, act, T, corrected=True)


# --------------------------------------------------------------------------- eq. (28)–(31): the W parts


def _eq28(xp, U, W, s0, X, v, D, act, T, corrected):
    fw, tg, ratio = _w_lam(xp, U, W, s0, X, D, act, T)
    ld, s = tg["lamdot"][T], fw["states"][T - 1]
    e0 = s1(xp, xp.outer(ld * v, s))
    e1 = norm2(xp, ld * v) * norm2(xp, s)
    e2 = inf_norm(xp, ld) * norm2(xp, v) * norm2(xp, s)
    if corrected:
        m = xp.max(xp.abs(ratio) * s1(xp, fw["P"][T]), axis=-1)
    else:
        m = xp.max(ratio * s1(xp, fw["P"][T - 1]), axis=-1)
    return e0, e1, e2, m * sinf(xp, D) * norm2(xp, v) * norm2(xp, s)


_EQ28_QUOTE = (
    "||d/d_t Λ'_t V_pᵀ s_{t−1}||_{S1} ≤ ||d/d_t λ'_t ⊙ V_pᵀ||_2 ||s_{t−1}||_2 ≤ ||d/d_t λ'_t||_∞ ||V_p||_2 "
    "||s_{t−1}||_2 = max_q(λ'_{t_q}^{−1} λ''_{t_q} ||P_{t−1:,:,q}||_{S1}) ||ΔW||_{S∞} ||V_p||_2 "
    "||s_{t−1}||_2"
)


@inequality(
    "sens.eq28",
    title="Eq. (28): ‖(dΛ'_t/dt)V_pᵀs_{t-1}ᵀ‖_{S¹} ≤ … = "
    "max_q(λ'^{-1}λ''‖P_{t-1,:,:,q}‖_{S¹})‖ΔW‖‖V_p‖‖s_{t-1}‖",
    source=Source(SEED_001, "§B.2, eq. (28)", quote=_EQ28_QUOTE),
    statement=r"\|\tfrac{d}{d_t}\mathbf{\Lambda}_t'\mathbf{V}_p^T\mathbf{s}_{t-1}\|_{S^1} \le "
    r"\|\tfrac{d}{d_t}\lambda_t'\odot\mathbf{V}_p^T\|_2\|\mathbf{s}_{t-1}\|_2 \le "
    r"\|\tfrac{d}{d_t}\lambda_t'\|_\infty\|\mathbf{V}_p\|_2\|\mathbf{s}_{t-1}\|_2 = "
    r"\max_q(\lambda_{t_q}'^{-1}\lambda_{t_q}''\|\mathbf{P}_{t-1:,:,q}\|_{S^1})\|\Delta\mathbf{W}\|_{S^\infty}\|\mathbf{V}_p\|_2\|\mathbf{s}_{t-1}\|_2",
    expected=Verdict.REFUTED,
    expected_broken_step=3,
    inputs=sens_rnn_inputs(direction="W"),
    dims=SENS_RNN_DIMS,
    relations=("<=", "<=", "="),
    labels=("rank one", "eq. (11)", "Lemma 3 for W, written as an equality, with P_{t-1}"),
    notes="The last relation is written '=' but Lemma 3 is at best an upper bound; with P_{t−1} and the "
    "signed ratio it is not even that (P_0 = 0 at t = 1). Corrected: sens.eq28.corrected ('≤', P_t, "
    "|λ''/λ'|).",
)
def eq28(xp, U, W, s0, X, v, D, act, T):
    return _eq28(xp, U, W, s0, X, v, D, act, T, corrected=False)


@inequality(
    "sens.eq28.corrected",
    title="Eq. (28) with '≤', P_t and |λ''/λ'|",
    source=Source(SEED_001, "§B.2, eq. (28) (corrected)", quote=_EQ28_QUOTE),
    statement=r"\|\tfrac{d}{d_t}\mathbf{\Lambda}_t'\mathbf{V}_p^T\mathbf{s}_{t-1}^T\|_{S^1} \le "
    r"\max_q\Big(\Big|\tfrac{\lambda_{t_q}''}{\lambda_{t_q}'}\Big|\|\mathbf{P}_{t:,:,q}\|_{S^1}\Big)\|\Delta\mathbf{W}\|_{S^\infty}\|\mathbf{V}_p\|_2\|\mathbf{s}_{t-1}\|_2",
    expected=Verdict.HOLDS,
    corrects="sens.eq28",
    inputs=sens_rnn_inputs(direction="W"),
    dims=SENS_RNN_DIMS,
    relations=("<=", "<=", "<="),
    labels=("rank one", "eq. (11)", "corrected Lemma 3 for W"),
)
def eq28_corrected(xp, U, W, s0, X, v, D, act, T):
    return _eq28(xp, U, W, s0, X, v, D, act, T, corrected=True)


def _eq29(xp, U, W, s0, X, v, D, act, T):
    fw, tg, _ = _w_lam(xp, U, W, s0, X, D, act, T)
    l1, sd = fw["lam1"][T], tg["sdot"][T - 1]
    e0 = s1(xp, xp.outer(l1 * v, sd))
    e1 = norm2(xp, l1 * v) * norm2(xp, sd)
    e2 = inf_norm(xp, l1) * norm2(xp, v) * norm2(xp, sd)
    e3 = inf_norm(xp, l1) * norm2(xp, v) * sinf(xp, D) * norm2(xp, s1(xp, fw["P"][T - 1]))
    return e0, e1, e2, e3


_EQ29_QUOTE = (
    "||Λ'_t V_{p,:}ᵀ (d/d_t s_{t−1}ᵀ)||_{S1} ≤ ||λ'_t ⊙ V_pᵀ||_2 ||d/d_t s_{t−1}||_2 ≤ ||λ'_t||_∞ "
    "||V_p||_2 ||tr[∂s_{t−1}/∂W ΔW]||_2 = ||λ'_t||_∞ ||V_p||_2 ||ΔW||_{S∞} || ||P_{t−1:,:,*}||_{S1} ||_2"
)


@inequality(
    "sens.eq29",
    title="Eq. (29): ‖Λ'_tV_pᵀ(ds_{t-1}/dt)ᵀ‖_{S¹} ≤ … = ‖λ'_t‖_∞‖V_p‖₂‖ΔW‖_{S∞}‖‖P_{t-1,:,:,*}‖_{S¹}‖₂",
    source=Source(SEED_001, "§B.2, eq. (29)", quote=_EQ29_QUOTE),
    statement=r"\|\mathbf{\Lambda}_t'\mathbf{V}_{p,:}^T(\tfrac{d}{d_t}\mathbf{s}_{t-1}^T)\|_{S^1} \le "
    r"\|\lambda_t'\odot\mathbf{V}_p^T\|_2\|\tfrac{d}{d_t}\mathbf{s}_{t-1}\|_2 \le "
    r"\|\lambda_t'\|_\infty\|\mathbf{V}_p\|_2\|\mathrm{tr}[\tfrac{\partial\mathbf{s}_{t-1}}{\partial\mathbf{W}}\Delta\mathbf{W}]\|_2 "
    r"= "
    r"\|\lambda_t'\|_\infty\|\mathbf{V}_p\|_2\|\Delta\mathbf{W}\|_{S^\infty}\|\|\mathbf{P}_{t-1:,:,*}\|_{S^1}\|_2",
    expected=Verdict.HOLDS,
    expected_broken_step=3,
    inputs=sens_rnn_inputs(direction="W"),
    dims=SENS_RNN_DIMS,
    relations=("<=", "<=", "="),
    labels=("rank one", "eq. (11)", "Hölder per entry, written '='"),
    notes="The last relation is an inequality (Hölder applied to each entry [ds_{t−1}/dt]_q = "
    "⟨P_{t−1,:,:,q}, ΔW⟩), written as '='; end to end the bound is true. Here the time index t−1 is right: "
    "it is s_{t−1} that is differentiated.",
)
def eq29(xp, U, W, s0, X, v, D, act, T):
    return _eq29(xp, U, W, s0, X, v, D, act, T)


_EQ30_QUOTE = (
    "||P_{t−1} d/d_t W̃ᵀ Λ̃'_t Ṽ_pᵀ||_{S1} ≤ || ||P_{t−1:,:,*}||_{S1} ||_2 ||d/d_t Wᵀ Λ'_t V_pᵀ||_2 = ... "
    "≤ || ||P_{t−1:,:,*}||_{S1} ||_2 ||ΔW||_{S∞} ||λ'_t||_∞ ||V_pᵀ||_2"
)


@inequality(
    "sens.eq30",
    title="Eq. (30): ‖P_{t-1}ΔW̃ᵀΛ̃'_tṼ_pᵀ‖_{S¹} ≤ ‖‖P_{t-1,:,:,*}‖_{S¹}‖₂‖ΔW‖_{S∞}‖λ'_t‖_∞‖V_p‖₂",
    source=Source(SEED_001, "§B.2, eq. (30)", quote=_EQ30_QUOTE),
    statement=r"\|\mathbf{P}_{t-1}\tfrac{d}{d_t}\tilde{\mathbf{W}}^T\tilde{\mathbf{\Lambda}}_t'\tilde{\mathbf{V}}_p^T\|_{S^1}\le "
    r"\|\|\mathbf{P}_{t-1:,:,*}\|_{S^1}\|_2\|\Delta\mathbf{W}^T\mathbf{\Lambda}_t'\mathbf{V}_p^T\|_2 \le "
    r"\|\|\mathbf{P}_{t-1:,:,*}\|_{S^1}\|_2\|\Delta\mathbf{W}\|_{S^\infty}\|\lambda_t'\odot\mathbf{V}_p^T\|_2 "
    r"\le "
    r"\|\|\mathbf{P}_{t-1:,:,*}\|_{S^1}\|_2\|\Delta\mathbf{W}\|_{S^\infty}\|\lambda_t'\|_\infty\|\mathbf{V}_p^T\|_2",
    expected=Verdict.HOLDS,
    inputs=sens_rnn_inputs(direction="W"),
    dims=SENS_RNN_DIMS,
    relations=("<=", "<=", "<="),
    labels=("Lemma 4", "‖ΔWᵀy‖ ≤ ‖ΔW‖_{S∞}‖y‖", "eq. (11)"),
)
def eq30(xp, U, W, s0, X, v, D, act, T):
    fw = forward_sensitivities(xp, U, W, s0, X, act)
    l1, P1 = fw["lam1"][T], fw["P"][T - 1]
    a = l1 * v
    da = matvec(xp.transpose(D), a)
    pn = norm2(xp, s1(xp, P1))
    return (
        s1(xp, row_grad(xp, da, P1)),
        pn * norm2(xp, da),
        pn * sinf(xp, D) * norm2(xp, a),
        pn * sinf(xp, D) * inf_norm(xp, l1) * norm2(xp, v),
    )


def _eq31(xp, U, W, s0, X, v, D, act, T, corrected):
    fw, tg, ratio = _w_lam(xp, U, W, s0, X, D, act, T)
    ld, P1 = tg["lamdot"][T], fw["P"][T - 1]
    a = ld * v
    wa = matvec(xp.transpose(W), a)
    pn = norm2(xp, s1(xp, P1))
    if corrected:
        m = xp.max(xp.abs(ratio) * s1(xp, fw["P"][T]), axis=-1)
    else:
        m = xp.max(ratio * s1(xp, P1), axis=-1)
    return (
        s1(xp, row_grad(xp, wa, P1)),
        pn * norm2(xp, wa),
        pn * sinf(xp, W) * norm2(xp, a),
        pn * sinf(xp, W) * inf_norm(xp, ld) * norm2(xp, v),
        pn * sinf(xp, W) * m * sinf(xp, D) * norm2(xp, v),
    )


_EQ31_QUOTE = (
    "||P_{t−1}W̃ᵀ d/d_t Λ̃'_t Ṽ_pᵀ||_{S1} ≤ || ||P_{t−1:,:,*}||_{S1} ||_2 ||Wᵀ d/d_t Λ'_t V_pᵀ||_2 ≤ ... ≤ "
    "|| ||P_{t−1:,:,*}||_{S1} ||_2 ||W||_{S∞} max_q(λ'^{−1}_{t_q} λ''_{t_q} ||P_{t−1:,:,q}||) ||ΔW||_{S∞} "
    "||V_p||_2"
)


@inequality(
    "sens.eq31",
    title="Eq. (31): ‖P_{t-1}W̃ᵀ(dΛ̃'_t/dt)Ṽ_pᵀ‖_{S¹} ≤ … ≤ ‖‖P_{t-1}‖‖₂‖W‖ "
    "max_q(λ'^{-1}λ''‖P_{t-1,q}‖)‖ΔW‖‖V_p‖",
    source=Source(SEED_001, "§B.2, eq. (31)", quote=_EQ31_QUOTE),
    statement=r"\|\mathbf{P}_{t-1}\tilde{\mathbf{W}}^T\tfrac{d}{d_t}\tilde{\mathbf{\Lambda}}_t'\tilde{\mathbf{V}}_p^T\|_{S^1}\le "
    r"\|\|\mathbf{P}_{t-1:,:,*}\|_{S^1}\|_2\|\mathbf{W}\|_{S^\infty}\max_q(\lambda_{t_q}'^{-1}\lambda_{t_q}''\|\mathbf{P}_{t-1:,:,q}\|)\|\Delta\mathbf{W}\|_{S^\infty}\|\mathbf{V}_p\|_2",
    expected=Verdict.REFUTED,
    expected_broken_step=4,
    inputs=sens_rnn_inputs(direction="W"),
    dims={"H": [1, 2, 3], "T": [2, 3], "act": SMOOTH},
    relations=("<=", "<=", "<=", "<="),
    labels=("Lemma 4", "‖Wᵀy‖ ≤ ‖W‖_{S∞}‖y‖", "eq. (11)", "Lemma 3 with P_{t-1}"),
    notes="The unlabelled norm ‖P_{t−1:,:,q}‖ in the last line is read as S¹ (as in eq. (28)). Same defect "
    "as eq. (17)/(28) in the last step. Corrected: sens.eq31.corrected.",
)
def eq31(xp, U, W, s0, X, v, D, act, T):
    return _eq31(xp, U, W, s0, X, v, D, act, T, corrected=False)


@inequality(
    "sens.eq31.corrected",
    title="Eq. (31) with P_t and |λ''/λ'| in the last step",
    source=Source(SEED_001, "§B.2, eq. (31) (corrected)", quote=_EQ31_QUOTE),
    statement=r"\|\mathbf{P}_{t-1}\tilde{\mathbf{W}}^T\tfrac{d}{d_t}\tilde{\mathbf{\Lambda}}_t'\tilde{\mathbf{V}}_p^T\|_{S^1}\le "
    r"\|\|\mathbf{P}_{t-1:,:,*}\|_{S^1}\|_2\|\mathbf{W}\|_{S^\infty}\max_q\Big(\Big|\tfrac{\lambda_{t_q}''}{\lambda_{t_q}'}\Big|\|\mathbf{P}_{t:,:,q}\|_{S^1}\Big)\|\Delta\mathbf{W}\|_{S^\infty}\|\mathbf{V}_p\|_2",
    expected=Verdict.HOLDS,
    corrects="sens.eq31",
    inputs=sens_rnn_inputs(direction="W"),
    dims={"H": [1, 2, 3], "T": [2, 3], "act": SMOOTH},
    relations=("<=", "<=", "<=", "<="),
    labels=("Lemma 4", "‖Wᵀy‖ ≤ ‖W‖_{S∞}‖y‖", "eq. (11)", "corrected Lemma 3"),
)
def eq31_corrected(xp, U, W, s0, X, v, D, act, T):
    return _eq31(xp, U, W, s0, X, v, D, act, T, corrected=True)


# --------------------------------------------------------------------------- Lemma 4

_L4_QUOTE = (
    "Lemma 4 For a 3-d tensor T and a vector v, we have ||T ṽ||_{S1} ≤ || ||T_{:,:,*}||_{S1} ||_2 ||v||_2 "
    "... ||T ṽ||_{S1} = ||Σ_p v_p T_{:,:,p}||_{S1} ≤ Σ_p v_p ||T_{:,:,p}||_{S1} ≤ || ||T_{:,:,*}||_{S1} "
    "||_2 ||v||_2"
)
_L4_INPUTS = {"Tt": Array("p", "m", "n", scale=(1e-1, 1e1)), "v": Array("p", scale=(1e-1, 1e1))}
_L4_DIMS = {"p": [1, 2, 3, 5], "m": [1, 2, 3], "n": [2, 4]}


@inequality(
    "sens.lemma4",
    title="Lemma 4: ‖T ṽ‖_{S¹} ≤ ‖(‖T_{:,:,p}‖_{S¹})_p‖₂ ‖v‖₂",
    source=Source(SEED_001, "§B.1, Lemma 4", quote=_L4_QUOTE),
    statement=r"\|\mathbf{T}\tilde{\mathbf{v}}\|_{S^1} \le "
    r"\|\|\mathbf{T}_{:,:,*}\|_{S^1}\|_2\|\mathbf{v}\|_2",
    expected=Verdict.HOLDS,
    same_as=("lemma4.bound",),
    inputs=_L4_INPUTS,
    dims=_L4_DIMS,
    notes="The slices are stored as Tt[p] = T_{:,:,p}. Triangle inequality plus Cauchy–Schwarz; tight when "
    "all slices are equal up to positive scalars proportional to v.",
)
def lemma4(xp, Tt, v):
    return s1(xp, xp.einsum("bp,bpij->bij", v, Tt)), norm2(xp, s1(xp, Tt)) * norm2(xp, v)


@inequality(
    "sens.lemma4_proof",
    title="Proof of Lemma 4, eq. (21): ‖Σ_p v_pT_p‖_{S¹} ≤ Σ_p v_p‖T_p‖_{S¹} ≤ ‖‖T_*‖_{S¹}‖₂‖v‖₂",
    source=Source(SEED_001, "§B.1, eq. (21)", quote=_L4_QUOTE),
    statement=r"\|\sum_p\mathbf{v}_p\mathbf{T}_{:,:,p}\|_{S^1} \le "
    r"\sum_p\mathbf{v}_p\|\mathbf{T}_{:,:,p}\|_{S^1} \le \|\|\mathbf{T}_{:,:,*}\|_{S^1}\|_2\|\mathbf{v}\|_2",
    expected=Verdict.HOLDS,
    expected_broken_step=1,
    same_as=("lemma4.chain",),
    inputs=_L4_INPUTS,
    dims=_L4_DIMS,
    relations=("<=", "<="),
    labels=("triangle inequality (needs |v_p|)", "Cauchy–Schwarz"),
    notes="The middle expression must carry |v_p|: with a negative v_p it can be negative. The lemma "
    "itself is true.",
)
def lemma4_proof(xp, Tt, v):
    n = s1(xp, Tt)
    return (s1(xp, xp.einsum("bp,bpij->bij", v, Tt)), xp.sum(v * n, axis=-1), norm2(xp, n) * norm2(xp, v))
