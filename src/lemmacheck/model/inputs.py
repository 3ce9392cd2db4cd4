"""Input specs: each one draws a vectorised NumPy batch *and* builds a Hypothesis strategy.

A claim declares its inputs once, e.g. ``{"x": Array("n"), "dx": Array("n")}``; the engine uses
:meth:`InputSpec.draw` for fast batches (leading batch axis) and :meth:`InputSpec.strategy` for
adversarial search and shrinking (one instance, no batch axis).  Shapes name dims (``"n"``) that take
the values of the claim's ``dims`` table.
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import math
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from .scalars import is_finite_real, is_size

__all__ = [
    "InputSpec",
    "Array",
    "Scalar",
    "ProbVector",
    "OneHot",
    "SPD",
    "Orthogonal",
    "resolve_shape",
    "shared_strategy",
]

Dim = int | str


def resolve_shape(shape: Sequence[Dim], dims: Mapping[str, Any]) -> tuple[int, ...]:
    out = []
    for d in shape:
        if isinstance(d, str):
            if d not in dims:
                raise KeyError(f"shape names dim {d!r}, which is not in the claim's dims {sorted(dims)}")
            out.append(int(dims[d]))
        else:
            out.append(int(d))
    return tuple(out)


class InputSpec:
    """Base class: ``draw`` gives a batch, ``strategy`` gives one instance."""

    shape: tuple[Dim, ...] = ()
    transform: Callable[[np.ndarray], np.ndarray] | None = None
    _problem: tuple[str, str] = ("", "")  # (what is wrong, what to write): arguments it cannot sample from

    def raw_draw(self, rng: np.random.Generator, batch: int, shape: tuple[int, ...]) -> np.ndarray:
        raise NotImplementedError

    def raw_strategy(self, shape: tuple[int, ...]) -> st.SearchStrategy:
        raise NotImplementedError

    def problem(self) -> str:
        """What is wrong with this spec ('' when nothing is).  Found when the spec is built but reported
        with the claim that declares it: a bad spec never stops its module from importing."""
        return self._problem[0]

    def fix(self) -> str:
        """What to write instead, when :meth:`problem` says something."""
        return self._problem[1]

    def _refuse_if_malformed(self) -> None:
        # A declaration reports the problem as its claim's ERROR; a spec used outside one must not
        # sample anyway (numpy's uniform(5, 1) draws from (1, 5] without a word).
        if self.problem():
            raise ValueError(f"{self.problem()}; {self.fix()}")

    def domain(self) -> tuple[float, float]:
        """The interval every (untransformed) entry lies in, by the claim's statement: what the local
        optimiser stays inside.  Default: the whole real line."""
        return -math.inf, math.inf

    def domain_text(self, name: str) -> str | None:
        """The declared domain in words, or None for the whole real line."""
        return None

    def finish(self, raw: np.ndarray) -> np.ndarray:
        """Apply the structural transform to a batch (leading batch axis)."""
        return self.transform(raw) if self.transform is not None else raw

    def exact(self, values):
        """The instance's values (mpmath object array, batch axis first) with the structure the spec
        declares made exact at the working precision.  float64 can only hold a structure up to rounding
        (a probability vector sums to 1 ± 1e-16); high precision judges the mathematics, whose
        hypothesis is the exact structure.  Default: the values as they are."""
        return values

    def draw(self, rng: np.random.Generator, batch: int, dims: Mapping[str, Any]) -> np.ndarray:
        self._refuse_if_malformed()
        return self.finish(self.raw_draw(rng, batch, resolve_shape(self.shape, dims)))

    def strategy(self, dims: Mapping[str, Any]) -> st.SearchStrategy:
        """One instance *with* a batch axis of 1, so the same function applies."""
        self._refuse_if_malformed()
        return self.raw_strategy(resolve_shape(self.shape, dims)).map(
            lambda a: self.finish(np.asarray(a)[None])
        )


@dataclasses.dataclass(frozen=True)
class Array(InputSpec):
    """A real array.

    Default: standard normal entries times a per-instance scale drawn log-uniformly in ``scale``, so a
    batch covers several orders of magnitude.  With ``low``/``high``: uniform on ``[low, high]``.
    ``positive=True`` takes absolute values.  ``transform`` imposes structure on the raw batch.

    ``scale`` is a sampling preference, not the statement's domain: an input without ``low``/``high`` is
    a real array of any magnitude, and the search also explores it across the float range
    (:mod:`lemmacheck.search.wide`).  A statement that holds only for bounded entries says so with
    ``bound=B`` (every entry ``|x| <= B``): the search stays inside it, and the report prints it beside
    the verdict ("holds for ‖x‖∞ ≤ B").
    """

    shape: tuple[Dim, ...]
    scale: tuple[float, float] = (1e-2, 1e2)
    low: float | None = None
    high: float | None = None
    positive: bool = False
    transform: Callable[[np.ndarray], np.ndarray] | None = None
    bound: float | None = None

    def __init__(
        self, *shape: Dim, scale=(1e-2, 1e2), low=None, high=None, positive=False, transform=None, bound=None
    ):
        object.__setattr__(self, "shape", tuple(shape))
        object.__setattr__(self, "scale", tuple(scale) if isinstance(scale, Sequence) else scale)
        object.__setattr__(self, "low", low)
        object.__setattr__(self, "high", high)
        object.__setattr__(self, "positive", positive)
        object.__setattr__(self, "transform", transform)
        object.__setattr__(self, "bound", bound)
        problem = _array_problem(type(self).__name__, shape, scale, low, high)
        if not problem[0]:
            problem = _bound_problem(bound, low)
        if transform is not None and not callable(transform) and not problem[0]:
            problem = (
                f"transform={transform!r} is not a function",
                "transform=lambda raw: ... (a NumPy function)",
            )
        object.__setattr__(self, "_problem", problem)

    def domain(self) -> tuple[float, float]:
        if self.low is not None and self.high is not None:
            return float(self.low), float(self.high)
        top = math.inf if self.bound is None else float(self.bound)
        return (0.0 if self.positive else -top), top

    def domain_text(self, name: str) -> str | None:
        """The declared domain in words ('‖v‖∞ ≤ 30', 'p ∈ [0, 1]'), or None for the whole real line (or
        an input drawn through a transform, whose raw range says nothing of the statement's domain)."""
        if self.transform is not None:
            return None
        if self.bound is not None:
            return f"‖{name}‖∞ ≤ {self.bound:g}" if self.shape else f"|{name}| ≤ {self.bound:g}"
        if self.low is not None:
            return f"{name} ∈ [{self.low:g}, {self.high:g}]"
        return None

    def raw_draw(self, rng, batch, shape):
        if self.low is not None:
            out = rng.uniform(self.low, self.high, size=(batch, *shape))
        else:
            lo, hi = np.log10(self.scale[0]), np.log10(self.scale[1])
            mag = 10.0 ** rng.uniform(lo, hi, size=(batch,) + (1,) * len(shape))
            out = rng.standard_normal((batch, *shape)) * mag
            if self.bound is not None:
                out = np.clip(out, -self.bound, self.bound)
        return np.abs(out) if self.positive else out

    def raw_strategy(self, shape):
        return _entries_strategy(*self._strategy_bounds(), shape)

    def _strategy_bounds(self) -> tuple[float, float | None]:
        """The interval Hypothesis draws each raw entry from."""
        if self.low is not None:
            lo, hi = self.low, self.high
        else:
            hi = 3.0 * self.scale[1] if self.bound is None else min(3.0 * self.scale[1], self.bound)
            lo = 0.0 if self.positive else -hi
        if self.positive:
            lo = max(lo, 0.0)
        return lo, hi


def _entries_strategy(lo: float, hi: float | None, shape: tuple[int, ...]) -> st.SearchStrategy:
    elements = st.floats(lo, hi, allow_nan=False, allow_infinity=False, allow_subnormal=False, width=64)
    return hnp.arrays(np.float64, shape, elements=elements)


def _batch_axis(a) -> np.ndarray:
    return np.asarray(a)[None]


#: one instance's raw entries (batch axis of 1) by (low, high, shape), shared by every search in the
#: process: Hypothesis builds and validates a strategy when it first draws from it, which cost every
#: claim that much again per input and dims combination.  A strategy keeps no state between draws and
#: its span labels are its classes', not its arguments', so a shared one draws what a new one would.
_SHARED: dict[tuple, st.SearchStrategy] = {}
_SHARED_KEPT = 4096


def shared_strategy(spec: InputSpec, dims: Mapping[str, Any]) -> st.SearchStrategy | None:
    """The adversarial search's strategy for ``spec`` at ``dims``: its raw (untransformed) entries with a
    batch axis of 1, shared in the process; None for a spec that draws otherwise than an ``Array``
    (its own ``raw_strategy``, ``strategy`` or ``finish``), which builds its own."""
    cls = type(spec)
    if not (
        isinstance(spec, Array)
        and cls.raw_strategy is Array.raw_strategy
        and cls.strategy is InputSpec.strategy
        and cls.finish is InputSpec.finish
    ):
        return None
    spec._refuse_if_malformed()
    key = (*spec._strategy_bounds(), resolve_shape(spec.shape, dims))
    if key not in _SHARED:
        if len(_SHARED) >= _SHARED_KEPT:
            _SHARED.clear()
        _SHARED[key] = _entries_strategy(*key).map(_batch_axis)
    return _SHARED[key]


class Scalar(Array):
    """A real number per instance (shape ``(batch,)`` inside the function)."""

    def __init__(self, low: float, high: float, *, log: bool = False, transform=None):
        super().__init__(low=low, high=high, transform=transform)
        object.__setattr__(self, "log", log)
        if log and not self.problem() and not low > 0:
            example = f"Scalar({high * 1e-6:g}, {high!r}, log=True)" if high > 0 else "a range above 0"
            problem = f"Scalar({low!r}, {high!r}, log=True) is log-uniform, so it needs low > 0"
            object.__setattr__(self, "_problem", (problem, f"e.g. {example}, or drop log=True"))

    def raw_draw(self, rng, batch, shape):
        if getattr(self, "log", False):
            return 10.0 ** rng.uniform(math.log10(self.low), math.log10(self.high), size=(batch, *shape))
        return super().raw_draw(rng, batch, shape)


def _array_problem(name: str, shape, scale, low, high) -> tuple[str, str]:
    """Why ``name(*shape, scale=, low=, high=)`` cannot sample, and what to write; ``("", "")`` if it can."""
    bad = [d for d in shape if not (isinstance(d, str) and d.isidentifier()) and not is_size(d)]
    if bad:
        return (
            f"{name} shape {tuple(shape)}: {bad[0]!r} is neither a dim name nor a positive whole number",
            f"{name}('n') with dims={{'n': [...]}}, or {name}(3)",
        )
    if (low is None) != (high is None):
        return f"{name}(low={low!r}, high={high!r}): give both or neither", f"{name}(..., low=0.0, high=1.0)"
    if low is not None:
        if not (is_finite_real(low) and is_finite_real(high)):
            return f"{name}(low={low!r}, high={high!r}): the bounds are not finite numbers", "finite bounds"
        if not low < high:
            return (
                f"{name}(low={low!r}, high={high!r}): low is not below high",
                f"swap them: low={high!r}, high={low!r}",
            )
    if (
        not (isinstance(scale, Sequence) and len(scale) == 2 and all(is_finite_real(x) for x in scale))
        or not 0 < scale[0] <= scale[1]
    ):
        return f"{name}: scale={scale!r} is not a range of magnitudes", "scale=(lo, hi) with 0 < lo <= hi"
    return "", ""


def _bound_problem(bound, low) -> tuple[str, str]:
    if bound is None:
        return "", ""
    if not is_finite_real(bound) or not bound > 0:
        return f"bound={bound!r} is not a finite number > 0", "bound=30.0 (every entry |x| <= 30)"
    if low is not None:
        return f"bound={bound!r} with low/high: low and high already bound it", "give one of them"
    return "", ""


def _softmax_last(a: np.ndarray) -> np.ndarray:
    z = a - a.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


class ProbVector(Array):
    """A probability vector (entries > 0, summing to one): softmax of a raw vector."""

    def __init__(self, n: Dim, *, spread: float = 3.0):
        super().__init__(n, low=-spread, high=spread, transform=_softmax_last)

    def exact(self, values):
        """Renormalised to sum to exactly one at the working precision."""
        total = values.sum(axis=-1)
        return values / total[..., None]


def _one_hot_from_raw(a: np.ndarray) -> np.ndarray:
    top = a == a.max(axis=-1, keepdims=True)
    return top.astype(float) * (np.cumsum(top, axis=-1) == 1)


class OneHot(Array):
    """One-hot along the last axis (1 at the first largest raw entry of each row, 0 elsewhere):
    ``OneHot("K")`` is one label, ``OneHot("T", "K")`` a label per row.  The raw draw is uniform on
    [0, 1]^shape, so its values are finitely many (certification enumerates them)."""

    def __init__(self, *shape: Dim):
        super().__init__(*shape, low=0.0, high=1.0, transform=_one_hot_from_raw)


def _spd(a: np.ndarray) -> np.ndarray:
    n = a.shape[-1]
    return a @ np.swapaxes(a, -1, -2) + 1e-3 * np.eye(n)


class SPD(Array):
    """A symmetric positive-definite matrix ``A Aᵀ + 10⁻³ I``."""

    def __init__(self, n: Dim, *, scale=(1e-1, 1e1)):
        super().__init__(n, n, scale=scale, transform=_spd)


def _orthogonal(a: np.ndarray) -> np.ndarray:
    q, r = np.linalg.qr(a)
    d = np.sign(np.diagonal(r, axis1=-2, axis2=-1))
    d[d == 0] = 1.0
    return q * d[..., None, :]


class Orthogonal(Array):
    """An orthogonal matrix (QR of a Gaussian matrix, sign-fixed: Haar distributed)."""

    def __init__(self, n: Dim):
        super().__init__(n, n, scale=(1.0, 1.0), transform=_orthogonal)

    def exact(self, values):
        """Re-orthonormalised (modified Gram–Schmidt, columns in order) at the working precision: the
        float64 QR is orthogonal only to rounding, and stays within it of the result."""
        import mpmath

        out = values.copy()
        for b in np.ndindex(values.shape[:-2]):
            q = out[b]
            for j in range(q.shape[-1]):
                v = q[:, j].copy()
                for i in range(j):
                    v = v - q[:, i] * np.sum(q[:, i] * v)
                q[:, j] = v / mpmath.sqrt(np.sum(v * v))
        return out


#: a function's parameter names and whether it takes ``**inputs``, by function (with the code they were
#: read from): a sweep calls the same check thousands of times, and reading its signature each time cost
#: ~5 % of a claim with many dims combinations
_PARAMS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _parameters(fn: Callable) -> tuple[frozenset[str], bool]:
    code = getattr(fn, "__code__", None)
    try:
        cached = _PARAMS.get(fn)
    except TypeError:  # not weakly referenceable: read it each time
        cached = None
    if cached is not None and cached[0] is code:
        return cached[1], cached[2]
    params = inspect.signature(fn).parameters
    takes_all = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    names = frozenset(params)
    with contextlib.suppress(TypeError):
        _PARAMS[fn] = (code, names, takes_all)
    return names, takes_all


def parameter_names(fn: Callable) -> frozenset[str]:
    """The names ``fn`` takes (read once per function, as ``call_with_inputs`` reads them); none for a
    callable whose signature cannot be read."""
    try:
        return _parameters(fn)[0]
    except (TypeError, ValueError):
        return frozenset()


def call_with_inputs(fn: Callable, xp, inputs: Mapping[str, Any], dims: Mapping[str, Any], *extra) -> Any:
    """Call a check with the inputs and dims it names; ``**inputs`` in its signature takes every input."""
    params, takes_all = _parameters(fn)
    kwargs = {k: v for k, v in inputs.items() if takes_all or k in params}
    kwargs.update({k: v for k, v in dims.items() if k in params})
    return fn(xp, *extra, **kwargs)
