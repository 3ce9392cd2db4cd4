"""Search for violations of a relation chain: vectorised sweeps, Hypothesis, local refinement.

The common path is vectorised: a check function receives a whole batch of instances (leading batch
axis) and returns the chain ``e0 .. ek`` as arrays of shape ``(batch,)``.  Hypothesis then searches
adversarially, steered by ``target()`` towards the largest normalised violation, and shrinks a failure
to the smallest dims and simplest values.  Finally the worst instance is refined by vectorised random
perturbation.  Candidates are *not* verdicts: :mod:`lemmacheck.highprec` re-verifies them.
"""

from __future__ import annotations

import dataclasses
import inspect
import itertools
import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from hypothesis import HealthCheck, Phase, Verbosity, given, settings, target
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from .claim import NumericCheck
from .errors import CheckError, SamplerError
from .profile import Profile
from .tolerance import Tolerance, slack
from .xp import numpy_xp

__all__ = ["Instance", "StepStats", "SweepOutcome", "dims_combinations", "evaluate_chain", "gap", "violated",
           "compose", "search_numeric"]


@dataclasses.dataclass
class Instance:
    """One instance (batch axis of 1): dims and input arrays."""

    dims: dict
    inputs: dict

    def size(self) -> int:
        return int(sum(np.size(v) for v in self.inputs.values()))


@dataclasses.dataclass
class StepStats:
    relation: str
    checked: int = 0
    violations: int = 0
    max_ratio: float = -math.inf
    max_gap: float = -math.inf
    max_deviation: float = 0.0  # max |a - b| / (|a| + |b|): how far from equality
    candidates: list = dataclasses.field(default_factory=list)  # (size, -gap, Instance, dims key)

    def note_candidate(self, inst: Instance, g: float, per_dims: int = 3, keep: int = 24) -> None:
        """Keep the largest violations of each dims combination, smallest dims first.

        Several per combination and many combinations: when the smallest instances are rounding
        artefacts that high precision rejects, real violations elsewhere are still there to confirm.
        """
        key = repr(sorted(inst.dims.items()))
        same = [c for c in self.candidates if c[3] == key]
        if len(same) >= per_dims:
            worst_kept = min(same, key=lambda c: -c[1])
            if g <= -worst_kept[1]:
                return
            self.candidates.remove(worst_kept)
        self.candidates.append((inst.size(), -g, inst, key))
        self.candidates.sort(key=lambda c: (c[0], c[1]))
        del self.candidates[keep:]


@dataclasses.dataclass
class SweepOutcome:
    steps: list[StepStats]
    end: StepStats
    instances: int = 0
    hypothesis_examples: int = 0
    kept_fraction: float = 1.0
    worst: Instance | None = None  # the instance with the largest end-to-end gap seen


def dims_combinations(dims: Mapping[str, Sequence[Any]]) -> list[dict]:
    """Every combination of dims, smallest first (by the sum of the positions in each list)."""
    names = list(dims)
    combos = list(itertools.product(*[list(enumerate(dims[n])) for n in names]))
    combos.sort(key=lambda c: sum(i for i, _ in c))
    return [{n: v for n, (_, v) in zip(names, c)} for c in combos] or [{}]


def _call(fn: Callable, xp, inputs: Mapping[str, Any], dims: Mapping[str, Any], *extra) -> Any:
    """Call a check with the inputs and dims it names; ``**inputs`` in its signature takes every input."""
    params = inspect.signature(fn).parameters
    takes_all = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    kwargs = {k: v for k, v in inputs.items() if takes_all or k in params}
    kwargs.update({k: v for k, v in dims.items() if k in params})
    return fn(xp, *extra, **kwargs)


def evaluate_chain(claim_id: str, check: NumericCheck, xp, inputs: Mapping[str, Any], dims: Mapping[str, Any],
                   batch: int) -> list:
    """Run the check and validate what it returns: a chain of k+1 arrays of shape (batch,)."""
    try:
        # Floating-point warnings are not the verdict's business: non-finite results are caught below,
        # the same way under pytest's warnings-as-errors as on the command line.
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            out = _call(check.fn, xp, inputs, dims)
    except CheckError:
        raise
    except Exception as exc:  # the check itself broke: name the claim, the dims and the cause
        raise CheckError(claim_id, f"the check raised {type(exc).__name__}: {exc} (dims {dims})") from exc
    if check.is_property:
        out = (out,)
    if not isinstance(out, (tuple, list)):
        raise CheckError(claim_id, f"the check must return a tuple (e0, ..., ek), got {type(out).__name__}")
    want = 1 if check.is_property else len(check.relations) + 1
    if len(out) != want:
        raise CheckError(claim_id, f"the check returned {len(out)} expressions; its relations "
                                   f"{check.relations} need {want}")
    chain = []
    for i, e in enumerate(out):
        a = np.asarray(e)
        if a.shape == () and batch == 1:
            a = a.reshape(1)
        if a.shape != (batch,):
            raise CheckError(claim_id, f"expression e{i} has shape {a.shape}; expected ({batch},) — reduce "
                                       "every non-batch axis (sum/max/norm over axis=-1 ...)")
        if xp.backend == "numpy" and not check.is_property:
            a = a.astype(float)
            bad = ~np.isfinite(a)
            if bad.any():
                j = int(np.argmax(bad))
                sample = {k: np.asarray(v)[j].tolist() for k, v in inputs.items()}
                raise CheckError(claim_id, f"expression e{i} is {a[j]} (not finite) at dims {dims}, "
                                           f"instance {sample}; NaN and inf never pass silently: "
                                           "narrow the sampler or guard the formula")
        chain.append(a)
    return chain


def gap(a, b, relation: str, tol: Tolerance):
    """How far ``a R b`` is from failing, normalised: > 0 means violated beyond the slack."""
    with np.errstate(all="ignore"):  # finite inputs (checked before) can still overflow in |a| + |b|
        return _gap(a, b, relation, tol)


def _gap(a, b, relation: str, tol: Tolerance):
    s = slack(a, b, tol)
    scale = np.abs(a) + np.abs(b) + tol.atol
    if relation in ("<=", "<"):
        d = a - b
    elif relation in (">=", ">"):
        d = b - a
    elif relation == "=":
        d = np.abs(a - b)
    else:  # "~": never a violation
        return np.full(np.shape(a), -np.inf)
    if relation in ("<", ">"):
        return (d + s) / scale  # strict: equality within the slack is a candidate too
    return (d - s) / scale


def violated(a, b, relation: str, tol: Tolerance):
    g = gap(a, b, relation, tol)
    return g >= 0 if relation in ("<", ">") else g > 0


#: sides smaller than this are at the float64 noise floor and are left out of the tightness ratio
TIGHTNESS_FLOOR = 1e-9


def ratio(a, b, relation: str):
    """Tightness: lhs/rhs for <= (1.0 means attained), rhs/lhs for >=; NaN where undefined.

    Instances where either side is below :data:`TIGHTNESS_FLOOR` in magnitude are left out, so that
    rounding noise in a tiny side never poses as tightness.
    """
    big = (np.abs(a) > TIGHTNESS_FLOOR) & (np.abs(b) > TIGHTNESS_FLOOR)
    with np.errstate(all="ignore"):  # a ratio that overflows is +inf, and counts as such
        if relation in ("<=", "<"):
            r = np.where((b > 0) & big, a / b, np.nan)
        elif relation in (">=", ">"):
            r = np.where((a > 0) & big, b / a, np.nan)
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


class _Tracker:
    """Accumulates step statistics and candidates over batches."""

    def __init__(self, check: NumericCheck, tol: Tolerance):
        self.check = check
        self.tol = tol
        rels = ("=",) if check.is_property else check.relations
        self.steps = [StepStats(r) for r in rels]
        self.end = StepStats("prop" if check.is_property else compose(rels))
        self.instances = 0
        self.worst: Instance | None = None
        self.worst_gap = -math.inf

    def end_gap(self, chain) -> np.ndarray:
        if self.check.is_property:
            return np.where(np.asarray(chain[0], dtype=bool), -1.0, 1.0)
        return gap(chain[0], chain[-1], self.end.relation, self.tol)

    def add(self, chain, inputs, dims) -> np.ndarray:
        n = len(chain[0])
        self.instances += n
        if self.check.is_property:
            ok = np.asarray(chain[0], dtype=bool)
            stats = [(self.end, ~ok, np.where(ok, -1.0, 1.0), np.full(n, np.nan), None, None)]
        else:
            stats = []
            for st_, a, b in zip(self.steps, chain[:-1], chain[1:]):
                stats.append((st_, violated(a, b, st_.relation, self.tol), gap(a, b, st_.relation, self.tol),
                              ratio(a, b, st_.relation), a, b))
            a, b = chain[0], chain[-1]
            stats.append((self.end, violated(a, b, self.end.relation, self.tol),
                          gap(a, b, self.end.relation, self.tol), ratio(a, b, self.end.relation), a, b))
        for st_, bad, g, r, a_, b_ in stats:
            st_.checked += n
            st_.violations += int(np.count_nonzero(bad))
            if np.any(np.isfinite(r)):
                st_.max_ratio = max(st_.max_ratio, float(np.nanmax(r)))
            if not self.check.is_property:
                with np.errstate(all="ignore"):
                    dev = np.abs(a_ - b_) / (np.abs(a_) + np.abs(b_))
                # as for tightness: sides at the noise floor say nothing about the deviation
                dev = dev[np.isfinite(dev) & (np.abs(a_) + np.abs(b_) > TIGHTNESS_FLOOR)]
                if dev.size:
                    st_.max_deviation = max(st_.max_deviation, float(dev.max()))
            finite_g = g[np.isfinite(g)]
            if finite_g.size:
                st_.max_gap = max(st_.max_gap, float(finite_g.max()))
            if bad.any():
                for j in np.flatnonzero(bad)[np.argsort(-g[bad])][:3]:
                    st_.note_candidate(Instance(dict(dims), _take(inputs, int(j))), float(g[j]))
        eg = stats[-1][2]
        if n and np.any(np.isfinite(eg)):
            j = int(np.nanargmax(np.where(np.isfinite(eg), eg, -np.inf)))
            if eg[j] > self.worst_gap:
                self.worst_gap = float(eg[j])
                self.worst = Instance(dict(dims), _take(inputs, j))
        return eg


def _draw(claim_id: str, check: NumericCheck, rng, batch: int, dims: Mapping[str, Any]) -> dict:
    inputs = {}
    for name, spec in check.inputs.items():
        try:
            a = np.asarray(spec.draw(rng, batch, dims))
        except Exception as exc:
            raise SamplerError(claim_id, f"input {name!r} failed to draw at dims {dims}: {exc}") from exc
        if a.shape[:1] != (batch,):
            raise SamplerError(claim_id, f"input {name!r} has shape {a.shape}; the first axis must be the "
                                         f"batch ({batch})")
        if a.dtype.kind == "f" and not np.all(np.isfinite(a)):
            raise SamplerError(claim_id, f"input {name!r} contains NaN or inf at dims {dims}; fix its "
                                         "transform or scale")
        inputs[name] = a
    return inputs


def _apply_where(claim_id: str, check: NumericCheck, inputs: dict, dims) -> tuple[dict, int]:
    if check.where is None:
        return inputs, len(next(iter(inputs.values()))) if inputs else 0
    try:
        mask = np.asarray(_call(check.where, numpy_xp, inputs, dims), dtype=bool)
    except Exception as exc:
        raise CheckError(claim_id, f"where() raised {type(exc).__name__}: {exc}") from exc
    return {k: v[mask] for k, v in inputs.items()}, int(mask.sum())


def _explicit_examples(claim_id, check, tracker) -> None:
    """Instances the claim names (e.g. a counterexample found once and kept so it always replays)."""
    for ex in check.examples:
        inputs = {k: np.asarray(v, dtype=float)[None] for k, v in ex["inputs"].items()}
        chain = evaluate_chain(claim_id, check, numpy_xp, inputs, ex["dims"], 1)
        tracker.add(chain, inputs, ex["dims"])


def _sweep(claim_id, check, tracker, profile: Profile, rng) -> tuple[int, int]:
    drawn = kept = 0
    combos = dims_combinations(check.dims)
    # Spread the profile's instance budget over the dims combinations, within [64, profile.batch] a batch.
    batch = int(min(profile.batch, max(64, profile.instance_budget // (len(combos) * profile.batches_per_dims))))
    for dims in combos:
        for _ in range(profile.batches_per_dims):
            inputs = _draw(claim_id, check, rng, batch, dims)
            drawn += batch
            inputs, n = _apply_where(claim_id, check, inputs, dims)
            kept += n
            if n == 0:
                continue
            chain = evaluate_chain(claim_id, check, numpy_xp, inputs, dims, n)
            tracker.add(chain, inputs, dims)
    return drawn, kept


def _hypothesis(claim_id, check, tracker, profile: Profile, seed: int) -> int:
    """Adversarial search: ``target()`` steers towards the largest normalised gap; failures shrink."""
    combos = dims_combinations(check.dims)
    count = [0]
    error: list[BaseException] = []

    @st.composite
    def instances(draw):
        dims = combos[draw(st.integers(0, len(combos) - 1))]
        return dims, {k: draw(spec.strategy(dims)) for k, spec in check.inputs.items()}

    @settings(max_examples=profile.hypothesis_examples, database=None, deadline=None, verbosity=Verbosity.quiet,
              suppress_health_check=list(HealthCheck), report_multiple_bugs=False,
              phases=(Phase.generate, Phase.target, Phase.shrink))
    @hypothesis_seed(seed)
    @given(instances())
    def search(inst):
        dims, inputs = inst
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
        g = float(tracker.add(chain, inputs, dims)[0])
        if math.isfinite(g):
            target(g, label="normalised violation of the end-to-end relation")
        if g > 0 or (tracker.end.relation in ("<", ">") and g >= 0):
            raise AssertionError(f"violation, normalised gap {g:.3g}")

    try:
        search()
    except AssertionError:
        pass  # the shrunk failure has been recorded by the tracker (last call = minimal example)
    except CheckError:
        raise
    except Exception:
        if error:
            raise error[-1] from None
        raise
    return count[0]


def _refine(claim_id, check, tracker, profile: Profile, rng) -> int:
    """Random local search around the worst instance: one vectorised batch of perturbations a round."""
    if tracker.worst is None or check.is_property:
        return 0
    best = tracker.worst
    best_gap = tracker.worst_gap
    step = 0.1
    evaluated = 0
    # Structured inputs (a transform imposes structure) stay fixed: a perturbation would leave the set.
    float_names = [k for k, v in best.inputs.items()
                   if np.asarray(v).dtype.kind == "f" and check.inputs[k].transform is None]
    if not float_names:
        return 0
    for _ in range(profile.refine_rounds):
        w = profile.refine_width
        cand = {}
        for k, v in best.inputs.items():
            v = np.asarray(v)
            if k in float_names:
                mag = np.abs(v) + 1e-3 * (np.max(np.abs(v)) + 1e-12)
                pert = v + step * mag * rng.standard_normal((w, *v.shape[1:]))
                spec = check.inputs[k]
                # Stay in the declared domain (the one Hypothesis searches): refinement sharpens
                # instances, it must not wander to magnitudes the claim was never sampled at.
                if getattr(spec, "low", None) is not None:
                    pert = np.clip(pert, spec.low, spec.high)
                else:
                    pert = np.clip(pert, -3.0 * spec.scale[1], 3.0 * spec.scale[1])
                if getattr(spec, "positive", False):
                    pert = np.abs(pert)
                cand[k] = pert
            else:
                cand[k] = np.repeat(v, w, axis=0)
        cand, n = _apply_where(claim_id, check, cand, best.dims)
        if n == 0:
            step *= 0.5
            continue
        try:
            chain = evaluate_chain(claim_id, check, numpy_xp, cand, best.dims, n)
        except CheckError:
            step *= 0.5  # the perturbation left the claim's domain; look closer
            continue
        evaluated += n
        g = tracker.add(chain, cand, best.dims)
        j = int(np.nanargmax(np.where(np.isfinite(g), g, -np.inf)))
        if g[j] > best_gap:
            best_gap, best = float(g[j]), Instance(dict(best.dims), _take(cand, j))
            step *= 1.5
        else:
            step *= 0.7
        step = min(max(step, 1e-6), 1.0)
    return evaluated


def search_numeric(claim_id: str, check: NumericCheck, profile: Profile, rng, seed: int,
                   tol: Tolerance, *, use_hypothesis: bool = True, refine: bool = True) -> SweepOutcome:
    tracker = _Tracker(check, tol)
    _explicit_examples(claim_id, check, tracker)
    drawn, kept = _sweep(claim_id, check, tracker, profile, rng)
    if drawn and kept == 0:
        raise CheckError(claim_id, "where() rejected every sampled instance: build valid instances directly")
    hyp = _hypothesis(claim_id, check, tracker, profile, seed) if use_hypothesis and profile.hypothesis_examples else 0
    if refine and not check.is_property:
        _refine(claim_id, check, tracker, profile, rng)
    return SweepOutcome(steps=tracker.steps, end=tracker.end, instances=tracker.instances, hypothesis_examples=hyp,
                        kept_fraction=kept / drawn if drawn else 1.0, worst=tracker.worst)
