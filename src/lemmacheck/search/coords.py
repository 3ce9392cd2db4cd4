"""The coordinates the local optimiser (:mod:`.optimise`) moves an instance in.

An instance's movable entries (float inputs, and the untransformed values of inputs drawn through a
transform, so their structure is kept) are laid out as one vector.  In *log* coordinates an entry is
``sign · exp(u)`` with its sign fixed: a step in ``u`` is a relative change, so an entry can go to 0 or to
the edge of its domain in a few steps (a bound attained only as a parameter tends to 0 is approached,
which a step of fixed size never does).  In *linear* coordinates an entry is itself and may change sign.
Both stay inside the input's domain (:meth:`lemmacheck.model.inputs.InputSpec.domain`).
"""

from __future__ import annotations

import math

import numpy as np

from .candidates import Instance

__all__ = ["Space", "movable"]

#: the smallest magnitude log coordinates reach (a normal float64, well above the subnormals)
TINY = 1e-300


def movable(check, inst: Instance) -> list[str]:
    """The inputs the optimiser moves: float inputs, and those drawn through a transform whose
    untransformed values are known (moved in those)."""
    return [
        k
        for k, v in inst.inputs.items()
        if (check.inputs[k].transform is None and np.asarray(v).dtype.kind == "f")
        or (check.inputs[k].transform is not None and k in inst.raw)
    ]


def _domain(spec, *, near: bool) -> tuple[float, float]:
    """The input's domain; with ``near``, within three times its sampling scale too (as refinement)."""
    lo, hi = spec.domain() if hasattr(spec, "domain") else (-math.inf, math.inf)
    if getattr(spec, "positive", False):
        lo = max(lo, 0.0)
    scale = getattr(spec, "scale", None)
    if near and isinstance(scale, tuple):
        lo, hi = max(lo, -3.0 * scale[1]), min(hi, 3.0 * scale[1])
    return max(lo, -1e300), min(hi, 1e300)


class Space:
    """``inst``'s movable entries as a vector, in log (``log=True``) or linear coordinates; with
    ``near``, within three times each input's sampling scale (a check that discretises)."""

    def __init__(self, check, inst: Instance, *, log: bool, near: bool = False):
        self.check, self.inst, self.log = check, inst, log
        self.names = movable(check, inst)
        values, lows, highs = [], [], []
        for k in self.names:
            v = np.asarray(self._source(k), dtype=float).reshape(-1)
            lo, hi = _domain(self.check.inputs[k], near=near)
            values.append(v)
            lows.append(np.full(v.size, lo))
            highs.append(np.full(v.size, hi))
        self.x0 = np.concatenate(values) if values else np.zeros(0)
        self.low = np.concatenate(lows) if lows else np.zeros(0)
        self.high = np.concatenate(highs) if highs else np.zeros(0)
        # In log coordinates an exact zero is left where it is (often structural: a mask, a boundary).
        self.free = self.x0 != 0 if log else np.ones(self.x0.size, dtype=bool)
        self.sign = np.where(self.x0 < 0, -1.0, 1.0)
        self._every = bool(np.all(self.free))
        self._layout = self._laid_out()

    def _laid_out(self) -> list[tuple]:
        """Per input, in the instance's order, what :meth:`instances` makes of a batch: ``(name, values)``
        for one that is not moved (repeated per row), ``(name, start, stop, shape, finish)`` for one that
        is (its columns of the entry vector, one row's shape, the transform or None).  Read once: the
        optimiser makes instances 600-odd times a claim, and reading the shapes and sizes afresh for
        each batch (``np.prod`` of a tuple, per input) was more than half of the cost."""
        layout: list[tuple] = []
        at = 0
        for k, v in self.inst.inputs.items():
            if k not in self.names:
                layout.append((k, np.asarray(v)))
                continue
            shape = np.shape(self._source(k))[1:]
            spec = self.check.inputs[k]
            stop = at + math.prod(shape)
            layout.append((k, at, stop, shape, None if spec.transform is None else spec.finish))
            at = stop
        return layout

    def groups(self) -> list[np.ndarray]:
        """For each movable input, the positions of its free entries in the coordinate vector."""
        sizes = [int(np.prod(np.shape(self._source(k))[1:])) for k in self.names]
        ends = np.cumsum(sizes)
        slot = np.cumsum(self.free) - 1  # an entry's position among the free ones
        return [slot[e - n : e][self.free[e - n : e]] for n, e in zip(sizes, ends, strict=True)]

    def _source(self, k: str):
        return self.inst.raw[k] if self.check.inputs[k].transform is not None else self.inst.inputs[k]

    @property
    def size(self) -> int:
        return int(np.count_nonzero(self.free))

    def start(self) -> np.ndarray:
        x = self.x0[self.free]
        return np.log(np.abs(x)) if self.log else x.copy()

    def bounds(self) -> list[tuple[float, float]]:
        lo, hi, s = self.low[self.free], self.high[self.free], self.sign[self.free]
        if not self.log:
            return list(zip(lo.tolist(), hi.tolist(), strict=True))
        # |x| = exp(u) within the side of the domain the entry's sign is on
        with np.errstate(divide="ignore", invalid="ignore"):
            near = np.where(s > 0, lo, -hi)  # the domain's edge nearest 0 on this side (<= 0: none)
            far = np.where(s > 0, hi, -lo)
            ulo = np.log(np.where(near > 0, near, TINY))
            uhi = np.log(np.maximum(far, TINY))
        return list(zip(ulo.tolist(), uhi.tolist(), strict=True))

    def values(self, u: np.ndarray) -> np.ndarray:
        """Rows of coordinates (``(rows, size)``) as rows of the full entry vector."""
        u = moved = np.atleast_2d(u)
        if self.log:
            with np.errstate(over="ignore"):
                moved = self.sign[self.free] * np.exp(u)
        if self._every:  # every entry a coordinate: no entry to keep from x0
            x = np.empty((len(u), self.x0.size))
            x[...] = moved
        else:
            x = np.repeat(self.x0[None], len(u), axis=0)
            x[:, self.free] = moved
        return np.clip(x, self.low, self.high, out=x)

    def instances(self, u: np.ndarray) -> tuple[dict, dict]:
        """The inputs (and untransformed values) of each row of coordinates, batch axis first."""
        x = self.values(u)
        rows = len(x)
        inputs, raw = {}, {}
        for k, *where in self._layout:
            if len(where) == 1:
                inputs[k] = np.repeat(where[0], rows, axis=0)
                continue
            start, stop, shape, finish = where
            # a view into x, as ever: a check's BLAS calls see the same strides, so the same roundings
            part = x[:, start:stop].reshape((rows, *shape))
            if finish is None:
                inputs[k] = part
            else:
                raw[k] = part
                inputs[k] = np.asarray(finish(part))
        return inputs, raw
