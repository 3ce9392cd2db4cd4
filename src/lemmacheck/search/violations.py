"""Search for violations of a relation chain: vectorised sweeps, Hypothesis, local refinement.

The common path is vectorised: a check function receives a whole batch of instances (leading batch
axis) and returns the chain ``e0 .. ek`` as arrays of shape ``(batch,)``.  Hypothesis then searches
adversarially, steered by ``target()`` towards the largest normalised violation, and shrinks a failure
to the smallest dims and simplest values.  Finally the worst instance is refined by vectorised random
perturbation.  Candidates are *not* verdicts: :mod:`lemmacheck.settling.highprec` re-verifies them.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import warnings
import zlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from hypothesis import HealthCheck, Phase, Verbosity, given, settings, target
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from ..errors import CheckError, SamplerError
from ..model.claim import ApproximationCheck, NumericCheck
from ..model.inputs import call_with_inputs, resolve_shape
from ..model.returns import validated_chain
from ..model.tolerance import NOISE_REPEATS, NOISE_ULPS, SIGNIFICANCE, Tolerance, slack
from ..xp import numpy_xp
from .candidates import Candidate, CandidatePool, Instance
from .profile import Profile
from .reproducible import pinned_hypothesis_constants
from .tightness import RatioRecord, nontrivial, resolve_batch, sizes_of

__all__ = [
    "StepStats",
    "SweepOutcome",
    "dims_combinations",
    "evaluate_chain",
    "gap",
    "violated",
    "excess",
    "ratio",
    "compose",
    "perturbed",
    "search_numeric",
    "SweepChunk",
    "SweepPart",
    "SweepRunner",
    "sweep_plan",
    "sweep_chunk",
    "CHUNK_INSTANCES",
]


@dataclasses.dataclass
class StepStats:
    """One relation of a chain (or the chain end to end): float64 counts, tightness, candidates."""

    relation: str
    checked: int = 0
    violations: int = 0  # float64 candidates (before settling)
    max_ratio_raw: float = -math.inf  # float64 lhs/rhs over every instance, candidates included
    # the largest resolved float64 lhs/rhs over instances that are not candidates
    # (lemmacheck.search.tightness),
    # over every dims combination and over the non-trivial ones
    tight: RatioRecord = dataclasses.field(default_factory=RatioRecord)
    tight_nontrivial: RatioRecord = dataclasses.field(default_factory=RatioRecord)
    max_gap: float = -math.inf
    max_deviation: float = 0.0  # max |a - b| / (|a| + |b|): how far from equality
    pool: CandidatePool = dataclasses.field(default_factory=CandidatePool)

    def merge(self, other: StepStats) -> None:
        """Add another record of the same relation (counts add, extremes take the larger, pools merge)."""
        self.checked += other.checked
        self.violations += other.violations
        self.tight.merge(other.tight)
        self.tight_nontrivial.merge(other.tight_nontrivial)
        self.max_ratio_raw = max(self.max_ratio_raw, other.max_ratio_raw)
        self.max_gap = max(self.max_gap, other.max_gap)
        self.max_deviation = max(self.max_deviation, other.max_deviation)
        self.pool.merge(other.pool)

    @property
    def max_ratio(self) -> float:
        """The largest resolved float64 lhs/rhs over the instances that hold (-inf: none)."""
        return self.tight.value


@dataclasses.dataclass
class SweepOutcome:
    steps: list[StepStats]
    end: StepStats
    instances: int = 0
    hypothesis_examples: int = 0
    kept_fraction: float = 1.0
    worst: Instance | None = None  # the instance with the largest end-to-end gap seen
    shrunk: Instance | None = None  # Hypothesis's shrunk failing example (end to end), if any


def dims_combinations(dims: Mapping[str, Sequence[Any]]) -> list[dict]:
    """Every combination of dims, smallest first (by the sum of the positions in each list)."""
    names = list(dims)
    combos = list(itertools.product(*[list(enumerate(dims[n])) for n in names]))
    combos.sort(key=lambda c: sum(i for i, _ in c))
    return [{n: v for n, (_, v) in zip(names, c, strict=True)} for c in combos] or [{}]


def evaluate_chain(
    claim_id: str, check: NumericCheck, xp, inputs: Mapping[str, Any], dims: Mapping[str, Any], batch: int
) -> list:
    """Run the check and validate what it returns: a chain of k+1 arrays of shape (batch,)."""
    try:
        # Floating-point warnings are not the verdict's business: non-finite results are caught below,
        # the same way under pytest's warnings-as-errors as on the command line.
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            out = call_with_inputs(check.fn, xp, inputs, dims)
    except CheckError:
        raise
    except Exception as exc:  # the check itself broke: name the claim, the dims and the cause
        raise CheckError(claim_id, f"the check raised {type(exc).__name__}: {exc} (dims {dims})") from exc
    return validated_chain(claim_id, check, out, inputs, dims, batch)


def gap(a, b, relation: str, tol: Tolerance):
    """How far ``a R b`` is from failing, normalised by ``|a| + |b|``: > 0 means violated beyond the slack.

    Purely relative (see :mod:`lemmacheck.model.tolerance`), so it reads the same at every magnitude.  Two
    exact zeros satisfy ``=``, ``<=`` and ``>=`` (gap -inf) and violate ``<`` and ``>`` (gap 0).
    """
    with np.errstate(all="ignore"):  # finite inputs (checked before) can still overflow in |a| + |b|
        return _gap(np.asarray(a, dtype=float), np.asarray(b, dtype=float), relation, tol)


def _gap(a, b, relation: str, tol: Tolerance):
    if relation == "~":  # an approximate step: never a violation
        return np.full(np.shape(a), -np.inf)
    strict = relation in ("<", ">")
    scale = np.abs(a) + np.abs(b)
    num = excess(a, b, relation, tol)
    out = np.where(scale > 0, num / np.where(scale > 0, scale, 1.0), np.where(num > 0, np.inf, -np.inf))
    if strict:
        out = np.where((scale == 0) & (num >= 0), 0.0, out)
    return out


def violated(a, b, relation: str, tol: Tolerance):
    g = gap(a, b, relation, tol)
    return g >= 0 if relation in ("<", ">") else g > 0


def excess(a, b, relation: str, tol: Tolerance):
    """The violation beyond the slack, in the sides' own units (what rounding sensitivity is measured in)."""
    with np.errstate(all="ignore"):
        a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        s = slack(a, b, tol)
        d = {"<=": a - b, "<": a - b, ">=": b - a, ">": b - a}.get(relation)
        if d is None:
            d = np.abs(a - b)
        return d + s if relation in ("<", ">") else d - s


def ratio(a, b, relation: str):
    """Tightness: lhs/rhs for <= (1.0 means attained), rhs/lhs for >=; NaN where undefined."""
    with np.errstate(all="ignore"):  # a ratio that overflows is +inf, and counts as such
        if relation in ("<=", "<"):
            r = np.where(b > 0, a / np.where(b > 0, b, 1.0), np.nan)
        elif relation in (">=", ">"):
            r = np.where(a > 0, b / np.where(a > 0, a, 1.0), np.nan)
        else:
            r = np.full(np.shape(a), np.nan)
    return r


def compose(relations: Sequence[str]) -> str:
    """The relation a chain asserts end to end; mixed directions assert nothing checkable."""
    rel = [r for r in relations if r != "~"]
    if not rel:
        return "~"
    if all(r == "=" for r in rel):
        return "="
    if all(r in ("=", "<=", "<") for r in rel):
        return "<" if "<" in rel else "<="
    if all(r in ("=", ">=", ">") for r in rel):
        return ">" if ">" in rel else ">="
    return "~"


def _take(inputs: Mapping[str, np.ndarray], j: int) -> dict:
    return {k: np.asarray(v)[j : j + 1].copy() for k, v in inputs.items()}


def perturbed(inputs: Mapping[str, np.ndarray], repeat: int) -> dict:
    """The inputs with every float entry moved by NOISE_ULPS ulps (relative, random sign).

    The signs are drawn from the inputs' own bytes, so the same instance is always perturbed the same
    way: a candidate's significance is a function of the candidate (Hypothesis replays it identically).
    """
    digest = zlib.crc32(b"".join(np.ascontiguousarray(v).tobytes() for v in inputs.values()))
    rng = np.random.default_rng([digest, repeat])
    out = {}
    for k, v in inputs.items():
        v = np.asarray(v)
        if v.dtype.kind == "f":
            u = rng.choice((-1.0, 1.0), size=v.shape) * (NOISE_ULPS * np.finfo(v.dtype).eps)
            v = v * (1.0 + u)
        out[k] = v
    return out


@dataclasses.dataclass
class _Relation:
    """One relation of a batch: its statistics record, and per instance whether it fails and by how much."""

    stats: StepStats
    bad: np.ndarray
    gap: np.ndarray
    ratio: np.ndarray
    a: np.ndarray | None  # the two sides (None for a property)
    b: np.ndarray | None
    index: int | None  # 0-based step, None for the chain end to end


class _Tracker:
    """Accumulates step statistics and candidates over batches.

    A candidate's significance needs its rounding sensitivity: the candidate rows are evaluated again on
    inputs perturbed by a few ulps (only those rows, so a claim without candidates pays nothing).
    """

    def __init__(self, claim_id: str, check: NumericCheck, tol: Tolerance):
        self.claim_id = claim_id
        self.check = check
        self.tol = tol
        rels = ("=",) if check.is_property else check.relations
        self.steps = [StepStats(r) for r in rels]
        self.end = StepStats("prop" if check.is_property else compose(rels))
        self.instances = 0
        self.worst: Instance | None = None
        self.worst_gap = -math.inf
        self.last_failure: Instance | None = None
        self.end_significance = np.zeros(0)
        self.sizes = sizes_of(check)

    def _sensitivity(self, inputs, dims, rows: np.ndarray) -> list[np.ndarray] | None:
        """Per side of the chain, its observed rounding sensitivity on the given rows.

        The largest change under NOISE_REPEATS perturbations of the inputs by NOISE_ULPS ulps, and the
        difference from an evaluation in extended precision (``np.longdouble``) where the check runs in
        it: a perturbation of the inputs cannot see the rounding of an intermediate (``(x + 1e8) - 1e8``),
        the wider evaluation does.
        """
        sub = {k: np.asarray(v)[rows] for k, v in inputs.items()}
        n = len(rows)
        try:
            base = evaluate_chain(self.claim_id, self.check, numpy_xp, sub, dims, n)
        except CheckError:
            return None
        worst = [np.zeros(n) for _ in base]
        alternatives = [perturbed(sub, repeat) for repeat in range(NOISE_REPEATS)]
        if np.finfo(np.longdouble).eps < np.finfo(np.float64).eps:
            alternatives.append(
                {k: v.astype(np.longdouble) if v.dtype.kind == "f" else v for k, v in sub.items()}
            )
        for i, alt_inputs in enumerate(alternatives):
            try:
                alt = evaluate_chain(self.claim_id, self.check, numpy_xp, alt_inputs, dims, n)
            except CheckError:
                if i < NOISE_REPEATS:
                    return (
                        None  # the perturbation left the domain: no estimate, the candidate must be settled
                    )
                continue  # the check does not run in extended precision (e.g. a linalg routine)
            worst = [np.maximum(w, np.abs(x - y)) for w, x, y in zip(worst, alt, base, strict=True)]
        return worst

    def add(self, chain, inputs, dims, *, pool: bool = True, raw: Mapping | None = None) -> np.ndarray:
        """Count a batch; with ``pool`` its candidates join the pools (a shrinking search sets it False:
        its calls are variants of one failure, and only the shrunk one is kept).  ``raw``: the
        untransformed values of the inputs drawn through a transform.  Returns the end gaps."""
        n = len(chain[0])

        def inst_of(j: int) -> Instance:
            return Instance(dict(dims), _take(inputs, j), _take(raw, j) if raw else {})

        self.instances += n
        relations = self._relations(chain)
        bad_any = np.logical_or.reduce([rel.bad for rel in relations])
        noise = np.full((len(chain), n), np.nan)  # rounding sensitivity per side, on candidate rows only
        if bad_any.any() and not self.check.is_property:
            rows = np.flatnonzero(bad_any)
            sens = self._sensitivity(inputs, dims, rows)
            for e, s_ in enumerate(sens or ()):
                noise[e, rows] = s_

        def noise_on(rows: np.ndarray) -> np.ndarray:
            """Each side's rounding sensitivity on ``rows`` (measured once per row; inf: no estimate)."""
            todo = rows[np.isnan(noise[0, rows])]
            if todo.size:
                sens = self._sensitivity(inputs, dims, todo)
                for e in range(len(chain)):
                    noise[e, todo] = sens[e] if sens is not None else np.inf
            return noise[:, rows]

        for rel in relations:
            self._count(rel, n)
            self._resolve(rel, noise_on, dims, inst_of)
            sig = self._significance(rel, noise, n)
            if rel.stats is self.end:
                self.end_significance = np.where(rel.bad, sig, -np.inf)
            for j in np.flatnonzero(rel.bad) if pool else ():
                rel.stats.pool.add(
                    Candidate(
                        inst_of(int(j)),
                        float(rel.gap[j]),
                        float(sig[j]),
                        float(rel.ratio[j]),
                    )
                )
        eg = relations[-1].gap
        if n and np.any(np.isfinite(eg)):
            worst_row = int(np.nanargmax(np.where(np.isfinite(eg), eg, -np.inf)))
            if eg[worst_row] > self.worst_gap:
                self.worst_gap = float(eg[worst_row])
                self.worst = inst_of(worst_row)
        return eg

    def absorb(self, part: SweepPart) -> None:
        """Merge a chunk's statistics and candidates, as if its batches had been added here."""
        self.instances += part.instances
        for mine, theirs in zip([*self.steps, self.end], [*part.steps, part.end], strict=True):
            mine.merge(theirs)
        if part.worst is not None and part.worst_gap > self.worst_gap:
            self.worst, self.worst_gap = part.worst, part.worst_gap

    def _relations(self, chain) -> list[_Relation]:
        """Each step of the chain, then the chain end to end (last)."""
        if self.check.is_property:
            ok = np.asarray(chain[0], dtype=bool)
            n = len(ok)
            return [_Relation(self.end, ~ok, np.where(ok, -1.0, 1.0), np.full(n, np.nan), None, None, None)]
        out = []
        for i, st_, a, b in [
            *zip(range(len(self.steps)), self.steps, chain[:-1], chain[1:], strict=True),
            (None, self.end, chain[0], chain[-1]),
        ]:
            out.append(
                _Relation(
                    st_,
                    violated(a, b, st_.relation, self.tol),
                    gap(a, b, st_.relation, self.tol),
                    ratio(a, b, st_.relation),
                    a,
                    b,
                    i,
                )
            )
        return out

    def _count(self, rel: _Relation, n: int) -> None:
        st_ = rel.stats
        st_.checked += n
        st_.violations += int(np.count_nonzero(rel.bad))
        finite_r = np.isfinite(rel.ratio)
        a, b = rel.a, rel.b
        if self.tol.atol > 0 and a is not None and b is not None:
            # where an override's absolute slack decides, lhs/rhs says nothing about tightness
            finite_r &= self.tol.rtol * (np.abs(a) + np.abs(b)) >= self.tol.atol
        if np.any(finite_r):
            st_.max_ratio_raw = max(st_.max_ratio_raw, float(np.max(rel.ratio[finite_r])))
        if a is not None and b is not None:
            with np.errstate(all="ignore"):
                dev = np.abs(a - b) / (np.abs(a) + np.abs(b))
            dev = dev[np.isfinite(dev)]
            if dev.size:
                st_.max_deviation = max(st_.max_deviation, float(dev.max()))
        finite_g = rel.gap[np.isfinite(rel.gap)]
        if finite_g.size:
            st_.max_gap = max(st_.max_gap, float(finite_g.max()))

    def _resolve(self, rel: _Relation, noise_on, dims, inst_of) -> None:
        """Offer the ratios of the instances that hold to the relation's tightness records, counting only
        those resolved above their rounding sensitivity (see :mod:`lemmacheck.search.tightness`)."""
        a, b = rel.a, rel.b
        if a is None or b is None or not np.isfinite(rel.ratio).any():
            return
        eligible = np.isfinite(rel.ratio) & ~rel.bad
        if self.tol.atol > 0:  # where an override's absolute slack decides, lhs/rhs says nothing
            eligible &= self.tol.rtol * (np.abs(a) + np.abs(b)) >= self.tol.atol
        lo, hi = (0, -1) if rel.index is None else (rel.index, rel.index + 1)

        def resolved(rows: np.ndarray) -> np.ndarray:
            sens = noise_on(rows)
            with np.errstate(invalid="ignore"):
                return (np.abs(a[rows]) >= SIGNIFICANCE * sens[lo]) & (
                    np.abs(b[rows]) >= SIGNIFICANCE * sens[hi]
                )

        records = [rel.stats.tight]
        if nontrivial(dims, self.sizes):
            records.append(rel.stats.tight_nontrivial)
        resolve_batch(records, rel.ratio, eligible, resolved, inst_of)

    def _significance(self, rel: _Relation, noise: np.ndarray, n: int) -> np.ndarray:
        """Violation over rounding sensitivity (inf where the evaluation is exact or not assessed)."""
        if rel.a is None:
            return np.full(n, np.inf)
        lo, hi = (0, len(noise) - 1) if rel.index is None else (rel.index, rel.index + 1)
        sens = noise[lo] + noise[hi]
        v = excess(rel.a, rel.b, rel.stats.relation, self.tol)
        with np.errstate(all="ignore"):
            return np.where(np.isfinite(sens) & (sens > 0), v / np.where(sens > 0, sens, 1.0), np.inf)


def _draw(
    claim_id: str, check: NumericCheck | ApproximationCheck, rng, batch: int, dims: Mapping[str, Any]
) -> dict:
    return _draw_with_raw(claim_id, check, rng, batch, dims)[0]


def _draw_with_raw(
    claim_id: str, check: NumericCheck | ApproximationCheck, rng, batch: int, dims: Mapping[str, Any]
) -> tuple[dict, dict]:
    """A batch of inputs, and the untransformed values of those drawn through a transform (the same
    draws as ``spec.draw``: the transform consumes no randomness)."""
    inputs, raw = {}, {}
    for name, spec in check.inputs.items():
        try:
            r = spec.raw_draw(rng, batch, resolve_shape(spec.shape, dims))
            if spec.transform is not None:
                raw[name] = np.asarray(r)
            a = np.asarray(spec.finish(r))
        except Exception as exc:
            raise SamplerError(claim_id, f"input {name!r} failed to draw at dims {dims}: {exc}") from exc
        if a.shape[:1] != (batch,):
            raise SamplerError(
                claim_id, f"input {name!r} has shape {a.shape}; the first axis must be the batch ({batch})"
            )
        if a.dtype.kind == "f" and not np.all(np.isfinite(a)):
            raise SamplerError(
                claim_id, f"input {name!r} contains NaN or inf at dims {dims}; fix its transform or scale"
            )
        inputs[name] = a
    return inputs, raw


def _where_mask(claim_id: str, check: NumericCheck, inputs: dict, dims) -> np.ndarray | None:
    """Which instances satisfy the claim's ``where`` (None: it has none)."""
    if check.where is None:
        return None
    try:
        return np.asarray(call_with_inputs(check.where, numpy_xp, inputs, dims), dtype=bool)
    except Exception as exc:
        raise CheckError(claim_id, f"where() raised {type(exc).__name__}: {exc}") from exc


def _apply_where(claim_id: str, check: NumericCheck, inputs: dict, dims) -> tuple[dict, int]:
    mask = _where_mask(claim_id, check, inputs, dims)
    if mask is None:
        return inputs, len(next(iter(inputs.values()))) if inputs else 0
    return {k: v[mask] for k, v in inputs.items()}, int(mask.sum())


def _explicit_examples(claim_id, check, tracker) -> None:
    """Instances the claim names (e.g. a counterexample found once and kept so it always replays)."""
    from .examples import stored_examples  # counterexamples earlier runs found, replayed at any seed

    stored = stored_examples(claim_id, check)
    for ex in [*check.examples, *stored]:
        inputs = {k: np.asarray(v, dtype=float)[None] for k, v in ex["inputs"].items()}
        try:
            chain = evaluate_chain(claim_id, check, numpy_xp, inputs, ex["dims"], 1)
        except CheckError:
            if ex in stored:  # kept from an earlier version of the claim that it no longer fits
                continue
            raise
        tracker.add(chain, inputs, ex["dims"])


#: instances one chunk of a sweep holds at most.  A chunk is the unit of work a cluster receives: a deep
#: sweep of 10⁷ instances is ~150 tasks, enough to keep many workers busy, and each is ~0.1-1 s of
#: vectorised work, so a scheduler's ~1 ms per task is noise.
CHUNK_INSTANCES = 1 << 16


@dataclasses.dataclass(frozen=True)
class SweepChunk:
    """Consecutive batches of the sweep, which takes ``per_combo`` batches of every dims combination in
    turn: batch ``i`` belongs to combination ``i // per_combo`` and draws from the generator seeded
    ``[claim seed, i]``, so a chunk's draws do not depend on which other chunks run, where, or when."""

    first: int  # the sweep's batch index this chunk starts at
    batches: int
    batch: int  # instances drawn per batch
    per_combo: int  # batches per dims combination

    @property
    def instances(self) -> int:
        return self.batches * self.batch


@dataclasses.dataclass
class SweepPart:
    """What one chunk found: the statistics and candidates of every relation, and its worst instance."""

    steps: list[StepStats]
    end: StepStats
    instances: int
    drawn: int
    kept: int
    worst: Instance | None
    worst_gap: float


#: runs a sweep's chunks (anywhere) and returns their parts in the order given
SweepRunner = Callable[[Sequence[SweepChunk]], Sequence[SweepPart]]


def sweep_plan(check: NumericCheck, profile: Profile) -> list[SweepChunk]:
    """The sweep as chunks of about CHUNK_INSTANCES each, a function of the check's dims and the profile."""
    combos = len(dims_combinations(check.dims))
    # Spread the profile's instance budget over the dims combinations, within [64, profile.batch] a batch,
    # and take as many batches of each as spend the budget (at least batches_per_dims): a claim with few
    # combinations is searched as widely as one with many, not capped at batches_per_dims × batch.
    batch = int(min(profile.batch, max(64, profile.instance_budget // (combos * profile.batches_per_dims))))
    per_combo = max(profile.batches_per_dims, math.ceil(profile.instance_budget / (combos * batch)))
    total = combos * per_combo
    per_chunk = max(1, CHUNK_INSTANCES // batch)
    firsts = range(0, total, per_chunk)
    return [SweepChunk(first, min(per_chunk, total - first), batch, per_combo) for first in firsts]


def sweep_chunk(
    claim_id: str, check: NumericCheck, seed: int, tol: Tolerance, chunk: SweepChunk
) -> SweepPart:
    """Draw and evaluate one chunk of the sweep (on any machine: it needs only its arguments)."""
    tracker = _Tracker(claim_id, check, tol)
    combos = dims_combinations(check.dims)
    drawn = kept = 0
    for i in range(chunk.first, chunk.first + chunk.batches):
        dims = combos[i // chunk.per_combo]
        inputs, raw = _draw_with_raw(claim_id, check, np.random.default_rng([seed, i]), chunk.batch, dims)
        drawn += chunk.batch
        mask = _where_mask(claim_id, check, inputs, dims)
        if mask is not None:
            inputs = {k: v[mask] for k, v in inputs.items()}
            raw = {k: v[mask] for k, v in raw.items()}
        n = int(mask.sum()) if mask is not None else (chunk.batch if inputs else 0)
        kept += n
        if n == 0:
            continue
        chain = evaluate_chain(claim_id, check, numpy_xp, inputs, dims, n)
        tracker.add(chain, inputs, dims, raw=raw)
    return SweepPart(
        tracker.steps, tracker.end, tracker.instances, drawn, kept, tracker.worst, tracker.worst_gap
    )


def _sweep(
    claim_id, check, tracker, profile: Profile, seed: int, runner: SweepRunner | None
) -> tuple[int, int]:
    """The sweep's chunks, run by ``runner`` (default: here, in order), merged in plan order: however
    they are split among workers, the merged statistics and candidates are the same."""
    chunks = sweep_plan(check, profile)
    if runner is None:
        parts: Sequence[SweepPart] = [sweep_chunk(claim_id, check, seed, tracker.tol, c) for c in chunks]
    else:
        parts = runner(chunks)
    drawn = kept = 0
    for part in parts:
        tracker.absorb(part)
        drawn += part.drawn
        kept += part.kept
    return drawn, kept


#: significant violations the adversarial search has certified in high precision before it stops on one
HYPOTHESIS_VERIFICATIONS = 8


def _hypothesis(
    claim_id, check, tracker, profile: Profile, seed: int, verify: Callable[[Instance], bool] | None
) -> int:
    """Adversarial search: ``target()`` steers towards the largest normalised gap; failures shrink.

    A significant violation stops the search (and is shrunk) only once ``verify`` certifies it in high
    precision (answers are cached per instance, so Hypothesis sees the same outcome on a replay); one
    that high precision rejects stays a candidate and the search goes on.  After
    ``HYPOTHESIS_VERIFICATIONS`` answers the significance estimate alone decides.
    """
    combos = dims_combinations(check.dims)
    count = [0]
    error: list[BaseException] = []
    verified: dict[bytes, bool] = {}
    shrinking = [False]
    shrink_calls = [0]
    failing: set[bytes] = set()

    def key_of(dims, inputs) -> bytes:
        return repr(sorted(dims.items())).encode() + b"".join(
            np.ascontiguousarray(v).tobytes() for v in inputs.values()
        )

    def certified(inst: Instance) -> bool:
        if verify is None:
            return True
        key = key_of(inst.dims, inst.inputs)
        if key not in verified:
            if len(verified) >= HYPOTHESIS_VERIFICATIONS:
                return True
            verified[key] = verify(inst)
        return verified[key]

    @st.composite
    def instances(draw):
        # An input drawn through a transform is drawn untransformed (the same choices as its strategy,
        # which only maps them): Hypothesis shrinks it in those coordinates, and refinement moves them.
        dims = combos[draw(st.integers(0, len(combos) - 1))]
        inputs, raw = {}, {}
        for k, spec in check.inputs.items():
            if spec.transform is None:
                inputs[k] = draw(spec.strategy(dims))
            else:
                shape = resolve_shape(spec.shape, dims)
                raw[k] = draw(spec.raw_strategy(shape).map(lambda a: np.asarray(a)[None]))
                inputs[k] = spec.finish(raw[k])
        return dims, inputs, raw

    @settings(
        max_examples=profile.hypothesis_examples,
        database=None,
        deadline=None,
        verbosity=Verbosity.quiet,
        suppress_health_check=list(HealthCheck),
        report_multiple_bugs=False,
        phases=(Phase.generate, Phase.target, Phase.shrink),
    )
    @hypothesis_seed(seed)
    @given(instances())
    def search(inst):
        dims, inputs, raw = inst
        if shrinking[0]:
            # Shrinking is capped by a number of calls (not a time, so the shrunk example replays): past
            # it, an input not already seen failing passes without evaluation and the shrinker stops.
            shrink_calls[0] += 1
            if shrink_calls[0] > profile.shrink_calls and key_of(dims, inputs) not in failing:
                return
        if check.where is not None:
            inputs, n = _apply_where(claim_id, check, inputs, dims)
            if n == 0:
                return
        count[0] += 1
        try:
            chain = evaluate_chain(claim_id, check, numpy_xp, inputs, dims, 1)
        except CheckError as exc:
            error.append(exc)
            raise
        g = float(tracker.add(chain, inputs, dims, pool=not shrinking[0], raw=raw)[0])
        if math.isfinite(g):
            target(g, label="normalised violation of the end-to-end relation")
        violation = g > 0 or (tracker.end.relation in ("<", ">") and g >= 0)
        # Only a violation rounding cannot explain stops the search and is shrunk; rounding-level ones are
        # recorded (and settled later) while the search goes on looking for a genuine one.
        if violation and float(tracker.end_significance[0]) > SIGNIFICANCE:
            inst = Instance(dict(dims), {k: np.asarray(v).copy() for k, v in inputs.items()}, dict(raw))
            if certified(inst):
                tracker.last_failure = inst
                shrinking[0] = True
                failing.add(key_of(dims, inputs))
                raise AssertionError(f"violation, normalised gap {g:.3g}")

    try:
        with pinned_hypothesis_constants():  # the draws depend on the claim and its seed only
            search()
    except AssertionError:
        pass  # Hypothesis replays its shrunk example last, so tracker.last_failure is the minimal one
    except CheckError:
        raise
    except Exception:
        if error:
            raise error[-1] from None
        raise
    return count[0]


def _moved(spec, v: np.ndarray, step: float, w: int, rng) -> np.ndarray:
    """``w`` random perturbations of one input's values (batch axis of 1), within its declared domain."""
    mag = np.abs(v) + 1e-3 * (np.max(np.abs(v)) + 1e-12)
    pert = v + step * mag * rng.standard_normal((w, *v.shape[1:]))
    # Stay in the declared domain (the one Hypothesis searches): refinement sharpens instances, it must
    # not wander to magnitudes the claim was never sampled at.
    if getattr(spec, "low", None) is not None:
        pert = np.clip(pert, spec.low, spec.high)
    else:
        pert = np.clip(pert, -3.0 * spec.scale[1], 3.0 * spec.scale[1])
    if getattr(spec, "positive", False):
        pert = np.abs(pert)
    return pert


def _movable(check, best: Instance) -> list[str]:
    """The inputs refinement moves: float inputs, and those drawn through a transform whose untransformed
    values are known (moved in those, so the structure is kept)."""
    return [
        k
        for k, v in best.inputs.items()
        if (check.inputs[k].transform is None and np.asarray(v).dtype.kind == "f")
        or (check.inputs[k].transform is not None and k in best.raw)
    ]


def _perturbations(check, best: Instance, names, step: float, w: int, rng) -> tuple[dict, dict]:
    cand, raw = {}, {}
    for k, v in best.inputs.items():
        spec = check.inputs[k]
        if k not in names:
            cand[k] = np.repeat(np.asarray(v), w, axis=0)
        elif spec.transform is None:
            cand[k] = _moved(spec, np.asarray(v), step, w, rng)
        else:
            raw[k] = _moved(spec, np.asarray(best.raw[k]), step, w, rng)
            cand[k] = np.asarray(spec.finish(raw[k]))
    return cand, raw


def _refine(claim_id, check, tracker, profile: Profile, rng) -> int:
    """Random local search around the worst instance: one vectorised batch of perturbations a round."""
    if tracker.worst is None or check.is_property:
        return 0
    best = tracker.worst
    best_gap = tracker.worst_gap
    step = 0.1
    evaluated = 0
    names = _movable(check, best)
    if not names:
        return 0
    for _ in range(profile.refine_rounds):
        cand, raw = _perturbations(check, best, names, step, profile.refine_width, rng)
        mask = _where_mask(claim_id, check, cand, best.dims)
        if mask is not None:
            cand, raw = {k: v[mask] for k, v in cand.items()}, {k: v[mask] for k, v in raw.items()}
        n = len(next(iter(cand.values())))
        if n == 0:
            step *= 0.5
            continue
        try:
            chain = evaluate_chain(claim_id, check, numpy_xp, cand, best.dims, n)
        except CheckError:
            step *= 0.5  # the perturbation left the claim's domain; look closer
            continue
        evaluated += n
        # Only each round's sharpest instance is counted: the others are near-copies of it, and as
        # candidates they would only repeat the one question high precision has to answer.
        g = gap(chain[0], chain[-1], tracker.end.relation, tracker.tol)
        j = int(np.nanargmax(np.where(np.isfinite(g), g, -np.inf)))
        tracker.add([e[j : j + 1] for e in chain], _take(cand, j), best.dims, raw=_take(raw, j))
        if g[j] > best_gap:
            best_gap, best = float(g[j]), Instance(dict(best.dims), _take(cand, j), _take(raw, j))
            step *= 1.5
        else:
            step *= 0.7
        step = min(max(step, 1e-6), 1.0)
    return evaluated


def search_numeric(
    claim_id: str,
    check: NumericCheck,
    profile: Profile,
    rng,
    seed: int,
    tol: Tolerance,
    *,
    use_hypothesis: bool = True,
    refine: bool = True,
    verify: Callable[[Instance], bool] | None = None,
    refuted_by_sweep: Callable[[StepStats], bool] | None = None,
    sweep_runner: SweepRunner | None = None,
) -> SweepOutcome:
    """Sweep, then (unless ``refuted_by_sweep`` already certifies a counterexample among the sweep's
    candidates, in which case the adversarial search has nothing left to find) Hypothesis and refinement."""
    tracker = _Tracker(claim_id, check, tol)
    _explicit_examples(claim_id, check, tracker)
    drawn, kept = _sweep(claim_id, check, tracker, profile, seed, sweep_runner)
    if drawn and kept == 0:
        raise CheckError(claim_id, "where() rejected every sampled instance: build valid instances directly")
    if refuted_by_sweep is not None and refuted_by_sweep(tracker.end):
        return SweepOutcome(
            steps=tracker.steps,
            end=tracker.end,
            instances=tracker.instances,
            kept_fraction=kept / drawn if drawn else 1.0,
            worst=tracker.worst,
        )
    # A claim without inputs is a function of its dims alone, which the sweep has enumerated.
    hyp = (
        _hypothesis(claim_id, check, tracker, profile, seed, verify)
        if use_hypothesis and profile.hypothesis_examples and check.inputs
        else 0
    )
    if refine and not check.is_property:
        _refine(claim_id, check, tracker, profile, rng)
    return SweepOutcome(
        steps=tracker.steps,
        end=tracker.end,
        instances=tracker.instances,
        hypothesis_examples=hyp,
        kept_fraction=kept / drawn if drawn else 1.0,
        worst=tracker.worst,
        shrunk=tracker.last_failure,
    )
