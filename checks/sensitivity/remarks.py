"""Sensitivity and Lipschitz statements of seeds 000/001 that had no claim: the Lemma-3-corrected L_U that
the study lip.majorisation finds failing, §B.2's repeated 'first part', item 2.1's threshold with s_0 ≠ 0,
the U integral with a literal trace, and the guess of Comments item 2."""

import math

import numpy as np

from checks._vocab.activations import SMOOTH, SUP_D1
from checks._vocab.linalg import matvec, norm2, s1, sinf
from checks._vocab.sources import S0_COMMENTS, S0_LOSS_U, S0_LOSS_W, S1_B1, S1_B2
from checks.sensitivity._helpers import (
    FD_TOL,
    QUAD_TOL,
    const,
    forward_sensitivities,
    loss_step_inputs,
    sens_rnn_inputs,
    true_ds,
)
from checks.sensitivity._mirror import WRT, integral_form
from checks.sensitivity._notation import W_DIRECTION, by_direction
from checks.sensitivity.lip_constants import L_W_TERMS, majorisation_sides, step_parts
from lemmacheck import Array, Derived, Verdict, identity, inequality

#: an instance of the study lip.majorisation (tanh, ‖W‖_{S∞} = 2, ‖ΔU‖_{S∞} = 1, remainder/(L‖Δ‖²) = 1.66)
_STUDY_INSTANCE = {
    "dims": {"H": 3, "T": 4, "act": "tanh"},
    "inputs": {
        "U": [
            [0.3175714155113637, 0.924199893905705],
            [-1.010339783999922, 1.4603944193015093],
            [-0.3969278401641424, 0.10596218964433778],
        ],
        "W": [
            [-0.11395472458163643, 0.1581268790606748, -0.34634827719130873],
            [-0.17724589795725657, 0.18049061181767373, 0.5686301261954952],
            [-0.42091747353871084, -0.5135082855318982, -1.7787348914674534],
        ],
        "V": [
            [0.5053386986103391, -0.6692653087329162, 1.1680846124268394],
            [0.11505465943791192, -0.019530499627428328, 0.13549265758935855],
            [0.24967153612122217, 1.0039453070550362, -1.8082987749296888],
        ],
        "s0": [0.0, 0.0, 0.0],
        "X": [
            [0.9580081701231888, -0.9402000863210674],
            [-0.8774928250738795, -1.0134928366920026],
            [0.1793638274358098, -1.3168715117218288],
            [0.1325576811154682, 2.5555574141010986],
        ],
        "y": [1.0, 0.0, 0.0],
        "D": [
            [0.32132477286512034, -0.6556288681451228],
            [-0.34140753971132515, 0.13689261954420748],
            [-0.3040404080318763, -0.7415713184182232],
        ],
        "step": 1.0,
    },
}


@inequality(
    "lip.l_u.lemma3_fixed",
    title="L_U of eq. (22) with Lemma 3 corrected (|λ''/λ'|, Q_t) still does not majorise the loss",
    source=S1_B1.at("eq. (22) with Lemma 3 corrected (study lip.majorisation)").quote(
        "Integrate formula 13,14,15,17 and 18, we can obtain the upper bound of Lipschitz "
        "constant in Schatten-∞ norm for input matrix U."
    ),
    statement=r"E_t(\mathbf{U}+\Delta\mathbf{U}) \le E_t(\mathbf{U}) + "
    r"\langle\nabla_{\mathbf{U}}E_t,\Delta\mathbf{U}"
    r"\rangle + \tilde L_{\mathbf{U}}\|\Delta\mathbf{U}\|_{S^\infty}^2,\ \tilde L_{\mathbf{U}}: "
    r"\text{eq. (22) with }"
    r"|\lambda''_p/\lambda'_p|\,\|\mathbf{Q}_{t:,:,p}\|_{S^1}",
    expected=Verdict.REFUTED,
    corrects="lip.l_u",
    inputs=loss_step_inputs("U", (1e-3, 2.0)),
    dims={"H": [1, 2, 3], "T": [1, 3, 4], "act": list(SMOOTH)},
    examples=[_STUDY_INSTANCE],
    notes="The study lip.majorisation measures eq. (22) with the two defects of Lemma 3 repaired (signed "
    "ratio, Q_{t-1} for Q_t) and finds it failing on a small fraction of its instances (s_0 = 0, standard "
    "normal data, four directions per instance); on this claim's own sampler (s_0 ≠ 0, steps up to 2) the "
    "failures are frequent, already at H = T = 1, and the engine reports the rate. The constant "
    "rests on the "
    "first-order steps (13), (15) and on dropping dQ_{t-1}/dt (second_order.eq16), so nothing controls the "
    "remainder at finite steps. The instance kept in examples= is one the study's sampler produces (tanh, "
    "‖W‖_{S∞} = 2, ‖ΔU‖_{S∞} = 1, remainder/(L‖Δ‖²) ≈ 1.66), so that the study's finding replays on every "
    "seed. The same measurement finds no failure of the corrected L_W, so no claim is made for it.",
)
def lip_u_lemma3_fixed(xp, U, W, V, s0, X, y, D, step, act, T):
    """(E_t remainder, L̃_U‖ΔU‖²_{S∞}) with ΔU = step·D/‖D‖_{S∞}, gradient from the Q recursion."""
    return majorisation_sides(xp, U, W, V, s0, X, y, D, step, act, T, "U", lemma3_fixed=True)


_B2 = (
    "Like the input matrix, we need to upper bound ‖Vs_t(W^k + ΔW) − Vs_t(W^k)‖_∞ and "
    "‖Vs_t(W^k + ΔW) − Vs_t(W^k)‖_∞."
)


def _logit_change(xp, U, W, V, s0, X, y, D, step, act, T) -> dict:
    """The logits Vs_t after and before the step ΔW = step·D/‖D‖_{S∞}, their change Δz and its nonlinear
    part r = Δz − ⟨V∇_W s_t, ΔW⟩."""
    fw = forward_sensitivities(xp, U, W, s0, X, act, tensors="P")
    return _logits(xp, V, fw, step_parts(xp, fw, U, W, V, s0, X, y, D, step, act, T, "W"), T)


def _logits(xp, V, fw, parts, T) -> dict:
    """:func:`_logit_change` from the pass ``fw`` at W and the step's :func:`step_parts`."""
    z_new = matvec(V, parts["moved"])
    z_old = matvec(V, fw["states"][T])
    dz = z_new - z_old
    r = dz - matvec(V, xp.einsum("bkij,bij->bk", fw["P"][T], parts["step"]))
    return {"z_new": z_new, "z_old": z_old, "dz": dz, "r": r}


def _w_parts(xp, U, W, V, s0, X, y, D, step, act, T):
    """(E_t remainder along ΔW, ½‖Δz‖∞², ‖Δz‖∞, ‖r‖∞) with Δz the change of the logits, r its nonlinear
    part: one forward pass at W and one after the step serve both (the constant L_W, which
    majorisation_sides would add and these claims do not read, is not formed)."""
    fw = forward_sensitivities(xp, U, W, s0, X, act, tensors="P")
    parts = step_parts(xp, fw, U, W, V, s0, X, y, D, step, act, T, "W")
    rem = parts["new"] - parts["old"] - parts["pairing"]
    z = _logits(xp, V, fw, parts, T)
    inf = lambda a: xp.max(xp.abs(a), axis=-1)  # noqa: E731
    return rem, 0.5 * inf(z["dz"]) ** 2, inf(z["dz"]), inf(z["r"])


#: seed 001 §B.2 before eq. (23): L_W_TERMS (E_t, the pairing, ΔW) and the logits Vs_t(W + ΔW), Vs_t(W),
#: their change Δz and its nonlinear part r = Δz − ⟨V∇_W s_t, ΔW⟩
W_PARTS = L_W_TERMS.extend(
    "checks/sensitivity/remarks.py (W_PARTS)",
    {
        r"\mathbf{V}\mathbf{s}_t(\mathbf{W}+\Delta\mathbf{W})": Derived(_logit_change, "z_new"),
        r"\mathbf{V}\mathbf{s}_t(\mathbf{W})": Derived(_logit_change, "z_old"),
        r"\Delta\mathbf{z}": Derived(_logit_change, "dz", doc="Vs_t(W + ΔW) − Vs_t(W)"),
        r"\mathbf{r}": Derived(_logit_change, "r", doc="Δz − ⟨V∇_W s_t, ΔW⟩"),
    },
)
claim_symbols = {
    "lip.w_parts_as_written": W_PARTS,
    "lip.w_parts_corrected": W_PARTS,
    "sens.lambda_below_max_000": W_DIRECTION,  # no direction: the forward pass only
    **by_direction(
        u=("lip.l_u.lemma3_fixed", "sens.u_integral_000", "sens.u_integral_000.corrected"),
        w=("sens.w_offdiag_s0_000", "sens.tensor_bound_000"),
    ),
}


@inequality(
    "lip.w_parts_as_written",
    title="§B.2: the two parts of eq. (7) to bound for W, as written (both ‖Vs_t(W+ΔW) − Vs_t(W)‖∞)",
    source=S1_B2.at("text before eq. (23)").quote(_B2),
    statement=r"E_t(\mathbf{W}+\Delta\mathbf{W}) - E_t(\mathbf{W}) - "
    r"\langle\nabla_{\mathbf{W}}E_t,\Delta\mathbf{W}"
    r"\rangle \le \tfrac12\|\Delta\mathbf{z}\|_\infty^2 + 2\|\Delta\mathbf{z}\|_\infty,\ "
    r"\Delta\mathbf{z} = "
    r"\mathbf{V}\mathbf{s}_t(\mathbf{W}+\Delta\mathbf{W}) - \mathbf{V}\mathbf{s}_t(\mathbf{W})",
    expected=Verdict.REFUTED,
    inputs=loss_step_inputs("W", (1e-2, 30.0)),
    dims={"H": [1, 2], "T": [1, 2], "act": list(SMOOTH)},
    notes="The sentence repeats the first part; the second must subtract the first-order change "
    "⟨V∇_W s_t, ΔW⟩, as eq. (24) does and §B.1 writes. Read as written, eq. (7) would bound the remainder "
    "by ½‖Δz‖∞² + 2‖Δz‖∞, which is false: when the hidden state saturates Δz stays bounded while the "
    "first-order term ⟨∇_W E_t, ΔW⟩ grows linearly in ΔW (cf. loss.eq7.reading_b for all of Φ). Previously "
    "recorded only in the notes of sens.eq24_remainder. Corrected: lip.w_parts_corrected.",
)
def w_parts_as_written(xp, U, W, V, s0, X, y, D, step, act, T):
    rem, quad, dz, _ = _w_parts(xp, U, W, V, s0, X, y, D, step, act, T)
    return rem, quad + 2 * dz


@inequality(
    "lip.w_parts_corrected",
    title="Corrected: the second part is ‖r‖∞, r = Δz − ⟨V∇_W s_t, ΔW⟩ (eq. (7) along W)",
    source=S1_B2.at("text before eq. (23) (corrected as in §B.1 and eq. (24))").quote(_B2),
    statement=r"E_t(\mathbf{W}+\Delta\mathbf{W}) - E_t(\mathbf{W}) - "
    r"\langle\nabla_{\mathbf{W}}E_t,\Delta\mathbf{W}"
    r"\rangle \le \tfrac12\|\Delta\mathbf{z}\|_\infty^2 + 2\|\mathbf{r}\|_\infty",
    expected=Verdict.HOLDS,
    corrects="lip.w_parts_as_written",
    same_as=("loss.eq7",),
    inputs=loss_step_inputs("W", (1e-2, 30.0)),
    dims={"H": [1, 2, 3], "T": [1, 3], "act": list(SMOOTH)},
)
def w_parts_corrected(xp, U, W, V, s0, X, y, D, step, act, T):
    rem, quad, _, r = _w_parts(xp, U, W, V, s0, X, y, D, step, act, T)
    return rem, quad + 2 * r


_MISTAKE = "Last week, I made a mistake. ∂[s_t(W)]_p/∂W_ij ≠ 0 even if p ≠ i when t > 2."
_OFFDIAG_INPUTS = {
    k: v
    for k, v in sens_rnn_inputs(direction="W", probe=True).items()
    if k in ("U", "W", "s0", "X", "c", "B")
}


@identity(
    "sens.w_offdiag_s0_000",
    title="Item 2.1 for a general s_0: ∂[s_t]_p/∂W_ij = 0 for p ≠ i while t ≤ 2",
    source=S0_LOSS_W.at("item 2.1").quote(_MISTAKE),
    statement=r"t \le 2,\ p \ne i \implies \frac{\partial[\mathbf{s}_t]_p}{\partial\mathbf{W}_{ij}} = 0",
    expected=Verdict.REFUTED,
    inputs=_OFFDIAG_INPUTS,
    dims={"H": [2, 3], "T": [1, 2], "act": list(SMOOTH)},
    tol=FD_TOL,
    notes="The sentence puts the threshold at t > 2. With s_0 ≠ 0 (the document never sets s_0 = 0) "
    "∂s_1/∂W_ij = λ_1 e_i s_{0,j} ≠ 0, so ∂s_2/∂W_ij = λ_2 ⊙ (e_i s_{1,j} + W ∂s_1/∂W_ij) has components "
    "p ≠ i already at t = 2. Checked by finite differences of s_T (T = t ∈ {1, 2}) along a perturbation B "
    "of row i = 1 of W, probed by c on the rows p ≠ 1. With s_0 = 0 it holds (sens.w_offdiag_000), which "
    "is the implicit assumption; previously recorded only in that claim's notes.",
)
def w_offdiag_s0_000(xp, U, W, s0, X, c, B, act, T):
    """Finite-difference ds_T/de along B restricted to row 1, probed on the other rows."""
    row0 = const(xp, np.eye(W.shape[-1])[0])
    ds = true_ds(xp, U, W, s0, X, act, T, dW=B * row0[None, :, None])
    off = xp.sum(c * ds * (1 - row0)[None, :], axis=-1)
    return off, 0 * off


_U_INT = "[Vs_t(U^k + ΔU) − Vs_t(U^k)]_p = ∫_0^1 tr[∂[Vs_t(U)]_p/∂U]_{U=U^k+tΔU} ΔU d_t"


@identity(
    "sens.u_integral_000",
    uses=("sens.u_grad_mtr",),
    title="U section: [Vs_t(U+ΔU) − Vs_t(U)]_p = ∫ tr[(∂[Vs_t]_p/∂U) ΔU] dt with the literal trace (N = H)",
    source=S0_LOSS_U.at("item 2 (first display)").quote(_U_INT),
    statement=r"[\mathbf{V}\mathbf{s}_t(\mathbf{U}+\Delta\mathbf{U}) - "
    r"\mathbf{V}\mathbf{s}_t(\mathbf{U})]_p = "
    r"\int_0^1 "
    r"\mathrm{tr}\Big[\frac{\partial[\mathbf{V}\mathbf{s}_t]_p}{\partial\mathbf{U}}\Big|_{\mathbf{U}+t\Delta"
    r"\mathbf{U}}\Delta\mathbf{U}\Big]dt",
    expected=Verdict.REFUTED,
    inputs=sens_rnn_inputs(N="H", direction="U", step=(-0.15, 0.15)),
    dims={"H": [1, 2], "T": [1, 2], "act": list(SMOOTH)},
    tol=QUAD_TOL,
    notes="∂[Vs_t]_p/∂U and ΔU are both H × N, so tr(GΔU) is defined only for N = H (checked "
    "there); it pairs "
    "G with ΔUᵀ, while the fundamental theorem of calculus needs ⟨G, ΔU⟩ = tr(GᵀΔU). The W section has the "
    "same slip (sens.w_integral_000); for U the catalogue had recorded it only as a reading in the "
    "notes of "
    "sens.u_lambda_out_000 and sens.u_remainder_000. Fails from H = 2 on. Corrected: "
    "sens.u_integral_000.corrected. Steps ‖ΔU‖ are kept moderate (entries in [−0.15, 0.15], as for "
    "sens.w_integral_000) so that the 4×16-point quadrature stays within QUAD_TOL: on saturating instances "
    "with ‖ΔU‖ ≈ 1 the integrand swings by orders of magnitude along the path.",
)
def u_integral_000(xp, U, W, s0, X, v, D, act, T):
    return integral_form(xp, WRT["U"], U, W, s0, X, v, D, act, T, literal=True)


@identity(
    "sens.u_integral_000.corrected",
    title="U section: the integral form with the Frobenius pairing ⟨∂[Vs_t]_p/∂U, ΔU⟩ (any N)",
    source=S0_LOSS_U.at("item 2 (first display), corrected").quote(_U_INT),
    statement=r"[\mathbf{V}\mathbf{s}_t(\mathbf{U}+\Delta\mathbf{U}) - "
    r"\mathbf{V}\mathbf{s}_t(\mathbf{U})]_p = "
    r"\int_0^1 "
    r"\Big\langle\frac{\partial[\mathbf{V}\mathbf{s}_t]_p}{\partial\mathbf{U}}\Big|_{\mathbf{U}+t\Delta"
    r"\mathbf{U}},\Delta\mathbf{U}\Big\rangle dt",
    expected=Verdict.HOLDS,
    corrects="sens.u_integral_000",
    same_as=("sens.w_integral_000.corrected",),
    inputs=sens_rnn_inputs(N=2, direction="U", step=(-0.15, 0.15)),
    dims={"H": [1, 2, 3], "T": [1, 3], "act": list(SMOOTH)},
    tol=QUAD_TOL,
)
def u_integral_000_corrected(xp, U, W, s0, X, v, D, act, T):
    return integral_form(xp, WRT["U"], U, W, s0, X, v, D, act, T, literal=False)


_GUESS = (
    "Some 'ugly' parts like √H max_p(‖Mtr(W_{p,:}P_{t−1})‖_{S^1}) arises from this. I guess there exists a "
    "tighter and nicer upper bound if we use 3D tensor instead of 2D matrix."
)


@inequality(
    "sens.tensor_bound_000",
    title="Comments item 2: the 3-tensor bound ‖(‖Mtr(W_pP_{t-1})‖_{S¹})_p‖₂‖ΔW‖ is below √H max_p(…)‖ΔW‖",
    source=S0_COMMENTS.at("item 2").quote(_GUESS),
    statement=r"\|\mathbf{W}\mathbf{P}_{t-1}\mathrm{vec}(\Delta\mathbf{W})\|_2 \le "
    r"\big\|(\|\mathrm{Mtr}(\mathbf{W}"
    r"_{p,:}\mathbf{P}_{t-1})\|_{S^1})_p\big\|_2\|\Delta\mathbf{W}\|_{S^\infty} \le \sqrt "
    r"H\max_p\|\mathrm{Mtr}"
    r"(\mathbf{W}_{p,:}\mathbf{P}_{t-1})\|_{S^1}\|\Delta\mathbf{W}\|_{S^\infty}",
    expected=Verdict.HOLDS,
    steps_claimed=True,
    proof_not_asserted="the document only guesses a tighter bound exists with a 3-D tensor and gives no "
    "chain; this chain is the catalogue's reading of the guess",
    relations=("<=", "<="),
    labels=("Hölder per row, then the Euclidean norm of the rows (3-tensor form)", "‖a‖₂ ≤ √H‖a‖∞"),
    inputs={k: v for k, v in sens_rnn_inputs(direction="W").items() if k != "v"},
    dims={"H": [1, 2, 3], "T": [2, 3], "act": list(SMOOTH)},
    notes="Our reading of the guess (flagged): the quantity the √H max_p factor bounds in item 3.3.1, "
    "‖WP_{t-1}vec(ΔW)‖₂, has the tighter bound with the vector of row norms, the form Lemma 4 of seed 001 "
    "takes. The second step is tight only when all rows have the same S¹ norm.",
)
def tensor_bound_000(xp, U, W, s0, X, D, act, T):
    P = forward_sensitivities(xp, U, W, s0, X, act, tensors="P")["P"][T - 1]
    rows = s1(xp, xp.einsum("bpk,bkij->bpij", W, P))
    dn = sinf(xp, D)
    lhs = norm2(xp, xp.einsum("bpk,bkij,bij->bp", W, P, D))
    return lhs, norm2(xp, rows) * dn, math.sqrt(W.shape[-1]) * xp.max(rows, axis=-1) * dn


_U3 = (
    "≤ ‖λ''_t‖_∞ ‖V_{p,:}ᵀ‖_∞ ‖x_tᵀ‖_2 (‖ΔU‖_{S^∞} ‖x_t^2‖_2 + √H max_p(‖Mtr(W_{p,:}Q_{t−1})‖_{S^1}) "
    "‖ΔU‖_{S^∞})"
)
_DU_X = {"dU": Array("H", "N"), "x": Array("N")}
_DU_X_DIMS = {"H": [1, 2, 3], "N": [1, 2, 3]}


@inequality(
    "sens.u_x_squared_000",
    title="U item 3 as typeset: ‖ΔU x_t‖₂ ≤ ‖ΔU‖_{S∞}‖x_t^2‖₂ (x_t^2 the entrywise square)",
    source=S0_LOSS_U.at("item 3 (last two lines)").quote(_U3),
    statement=r"\|\Delta\mathbf{U}\mathbf{x}_t\|_2 \le \|\Delta\mathbf{U}\|_{S^\infty}\|\mathbf{x}_t^2\|_2",
    expected=Verdict.REFUTED,
    inputs=_DU_X,
    dims=_DU_X_DIMS,
    notes="The step of item 3 that splits ‖ΔU x_t + WQ_{t-1}vec(ΔU)‖₂ bounds ‖ΔU x_t‖₂, and the display "
    "writes ‖x_t^2‖₂ there and in the next line. Read literally (entrywise square, or x_tᵀx_t = ‖x_t‖²) it "
    "fails whenever the entries of x_t are small (‖x_t^2‖₂ < ‖x_t‖₂); sens.u_part1_chain_000 reads it as "
    "‖x_t‖₂ (a conversion garble, previously recorded only in its notes). Corrected: "
    "sens.u_x_squared_000.corrected.",
)
def u_x_squared_000(xp, dU, x):
    return norm2(xp, matvec(dU, x)), sinf(xp, dU) * norm2(xp, x * x)


@inequality(
    "sens.u_x_squared_000.corrected",
    title="U item 3 read with ‖x_t‖₂: ‖ΔU x_t‖₂ ≤ ‖ΔU‖_{S∞}‖x_t‖₂",
    source=S0_LOSS_U.at("item 3 (‖x_t^2‖₂ read as ‖x_t‖₂)").quote(_U3),
    statement=r"\|\Delta\mathbf{U}\mathbf{x}_t\|_2 \le \|\Delta\mathbf{U}\|_{S^\infty}\|\mathbf{x}_t\|_2",
    expected=Verdict.HOLDS,
    corrects="sens.u_x_squared_000",
    same_as=("sens.u_part1_chain_000",),
    inputs=_DU_X,
    dims=_DU_X_DIMS,
)
def u_x_squared_000_corrected(xp, dU, x):
    return norm2(xp, matvec(dU, x)), sinf(xp, dU) * norm2(xp, x)


_LAMBDA = (
    "Approximate this formula at t = 0 and note that every diagonal element of Λ_t is smaller than "
    "max_x σ'(x)"
)


@inequality(
    "sens.lambda_below_max_000",
    title="Every diagonal element of Λ_t = diag(σ'(Ux_t + Ws_{t-1})) is at most max_x σ'(x)",
    source=S0_LOSS_W.at("item 3 (second display)").quote(_LAMBDA),
    statement=r"\max_k [\Lambda_t]_{kk} \le \max_x \sigma'(x)",
    expected=Verdict.HOLDS,
    inputs={k: v for k, v in sens_rnn_inputs().items() if k != "v"},
    dims={"H": [1, 2, 3], "T": [1, 3], "act": list(SMOOTH)},
    notes="'smaller than' read as ≤: for tanh and sigmoid the maximum of σ' is attained at 0 (tightness 1 "
    "when a pre-activation is 0), for softplus (σ' = sigmoid) it is a supremum. max σ' is 1 (tanh, "
    "softplus) "
    "and 1/4 (sigmoid), the table SUP_D1.",
)
def lambda_below_max_000(xp, U, W, s0, X, act, T):
    lam = forward_sensitivities(xp, U, W, s0, X, act, tensors="")["lam1"][T]
    return xp.max(lam, axis=-1), 0 * lam[:, 0] + SUP_D1[act]
