"""An ``xp`` namespace on SymPy: object arrays of exact expressions, so a claim's check, run once at
fixed dims on symbols, gives its statement as SymPy expressions the certification routes can prove.
Singular values, eigenvalues and Schatten norms have a closed form in square roots for matrices whose
smaller side is at most 2, which is where they are given.

Constants enter exactly (integers and rationals); a Python float a check multiplies in becomes a
``sympy.Float`` that :func:`exact_constants` turns into the rational its decimal form writes.  What has
no exact symbolic form here (the spectrum of larger matrices, NumPy-only helpers) raises
:class:`NotCertifiable` naming it, never a silent approximation.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import sympy

from . import spectra
from .refusal import NotCertifiable

__all__ = [
    "SymbolicArray",
    "SymbolicBranch",
    "sympy_xp",
    "exact_constants",
    "as_object_array",
    "symbolic",
    "decimal_rational",
]


def decimal_rational(v) -> sympy.Rational:
    """The rational that the shortest decimal form of the float ``v`` writes (0.1 -> 1/10, 1 - 0.9 ->
    9999999999999998/10¹⁷).  Never ``nsimplify``: it reads 1.0000000003 as 1, and a false statement
    whose constant it rounds away was certified."""
    return sympy.Rational(repr(float(v)))


def _elementwise_of(ufunc, fn):
    """``fn`` on the SymPy forms of each element (a Python bool or float becomes SymPy's own)."""
    return np.frompyfunc(lambda *vs: fn(*(_exact(v) for v in vs)), ufunc.nin, 1)


# NumPy's object loops for these call ``bool()`` on each element's result (a comparison), treat the
# element as a Python int (``~True`` is -2) or compare structurally (``==`` on SymPy is identity of
# form, not equality of values): each is replaced by SymPy's relational or logical form, so an
# elementwise branch is a Piecewise/Max/Min the routes see whole, and no branch is picked on symbols.
_SYMPY_OF_UFUNC = {
    np.greater: sympy.Gt,
    np.greater_equal: sympy.Ge,
    np.less: sympy.Lt,
    np.less_equal: sympy.Le,
    np.equal: sympy.Eq,
    np.not_equal: sympy.Ne,
    np.logical_and: sympy.And,
    np.bitwise_and: sympy.And,
    np.logical_or: sympy.Or,
    np.bitwise_or: sympy.Or,
    np.logical_xor: sympy.Xor,
    np.bitwise_xor: sympy.Xor,
    np.logical_not: sympy.Not,
    np.invert: sympy.Not,
    np.maximum: sympy.Max,
    np.minimum: sympy.Min,
    np.fmax: sympy.Max,
    np.fmin: sympy.Min,
    np.absolute: sympy.Abs,
    np.sign: sympy.sign,
}
_SYMBOLIC_UFUNCS = {ufunc: _elementwise_of(ufunc, fn) for ufunc, fn in _SYMPY_OF_UFUNC.items()}

_SYMBOLIC_REDUCTIONS = {
    np.maximum: sympy.Max,
    np.minimum: sympy.Min,
    np.logical_and: sympy.And,
    np.logical_or: sympy.Or,
}


class SymbolicBranch(NotCertifiable):
    """A Python branch (``if``, ``and``/``or``, a built-in ``max``) on a symbolic truth value."""


def branched_on_relational(exc: BaseException) -> bool:
    """Whether ``exc`` is SymPy refusing a relational a truth value (``if x > 0`` on symbols), read from
    where it was raised: its message prints the relational lazily (minutes for a long one)."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return (
        tb is not None
        and tb.tb_frame.f_code.co_name == "__bool__"
        and isinstance(tb.tb_frame.f_locals.get("self"), sympy.Rel)
    )


class SymbolicArray(np.ndarray):
    """An object array of SymPy expressions whose comparisons, logical operators and max/min are
    elementwise SymPy relationals, And/Or/Not and Max/Min (see ``_SYMBOLIC_UFUNCS``), and whose
    truth value in a Python ``if`` is refused unless every element is a decided constant."""

    def __array_ufunc__(self, ufunc, method, *args, **kwargs):
        plain = [np.asarray(a) if isinstance(a, SymbolicArray) else a for a in args]
        if "out" in kwargs:
            kwargs["out"] = tuple(np.asarray(o) if isinstance(o, SymbolicArray) else o for o in kwargs["out"])
        if method == "__call__" and ufunc in _SYMBOLIC_UFUNCS:
            result = _SYMBOLIC_UFUNCS[ufunc](*plain)
        elif method == "reduce" and ufunc in _SYMBOLIC_REDUCTIONS:
            fn = _SYMBOLIC_REDUCTIONS[ufunc]
            result = _reduce(fn, plain[0], kwargs.get("axis", 0), keepdims=kwargs.get("keepdims", False))
        else:
            result = getattr(ufunc, method)(*plain, **kwargs)
        return symbolic(result)

    def __bool__(self):
        if self.size == 1:
            v = _exact(self.reshape(-1)[0])
            if v in (sympy.true, sympy.false) or isinstance(v, (bool, np.bool_)):
                return bool(v)
            if isinstance(v, sympy.Number):
                return bool(v != 0)
        raise SymbolicBranch(f"a symbolic array of shape {self.shape}")


def symbolic(value):
    """``value`` with every object array in it (a tuple of sides, a side) as a :class:`SymbolicArray`.
    A truth value that is not a constant stays a 0-d one (``(x > 0).any()`` is an Or, which Python's
    ``if`` would otherwise read as True without a word)."""
    if isinstance(value, tuple):
        return tuple(symbolic(v) for v in value)
    if isinstance(value, np.ndarray) and not isinstance(value, SymbolicArray):
        if value.shape:
            return value.astype(object).view(SymbolicArray)
        value = value[()]
    if isinstance(value, sympy.logic.boolalg.Boolean) and not isinstance(
        value, sympy.logic.boolalg.BooleanAtom
    ):
        return np.array(value, dtype=object).view(SymbolicArray)
    return value


def as_object_array(a) -> np.ndarray:
    """``a`` as an object array of SymPy numbers (floats exactly as their decimal form)."""
    arr = np.asarray(a, dtype=object)
    out = np.empty(arr.shape, dtype=object)
    for idx in np.ndindex(arr.shape):
        out[idx] = _exact(arr[idx])
    return out


def _exact(v):
    if isinstance(v, sympy.Basic):
        return v
    if isinstance(v, (bool, np.bool_)):
        return v
    if isinstance(v, (int, np.integer)):
        return sympy.Integer(int(v))
    if isinstance(v, (float, np.floating)):
        if not math.isfinite(float(v)):
            raise NotCertifiable(f"the check uses the non-finite constant {float(v)!r}")
        return decimal_rational(v)
    return sympy.sympify(v)


def exact_constants(expr) -> tuple[sympy.Expr, dict[str, str]]:
    """``expr`` with every Float replaced by the rational its shortest decimal form writes, and the
    replacements made (float text -> rational text) so a certificate says how each was read."""
    expr = sympy.sympify(expr)
    floats = expr.atoms(sympy.Float)
    table = {f: decimal_rational(f) for f in floats}
    read = {str(f): str(r) for f, r in table.items() if not r.is_Integer}
    return expr.xreplace(table), read


def _elementwise(fn):
    def apply(x):
        arr = np.asarray(x, dtype=object)
        out = np.empty(arr.shape, dtype=object)
        for idx in np.ndindex(arr.shape):
            out[idx] = fn(_exact(arr[idx]))
        return out if out.shape else out[()]

    return apply


def _reduce(fn, x, axis=None, *, keepdims=False):
    arr = np.asarray(x, dtype=object)
    if axis is None:
        return fn(*[_exact(v) for v in arr.ravel()])
    moved = np.moveaxis(arr, axis, -1)
    out = np.empty(moved.shape[:-1], dtype=object)
    for idx in np.ndindex(out.shape):
        out[idx] = fn(*[_exact(v) for v in moved[idx]])
    if keepdims:
        out = np.expand_dims(out, axis)
    return out if out.shape else out[()]


def _pairwise(fn):
    def apply(a, b):
        a, b = np.broadcast_arrays(np.asarray(a, dtype=object), np.asarray(b, dtype=object))
        out = np.empty(a.shape, dtype=object)
        for idx in np.ndindex(a.shape):
            out[idx] = fn(_exact(a[idx]), _exact(b[idx]))
        return out if out.shape else out[()]

    return apply


def _where(cond, a, b):
    c, a, b = np.broadcast_arrays(*(np.asarray(v, dtype=object) for v in (cond, a, b)))
    out = np.empty(c.shape, dtype=object)
    for idx in np.ndindex(c.shape):
        ci = c[idx]
        if ci is True or ci is sympy.true or ci is np.True_:
            out[idx] = _exact(a[idx])
        elif ci is False or ci is sympy.false or ci is np.False_:
            out[idx] = _exact(b[idx])
        else:
            out[idx] = sympy.Piecewise((_exact(a[idx]), ci), (_exact(b[idx]), True))
    return out if out.shape else out[()]


def _constant(shape, v):
    out = np.empty(shape, dtype=object)
    out[...] = _exact(v)
    return out


def _eye(n):
    out = _constant((n, n), 0)
    for i in range(n):
        out[i, i] = sympy.Integer(1)
    return out


def _per_matrix(fn, what):
    def apply(a):
        arr = np.asarray(a, dtype=object)
        lead = arr.shape[:-2]
        out = np.empty(lead, dtype=object)
        results = {idx: fn(sympy.Matrix(arr[idx].tolist())) for idx in np.ndindex(lead)}
        sample = next(iter(results.values()))
        if isinstance(sample, sympy.MatrixBase):
            out = np.empty(lead + sample.shape, dtype=object)
            for idx, m in results.items():
                out[idx] = np.array(m.tolist(), dtype=object)
            return out
        for idx, v in results.items():
            out[idx] = v
        return out

    apply.__name__ = what
    return apply


def _refuse(what, why):
    def apply(*args, **kwargs):
        raise NotCertifiable(f"the check uses xp.{what}, {why}")

    return apply


# A finite difference or a quadrature rule: a certificate would prove the approximation as computed, not
# the statement about the derivative or the integral it stands for
_DISCRETISED = _refuse(
    "discretised", "so its sides approximate the statement's (a certificate would be of the approximation)"
)


def _logsumexp(x, axis=-1):
    return _elementwise(sympy.log)(np.sum(_elementwise(sympy.exp)(x), axis=axis))


def _softmax(x, axis=-1):
    e = _elementwise(sympy.exp)(x)
    return e / np.sum(e, axis=axis, keepdims=True)


def _vector_norm(x, ord=2, axis=-1):
    a = np.abs(np.asarray(x, dtype=object))
    if ord == math.inf:
        return _reduce(sympy.Max, a, axis=axis)
    if ord == -math.inf:
        return _reduce(sympy.Min, a, axis=axis)
    if ord == 1:
        return np.sum(a, axis=axis)
    if isinstance(ord, int) and ord > 1:
        root = _elementwise(lambda v: v ** sympy.Rational(1, ord))
        return root(np.sum(a**ord, axis=axis))
    raise NotCertifiable(f"the check uses vector_norm with ord={ord!r}")


def _symbolic_results(fn):
    def apply(*args, **kwargs):
        return symbolic(fn(*args, **kwargs))

    apply.__name__ = getattr(fn, "__name__", "xp function")
    return apply


def _build() -> SimpleNamespace:

    ns = SimpleNamespace(
        backend="sympy",
        pi=sympy.pi,
        inf=sympy.oo,
        exp=_elementwise(sympy.exp),
        log=_elementwise(sympy.log),
        log1p=_elementwise(lambda v: sympy.log(1 + v)),
        sqrt=_elementwise(sympy.sqrt),
        tanh=_elementwise(sympy.tanh),
        sigmoid=_elementwise(lambda v: 1 / (1 + sympy.exp(-v))),
        softplus=_elementwise(lambda v: sympy.log(1 + sympy.exp(v))),
        sign=_elementwise(sympy.sign),
        abs=_elementwise(sympy.Abs),
        sum=lambda x, axis=None, keepdims=False: np.sum(
            np.asarray(x, dtype=object), axis=axis, keepdims=keepdims
        ),
        prod=lambda x, axis=None: np.prod(np.asarray(x, dtype=object), axis=axis),
        mean=lambda x, axis=None: np.sum(x, axis=axis) / (np.size(x) if axis is None else np.shape(x)[axis]),
        max=lambda x, axis=None, keepdims=False: _reduce(sympy.Max, x, axis, keepdims=keepdims),
        min=lambda x, axis=None, keepdims=False: _reduce(sympy.Min, x, axis, keepdims=keepdims),
        maximum=_pairwise(sympy.Max),
        minimum=_pairwise(sympy.Min),
        where=_where,
        matmul=np.matmul,
        einsum=lambda spec, *ops: np.einsum(spec, *ops, optimize=False),
        transpose=lambda a: np.swapaxes(a, -1, -2),
        diag_embed=_diag_embed,
        diagonal=lambda a: np.diagonal(a, axis1=-2, axis2=-1),
        trace=lambda a: np.sum(np.diagonal(a, axis1=-2, axis2=-1), axis=-1),
        stack=np.stack,
        concatenate=np.concatenate,
        clip=_refuse("clip", "which has no symbolic form here"),
        discretised=_DISCRETISED,
        outer=lambda u, v: u[..., :, None] * v[..., None, :],
        eye=_eye,
        zeros=lambda shape: _constant(shape, 0),
        ones=lambda shape: _constant(shape, 1),
        full=_constant,
        full_like=lambda a, v: _constant(np.shape(a), v),
        all=np.all,  # on a SymbolicArray, NumPy's logical_and reduction is an And (_SYMBOLIC_REDUCTIONS)
        any=np.any,
        asarray=as_object_array,
        logsumexp=_logsumexp,
        softmax=_softmax,
        vector_norm=_vector_norm,
        schatten_norm=spectra.schatten_norm,
        svdvals=spectra.small_matrix(spectra.svdvals_one, "svdvals"),
        eigvalsh=spectra.small_matrix(spectra.eigvalsh_one, "eigvalsh"),
        det=_per_matrix(lambda m: m.det(), "det"),
        inv=_per_matrix(lambda m: m.inv(), "inv"),
        isfinite=lambda x: np.ones(np.shape(x), dtype=bool),
    )
    for name, value in vars(ns).items():
        if callable(value) and name != "isfinite":
            setattr(ns, name, _symbolic_results(value))
    return ns


def _diag_embed(v):
    v = np.asarray(v, dtype=object)
    out = _constant(v.shape + (v.shape[-1],), 0)
    idx = np.arange(v.shape[-1])
    out[..., idx, idx] = v
    return out


sympy_xp = _build()
