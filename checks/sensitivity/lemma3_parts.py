r"""Lemma 3 inside the bounds of seed 001: eq. (17)/(18) for U and eq. (28)/(31) for W, as written and
corrected, declared from one table (checks in ``_mirror``)."""

from checks._vocab.activations import SMOOTH
from checks._vocab.sources import S1_B1, S1_B2, SEED_001
from checks.sensitivity._helpers import SENS_RNN_DIMS, sens_rnn_inputs
from checks.sensitivity._mirror import (
    WRT,
    Mirror,
    declare,
    lemma3_outer_inner,
    lemma3_outer_part,
    lemma3_tensor_part,
    mirrored_pair,
)
from checks.sensitivity._notation import INNER_U, INNER_W, UNLABELLED_S1_W, by_direction
from lemmacheck import Source, Verdict, inequality

#: each statement read with the table of its direction (checks/sensitivity/_notation.py)
claim_symbols = {
    **by_direction(
        u=("sens.eq17", "sens.eq17.corrected", "sens.eq18", "sens.eq18.corrected"),
        w=("sens.eq28", "sens.eq28.corrected", "sens.eq31.corrected"),
    ),
    "sens.eq17.inner": INNER_U,  # V_pᵀ x_t as typeset, an inner product
    "sens.eq28.inner": INNER_W,
    "sens.eq31": UNLABELLED_S1_W,  # its unlabelled ‖P_{t-1:,:,q}‖ read as S¹
}

U, W = WRT["U"], WRT["W"]

_EQ17_QUOTE = (
    "||d/d_t Λ'_t V_pᵀ x_t||_{S1} ≤ ||d/d_t λ'_t ⊙ V_pᵀ||_2 ||x_t||_2 ≤ ||d/d_t λ'_t||_∞ ||V_p||_2 "
    "||x_t||_2 ≤ max_q(λ'_{t_q}^{−1} λ''_{t_q} ||Q_{t−1...,q}||_{S1}) ||ΔU||_{S∞} ||V_p||_2 ||x_t||_2"
)

_EQ18_QUOTE = (
    "||Q_{t−1}W̃ᵀ d/d_t Λ̃'_t Ṽ_pᵀ||_{S1} ≤ || ||Q_{t−1:,:,*}||_{S1} ||_2 ||Wᵀ d/d_t λ'_t ⊙ V_pᵀ||_2 ≤ ... "
    "≤ || ||Q_{t−1:,:,*}||_{S1} ||_2 ||W||_{S∞} max_q(λ'_{tq}^{−1} λ''_{tq} ||Q_{t−1:,:,q}||_{S1}) "
    "||ΔU||_{S∞} ||V_p||_2"
)

_EQ28_QUOTE = (
    "||d/d_t Λ'_t V_pᵀ s_{t−1}||_{S1} ≤ ||d/d_t λ'_t ⊙ V_pᵀ||_2 ||s_{t−1}||_2 ≤ ||d/d_t λ'_t||_∞ ||V_p||_2 "
    "||s_{t−1}||_2 = max_q(λ'_{t_q}^{−1} λ''_{t_q} ||P_{t−1:,:,q}||_{S1}) ||ΔW||_{S∞} ||V_p||_2 "
    "||s_{t−1}||_2"
)

_EQ31_QUOTE = (
    "||P_{t−1}W̃ᵀ d/d_t Λ̃'_t Ṽ_pᵀ||_{S1} ≤ || ||P_{t−1:,:,*}||_{S1} ||_2 ||Wᵀ d/d_t Λ'_t V_pᵀ||_2 ≤ ... ≤ "
    "|| ||P_{t−1:,:,*}||_{S1} ||_2 ||W||_{S∞} max_q(λ'^{−1}_{t_q} λ''_{t_q} ||P_{t−1:,:,q}||) ||ΔW||_{S∞} "
    "||V_p||_2"
)

#: the steps of eq. (17)/(28) before Lemma 3, and of eq. (18)/(31)
_OUTER_STEPS = ("rank one", "eq. (11)")
_TENSOR_STEPS = ("Lemma 4", "‖Wᵀy‖ ≤ ‖W‖_{S∞}‖y‖", "eq. (11)")
#: eq. (18)/(31), as written and corrected: the four steps on the tensor part
_TENSOR = dict(dims={"H": [1, 2, 3], "T": [2, 3], "act": SMOOTH}, relations=("<=", "<=", "<=", "<="))


def _corrected_route(change: str, written: str, step: int | str) -> str:
    return (
        f"the catalogue's corrected route: {change}; the document's chain is {written} "
        f"(broken at step {step})"
    )


MIRRORED = [
    *mirrored_pair(
        inequality,
        "sens.eq17",
        U,
        lemma3_outer_part,
        inputs=sens_rnn_inputs(direction="U"),
        dims=SENS_RNN_DIMS,
        relations=("<=", "<=", "<="),
        written=dict(
            uses=("schatten.holder_eq8", "schatten.vector", "schatten.hadamard", "lemma3.as_written"),
            title="Eq. (17): ‖(dΛ'_t/dt)V_pᵀx_tᵀ‖_{S¹} ≤ … ≤ "
            "max_q(λ'^{-1}λ''‖Q_{t-1,:,:,q}‖_{S¹})‖ΔU‖‖V_p‖‖x_t‖",
            source=S1_B1.at("eq. (17)").quote(_EQ17_QUOTE),
            statement=r"\|\tfrac{d}{d_t}\mathbf{\Lambda}_t'\mathbf{V}_p^T\mathbf{x}_t\|_{S^1} \le \|"
            r"\tfrac{d}{d_t}\lambda_t'\odot\mathbf{V}_p^T\|_2\|\mathbf{x}_t\|_2 \le \|\tfrac{d}{d_t}"
            r"\lambda_t'\|_\infty\|\mathbf{V}_p\|_2\|\mathbf{x}_t\|_2\le \max_q(\lambda_{t_q}'^{-1}"
            r"\lambda_{t_q}''\|\mathbf{Q}_{t-1,:,:,q}\|_{S^1})\|\Delta\mathbf{U}\|_{S^\infty}\|\mathbf{V}_p"
            r"\|_2\|\mathbf{x}_t\|_2",
            expected=Verdict.REFUTED,
            # step 1 as typeset ('V_pᵀ x_t' an inner product) is sens.eq17.inner, REFUTED
            step_is={1: "sens.eq17.inner"},
            expected_broken_step=1,
            labels=(*_OUTER_STEPS, "Lemma 3 with Q_{t-1}"),
            notes="The last step applies Lemma 3 with Q_{t−1} where Lemma 3 (and eq. (19)) has Q_t, and "
            "with the signed ratio λ''/λ'. At t = 1, Q_0 = 0 and the right side vanishes. The check reads "
            "'V_pᵀ x_t' as the outer product V_pᵀx_tᵀ; as typeset (an inner product) step 1 is "
            "sens.eq17.inner, REFUTED, so the proof as written breaks first at step 1 (step_is), and "
            "again at step 3. Corrected: sens.eq17.corrected.",
        ),
        corrected=dict(
            title="Eq. (17) with Q_t and |λ''/λ'| in the last step",
            source=S1_B1.at("eq. (17) (corrected)").quote(_EQ17_QUOTE),
            statement=r"\|\tfrac{d}{d_t}\mathbf{\Lambda}_t'\mathbf{V}_p^T\mathbf{x}_t^T\|_{S^1} \le \max_q"
            r"\Big(\Big|\tfrac{\lambda_{t_q}''}{\lambda_{t_q}'}\Big|\|\mathbf{Q}_{t,:,:,q}\|_{S^1}\Big)\|"
            r"\Delta\mathbf{U}\|_{S^\infty}\|\mathbf{V}_p\|_2\|\mathbf{x}_t\|_2",
            expected=Verdict.HOLDS,
            proof_not_asserted=_corrected_route(
                "Q_t and |λ''/λ'| in the last step where eq. (17) has Q_{t−1} and the signed ratio",
                "sens.eq17",
                "1 as typeset, sens.eq17.inner, and at step 3",
            ),
            labels=(*_OUTER_STEPS, "corrected Lemma 3"),
        ),
    ),
    *mirrored_pair(
        inequality,
        "sens.eq28",
        W,
        lemma3_outer_part,
        inputs=sens_rnn_inputs(direction="W"),
        dims=SENS_RNN_DIMS,
        written=dict(
            title="Eq. (28): ‖(dΛ'_t/dt)V_pᵀs_{t-1}ᵀ‖_{S¹} ≤ … = "
            "max_q(λ'^{-1}λ''‖P_{t-1,:,:,q}‖_{S¹})‖ΔW‖‖V_p‖‖s_{t-1}‖",
            source=S1_B2.at("eq. (28)").quote(_EQ28_QUOTE),
            statement=r"\|\tfrac{d}{d_t}\mathbf{\Lambda}_t'\mathbf{V}_p^T\mathbf{s}_{t-1}\|_{S^1} \le \|"
            r"\tfrac{d}{d_t}\lambda_t'\odot\mathbf{V}_p^T\|_2\|\mathbf{s}_{t-1}\|_2 \le \|\tfrac{d}{d_t}"
            r"\lambda_t'\|_\infty\|\mathbf{V}_p\|_2\|\mathbf{s}_{t-1}\|_2 = \max_q(\lambda_{t_q}'^{-1}"
            r"\lambda_{t_q}''\|\mathbf{P}_{t-1:,:,q}\|_{S^1})\|\Delta\mathbf{W}\|_{S^\infty}\|\mathbf{V}_p"
            r"\|_2\|\mathbf{s}_{t-1}\|_2",
            expected=Verdict.REFUTED,
            # step 1 as typeset ('V_pᵀ s_{t-1}' an inner product) is sens.eq28.inner, REFUTED
            step_is={1: "sens.eq28.inner"},
            expected_broken_step=1,
            relations=("<=", "<=", "="),
            labels=(*_OUTER_STEPS, "Lemma 3 for W, written as an equality, with P_{t-1}"),
            notes="The last relation is written '=' but Lemma 3 is at best an upper bound; with P_{t−1} "
            "and the signed ratio it is not even that (P_0 = 0 at t = 1). Step 1 as typeset ('V_pᵀ "
            "s_{t−1}' an inner product) is sens.eq28.inner, REFUTED (step_is): the proof as written breaks "
            "there first. Corrected: sens.eq28.corrected ('≤', P_t, |λ''/λ'|).",
        ),
        corrected=dict(
            title="Eq. (28) with '≤', P_t and |λ''/λ'|",
            source=S1_B2.at("eq. (28) (corrected)").quote(_EQ28_QUOTE),
            statement=r"\|\tfrac{d}{d_t}\mathbf{\Lambda}_t'\mathbf{V}_p^T\mathbf{s}_{t-1}^T\|_{S^1} \le "
            r"\max_q\Big(\Big|\tfrac{\lambda_{t_q}''}{\lambda_{t_q}'}\Big|\|\mathbf{P}_{t:,:,q}\|_{S^1}"
            r"\Big)\|\Delta\mathbf{W}\|_{S^\infty}\|\mathbf{V}_p\|_2\|\mathbf{s}_{t-1}\|_2",
            expected=Verdict.HOLDS,
            proof_not_asserted=_corrected_route(
                "'≤', P_t and |λ''/λ'| in the last step where eq. (28) writes '=', P_{t−1} and the "
                "signed ratio",
                "sens.eq28",
                "1 as typeset, sens.eq28.inner, and at step 3",
            ),
            relations=("<=", "<=", "<="),
            labels=(*_OUTER_STEPS, "corrected Lemma 3 for W"),
        ),
    ),
    *mirrored_pair(
        inequality,
        "sens.eq18",
        U,
        lemma3_tensor_part,
        inputs=sens_rnn_inputs(direction="U"),
        **_TENSOR,
        written=dict(
            uses=(
                "schatten.holder_eq8",
                "schatten.vector",
                "schatten.hadamard",
                "lemma3.as_written",
                "lemma4.bound",
            ),
            title="Eq. (18): ‖Q_{t-1}W̃ᵀ(dΛ̃'_t/dt)Ṽ_pᵀ‖_{S¹} ≤ ‖‖Q_{t-1}‖_{S¹}‖₂‖W‖ "
            "max_q(λ'^{-1}λ''‖Q_{t-1,q}‖_{S¹})‖ΔU‖‖V_p‖",
            source=S1_B1.at("eq. (18) (unnumbered display before Lemma 3)").quote(_EQ18_QUOTE),
            statement=r"\|\mathbf{Q}_{t-1}\tilde{\mathbf{W}}^T\tfrac{d}{d_t}\tilde{\mathbf{\Lambda}}_t'"
            r"\tilde{\mathbf{V}}_p^T\|_{S^1}\le \|\|\mathbf{Q}_{t-1:,:,*}\|_{S^1}\|_2\|\mathbf{W}\|_{S^"
            r"\infty}\max_q(\lambda_{tq}'^{-1}\lambda_{tq}''\|\mathbf{Q}_{t-1:,:,q}\|_{S^1})\|\Delta"
            r"\mathbf{U}\|_{S^\infty}\|\mathbf{V}_p\|_2",
            expected=Verdict.REFUTED,
            expected_broken_step=4,
            labels=(*_TENSOR_STEPS, "Lemma 3 with Q_{t-1}"),
            notes="The display carries no number in the converted text (the (18) tag is lost; its last "
            "line is printed three times). Same defect as eq. (17) in the last step. Corrected: "
            "sens.eq18.corrected.",
        ),
        corrected=dict(
            title="Eq. (18) with Q_t and |λ''/λ'| in the last step",
            source=S1_B1.at("eq. (18) (corrected)").quote(_EQ18_QUOTE),
            statement=r"\|\mathbf{Q}_{t-1}\tilde{\mathbf{W}}^T\tfrac{d}{d_t}\tilde{\mathbf{\Lambda}}_t'"
            r"\tilde{\mathbf{V}}_p^T\|_{S^1}\le \|\|\mathbf{Q}_{t-1:,:,*}\|_{S^1}\|_2\|\mathbf{W}\|_{S^"
            r"\infty}\max_q\Big(\Big|\tfrac{\lambda_{tq}''}{\lambda_{tq}'}\Big|\|\mathbf{Q}_{t:,:,q}"
            r"\|_{S^1}\Big)\|\Delta\mathbf{U}\|_{S^\infty}\|\mathbf{V}_p\|_2",
            expected=Verdict.HOLDS,
            proof_not_asserted=_corrected_route(
                "Q_t and |λ''/λ'| in the last step where eq. (18) has Q_{t−1} and the signed ratio",
                "sens.eq18",
                4,
            ),
            labels=(*_TENSOR_STEPS, "corrected Lemma 3"),
        ),
    ),
    *mirrored_pair(
        inequality,
        "sens.eq31",
        W,
        lemma3_tensor_part,
        inputs=sens_rnn_inputs(direction="W"),
        **_TENSOR,
        written=dict(
            title="Eq. (31): ‖P_{t-1}W̃ᵀ(dΛ̃'_t/dt)Ṽ_pᵀ‖_{S¹} ≤ … ≤ ‖‖P_{t-1}‖‖₂‖W‖ "
            "max_q(λ'^{-1}λ''‖P_{t-1,q}‖)‖ΔW‖‖V_p‖",
            source=S1_B2.at("eq. (31)").quote(_EQ31_QUOTE),
            statement=r"\|\mathbf{P}_{t-1}\tilde{\mathbf{W}}^T\tfrac{d}{d_t}\tilde{\mathbf{\Lambda}}_t'"
            r"\tilde{\mathbf{V}}_p^T\|_{S^1}\le \|\|\mathbf{P}_{t-1:,:,*}\|_{S^1}\|_2\|\mathbf{W}\|_{S^"
            r"\infty}\max_q(\lambda_{t_q}'^{-1}\lambda_{t_q}''\|\mathbf{P}_{t-1:,:,q}\|)\|\Delta\mathbf{W}"
            r"\|_{S^\infty}\|\mathbf{V}_p\|_2",
            expected=Verdict.REFUTED,
            expected_broken_step=4,
            labels=(*_TENSOR_STEPS, "Lemma 3 with P_{t-1}"),
            notes="The unlabelled norm ‖P_{t−1:,:,q}‖ in the last line is read as S¹ (as in eq. (28)). "
            "Same defect as eq. (17)/(28) in the last step. Corrected: sens.eq31.corrected.",
        ),
        corrected=dict(
            title="Eq. (31) with P_t and |λ''/λ'| in the last step",
            source=S1_B2.at("eq. (31) (corrected)").quote(_EQ31_QUOTE),
            statement=r"\|\mathbf{P}_{t-1}\tilde{\mathbf{W}}^T\tfrac{d}{d_t}\tilde{\mathbf{\Lambda}}_t'"
            r"\tilde{\mathbf{V}}_p^T\|_{S^1}\le \|\|\mathbf{P}_{t-1:,:,*}\|_{S^1}\|_2\|\mathbf{W}\|_{S^"
            r"\infty}\max_q\Big(\Big|\tfrac{\lambda_{t_q}''}{\lambda_{t_q}'}\Big|\|\mathbf{P}_{t:,:,q}"
            r"\|_{S^1}\Big)\|\Delta\mathbf{W}\|_{S^\infty}\|\mathbf{V}_p\|_2",
            expected=Verdict.HOLDS,
            proof_not_asserted=_corrected_route(
                "P_t and |λ''/λ'| in the last step where eq. (31) has P_{t−1} and the signed ratio",
                "sens.eq31",
                4,
            ),
            labels=(*_TENSOR_STEPS, "corrected Lemma 3"),
        ),
    ),
]


def _inner_reading(claim_id: str, wrt, eq: str, y: str, quote: str, written: str, inputs: dict) -> Mirror:
    """The first step of eq. (17)/(28) with 'V_pᵀ y' as typeset (an inner product), beside ``written``,
    which reads it as the outer product V_pᵀyᵀ."""
    return Mirror(
        inequality,
        claim_id,
        wrt,
        lemma3_outer_inner,
        dict(
            title=f"Eq. ({eq}), first step, with 'V_pᵀ {y}' as typeset: the inner product V_p·{y}",
            source=Source(SEED_001, f"{_SECTION[eq]}, eq. ({eq}) (V_pᵀ{y} read as typeset)", quote=quote),
            statement=rf"\|\tfrac{{d}}{{d_t}}\mathbf{{\Lambda}}_t'\,(\mathbf{{V}}_p^T\mathbf{{{y}}})"
            rf"\|_{{S^1}} \le \|\tfrac{{d}}{{d_t}}\lambda_t'\odot\mathbf{{V}}_p^T\|_2\|\mathbf{{{y}}}\|_2,\ "
            rf"\mathbf{{V}}_p^T\mathbf{{{y}}}\in\mathbb{{R}}",
            expected=Verdict.REFUTED,
            same_as=(written,),
            inputs=inputs,
            dims=SENS_RNN_DIMS,
            notes=f"The second reading of the left side of eq. ({eq}); {written} (and its chain) reads 'V_pᵀ "
            f"{y}' as the outer product V_pᵀ{y}ᵀ, a transpose lost in the conversion. As typeset, V_pᵀ{y} "
            f"is the inner product of two H-vectors (for x_t: with N = H, the only case it is defined), and "
            "the matrix is the diagonal (V_p·y) dΛ'_t/dt, whose S¹ norm |V_p·y|‖dλ'_t/dt‖₁ the step's right "
            "side does not bound (V_p = y = e₁, dλ'/dt = (1, 1) gives 2 > 1).",
        ),
    )


_SECTION = {"17": "§B.1", "28": "§B.2"}
INNER_READINGS = [
    _inner_reading(
        "sens.eq17.inner", U, "17", "x_t", _EQ17_QUOTE, "sens.eq17", sens_rnn_inputs(N="H", direction="U")
    ),
    _inner_reading(
        "sens.eq28.inner", W, "28", "s_{t-1}", _EQ28_QUOTE, "sens.eq28", sens_rnn_inputs(direction="W")
    ),
]

for row in MIRRORED + INNER_READINGS:
    declare(row, __name__)
