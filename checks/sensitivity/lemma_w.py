"""The W parts of seed 001 §B.2 that have no U twin, eq. (29)–(30), and Lemma 4."""

from checks._vocab.linalg import inf_norm, norm2, s1, sinf
from checks._vocab.sources import S1_B1, S1_B2
from checks.sensitivity._helpers import (
    SENS_RNN_DIMS,
    forward_sensitivities,
    lemma4_steps,
    sens_rnn_inputs,
)
from checks.sensitivity._notation import LEMMA4, by_direction
from checks.sensitivity.lemma import _lam
from lemmacheck import Array, Verdict, inequality

#: each statement read with the table of its direction (checks/sensitivity/_notation.py)
claim_symbols = {
    **by_direction(w=("sens.eq29", "sens.eq30")),
    "sens.lemma4": LEMMA4,
    "sens.lemma4_proof": LEMMA4,
}

# --------------------------------------------------------------------------- eq. (28)–(31): the W parts


_EQ29_QUOTE = (
    "||Λ'_t V_{p,:}ᵀ (d/d_t s_{t−1}ᵀ)||_{S1} ≤ ||λ'_t ⊙ V_pᵀ||_2 ||d/d_t s_{t−1}||_2 ≤ ||λ'_t||_∞ "
    "||V_p||_2 ||tr[∂s_{t−1}/∂W ΔW]||_2 = ||λ'_t||_∞ ||V_p||_2 ||ΔW||_{S∞} || ||P_{t−1:,:,*}||_{S1} ||_2"
)


@inequality(
    "sens.eq29",
    title="Eq. (29): ‖Λ'_tV_pᵀ(ds_{t-1}/dt)ᵀ‖_{S¹} ≤ … = ‖λ'_t‖_∞‖V_p‖₂‖ΔW‖_{S∞}‖‖P_{t-1,:,:,*}‖_{S¹}‖₂",
    source=S1_B2.at("eq. (29)").quote(_EQ29_QUOTE),
    statement=r"\|\mathbf{\Lambda}_t'\mathbf{V}_{p,:}^T(\tfrac{d}{d_t}\mathbf{s}_{t-1}^T)\|_{S^1} \le \|"
    r"\lambda_t'\odot\mathbf{V}_p^T\|_2\|\tfrac{d}{d_t}\mathbf{s}_{t-1}\|_2 \le \|\lambda_t'\|_\infty\|"
    r"\mathbf{V}_p\|_2\|\mathrm{tr}[\tfrac{\partial\mathbf{s}_{t-1}}{\partial\mathbf{W}}\Delta\mathbf{W}]"
    r"\|_2 = \|\lambda_t'\|_\infty\|\mathbf{V}_p\|_2\|\Delta\mathbf{W}\|_{S^\infty}\|\|"
    r"\mathbf{P}_{t-1:,:,*}\|_{S^1}\|_2",
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
    fw, tg, _ = _lam(xp, U, W, s0, X, act, T, 0 * U, D, "P")
    l1, sd = fw["lam1"][T], tg["sdot"][T - 1]
    e0 = s1(xp, xp.outer(l1 * v, sd))
    e1 = norm2(xp, l1 * v) * norm2(xp, sd)
    e2 = inf_norm(xp, l1) * norm2(xp, v) * norm2(xp, sd)
    e3 = inf_norm(xp, l1) * norm2(xp, v) * sinf(xp, D) * norm2(xp, s1(xp, fw["P"][T - 1]))
    return e0, e1, e2, e3


_EQ30_QUOTE = (
    "||P_{t−1} d/d_t W̃ᵀ Λ̃'_t Ṽ_pᵀ||_{S1} ≤ || ||P_{t−1:,:,*}||_{S1} ||_2 ||d/d_t Wᵀ Λ'_t V_pᵀ||_2 = ... "
    "≤ || ||P_{t−1:,:,*}||_{S1} ||_2 ||ΔW||_{S∞} ||λ'_t||_∞ ||V_pᵀ||_2"
)


@inequality(
    "sens.eq30",
    title="Eq. (30): ‖P_{t-1}ΔW̃ᵀΛ̃'_tṼ_pᵀ‖_{S¹} ≤ ‖‖P_{t-1,:,:,*}‖_{S¹}‖₂‖ΔW‖_{S∞}‖λ'_t‖_∞‖V_p‖₂",
    source=S1_B2.at("eq. (30)").quote(_EQ30_QUOTE),
    statement=r"\|\mathbf{P}_{t-1}\tfrac{d}{d_t}\tilde{\mathbf{W}}^T\tilde{\mathbf{\Lambda}}_t'\tilde{"
    r"\mathbf{V}}_p^T\|_{S^1}\le \|\|\mathbf{P}_{t-1:,:,*}\|_{S^1}\|_2\|\Delta\mathbf{W}^T\mathbf{"
    r"\Lambda}_t'\mathbf{V}_p^T\|_2 \le \|\|\mathbf{P}_{t-1:,:,*}\|_{S^1}\|_2\|\Delta\mathbf{W}\|_{S^"
    r"\infty}\|\lambda_t'\odot\mathbf{V}_p^T\|_2 \le \|\|\mathbf{P}_{t-1:,:,*}\|_{S^1}\|_2\|\Delta"
    r"\mathbf{W}\|_{S^\infty}\|\lambda_t'\|_\infty\|\mathbf{V}_p^T\|_2",
    expected=Verdict.HOLDS,
    inputs=sens_rnn_inputs(direction="W"),
    dims=SENS_RNN_DIMS,
    relations=("<=", "<=", "<="),
    labels=("Lemma 4", "‖ΔWᵀy‖ ≤ ‖ΔW‖_{S∞}‖y‖", "eq. (11)"),
)
def eq30(xp, U, W, s0, X, v, D, act, T):
    fw = forward_sensitivities(xp, U, W, s0, X, act, tensors="P")
    return lemma4_steps(xp, fw["P"][T - 1], D, fw["lam1"][T], v)


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
    uses=("sens.lemma4_proof",),
    title="Lemma 4: ‖T ṽ‖_{S¹} ≤ ‖(‖T_{:,:,p}‖_{S¹})_p‖₂ ‖v‖₂",
    source=S1_B1.at("Lemma 4").quote(_L4_QUOTE),
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
    source=S1_B1.at("eq. (21)").quote(_L4_QUOTE),
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
