r"""Seed 000's and seed 001's notation in the sensitivity topic: the symbol tables of its statements.

``symbols`` is for the checks that sample the quantities directly: ``\Delta\mathbf{U}`` is the input
``dU``, ``\mathbf{x}_t`` the input ``x``, and a power of a vector is entrywise (the document's
``\mathbf{x}_t^2``).

``W_DIRECTION`` and ``U_DIRECTION`` read the statements about one RNN instance (inputs U, W, s0, X, the row
v = V_{p,:}, a direction D; dims H, T, act), at the last step: ``t`` is T, ``\mathbf{s}_{t-1}`` the state
before it, ``\lambda_t`` = σ'(z_t) and ``\lambda_t''`` = σ''(z_t) at z_t = U x_t + W s_{t-1}, ``\Lambda_t``
their diagonal matrix.  ``\Delta\mathbf{W}`` (``\Delta\mathbf{U}``) is the direction D and ``\frac{d}{dt}``
the derivative along it (the exact forward-mode tangents of _helpers.tangents), which is why the two
directions are two tables.  Seed 000 writes the sensitivities as matrices: ``\mathbf{P}_{t-1}`` is H×H²
(column iH + j, 0-based and row-major, the reading under which its own Mtr(V_p S̄_{t−1}) = V_pᵀs_{t−1}ᵀ
holds), ``\mathbf{Q}_{t-1}`` H×HN; ``\mathrm{vec}`` flattens row-major and ``\mathrm{Mtr}`` folds an H²
row back into an H×H matrix.  A row of the document (``\mathbf{V}_{p,:}``, ``\mathbf{s}_{t-1}^T``) is a
1×n matrix, and ``\|\cdot\|_p`` of a one-row or one-column matrix is the ℓ_p norm of its entries (the
documents write ``\|\mathbf{V}_{p,:}^T\|_\infty`` for the vector's norm).  The row p of V is the claim's
input v; a row of W that the checks fix is the first (``\mathbf{W}_{p,:}`` = W_{1,:}).
"""

from __future__ import annotations

import math

from checks._vocab.activations import SUP_D1, curvature_ratio, d1_d2
from checks._vocab.linalg import matvec
from checks._vocab.notation import symbols as shared
from checks.norms._notation import lemma4_table
from checks.sensitivity._helpers import (
    bar_tensor,
    forward_sensitivities,
    polar_direction,
    states_at,
    tangents,
    w_dgrad_parts,
)
from lemmacheck import Derived, Function, Input, LatexError

symbols = shared.extend(
    "checks/sensitivity/_notation.py",
    {r"\Delta\mathbf{U}": Input("dU"), r"\mathbf{x}_t": Input("x")},
    elementwise_powers=True,
)


def _as_row(a):
    """A vector (B, n) as the 1×n matrix (B, 1, n) a row of the document is."""
    return a[:, None, :]


def _flat(M):
    """A sensitivity tensor (B, H, H, n) as seed 000's H×Hn matrix (column iN + j, row-major)."""
    return M.reshape(M.shape[0], M.shape[1], -1)


def _forward(xp, U, W, s0, X, act, T, v=None):
    """The forward pass's quantities at the last step T, each as the table's symbols read it."""
    fw = forward_sensitivities(xp, U, W, s0, X, act)
    s_prev, x, l1, l2 = fw["states"][T - 1], X[:, T - 1], fw["lam1"][T], fw["lam2"][T]
    H = W.shape[-1]
    return {
        "s": fw["states"][T],
        "s_prev": s_prev,
        "s_prev_row": _as_row(s_prev),
        "x": x,
        "x_row": _as_row(x),
        "lam1": l1,
        "lam2": l2,
        "Lam": xp.diag_embed(l1),
        "P": _flat(fw["P"][T]),
        "P_prev": _flat(fw["P"][T - 1]),
        "Pbar_prev": xp.sqrt(xp.sum(fw["P"][T - 1] ** 2, axis=1)),  # P̄(i, j) = ‖P(:, iH+j)‖₂
        "Q": _flat(fw["Q"][T]),
        "Q_prev": _flat(fw["Q"][T - 1]),
        "Sbar_prev": _flat(bar_tensor(xp, s_prev, H)),
        "Xbar": _flat(bar_tensor(xp, x, H)),
        "row_v": None if v is None else _as_row(v),
        # ∇ V_{p,:} s_T by the sensitivity recursions (the checks' other side is finite differences)
        "grad_W": None if v is None else xp.einsum("bk,bkij->bij", v, fw["P"][T]),
        "grad_U": None if v is None else xp.einsum("bk,bkij->bij", v, fw["Q"][T]),
        "grad_U_T": None if v is None else xp.einsum("bk,bkij->bji", v, fw["Q"][T]),
        # (‖Mtr(W_{p,:} P_{t-1})‖_{S¹})_p, the vector of the row norms (seed 000's comments, item 2)
        "WP_row_norms": xp.schatten_norm(xp.einsum("bpm,bmij->bpij", W, fw["P"][T - 1]), 1),
        "max_lam1": xp.max(l1, axis=-1),
        "lam1_v": None if v is None else l1 * v,  # λ'_t ⊙ V_pᵀ (see _along's λ̇ ⊙ V_pᵀ)
        "lam1_v_WQ_prev": None
        if v is None
        else xp.einsum("bk,bkm,bmn->bn", l1 * v, W, _flat(fw["Q"][T - 1])),
        "sup_d1": 0 * l1[:, 0] + SUP_D1[act],
        # √H max_p ‖Mtr(W_{p,:} P_{t-1})‖_{S¹}: the max runs over the rows p of W, which no entry of the
        # table can name one by one (the p of V_{p,:} in the same statements is the fixed row v)
        "sqrtH_max_WP": math.sqrt(H)
        * xp.max(xp.schatten_norm(xp.einsum("bpm,bmij->bpij", W, fw["P"][T - 1]), 1), axis=-1),
        "sqrtH_max_P": math.sqrt(H) * xp.max(xp.schatten_norm(fw["P"][T - 1], 1), axis=-1),
        "W_row1": W[:, 0],
    }


def _along(xp, U, W, s0, X, v, act, T, dU, dW):
    """d/dt along (ΔU, ΔW) at the last step: λ̇_t, ṡ_{t-1} (a row where the document transposes it), and
    the quantities the statements name as a whole: M = Mtr(V_{p,:} (dΛ_t/dt) W P_{t-1}) of item 3.3.3
    and W_{p,:} P_{t-1} vec(ΔW) (a row times a column, a number)."""
    fw = forward_sensitivities(xp, U, W, s0, X, act)
    tg = tangents(xp, U, W, s0, X, act, dU, dW, fw)
    lamdot, P1, s_prev, sdot_prev = tg["lamdot"][T], fw["P"][T - 1], fw["states"][T - 1], tg["sdot"][T - 1]
    return {
        "lamdot": lamdot,
        # λ̇ ⊙ V_pᵀ: the rows are 1×n matrices here, so a column ⊙ a transposed row is named as a whole
        "lamdot_v": None if v is None else lamdot * v,
        "dLam": xp.diag_embed(lamdot),
        "sdot_prev_row": _as_row(sdot_prev),
        "sdot_prev": sdot_prev,
        "Pdot": _flat(tg["Pdot"][T]),
        "Pdot_prev": _flat(tg["Pdot"][T - 1]),
        "Qdot": _flat(tg["Qdot"][T]),
        "Qdot_prev": _flat(tg["Qdot"][T - 1]),
        # d/dt ∇_W V_{p,:} s_T = Σ_k V_pk Ṗ_T[k]: the exact tangent recursion, not the parts of eq. (27)
        "dgrad_W_tangent": None if v is None else xp.einsum("bk,bkij->bij", v, tg["Pdot"][T]),
        "Sbar_dot_prev": _flat(bar_tensor(xp, sdot_prev, W.shape[-1])),
        "z": fw["pre"][T - 1],
        "zdot": matvec(dU, X[:, T - 1]) + matvec(dW, s_prev) + matvec(W, sdot_prev),
        "M_part3": None if v is None else xp.einsum("bk,bkm,bmij->bij", v * lamdot, W, P1),
        "W1P_vec": xp.einsum("bm,bmij,bij->b", W[:, 0], P1, dW),
    }


def _seed001(xp, U, W, s0, X, v, act, T, D=None):
    """Seed 001's 3-tensor products, which the compiler cannot form (its values are at most matrices), named
    as the phrases the document writes: P_{t-1} W̃ᵀ Λ̃'_t Ṽ_pᵀ contracts the third index of P_{t-1} with
    Wᵀ(λ'_t ⊙ V_pᵀ) (Lemma 4's T ṽ), S̄_{t-1}[i, j, q] = δ_iq s_{t-1,j}; V_pᵀ s_{t-1} is the outer product
    V_pᵀ s_{t-1}ᵀ (the transpose is lost in the conversion, the catalogue's reading; the claims named .inner
    read it as typeset).  With D, the parts of d/dt ∇_W(V_p s_t) along ΔW = D (eq. (27))."""
    fw = forward_sensitivities(xp, U, W, s0, X, act)
    s_prev, x, P1, Q1 = fw["states"][T - 1], X[:, T - 1], fw["P"][T - 1], fw["Q"][T - 1]
    u = fw["lam1"][T] * v
    PW = xp.einsum("bk,bkm,bmij->bij", u, W, P1)
    out = {
        "PW_tilde": PW,
        "SbarPW_tilde": xp.outer(u, s_prev) + PW,
        "QW_tilde": xp.einsum("bk,bkm,bmij->bij", u, W, Q1),
        "outer_v_s": xp.outer(v, s_prev),
        "outer_v_x": xp.outer(v, x),
        "inner_v_s": xp.sum(v * s_prev, axis=-1),
        # ‖P_{t-1:,:,*}‖_{S¹}, ‖Q_{t-1:,:,*}‖_{S¹}: the vectors of the slice norms (Lemma 4's ‖T_*‖_{S¹})
        "P_prev_slice_norms": xp.schatten_norm(P1, 1),
        "Q_prev_slice_norms": xp.schatten_norm(Q1, 1),
        # V_pᵀ x_t as typeset is defined only for N = H (sens.eq16_grad.inner's inputs)
        "inner_v_x": xp.sum(v * x, axis=-1) if x.shape == v.shape else None,
    }
    if D is not None and D.shape == U.shape:  # along ΔU (a U-direction claim; at N = H also read for W)
        tg = tangents(xp, U, W, s0, X, act, D, 0 * W, fw, tensors="")
        out["QW_dtilde"] = xp.einsum("bk,bkm,bmij->bij", tg["lamdot"][T] * v, W, Q1)
    if D is not None and D.shape == W.shape:
        parts, _, tg = w_dgrad_parts(xp, v, U, W, s0, X, act, T, D)
        out["d_grad_W"] = sum(parts[1:], parts[0])
        out["outer_v_sdot"] = xp.outer(v, tg["sdot"][T - 1])
        out["PDt_tilde"] = xp.einsum("bk,bkm,bmij->bij", u, D, P1)
        out["PW_dtilde"] = xp.einsum("bk,bkm,bmij->bij", tg["lamdot"][T] * v, W, P1)
    return out


def _moved_u(xp, U, W, s0, X, v, D, act, T, eps):
    """[V s_t(U^k + εD) − V s_t(U^k)]_p: the change of the logit of the row v along εD (forward passes)."""
    return xp.sum(
        v * (states_at(xp, U, W, s0, X, act, dU=D, e=eps)[T] - states_at(xp, U, W, s0, X, act)[T]), axis=-1
    )


def _moved_w(xp, U, W, s0, X, v, D, act, T, eps):
    """As :func:`_moved_u`, along εD in W."""
    return xp.sum(
        v * (states_at(xp, U, W, s0, X, act, dW=D, e=eps)[T] - states_at(xp, U, W, s0, X, act)[T]), axis=-1
    )


def _tangent_w(xp, U, W, s0, X, D, act, T, v=None):
    return _along(xp, U, W, s0, X, v, act, T, 0 * U, D)


def _tangent_u(xp, U, W, s0, X, D, act, T, v=None):
    return _along(xp, U, W, s0, X, v, act, T, D, 0 * W)


def _sigma1(xp, z, *, act):
    return d1_d2(xp, act, z)[0]


def _sigma2(xp, z, *, act):
    return d1_d2(xp, act, z)[1]


def _vec(xp, M):
    return M.reshape(M.shape[0], -1)


def _mtr(xp, r, *, H):
    """Mtr of an H·n row (or a 1×H·n matrix): the H×n matrix it folds into, row-major (iN + j -> (i, j))."""
    flat = r.reshape(r.shape[0], -1)
    if flat.shape[-1] % H:
        raise LatexError(
            f"\\mathrm{{Mtr}} of a row of {flat.shape[-1]} entries, not a multiple of H = {H}",
            fix="Mtr folds a row of V_{p,:}-times-sensitivity products; check the product inside it",
        )
    return flat.reshape(flat.shape[0], H, -1)


def row_or_column_norm(xp, M, p):
    """``\\|M\\|_p`` of a one-row or one-column matrix: the ℓ_p norm of its entries; of any other matrix
    the documents write no such norm (they write S^p), so it is refused."""
    if 1 not in M.shape[-2:]:
        raise LatexError(
            f"\\|M\\|_{p} of an {M.shape[-2]}×{M.shape[-1]} matrix, which seeds 000/001 do not define",
            fix="write \\|M\\|_{S^p} (Schatten) in the statement's table reading",
        )
    return xp.vector_norm(M.reshape(M.shape[0], -1), p)


def _fw(item: str, doc: str) -> Derived:
    return Derived(_forward, item, doc)


def _s1(item: str) -> Derived:
    return Derived(_seed001, item, f"seed 001's {item} (see _seed001)")


#: what both directions read alike (the forward pass at the last step T)
_RNN = {
    r"\mathbf{s}_t": _fw("s", "s_T"),
    r"\mathbf{s}_{t-1}": _fw("s_prev", "s_{T-1}"),
    r"\mathbf{x}_t": _fw("x", "x_T"),
    r"\lambda_t": _fw("lam1", "σ'(z_T)"),
    r"\lambda_t''": _fw("lam2", "σ''(z_T)"),
    r"\lambda_t'": _fw("lam1", "σ'(z_T), seed 001's λ'_t"),
    r"\mathbf{\Lambda}_t'": _fw("Lam", "diag σ'(z_T), seed 001's Λ'_t"),
    r"\mathbf{\Lambda}'_t": _fw("Lam", "diag σ'(z_T), seed 001's Λ'_t"),
    r"\Lambda_t": _fw("Lam", "diag σ'(z_T)"),
    r"\mathbf{\Lambda}_t": _fw("Lam", "diag σ'(z_T)"),
    r"\mathbf{P}_t": _fw("P", "P_T, H×H²"),
    r"\mathbf{P}_{t-1}": _fw("P_prev", "P_{T-1}, H×H²"),
    r"\bar{\mathbf{P}}_{t-1}": _fw("Pbar_prev", "P̄_{T-1}(i, j) = ‖P_{T-1}(:, iH+j)‖₂"),
    r"\bar{\mathbf{S}}_{t-1}": _fw("Sbar_prev", "S̄_{T-1}(i, iH+j) = s_{T-1,j}"),
    r"\mathbf{Q}_t": _fw("Q", "Q_T, H×HN"),
    r"\mathbf{Q}_{t-1}": _fw("Q_prev", "Q_{T-1}, H×HN"),
    r"\bar{\mathbf{X}}_t": _fw("Xbar", "X̄_T(i, iN+j) = x_{T,j}"),
    r"\mathbf{V}_{p,:}": Input("v", row=True),  # the row p of V the claim samples
    r"\mathbf{V}_p": Input("v", row=True),  # seed 001's name for it
    r"\lambda_t'\odot\mathbf{V}_p^T": _fw("lam1_v", "λ'_T ⊙ V_pᵀ, a column"),
    r"\sqrt{H}\max_p\|\mathrm{Mtr}(\mathbf{W}_{p,:}\mathbf{P}_{t-1})\|_{S^1}": _fw(
        "sqrtH_max_WP", "√H max_p ‖Mtr(W_{p,:}P_{T-1})‖_{S¹} over the rows p of W"
    ),
    r"\sqrt{H}\max_p\|\mathrm{Mtr}(\mathbf{P}_{t-1,p})\|_{S^1}": _fw(
        "sqrtH_max_P", "√H max_p ‖Mtr(P_{T-1,p})‖_{S¹} over the rows p of P_{T-1}"
    ),
    r"(\|\mathrm{Mtr}(\mathbf{W}_{p,:}\mathbf{P}_{t-1})\|_{S^1})_p": _fw(
        "WP_row_norms", "(‖Mtr(W_{p,:}P_{T-1})‖_{S¹})_p, a vector over the rows p"
    ),
    r"\max_k[\Lambda_t]_{kk}": _fw("max_lam1", "the largest diagonal entry of Λ_T"),
    r"\max_x\sigma'(x)": _fw("sup_d1", "sup σ' of the claim's activation (SUP_D1)"),
    r"\sigma'": Function(_sigma1, doc="σ' of the claim's activation"),
    r"\sigma''": Function(_sigma2, doc="σ'' of the claim's activation"),
    r"\mathbf{U}^k": Input("U"),  # the current iterate U^k is the sampled U
    r"\mathbf{W}^k": Input("W"),
    r"\mathrm{vec}": Function(_vec, doc="row-major flattening"),
    r"\mathrm{Mtr}": Function(_mtr, doc="an H² row folded into H×H, row-major"),
}


def _rows_p(xp, U, W, s0, X, act, T, p):
    """What a statement indexes by the p of an enclosing \\max_p (rows of W and of P_{t-1}, entries of λ)."""
    return _indexed(xp, U, W, s0, X, act, T, p)


def _rows_q(xp, U, W, s0, X, act, T, q):
    """As :func:`_rows_p`, for the q of an enclosing \\max_q."""
    return _indexed(xp, U, W, s0, X, act, T, q)


def _indexed(xp, U, W, s0, X, act, T, k):
    fw = forward_sensitivities(xp, U, W, s0, X, act)
    i = k - 1
    return {
        "W_row": W[:, i],
        "P_prev_row": fw["P"][T - 1][:, i].reshape(W.shape[0], -1),  # P_{t-1,p}: row p, H² entries
        "lam1": fw["lam1"][T][:, i],
        "lam2": fw["lam2"][T][:, i],
        "P_slice": fw["P"][T][:, i],  # P_{t,:,:,q} = ∂[s_t]_q/∂W, H×H (seed 001's 3-tensor slice)
        "P_prev_slice": fw["P"][T - 1][:, i],
        "Q_slice": fw["Q"][T][:, i],
        "Q_prev_slice": fw["Q"][T - 1][:, i],
    }


def _bound_entries() -> dict:
    """Seed 000/001's symbols indexed by a bound p or q: each names its variable, so it is refused where no
    \\max_p / \\max_q binds it (it is never a fixed row in disguise)."""
    out = {}
    for var, fn in (("p", _rows_p), ("q", _rows_q)):

        def d(item, doc, fn=fn, *, row=False):
            return Derived(fn, item, doc, row=row)

        out |= {
            rf"\mathbf{{W}}_{{{var},:}}": d("W_row", f"row {var} of W", row=True),
            rf"\mathbf{{P}}_{{t-1,{var}}}": d("P_prev_row", f"row {var} of P_{{T-1}} (H² entries)", row=True),
            rf"\lambda_{{t_{var}}}'": d("lam1", f"σ'(z_T)_{var}"),
            rf"\lambda_{{t_{var}}}''": d("lam2", f"σ''(z_T)_{var}"),
            rf"\lambda_{{t{var}}}'": d("lam1", f"σ'(z_T)_{var}"),
            rf"\lambda_{{t{var}}}''": d("lam2", f"σ''(z_T)_{var}"),
            rf"\lambda_{var}'": d("lam1", f"σ'(z_T)_{var}"),
            rf"\lambda_{var}''": d("lam2", f"σ''(z_T)_{var}"),
            rf"\lambda''_{var}": d("lam2", f"σ''(z_T)_{var}"),
            rf"\lambda'_{var}": d("lam1", f"σ'(z_T)_{var}"),
            rf"\mathbf{{P}}_{{t,:,:,{var}}}": d("P_slice", f"P_T[{var}], H×H"),
            rf"\mathbf{{P}}_{{t-1,:,:,{var}}}": d("P_prev_slice", f"P_{{T-1}}[{var}], H×H"),
            rf"\mathbf{{Q}}_{{t,:,:,{var}}}": d("Q_slice", f"Q_T[{var}], H×N"),
            rf"\mathbf{{Q}}_{{t-1,:,:,{var}}}": d("Q_prev_slice", f"Q_{{T-1}}[{var}], H×N"),
            # seed 001's own spelling of the slice, t-1:,:,q
            rf"\mathbf{{P}}_{{t:,:,{var}}}": d("P_slice", f"P_T[{var}], H×H"),
            rf"\mathbf{{P}}_{{t-1:,:,{var}}}": d("P_prev_slice", f"P_{{T-1}}[{var}], H×H"),
            rf"\mathbf{{Q}}_{{t:,:,{var}}}": d("Q_slice", f"Q_T[{var}], H×N"),
            rf"\mathbf{{Q}}_{{t-1:,:,{var}}}": d("Q_prev_slice", f"Q_{{T-1}}[{var}], H×N"),
        }
    return out


def _probe(xp, side, inputs):
    """How the checks compare a side of rank ≥ 1: a vector v as cᵀv, a matrix M as ⟨B, M⟩ (their probes)."""
    if side.ndim == 2:
        return xp.sum(inputs["c"] * side, axis=-1)
    return xp.sum(xp.sum(inputs["B"] * side, axis=-1), axis=-1)


def _probe_tangent(xp, side, inputs):
    """P_t, Ṗ_t (H×H²) or Q_t, Q̇_t (H×HN) as their checks pair them: cᵀ M vec(B)."""
    B = inputs["B"]
    return xp.einsum("bk,bkn,bn->b", inputs["c"], side, B.reshape(B.shape[0], -1))


def _direction(name: str, tangent, delta: str) -> object:
    def td(item: str, doc: str) -> Derived:
        return Derived(tangent, item, doc)

    dlam = td("lamdot", f"dλ_T/dt along Δ{name}")
    return shared.extend(
        f"checks/sensitivity/_notation.py ({name}_DIRECTION)",
        {
            **_RNN,
            **_bound_entries(),
            delta: Input("D"),
            r"\frac{d}{dt}\lambda_t": dlam,
            r"\tfrac{d}{dt}\lambda_t": dlam,
            r"\tfrac{d}{dt}\Lambda_t": td("dLam", f"diag dλ_T/dt along Δ{name}"),
            # seed 001 writes d/d_t and primes: λ'_t is σ'(z_t)
            r"\tfrac{d}{d_t}\lambda_t'": dlam,
            r"\tfrac{d}{d_t}\lambda_t": dlam,
            r"\frac{d}{d_t}\lambda_t'": dlam,
            r"\tfrac{d}{d_t}\mathbf{\Lambda}_t'": td("dLam", f"diag dλ'_T/dt along Δ{name}"),
            r"\tfrac{d}{d_t}\lambda_t'\odot\mathbf{V}_p^T": td("lamdot_v", f"dλ'_T/dt ⊙ V_pᵀ along Δ{name}"),
            r"\frac{d}{d_t}\mathbf{\Lambda}'_t": td("dLam", f"diag dλ'_T/dt along Δ{name}"),
            r"\tfrac{d}{dt}\mathbf{s}_{t-1}^T": Derived(
                tangent, "sdot_prev", f"ds_{{T-1}}/dt along Δ{name}ᵀ", row=True
            ),
            # the tangents of seed 000's comments (the dot is d/dt along the direction)
            r"\dot\Lambda_t": td("dLam", f"diag λ̇_T along Δ{name}"),
            r"\dot\lambda_t": dlam,
            r"\dot{\mathbf{P}}_t": td("Pdot", f"Ṗ_T along Δ{name}, H×H²"),
            r"\dot{\mathbf{P}}_{t-1}": td("Pdot_prev", f"Ṗ_{{T-1}} along Δ{name}, H×H²"),
            # seed 000's corrected part (groundtruth.py's quote "Mtr(V_{p,:}Λ_t W dP_{t−1}/dt)")
            r"\tfrac{d}{dt}\mathbf{P}_{t-1}": td("Pdot_prev", f"dP_{{T-1}}/dt along Δ{name}, H×H²"),
            r"\dot{\mathbf{Q}}_t": td("Qdot", f"Q̇_T along Δ{name}, H×HN"),
            r"\dot{\mathbf{Q}}_{t-1}": td("Qdot_prev", f"Q̇_{{T-1}} along Δ{name}, H×HN"),
            r"\dot{\bar{\mathbf{S}}}_{t-1}": td("Sbar_dot_prev", f"S̄ of ṡ_{{T-1}} along Δ{name}"),
            r"\mathbf{z}_t": td("z", "z_T = U x_T + W s_{T-1}"),
            r"\dot{\mathbf{z}}_t": td("zdot", f"ż_T along Δ{name}"),
        },
        transpose_letters=("T",),
        matrix_norm=row_or_column_norm,
        odot_binds="tight",  # seed 000's (dλ_t/dt) ⊙ V_{p,:}ᵀ s_{t-1}ᵀ is ((dλ_t/dt) ⊙ V_{p,:}ᵀ) s_{t-1}ᵀ
        probe_fn=_probe,
        indices={"p": "H", "q": "H"},
    )


def td_w(item: str) -> Derived:
    return Derived(_tangent_w, item, f"{item} along ΔW")


W_DIRECTION = _direction("W", _tangent_w, r"\Delta\mathbf{W}").extend(
    "checks/sensitivity/_notation.py (W_DIRECTION)",
    {
        r"\nabla_{\mathbf{W}}\mathbf{V}_{p,:}\mathbf{s}_t": _fw("grad_W", "∇_W V_{p,:} s_T (recursion)"),
        r"\nabla_{\mathbf{W}}(\mathbf{V}_p\mathbf{s}_t)": _fw("grad_W", "∇_W V_p s_T (recursion)"),
        r"[\mathbf{V}\mathbf{s}_t(\mathbf{W}^k+\epsilon\mathbf{D})"
        r"-\mathbf{V}\mathbf{s}_t(\mathbf{W}^k)]_p": Derived(
            _moved_w, doc="v·(s_T(W + εD) − s_T(W)), the logit p's change"
        ),
        r"\mathbf{P}_{t-1}\tilde{\mathbf{W}}^T\tilde{\mathbf{\Lambda}}'_t\tilde{\mathbf{V}}_p^T": _s1(
            "PW_tilde"
        ),
        r"(\bar{\mathbf{S}}_{t-1}+\mathbf{P}_{t-1}\tilde{\mathbf{W}}^T)\tilde{\mathbf{\Lambda}}'_t"
        r"\tilde{\mathbf{V}}_p^T": _s1("SbarPW_tilde"),
        r"\mathbf{V}_p^T\mathbf{s}_{t-1}": _s1("outer_v_s"),
        r"\frac{d}{d_t}\nabla_{\mathbf{W}}(\mathbf{V}_p\mathbf{s}_t)": _s1("d_grad_W"),
        # seed 000 item 3.3: "d/dt ∇_W V_{p,:}s_t(W)", the tangent of the gradient along ΔW
        r"\frac{d}{dt}\nabla_{\mathbf{W}}\mathbf{V}_{p,:}\mathbf{s}_t": td_w("dgrad_W_tangent"),
        r"\mathbf{V}_p^T\frac{d}{d_t}\mathbf{s}_{t-1}": _s1("outer_v_sdot"),
        r"\mathbf{P}_{t-1}\tilde{\mathbf{W}}^T\tfrac{d}{d_t}\tilde{\mathbf{\Lambda}}_t'"
        r"\tilde{\mathbf{V}}_p^T": _s1("PW_dtilde"),
        r"\mathbf{P}_{t-1}\tfrac{d}{d_t}\tilde{\mathbf{W}}^T\tilde{\mathbf{\Lambda}}_t'"
        r"\tilde{\mathbf{V}}_p^T": _s1("PDt_tilde"),
        r"\|\mathbf{P}_{t-1:,:,*}\|_{S^1}": _s1("P_prev_slice_norms"),
        r"\tfrac{d}{d_t}\mathbf{s}_{t-1}": td_w("sdot_prev"),
        # eq. (29) writes the derivative along ΔW as tr[∂s_{t-1}/∂W ΔW] (eq. (12)'s tr[∂f/∂U ΔU] for the
        # derivative along ΔU, entry by entry of s_{t-1}): the tangent ds_{t-1}/dt, named whole because
        # ∂s_{t-1}/∂W is a 3-tensor, which the compiler's values (at most matrices) cannot hold
        r"\mathrm{tr}[\tfrac{\partial\mathbf{s}_{t-1}}{\partial\mathbf{W}}\Delta\mathbf{W}]": td_w(
            "sdot_prev"
        ),
        # seed 001's d/d_t of the transposed state (eq. (29)'s Λ'_tV_{p,:}ᵀ(d/d_t s_{t-1}ᵀ)): a row
        r"\tfrac{d}{d_t}\mathbf{s}_{t-1}^T": Derived(_tangent_w, "sdot_prev", "ds_{T-1}/dt, a row", row=True),
        r"\mathbf{s_{t-1}}": _fw("s_prev", "s_{T-1}"),
        r"\mathbf{P}_{t-1}\frac{d}{d_t}\tilde{\mathbf{W}}^T\tilde{\mathbf{\Lambda}}'_t"
        r"\tilde{\mathbf{V}}_p^T": _s1("PDt_tilde"),
        r"\mathbf{P}_{t-1}\tilde{\mathbf{W}}^T\frac{d}{d_t}\tilde{\mathbf{\Lambda}}'_t"
        r"\tilde{\mathbf{V}}_p^T": _s1("PW_dtilde"),
    },
)
#: item 3.3.1's second bullet fixes the row p of W (the check takes the first): outside a \max_p only
W_ROW_ONE = W_DIRECTION.extend(
    "checks/sensitivity/_notation.py (W_ROW_ONE)",
    {
        r"\mathbf{W}_{p,:}": Derived(_forward, "W_row1", "the first row of W", row=True),
        r"\mathbf{W}_{p,:}\mathbf{P}_{t-1}\mathrm{vec}(\Delta\mathbf{W})": Derived(
            _tangent_w, "W1P_vec", "W_{1,:} P_{T-1} vec(ΔW), a row times a column"
        ),
    },
)
#: item 3.3.3's second display names the M of its first, Mtr(V_{p,:} (dΛ_t/dt) W P_{t-1})
W_PART3_M = W_DIRECTION.extend(
    "checks/sensitivity/_notation.py (W_PART3_M)",
    {r"\mathbf{M}": Derived(_tangent_w, "M_part3", "M = Mtr(V_{p,:} (dΛ_T/dt) W P_{T-1})")},
)
U_DIRECTION = _direction("U", _tangent_u, r"\Delta\mathbf{U}").extend(
    "checks/sensitivity/_notation.py (U_DIRECTION)",
    {
        r"\nabla_{\mathbf{U}}\mathbf{V}_p\mathbf{s}_t": _fw("grad_U", "∇_U V_p s_T (recursion)"),
        r"\nabla_{\mathbf{U}}\mathbf{V}_{p,:}\mathbf{s}_t": _fw("grad_U", "∇_U V_{p,:} s_T (recursion)"),
        r"[\mathbf{V}\mathbf{s}_t(\mathbf{U}^k+\epsilon\mathbf{D})"
        r"-\mathbf{V}\mathbf{s}_t(\mathbf{U}^k)]_p": Derived(
            _moved_u, doc="v·(s_T(U + εD) − s_T(U)), the logit p's change"
        ),
        r"\mathbf{Q}_{t-1}\tilde{\mathbf{W}}^T\tilde{\mathbf{\Lambda}}_t'\tilde{\mathbf{V}}_p^T": _s1(
            "QW_tilde"
        ),
        r"\mathbf{V}_p^T\mathbf{x}_t": _s1("outer_v_x"),
        r"\mathbf{Q}_{t-1}\tilde{\mathbf{W}}^T\tfrac{d}{d_t}\tilde{\mathbf{\Lambda}}_t'"
        r"\tilde{\mathbf{V}}_p^T": _s1("QW_dtilde"),
        r"\mathbf{Q}_{t-1}\tilde{\mathbf{W}}^T\frac{d}{d_t}\tilde{\mathbf{\Lambda}}_t'"
        r"\tilde{\mathbf{V}}_p^T": _s1("QW_dtilde"),
        r"\|\mathbf{Q}_{t-1:,:,*}\|_{S^1}": _s1("Q_prev_slice_norms"),
        r"\mathbf{x_t}": _fw("x", "x_T"),
        # seed 000 (Loss Bound with Respect to U, matrix form): "∂[Vs_t(U)]_p/∂U = Mtr(V_{p,:}Q_t)", an H×N
        # matrix in U's own layout (entry (i, j) the derivative by U_ij); seed 001's eq. (12) transposes it
        # (SEED001_TRACE_U)
        r"\frac{\partial[\mathbf{V}\mathbf{s}_t]_p}{\partial\mathbf{U}}": _fw(
            "grad_U", "∂[Vs_T]_p/∂U, H×N (recursion)"
        ),
    },
)
#: seed 000's "∂[Vs_t(U)]_p/∂U = Mtr(V_{p,:}Q_t) = … + Mtr(λ_t ⊙ V_{p,:} W Q_{t−1})": λ_t ⊙ V_{p,:} is a row
#: there (V_{p,:} is one, and the row multiplies W), where the compiler reads a column ⊙ a row as the column;
#: named with the product it starts, the one place the compiler looks a phrase up across a ⊙
ROW_LAMBDA_V_U = U_DIRECTION.extend(
    "checks/sensitivity/_notation.py (ROW_LAMBDA_V_U)",
    {
        r"\lambda_t\odot\mathbf{V}_{p,:}\mathbf{W}\mathbf{Q}_{t-1}": Derived(
            _forward, "lam1_v_WQ_prev", "(λ_T ⊙ V_{p,:}) W Q_{T-1}, a 1×HN row", row=True
        )
    },
)


def _pairing_vwq_u(xp, U, W, s0, X, v, D, act, T):
    """⟨Mtr(V_{p,:} W Q_{T-1}), ΔU⟩, both H×N."""
    Q1 = forward_sensitivities(xp, U, W, s0, X, act, tensors="Q")["Q"][T - 1]
    return xp.einsum("bk,bkm,bmij,bij->b", v, W, Q1, D)


#: seed 000 (Loss Bound with Respect to U, item 2) writes tr[Mtr(V_{p,:}W^kQ_{t-1})ΔU] for two H×N matrices,
#: a trace defined only where N = H (and then ⟨Mᵀ, ΔU⟩): read as the pairing ⟨Mtr(·), ΔU⟩, the first-order
#: change it stands for, as sens.u_lambda_out_000's check (and its note) reads it
PAIRING_TRACE_U = U_DIRECTION.extend(
    "checks/sensitivity/_notation.py (PAIRING_TRACE_U)",
    {
        r"\mathrm{tr}[\mathrm{Mtr}(\mathbf{V}_{p,:}\mathbf{W}^k\mathbf{Q}_{t-1})\Delta\mathbf{U}]": Derived(
            _pairing_vwq_u, doc="⟨Mtr(V_{p,:}WQ_{T-1}), ΔU⟩"
        )
    },
)


def _row_one_w(xp, U, W, s0, X, D, act, T):
    """Eq. (20)'s row p = 1 (its check's first entry): λ'_1, λ''_1 at z_T, the slices P_{T-1}[1], and
    ∂λ'_{T,1}/∂W = σ''(z_{T,1}) ∂z_{T,1}/∂W from the forward pass (∂z_{T,1}/∂W_ij = δ_1i s_{T-1,j} +
    Σ_m W_1m P_{T-1}[m, i, j]), transposed: the layout in which tr[· ΔW] is the pairing (eq. (12)'s)."""
    fw = forward_sensitivities(xp, U, W, s0, X, act, tensors="P")
    s_prev, P1 = fw["states"][T - 1], fw["P"][T - 1]
    dz = xp.einsum("bm,bmij->bij", W[:, 0], P1) + bar_tensor(xp, s_prev, W.shape[-1])[:, 0]
    return {
        "lam1": fw["lam1"][T][:, 0],
        "lam2": fw["lam2"][T][:, 0],
        "P_prev_slice": P1[:, 0],
        "P_slice": fw["P"][T][:, 0],
        "dlam1_dW_T": xp.transpose(fw["lam2"][T][:, 0, None, None] * dz),
        "lamdot": tangents(xp, U, W, s0, X, act, 0 * U, D, fw, tensors="")["lamdot"][T][:, 0],
    }


def _r1(item: str, doc: str) -> Derived:
    return Derived(_row_one_w, item, doc)


#: seed 001 eq. (20) writes its row p free ("[d/d_t λ_t]_p"); its check takes the first row, so here p is
#: row 1 and not a \max_p's variable (as W_ROW_ONE fixes item 3.3.1's p)
EQ20_ROW_ONE = W_DIRECTION.extend(
    "checks/sensitivity/_notation.py (EQ20_ROW_ONE)",
    {
        r"[\tfrac{d}{d_t}\lambda_t]_p": _r1("lamdot", "dλ'_{T,1}/dt along ΔW"),
        r"\tfrac{\partial\lambda_t'}{\partial\mathbf{W}}_{:,:,p}": _r1(
            "dlam1_dW_T", "(∂λ'_{T,1}/∂W)ᵀ, from the forward pass"
        ),
        r"\lambda_p'": _r1("lam1", "σ'(z_T)_1"),
        r"\lambda_p''": _r1("lam2", "σ''(z_T)_1"),
        r"\mathbf{P}_{t-1:,:,p}": _r1("P_prev_slice", "P_{T-1}[1], H×H"),
        r"\mathbf{P}_{t:,:,p}": _r1("P_slice", "P_T[1], H×H"),
    },
)


def _eq19_through_b(xp, U, W, s0, X, B, act, T):
    """Both sides of eq. (19) contracted with the probe B over U's indices: (⟨∂λ'_{T,q}/∂U, B⟩)_q, the
    tangent of λ'_T along B (forward mode, not eq. (19)), and (λ''_q/λ'_q ⟨Q_T[q], B⟩)_q."""
    fw = forward_sensitivities(xp, U, W, s0, X, act, tensors="Q")
    ratio = curvature_ratio(xp, fw["pre"][T - 1], act)
    return {
        "dlam": tangents(xp, U, W, s0, X, act, B, 0 * W, fw, tensors="")["lamdot"][T],
        "rhs": ratio * xp.einsum("bqij,bij->bq", fw["Q"][T], B),
    }


#: seed 001 eq. (19), ∂λ'_t/∂U = Q_tΛ̃'^{-1}_tΛ̃''_t: both sides are H×H×N 3-tensors (q, then U's indices),
#: which the compiler's values cannot hold; each side is named whole, already contracted with the check's
#: probe B over U's indices (an H-vector the table's probe then pairs with c), as lemma3.eq19 compares them
EQ19_PROBED = U_DIRECTION.extend(
    "checks/sensitivity/_notation.py (EQ19_PROBED)",
    {
        r"\frac{\partial\lambda'_t}{\partial\mathbf{U}}": Derived(_eq19_through_b, "dlam", "⟨∂λ'_q/∂U, B⟩"),
        r"\mathbf{Q}_t\tilde{\mathbf{\Lambda}}_t'^{-1}\tilde{\mathbf{\Lambda}}_t''": Derived(
            _eq19_through_b, "rhs", "(λ''_q/λ'_q ⟨Q_T[q], B⟩)_q"
        ),
    },
)
#: the checks of P_t, Q_t and their tangents Ṗ_t, Q̇_t (H×H², H×HN) compare them as cᵀ M vec(B)
CMB_W = W_DIRECTION.extend("checks/sensitivity/_notation.py (CMB_W)", probe_fn=_probe_tangent)
CMB_U = U_DIRECTION.extend("checks/sensitivity/_notation.py (CMB_U)", probe_fn=_probe_tangent)
#: seed 001's eq. (12) writes tr[∂[Vs_t]_p/∂U ΔU] for the derivative along ΔU: ∂/∂U there is the N×H
#: matrix (the layout in which the trace pairs it with ΔU, the check's ⟨G, ΔU⟩), and Q_tṼ_p = Σ_k V_pk Q_t[k]
SEED001_TRACE_U = U_DIRECTION.extend(
    "checks/sensitivity/_notation.py (SEED001_TRACE_U)",
    {
        r"\frac{\partial[\mathbf{V}\mathbf{s}_t]_p}{\partial\mathbf{U}}": _fw(
            "grad_U_T", "∂[Vs_T]_p/∂U, N×H"
        ),
        r"\mathbf{Q}_t\tilde{\mathbf{V}}_p": _fw("grad_U", "Q_T Ṽ_p = Σ_k V_pk Q_T[k], H×N"),
    },
)
#: the claims named .inner read seed 001's V_pᵀ s_{t-1} and V_pᵀ x_t as typeset: the inner product, a number
INNER_W = W_DIRECTION.extend(
    "checks/sensitivity/_notation.py (INNER_W)",
    {
        r"\mathbf{V}_p^T\mathbf{s}_{t-1}": _s1("inner_v_s"),
        r"\mathbf{V}_p^T\mathbf{s_{t-1}}": _s1("inner_v_s"),
    },
)
INNER_U = U_DIRECTION.extend(
    "checks/sensitivity/_notation.py (INNER_U)",
    {r"\mathbf{V}_p^T\mathbf{x}_t": _s1("inner_v_x"), r"\mathbf{V}_p^T\mathbf{x_t}": _s1("inner_v_x")},
)


def by_direction(*, u: tuple[str, ...] = (), w: tuple[str, ...] = ()) -> dict:
    """``claim_symbols`` of a module whose claims take either direction: the U ones read with
    U_DIRECTION, the W ones with W_DIRECTION."""
    return {**dict.fromkeys(u, U_DIRECTION), **dict.fromkeys(w, W_DIRECTION)}


def _holder_p(xp, pq):
    return pq[0]


def _holder_q(xp, pq):
    return pq[1]


def _holder_r(xp, pq):
    inv = 1.0 / pq[0] + 1.0 / pq[1]
    return math.inf if inv == 0 else 1.0 / inv


#: sens.holder_000 samples the pair (p, q) as the dim pq; r is the exponent of its 1/r = 1/p + 1/q
HOLDER_PQ = symbols.extend(
    "checks/sensitivity/_notation.py (HOLDER_PQ)",
    {
        "p": Derived(_holder_p, doc="p = pq[0]"),
        "q": Derived(_holder_q, doc="q = pq[1]"),
        "r": Derived(_holder_r, doc="1/r = 1/p + 1/q"),
    },
)


def _s1_norm(xp, a, rank):
    """seed 001's unlabelled ‖·‖ of a slice of P or Q, read as S¹ (as eq. (28) labels it)."""
    return xp.schatten_norm(a, 1) if rank == 2 else xp.vector_norm(a, 2)


#: eq. (31) leaves one norm of a slice unlabelled, ‖P_{t-1:,:,q}‖: S¹, as eq. (28) writes it
UNLABELLED_S1_W = W_DIRECTION.extend("checks/sensitivity/_notation.py (UNLABELLED_S1_W)", norm=_s1_norm)


#: Lemma 4 of seed 001 as the sensitivity claims store it (slices Tt[p], p = 1..p); powers as typeset
LEMMA4 = lemma4_table(
    symbols, "checks/sensitivity/_notation.py (LEMMA4)", tensor="Tt", slices="p", elementwise_powers=False
)


def _worst_first_order(xp, U, W, s0, X, v, act, T, wrt: str):
    """The first-order change of v·s_T in the worst direction Δ = polar factor of G = ∇ v·s_T (‖Δ‖_{S∞} = 1,
    ⟨G, Δ⟩ = ‖G‖_{S¹}), where '≲' (to first order) compares it."""
    fw = forward_sensitivities(xp, U, W, s0, X, act, tensors="Q" if wrt == "U" else "P")
    G = xp.einsum("bk,bkij->bij", v, fw["Q" if wrt == "U" else "P"][T])
    D = polar_direction(xp, G)
    return {"D": D, "first_order": xp.sum(xp.sum(G * D, axis=-1), axis=-1)}


def _worst_u(xp, U, W, s0, X, v, act, T):
    return _worst_first_order(xp, U, W, s0, X, v, act, T, "U")


def _worst_w(xp, U, W, s0, X, v, act, T):
    return _worst_first_order(xp, U, W, s0, X, v, act, T, "W")


def _first_order_bound(name: str, table, fn):
    moved, at = rf"\mathbf{{{name}}}^k+\Delta\mathbf{{{name}}}", rf"\mathbf{{{name}}}^k"
    key = rf"[\mathbf{{V}}\mathbf{{s}}_t({moved})-\mathbf{{V}}\mathbf{{s}}_t({at})]_p"
    return table.extend(
        f"checks/sensitivity/_notation.py (FIRST_ORDER_BOUND_{name})",
        {
            key: Derived(fn, "first_order", f"⟨∇ V_p s_T, Δ{name}⟩, the change to first order ('≲')"),
            rf"\Delta\mathbf{{{name}}}": Derived(
                fn, "D", f"Δ{name} the worst direction, ‖Δ{name}‖_{{S∞}} = 1"
            ),
        },
    )


#: seed 000's first-order bounds ('≲'): the change to first order in the worst direction, as their checks
FIRST_ORDER_BOUND_U = _first_order_bound("U", U_DIRECTION, _worst_u)
FIRST_ORDER_BOUND_W = _first_order_bound("W", W_DIRECTION, _worst_w)
