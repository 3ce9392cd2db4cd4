"""The sensitivity recursions' faster forms compute the same bits as the plain ones (issue 35).

The float64 pass of ``checks/sensitivity/_helpers.py`` runs the recursion with the batch axis last, adds
the bar tensor through a view of its diagonal, reads σ′ and σ″ from the states it already has, and
``path_row_gradients`` stacks quadrature nodes in groups and forms U x_t once along a step in W. Each
is the same arithmetic in the same order, so every value must be equal bit for bit (the sign of a zero
included) to the plain form on the same inputs: random ones, with exact zeros and -0 planted where the
recursion meets them (a zero state, a zero input, a -0 weight).
"""

from __future__ import annotations

import numpy as np
import pytest
from checks._vocab.activations import ALL, SMOOTH, activation, d1_d2, d1_d2_at
from checks._vocab.rnn import preactivations_and_states
from checks.sensitivity._helpers import (
    BATCH_LAST_ROWS,
    LAST_ROW_BATCH_LAST_ROWS,
    _recursion,
    _recursion_batch_last,
    forward_sensitivities,
    gauss_legendre_01,
    last_row_gradient,
    plus_bar,
    row_grad,
)
from checks.sensitivity._mirror import WRT, path_row_gradients

from lemmacheck import mpmath_xp, numpy_xp
from lemmacheck.xp import to_mp

DTYPES = [np.float64, np.longdouble]


def identical(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return (
        a.dtype == b.dtype
        and a.shape == b.shape
        and np.array_equal(a, b, equal_nan=True)
        and np.array_equal(np.signbit(a), np.signbit(b))
    )


def rnn(seed, B, H, N, T, dtype=np.float64):
    rng = np.random.default_rng(seed)
    U = rng.uniform(-2, 2, (B, H, N))
    W = rng.uniform(-1.2, 1.2, (B, H, H))
    s0 = rng.uniform(-1, 1, (B, H))
    X = rng.uniform(-2, 2, (B, T, N))
    v = rng.uniform(-2, 2, (B, H))
    s0[0], X[1], W[2, 0] = 0.0, 0.0, -0.0  # exact zeros the recursion multiplies and sums
    return tuple(a.astype(dtype) for a in (U, W, s0, X, v))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("H", [1, 2, 3, 4])
@pytest.mark.parametrize("act", SMOOTH)
def test_the_batch_last_recursion_is_the_plain_one_bit_for_bit(dtype, H, act):
    U, W, s0, X, _ = rnn(H, 9, H, 2, 4, dtype)
    fw = forward_sensitivities(numpy_xp, U, W, s0, X, act, tensors="")
    for ys, width in ((fw["states"][:-1], H), ([X[:, t] for t in range(4)], 2)):
        for shift in (0, -1):
            fast = _recursion_batch_last(W, fw["lam1"], ys, width, shift)
            plain = _recursion(numpy_xp, W, fw["lam1"], ys, width, shift)
            assert len(fast) == len(plain) == 5
            for t, (a, b) in enumerate(zip(fast, plain, strict=True)):
                assert identical(a, b), f"S_{t} differs (H={H}, {act}, {dtype.__name__}, shift {shift})"


@pytest.mark.parametrize("shift", [0, -1])
def test_the_bar_tensor_is_added_to_its_blocks_as_a_loop_over_them_adds_it(shift):
    rng = np.random.default_rng(5)
    for H, width in ((1, 2), (2, 2), (3, 3), (4, 2)):
        M = rng.standard_normal((6, H, H, width))
        M[0] = -0.0
        y = rng.standard_normal((6, width))
        y[1] = 0.0
        for yy in (y, y.astype(np.longdouble)):  # a longdouble y makes the sum longdouble, never rounded
            expected = M.astype(yy.dtype)
            for k in range(max(0, -shift), min(H, H - shift)):
                expected[:, k, k + shift] = expected[:, k, k + shift] + yy
            assert identical(plus_bar(M.copy(), yy, shift), expected), f"H={H}, y {yy.dtype}"


@pytest.mark.parametrize("act", SMOOTH)
def test_the_derivatives_from_the_states_are_those_from_the_preactivations(act):
    rng = np.random.default_rng(3)
    z = np.concatenate([rng.uniform(-20, 20, 200), [0.0, -0.0, 1e-300, 40.0]])
    sigma, d1, d2 = activation(numpy_xp, act)
    for zz in (z, z.astype(np.longdouble)):
        got = d1_d2_at(numpy_xp, act, zz, sigma(zz))
        for a, b in zip(got, (d1(zz), d2(zz)), strict=True):
            assert identical(a, b)
        assert all(identical(a, b) for a, b in zip(got, d1_d2(numpy_xp, act, zz), strict=True))
    zm = to_mp(z[:8])
    s = activation(mpmath_xp, act)[0](zm)
    assert [list(a) for a in d1_d2_at(mpmath_xp, act, zm, s)] == [list(a) for a in d1_d2(mpmath_xp, act, zm)]


def test_the_polynomials_in_sigma_are_the_ones_written_before():
    """σ″ reuses σ′ (formed once): the same products as the polynomial written out."""
    t = np.tanh(np.linspace(-5, 5, 101))
    s = 1 / (1 + np.exp(-np.linspace(-30, 30, 101)))
    assert identical(d1_d2_at(numpy_xp, "tanh", None, t)[1], -2 * t * (1 - t * t))
    assert identical(d1_d2_at(numpy_xp, "sigmoid", None, s)[1], s * (1 - s) * (1 - 2 * s))


@pytest.mark.parametrize("wrt", ["U", "W"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_stacked_path_gradients_are_one_pass_per_node(wrt, dtype):
    """The grouping of the nodes and U x_t formed once change no bit of G(θ + τD)."""
    U, W, s0, X, v = rnn(11, 40, 3, 2, 3, dtype)
    D = np.random.default_rng(2).uniform(-0.15, 0.15, U.shape if wrt == "U" else W.shape).astype(dtype)
    nodes, _ = gauss_legendre_01(numpy_xp)
    param = WRT[wrt]
    stacked = path_row_gradients(numpy_xp, param, U, W, s0, X, v, D, "tanh", 3, nodes)
    for k, tau in enumerate(nodes):
        U2, W2 = param.moved(U, W, D * tau)
        fw = forward_sensitivities(numpy_xp, U2, W2, s0, X, "tanh", tensors=param.sens)
        assert identical(stacked[k], row_grad(numpy_xp, v, fw[param.sens][3])), f"node {k} ({tau})"


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("H", [1, 2, 3, 4])
@pytest.mark.parametrize("act", SMOOTH)
def test_the_last_row_gradient_is_the_one_read_from_the_whole_pass(dtype, H, act):
    """∇V_p s_T alone (σ″ not formed, the last step contracted with v in the batch-last buffer) has the
    bits of row_grad on the whole pass's S_T: on a batch that runs batch-last and one that does not, at T
    and at an earlier step, with v's sign of zero planted."""
    for B in (LAST_ROW_BATCH_LAST_ROWS, BATCH_LAST_ROWS, 5):
        U, W, s0, X, v = rnn(H + 20, B, H, 2, 4, dtype)
        v[0], v[3, 0] = -0.0, 0.0
        for sens in "PQ":
            fw = forward_sensitivities(numpy_xp, U, W, s0, X, act, tensors=sens)
            for T in (4, 2):
                got = last_row_gradient(numpy_xp, v, U, W, s0, X, act, T, sens)
                assert identical(got, row_grad(numpy_xp, v, fw[sens][T])), f"{sens}_{T}, B={B}"
    # v of another dtype than the pass: not contracted in the buffer, still the same bits
    U, W, s0, X, v = rnn(H, LAST_ROW_BATCH_LAST_ROWS, H, 2, 3, dtype)
    fw = forward_sensitivities(numpy_xp, U, W, s0, X, act, tensors="P")
    v32 = v.astype(np.float32)
    assert identical(
        last_row_gradient(numpy_xp, v32, U, W, s0, X, act, 3, "P"), row_grad(numpy_xp, v32, fw["P"][3])
    )


def test_a_shared_drive_gives_the_states_computed_without_it():
    U, W, s0, X, _ = rnn(4, 12, 3, 2, 4)
    drive = [(U @ X[:, t][..., None])[..., 0] for t in range(4)]
    for a, b in zip(
        preactivations_and_states(numpy_xp, U, W, s0, X, "sigmoid", drive=drive),
        preactivations_and_states(numpy_xp, U, W, s0, X, "sigmoid"),
        strict=True,
    ):
        assert all(identical(p, q) for p, q in zip(a, b, strict=True))


@pytest.mark.parametrize("wrt", ["U", "W"])
def test_high_precision_path_gradients_are_one_pass_per_node(wrt):
    """On mpmath object arrays (the settling phase's backend) the plain recursion runs, grouped alike."""
    U, W, s0, X, v = (to_mp(a) for a in rnn(6, 3, 2, 2, 2))
    D = to_mp(np.full(U.shape if wrt == "U" else W.shape, 0.1))
    param = WRT[wrt]
    with mpmath_xp.workdps(30):
        nodes, _ = gauss_legendre_01(mpmath_xp, 2, 1)
        stacked = path_row_gradients(mpmath_xp, param, U, W, s0, X, v, D, "softplus", 2, nodes)
        for k, tau in enumerate(nodes):
            U2, W2 = param.moved(U, W, D * tau)
            fw = forward_sensitivities(mpmath_xp, U2, W2, s0, X, "softplus", tensors=param.sens)
            assert stacked[k].tolist() == row_grad(mpmath_xp, v, fw[param.sens][2]).tolist()


# --------------------------------------------------------------------------- tensors a check does not read


def _always_both(fn):
    """``fn`` with its ``tensors`` keyword ignored: every sensitivity tensor and its tangent computed."""

    def wrapped(*args, **kwargs):
        kwargs.pop("tensors", None)
        return fn(*args, **kwargs)

    return wrapped


def _checks_spared_tensors():
    from checks.sensitivity import _helpers, _mirror, _notation, lemma, lemma_w, remarks, u, w, w_parts

    U, W, s0, X, v = rnn(8, 6, 3, 3, 3)
    rng = np.random.default_rng(9)
    DU, DW = rng.uniform(-1, 1, U.shape), rng.uniform(-1, 1, W.shape)
    out = {}
    for act in SMOOTH:
        out[act, "lemma3"] = lemma.lemma3_as_written(numpy_xp, U, W, s0, X, DU, act, 3)
        out[act, "lemma3c"] = lemma.lemma3_corrected(numpy_xp, U, W, s0, X, DU, act, 3)
        out[act, "eq29"] = lemma_w.eq29(numpy_xp, U, W, s0, X, v, DW, act, 3)
        for corrected in (False, True):
            out[act, "eq20", corrected] = lemma._eq20(numpy_xp, U, W, s0, X, DW, act, 3, corrected)
            for wrt, D in (("U", DU), ("W", DW)):
                args = (numpy_xp, WRT[wrt], U, W, s0, X, v, D, act, 3)
                out[act, "outer", wrt, corrected] = _mirror.lemma3_outer_part(*args, corrected=corrected)
                out[act, "tensor", wrt, corrected] = _mirror.lemma3_tensor_part(*args, corrected=corrected)
                out[act, "inner", wrt] = _mirror.lemma3_outer_inner(*args)
        out[act, "wparts"] = _helpers.w_dgrad_parts(numpy_xp, v, U, W, s0, X, act, 3, DW)[0]
        out[act, "uparts"] = _helpers.u_dgrad_parts(numpy_xp, v, U, W, s0, X, act, 3, DU)[0]
        out[act, "row1"] = list(_notation._row_one_w(numpy_xp, U, W, s0, X, DW, act, 3).values())
        out[act, "eq19"] = list(_notation._eq19_through_b(numpy_xp, U, W, s0, X, DU, act, 3).values())
        c, BU, BW = v / 2, DU / 2, DW / 2
        out[act, "ugrad"] = u.u_grad_mtr(numpy_xp, U, W, s0, X, v, BU, act, 3)[1:]  # [0] finite differences
        out[act, "eq16"] = u.eq16_grad(numpy_xp, U, W, s0, X, v, BU, act, 3)[1:]
        out[act, "udlam"] = u.u_dlambda_000(numpy_xp, U, W, s0, X, DU, c, act, 3)[1:]
        out[act, "leq19"] = lemma.lemma3_eq19(numpy_xp, U, W, s0, X, c, BU, act, 3)[1:]
        out[act, "wgrad"] = w.w_grad_mtr(numpy_xp, U, W, s0, X, v, BW, act, 3)[1:]
        out[act, "wchain"] = w.w_chain_000(numpy_xp, U, W, s0, X, v, DW, act, 3)
        out[act, "eq26"] = w.eq26_grad(numpy_xp, U, W, s0, X, v, BW, act, 3)[1:]
        out[act, "eq30"] = lemma_w.eq30(numpy_xp, U, W, s0, X, v, DW, act, 3)
        out[act, "elem"] = w_parts.w_trace_elem_000(numpy_xp, U, W, s0, X, DW, act, 3)
        out[act, "part2"] = w_parts.w_part2_000(numpy_xp, U, W, s0, X, v, DW, act, 3)
        out[act, "tensor"] = remarks.tensor_bound_000(numpy_xp, U, W, s0, X, DW, act, 3)
        out[act, "lammax"] = remarks.lambda_below_max_000(numpy_xp, U, W, s0, X, act, 3)
        for wrt in "UW":
            out[act, "worst", wrt] = list(
                _notation._worst_first_order(numpy_xp, U, W, s0, X, v, act, 3, wrt).values()
            )
    return out


def test_checks_that_skip_tensors_they_do_not_read_compute_the_same_sides(monkeypatch):
    """A check asks only for the sensitivity tensors (and tangents) it reads; asking for all of them must
    give the same bits (each tensor's recursion is independent of the other's, λ̇ of both)."""
    from checks.sensitivity import _helpers, _mirror, _notation, lemma, lemma_w, remarks, u, w, w_parts

    spared = _checks_spared_tensors()
    for module in (_helpers, _mirror, _notation, lemma, lemma_w, remarks, u, w, w_parts):
        for name in ("forward_sensitivities", "tangents"):
            if hasattr(module, name):
                monkeypatch.setattr(module, name, _always_both(getattr(_helpers, name)))
    full = _checks_spared_tensors()
    assert spared.keys() == full.keys()
    for key in spared:
        for a, b in zip(spared[key], full[key], strict=True):
            assert identical(a, b), key


def test_the_steps_along_a_path_are_the_products_of_a_loop_over_the_nodes():
    from checks.sensitivity._mirror import steps

    nodes, _ = gauss_legendre_01(numpy_xp)
    D = np.random.default_rng(0).uniform(-1, 1, (50, 3, 2))
    D[0, 0, 0] = -0.0
    for taus in (nodes, [0.37 * t for t in nodes], [0.0, 1.0]):
        for d in (D, D.astype(np.longdouble)):
            assert identical(steps(taus, d), np.stack([d * tau for tau in taus]))


@pytest.mark.parametrize("act", ALL)
def test_the_loss_terms_with_sigma_prime_from_the_states_are_those_from_the_preactivations(act, monkeypatch):
    """Lemmas 1–2's terms (forward, tangents, two back-propagations) read σ′(a_t) from s_t = σ(a_t)
    where σ′ is a polynomial of σ: the same bits as evaluating σ′(a_t)."""
    from checks.loss import _helpers as loss

    rng = np.random.default_rng(12)
    B, H, N, K, T = 7, 3, 2, 3, 3
    U, W, V = rng.uniform(-2, 2, (B, H, N)), rng.uniform(-1.2, 1.2, (B, H, H)), rng.uniform(-2, 2, (B, K, H))
    s0, X = rng.uniform(-1, 1, (B, H)), rng.uniform(-2, 2, (B, T, N))
    s0[0] = 0.0
    dU, dW, dV, ds0 = (0.1 * rng.standard_normal(a.shape) for a in (U, W, V, s0))
    Y = np.eye(K)[rng.integers(0, K, (B, T))]
    args = (numpy_xp, U, W, V, s0, X, dU, dW, dV, ds0, Y, act)
    fast = dict(loss.lemma_terms(*args))  # every term read now: the back-propagations run when read
    monkeypatch.setattr(loss, "d1_at", lambda xp, name, z, s: activation(xp, name)[1](z))
    plain = dict(loss.lemma_terms(*args))
    assert fast.keys() == plain.keys()
    for key in fast:
        if key == "forward":
            continue
        assert identical(fast[key], plain[key]) if key != "t" else fast[key] == plain[key], key


# --------------------------------------------------------------------------- passes shared between sides


def _loss_instance(seed, B=9, H=3, T=3):
    U, W, s0, X, _ = rnn(seed, B, H, 2, T)
    rng = np.random.default_rng(seed + 1)
    V = rng.uniform(-2, 2, (B, 3, H))
    y = np.eye(3)[rng.integers(0, 3, B)]
    DW, DU = rng.uniform(-1, 1, W.shape), rng.uniform(-1, 1, U.shape)
    DW[0, 0] = -0.0
    step = np.exp(rng.uniform(np.log(1e-2), np.log(30.0), B))
    return U, W, V, s0, X, y, DW, DU, step


@pytest.mark.parametrize("act", SMOOTH)
def test_the_w_parts_from_one_pass_are_those_of_the_passes_they_replaced(act):
    """lip.w_parts_* and lip.l_u/l_w read one forward pass at Φ (with the one tensor they read) and one
    after the step: the same bits as the passes each side ran before (both tensors, E_t(Φ) from a pass
    of its own, the logits from a third pass, L_W formed and dropped)."""
    from checks._vocab.activations import curvature_ratio
    from checks._vocab.linalg import frob, matvec
    from checks.sensitivity import remarks
    from checks.sensitivity._helpers import (
        lipschitz_U,
        lipschitz_W,
        softmax_residual,
        states_at,
        token_losses,
        unit_sinf,
    )
    from checks.sensitivity.lip_constants import majorisation_parts

    xp, T = numpy_xp, 3
    U, W, V, s0, X, y, DW, DU, step = _loss_instance(3, T=T)
    fw = forward_sensitivities(xp, U, W, s0, X, act)
    curvature = curvature_ratio(xp, fw["pre"][T - 1], act)
    residual = matvec(xp.transpose(V), softmax_residual(xp, V, fw["states"][T], y))
    plains = {}
    for wrt, D in (("W", DW), ("U", DU)):
        Dn = unit_sinf(xp, D) * step[:, None, None]
        if wrt == "U":
            L = lipschitz_U(xp, V, X, W, fw, T, curvature=curvature)
        else:
            L = lipschitz_W(xp, V, W, fw, T, curvature=curvature)
        plain = {
            "new": token_losses(xp, *WRT[wrt].moved(U, W, Dn), V, s0, X, y, act, T),
            "old": token_losses(xp, U, W, V, s0, X, y, act, T),
            "pairing": frob(xp, row_grad(xp, residual, fw[WRT[wrt].sens][T]), Dn),
            "L": L,
            "step": Dn,
        }
        got = majorisation_parts(xp, U, W, V, s0, X, y, D, step, act, T, wrt)
        for key, value in plain.items():
            assert identical(got[key], value), (wrt, key)
        plains[wrt] = plain
    remainder = plains["W"]["new"] - plains["W"]["old"] - plains["W"]["pairing"]
    Dn = unit_sinf(xp, DW) * step[:, None, None]
    z_new = matvec(V, states_at(xp, U, W + Dn, s0, X, act)[T])
    dz = z_new - matvec(V, fw["states"][T])
    r = dz - matvec(V, xp.einsum("bkij,bij->bk", fw["P"][T], Dn))
    inf = lambda a: xp.max(xp.abs(a), axis=-1)  # noqa: E731
    got = remarks._w_parts(xp, U, W, V, s0, X, y, DW, step, act, T)
    for a, b in zip(got, (remainder, 0.5 * inf(dz) ** 2, inf(dz), inf(r)), strict=True):
        assert identical(a, b)
    logits = remarks._logit_change(xp, U, W, V, s0, X, y, DW, step, act, T)
    assert identical(logits["z_new"], z_new) and identical(logits["r"], r)


@pytest.mark.parametrize("dtype", DTYPES)
def test_the_quadrature_sum_adds_the_nodes_as_the_loop_over_them(dtype):
    """One accumulate over the nodes' axis, then + 0.0: the bits of ``total = total + value * w`` from 0,
    for one instance (the nodes' axis innermost, where np.sum would pair the terms) and for many, with a
    column of -0s (the loop's sum is +0) and an exact zero weight."""
    from checks.sensitivity._helpers import quadrature_sum

    nodes, weights = gauss_legendre_01(numpy_xp)
    weights = list(weights)
    weights[5] = 0.0
    rng = np.random.default_rng(4)
    for shape in ((64,), (64, 1), (64, 7), (64, 1, 3, 2), (64, 40, 3, 2)):
        values = rng.standard_normal(shape).astype(dtype)
        values[(slice(None), 0) if values.ndim > 1 else 10] = -0.0
        loop = 0
        for value, w in zip(values, weights, strict=True):
            loop = loop + value * w
        assert identical(quadrature_sum(values, weights), loop), shape
    import mpmath

    objects = np.array([[mpmath.mpf(k) / 3] for k in range(64)], dtype=object)  # mpmath: the loop itself
    expected = sum((o * w for o, w in zip(objects, weights, strict=True)), 0)
    assert quadrature_sum(objects, weights).tolist() == expected.tolist()
