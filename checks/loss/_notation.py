r"""Seed 001 §A's notation where the checks sample the logits directly (checks/loss/lse.py, softmax.py).

``h`` is log-sum-exp with gradient softmax; ``\Delta\mathbf{x}`` the input ``dx``.  Where a statement writes
the logits of the RNN, ``Vs_t(\Phi)``, these checks sample them as ``x`` and the perturbed ones
``Vs_t(\Phi+\Delta\Phi)`` as ``x + dx`` (the lemma is about any logits, so the reading loses nothing);
``f_t`` (and seed 000's ``f_{-t}``) is then ``h`` of them and ``\nabla_{Vs_t} f_t`` their softmax.
"""

from __future__ import annotations

from checks._vocab.notation import symbols as shared
from lemmacheck import Derived, Function, Input


def _lse(xp, v):
    return xp.logsumexp(v, axis=-1)


def _softmax(xp, v):
    return xp.softmax(v, axis=-1)


def _f(xp, x):
    return _lse(xp, x)


def _f_new(xp, x, dx):
    return _lse(xp, x + dx)


def _p(xp, x):
    return _softmax(xp, x)


def _z_new(xp, x, dx):
    return x + dx


_LOGITS, _NEW = Input("x"), Derived(_z_new, doc="Vs_t(Φ+ΔΦ) sampled as x + dx")
_F, _FN, _P = (
    Derived(_f, doc="f_t(Φ) = h(x)"),
    Derived(_f_new, doc="h(x + dx)"),
    Derived(_p, doc="softmax(x)"),
)

symbols = shared.extend(
    "checks/loss/_notation.py",
    {
        "h": Function(_lse, grad=_softmax, doc="log-sum-exp"),
        r"\Delta\mathbf{x}": Input("dx"),
        r"\mathbf{V}\mathbf{s}_t": _LOGITS,
        "Vs_t": _LOGITS,
        r"Vs_t(\Phi)": _LOGITS,
        r"Vs_t(\Phi+\Delta\Phi)": _NEW,
        r"f_t(\Phi+\Delta\Phi)": _FN,
        r"f_t(\Phi)": _F,
        r"f(\Phi)": _F,
        r"\nabla_{Vs_t}f_t(\Phi)": _P,
        r"\nabla_{\mathbf{V}\mathbf{s}_t}f_t(\Phi)": _P,
    },
)
