r"""Seeds 002–004's notation for gradient flow: ``\|A\|`` without an index is the spectral (operator) norm,
as seed 004 defines it (``\|A\| = \sqrt{\lambda_1(A^\top A)}``); ``\lambda_1`` is the largest eigenvalue of a
symmetric matrix; ``A^T`` of a matrix is its transpose (``\gamma^T`` of a number stays a power).

``\sigma`` is the claim's activation (its dim ``act``) and ``\gamma`` its ``sup|σ'|`` (tanh 1, sigmoid ¼,
…), as seeds 002–004 define it; a claim that samples γ itself (``vanish.s002.delta_subst``) reads its input
``gamma``.  ``\sigma'(h_t)`` is σ' at a claim's input ``h`` (``vanish.s003.diag_norm`` samples h_t so);
``\mathrm{diag}(\gamma)`` is γ on the diagonal of an n × n matrix.
"""

from __future__ import annotations

from checks._vocab.activations import SUP_D1, dact
from checks._vocab.activations import act as apply_act
from checks._vocab.fd import fd_jacobian, quadratic_directional
from checks._vocab.linalg import matvec
from checks._vocab.notation import spectral
from checks._vocab.notation import symbols as shared
from checks.gradflow._helpers import (
    POLICY_RTOL,
    bernoulli_masks,
    chain_product,
    expect,
    jac_g_step,
    run_g,
    run_h,
    standardize,
    symmetric_law,
)
from lemmacheck import Derived, Function, Input


def _top_eigenvalue(xp, S):
    return xp.eigvalsh(S)[..., -1]


def _batch_of(inputs: dict) -> int:
    return len(next(iter(inputs.values())))


def _gamma(xp, act=None, **inputs):
    """sup|σ'| of the claim's activation, one per instance; the claim's own ``gamma`` where it samples one."""
    if "gamma" in inputs:
        return inputs["gamma"]
    if act is None:
        raise TypeError("γ is sup|σ'| of the activation; this claim has neither a dim act nor an input gamma")
    return xp.zeros(_batch_of(inputs)) + SUP_D1[act]


def _dact_h(xp, h, act):
    return dact(xp, act, h)


def _diag_dact_h_squared(xp, h, act):
    d = dact(xp, act, h)
    return xp.diag_embed(d * d)


def _diag_gamma_squared(xp, n, act=None, **inputs):
    g = _gamma(xp, act, **inputs)
    return g[:, None, None] ** 2 * xp.eye(n)


symbols = shared.extend(
    "checks/gradflow/_notation.py",
    {
        r"\lambda_1": Function(_top_eigenvalue, doc="the largest eigenvalue of a symmetric matrix"),
        r"\gamma": Derived(_gamma, doc="sup|σ'| of the claim's activation, or its input gamma"),
        r"\sigma'(h_t)": Derived(_dact_h, doc="σ' of the claim's activation at its input h"),
        r"\mathrm{diag}(\sigma'(h_t))^2": Derived(_diag_dact_h_squared, doc="diag(σ'(h))², h the input"),
        r"\mathrm{diag}(\gamma)^2": Derived(_diag_gamma_squared, doc="γ² on the diagonal of an n × n matrix"),
    },
    norm=spectral,
    transpose_letters=("T",),
)


# --------------------------------------------------------------------------- seed 002's step g_{t-1} -> g_t


def _pre_002(xp, W, U, b, X, h0):
    """W g_{t-1} + U x_t + b, with g_{t-1} sampled as the input h0 and x_t as the first row of X."""
    return matvec(W, h0) + matvec(U, X[:, 0]) + b


def _first_row(xp, X):
    return X[:, 0]


def _diag_dact_pre_002(xp, W, U, b, X, h0, act):
    return xp.diag_embed(dact(xp, act, _pre_002(xp, W, U, b, X, h0)))


def _jac_step_002(xp, W, U, b, X, h0, act):
    """∂g_t/∂g_{t-1} (numerator layout, exact: the vocabulary's step Jacobian, which vanish.s002.jacobian_step
    checks against central differences)."""
    return jac_g_step(xp, W, _pre_002(xp, W, U, b, X, h0), act)


def _dact_pre_002(xp, W, U, b, X, h0, act):
    return dact(xp, act, _pre_002(xp, W, U, b, X, h0))


_SIGMA_PRIME_002 = r"\sigma'(Wg_{t-1}+Ux_t+b)"

#: seed 002, Question 1.2, one step of g_t = σ(W g_{t-1} + U x_t + b) as its checks sample it (g_{t-1} the
#: input h0, x_t the first row of X); σ'(·) of a vector is the matrix diag(σ'(·)), as the document's own
#: product σ'(·)W and its use of ‖AB‖ ≤ ‖A‖‖B‖ read it (vanish.s002.step_bound's notes)
ONE_STEP_002 = symbols.extend(
    "checks/gradflow/_notation.py (ONE_STEP_002)",
    {
        "g_{t-1}": Input("h0"),
        "x_t": Derived(_first_row, doc="x_t, the first row of X"),
        _SIGMA_PRIME_002: Derived(_diag_dact_pre_002, doc="diag(σ'(W g_{t-1} + U x_t + b))"),
        r"\frac{\partial g_t}{\partial g_{t-1}}": Derived(_jac_step_002, doc="diag(σ'(a_t))W, exact"),
    },
)
#: the same step where seed 002's ‖σ'(·)‖ is read as the Euclidean norm of the vector σ'(·)
#: (vanish.s002.step_bound_vector_norm)
ONE_STEP_002_VECTOR = ONE_STEP_002.extend(
    "checks/gradflow/_notation.py (ONE_STEP_002_VECTOR)",
    {_SIGMA_PRIME_002: Derived(_dact_pre_002, doc="the vector σ'(W g_{t-1} + U x_t + b)")},
)


# --------------------------------------------------------------------------- T steps under a hypothesis on W


def _w_scaled(xp, W, delta, s, act):
    """W rescaled to ‖W‖ = s δ/γ: how the checks impose λ_1(WᵀW) ≤ δ²/γ² (s ≤ 1) or its reverse (s > 1)."""
    from checks.gradflow.vanishing import _scaled  # noqa: PLC0415  (the checks' own rescaling; imports this)

    return _scaled(xp, W, s * delta / SUP_D1[act])


def _jac_g_chain_scaled(xp, W, U, b, X, h0, delta, s, act):
    """∂g_T/∂g_0 of seed 002's recurrence with the rescaled W: the product J_T ⋯ J_1 of exact steps."""
    from checks.gradflow.vanishing import _g_jacobians  # noqa: PLC0415

    return chain_product(xp, _g_jacobians(xp, _w_scaled(xp, W, delta, s, act), U, b, X, h0, act))


def _jac_h_chain_scaled_003(xp, W, U, b, X, h0, delta, s, act):
    """∂h_T/∂h_0 of h_t = Wσ(h_{t-1}) + Ux_t + b with the rescaled W, in seed 003's denominator layout
    (the transpose of the numerator-layout product J_T ⋯ J_1)."""
    from checks.gradflow.vanishing import _h_jacobians  # noqa: PLC0415

    jacs = _h_jacobians(xp, _w_scaled(xp, W, delta, s, act), U, b, X, h0, act)[1]
    return xp.transpose(chain_product(xp, jacs))


def _w_scaled_unit(xp, W, s, act):
    """W rescaled to ‖W‖ = s/γ, s ≥ 1: how vanish.s004.reverse_fixed imposes λ_1(WᵀW) ≥ 1/γ²."""
    from checks.gradflow.vanishing import _scaled  # noqa: PLC0415

    return _scaled(xp, W, s / SUP_D1[act])


_W_SCALED = Derived(_w_scaled, doc="W rescaled to ‖W‖ = s δ/γ (the hypothesis imposed)")

#: W rescaled to ‖W‖ = s/γ, s ≥ 1 (vanish.s004.reverse_fixed's hypothesis λ_1(WᵀW) ≥ 1/γ², imposed)
W_SCALED_UNIT = symbols.extend(
    "checks/gradflow/_notation.py (W_SCALED_UNIT)",
    {"W": Derived(_w_scaled_unit, doc="W rescaled to ‖W‖ = s/γ")},
)

#: seed 002's T steps where the check imposes a condition on λ_1(WᵀW) by rescaling W (vanish.s002.final_bound,
#: reverse_chain): W in the statement is the rescaled W
CHAIN_002_SCALED = symbols.extend(
    "checks/gradflow/_notation.py (CHAIN_002_SCALED)",
    {
        "W": _W_SCALED,
        r"\frac{\partial g_T}{\partial g_0}": Derived(_jac_g_chain_scaled, doc="J_T ⋯ J_1, W rescaled"),
    },
)
#: seed 003's T steps of h_t, W rescaled (vanish.s003.eq25, not_met_no_explosion)
CHAIN_003_SCALED = symbols.extend(
    "checks/gradflow/_notation.py (CHAIN_003_SCALED)",
    {
        "W": _W_SCALED,
        r"\frac{\partial h_T}{\partial h_0}": Derived(
            _jac_h_chain_scaled_003, doc="(J_T ⋯ J_1)ᵀ (denominator layout), W rescaled"
        ),
    },
)


# --------------------------------------------------------------------------- seed 003, Question 6 (BiRNN)


def _sigmoid(xp, z):
    return xp.sigmoid(z)


def _f_at(x_name):
    def f(xp, Wf, Uf, h_t, **inputs):
        return matvec(Wf, inputs[x_name]) + matvec(Uf, h_t)

    return f


def _h_next(xp, Wf, Uf, x_next, h_t):
    return xp.sigmoid(matvec(Wf, x_next) + matvec(Uf, h_t))


#: one forward step of seed 003's BiRNN as birnn.py's step claims sample it: h_t^{(f)} the input h_t,
#: x_t and x_{t+1} the inputs x_t and x_next; σ the sigmoid (the document's units); f^{(f)}(x, h) = W^{(f)}x +
#: U^{(f)}h its pre-activation, so h_{t+1}^{(f)} = σ(f^{(f)}(x_{t+1}, h_t^{(f)}))
BIRNN_STEP = symbols.extend(
    "checks/gradflow/_notation.py (BIRNN_STEP)",
    {
        r"\sigma": Function(_sigmoid, doc="the sigmoid"),
        "h_t^{(f)}": Input("h_t"),
        "x_t": Input("x_t"),
        "x_{t+1}": Input("x_next"),
        "h_{t+1}^{(f)}": Derived(_h_next, doc="σ(W^{(f)}x_{t+1} + U^{(f)}h_t^{(f)})"),
        r"f^{(f)}(x_t,h_t^{(f)})": Derived(_f_at("x_t"), doc="W^{(f)}x_t + U^{(f)}h_t^{(f)}"),
        r"f^{(f)}(x_{t+1},h_t^{(f)})": Derived(_f_at("x_next"), doc="W^{(f)}x_{t+1} + U^{(f)}h_t^{(f)}"),
    },
)


# ----------------------------------------------------------------------- one step, the Jacobian identities


def _one_step(xp, W, U, b, X, act, recurrence):
    """The map z ↦ the next state, with x_t the first row of X (run_g: g_t = σ(Wz + Ux_t + b); run_h:
    h_t = Wσ(z) + Ux_t + b)."""
    run = run_g if recurrence == "g" else run_h
    return lambda z: run(xp, W, U, b, X[:, :1], z, act)[-1]


def _fd_step_g(xp, W, U, b, X, h0, act):
    """∂g_t/∂g_{t-1} by central differences (numerator layout): the derivative itself, as the checks
    take it."""
    return fd_jacobian(xp, _one_step(xp, W, U, b, X, act, "g"), h0)


def _fd_dsigma_pre_g(xp, W, U, b, X, h0, act):
    """∂σ'(Wg_{t-1} + Ux_t + b)/∂g_{t-1} by central differences (seed 002's middle expression, as written)."""
    return fd_jacobian(xp, lambda z: dact(xp, act, matvec(W, z) + matvec(U, X[:, 0]) + b), h0)


def _fd_step_h(xp, W, U, b, X, h0, act):
    return fd_jacobian(xp, _one_step(xp, W, U, b, X, act, "h"), h0)


def _fd_step_h_denominator(xp, W, U, b, X, h0, act):
    """∂h_t/∂h_{t-1} in seed 003's denominator layout: the transposed central-difference Jacobian."""
    return xp.transpose(_fd_step_h(xp, W, U, b, X, h0, act))


def _probe_cd(xp, side, inputs):
    """cᵀMd of a matrix side M (a vector side v: cᵀv), the probes c, d the Jacobian checks compare through."""
    c = inputs["c"]
    if side.ndim == 2:
        return xp.sum(c * side, axis=-1)
    return xp.sum(c * matvec(side, inputs["d"]), axis=-1)


def _diag_dact_h0(xp, h0, act):
    return xp.diag_embed(dact(xp, act, h0))


#: seed 002's step g_{t-1} ↦ g_t for its Jacobian identity (vanish.s002.jacobian_step): ∂ is the derivative by
#: central differences; compared through the probes c, d like its check
JACOBIAN_STEP_002 = ONE_STEP_002.extend(
    "checks/gradflow/_notation.py (JACOBIAN_STEP_002)",
    {
        r"\frac{\partial g_t}{\partial g_{t-1}}": Derived(
            _fd_step_g, doc="∂g_t/∂g_{t-1}, central differences"
        ),
        r"\frac{\partial \sigma'(Wg_{t-1} + Ux_t + b)}{\partial g_{t-1}}": Derived(
            _fd_dsigma_pre_g, doc="∂σ'(a_t)/∂g_{t-1}, central differences"
        ),
    },
    probe_fn=_probe_cd,
)


def _dact_h0(xp, h0, act):
    return dact(xp, act, h0)


#: seed 003's step h_{t-1} ↦ h_t (vanish.s003.jacobian_step): h_{t-1} the input h0, x_t the first row of X;
#: ∂h_t/∂h_{t-1} in its denominator layout ([·]_{ij} = ∂h_{t,j}/∂h_{t-1,i}), by central differences
JACOBIAN_STEP_003 = symbols.extend(
    "checks/gradflow/_notation.py (JACOBIAN_STEP_003)",
    {
        "h_{t-1}": Input("h0"),
        r"\sigma'(h_{t-1})": Derived(_dact_h0, doc="σ' at h_{t-1}"),
        r"\frac{\partial h_t}{\partial h_{t-1}}": Derived(
            _fd_step_h_denominator, doc="∂h_t/∂h_{t-1}, denominator layout, central differences"
        ),
    },
    probe_fn=_probe_cd,
)
#: seed 004's step (vanish.s004.jacobian_step): numerator layout; Dσ(h_{t-1}) = diag(σ'(h_{t-1}))
JACOBIAN_STEP_004 = symbols.extend(
    "checks/gradflow/_notation.py (JACOBIAN_STEP_004)",
    {
        "h_{t-1}": Input("h0"),
        r"D\sigma(h_{t-1})": Derived(_diag_dact_h0, doc="diag(σ'(h_{t-1}))"),
        r"\frac{\partial h_t}{\partial h_{t-1}}": Derived(
            _fd_step_h, doc="∂h_t/∂h_{t-1}, numerator layout, central differences"
        ),
    },
    probe_fn=_probe_cd,
)


# --------------------------------------------------------------------------- seed 003, proof of Lemma 5.1


def _w_column(xp, w):
    return w[:, :, None]


def _u_orthogonal(xp, w):
    return xp.stack([-w[:, 1], w[:, 0]], axis=-1)


def _v_witness(xp, w):
    """v = Wᵀu = w · u, as the statement names it."""
    return matvec(xp.transpose(_w_column(xp, w)), _u_orthogonal(xp, w))


def _zero(xp, w):
    return 0 * w[:, 0]


#: eig.s003.proof_step's witness: W the 2 × 1 column w, u = (−w_2, w_1) (W Wᵀ u = 0 = λu with λ = 0)
LEMMA51_WITNESS = symbols.extend(
    "checks/gradflow/_notation.py (LEMMA51_WITNESS)",
    {
        "W": Derived(_w_column, doc="the 2 × 1 column w"),
        "u": Derived(_u_orthogonal, doc="(−w_2, w_1), in the kernel of Wᵀ"),
        r"\lambda": Derived(_zero, doc="the eigenvalue 0"),
        "v": Derived(_v_witness, doc="v = Wᵀu"),
    },
)


# --------------------------------------------------------------------------- seeds 002-004, Question 1.1


def _trajectories(xp, W, U, b, X, h0, act):
    """h_0..h_T of h_t = Wσ(h_{t-1}) + Ux_t + b and g_0..g_T of g_t = σ(Wg_{t-1} + Ux_t + b), from
    g_0 = σ(h_0), as activation.py simulates them."""
    return run_h(xp, W, U, b, X, h0, act), run_g(xp, W, U, b, X, apply_act(xp, act, h0), act)


def _at_last_step(which, back=0):
    """h_t, g_t (back = 0) or h_{t-1}, g_{t-1} (back = 1) read at t = T."""

    def state(xp, W, U, b, X, h0, act):
        hs, gs = _trajectories(xp, W, U, b, X, h0, act)
        return (hs if which == "h" else gs)[-1 - back]

    return state


def _sigma_at_last_step(which, back=0):
    def sigma_of_state(xp, W, U, b, X, h0, act):
        return apply_act(xp, act, _at_last_step(which, back)(xp, W, U, b, X, h0, act))

    return sigma_of_state


def _sigma_g_step(xp, W, U, b, X, h0, act):
    """σ(Wg_{t-1} + Ux_t + b) at t = T."""
    g_prev = _at_last_step("g", 1)(xp, W, U, b, X, h0, act)
    return apply_act(xp, act, matvec(W, g_prev) + matvec(U, X[:, -1]) + b)


def _last_input(xp, X):
    return X[:, -1]


def _sigma_inverse(xp, y, *, act):
    """σ^{-1}(y) of the claim's activation where y is in σ's range, NaN (no value: an equality with it is
    false) outside it; the argument is moved inside the domain before the formula, so nothing overflows."""
    nan = 0 * y + float("nan")
    if act == "linear":
        return y
    if act == "sigmoid":
        inside = (y > 0) & (y < 1)
        yc = xp.where(inside, y, 0 * y + 0.5)
        value = xp.log(yc / (1 - yc))
    elif act == "softplus":
        inside = y > 0
        yc = xp.where(inside, y, 0 * y + 1)
        value = xp.log(xp.exp(yc) - 1)
    elif act in ("tanh", "softsign"):
        inside = xp.abs(y) < 1
        yc = xp.where(inside, y, 0 * y)
        value = 0.5 * xp.log((1 + yc) / (1 - yc)) if act == "tanh" else yc / (1 - xp.abs(yc))
    else:
        raise ValueError(f"σ^{{-1}} of {act!r}, which is not invertible")
    return xp.where(inside, value, nan)


#: the two recurrences of Question 1.1 simulated from g_0 = σ(h_0) (activation.py), their induction step read
#: at its last step t = T: h_t, g_t, h_{t-1}, g_{t-1} the states there, x_t the last row of X; σ the claim's
#: activation (its dim act), applied where the statement writes it
RECURRENCES_AT_T = symbols.extend(
    "checks/gradflow/_notation.py (RECURRENCES_AT_T)",
    {
        "h_t": Derived(_at_last_step("h"), doc="h_T"),
        "g_t": Derived(_at_last_step("g"), doc="g_T"),
        "h_{t-1}": Derived(_at_last_step("h", 1), doc="h_{T-1}"),
        "g_{t-1}": Derived(_at_last_step("g", 1), doc="g_{T-1}"),
        "x_t": Derived(_last_input, doc="x_T, the last row of X"),
        r"\sigma(h_t)": Derived(_sigma_at_last_step("h"), doc="σ(h_T)"),
        r"\sigma(h_{t-1})": Derived(_sigma_at_last_step("h", 1), doc="σ(h_{T-1})"),
        r"\sigma(Wg_{t-1}+Ux_t+b)": Derived(_sigma_g_step, doc="σ(Wg_{T-1} + Ux_T + b)"),
        r"\sigma^{-1}": Function(_sigma_inverse, doc="the inverse of the claim's activation on its range"),
    },
)


# --------------------------------------------------------------------------- jacobian_chain.py's one step


def _pre_xg(xp, W, U, b, x, z):
    return matvec(W, z) + matvec(U, x) + b


def _fd_step_xg(xp, W, U, b, x, g, act):
    """∂g_t/∂g_{t-1} by central differences, g_{t-1} the input g and x_t the input x."""
    return fd_jacobian(xp, lambda z: apply_act(xp, act, _pre_xg(xp, W, U, b, x, z)), g)


def _fd_of_pre_xg(fn):
    def jacobian(xp, W, U, b, x, g, act):
        return fd_jacobian(xp, lambda z: fn(xp, act, _pre_xg(xp, W, U, b, x, z)), g)

    return jacobian


def _diag_dact_xg(xp, W, U, b, x, g, act):
    return xp.diag_embed(dact(xp, act, _pre_xg(xp, W, U, b, x, g)))


#: seed 002's step as jacobian_chain.py samples it (g_{t-1} the input g, x_t the input x); each ∂ the
#: central-difference Jacobian of what is written over ∂g_{t-1}, as its checks take them
MIDDLE_002 = symbols.extend(
    "checks/gradflow/_notation.py (MIDDLE_002)",
    {
        "g_{t-1}": Input("g"),
        "x_t": Input("x"),
        _SIGMA_PRIME_002: Derived(_diag_dact_xg, doc="diag(σ'(W g_{t-1} + U x_t + b))"),
        r"\frac{\partial g_t}{\partial g_{t-1}}": Derived(_fd_step_xg, doc="∂g_t/∂g_{t-1}, by differences"),
        r"\frac{\partial \sigma'(Wg_{t-1} + Ux_t + b)}{\partial g_{t-1}}": Derived(
            _fd_of_pre_xg(dact), doc="∂σ'(a_t)/∂g_{t-1}, by differences"
        ),
        r"\frac{\partial \sigma(Wg_{t-1} + Ux_t + b)}{\partial g_{t-1}}": Derived(
            _fd_of_pre_xg(apply_act), doc="∂σ(a_t)/∂g_{t-1}, by differences"
        ),
    },
    probe_fn=_probe_cd,
)


# --------------------------------------------------------------------------- seed 003, Question 1: moments


def _law_moments(*, standardised):
    """E[a], E[a²], V[a] and E[ReLU(a)²] of the discrete law with support s and probabilities p (the law
    standardised to mean 0, variance 1 where the claim's check standardises it): exact finite sums."""

    def moments(xp, s, p):
        v = standardize(xp, s, p) if standardised else s
        m = expect(xp, p, v)
        relu = xp.where(v > 0, v, 0 * v)
        return {
            "mean": m,
            "second": expect(xp, p, v * v),
            "var": expect(xp, p, (v - m[:, None]) ** 2),
            "relu_second": expect(xp, p, relu * relu),
        }

    return moments


def _law_table(name: str, *, standardised: bool):
    fn = _law_moments(standardised=standardised)
    return symbols.extend(
        f"checks/gradflow/_notation.py ({name})",
        {
            r"\mathbb{E}[a]": Derived(fn, "mean", "E[a], a finite sum over the law (s, p)"),
            r"\mathbb{E}[a^2]": Derived(fn, "second", "E[a²]"),
            r"\mathbb{V}[a]": Derived(fn, "var", "V[a] = E[(a − E[a])²]"),
            r"\mathbb{E}[\mathrm{ReLU}(a)^2]": Derived(fn, "relu_second", "E[max(a, 0)²]"),
        },
    )


#: a the discrete law with support s and probabilities p (init.s003.relu_var_line and _fixed)
LAW = _law_table("LAW", standardised=False)
#: a that law standardised to mean 0 and variance 1, as init.s003.relu_half_needs_symmetry draws it
LAW_STANDARDISED = _law_table("LAW_STANDARDISED", standardised=True)


#: the weights' moments sampled as numbers (init.s003.eq10_as_typeset): V[w_ij] = var_w, E[w_ij] = mean_w for
#: every i, j (i.i.d. weights)
WEIGHT_MOMENTS = symbols.extend(
    "checks/gradflow/_notation.py (WEIGHT_MOMENTS)",
    {
        r"\mathbb{V}[w_{ij}]": Input("var_w"),
        r"\mathbb{V}[w_{i1}]": Input("var_w"),
        r"\mathbb{E}[w_{ij}]": Input("mean_w"),
        r"\mathbb{E}[w_{i1}]": Input("mean_w"),
    },
)


# --------------------------------------------------------------------------- seed 003, Question 2: dropout


def _over_masks(inner):
    """E_R[inner(R ⊙ X, w, y)] over R_ij i.i.d. Bernoulli(p): the exact weighted sum over every mask
    (dropout.py's enumeration), for what the statement writes inside E_R."""

    def expectation(xp, X, p, **inputs):
        from checks.gradflow.dropout import _mask_weights, _masked  # noqa: PLC0415  (dropout.py imports this)

        masks, RX = _masked(xp, X)
        P = _mask_weights(xp, p, masks)
        v = inner(xp, RX, inputs.get("w"), inputs.get("y"))
        return xp.sum(P.reshape(P.shape + (1,) * (v.ndim - 2)) * v, axis=1)

    return expectation


def _squared_residual(xp, RX, w, y):
    """‖(R ⊙ X)w − y‖² on every mask (batch, K)."""
    r = xp.matmul(RX, w[:, None, :, None])[..., 0] - y[:, None, :]
    return xp.sum(r * r, axis=-1)


def _expanded_residual(xp, RX, w, y):
    """wᵀ(R ⊙ X)ᵀ(R ⊙ X)w − 2yᵀ(R ⊙ X)w + yᵀy on every mask."""
    Rw = xp.matmul(RX, w[:, None, :, None])[..., 0]
    return (
        xp.sum(Rw * Rw, axis=-1) - 2 * xp.sum(y[:, None, :] * Rw, axis=-1) + xp.sum(y * y, axis=-1)[:, None]
    )


def _masked_gram(xp, RX, w, y):
    return xp.matmul(xp.transpose(RX), RX)


def _masked_design(xp, RX, w, y):
    return RX


def _expected_loss_rows(xp, X, w, y, p):
    """E_R[L(w)] row by row (exact at any n: row k's term depends only on the mask's row k)."""
    from checks.gradflow.dropout import expected_loss_by_rows  # noqa: PLC0415

    return expected_loss_by_rows(xp, X, w, y, p)


def _column_norms(xp, X):
    """Γ = diag(‖X_{:,j}‖): Γ² = I_d ⊙ XᵀX, the squared column norms on the diagonal."""
    return xp.diag_embed(xp.sqrt(xp.sum(X * X, axis=-2)))


def _column_norms_sq(xp, X):
    return xp.diag_embed(xp.sum(X * X, axis=-2))


def _eye_d(xp, X):
    return xp.zeros(X.shape[0])[:, None, None] + xp.eye(X.shape[-1])


_LOSS_ENUMERATED = Derived(_over_masks(_squared_residual), doc="E_R‖(R ⊙ X)w − y‖², over every mask")

#: seed 003's dropout: R_ij i.i.d. Bernoulli(p) (p the keep probability), each E_R an exact sum over the
#: 2^{nd} masks of what is written inside it; L(w) = ‖(R ⊙ X)w − y‖²; Γ = diag(column norms of X); I_d
DROPOUT = symbols.extend(
    "checks/gradflow/_notation.py (DROPOUT)",
    {
        r"\mathbb{E}_R\|(R\odot X)w - y\|_2^2": _LOSS_ENUMERATED,
        r"\mathbb{E}_R[L(w)]": _LOSS_ENUMERATED,
        r"\mathbb{E}_R[((R\odot X)w-y)^\top((R\odot X)w-y)]": Derived(
            _over_masks(_squared_residual), doc="E_R[((R ⊙ X)w − y)ᵀ((R ⊙ X)w − y)]"
        ),
        r"\mathbb{E}_R[w^\top(R\odot X)^\top(R\odot X)w - 2y^\top(R\odot X)w + y^\top y]": Derived(
            _over_masks(_expanded_residual), doc="E_R of the expanded square"
        ),
        r"\mathbb{E}_R[(R\odot X)^\top(R\odot X)]": Derived(
            _over_masks(_masked_gram), doc="E_R[(R ⊙ X)ᵀ(R ⊙ X)]"
        ),
        r"\mathbb{E}_R[R\odot X]": Derived(_over_masks(_masked_design), doc="E_R[R ⊙ X]"),
        r"\Gamma": Derived(_column_norms, doc="diag(‖X_{:,j}‖)"),
        r"\Gamma^2": Derived(_column_norms_sq, doc="I_d ⊙ XᵀX"),
        "I_d": Derived(_eye_d, doc="the d × d identity"),
    },
    odot_binds="loose",  # I_d \odot X^\top X is I_d ⊙ (XᵀX): I_d ⊙ Xᵀ is not even defined for n ≠ d
    indices={"j": "d", "i": "n"},
)
#: the same, E_R‖(R ⊙ X)w − y‖² computed row by row (dropout.s003.expected_loss_rows: n, d up to 10 and 6)
DROPOUT_ROWS = DROPOUT.extend(
    "checks/gradflow/_notation.py (DROPOUT_ROWS)",
    {r"\mathbb{E}_R\|(R\odot X)w - y\|_2^2": Derived(_expected_loss_rows, doc="E_R[L(w)], row by row")},
)


# --------------------------------------------------------------------------- T steps, products written out


def _g_steps(xp, W, U, b, X, h0, act):
    """Seed 002's exact step Jacobians J_1..J_T of g_t = σ(Wg_{t-1} + Ux_t + b), g_0 the input h0."""
    from checks.gradflow.vanishing import _g_jacobians  # noqa: PLC0415

    return _g_jacobians(xp, W, U, b, X, h0, act)


def _g_chain(xp, W, U, b, X, h0, act):
    return chain_product(xp, _g_steps(xp, W, U, b, X, h0, act))


def _g_step_norms(xp, W, U, b, X, h0, act):
    out = None
    for J in _g_steps(xp, W, U, b, X, h0, act):
        n = xp.max(xp.svdvals(J), axis=-1)
        out = n if out is None else out * n
    return out


#: seed 002's T steps as vanish.s002.bound_chain samples them (W as drawn, g_0 the input h0): ∂g_T/∂g_0 the
#: product J_T ⋯ J_1 of exact step Jacobians, and the written product of their norms over t = 1..T
CHAIN_002 = symbols.extend(
    "checks/gradflow/_notation.py (CHAIN_002)",
    {
        r"\frac{\partial g_T}{\partial g_0}": Derived(_g_chain, doc="J_T ⋯ J_1, exact"),
        r"\prod_{t=1}^T\left\|\frac{\partial g_t}{\partial g_{t-1}}\right\|": Derived(
            _g_step_norms, doc="∏_t ‖J_t‖"
        ),
    },
)


def _h_states(xp, W, U, b, X, h0, act):
    from checks.gradflow.vanishing import _h_jacobians  # noqa: PLC0415

    return _h_jacobians(xp, W, U, b, X, h0, act)[0]


def _diag_wt_product(xp, W, U, b, X, h0, act):
    """diag(σ'(h_0))Wᵀ ⋯ diag(σ'(h_{T-1}))Wᵀ along the trajectory h_0..h_{T-1} of
    h_t = Wσ(h_{t-1}) + Ux_t + b."""
    hs = _h_states(xp, W, U, b, X, h0, act)
    P = None
    for t in range(X.shape[1]):
        F = dact(xp, act, hs[t])[:, :, None] * xp.transpose(W)
        P = F if P is None else xp.matmul(P, F)
    return P


def _diag_wt_norms(xp, W, U, b, X, h0, act):
    """∏_{t=0}^{T-1} ‖diag(σ'(h_t))‖ ‖Wᵀ‖ (‖diag(v)‖ = max|v_i|)."""
    hs = _h_states(xp, W, U, b, X, h0, act)
    nw = xp.max(xp.svdvals(xp.transpose(W)), axis=-1)
    out = None
    for t in range(X.shape[1]):
        f = xp.max(xp.abs(dact(xp, act, hs[t])), axis=-1) * nw
        out = f if out is None else out * f
    return out


#: seed 003's product along the trajectory h_0..h_{T-1} (vanish.s003.eq24: W as drawn), its elided product
#: written out and the product of the factors' norms
PRODUCT_003 = symbols.extend(
    "checks/gradflow/_notation.py (PRODUCT_003)",
    {
        r"\mathrm{diag}(\sigma'(h_0))W^\top\cdots\mathrm{diag}(\sigma'(h_{T-1}))W^\top": Derived(
            _diag_wt_product, doc="diag(σ'(h_0))Wᵀ ⋯ diag(σ'(h_{T-1}))Wᵀ"
        ),
        r"\prod_{t=0}^{T-1}\|\mathrm{diag}(\sigma'(h_t))\|\,\|W^\top\|": Derived(
            _diag_wt_norms, doc="∏_t ‖diag(σ'(h_t))‖ ‖Wᵀ‖"
        ),
    },
)


def _h_chain_scaled_004(xp, W, U, b, X, h0, delta, s, act):
    """∂h_T/∂h_0 (numerator layout) = J_T ⋯ J_1 with W rescaled to ‖W‖ = sδ/γ."""
    from checks.gradflow.vanishing import _h_jacobians  # noqa: PLC0415

    return chain_product(xp, _h_jacobians(xp, _w_scaled(xp, W, delta, s, act), U, b, X, h0, act)[1])


def _w_dsigma_norms_scaled(xp, W, U, b, X, h0, delta, s, act):
    """‖W‖‖Dσ(h_{T-1})‖ ⋯ ‖W‖‖Dσ(h_0)‖ along the trajectory, W rescaled."""
    Ws = _w_scaled(xp, W, delta, s, act)
    hs = _h_states(xp, Ws, U, b, X, h0, act)
    nw = xp.max(xp.svdvals(Ws), axis=-1)
    out = None
    for t in range(X.shape[1]):
        f = nw * xp.max(xp.abs(dact(xp, act, hs[t])), axis=-1)
        out = f if out is None else out * f
    return out


#: seed 004's T steps under the hypothesis imposed by rescaling W (vanish.s004.norm_chain)
CHAIN_004_SCALED = symbols.extend(
    "checks/gradflow/_notation.py (CHAIN_004_SCALED)",
    {
        "W": _W_SCALED,
        r"\frac{\partial h_T}{\partial h_0}": Derived(_h_chain_scaled_004, doc="J_T ⋯ J_1, W rescaled"),
        r"\|W\|\|D\sigma(h_{T-1})\|\cdots\|W\|\|D\sigma(h_0)\|": Derived(
            _w_dsigma_norms_scaled, doc="∏_t ‖W‖‖Dσ(h_t)‖, W rescaled"
        ),
    },
)


def _expected_loss_gradient(xp, X, w, y, p):
    """∇_w E_R[L(w)] by exact central differences along each axis (the loss is quadratic in w, so the
    step-1 difference of checks/_vocab/fd.py is exact), E_R an exact sum over every mask."""
    from checks.gradflow.dropout import expected_loss_enum  # noqa: PLC0415

    eye = xp.eye(w.shape[-1])
    cols = [
        quadratic_directional(lambda w_: expected_loss_enum(xp, X, w_, y, p), w, 0 * w + eye[k])
        for k in range(w.shape[-1])
    ]
    return xp.stack(cols, axis=-1)


def _expected_loss_hessian(xp, X, p):
    """∇²_w E_R[L(w)] = 2 E_R[(R ⊙ X)ᵀ(R ⊙ X)] (L is quadratic in w), exactly and row by row: row k of the
    mask only meets row k of X, so E_R[(R ⊙ X)ᵀ(R ⊙ X)] = Σ_k E[(m ⊙ x_k)(m ⊙ x_k)ᵀ] over the 2^d masks m of
    one row (n 2^d terms instead of 2^{nd}, as expected_loss_by_rows)."""
    from checks.gradflow.dropout import _mask_weights  # noqa: PLC0415

    masks = bernoulli_masks(1, X.shape[-1])  # (2^d, 1, d)
    P = _mask_weights(xp, p, masks)  # (batch, 2^d)
    kept = X[:, :, None, :] * masks[None, :, 0, :][:, None]  # (batch, n, 2^d, d)
    outer = kept[..., :, None] * kept[..., None, :]  # (batch, n, 2^d, d, d)
    return 2 * xp.sum(xp.sum(P[:, None, :, None, None] * outer, axis=2), axis=1)


#: seed 003's dropout where its gradient is compared through the direction v, as dropout.s003.gradient's
#: check compares it (vᵀ lhs against vᵀ rhs)
DROPOUT_GRADIENT = DROPOUT.extend(
    "checks/gradflow/_notation.py (DROPOUT_GRADIENT)",
    {
        r"\frac{\partial\,\mathbb{E}_R[L(w)]}{\partial w}": Derived(
            _expected_loss_gradient, doc="∇_w E_R[L(w)], exact differences"
        ),
        r"\nabla_w^2\,\mathbb{E}_R[L(w)]": Derived(_expected_loss_hessian, doc="2 E_R[(R ⊙ X)ᵀ(R ⊙ X)]"),
    },
    probe="v",
)


# --------------------------------------------------------------------------- T steps, the Jacobian identities


def _full_map(xp, W, U, b, X, act, recurrence):
    run = run_g if recurrence == "g" else run_h
    return lambda z: run(xp, W, U, b, X, z, act)[-1]


def _fd_full(recurrence, *, transposed=False, start="h0"):
    """∂(state T)/∂(state 0) by central differences of the whole map (its transpose in seed 003's layout)."""

    def jacobian(xp, W, U, b, X, act, **inputs):
        J = fd_jacobian(xp, _full_map(xp, W, U, b, X, act, recurrence), inputs[start])
        return xp.transpose(J) if transposed else J

    return jacobian


def _steps(recurrence, start="h0"):
    """The exact step Jacobians J_1..J_T (numerator layout) of the recurrence from the state ``start``."""

    def jacobians(xp, W, U, b, X, act, **inputs):
        from checks.gradflow.vanishing import _g_jacobians, _h_jacobians  # noqa: PLC0415

        if recurrence == "g":
            return _g_jacobians(xp, W, U, b, X, inputs[start], act)
        return _h_jacobians(xp, W, U, b, X, inputs[start], act)[1]

    return jacobians


def _ordered_product(recurrence, *, increasing, transposed=False, start="h0"):
    """J_1 J_2 ⋯ J_T (increasing) or J_T ⋯ J_1, each factor transposed in seed 003's layout."""

    def product(xp, W, U, b, X, act, **inputs):
        jacs = _steps(recurrence, start)(xp, W, U, b, X, act, **inputs)
        if transposed:
            jacs = [xp.transpose(J) for J in jacs]
        if not increasing:
            jacs = jacs[::-1]
        out = jacs[0]
        for J in jacs[1:]:
            out = xp.matmul(out, J)
        return out

    return product


def _g_step_at(xp, W, U, b, X, h0, act, t):
    """∂g_t/∂g_{t-1} = J_t (exact), t the index bound by the statement's \\prod."""
    return _steps("g")(xp, W, U, b, X, act, h0=h0)[t - 1]


#: seed 002's T steps for its Jacobian identity (vanish.s002.chain_product): ∂g_T/∂g_0 by central differences
#: of g_0 ↦ g_T, ∂g_t/∂g_{t-1} the exact step J_t at the t of ∏_{t=1}^T; compared through c, d
CHAIN_PRODUCT_002 = symbols.extend(
    "checks/gradflow/_notation.py (CHAIN_PRODUCT_002)",
    {
        r"\frac{\partial g_T}{\partial g_0}": Derived(_fd_full("g"), doc="∂g_T/∂g_0, by differences"),
        r"\frac{\partial g_t}{\partial g_{t-1}}": Derived(_g_step_at, doc="J_t, the t of the product"),
    },
    probe_fn=_probe_cd,
)
#: J_1 J_2 ⋯ J_T as seed 002's product is read left to right (vanish.s002.chain_product_order)
_INCREASING_002 = "".join(
    (
        r"\frac{\partial g_1}{\partial g_0}\frac{\partial g_2}{\partial g_1}",
        r"\cdots\frac{\partial g_T}{\partial g_{T-1}}",
    )
)
#: seed 002's product as jacobian_chain.py writes it out (g_0 its input g): left to right as written
PRODUCT_ORDER_002 = symbols.extend(
    "checks/gradflow/_notation.py (PRODUCT_ORDER_002)",
    {
        r"\frac{\partial g_T}{\partial g_0}": Derived(
            _fd_full("g", start="g"), doc="∂g_T/∂g_0, by differences"
        ),
        _INCREASING_002: Derived(_ordered_product("g", increasing=True, start="g"), doc="J_1 J_2 ⋯ J_T"),
        r"\frac{\partial g_T}{\partial g_{T-1}}\cdots\frac{\partial g_1}{\partial g_0}": Derived(
            _ordered_product("g", increasing=False, start="g"), doc="J_T ⋯ J_1"
        ),
    },
    probe_fn=_probe_cd,
)
#: seed 003's T steps in its denominator layout (vanish.s003.eq22_23): each ∂ the transpose of the
#: numerator-layout Jacobian, the written products left to right
CHAIN_003 = PRODUCT_003.extend(
    "checks/gradflow/_notation.py (CHAIN_003)",
    {
        r"\frac{\partial h_T}{\partial h_0}": Derived(
            _fd_full("h", transposed=True), doc="∂h_T/∂h_0 (denominator layout), by differences"
        ),
        r"\frac{\partial h_1}{\partial h_0}\cdots\frac{\partial h_T}{\partial h_{T-1}}": Derived(
            _ordered_product("h", increasing=True, transposed=True), doc="J_1ᵀ ⋯ J_Tᵀ"
        ),
    },
    probe_fn=_probe_cd,
)


def _w_dsigma_product(xp, W, U, b, X, h0, act):
    """W Dσ(h_{T-1}) W Dσ(h_{T-2}) ⋯ W Dσ(h_0) along the trajectory."""
    hs = _h_states(xp, W, U, b, X, h0, act)
    out = None
    for t in range(X.shape[1] - 1, -1, -1):
        F = W * dact(xp, act, hs[t])[:, None, :]
        out = F if out is None else xp.matmul(out, F)
    return out


#: seed 004's T steps (vanish.s004.chain): numerator layout, its products as written
CHAIN_004 = symbols.extend(
    "checks/gradflow/_notation.py (CHAIN_004)",
    {
        r"\frac{\partial h_T}{\partial h_0}": Derived(_fd_full("h"), doc="∂h_T/∂h_0, by differences"),
        r"\frac{\partial h_T}{\partial h_{T-1}}\cdots\frac{\partial h_1}{\partial h_0}": Derived(
            _ordered_product("h", increasing=False), doc="J_T ⋯ J_1"
        ),
        r"WD\sigma(h_{T-1})\,WD\sigma(h_{T-2})\cdots WD\sigma(h_0)": Derived(
            _w_dsigma_product, doc="W Dσ(h_{T-1}) ⋯ W Dσ(h_0)"
        ),
    },
    probe_fn=_probe_cd,
)


def _birnn_pre(xp, Wf, Uf, x_next, h_t):
    """f^{(f)} = W^{(f)}x_{t+1} + U^{(f)}h_t^{(f)}: the argument that produces h_{t+1}^{(f)}."""
    return matvec(Wf, x_next) + matvec(Uf, h_t)


def _birnn_step_jacobian_denominator(xp, Wf, Uf, x_next, h_t):
    """(∂f/∂h_t)(∂h_{t+1}/∂f) in seed 003's denominator layout: the transposed central-difference Jacobian
    of h_t ↦ h_{t+1} = σ(f)."""
    J = fd_jacobian(xp, lambda z: xp.sigmoid(_birnn_pre(xp, Wf, Uf, x_next, z)), h_t)
    return xp.transpose(J)


_BIRNN_CHAIN_RULE = "".join(
    (r"\frac{\partial f^{(f)}}{\partial h_t^{(f)}}", r"\frac{\partial h_{t+1}^{(f)}}{\partial f^{(f)}}")
)
#: one BiRNN step for eq. (28)-(30): U^{(f)} the input Uf, f the pre-activation at x_{t+1}, the product of
#: the two partial derivatives the chain rule in the denominator layout; matrices compared through c, d
BIRNN_JACOBIAN = BIRNN_STEP.extend(
    "checks/gradflow/_notation.py (BIRNN_JACOBIAN)",
    {
        "U^{(f)}": Input("Uf"),
        "f": Derived(_birnn_pre, doc="W^{(f)}x_{t+1} + U^{(f)}h_t^{(f)}"),
        _BIRNN_CHAIN_RULE: Derived(
            _birnn_step_jacobian_denominator, doc="∂h_{t+1}/∂h_t, denominator layout, by differences"
        ),
    },
    probe_fn=_probe_cd,
)


# --------------------------------------------------------------------------- a symmetric law (ReLU's mean)


def _symmetric_law_terms(xp, s, p):
    """The symmetric law of init.s003.relu_mean_positive's check (atom at 0, ±c s_i), its symmetry as a
    truth value (every atom v has an atom −v of the same probability, to the policy's rtol), V[a] and
    E[ReLU(a)], exact finite sums."""
    v, q = symmetric_law(xp, s, p)
    gap = xp.abs(v[:, :, None] + v[:, None, :]) + xp.abs(q[:, :, None] - q[:, None, :])
    scale = xp.max(xp.abs(v), axis=-1) + xp.max(q, axis=-1)
    symmetric = xp.max(xp.min(gap, axis=-1), axis=-1) <= POLICY_RTOL * scale
    m = expect(xp, q, v)
    return {
        "symmetric": symmetric,
        "var": expect(xp, q, (v - m[:, None]) ** 2),
        "relu_mean": expect(xp, q, xp.where(v > 0, v, 0 * v)),
    }


#: a the symmetric law init.s003.relu_mean_positive draws; "a symmetric" the truth value of its symmetry
SYMMETRIC_LAW = symbols.extend(
    "checks/gradflow/_notation.py (SYMMETRIC_LAW)",
    {
        r"a\ \text{symmetric}": Derived(_symmetric_law_terms, "symmetric", "a's law is symmetric about 0"),
        r"\mathbb{V}[a]": Derived(_symmetric_law_terms, "var", "V[a]"),
        r"\mathbb{E}[\mathrm{ReLU}(a)]": Derived(_symmetric_law_terms, "relu_mean", "E[max(a, 0)]"),
    },
)
