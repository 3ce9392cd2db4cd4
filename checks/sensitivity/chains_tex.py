r"""A chain of seed 000 (§Loss bound w.r.t. W, item 3.3.1) checked from its LaTeX alone: the statement
compiles into the check (lemmacheck.from_statement).  The hand-written check of the same chain is
sens.w_trace_elem_000 (checks/sensitivity/w_parts.py); this one expects the same statuses.
"""

from checks._vocab.linalg import frob
from checks._vocab.notation import symbols as shared
from checks.sensitivity._helpers import SENS_RNN_DIMS_H2, forward_sensitivities, sens_rnn_inputs
from checks.sensitivity.w_parts import TRACE_ELEM_SOURCE
from lemmacheck import Derived, Input, Verdict, from_statement, inequality


def _mtr_row(xp, U, W, s0, X, act, T):
    """Mtr(W_{p,:} P_{t-1}) for the row p = 1 and t = T, the matrix the item pairs with ΔW."""
    P = forward_sensitivities(xp, U, W, s0, X, act)["P"][T - 1]
    return xp.einsum("bm,bmij->bij", W[:, 0], P)


def _row_times_vec(xp, U, W, s0, X, D, act, T):
    """W_{p,:} P_{t-1} vec(ΔW): the contraction of the row's sensitivity with ΔW, entry by entry."""
    return frob(xp, _mtr_row(xp, U, W, s0, X, act, T), D)


#: item 3.3.1's notation: p is the first row, t the last step T, ΔW the sampled direction D
symbols = shared.extend(
    "checks/sensitivity/chains_tex.py",
    {
        r"\mathrm{Mtr}(\mathbf{W}_{p,:}\mathbf{P}_{t-1})": Derived(_mtr_row, doc="Mtr(W_{1,:} P_{T-1})"),
        r"\mathbf{W}_{p,:}\mathbf{P}_{t-1}\mathrm{vec}(\Delta\mathbf{W})": Derived(_row_times_vec),
        r"\Delta\mathbf{W}": Input("D"),
    },
)

from_statement(
    inequality,
    "sens.w_trace_elem_000.tex",
    title="Item 3.3.1's vec-to-trace step and Hölder, from the LaTeX alone (no check function)",
    source=TRACE_ELEM_SOURCE,
    statement=r"\begin{align*}\mathbf{W}_{p,:}\mathbf{P}_{t-1}\mathrm{vec}(\Delta\mathbf{W}) &= "
    r"\mathrm{tr}[\mathrm{Mtr}(\mathbf{W}_{p,:}\mathbf{P}_{t-1})\Delta\mathbf{W}] "
    r"\text{vec to trace (transpose dropped)} \\ &\le \|\mathrm{Mtr}(\mathbf{W}_{p,:}"
    r"\mathbf{P}_{t-1})\|_{S^1}\|\Delta\mathbf{W}\|_{S^\infty} \text{Hölder}\end{align*}",
    expected=Verdict.HOLDS,
    expected_broken_step=1,
    same_as=("sens.w_trace_elem_000",),
    inputs=sens_rnn_inputs(direction="W"),
    dims=SENS_RNN_DIMS_H2,
    notes="The chain of sens.w_trace_elem_000 from its LaTeX: the equality needs tr[Mtr(·)ΔWᵀ], so step 1 "
    "breaks; the end-to-end bound holds.",
)
