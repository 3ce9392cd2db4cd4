r"""Mirrored claims, first order: linking equations, the matrix recursions Q_t/P_t, Λ_t pulled out, the
first-order bounds and the Taylor step of seeds 000/001, for U and for W (checks in ``_mirror``)."""

from checks._vocab.activations import SMOOTH
from checks._vocab.sources import S0_LOSS_U, S0_LOSS_W
from checks.sensitivity._helpers import (
    FD_PROBED,
    FIRST_ORDER_STEP,
    SENS_RNN_DIMS,
    SENS_RNN_DIMS_H2,
    sens_rnn_inputs,
)
from checks.sensitivity._mirror import (
    WRT,
    Mirror,
    declare,
    first_order,
    first_order_bound,
    lambda_out,
    linking,
    sens_matrix,
    sens_matrix_as_written,
)
from checks.sensitivity._notation import (
    CMB_U,
    CMB_W,
    FIRST_ORDER_BOUND_U,
    FIRST_ORDER_BOUND_W,
    PAIRING_TRACE_U,
    by_direction,
)
from lemmacheck import Verdict, approximation, identity, inequality

#: each statement read with the table of its direction (checks/sensitivity/_notation.py)
claim_symbols = by_direction(
    u=(
        "sens.u_linking",
        "sens.u_first_order_000",
    ),
    w=(
        "sens.w_linking",
        "sens.w_lambda_out_000",
        "sens.w_first_order_000",
    ),
)
#: P_t and Q_t are compared as cᵀ M vec(B), as their checks pair them; the others as their table says
claim_symbols |= {
    "sens.u_lambda_out_000": PAIRING_TRACE_U,
    "sens.u_first_order_bound_000": FIRST_ORDER_BOUND_U,
    "sens.w_first_order_bound_000": FIRST_ORDER_BOUND_W,
    "sens.q_matrix_000": CMB_U,
    "sens.p_matrix_000": CMB_W,
    "sens.p_matrix_000.corrected": CMB_W,
}

U, W = WRT["U"], WRT["W"]

_P_QUOTE = (
    "Let P_t be a matrix of size H × H² where P_t(k, iH + j) = ∂[s_t(W)]_k/∂W_ij, S̄_t be a sparse matrix "
    "of the same size where S̄_t(i, (i−1)H + j) = s_{t,j} ... P_t = Λ_t(S̄_{t−1} + W P_{t−1})"
)

#: the two linking equations, for U and for W
_LINKING = dict(expected=Verdict.PROVED, relations=("=", "="))
#: the first-order bounds, checked on the first-order part in the worst direction (polar factor)
_WORST_DIRECTION = dict(
    expected=Verdict.REFUTED, inputs=sens_rnn_inputs(), dims={"H": [1, 2, 3, 4], "T": [2, 4], "act": SMOOTH}
)

MIRRORED = [
    Mirror(
        identity,
        "sens.u_linking",
        U,
        linking,
        dict(
            title="Linking equations for U: ∂[s_t]_p/∂U_ij = σ'(z_t)_p[x_{t,j}δ_ip + Σ_k W_pk "
            "∂[s_{t-1}]_k/∂U_ij]",
            source=S0_LOSS_U.at("'Linking equation'").quote(
                "∂[s_t(U)]_p/∂U_ij = σ'(Ux_t + W s_{t−1})_p [x_{t,j} δ_ip + Σ_k W_pk ∂[s_{t−1}(U)]_k/∂U_ij]"
            ),
            statement=r"\frac{\partial[\mathbf{V}\mathbf{s}_t]_p}{\partial\mathbf{U}_{ij}} = \sum_k"
            r"\mathbf{V}_{pk}\frac{\partial[\mathbf{s}_t]_k}{\partial\mathbf{U}_{ij}},\quad "
            r"\frac{\partial[\mathbf{s}_t]_p}{\partial\mathbf{U}_{ij}} = \sigma'(\mathbf{U}\mathbf{x}_t+"
            r"\mathbf{W}\mathbf{s}_{t-1})_p\Big[\mathbf{x}_{t,j}\delta_{ip} + \sum_k\mathbf{W}_{pk}\frac{"
            r"\partial[\mathbf{s}_{t-1}]_k}{\partial\mathbf{U}_{ij}}\Big]",
            **_LINKING,
            **FD_PROBED["U"],
            labels=("first linking equation", "second linking equation"),
            notes="Finite differences only (no recursion). derivations/sensitivity/linking.py proves it "
            "symbolically for H = 2, N = 1, T = 3.",
        ),
    ),
    Mirror(
        identity,
        "sens.w_linking",
        W,
        linking,
        dict(
            title="Linking equations for W: ∂[V s_t]_p/∂W_ij = Σ_k V_pk ∂[s_t]_k/∂W_ij and the per-entry "
            "recursion",
            source=S0_LOSS_W.at("item 2.1 (linking equation)").quote(
                "∂[s_t(W)]_p/∂W_ij = σ'(Ux_t + W s_{t-1})_p ([s_{t-1}]_j δ_ip + Σ_k "
                "∂[s_{t-1}(W)]_k/∂W_ij W_pk)"
            ),
            statement=r"\frac{\partial[\mathbf{V}\mathbf{s}_t]_p}{\partial \mathbf{W}_{ij}} = \sum_k "
            r"\mathbf{V}_{pk}\frac{\partial[\mathbf{s}_t]_k}{\partial \mathbf{W}_{ij}},\quad\frac{\partial["
            r"\mathbf{s}_t]_p}{\partial \mathbf{W}_{ij}} = \sigma'(\mathbf{U}\mathbf{x}_t + \mathbf{W}"
            r"\mathbf{s}_{t-1})_p\Big([\mathbf{s}_{t-1}]_j\delta_{ip} + \sum_k "
            r"\frac{\partial[\mathbf{s}_{t-1}]_k}{\partial \mathbf{W}_{ij}}\mathbf{W}_{pk}\Big)",
            **_LINKING,
            **FD_PROBED["W"],
            labels=("first linking equation (linearity of V)", "second linking equation (chain rule)"),
            notes="Both sides use only finite differences of the forward pass (no recursion): d/de of "
            "v·s_t(W+eB), v·(d/de s_t) and the right-hand side of the recursion with d/de s_{t-1} from "
            "finite differences. derivations/sensitivity/linking.py proves the same recursion symbolically "
            "for H = 2, T = 3.",
        ),
    ),
    Mirror(
        identity,
        "sens.q_matrix_000",
        U,
        sens_matrix,
        dict(
            uses=("sens.u_linking",),
            title="Q_t = Λ_t(X̄_t + W Q_{t-1}) with Q_t(p, iN+j) = ∂[s_t]_p/∂U_ij and X̄_t(i, iN+j) = x_t(j)",
            source=S0_LOSS_U.at("matrix form").quote(
                "Q_t = Λ_t(X̄_t + W Q_{t−1}) ... Q_t is a H × HN matrix where Q_t(p, iN + j) = "
                "∂[s_t(U)]_p/∂U_ij, X̄_t is a sparse matrix of the same size where X̄_t(i, iN + j) = x_t(j)"
            ),
            statement=r"\mathbf{Q}_t = \mathbf{\Lambda}_t(\bar{\mathbf{X}}_t + "
            r"\mathbf{W}\mathbf{Q}_{t-1}),\quad\mathbf{Q}_t(p, iN+j) = \frac{\partial[\mathbf{s}_t]_p}{"
            r"\partial\mathbf{U}_{ij}},\quad\bar{\mathbf{X}}_t(i, iN+j) = \mathbf{x}_t(j)",
            expected=Verdict.HOLDS,
            **FD_PROBED["U"],
            notes="Unlike S̄ in the W section, X̄ is indexed consistently with Q (0-based iN + j); the "
            "time index t of X̄_t is right (the input of step t enters z_t directly).",
        ),
    ),
    Mirror(
        identity,
        "sens.p_matrix_000",
        W,
        sens_matrix_as_written,
        dict(
            title="P_t = Λ_t(S̄_{t-1} + W P_{t-1}) with S̄ indexed as written, S̄(i,(i−1)H+j) next to P(k,iH+j)",
            source=S0_LOSS_W.at("item 2.2").quote(_P_QUOTE),
            statement=r"\mathbf{P}_t = \Lambda_t(\bar{\mathbf{S}}_{t-1} + "
            r"\mathbf{W}\mathbf{P}_{t-1}),\quad \mathbf{P}_t(k, iH+j) = \frac{\partial[\mathbf{s}_t]_k}{"
            r"\partial\mathbf{W}_{ij}},\quad \bar{\mathbf{S}}_t(i, (i-1)H+j) = \mathbf{s}_{t,j}",
            expected=Verdict.REFUTED,
            **FD_PROBED["W"],
            notes="The two index maps disagree: P(k, iH+j) is in range only for 0-based i, j, while S̄(i, "
            "(i−1)H+j) is the 1-based map. Read with one convention (0-based, as P and the later Mtr/X̄ "
            "definitions require), row i of S̄ lands in the column block of W_{i−1,·} and row 0 falls off "
            "the matrix, so the recursion misses the direct term δ_ip s_{t−1,j}; fails already at H = 1 "
            "(S̄ = 0). The time index t−1 of S̄_{t−1} is right. The corrected form is "
            "sens.p_matrix_000.corrected.",
        ),
    ),
    Mirror(
        identity,
        "sens.p_matrix_000.corrected",
        W,
        sens_matrix,
        dict(
            title="P_t = Λ_t(S̄_{t-1} + W P_{t-1}) with S̄_t(i, iH+j) = s_{t,j} (consistent 0-based indexing)",
            source=S0_LOSS_W.at("item 2.2 (corrected indexing)").quote(_P_QUOTE),
            statement=r"\mathbf{P}_t = \Lambda_t(\bar{\mathbf{S}}_{t-1} + "
            r"\mathbf{W}\mathbf{P}_{t-1}),\quad \bar{\mathbf{S}}_t(i, iH+j) = \mathbf{s}_{t,j}",
            expected=Verdict.HOLDS,
            corrects="sens.p_matrix_000",
            **FD_PROBED["W"],
            notes="With S̄ indexed like P the recursion is exactly the linking equation in matrix form.",
        ),
    ),
    Mirror(
        inequality,
        "sens.u_lambda_out_000",
        U,
        lambda_out,
        dict(
            uses=("sens.u_first_order_000",),
            title="Pulling Λ_t out (U): ⟨Mtr(V_pΛ_t(X̄_t+WQ_{t-1})), ΔU⟩ ≤ max σ' {V_pΔUx_t + "
            "tr[Mtr(V_pWQ_{t-1})ΔU]}",
            source=S0_LOSS_U.at("item 2 ('Approximate this equation at t = 0')").quote(
                "[Vs_t(U^k + ΔU) − Vs_t(U^k)]_p ≤ max_x σ'(x){V_{p,:}ΔU x_t + tr[Mtr(V_{p,:} W^k Q_{t−1})ΔU]}"
            ),
            statement=r"\langle\mathrm{Mtr}(\mathbf{V}_{p,:}\mathbf{\Lambda}_t(\bar{\mathbf{X}}_t+"
            r"\mathbf{W}\mathbf{Q}_{t-1})),\Delta\mathbf{U}\rangle \le \max_x\sigma'(x)\{\mathbf{V}_{p,:}"
            r"\Delta\mathbf{U}\mathbf{x}_t + \mathrm{tr}[\mathrm{Mtr}(\mathbf{V}_{p,:}\mathbf{W}^k"
            r"\mathbf{Q}_{t-1})\Delta\mathbf{U}]\}",
            expected=Verdict.REFUTED,
            inputs=sens_rnn_inputs(direction="U"),
            dims=SENS_RNN_DIMS,
            notes="Checked on the first-order part (exact linearisation). tr[Mtr(·)ΔU] of two H×N matrices "
            "is read as the pairing ⟨·, ΔU⟩ (literally the trace is undefined unless N = H). As for W, Λ_t "
            "cannot leave a signed sum.",
        ),
    ),
    Mirror(
        inequality,
        "sens.w_lambda_out_000",
        W,
        lambda_out,
        dict(
            uses=("sens.w_first_order_000", "sens.lambda_below_max_000"),
            title="Pulling Λ_t out: tr[Mtr(V_p Λ_t(S̄+WP))ΔWᵀ] ≤ max σ' · tr[Mtr(V_p(S̄+WP))ΔWᵀ]",
            source=S0_LOSS_W.at("item 3 (second display, first line)").quote(
                "Approximate this formula at t = 0 and note that every diagonal element of Λ_t is "
                "smaller than max_x σ'(x), so we have: [...]_p ≤ max_x σ'(x) tr[Mtr(V_{p,:}(S̄_{t−1} + W "
                "P_{t−1}))ΔWᵀ]"
            ),
            statement=r"\mathrm{tr}[\mathrm{Mtr}(\mathbf{V}_{p,:}\Lambda_t(\bar{\mathbf{S}}_{t-1}+"
            r"\mathbf{W}\mathbf{P}_{t-1}))\Delta\mathbf{W}^T] \le \max_x\sigma'(x)\,\mathrm{tr}["
            r"\mathrm{Mtr}(\mathbf{V}_{p,:}(\bar{\mathbf{S}}_{t-1}+\mathbf{W}\mathbf{P}_{t-1}))\Delta"
            r"\mathbf{W}^T]",
            expected=Verdict.REFUTED,
            inputs=sens_rnn_inputs(direction="W"),
            dims=SENS_RNN_DIMS,
            notes="Checked on the first-order part itself (the exact linearisation at t = 0), so no Taylor "
            "remainder is involved: the step replaces Λ_t by max σ'·I inside a signed sum. Σ_k V_pk λ_k "
            "y_k ≤ max σ' Σ_k V_pk y_k fails whenever Σ_k V_pk y_k < 0 (already at H = 1). Only the "
            "absolute value |·| admits such a bound, and then only after Hölder "
            "(sens.w_first_order_bound_000).",
        ),
    ),
    Mirror(
        inequality,
        "sens.u_first_order_bound_000",
        U,
        first_order_bound,
        dict(
            uses=("sens.u_integral_000", "sens.u_first_order_000", "sens.u_lambda_out_000"),
            title="First-order U bound of seed 000: first-order change ≤ max σ'‖ΔU‖(‖V_p‖‖x_t‖ + "
            "‖Mtr(V_pWQ_{t-1})‖_{S¹})",
            source=S0_LOSS_U.at("item 2 (last line)").quote(
                "= max_x σ'(x) ||ΔU||_{S∞} {||V_{p,:}||_2 ||x_t||_2 + ||Mtr(V_{p,:} W^k Q_{t−1})||_{S1}}"
            ),
            statement=r"[\mathbf{V}\mathbf{s}_t(\mathbf{U}^k+\Delta\mathbf{U}) - "
            r"\mathbf{V}\mathbf{s}_t(\mathbf{U}^k)]_p \lesssim \max_x\sigma'(x)\|\Delta\mathbf{U}\|_{S^"
            r"\infty}\{\|\mathbf{V}_{p,:}\|_2\|\mathbf{x}_t\|_2 + \|\mathrm{Mtr}(\mathbf{V}_{p,:}"
            r"\mathbf{W}^k\mathbf{Q}_{t-1})\|_{S^1}\}",
            **_WORST_DIRECTION,
            notes="First-order part in the worst direction ΔU = polar factor of ∇_U V_p s_t. As for W "
            "(sens.w_first_order_bound_000) the bound has max σ'‖Mtr(V_pWQ_{t−1})‖_{S¹} where "
            "‖Mtr(V_pΛ_tWQ_{t−1})‖_{S¹} is needed.",
        ),
    ),
    Mirror(
        inequality,
        "sens.w_first_order_bound_000",
        W,
        first_order_bound,
        dict(
            uses=("sens.w_integral_000", "sens.w_first_order_000", "sens.w_lambda_out_000"),
            title="First-order W bound of seed 000: |first-order change|_p ≤ max σ' ‖ΔW‖(‖V_p‖‖s_{t-1}‖ + "
            "‖Mtr(V_p W P_{t-1})‖_{S¹})",
            source=S0_LOSS_W.at("item 3 (second display, last line)").quote(
                "= max_x σ'(x) ||ΔW||_{S∞} {||V_{p,:}||_2 ||s_{t−1}||_2 + ||Mtr(V_{p,:} W^k P_{t−1})||_{S1}}"
            ),
            statement=r"[\mathbf{V}\mathbf{s}_t(\mathbf{W}^k+\Delta\mathbf{W}) - "
            r"\mathbf{V}\mathbf{s}_t(\mathbf{W}^k)]_p \lesssim \max_x\sigma'(x)\|\Delta\mathbf{W}\|_{S^"
            r"\infty}\{\|\mathbf{V}_{p,:}\|_2\|\mathbf{s}_{t-1}\|_2 + \|\mathrm{Mtr}(\mathbf{V}_{p,:}"
            r"\mathbf{W}^k\mathbf{P}_{t-1})\|_{S^1}\}",
            **_WORST_DIRECTION,
            notes="The finite-step change is ⟨G, ΔW⟩ + O(‖ΔW‖²) with G = ∇_W V_p s_t; the claim is checked "
            "on its first-order part in the worst direction ΔW = polar factor of G (so ⟨G, ΔW⟩ = ‖G‖_{S¹}, "
            "‖ΔW‖_{S∞} = 1). Because Λ_t was pulled out before taking norms (sens.w_lambda_out_000), "
            "‖Mtr(V_p Λ_t W P_{t−1})‖_{S¹} is replaced by max σ'‖Mtr(V_p W P_{t−1})‖_{S¹}, which is not an "
            "upper bound when V_p W nearly cancels but V_p Λ_t W does not. Rare (≈ 0.5–8 % of instances "
            "for tanh/softplus, larger ‖W‖), but the bound is false even to first order.",
        ),
    ),
    Mirror(
        approximation,
        "sens.u_first_order_000",
        U,
        first_order,
        dict(
            title="'Approximate this equation at t = 0' (U): finite change ≈ ⟨∇_U V_p s_t, ΔU⟩",
            source=S0_LOSS_U.at("item 2 ('Approximate this equation at t = 0')").quote(
                "Approximate this equation at t = 0: [Vs_t(U^k + ΔU) − Vs_t(U^k)]_p ≤ ..."
            ),
            statement=r"[\mathbf{V}\mathbf{s}_t(\mathbf{U}^k+\epsilon\mathbf{D}) - "
            r"\mathbf{V}\mathbf{s}_t(\mathbf{U}^k)]_p \le \epsilon\,\langle\nabla_{\mathbf{U}}"
            r"\mathbf{V}_{p,:}\mathbf{s}_t, \mathbf{D}\rangle",
            expected=Verdict.APPROXIMATE,
            inputs=sens_rnn_inputs(direction="U"),
            dims=SENS_RNN_DIMS_H2,
            **FIRST_ORDER_STEP,
            notes="Taylor test of the first-order step; the failure rate of '≤' is the fraction of "
            "instances whose second-order term is positive.",
        ),
    ),
    Mirror(
        approximation,
        "sens.w_first_order_000",
        W,
        first_order,
        dict(
            title="'Approximate this formula at t = 0': finite change ≈ first-order part ⟨∇_W V_p s_t, ΔW⟩",
            source=S0_LOSS_W.at('item 3 ("Approximate this formula at t = 0")').quote(
                "Approximate this formula at t = 0 and note that every diagonal element of Λ_t is "
                "smaller than max_x σ'(x), so we have: [Vs_t(W^k + ΔW) − Vs_t(W^k)]_p ≤ ..."
            ),
            statement=r"[\mathbf{V}\mathbf{s}_t(\mathbf{W}^k+\epsilon\mathbf{D}) - "
            r"\mathbf{V}\mathbf{s}_t(\mathbf{W}^k)]_p \le \epsilon\,\langle\nabla_{\mathbf{W}}"
            r"\mathbf{V}_{p,:}\mathbf{s}_t, \mathbf{D}\rangle",
            expected=Verdict.APPROXIMATE,
            inputs=sens_rnn_inputs(direction="W"),
            dims=SENS_RNN_DIMS_H2,
            **FIRST_ORDER_STEP,
            notes="The remainder of the first-order step is measured (Taylor test, ε = 0.1/2^k). The "
            "written relation '≤' is a first-order statement: the reported failure rate is the fraction of "
            "instances where the true change exceeds its linearisation (the second-order term is "
            "positive), about half.",
        ),
    ),
]

for row in MIRRORED:
    declare(row, __name__)
