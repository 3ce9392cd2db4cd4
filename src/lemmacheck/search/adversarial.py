"""Adversarial search with Hypothesis: ``target()`` steers towards the largest normalised violation of the
end-to-end relation, and a violation rounding cannot explain is shrunk to the smallest dims and simplest
values.  Its draws depend on the claim and its seed only (:mod:`.reproducible`)."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from hypothesis import HealthCheck, Phase, Verbosity, given, settings, target
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from ..errors import CheckError
from ..model.inputs import InputSpec, resolve_shape, shared_strategy
from ..model.tolerance import SIGNIFICANCE
from ..xp import numpy_xp
from .candidates import Instance, instance_key
from .draw import apply_where, dims_combinations
from .profile import Profile
from .relations import evaluate_chain
from .reproducible import pinned_hypothesis_constants
from .tracker import Tracker

__all__ = ["HYPOTHESIS_VERIFICATIONS", "hypothesis_search"]

#: high-precision answers the adversarial search may ask for; past them a significant violation is not
#: certified here: it stays a candidate of the pool, settled (and shrunk) with the others after the search
HYPOTHESIS_VERIFICATIONS = 8


class _ShrinkCapReached(BaseException):
    """Raised through Hypothesis (which treats an Exception as a failure to shrink, not as a stop) once the
    shrinking phase has spent ``Profile.shrink_calls``: every later draw would cost as much as any other
    and could change nothing."""


def _strategy(spec: InputSpec, dims: dict) -> st.SearchStrategy:
    """One instance of ``spec`` at ``dims`` (batch axis of 1), untransformed."""
    shared = shared_strategy(spec, dims)
    if shared is not None:
        return shared
    if spec.transform is None:
        return spec.strategy(dims)
    return spec.raw_strategy(resolve_shape(spec.shape, dims)).map(lambda a: np.asarray(a)[None])


class _Search:
    """The state of one adversarial search: its count, the verifications asked, the shrinking phase."""

    def __init__(self, tracker: Tracker, profile: Profile, verify: Callable[[Instance], bool] | None):
        self.tracker, self.profile, self.verify = tracker, profile, verify
        self.check = tracker.check
        self.count = 0
        self.errors: list[BaseException] = []
        self.verified: dict[tuple, bool] = {}
        self.shrinking = False
        self.shrink_calls = 0
        self.combos = dims_combinations(self.check.dims)
        # Built once for the search, not in each example: ``st.integers`` looked its strategy up in
        # Hypothesis's cache every example (and ``st.composite``, decorating a closure per search, read and
        # parsed its source each time).  The same strategies make the same choices: the draws are unchanged.
        self.index = st.integers(0, len(self.combos) - 1)
        self.built: dict[int, tuple[tuple[str, st.SearchStrategy, InputSpec | None], ...]] = {}

    def certified(self, inst: Instance) -> bool:
        """Whether high precision certifies ``inst`` (remembered, so a replay sees the same answer).

        Past HYPOTHESIS_VERIFICATIONS answers the significance estimate decides only while a certified
        failure is being shrunk (its shrunk form is settled first, and the pool stands behind it if high
        precision rejects that).  Before, it does not: an estimate can be poor, and a rounding artefact
        taken for a failure would have Hypothesis spend its whole shrinking phase on it.  The violation
        stays a candidate of the pool, which settling certifies and shrinks (Profile.shrink_trials) if
        it is genuine."""
        if self.verify is None:
            return True
        key = instance_key(inst)
        if key not in self.verified:
            if len(self.verified) >= HYPOTHESIS_VERIFICATIONS:
                return self.shrinking
            self.verified[key] = self.verify(inst)
        return self.verified[key]

    def instances(self) -> st.SearchStrategy:
        """The strategy: a dims combination, then every input at it.  An input drawn through a transform
        is drawn untransformed (the same choices as its strategy, which only maps them): Hypothesis
        shrinks it in those coordinates, and refinement moves them."""
        return _examples(self)

    def strategies_at(self, index: int) -> tuple[tuple[str, st.SearchStrategy, InputSpec | None], ...]:
        """Each input's name, strategy and (for one drawn through a transform) spec at a dims combination,
        built when first drawn and then reused: a strategy built anew for every example was validated
        anew each time (a fifth of the search's time over the catalogue)."""
        if index not in self.built:
            dims = self.combos[index]
            self.built[index] = tuple(
                (k, _strategy(spec, dims), None if spec.transform is None else spec)
                for k, spec in self.check.inputs.items()
            )
        return self.built[index]

    def examine(self, inst) -> None:
        """One Hypothesis example: evaluated and counted; an AssertionError for a certified violation."""
        dims, inputs, raw = inst
        tracker, claim_id = self.tracker, self.tracker.claim_id
        if self.shrinking:
            # Shrinking is capped by a number of calls (not a time, so the shrunk example replays): past
            # it the search stops, and the last failure seen (the shrinker's current target) is kept.
            self.shrink_calls += 1
            if self.shrink_calls > self.profile.shrink_calls:
                raise _ShrinkCapReached
        if self.check.where is not None:
            inputs, n = apply_where(claim_id, self.check, inputs, dims)
            if n == 0:
                return
        self.count += 1
        try:
            chain = evaluate_chain(claim_id, self.check, numpy_xp, inputs, dims, 1)
        except CheckError as exc:
            self.errors.append(exc)
            raise
        g = float(tracker.add(chain, inputs, dims, pool=not self.shrinking, raw=raw)[0])
        if math.isfinite(g):
            target(g, label="normalised violation of the end-to-end relation")
        violation = g > 0 or (tracker.end.relation in ("<", ">") and g >= 0)
        # Only a violation rounding cannot explain stops the search and is shrunk; rounding-level ones are
        # recorded (and settled later) while the search goes on looking for a genuine one.
        if violation and float(tracker.end_significance[0]) > SIGNIFICANCE:
            found = Instance(dict(dims), {k: np.asarray(v).copy() for k, v in inputs.items()}, dict(raw))
            if self.certified(found):
                tracker.last_failure = found
                self.shrinking = True
                raise AssertionError(f"violation, normalised gap {g:.3g}")


@st.composite
def _examples(draw, search: _Search) -> tuple[dict, dict, dict]:
    """One example of ``search``: its dims, its inputs and the raw values of those drawn through a transform
    (:meth:`_Search.instances`)."""
    index = draw(search.index)
    inputs, raw = {}, {}
    for k, strategy, transformed in search.strategies_at(index):
        if transformed is None:
            inputs[k] = draw(strategy)
        else:
            raw[k] = draw(strategy)
            inputs[k] = transformed.finish(raw[k])
    return search.combos[index], inputs, raw


def hypothesis_search(
    tracker: Tracker, profile: Profile, seed: int, verify: Callable[[Instance], bool] | None
) -> int:
    """Adversarial search: ``target()`` steers towards the largest normalised gap; failures shrink.

    A significant violation stops the search (and is shrunk, for at most ``profile.shrink_calls`` calls)
    only once ``verify`` certifies it in high precision (answers are cached per instance, so Hypothesis
    sees the same outcome on a replay); one that high precision rejects, or that comes after
    ``HYPOTHESIS_VERIFICATIONS`` answers, stays a candidate and the search goes on.  While shrinking, past
    those answers the significance estimate decides.  Returns the examples evaluated.
    """
    state = _Search(tracker, profile, verify)

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
    @given(state.instances())
    def search(inst):
        state.examine(inst)

    try:
        with pinned_hypothesis_constants():  # the draws depend on the claim and its seed only
            search()
    except AssertionError:
        pass  # Hypothesis replays its shrunk example last, so tracker.last_failure is the minimal one
    except _ShrinkCapReached:
        pass  # tracker.last_failure is the last failure seen: the shrinker runs only simpler ones
    except CheckError:
        raise
    except Exception:
        if state.errors:
            raise state.errors[-1] from None
        raise
    return state.count
