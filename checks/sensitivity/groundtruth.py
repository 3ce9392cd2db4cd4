r"""Ground truth: the finite-difference derivatives every sensitivity claim is checked against.

* ``sens.pdot_recursion`` / ``sens.qdot_recursion``: the exact tangent recursions for dP_{t−1}/dt and
  dQ_{t−1}/dt (derived in ``checks/sensitivity/_helpers.py``; the documents name these terms but never write
  them)
  against nested finite differences of the forward pass.
* ``sens.groundtruth_steps``: the step-size study behind the float64 step of the 4-point difference,
  against the same difference in mpmath at ``REVERIFY_DPS`` digits (its step and working digits follow
  ``checks/_vocab/fd.py``'s policy) as the reference.
"""

import mpmath
import numpy as np

from checks._vocab.activations import SMOOTH
from checks._vocab.fd import STEPS, central4, directional, fd_dps, fd_step, mixed
from checks._vocab.sources import S0_LOSS_W, S1_B1, SEED_000
from checks.sensitivity._helpers import (
    FD_TOL,
    SENS_RNN_DIMS_H2,
    forward_sensitivities,
    sens_rnn_inputs,
    states_at,
    tangents,
)
from checks.sensitivity._notation import CMB_U, CMB_W
from lemmacheck import (
    REVERIFY_DPS,
    Plot,
    Series,
    Source,
    StudyResult,
    Table,
    Verdict,
    identity,
    mpmath_xp,
    numpy_xp,
    study,
    to_mp,
)

#: each statement read with the table of its direction (checks/sensitivity/_notation.py)
claim_symbols = {"sens.qdot_recursion": CMB_U, "sens.pdot_recursion": CMB_W}

_PDOT_QUOTE = (
    "At present, I can not prove ||Mtr(V_{p,:}Λ_t W dP_{t−1}/dt)||_{S1} is significantly smaller than (but "
    "it can't not much bigger than the first-order part) other parts of the derivative."
)


@identity(
    "sens.pdot_recursion",
    title="dP_t/dt along ΔW: Ṗ_t = λ̇_t(S̄_{t-1} + WP_{t-1}) + λ_t(dS̄_{t-1}/dt + ΔW P_{t-1} + WṖ_{t-1})",
    source=Source(SEED_000, "Comments, item 1 (the term dP_{t−1}/dt the documents drop)", quote=_PDOT_QUOTE),
    statement=r"\dot{\mathbf{P}}_t = \dot\Lambda_t(\bar{\mathbf{S}}_{t-1}+\mathbf{W}\mathbf{P}_{t-1}) + "
    r"\Lambda_t(\dot{\bar{\mathbf{S}}}_{t-1} + \Delta\mathbf{W}\mathbf{P}_{t-1} + "
    r"\mathbf{W}\dot{\mathbf{P}}_{t-1}),\quad\dot\lambda_t = \sigma''(\mathbf{z}_t)\odot\dot{\mathbf{z}}_t",
    expected=Verdict.HOLDS,
    inputs=sens_rnn_inputs(direction="W", probe=True),
    dims=SENS_RNN_DIMS_H2,
    tol=FD_TOL,
    notes="Not written in the documents: it is the product rule applied to P_t = Λ_t(S̄_{t−1} + WP_{t−1}), "
    "and it is what every 'dropped term' measurement here relies on. Checked as c·Ṗ_t vec(B) against "
    "∂²/∂a∂b c·s_t(W + aΔW + bB) by nested finite differences.",
)
def pdot_recursion(xp, U, W, s0, X, D, c, B, act, T):
    """Tangent recursion for P_t against nested finite differences."""
    tg = tangents(xp, U, W, s0, X, act, 0 * U, D)
    rec = xp.einsum("bk,bkij,bij->b", c, tg["Pdot"][T], B)
    truth = mixed(xp, lambda a, b: xp.sum(c * states_at(xp, U, W + a * D + b * B, s0, X, act)[T], axis=-1))
    return rec, truth


@identity(
    "sens.qdot_recursion",
    title="dQ_t/dt along ΔU: Q̇_t = λ̇_t(X̄_t + WQ_{t-1}) + λ_t WQ̇_{t-1}",
    source=S1_B1.at("text before eq. (16) (the ignored d_{Q_{t−1}}/d_t)").quote(
        "where we ignore the second order part d_{Q_{t−1}}/d_t = tr(∂²s_{t−1}/∂U² ΔU)"
    ),
    statement=r"\dot{\mathbf{Q}}_t = \dot\Lambda_t(\bar{\mathbf{X}}_t+\mathbf{W}\mathbf{Q}_{t-1}) + "
    r"\Lambda_t\mathbf{W}\dot{\mathbf{Q}}_{t-1}",
    expected=Verdict.HOLDS,
    inputs=sens_rnn_inputs(direction="U", probe=True),
    dims=SENS_RNN_DIMS_H2,
    tol=FD_TOL,
    notes="The document's tr(∂²s_{t−1}/∂U² ΔU) is this Q̇_{t−1}: one contraction with ΔU, hence first "
    "order in ‖ΔU‖.",
)
def qdot_recursion(xp, U, W, s0, X, D, c, B, act, T):
    """Tangent recursion for Q_t against nested finite differences."""
    tg = tangents(xp, U, W, s0, X, act, D, 0 * W)
    rec = xp.einsum("bk,bkij,bij->b", c, tg["Qdot"][T], B)
    truth = mixed(xp, lambda a, b: xp.sum(c * states_at(xp, U + a * D + b * B, W, s0, X, act)[T], axis=-1))
    return rec, truth


def _probe_along(xp, c, U, W, s0, X, act, D, T):
    """e ↦ c·s_T(W + eD)."""
    return lambda e: xp.sum(c * states_at(xp, U, W, s0, X, act, dW=D, e=e)[T], axis=-1)


@study(
    "sens.groundtruth_steps",
    title="Step-size study of the finite-difference ground truth (float64 4-point stencil vs "
    f"{REVERIFY_DPS}-digit reference)",
    source=S0_LOSS_W.at("item 2.1 (the derivatives being checked)").cite(),
    related=("sens.w_linking", "sens.p_matrix_000.corrected", "sens.pdot_recursion"),
)
def groundtruth_steps(profile):
    rng = profile.rng
    n = 6 if profile.name == "quick" else 24
    rows, series = [], []
    for act in SMOOTH:
        inst = _gt_instances(rng, n)
        ref = _reference(inst, act)
        errs = []
        for h in _HS:
            est = central4(_probe_along(numpy_xp, inst["c"], *_model(inst), act, inst["D"], _T), h)
            err = float(np.max(np.abs(est - ref) / (np.abs(ref) + 1e-3)))
            errs.append(err)
            rows.append([act, h, err])
        series.append(Series(label=act, x=_HS, y=[max(e, 1e-17) for e in errs]))
        # the recursion agrees with the high-precision reference as well (independent confirmation)
        fw = forward_sensitivities(numpy_xp, *_model(inst), act)
        rec = np.einsum("bk,bkij,bij->b", inst["c"], fw["P"][_T], inst["D"])
        rows.append([act, "recursion P_t", float(np.max(np.abs(rec - ref) / (np.abs(ref) + 1e-3)))])
    return StudyResult(
        tables=[
            Table(
                title=f"Max relative error of d/de c·s_T(W + eD), {n} instances, H={_H}, T={_T}",
                columns=["activation", "h", "max relative error"],
                rows=rows,
            )
        ],
        plots=[
            Plot(
                title="Finite-difference error vs step h (log-log)",
                x_label="h",
                y_label="max relative error",
                logx=True,
                logy=True,
                series=series,
            )
        ],
        conclusion=_gt_conclusion(rows),
    )


#: the study's RNN size, and the finite-difference steps it measures
_H, _N, _T = 3, 2, 4
_HS = [10.0 ** (-k) for k in (1, 1.5, 2, 2.5, 3, 3.5, 4, 5, 6)]


def _gt_instances(rng, n) -> dict:
    """Bounded U, W, s_0, X, a direction D and a probe c (drawn in this order)."""
    return dict(
        U=rng.uniform(-2, 2, (n, _H, _N)),
        W=rng.uniform(-1.2, 1.2, (n, _H, _H)),
        s0=rng.uniform(-1, 1, (n, _H)),
        X=rng.uniform(-2, 2, (n, _T, _N)),
        D=rng.uniform(-1, 1, (n, _H, _H)),
        c=rng.uniform(-1, 1, (n, _H)),
    )


def _model(inst) -> tuple:
    return inst["U"], inst["W"], inst["s0"], inst["X"]


def _reference(inst, act):
    """d/de c·s_T(W + eD) at ``REVERIFY_DPS`` digits, as float64."""
    with mpmath.workdps(REVERIFY_DPS):
        mp = {k: to_mp(a) for k, a in inst.items()}
        ref = directional(mpmath_xp, _probe_along(mpmath_xp, mp["c"], *_model(mp), act, mp["D"], _T))
        return np.asarray(ref, dtype=float)


def _gt_conclusion(rows) -> str:
    best = {}
    for act in SMOOTH:
        r = [(row[1], row[2]) for row in rows if row[0] == act and not isinstance(row[1], str)]
        best[act] = min(r, key=lambda p: p[1])
    h = STEPS[4]
    at_h = max(row[2] for row in rows if row[1] == h)
    return (
        "The 4-point central difference has truncation error O(h⁴) and rounding error O(ε/h); the measured "
        f"error against a {_reference_precision()} is smallest near h = "
        + ", ".join(f"{a}: {b[0]:.0e} ({b[1]:.1e})" for a, b in best.items())
        + f". At the h = {h:g} used by the checks the worst relative error is {at_h:.1e}, far inside the "
        f"{FD_TOL.rtol:g} tolerance of FD_TOL and far from the O(1) discrepancies the refuted claims show. "
        "The P_t recursion agrees with the reference to rounding (rows 'recursion P_t')."
    )


def _reference_precision() -> str:
    """How :func:`_reference` computes: the digits in force, and the step and working digits of the
    difference at those digits."""
    with mpmath.workdps(REVERIFY_DPS):
        step = mpmath.nstr(fd_step(mpmath_xp, 4), 1)
        return (
            f"{REVERIFY_DPS}-digit reference (the 4-point difference at h = {step}, evaluated at {fd_dps()} "
            "digits)"
        )
