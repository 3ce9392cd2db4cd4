r"""Seed 001 §A's notation where the checks sample the logits directly (checks/loss/lse.py, softmax.py).

``h`` is log-sum-exp with gradient softmax; ``\Delta\mathbf{x}`` the input ``dx``.  Where a statement writes
the logits of the RNN, ``Vs_t(\Phi)``, these checks sample them as ``x`` and the perturbed ones
``Vs_t(\Phi+\Delta\Phi)`` as ``x + dx`` (the lemma is about any logits, so the reading loses nothing);
``f_t`` (and seed 000's ``f_{-t}``) is then ``h`` of them and ``\nabla_{Vs_t} f_t`` their softmax.
"""

from __future__ import annotations

from checks._vocab.notation import symbols as shared
from checks.loss._helpers import lemma_terms
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


def _terms(xp, act, **inputs):
    return lemma_terms(xp, act=act, **inputs)


def _grad_g_logits(xp, act, **inputs):
    return {"y": -lemma_terms(xp, act=act, **inputs)["y"]}


def _term(item: str, doc: str) -> Derived:
    return Derived(_terms, item, doc)


def _chain_rule_pairing(xp, act, **inputs):
    q = lemma_terms(xp, act=act, **inputs)
    return xp.sum(q["p"] * q["jvp"], axis=-1)


#: seed 001 §A's notation (module docstring): what the statement compiler reads each symbol as
_F, _FN, _G, _GN = (
    _term(k, d) for k, d in [("f", "f_t(Φ)"), ("f_new", "f_t(Φ+ΔΦ)"), ("g", "g_t(Φ)"), ("g_new", "g_t(Φ+ΔΦ)")]
)
_Z, _ZN, _P, _R = (
    _term(k, d)
    for k, d in [("z", "Vs_t(Φ)"), ("z_new", "Vs_t(Φ+ΔΦ)"), ("p", "softmax"), ("r", "the remainder r")]
)
LEMMAS = shared.extend(
    "checks/loss/_notation.py (LEMMAS, for checks/loss/lemmas.py)",
    {
        r"f_t(\Phi+\Delta\Phi)": _FN,
        r"f_t(\Phi)": _F,
        "f_t": _F,
        r"g_t(\Phi+\Delta\Phi)": _GN,
        r"g_t(\Phi)": _G,
        "g_t": _G,
        r"Vs_t(\Phi+\Delta\Phi)": _ZN,
        r"Vs_t(\Phi)": _Z,
        "Vs_t": _Z,
        "z^+": _ZN,
        "z": _Z,
        "p": _P,
        r"\nabla_{Vs_t}f_t": _P,
        r"\nabla_{Vs_t}f_t(\Phi)": _P,
        "r": _R,
        r"\nabla_{Vs_t}g_t": Derived(_grad_g_logits, "y", "∇_{Vs_t} g_t = −y"),
        r"\nabla_{Vs_t}g_t(\Phi)": Derived(_grad_g_logits, "y", "∇_{Vs_t} g_t = −y"),
        r"\langle\nabla_\Phi f_t(\Phi),\Delta\Phi\rangle": _term("grad_f", "⟨∇_Φ f_t, ΔΦ⟩ (backprop)"),
        r"\langle\nabla_\Phi f_t,\Delta\Phi\rangle": _term("grad_f", "⟨∇_Φ f_t, ΔΦ⟩ (backprop)"),
        r"\langle\nabla_\Phi g_t(\Phi),\Delta\Phi\rangle": _term("grad_g", "⟨∇_Φ g_t, ΔΦ⟩ (backprop)"),
        r"\langle\nabla_\Phi Vs_t,\Delta\Phi\rangle": _term("jvp", "⟨∇_Φ Vs_t, ΔΦ⟩ (forward mode)"),
        # seed 000's handwritten transcription of the same lemmas: ∅ the perturbed parameters, θ the current
        r"f_{-t}(\emptyset)": _FN,
        r"f_{-t}(\theta)": _F,
        r"g_{-t}(\emptyset)": _GN,
        r"g_{-t}(\theta)": _G,
        r"VS_t(\emptyset)": _ZN,
        r"VS_t(\theta)": _Z,
        r"\nabla_{VS_t}f_{-t}(\theta)": _P,
        r"\nabla_{VS_t}g_{-t}(\theta)": Derived(_grad_g_logits, "y", "∇_{VS_t} g_{-t} = −y"),
        r"\nabla_{VS_t(\theta)}g_{-t}(\theta)": Derived(_grad_g_logits, "y", "∇_{VS_t} g_{-t} = −y"),
        r"\langle\nabla_\theta f_{-t}(\theta),\emptyset-\theta\rangle": _term(
            "grad_f", "⟨∇_θ f_{-t}, ∅ − θ⟩"
        ),
        r"\langle\nabla_\theta g_{-t}(\theta),\emptyset-\theta\rangle": _term(
            "grad_g", "⟨∇_θ g_{-t}, ∅ − θ⟩"
        ),
        r"\langle\nabla_\theta g_{-t},\emptyset-\theta\rangle": _term("grad_g", "⟨∇_θ g_{-t}, ∅ − θ⟩"),
        r"\nabla_{VS_t}g_{-t}": Derived(_grad_g_logits, "y", "∇_{VS_t} g_{-t} = −y"),
        "y_t": _term("y", "the token's one-hot label"),
        # eq. (4)'s middle term: ∇_{Vs_t} f_t times the Jacobian ∇_Φ Vs_t, paired with ΔΦ, is pᵀ(the
        # forward-mode JVP of Vs_t along ΔΦ), computed apart from the back-propagated ⟨∇_Φ f_t, ΔΦ⟩
        r"\langle\nabla_{Vs_t}f_t\nabla_\Phi Vs_t,\Delta\Phi\rangle": Derived(
            _chain_rule_pairing, doc="pᵀ⟨∇_Φ Vs_t, ΔΦ⟩ (forward mode)"
        ),
        # seed 000's handwritten 'max_{‖r‖∞} r' (garbled): the catalogue reads it as ‖r‖∞ (lemma2.bound_hw's
        # notes), the bound seed 001's printed Lemma 2 has
        r"\max_{\|r\|_\infty}r": _term("r_inf", "‖r‖∞, the reading of the garbled max_{‖r‖∞} r"),
    },
    indices={"p": "K"},
)

#: lemma1.bound_hw's reading of seed 000's trailing '+ r' (a vector added to a number) as ‖r‖∞, seed 001's
#: Lemma 1; the other readings are claims of their own (lemma1.bound_hw.each_entry, .max_entry)
R_AS_NORM = LEMMAS.extend(
    "checks/loss/_notation.py (R_AS_NORM, for lemma1.bound_hw)", {"r": _term("r_inf", "‖r‖∞")}
)


def _logits_of(xp, p):
    return xp.log(p)


#: lse.hessian_inf_bound samples p itself: the x of its definition p = softmax(x) is then log p, every
#: probability vector with positive entries being the softmax of its logarithm
SAMPLED_P = symbols.extend(
    "checks/loss/_notation.py (SAMPLED_P)", {"x": Derived(_logits_of, doc="log p"), "p": Input("p")}
)
