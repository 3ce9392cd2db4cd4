"""The domain a certificate covers: one SymPy symbol per input entry at fixed dims, the constraints the
input specs impose (a box for ``low``/``high``, a sign for ``positive``, the open simplex for a
probability vector), and the dims to certify at.

The domain is the mathematical one the sampler draws from (a Gaussian with a random scale covers all of
ℝ; a uniform on [low, high] is certified on the closed box, a superset).  A transform of an unbounded
array is certified on all of ℝ^shape, which holds whatever the transform makes (a superset again, said in
the domain's text).  An input of finitely many values or families is split into cases, each certified on
its own, which together cover it exactly: a one-hot array is each of its K^rows values, a 1×1 orthogonal
matrix ±1, and a 2×2 one a rotation or a reflection of cosine (1−t²)/(1+t²) and sine 2t/(1+t²) for
t ∈ ℝ, or the point t = ∞ of each (−I and diag(−1, 1)).  Any other spec whose structure a NumPy-only
transform makes (a larger orthogonal matrix, SPD, a transform of a box) has no exact form here: the
claim is not certifiable, and the reason names the input.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping
from typing import Any

import numpy as np
import sympy

from ..model.inputs import Array, OneHot, Orthogonal, ProbVector, Scalar, resolve_shape
from .refusal import NotCertifiable
from .symbolic import as_object_array, decimal_rational, symbolic

__all__ = ["Domain", "MAX_CASES", "build_domains", "every_size_at_least_two"]

#: cases certified one by one at most (one-hot values × orthogonal families, over all inputs)
MAX_CASES = 64


@dataclasses.dataclass
class Domain:
    """Symbols, their constraints, the inputs as object arrays (batch axis of 1) and a text for readers."""

    symbols: list[sympy.Symbol]
    constraints: list[Any]  # SymPy relationals, all of which hold on the domain
    inputs: dict[str, np.ndarray]
    text: str
    box: dict[str, tuple[sympy.Rational, sympy.Rational]]  # symbols with finite bounds (name -> [lo, hi])
    parts: list[str] = dataclasses.field(default_factory=list)  # one text per input
    superset: bool = False  # some input ranges over more than its sampler makes (a transform ignored)
    case: str = ""  # which case of the inputs with finitely many values or families this domain is


def _bound(v) -> sympy.Rational:
    return decimal_rational(v)


def _entries(name: str, shape: tuple[int, ...]) -> tuple[np.ndarray, list[sympy.Symbol]]:
    arr = np.empty(shape, dtype=object)
    syms = []
    for idx in np.ndindex(shape):
        s = sympy.Symbol("_".join([name, *map(str, idx)]) if idx else name, real=True)
        arr[idx] = s
        syms.append(s)
    return arr, syms


def _simplex(name: str, n: int) -> tuple[np.ndarray, list[sympy.Symbol], list[Any]]:
    free = [sympy.Symbol(f"{name}_{i}", real=True) for i in range(n - 1)]
    last = 1 - sum(free, sympy.Integer(0))
    arr = np.array([*free, last], dtype=object)
    return arr, free, [v > 0 for v in arr] if n > 1 else []


def _drawn_interval(spec) -> tuple[sympy.Rational, sympy.Rational]:
    """The interval a uniform input on [low, high] is drawn from: with ``positive=True`` the sampler
    takes absolute values, so [−2, 1] draws [0, 2], not [0, 1] (a smaller box certified less than the
    sampler covers)."""
    lo, hi = _bound(spec.low), _bound(spec.high)
    if not spec.positive or lo >= 0:
        return lo, hi
    if hi <= 0:
        return -hi, -lo
    return sympy.Integer(0), max(-lo, hi)


def _add_input(dom: Domain, name: str, spec, shape: tuple[int, ...]) -> None:
    if isinstance(spec, ProbVector):
        arr, syms, cons = _simplex(name, shape[-1])
        dom.constraints += cons
        # the free coordinates lie in (0, 1): [0, 1] is a box whose constraints cut it to the simplex
        dom.box.update({s.name: (sympy.Integer(0), sympy.Integer(1)) for s in syms})
        dom.parts.append(f"{name} in the open probability simplex of size {shape[-1]}")
    elif type(spec) in (Array, Scalar) and spec.transform is None:
        arr, syms = _entries(name, shape)
        where = "ℝ" if not shape else f"ℝ^{'×'.join(map(str, shape))}"
        if spec.low is not None:
            lo, hi = _drawn_interval(spec)
            dom.constraints += [c for s in syms for c in (s >= lo, s <= hi)]
            dom.box.update({s.name: (lo, hi) for s in syms})
            where = f"[{lo}, {hi}]" + (f"^{'×'.join(map(str, shape))}" if shape else "")
        elif getattr(spec, "bound", None) is not None:
            # bound=B is the statement's domain (every |entry| <= B), the one the search stays inside:
            # certifying on more would judge, and refute, the statement where it claims nothing
            top = _bound(spec.bound)
            lo = sympy.Integer(0) if spec.positive else -top
            dom.constraints += [c for s in syms for c in (s >= lo, s <= top)]
            dom.box.update({s.name: (lo, top) for s in syms})
            where = f"[{lo}, {top}]" + (f"^{'×'.join(map(str, shape))}" if shape else "")
        elif spec.positive:
            dom.constraints += [s >= 0 for s in syms]
            where = "[0, ∞)" + (f"^{'×'.join(map(str, shape))}" if shape else "")
        dom.parts.append(f"{name} ∈ {where}")
    elif type(spec) is Array and spec.low is None and not spec.positive:
        # Whatever real array of this shape the transform makes lies in ℝ^shape: certifying there is
        # certifying on a superset (sound), though the statement may need what the transform ensures.
        arr, syms = _entries(name, shape)
        how = getattr(spec.transform, "__name__", "a transform")
        dom.parts.append(
            f"{name} ∈ ℝ^{'×'.join(map(str, shape))} (all of it, a superset of what {how!r} makes)"
        )
        dom.superset = True
    else:
        how = getattr(spec.transform, "__name__", type(spec).__name__)
        raise NotCertifiable(
            f"input {name!r} ({type(spec).__name__}) is made by the NumPy-only transform {how!r}, "
            "which has no exact form for the solvers; to certify, draw what the transform starts from "
            "as an Array and build the structure in the check with xp (for an SPD matrix: A = "
            "Array('n', 'n'), H = A @ xp.transpose(A) + c * xp.eye(n))"
        )
    dom.symbols += syms
    dom.inputs[name] = symbolic(arr[None])


@dataclasses.dataclass
class _Case:
    label: str  # e.g. "Y = [[1, 0], [0, 1]]"
    array: np.ndarray
    symbols: list[sympy.Symbol]


def _one_hot_cases(name: str, shape: tuple[int, ...]) -> tuple[list[_Case], str]:
    rows, k = int(np.prod(shape[:-1], dtype=int)), shape[-1]
    if k**rows > MAX_CASES:
        raise NotCertifiable(
            f"input {name!r} is one-hot with {k}^{rows} = {k**rows} values, above the {MAX_CASES} cases"
            " certified one by one"
        )
    cases = []
    for hot in itertools.product(range(k), repeat=rows):
        arr = np.zeros((rows, k), dtype=int)
        arr[np.arange(rows), list(hot)] = 1
        arr = arr.reshape(shape)
        cases.append(_Case(f"{name} = {arr.tolist()}", as_object_array(arr), []))
    text = f"{name} each of the {len(cases)} one-hot {'×'.join(map(str, shape))} arrays (one case each)"
    return cases, text


def _orthogonal_cases(name: str, n: int) -> tuple[list[_Case], str]:
    if n == 1:
        cases = [_Case(f"{name} = [[{v}]]", as_object_array([[v]]), []) for v in (1, -1)]
        return cases, f"{name} each of the 1×1 orthogonal matrices ±1 (one case each)"
    if n != 2:
        raise NotCertifiable(
            f"input {name!r} is a {n}×{n} orthogonal matrix: an exact parametrisation is given only up to 2×2"
        )
    t = sympy.Symbol(f"{name}_t", real=True)
    c, s = (1 - t**2) / (1 + t**2), 2 * t / (1 + t**2)
    one, zero = sympy.Integer(1), sympy.Integer(0)
    cases = [
        _Case(f"{name} the rotation [[c, -s], [s, c]]", as_object_array([[c, -s], [s, c]]), [t]),
        _Case(f"{name} the reflection [[c, s], [s, -c]]", as_object_array([[c, s], [s, -c]]), [t]),
        _Case(f"{name} = -I (the rotation at t = ∞)", as_object_array([[-one, zero], [zero, -one]]), []),
        _Case(
            f"{name} = diag(-1, 1) (the reflection at t = ∞)",
            as_object_array([[-one, zero], [zero, one]]),
            [],
        ),
    ]
    text = (
        f"{name} every 2×2 orthogonal matrix, in 4 cases: the rotations [[c, -s], [s, c]] and the reflections"
        f" [[c, s], [s, -c]] with c = (1 - t²)/(1 + t²), s = 2t/(1 + t²) for {t} ∈ ℝ, and their points at"
        " t = ∞, -I and diag(-1, 1)"
    )
    return cases, text


def _cases(name: str, spec, shape: tuple[int, ...]) -> tuple[list[_Case], str] | None:
    """The cases that together cover an input of finitely many values or families, and their text."""
    if isinstance(spec, OneHot):
        return _one_hot_cases(name, shape)
    if isinstance(spec, Orthogonal):
        return _orthogonal_cases(name, shape[-1])
    return None


def build_domains(inputs: Mapping[str, Any], dims: Mapping[str, Any]) -> list[Domain]:
    """The symbolic inputs of one dims combination and the domain they range over: one domain per case
    when some input has finitely many values or families (together they cover the whole domain)."""
    base = Domain([], [], {}, "", {})
    split: dict[str, list[_Case]] = {}
    for name, spec in inputs.items():
        shape = resolve_shape(spec.shape, dims)
        family = _cases(name, spec, shape)
        if family is None:
            _add_input(base, name, spec, shape)
        else:
            split[name], text = family
            base.parts.append(text)
    base.text = "; ".join(base.parts)
    count = int(np.prod([len(c) for c in split.values()], dtype=int))
    if count > MAX_CASES:
        raise NotCertifiable(
            f"the inputs split into {count} cases, above the {MAX_CASES} certified one by one"
        )
    domains = []
    for combo in itertools.product(*split.values()):
        dom = dataclasses.replace(base, symbols=list(base.symbols), inputs=dict(base.inputs))
        for name, case in zip(split, combo, strict=True):
            dom.inputs[name] = symbolic(case.array[None])
            dom.symbols += case.symbols
        dom.inputs = {name: dom.inputs[name] for name in inputs}  # the declared order
        dom.case = "; ".join(case.label for case in combo)
        domains.append(dom)
    return domains


def every_size_at_least_two(dims: Mapping[str, Any], inputs: Mapping[str, Any] | None = None) -> bool:
    """Whether every size is ≥ 2: each whole-number dim and, given the inputs, each axis of their
    shapes at ``dims`` (a fixed axis of 1 is a size below 2 whatever the dims say)."""
    sizes = [v for v in dims.values() if isinstance(v, int) and not isinstance(v, bool)]
    try:
        for spec in (inputs or {}).values():
            sizes += list(resolve_shape(spec.shape, dims))
    except KeyError:  # a shape naming a dim the table lacks: the declaration's error, no size to count
        return False
    return all(v >= 2 for v in sizes)
