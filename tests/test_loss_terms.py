"""The loss lemmas' terms skip work they used to do twice or for nothing, with the same bits (issue 35).

``lemma_terms`` back-propagates ⟨∇_Φ f_t, ΔΦ⟩ and ⟨∇_Φ g_t, ΔΦ⟩ only when a check reads them, and the
V-bound checks hand their forward pass to back-propagation instead of letting it run the pass again. Each
value must be the one the eager, recomputing form gives, bit for bit (the sign of a zero included), on
random inputs with exact zeros and -0 planted.
"""

from __future__ import annotations

import numpy as np
import pytest
from checks._vocab.activations import SMOOTH
from checks._vocab.linalg import matvec
from checks._vocab.rnn import preactivations_and_states
from checks.loss import _helpers as loss
from checks.loss import vbound

from lemmacheck import mpmath_xp, numpy_xp
from lemmacheck.xp import to_mp


def identical(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype == object:  # mpmath numbers: equal values (mpf has no -0)
        return a.shape == b.shape and bool(np.all(a == b))
    return (
        a.dtype == b.dtype
        and a.shape == b.shape
        and np.array_equal(a, b, equal_nan=True)
        and np.array_equal(np.signbit(a), np.signbit(b))
    )


def instance(seed, B=9, H=3, N=2, K=3, T=3, dtype=np.float64):
    rng = np.random.default_rng(seed)
    U, W, V = rng.uniform(-2, 2, (B, H, N)), rng.uniform(-1.2, 1.2, (B, H, H)), rng.uniform(-2, 2, (B, K, H))
    s0, X = rng.uniform(-1, 1, (B, H)), rng.uniform(-2, 2, (B, T, N))
    dU, dW, dV, ds0 = (0.1 * rng.standard_normal(a.shape) for a in (U, W, V, s0))
    # exact zeros the passes multiply and sum: a zero state, a zero input, -0 weights, a zero step
    s0[0], X[1], W[2, 0], V[3, 1], dU[4], dV[5, 0] = 0.0, 0.0, -0.0, -0.0, 0.0, -0.0
    Y = np.eye(K)[rng.integers(0, K, (B, T))]
    arrays = {"U": U, "W": W, "V": V, "s0": s0, "X": X, "dU": dU, "dW": dW, "dV": dV, "ds0": ds0, "Y": Y}
    return {k: a.astype(dtype) for k, a in arrays.items()}


def eager_gradients(xp, a, act):
    """The two pairings as lemma_terms computed them before: both back-propagated, from one forward."""
    tt = loss.token_terms(xp, *(a[k] for k in ("U", "W", "V", "s0", "X", "dU", "dW", "dV", "ds0")), act)
    p = xp.softmax(tt["z"], axis=-1)
    deltas = (a["dU"], a["dW"], a["dV"], a["ds0"])
    phi = (a["U"], a["W"], a["V"], a["s0"], a["X"])
    return {
        key: loss.pair_grad(xp, loss.token_gradient(xp, *phi, c, act, forward=tt["forward"]), *deltas)
        for key, c in (("grad_f", p), ("grad_g", -a["Y"][:, -1]))
    }


@pytest.mark.parametrize("dtype", [np.float64, np.longdouble])
@pytest.mark.parametrize("act", SMOOTH)
def test_the_terms_read_in_any_order_are_the_eager_ones_bit_for_bit(dtype, act):
    a = instance(3, dtype=dtype)
    eager = eager_gradients(numpy_xp, a, act)
    for order in (("grad_f", "grad_g"), ("grad_g", "grad_f"), ("grad_g",)):
        q = loss.lemma_terms(numpy_xp, act=act, **a)
        assert set(q) >= {"grad_f", "grad_g", "r_inf", "half_sq"} and len(q) == len(list(q))
        for key in order:
            assert identical(q[key], eager[key]), (order, key)
            assert q[key] is q[key]  # computed once
        whole = dict(q)  # reading every key computes what is left, each once
        assert all(identical(whole[k], eager[k]) for k in eager)
    with pytest.raises(KeyError):
        loss.lemma_terms(numpy_xp, act=act, **a)["grad_h"]


def test_the_terms_are_the_eager_ones_in_high_precision():
    a = {k: to_mp(v) for k, v in instance(5, B=6, H=2, K=2, T=2).items()}
    eager = eager_gradients(mpmath_xp, a, "tanh")
    q = loss.lemma_terms(mpmath_xp, act="tanh", **a)
    assert all(identical(q[k], eager[k]) for k in eager)


def test_a_check_that_reads_no_gradient_runs_no_back_propagation(monkeypatch):
    """lemma1.eq3_hw or lemma2.eq5 read neither pairing: two back-propagations a check were wasted."""
    calls = []
    real = loss.backprop_logits
    monkeypatch.setattr(loss, "backprop_logits", lambda *args: calls.append(1) or real(*args))
    a = instance(7)
    q = loss.lemma_terms(numpy_xp, act="tanh", **a)
    _ = q["f_new"], q["dz"], q["r_inf"], q["half_sq"]
    assert calls == []
    _ = q["grad_g"], q["grad_g"]
    assert len(calls) == 1
    _ = q["grad_f"], dict(q)
    assert len(calls) == 2


@pytest.mark.parametrize("act", SMOOTH)
def test_back_propagation_from_the_callers_forward_pass_is_the_one_that_runs_its_own(act):
    a = instance(11)
    phi = (a["U"], a["W"], a["V"], a["s0"], a["X"])
    C = [None, a["Y"][:, 1], np.random.default_rng(1).standard_normal(a["Y"][:, 2].shape)]
    forward = preactivations_and_states(numpy_xp, a["U"], a["W"], a["s0"], a["X"], act)
    given = loss.backprop_logits(numpy_xp, *phi, C, act, forward)
    own = loss.backprop_logits(numpy_xp, *phi, C, act)
    assert all(identical(x, y) for x, y in zip(given, own, strict=True))


def test_the_v_bound_checks_run_one_forward_pass(monkeypatch):
    """Each V-bound check back-propagated from a forward pass of its own, the one it had just run."""
    monkeypatch.setattr(loss, "states_and_tangents", lambda *args: pytest.fail("a second forward pass"))
    a = instance(13)
    v_args = {k: a[k] for k in ("U", "W", "V", "s0", "X", "dV")}
    vbound.loss_v_bound_chain(numpy_xp, act="tanh", **v_args)
    vbound.loss_v_grad_pullback(numpy_xp, act="tanh", **v_args)
    vbound.loss_v_bound_e_mean(numpy_xp, act="tanh", Y=a["Y"], **v_args)
    vbound._token_pullback(numpy_xp, a["U"], a["W"], a["V"], a["s0"], a["X"], "tanh")
    vbound._linear_part(numpy_xp, act="tanh", Y=a["Y"], **v_args)


@pytest.mark.parametrize("act", SMOOTH)
def test_the_sequence_loss_gradient_is_the_one_back_propagated_again(act):
    """_sequence_loss reuses ∇_V E of the pairing; it back-propagated the same upstream vectors again."""
    a = instance(17)
    args = (a["U"], a["W"], a["V"], a["s0"], a["X"])
    q = vbound._sequence_loss(numpy_xp, *args, a["Y"], a["dV"], act)
    ss = preactivations_and_states(numpy_xp, a["U"], a["W"], a["s0"], a["X"], act)[1][1:]
    T = a["X"].shape[1]
    C = [(numpy_xp.softmax(matvec(a["V"], s), axis=-1) - a["Y"][:, t]) / T for t, s in enumerate(ss)]
    again = loss.backprop_logits(numpy_xp, *args, C, act)[2]
    assert identical(q["vec_grad"], vbound._vec(numpy_xp, again))


def test_where_float_errors_raise_every_term_is_computed_as_before(monkeypatch):
    """The search drops a row whose evaluation raises a floating-point error anywhere (search/faithful.py),
    an unread back-propagation included: under np.errstate(all='raise') both still run, so the rows
    dropped are those of the eager form."""
    calls = []
    real = loss.backprop_logits
    monkeypatch.setattr(loss, "backprop_logits", lambda *args: calls.append(1) or real(*args))
    a = instance(19)
    with np.errstate(all="raise"):
        q = loss.lemma_terms(numpy_xp, act="tanh", **a)
    assert len(calls) == 2
    assert all(identical(q[k], v) for k, v in eager_gradients(numpy_xp, a, "tanh").items())


def test_an_unread_softmax_that_underflows_still_raises_where_float_errors_raise():
    """loss.v_bound_chain reads only the last token's softmax; the first token's, with logits ±7.6e307,
    underflows. It did raise under the faithfulness test before, and must still, else the row is judged."""
    one = np.ones((1, 1, 1))
    V, dV = np.array([[[1e308], [-1e308]]]), np.array([[[0.5], [0.25]]])
    U, W, s0, X = one, 0 * one, np.zeros((1, 1)), np.array([[[1.0], [0.0]]])  # s_1 = tanh 1, s_2 = 0
    with np.errstate(all="ignore"):
        assert all(
            np.isfinite(side).all()
            for side in vbound.loss_v_bound_chain(numpy_xp, U, W, V, s0, X, dV, "tanh")
        )
    with np.errstate(all="raise"), pytest.raises(FloatingPointError):
        vbound.loss_v_bound_chain(numpy_xp, U, W, V, s0, X, dV, "tanh")
