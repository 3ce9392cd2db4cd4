r"""The Lipschitz constants L_U (seed 001 eq. (22)) and L_W (eq. (32)): do they majorise the loss?

Which majorisation the documents imply: eq. (7) gives, per token t,
E_t(Φ+Δ) ≤ E_t(Φ) + ⟨∇E_t, Δ⟩ + ½‖ΔVs_t‖∞² + 2‖r‖∞; eq. (13)/(23) bound ‖ΔVs_t‖∞ by
max_q‖Q_tṼ_q‖_{S¹}‖Δ‖_{S∞} and eq. (14)–(18) (resp. (24)–(31)) bound ‖r‖∞ by ½‖Δ‖²_{S∞}(sum of the part
bounds).  Adding up, the constants of eq. (22)/(32) are exactly the coefficient of ‖Δ‖²_{S∞}:

    E_t(Φ + Δ) ≤ E_t(Φ) + ⟨∇_Φ E_t(Φ), Δ⟩ + L ‖Δ‖²_{S∞}      (no factor ½; one token t; Δ in U or W alone)

That is the inequality checked here on real RNN instances (λ', λ'' at z_t, Q/P from the recursions, the
gradient from the recursions — all checked in checks/sensitivity/).  The study ``lip.majorisation`` measures
how often
it holds, the worst ratio and the looseness per regime.
"""

import numpy as np

from checks._vocab.activations import SMOOTH, curvature_ratio
from checks._vocab.linalg import frob, matvec, norm2, s1, sinf
from checks._vocab.rnn import preactivations_and_states, token_loss
from checks._vocab.sources import S1_B1, S1_B2, SEED_001
from checks.sensitivity._helpers import (
    LOSS_K,
    forward_sensitivities,
    lipschitz_U,
    lipschitz_W,
    loss_step_inputs,
    row_grad,
    slice_s1,
    softmax_residual,
    token_losses,
    unit_sinf,
)
from checks.sensitivity._mirror import WRT
from checks.sensitivity._notation import U_DIRECTION
from checks.sensitivity._notation import symbols as sens_notation
from lemmacheck import Derived, Plot, Series, Source, StudyResult, Table, Verdict, inequality, numpy_xp, study

LIP_DIMS = {"H": [1, 2, 3], "T": [1, 3], "act": SMOOTH}


def majorisation_parts(xp, U, W, V, s0, X, y, D, step, act, T, wrt, *, lemma3_fixed=False) -> dict:
    """The quantities eq. (22)/(32) names, with Δ = step · D/‖D‖_{S∞}: E_t after and before the step, the
    pairing ⟨∇E_t, Δ⟩, L as written (or with Lemma 3's defects fixed: |λ''/λ'|, Q_t/P_t in max_p) and Δ."""
    fw = forward_sensitivities(xp, U, W, s0, X, act, tensors=WRT[wrt].sens)
    parts = step_parts(xp, fw, U, W, V, s0, X, y, D, step, act, T, wrt)
    ratio = curvature_ratio(xp, fw["pre"][T - 1], act)
    lemma3 = dict(curvature=xp.abs(ratio), lemma3_at_t=True) if lemma3_fixed else dict(curvature=ratio)
    if wrt == "U":
        L = lipschitz_U(xp, V, X, W, fw, T, **lemma3)
    else:
        L = lipschitz_W(xp, V, W, fw, T, **lemma3)
    return parts | {"L": L}


def step_parts(xp, fw, U, W, V, s0, X, y, D, step, act, T, wrt) -> dict:
    """E_t after and before the step Δ = step · D/‖D‖_{S∞} in ``wrt``, ⟨∇E_t, Δ⟩, Δ and s_T after the step,
    from the forward pass ``fw`` at Φ (with wrt's sensitivity tensor): what majorisation_parts and
    lip.w_parts share without the constant L (its SVDs were half of lip.w_parts_corrected's time)."""
    Dn = unit_sinf(xp, D) * step[:, None, None]
    moved = preactivations_and_states(xp, *WRT[wrt].moved(U, W, Dn), s0, X, act)[1][T]
    r = softmax_residual(xp, V, fw["states"][T], y)
    rV = matvec(xp.transpose(V), r)  # ∇_{s_t}E_t = Vᵀ(softmax − y)
    grad = row_grad(xp, rV, fw[WRT[wrt].sens][T])
    return {
        "new": token_loss(xp, V, moved, y),
        "old": token_loss(xp, V, fw["states"][T], y),
        "pairing": frob(xp, grad, Dn),
        "step": Dn,
        "moved": moved,
    }


def majorisation_sides(xp, U, W, V, s0, X, y, D, step, act, T, wrt, *, lemma3_fixed=False):
    """(remainder, L‖Δ‖²_{S∞}) of :func:`majorisation_parts`."""
    p = majorisation_parts(xp, U, W, V, s0, X, y, D, step, act, T, wrt, lemma3_fixed=lemma3_fixed)
    return p["new"] - p["old"] - p["pairing"], p["L"] * sinf(xp, p["step"]) ** 2


def _w_parts(xp, U, W, V, s0, X, y, D, step, act, T):
    return majorisation_parts(xp, U, W, V, s0, X, y, D, step, act, T, "W")


#: seed 001 §B.2 eq. (32): E_t before and after the step ΔW (the sampled direction D scaled to the sampled
#: ‖ΔW‖_{S∞}), the pairing ⟨∇_W E_t, ΔW⟩ by the sensitivity recursions, and L_W as eq. (32) writes it
def _step_terms(name: str, parts) -> dict:
    """E_t after and before the step Δ = step · D/‖D‖_{S∞} in U or W, ⟨∇E_t, Δ⟩ and Δ itself."""
    phi, delta = rf"\mathbf{{{name}}}", rf"\Delta\mathbf{{{name}}}"
    return {
        rf"E_t({phi}+{delta})": Derived(parts, "new", doc="E_t after the step"),
        rf"E_t({phi})": Derived(parts, "old", doc="E_t before it"),
        rf"\langle\nabla_{{{phi}}}E_t,{delta}\rangle": Derived(parts, "pairing"),
        delta: Derived(parts, "step", doc="step · D/‖D‖_{S∞}"),
    }


L_W_TERMS = sens_notation.extend(
    "checks/sensitivity/lip_constants.py (L_W_TERMS)",
    {**_step_terms("W", _w_parts), r"L_{\mathbf{W}}": Derived(_w_parts, "L", doc="eq. (32) as written")},
)


def _u_parts(xp, U, W, V, s0, X, y, D, step, act, T):
    return majorisation_parts(xp, U, W, V, s0, X, y, D, step, act, T, "U")


def _rows_of_v(xp, U, W, V, s0, X, act, T):
    """Eq. (22)'s maxima over the K rows q of V, and the slice norms (‖Q_{t-1:,:,p}‖_{S¹})_p."""
    fw = forward_sensitivities(xp, U, W, s0, X, act, tensors="Q")
    return {
        "max_row_norm": xp.max(norm2(xp, V), axis=-1),
        "max_QV_sq": xp.max(s1(xp, xp.einsum("bqk,bkij->bqij", V, fw["Q"][T])), axis=-1) ** 2,
        "Q_prev_slice_norms": slice_s1(xp, fw["Q"][T - 1]),
    }


#: seed 001 §B.1 eq. (22), read with the U direction's table (λ'_p, λ''_p, Q_{t-1:,:,p} at z_t of the last
#: step, as eq. (19)-(21) use them): E_t and the pairing as in L_W_TERMS, ΔU = step · D/‖D‖_{S∞}; q runs
#: over the K rows of V (eq. (13)'s max_p‖Q_tṼ_p‖, renamed q in (22)), which is the sampled V's row count
#: and not a dim, so the two maxima over q are named whole. Reading recorded: eq. (22) writes
#: "max_q‖V_q‖₂‖x_t‖₂max_p(…)" — the max is over ‖V_q‖₂ alone (the other factors do not depend on q), not
#: over the rest of the product, which would take the smallest ‖V_q‖ where max_p(…) is negative.
L_U_TERMS = U_DIRECTION.extend(
    "checks/sensitivity/lip_constants.py (L_U_TERMS)",
    {
        **_step_terms("U", _u_parts),
        r"\max_q\|\mathbf{V}_q\|_2": Derived(_rows_of_v, "max_row_norm", doc="max_q ‖V_q‖₂ over V's rows"),
        # the square is inside the phrase: max_q ‖·‖² and (max_q ‖·‖)² are one number (norms are ≥ 0)
        r"\max_q\|\mathbf{Q}_t\tilde{\mathbf{V}}_q\|_{S^1}^2": Derived(
            _rows_of_v, "max_QV_sq", doc="max_q ‖Σ_k V_qk Q_t[k]‖²_{S¹} over V's rows"
        ),
        r"\|\mathbf{Q}_{t-1:,:,*}\|_{S^1}": Derived(
            _rows_of_v, "Q_prev_slice_norms", doc="(‖Q_{t-1:,:,p}‖_{S¹})_p"
        ),
    },
)
claim_symbols = {"lip.l_w": L_W_TERMS, "lip.l_u": L_U_TERMS}


_LU_QUOTE = (
    "L_U = 1/2 max_q ||Q_t Ṽ_q||²_{S1} + max_q ||V_q||_2 ||x_t||_2 max_p(λ'_p^{−1} λ''_p "
    "||Q_{t−1:,:,p}||_{S1}) + max_q ||V_q||_2 ||W||_{S∞} || ||Q_{t−1:,:,*}||_{S1} ||_2 max_p(λ'_p^{−1} "
    "λ''_p ||Q_{t−1:,:,p}||_{S1})"
)


@inequality(
    "lip.l_u",
    uses=(
        "loss.eq7",
        "sens.eq13_first_order",
        "sens.eq14_remainder",
        "sens.eq15_half_derivative",
        "sens.eq17",
        "sens.eq18",
    ),
    title="L_U of eq. (22) majorises the loss: E_t(U+ΔU) ≤ E_t(U) + ⟨∇_U E_t, ΔU⟩ + L_U‖ΔU‖²_{S∞}",
    source=S1_B1.at("eq. (22)").quote(_LU_QUOTE),
    statement=r"E_t(\mathbf{U}+\Delta\mathbf{U}) \le E_t(\mathbf{U}) + "
    r"\langle\nabla_{\mathbf{U}}E_t,\Delta\mathbf{U}\rangle + "
    r"L_{\mathbf{U}}\|\Delta\mathbf{U}\|_{S^\infty}^2,\quad L_{\mathbf{U}} = "
    r"\frac12\max_q\|\mathbf{Q}_t\tilde{\mathbf{V}}_q\|_{S^1}^2 + \max_q\|\mathbf{V}_q\|_2\|\mathbf{x}_t"
    r"\|_2\max_p(\lambda_p'^{-1}\lambda_p''\|\mathbf{Q}_{t-1:,:,p}\|_{S^1}) + \max_q\|\mathbf{V}_q\|_2\|"
    r"\mathbf{W}\|_{S^\infty}\|\|\mathbf{Q}_{t-1:,:,*}\|_{S^1}\|_2\max_p(\lambda_p'^{-1}\lambda_p''\|"
    r"\mathbf{Q}_{t-1:,:,p}\|_{S^1})",
    expected=Verdict.REFUTED,
    inputs=loss_step_inputs("U"),
    dims=LIP_DIMS,
    notes="The form implied by eq. (7) + (13) + (17) + (18) is E_t(U+ΔU) ≤ E_t + ⟨∇E_t, ΔU⟩ + "
    "L_U‖ΔU‖²_{S∞} (the constant multiplies ‖Δ‖² directly, not L/2). λ', λ'' are taken at z_t. Checked as "
    "remainder ≤ L_U‖ΔU‖², ΔU = step·D/‖D‖_{S∞} with step log-uniform in [1e-3, 2]. It fails: L_U can even "
    "be negative (signed λ''/λ'), it uses Q_{t−1} where Lemma 3 needs Q_t (at t = 1, Q_0 = 0 leaves only "
    "½max‖Q_tṼ_q‖²), and it rests on the first-order steps (13), (15) and on ignoring dQ_{t−1}/dt. See "
    "lip.majorisation.",
)
def lip_l_u(xp, U, W, V, s0, X, y, D, step, act, T):
    return majorisation_sides(xp, U, W, V, s0, X, y, D, step, act, T, "U")


_LW_QUOTE = (
    "L_W = 1/2 (max_q ||P_t Ṽ_q||_{S1})² + max_q ||V_q||_2 ||s_{t−1}||_2 max_p(λ'^{−1}_p λ''_p "
    "||P_{t−1:,:,p}||_{S1}) + 2 max_q ||V_q||_2 ||λ'_t||_∞ || ||P_{t−1:,:,*}||_{S1} ||_2 + max_q ||V_q||_2 "
    "||W||_{S∞} || ||P_{t−1:,:,*}||_{S1} ||_2 max_p(λ'^{−1}_p λ''_p ||P_{t−1:,:,p}||)"
)


@inequality(
    "lip.l_w",
    uses=(
        "loss.eq7",
        "lip.w_parts_as_written",
        "sens.eq23_first_order",
        "sens.eq24_remainder",
        "sens.eq25_half_derivative",
        "sens.eq27_four_parts",
        "sens.eq28",
        "sens.eq29",
        "sens.eq30",
        "sens.eq31",
    ),
    title="L_W of eq. (32) majorises the loss: E_t(W+ΔW) ≤ E_t(W) + ⟨∇_W E_t, ΔW⟩ + L_W‖ΔW‖²_{S∞}",
    source=S1_B2.at("eq. (32)").quote(_LW_QUOTE),
    statement=r"E_t(\mathbf{W}+\Delta\mathbf{W}) \le E_t(\mathbf{W}) + "
    r"\langle\nabla_{\mathbf{W}}E_t,\Delta\mathbf{W}\rangle + "
    r"L_{\mathbf{W}}\|\Delta\mathbf{W}\|_{S^\infty}^2",
    expected=Verdict.REFUTED,
    inputs=loss_step_inputs("W"),
    dims=LIP_DIMS,
    notes="Same form and reading as lip.l_u (the last ‖P_{t−1:,:,p}‖ is read as S¹). The 2× term is eq. "
    "(29) + eq. (30), each ‖λ'_t‖_∞‖V_p‖₂‖‖P_{t−1}‖‖₂‖ΔW‖. Fails for the same reasons (signed ratio, "
    "P_{t−1} for P_t, first-order steps, ignored dP_{t−1}/dt). See lip.majorisation.",
)
def lip_l_w(xp, U, W, V, s0, X, y, D, step, act, T):
    return majorisation_sides(xp, U, W, V, s0, X, y, D, step, act, T, "W")


# --------------------------------------------------------------------------- study


def _draw(rng, n, H, N, T, wnorm):
    U = rng.standard_normal((n, H, N))
    G = rng.standard_normal((n, H, H))
    W = G / np.linalg.svd(G, compute_uv=False)[:, :1, None] * wnorm
    V = rng.standard_normal((n, LOSS_K, H))
    X = rng.standard_normal((n, T, N))
    y = np.eye(LOSS_K)[rng.integers(0, LOSS_K, n)]
    return U, W, V, np.zeros((n, H)), X, y


def _lip_variants(xp, U, W, V, s0, X, y, act, T, wrt):
    """L as written, and with the Lemma-3 defects fixed (|λ''/λ'|, Q_t/P_t in the max_p factor)."""
    fw = forward_sensitivities(xp, U, W, s0, X, act, tensors=WRT[wrt].sens)
    ratio = curvature_ratio(xp, fw["pre"][T - 1], act)
    if wrt == "U":
        L = lipschitz_U(xp, V, X, W, fw, T, curvature=ratio)
        Lf = lipschitz_U(xp, V, X, W, fw, T, curvature=np.abs(ratio), lemma3_at_t=True)
    else:
        L = lipschitz_W(xp, V, W, fw, T, curvature=ratio)
        Lf = lipschitz_W(xp, V, W, fw, T, curvature=np.abs(ratio), lemma3_at_t=True)
    return fw, L, Lf


@study(
    "lip.majorisation",
    title="Do L_U (eq. 22) and L_W (eq. 32) majorise the loss on real RNN instances? Per regime",
    source=Source(SEED_001, "§B.1 eq. (22), §B.2 eq. (32)"),
    related=("lip.l_u", "lip.l_w", "lemma3.corrected", "second_order.w_dropped_000"),
)
def lip_majorisation(profile):
    rng = profile.rng
    n = 300 if profile.name == "quick" else 3000
    rows, curves = [], {}
    for wrt in ("U", "W"):
        for act in SMOOTH:
            for wnorm in (0.5, 1.0, 2.0):
                regime, failures = _regime_rows(rng, n, wrt, act, wnorm)
                rows += regime
                curves.setdefault((wrt, act), []).extend((wnorm, step, f) for step, f in failures)
    return StudyResult(
        tables=[_majorisation_table(rows, n)], plots=_failure_plots(curves), conclusion=_conclusion(rows)
    )


#: the study's RNN size and the step sizes ‖Δ‖_{S∞} it measures at
_H, _N, _T = 3, 2, 4
_STEPS = [1e-3, 1e-2, 1e-1, 1.0]


def _regime_rows(rng, n, wrt, act, wnorm) -> tuple[list, list]:
    """One row per step size: how often L (as written, and Lemma-3-fixed) majorises the loss's remainder;
    and the (step, fraction failing as written) of each."""
    xp = numpy_xp
    U, W, V, s0, X, y = _draw(rng, n, _H, _N, _T, wnorm)
    fw, L, Lf = _lip_variants(xp, U, W, V, s0, X, y, act, _T, wrt)
    r = softmax_residual(xp, V, fw["states"][_T], y)
    grad = row_grad(xp, np.einsum("bqk,bq->bk", V, r), fw["Q" if wrt == "U" else "P"][_T])
    old = token_losses(xp, U, W, V, s0, X, y, act, _T)
    rows, failures = [], []
    for step in _STEPS:
        worst = np.full(n, -np.inf)
        for _ in range(4):  # four random directions per instance; keep the worst
            D = rng.standard_normal(grad.shape)
            D = D / np.linalg.svd(D, compute_uv=False)[:, :1, None] * step
            moved = (U + D, W) if wrt == "U" else (U, W + D)
            new = token_losses(xp, *moved, V, s0, X, y, act, _T)
            rem = new - old - np.sum(grad * D, axis=(-1, -2))
            worst = np.maximum(worst, rem / step**2)
        figures, failing = _majorisation_figures(worst, L, Lf)
        rows.append([f"L_{wrt}", act, wnorm, step, *figures])
        failures.append((step, failing))
    return rows, failures


def _majorisation_figures(worst, L, Lf) -> tuple[list, float]:
    """The figures of one row from the worst remainder/‖Δ‖² per instance and the two constants, and the
    fraction failing as written (unrounded, for the plot)."""
    ratio = worst / L  # remainder / (L‖Δ‖²) where L > 0
    holds = np.where(L > 0, worst <= L, worst <= 0)
    pos = (worst > 0) & (L > 0)
    loose = np.median(L[pos] / worst[pos]) if pos.any() else float("nan")
    figures = [
        round(float(holds.mean()), 4),
        float(np.max(ratio[L > 0])) if (L > 0).any() else float("nan"),
        round(float((L <= 0).mean()), 4),
        float(loose),
        round(float((worst <= Lf).mean()), 4),
        float(np.max(worst / Lf)),
    ]
    return figures, 1 - holds.mean()


def _majorisation_table(rows, n) -> Table:
    return Table(
        title=f"Majorisation E_t(Φ+Δ) ≤ E_t + ⟨∇E_t, Δ⟩ + L‖Δ‖²_S∞ (H={_H}, N={_N}, T={_T}, K={LOSS_K}, "
        f"{n} instances per row, worst of 4 random directions)",
        columns=[
            "constant",
            "activation",
            "‖W‖_S∞",
            "‖Δ‖_S∞",
            "fraction holding",
            "worst ratio remainder/(L‖Δ‖²)",
            "fraction L ≤ 0",
            "median looseness L‖Δ‖²/remainder",
            "fraction holding, Lemma-3-fixed L",
            "worst ratio, fixed L",
        ],
        rows=rows,
    )


def _failure_plots(curves) -> list:
    """Per constant, the failure fraction against the step size at ‖W‖ = 1, one series per activation."""
    plots = []
    for wrt in ("U", "W"):
        series = []
        for act in SMOOTH:
            pts = [(s, f) for (w, s, f) in curves[(wrt, act)] if w == 1.0]
            series.append(
                Series(label=f"{act}, ‖W‖=1", x=[p[0] for p in pts], y=[max(p[1], 1e-4) for p in pts])
            )
        plots.append(
            Plot(
                title=f"L_{wrt}: fraction of instances where the majorisation fails, vs step size",
                x_label="‖Δ‖_S∞",
                y_label="failure fraction (floored at 1e-4)",
                logx=True,
                logy=True,
                series=series,
            )
        )
    return plots


def _failure_span(rows, col) -> str:
    v = [1 - r[col] for r in rows]
    return f"{100 * min(v):.1f}–{100 * max(v):.1f}%"


def _conclusion(rows) -> str:
    """The plain-language answer, from the table's rows."""
    parts = []
    for const in ("L_U", "L_W"):
        for act in SMOOTH:
            sel = [r for r in rows if r[0] == const and r[1] == act]
            parts.append(
                f"{const}/{act}: fails on {_failure_span(sel, 4)} of instances as written, "
                f"{_failure_span(sel, 8)} with Lemma 3 fixed; median looseness "
                f"{min(r[7] for r in sel):.0f}–{max(r[7] for r in sel):.0f}×"
            )
    neg = {act: max(r[6] for r in rows if r[1] == act) for act in SMOOTH}
    worst_fixed = max(r[9] for r in rows)
    return (
        "The constants as written are not majorisation constants: " + "; ".join(parts) + ". L can be ≤ 0 "
        "because λ''/λ' is signed (largest fraction with L ≤ 0: "
        + ", ".join(f"{a} {100 * v:.1f}%" for a, v in neg.items())
        + "; softplus has λ'' > 0). With Lemma 3 corrected (|λ''/λ'|, Q_t/P_t in the max_p factor) "
        + (
            "failures become rare in this sample but do not vanish (worst remainder/(L‖Δ‖²) = "
            f"{worst_fixed:.2f}); "
            if worst_fixed > 1
            else f"no failure occurs in this sample (worst remainder/(L‖Δ‖²) = {worst_fixed:.2f}), but "
        )
        + "nothing in the derivation controls the remainder at finite steps, since the constants come from "
        "first-order approximations (eq. (13), (15), (23), (25)) and drop dQ_{t-1}/dt, dP_{t-1}/dt, "
        "which are "
        "of the same order as the kept terms (second_order.sweep). Where they hold they are loose: median "
        f"L‖Δ‖²/remainder between {min(r[7] for r in rows):.0f}× and {max(r[7] for r in rows):.0f}×."
    )
