r"""Mirrored claims, second order: the remainder as an integral with its Hölder bound, and the step
∫ ≃ ½ d/dt, of seeds 000/001, for U and for W (checks in ``_mirror``)."""

from checks._vocab.activations import SMOOTH
from checks._vocab.sources import S0_LOSS_U, S0_LOSS_W, S1_B1, S1_B2
from checks.sensitivity._helpers import (
    FIRST_ORDER_STEP,
    QUAD_TOL,
    SENS_RNN_DIMS_H2,
    sens_rnn_inputs,
)
from checks.sensitivity._mirror import WRT, Mirror, declare, half_derivative, remainder_chain
from checks.sensitivity._notation import by_direction
from lemmacheck import Verdict, approximation, inequality

#: each statement read with the table of its direction (checks/sensitivity/_notation.py)
claim_symbols = by_direction(
    u=("sens.u_remainder_000", "sens.eq14_remainder", "sens.eq15_half_derivative"),
    w=(
        "sens.w_remainder_000",
        "sens.eq24_remainder",
        "sens.w_half_derivative_000",
        "sens.eq25_half_derivative",
    ),
)

U, W = WRT["U"], WRT["W"]

_UREM_NOTES = (
    "tr([·]ΔU) of two H×N matrices is read as the pairing ⟨·, ΔU⟩ (the literal trace is undefined unless N "
    "= H; compare sens.w_integral_000), and ‖∫…‖_{S¹}d_t as ‖∫…d_t‖_{S¹}. Integral by 4×16-point "
    "Gauss–Legendre, remainder from the forward pass."
)

_REM_NOTES = (
    "The trace tr([·]ΔW) is read as the Frobenius pairing ⟨·, ΔW⟩ (the transpose issue is recorded once, "
    "in sens.w_integral_000). The document writes the norm as ‖∫_0^1 …‖_{S¹} dt with dt outside; read as "
    "‖∫_0^1 … dt‖_{S¹} (the triangle inequality would also allow ∫‖…‖_{S¹}dt, which is larger). The "
    "integral is a 4×16-point composite Gauss–Legendre quadrature; r_p from the forward pass."
)

_HALF_NOTES = (
    "Measured on the Schatten-1 norms the bound uses. With ΔW = εD the integral is εG₁/2 + ε²G₂/6 + …, so "
    "the step '≃ ½ d/dt' has an O(ε²) remainder; the failure rate of '≤' is the fraction where the "
    "integral's norm exceeds the kept half-derivative. d/dt is the exact tangent recursion "
    "(sens.pdot_recursion checks it against finite differences); the integral is a 6-point Gauss–Legendre "
    "rule (the path is short: ε ≤ 0.1)."
)

#: the remainder as an integral with its Hölder bound, as seeds 000 and 001 both state it
_REMAINDER = dict(
    expected=Verdict.HOLDS,
    dims={"H": [1, 2, 3], "T": [2, 4], "act": SMOOTH},
    relations=("=", "<="),
    labels=("integral form of the remainder", "Hölder, eq. (10)"),
    # Step 1 as written pairs with tr([·]Δ), which the literal-trace claims (remainder_trace.py) refute;
    # the check computes the step with the Frobenius pairing, so the link, not the step, breaks the proof.
    expected_broken_step=1,
    tol=QUAD_TOL,
)
_U_REMAINDER = dict(_REMAINDER, inputs=sens_rnn_inputs(direction="U", step=(-0.15, 0.15)), notes=_UREM_NOTES)
_W_REMAINDER = dict(_REMAINDER, inputs=sens_rnn_inputs(direction="W", step=(-0.15, 0.15)))
#: the step ∫ ≃ ½ d/dt
_HALF = dict(expected=Verdict.APPROXIMATE, dims=SENS_RNN_DIMS_H2, **FIRST_ORDER_STEP)
_W_HALF = dict(_HALF, inputs=sens_rnn_inputs(direction="W"), notes=_HALF_NOTES)

MIRRORED = [
    Mirror(
        inequality,
        "sens.u_remainder_000",
        U,
        remainder_chain,
        dict(
            title="Remainder of the U step as an integral, bounded by ‖ΔU‖_{S∞}‖∫(∇V_ps_t(U+tΔU) − "
            "∇V_ps_t(U))‖_{S¹}",
            source=S0_LOSS_U.at("second item 2.1").quote(
                "= ∫_0^1 tr([V_{p,:}∇_U s_t(U^k + tΔU) − V_{p,:}∇_U s_t(U^k)]ΔU) d_t ≤ ||ΔU||_{S∞} "
                "||∫_0^1 V_{p,:}∇_U s_t(U^k + tΔU) − V_{p,:}∇_U s_t(U^k) d_t||_{S1}"
            ),
            statement=r"[\mathbf{V}\mathbf{s}_t(\mathbf{U}^k+\Delta\mathbf{U}) - "
            r"\mathbf{V}\mathbf{s}_t(\mathbf{U}^k) - \langle\mathbf{V}\nabla_{\mathbf{U}}\mathbf{s}_t("
            r"\mathbf{U}^k),\Delta\mathbf{U}\rangle]_p = \int_0^1\mathrm{tr}([\ldots]\Delta\mathbf{U})d_t "
            r"\le \|\Delta\mathbf{U}\|_{S^\infty}\Big\|\int_0^1\ldots d_t\Big\|_{S^1}",
            same_as=("sens.eq14_remainder",),
            step_is={1: "sens.u_remainder_trace_000"},
            **_U_REMAINDER,
        ),
    ),
    Mirror(
        inequality,
        "sens.eq14_remainder",
        U,
        remainder_chain,
        dict(
            title="Eq. (14): the remainder integral and its Hölder bound for U (seed 001)",
            source=S1_B1.at("eq. (14)").quote(
                "= ∫_0^1 tr([V_{p,:}∇_U s_t(U^k + tΔU) − V_{p,:}∇_U s_t(U^k)]ΔU)d_t ≤ ||ΔU||_{S∞} "
                "||∫_0^1 ...||_{S1} d_t"
            ),
            statement=r"[\ldots]_p = \int_0^1\mathrm{tr}([\mathbf{V}_{p,:}\nabla_{\mathbf{U}}\mathbf{s}_t("
            r"\mathbf{U}^k+t\Delta\mathbf{U}) - \mathbf{V}_{p,:}\nabla_{\mathbf{U}}\mathbf{s}_t("
            r"\mathbf{U}^k)]\Delta\mathbf{U})d_t \le "
            r"\|\Delta\mathbf{U}\|_{S^\infty}\|\int_0^1\ldots\|_{S^1}d_t",
            same_as=("sens.u_remainder_000",),
            step_is={1: "sens.eq14_trace"},
            **_U_REMAINDER,
        ),
    ),
    Mirror(
        inequality,
        "sens.w_remainder_000",
        W,
        remainder_chain,
        dict(
            title="Remainder r_p of the W step as an integral, bounded by ‖ΔW‖_{S∞}‖∫(∇V_p s_t(W+tΔW) − "
            "∇V_p s_t(W))‖_{S¹}",
            source=S0_LOSS_W.at("item 3.1").quote(
                "= ∫_0^1 tr([V_{p,:}∇_W s_t(W^k + tΔW) − V_{p,:}∇_W s_t(W^k)]ΔW)dt ≤ ||ΔW||_{S∞} "
                "||∫_0^1 V_{p,:}∇_W s_t(W^k + tΔW) − V_{p,:}∇_W s_t(W^k)||_{S1} dt"
            ),
            statement=r"[\mathbf{V}\mathbf{s}_t(\mathbf{W}^k+\Delta\mathbf{W}) - "
            r"\mathbf{V}\mathbf{s}_t(\mathbf{W}^k) - \langle\mathbf{V}\nabla_{\mathbf{W}}\mathbf{s}_t("
            r"\mathbf{W}^k),\Delta\mathbf{W}\rangle]_p = \int_0^1\mathrm{tr}([\ldots]\Delta\mathbf{W})dt "
            r"\le \|\Delta\mathbf{W}\|_{S^\infty}\Big\|\int_0^1 \mathbf{V}_{p,:}\nabla_{\mathbf{W}}"
            r"\mathbf{s}_t(\mathbf{W}^k+t\Delta\mathbf{W}) - \mathbf{V}_{p,:}\nabla_{\mathbf{W}}"
            r"\mathbf{s}_t(\mathbf{W}^k)\Big\|_{S^1}dt",
            same_as=("sens.eq24_remainder",),
            step_is={1: "sens.w_remainder_trace_000"},
            **_W_REMAINDER,
            notes=_REM_NOTES,
        ),
    ),
    Mirror(
        inequality,
        "sens.eq24_remainder",
        W,
        remainder_chain,
        dict(
            title="Eq. (24): the same remainder integral and Hölder bound for W (seed 001)",
            source=S1_B2.at("eq. (24)").quote(
                "= ∫_0^1 tr([V_{p,:}∇_W s_t(W^k + tΔW) − V_{p,:}∇_W s_t(W^k)]ΔW)d_t ≤ ||ΔW||_{S∞} "
                "||∫_0^1 ...||_{S1} d_t"
            ),
            statement=r"[\ldots]_p = \int_0^1 \mathrm{tr}([\mathbf{V}_{p,:}\nabla_{\mathbf{W}}\mathbf{s}_t("
            r"\mathbf{W}^k+t\Delta\mathbf{W}) - \mathbf{V}_{p,:}\nabla_{\mathbf{W}}\mathbf{s}_t("
            r"\mathbf{W}^k)]\Delta\mathbf{W})d_t \le \|\Delta\mathbf{W}\|_{S^\infty}\|\int_0^1 "
            r"\ldots\|_{S^1}d_t",
            same_as=("sens.w_remainder_000",),
            step_is={1: "sens.eq24_trace"},
            **_W_REMAINDER,
            notes=_REM_NOTES
            + " The text before eq. (24) repeats the first part twice ('we need to upper bound "
            "‖Vs_t(W^k+ΔW) − Vs_t(W^k)‖∞ and ‖Vs_t(W^k+ΔW) − Vs_t(W^k)‖∞'); the second should subtract "
            "⟨V∇_W s_t, ΔW⟩ as eq. (24) does.",
        ),
    ),
    Mirror(
        approximation,
        "sens.eq15_half_derivative",
        U,
        half_derivative,
        dict(
            title="Eq. (15): ∫_0^1 [∇_U V_ps_t(U+tΔU) − ∇_U V_ps_t(U)] ≃ ½ d/dt ∇_U V_ps_t(U+tΔU)|_{t=0}",
            source=S1_B1.at("eq. (15)").quote(
                "≃ ∫_0^1 d/d_t V_{p,:}∇_U s_t(U^k + tΔU)|_{t=0} t d_t = 1/2 d/d_t V_{p,:}∇_U s_t(U^k "
                "+ tΔU)|_{t=0}"
            ),
            statement=r"\int_0^1\mathbf{V}_{p,:}\nabla_{\mathbf{U}}\mathbf{s}_t(\mathbf{U}^k+t\Delta"
            r"\mathbf{U}) - \mathbf{V}_{p,:}\nabla_{\mathbf{U}}\mathbf{s}_t(\mathbf{U}^k) \simeq \frac12"
            r"\frac{d}{d_t}\mathbf{V}_{p,:}\nabla_{\mathbf{U}}\mathbf{s}_t(\mathbf{U}^k+t\Delta\mathbf{U})"
            r"\Big|_{t=0}",
            same_as=("sens.u_half_derivative_000",),
            inputs=sens_rnn_inputs(direction="U"),
            **_HALF,
            notes="In S¹ norm (what the bound uses); d/dt from the exact tangent recursion Q̇_t. Seed "
            "000's version of this step drops the factor t inside the integral "
            "(sens.u_half_derivative_000, derivations/sensitivity/calculus.py).",
        ),
    ),
    Mirror(
        approximation,
        "sens.w_half_derivative_000",
        W,
        half_derivative,
        dict(
            uses=("sens.half_derivative_000",),
            title="∫_0^1 [∇V_p s_t(W+tΔW) − ∇V_p s_t(W)]dt ≃ ½ d/dt ∇V_p s_t(W+tΔW)|_{t=0} (seed 000, W)",
            source=S0_LOSS_W.at("item 3.2").quote(
                "≃ ∫_0^1 d/dt V_{p,:}∇_W s_t(W^k + tΔW)|_{t=0} t dt = 1/2 d/dt V_{p,:}∇_W s_t(W^k + "
                "tΔW)|_{t=0}"
            ),
            statement=r"\int_0^1 \mathbf{V}_{p,:}\nabla_{\mathbf{W}}\mathbf{s}_t(\mathbf{W}^k+t\Delta"
            r"\mathbf{W}) - \mathbf{V}_{p,:}\nabla_{\mathbf{W}}\mathbf{s}_t(\mathbf{W}^k)dt \simeq \frac12"
            r"\frac{d}{dt}\mathbf{V}_{p,:}\nabla_{\mathbf{W}}\mathbf{s}_t(\mathbf{W}^k+t\Delta\mathbf{W})"
            r"\Big|_{t=0}",
            same_as=("sens.eq25_half_derivative",),
            **_W_HALF,
        ),
    ),
    Mirror(
        approximation,
        "sens.eq25_half_derivative",
        W,
        half_derivative,
        dict(
            title="Eq. (25): the same first-order step ∫ ≃ ½ d/dt for W (seed 001)",
            source=S1_B2.at("eq. (25)").quote(
                "≃ ∫_0^1 d/d_t V_{p,:}∇_W s_t(W^k + tΔW)|_{t=0} t d_t = 1/2 d/d_t V_{p,:}∇_W s_t(W^k "
                "+ tΔW)|_{t=0}"
            ),
            statement=r"\int_0^1 \mathbf{V}_{p,:}\nabla_{\mathbf{W}}\mathbf{s}_t(\mathbf{W}^k+t\Delta"
            r"\mathbf{W}) - \mathbf{V}_{p,:}\nabla_{\mathbf{W}}\mathbf{s}_t(\mathbf{W}^k)d_t \simeq \frac12"
            r"\frac{d}{d_t}\mathbf{V}_{p,:}\nabla_{\mathbf{W}}\mathbf{s}_t(\mathbf{W}^k+t\Delta\mathbf{W})"
            r"\Big|_{t=0}",
            same_as=("sens.w_half_derivative_000",),
            **_W_HALF,
        ),
    ),
]

for row in MIRRORED:
    declare(row, __name__)
