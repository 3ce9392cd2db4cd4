r"""Seed 003, Question 6: gradients of a bidirectional RNN with sigmoid units.

:math:`h^{(f)}_t = \sigma(W^{(f)}x_t + U^{(f)}h^{(f)}_{t-1})` for t = 1..T and
:math:`h^{(b)}_t = \sigma(W^{(b)}x_t + U^{(b)}h^{(b)}_{t+1})` for t = T..1.  The document does not state the
loss (its computational graph is a missing figure), so two are used: one that reads every time step,
:math:`L = \sum_t \ell_t`, and one that reads only the last, :math:`L = \ell_T`, with
:math:`\ell_t = a_t^\top h^{(f)}_t + c_t^\top h^{(b)}_t + \tfrac12\|h^{(f)}_t\|^2 + \tfrac12\|h^{(b)}_t\|^2`.
Reference gradients come from forward-mode (tangent) propagation, independent of the backward
recursions under test; the document's Jacobians are in denominator layout.
"""

from checks._vocab.fd import fd_jacobian
from checks._vocab.linalg import matvec
from checks._vocab.sources import S3_Q6
from checks.gradflow._helpers import FD_JACOBIAN_TOL, JACOBIAN_PROBES, probes, relatively_equal
from checks.gradflow._notation import BIRNN_JACOBIAN, BIRNN_STEP
from lemmacheck import Array, Verdict, identity, prop

BI_INPUTS = {
    "Wf": Array("n", 2, scale=(0.1, 2.0)),
    "Uf": Array("n", "n", scale=(0.1, 2.0)),
    "Wb": Array("n", 2, scale=(0.1, 2.0)),
    "Ub": Array("n", "n", scale=(0.1, 2.0)),
    "X": Array("T", 2, scale=(0.1, 2.0)),
    "hf0": Array("n", scale=(0.1, 1.0)),
    "hbT1": Array("n", scale=(0.1, 1.0)),
    "A": Array("T", "n", scale=(0.1, 3.0)),
    "C": Array("T", "n", scale=(0.1, 3.0)),
}
BI_DIMS = {"n": [1, 2, 3], "T": [2, 4]}
#: a bidirectional RNN and its loss coefficients; the loss read is fixed by the claim, or a dim
BIRNN = {"inputs": BI_INPUTS, "dims": BI_DIMS}
BIRNN_EITHER_LOSS = {"inputs": BI_INPUTS, "dims": BI_DIMS | {"loss": ["every", "last"]}}


def _forward(xp, Wf, Uf, Wb, Ub, X, hf0, hbT1):
    """States h^(f)_0..T and h^(b)_1..T+1 as dicts t -> (batch, n)."""
    T = X.shape[1]
    hf = {0: hf0}
    for t in range(1, T + 1):
        hf[t] = xp.sigmoid(matvec(Wf, X[:, t - 1]) + matvec(Uf, hf[t - 1]))
    hb = {T + 1: hbT1}
    for t in range(T, 0, -1):
        hb[t] = xp.sigmoid(matvec(Wb, X[:, t - 1]) + matvec(Ub, hb[t + 1]))
    return hf, hb


def _reads(loss, t, T):
    return loss == "every" or t == T


def _direct(loss, t, T, h, coef):
    """d l_t / d h_t (zero if the loss does not read step t)."""
    g = coef[:, t - 1] + h
    return g if _reads(loss, t, T) else 0 * g


def _grad_through_chain(xp, U, h, coef, t, later, T, loss):
    """dL/dh_t by forward-mode tangents: the Jacobians of the states ``later`` (in the order they follow
    h_t) with respect to h_t, each applied to what the loss reads at that state."""
    eye = xp.eye(U.shape[-1])[None] + 0 * U
    J, g = eye, matvec(xp.transpose(eye), _direct(loss, t, T, h[t], coef))
    for s in later:
        d = h[s] * (1 - h[s])
        J = d[:, :, None] * xp.matmul(U, J)
        g = g + matvec(xp.transpose(J), _direct(loss, s, T, h[s], coef))
    return g


def _reference_grads(xp, Uf, Ub, hf, hb, A, C, T, loss):
    """dL/dh^(f)_t (through h^(f)_s, s > t) and dL/dh^(b)_t (through h^(b)_s, s < t), t = 1..T."""
    gf = {t: _grad_through_chain(xp, Uf, hf, A, t, range(t + 1, T + 1), T, loss) for t in range(1, T + 1)}
    gb = {t: _grad_through_chain(xp, Ub, hb, C, t, range(t - 1, 0, -1), T, loss) for t in range(1, T + 1)}
    return gf, gb


def _check_recursion(xp, direction, *, loss, with_direct, Wf, Uf, Wb, Ub, X, hf0, hbT1, A, C):
    """Recursion (31) (direction "f") or (32) ("b"), with or without the direct term, against the
    forward-mode reference gradients at every step it covers."""
    T = X.shape[1]
    hf, hb = _forward(xp, Wf, Uf, Wb, Ub, X, hf0, hbT1)
    gf, gb = _reference_grads(xp, Uf, Ub, hf, hb, A, C, T, loss)
    if direction == "f":  # (31) for t = 1..T-1: h_{t+1} follows h_t
        g, h, U, coef, covered, follows = gf, hf, Uf, A, range(1, T), 1
    else:  # (32) for t = 2..T: h_{t-1} follows h_t
        g, h, U, coef, covered, follows = gb, hb, Ub, C, range(2, T + 1), -1
    ok = None
    for t in covered:
        nxt = h[t + follows]
        rec = matvec(xp.transpose(U), nxt * (1 - nxt) * g[t + follows])
        formula = rec + _direct(loss, t, T, h[t], coef) if with_direct else rec
        r = relatively_equal(xp, g[t], formula)
        ok = r if ok is None else (ok & r)
    return ok


EQ31_QUOTE = (
    "\\nabla_{h_t^{(f)}} L = U^{(f)T} \\text{diag}\\left(h_{t+1}^{(f)} \\odot (I - h_{t+1}^{(f)})\\right) "
    "\\nabla_{h_{t+1}^{(f)}} L (31)"
)
EQ32_QUOTE = (
    "\\nabla_{h_t^{(b)}} L = U^{(b)T} \\text{diag}\\left(h_{t-1}^{(b)} \\odot (I - h_{t-1}^{(b)})\\right) "
    "\\nabla_{h_{t-1}^{(b)}} L (32)"
)
EQ31_TEX = (
    r"\nabla_{h_t^{(f)}}L = U^{(f)\top}\mathrm{diag}\big(h_{t+1}^{(f)}\odot(1 - "
    r"h_{t+1}^{(f)})\big)\nabla_{h_{t+1}^{(f)}}L"
)
EQ32_TEX = (
    r"\nabla_{h_t^{(b)}}L = U^{(b)\top}\mathrm{diag}\big(h_{t-1}^{(b)}\odot(1 - "
    r"h_{t-1}^{(b)})\big)\nabla_{h_{t-1}^{(b)}}L"
)


@prop(
    "birnn.s003.eq31_every",
    uses=("birnn.s003.eq28_30", "birnn.s003.eq29_as_written"),
    **BIRNN,
    title="(26)/(31) forward recursion, loss reading every time step (as written)",
    source=S3_Q6.at("part 2, eq. (26) and (31)").quote(EQ31_QUOTE),
    statement=EQ31_TEX + r",\quad L = \sum_t \ell_t(h_t^{(f)}, h_t^{(b)}),\ 1 \le t < T",
    expected=Verdict.REFUTED,
    notes="(26) asserts that L depends on h_t^(f) only through h_{t+1}^(f). When the loss reads every step "
    "the direct term d l_t/d h_t^(f) is missing: the recursion is off by exactly that term "
    "(birnn.s003.forward_corrected). Also in (29)-(31) 'I' stands for the all-ones vector.",
)
def eq31_every(xp, **inputs):
    return _check_recursion(xp, "f", loss="every", with_direct=False, **inputs)


@prop(
    "birnn.s003.eq31_last",
    uses=("birnn.s003.eq28_30", "birnn.s003.eq29_as_written"),
    **BIRNN,
    title="(26)/(31) forward recursion, loss reading only the last step",
    source=S3_Q6.at("part 2, eq. (26) and (31)").quote(EQ31_QUOTE),
    statement=EQ31_TEX + r",\quad L = \ell_T(h_T^{(f)}, h_T^{(b)}),\ 1 \le t < T",
    expected=Verdict.PROVED,
    notes="Exact here: for t < T, h_t^(f) reaches L only through h_{t+1}^(f). SymPy proves it for n = 1, T "
    "= 3 (derivations/gradflow/birnn.py).",
)
def eq31_last(xp, **inputs):
    return _check_recursion(xp, "f", loss="last", with_direct=False, **inputs)


@prop(
    "birnn.s003.eq32_every",
    **BIRNN,
    title="(27)/(32) backward recursion, loss reading every time step (as written)",
    source=S3_Q6.at("part 2, eq. (27) and (32)").quote(EQ32_QUOTE),
    statement=EQ32_TEX + r",\quad L = \sum_t \ell_t,\ 1 < t \le T",
    expected=Verdict.REFUTED,
    notes="Same omission as (31): the direct term d l_t/d h_t^(b) is missing "
    "(birnn.s003.backward_corrected).",
)
def eq32_every(xp, **inputs):
    return _check_recursion(xp, "b", loss="every", with_direct=False, **inputs)


@prop(
    "birnn.s003.eq32_last",
    **BIRNN,
    title="(27)/(32) backward recursion, loss reading only the last step",
    source=S3_Q6.at("part 2, eq. (27) and (32)").quote(EQ32_QUOTE),
    statement=EQ32_TEX + r",\quad L = \ell_T(h_T^{(f)}, h_T^{(b)}),\ 1 < t \le T",
    expected=Verdict.REFUTED,
    notes="With L = l_T the backward states h_t^(b), t < T, do not reach the loss at all (both sides are 0 "
    "there), but at t = T the loss reads h_T^(b) directly while (32) gives U^(b)T diag(.) "
    "grad_{h_{T-1}^(b)} L = 0. The backward direction's 'last' step for this loss is its first one; the "
    "recursion needs the direct term at t = T.",
)
def eq32_last(xp, **inputs):
    return _check_recursion(xp, "b", loss="last", with_direct=False, **inputs)


@prop(
    "birnn.s003.forward_corrected",
    **BIRNN_EITHER_LOSS,
    title="forward recursion with the direct term: grad_{h_t^(f)} L = d l_t/d h_t^(f) + U^(f)T "
    "diag(h_{t+1}(1-h_{t+1})) grad_{h_{t+1}^(f)} L",
    source=S3_Q6.at("part 2, eq. (31) (corrected)").cite(),
    statement=r"\nabla_{h_t^{(f)}}L = \frac{\partial \ell_t}{\partial h_t^{(f)}} + "
    + EQ31_TEX.split("= ", 1)[1],
    expected=Verdict.HOLDS,
    corrects="birnn.s003.eq31_every",
    notes="Holds for both losses (the direct term is zero where the loss does not read step t).",
)
def forward_corrected(xp, loss, **inputs):
    return _check_recursion(xp, "f", loss=loss, with_direct=True, **inputs)


@prop(
    "birnn.s003.backward_corrected",
    **BIRNN_EITHER_LOSS,
    title="backward recursion with the direct term: grad_{h_t^(b)} L = d l_t/d h_t^(b) + U^(b)T "
    "diag(h_{t-1}(1-h_{t-1})) grad_{h_{t-1}^(b)} L",
    source=S3_Q6.at("part 2, eq. (32) (corrected)").cite(),
    statement=r"\nabla_{h_t^{(b)}}L = \frac{\partial \ell_t}{\partial h_t^{(b)}} + "
    + EQ32_TEX.split("= ", 1)[1],
    expected=Verdict.HOLDS,
    corrects="birnn.s003.eq32_every",
    notes="Holds for both losses; for L = l_T it also repairs birnn.s003.eq32_last.",
)
def backward_corrected(xp, loss, **inputs):
    return _check_recursion(xp, "b", loss=loss, with_direct=True, **inputs)


STEP_INPUTS = {
    "Wf": Array("n", 2, scale=(0.1, 2.0)),
    "Uf": Array("n", "n", scale=(0.1, 2.0)),
    "x_t": Array(2, scale=(0.1, 2.0)),
    "x_next": Array(2, scale=(0.1, 2.0)),
    "h_t": Array("n", scale=(0.1, 1.0)),
}


@identity(
    "birnn.s003.eq28_30",
    inputs=STEP_INPUTS | JACOBIAN_PROBES,
    dims={"n": [1, 2, 3, 5]},
    tol=FD_JACOBIAN_TOL,
    title="(28)-(30): dh_{t+1}/dh_t = (df/dh_t)(dh_{t+1}/df) = U^(f)T diag(h_{t+1}(1 - h_{t+1})) "
    "(denominator layout)",
    source=S3_Q6.at("part 2, eq. (28)-(30)").quote(
        "\\frac{\\partial f^{(f)}}{\\partial h_t^{(f)}} = U^{(f)T} (28) ... = "
        "\\text{diag}\\left(h_{t+1}^{(f)} \\odot (I - h_{t+1}^{(f)})\\right) (30)"
    ),
    statement=r"\frac{\partial f^{(f)}}{\partial h_t^{(f)}}\frac{\partial h_{t+1}^{(f)}}{\partial f^{(f)}} "
    r"= U^{(f)\top}\,\mathrm{diag}\big(\sigma(f)\odot(1-\sigma(f))\big) = U^{(f)\top}\,\mathrm{diag}"
    r"\big(h_{t+1}^{(f)}\odot(1-h_{t+1}^{(f)})\big)",
    expected=Verdict.PROVED,
    corrects="birnn.s003.eq29_as_written",
    steps_claimed=True,
    proof_not_asserted="the catalogue's chain, with f evaluated at (x_{t+1}, h_t) and I - h read as 1 - h; "
    "(29) as written evaluates f at (x_t, h_t): birnn.s003.eq29_as_written (REFUTED)",
    notes="With f evaluated at (x_{t+1}, h_t), the argument that produces h_{t+1} ((29) writes x_t). "
    "Checked against the transposed central-difference Jacobian of h_t -> h_{t+1}; SymPy proves sigma' = "
    "sigma(1 - sigma) and the factorisation for n = 2.",
)
def eq28_30(xp, Wf, Uf, x_next, h_t, c, d):
    """The transposed central-difference Jacobian of h_t ↦ h_{t+1} against the formula, probed with c, d."""
    step = lambda z: xp.sigmoid(matvec(Wf, x_next) + matvec(Uf, z))  # noqa: E731
    h_next = step(h_t)
    formula = xp.transpose(Uf) * (h_next * (1 - h_next))[:, None, :]
    return probes(xp, c, d, xp.transpose(fd_jacobian(xp, step, h_t)), formula)


@prop(
    "birnn.s003.eq29_as_written",
    inputs=STEP_INPUTS,
    dims={"n": [1, 2, 3, 5]},
    title="(29)->(30) as written: sigma(f^(f)(x_t, h_t^(f))) = h_{t+1}^(f)",
    source=S3_Q6.at("part 2, eq. (29)-(30)").quote(
        "\\frac{\\partial h_{t+1}^{(f)}}{\\partial f^{(f)}(x_t, h_t^{(f)})} = ... = "
        "\\text{diag}\\left(\\sigma(f^{(f)}(x_t, h_t^{(f)})) \\odot (I - \\sigma(f^{(f)}(x_t, "
        "h_t^{(f)})))\\right) (29) = \\text{diag}\\left(h_{t+1}^{(f)} \\odot (I - h_{t+1}^{(f)})\\right) "
        "(30)"
    ),
    statement=r"\sigma\big(f^{(f)}(x_t, h_t^{(f)})\big) = h_{t+1}^{(f)} = \sigma\big(f^{(f)}(x_{t+1}, "
    r"h_t^{(f)})\big)",
    expected=Verdict.REFUTED,
    notes="An index slip: h_{t+1}^(f) = sigma(f^(f)(x_{t+1}, h_t^(f))), so (29) must evaluate f at "
    "x_{t+1}; with x_t the step (29) -> (30) is false whenever W^(f) x_t != W^(f) x_{t+1}. The corrected "
    "factor is birnn.s003.eq28_30.",
)
def eq29_as_written(xp, Wf, Uf, x_t, x_next, h_t):
    """(29) evaluated at x_t against h_{t+1}."""
    as_written = xp.sigmoid(matvec(Wf, x_t) + matvec(Uf, h_t))
    h_next = xp.sigmoid(matvec(Wf, x_next) + matvec(Uf, h_t))
    return relatively_equal(xp, as_written, h_next)


claim_symbols = {"birnn.s003.eq29_as_written": BIRNN_STEP, "birnn.s003.eq28_30": BIRNN_JACOBIAN}
