"""One candidate violation and the instance it stands for, built from its batch's rows only when read.

An :class:`Instance` is one instance of a check (batch axis of 1).  A :class:`Candidate` is kept by the
pools of :mod:`.candidates` by its strength alone; the arrays of its instance are gathered from the batch
it came from (:class:`BatchRows`) when it is first asked for, since most candidates are pushed out of the
heaps by stronger ones before that.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from ..model.tolerance import SIGNIFICANCE

__all__ = ["Instance", "instance_key", "dims_key", "BatchRows", "Candidate", "KeptRows"]


@dataclasses.dataclass
class Instance:
    """One instance (batch axis of 1): dims and input arrays, and for the inputs drawn through a
    ``transform`` the untransformed values they came from (where known), in which they are shrunk and
    refined: a perturbation of the transformed values would leave the structure."""

    dims: dict
    inputs: dict
    raw: dict = dataclasses.field(default_factory=dict)

    def size(self) -> int:
        return int(sum(np.size(v) for v in self.inputs.values()))


def instance_key(inst: Instance) -> tuple:
    """What identifies an instance to high precision: its dims and its inputs, bit for bit."""
    inputs = tuple(
        (name, a.dtype.str, a.shape, a.tobytes())
        for name, a in ((k, np.ascontiguousarray(v)) for k, v in inst.inputs.items())
    )
    return repr(sorted(inst.dims.items())), inputs


def dims_key(dims: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(dims.items(), key=lambda kv: kv[0])) or "(no dims)"


class Candidate:
    """A candidate violation: its instance, and how strongly it violates.

    A batch's candidates are offered to the heaps before they have instances, and most are pushed out
    again by stronger ones, so a candidate kept from a batch builds its instance (the row's input arrays)
    only when it is first asked for."""

    __slots__ = ("_instance", "_kept", "_index", "gap", "significance", "ratio")

    def __init__(self, instance: Instance, gap: float, significance: float, ratio: float):
        self._instance: Instance | None = instance
        self._kept: KeptRows | None = None  # where the instance is built from, until it is
        self._index = 0
        self.gap = gap  # violation beyond the slack, over |lhs| + |rhs|
        self.significance = significance  # violation over the evaluation's rounding sensitivity (inf: exact)
        self.ratio = ratio  # float64 lhs/rhs (NaN where undefined)

    @classmethod
    def unfilled(cls) -> Candidate:
        """A candidate to be filled in (:meth:`fill`) once it is known to be kept: a heap holds it by its
        strength, which it is offered with."""
        return cls.__new__(cls)

    def fill(self, kept: KeptRows, index: int, gap: float, significance: float, ratio: float) -> None:
        """The candidate of ``kept``'s row ``index``, whose instance is built when first asked for."""
        self._instance, self._kept, self._index = None, kept, index
        self.gap, self.significance, self.ratio = gap, significance, ratio

    def size(self) -> int:
        """The instance's number of input entries (:meth:`Instance.size`), without building it."""
        if self._instance is None:
            assert self._kept is not None, "a candidate is filled in before it is read"
            return self._kept.size
        return self._instance.size()

    @property
    def instance(self) -> Instance:
        if self._instance is None:
            assert self._kept is not None, "a candidate is filled in before it is read"
            self._instance, self._kept = self._kept.instance(self._index), None
        return self._instance

    def __reduce__(self):
        # pickled (a chunk's pool sent back from a cluster) with its instance built: ``_kept`` holds the
        # whole batch it came from
        return (Candidate, (self.instance, self.gap, self.significance, self.ratio))

    def __repr__(self) -> str:
        return f"Candidate(gap={self.gap!r}, significance={self.significance!r}, ratio={self.ratio!r})"

    @property
    def strength(self) -> tuple[float, float]:
        return (self.significance, self.gap)

    @property
    def must_settle(self) -> bool:
        return self.significance > SIGNIFICANCE


class BatchRows:
    """The rows of one evaluated batch, from which a kept candidate's instance is built: ``instances(rows)``
    gives those rows' instances, and every row has ``size`` input entries."""

    def __init__(self, instances: Callable[[np.ndarray], list[Instance]], size: int):
        self.instances, self.size = instances, size


class KeptRows:
    """The instances of a batch's violating rows, each built when it is first asked for: most of them
    are never asked for (only a candidate a heap keeps and settling reads is), and building every row's
    instance at the first one's request cost a dict and an Instance per violating row."""

    def __init__(self, batch: BatchRows, rows: np.ndarray):
        self.batch = batch
        self.rows = rows
        self.size = batch.size

    def instance(self, i: int) -> Instance:
        return self.batch.instances(self.rows[i : i + 1])[0]
