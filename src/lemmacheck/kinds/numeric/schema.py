"""The JSON-schema properties of a numeric claim's evidence (:class:`.check.NumericEvidence`), merged into
``results.schema.json`` by :mod:`lemmacheck.schema`; docs/results-schema.md says what each field means."""

from __future__ import annotations

__all__ = ["EVIDENCE_SCHEMA"]

_NUMBER = {"$ref": "#/$defs/number"}


def _witness() -> dict:
    return {
        "type": ["object", "null"],
        "description": (
            "the instance attaining the figure: dims, inputs, lhs and rhs at high precision (absent when "
            "high precision cannot evaluate the check), ratio, dps (null: float64), route (how the sides "
            "were settled: on balls, with the ratio's enclosure ratio_enclosure and its bits, or in "
            "mpmath, with the reason balls were not used in route_reason), float64_ratio, and for the "
            "overall figure trivial (a size below 2)"
        ),
        "properties": {
            "dims": {"type": "object"},
            "inputs": {"type": "object"},
            "ratio": dict(_NUMBER),
            "ratio_enclosure": {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 2},
            "route": {"enum": ["enclosure", "mpmath", "exact"]},
            "route_reason": {"type": "string"},
            "bits": {"type": "integer"},
            "dps": {"type": ["integer", "null"]},
            "float64_ratio": dict(_NUMBER),
            "trivial": {"type": "boolean"},
        },
        "required": ["dims", "inputs", "ratio"],
    }


#: How a counterexample was certified (settling/enclosure.py, settling/highprec.py).
_CERTIFIED_BY = {
    "route": {
        "enum": ["enclosure", "mpmath", "exact"],
        "description": (
            "how the violation was certified: the sign of its margin proved on Arb balls at the exact "
            "inputs, two mpmath precisions agreeing, or exact arithmetic"
        ),
    },
    "certified_by": {
        "type": "string",
        "description": (
            "the route in words: 'proved by interval enclosure, margin [a, b] at N bits', or "
            "'mpmath: ... because <why balls were not used>'"
        ),
    },
    "margin": {
        "type": "array",
        "items": {"type": "string"},
        "minItems": 2,
        "maxItems": 2,
        "description": (
            "the enclosure [a, b] (decimals rounded outward) of the violation beyond the tolerance's slack; "
            "it excludes 0"
        ),
    },
    "bits": {"type": "integer", "description": "the ball precision that decided it"},
    "untransformed": {
        "type": "object",
        "description": (
            "for each input drawn through a transform (SPD, Orthogonal, ProbVector, OneHot, "
            "Array(transform=)), the values the transform was given; `inputs` holds what the check received"
        ),
    },
    "route_reason": {"type": "string", "description": "why the mpmath route was used"},
    "discretisations": {
        "type": "array",
        "items": {"type": "string"},
        "description": (
            "what the check approximated to compute a side (a derivative by a difference, an integral by a "
            "rule): the enclosure proves the check as computed, and the approximation's own error is no "
            "part of it"
        ),
    },
}

EVIDENCE_SCHEMA: dict = {
    "settlement": {"$ref": "#/$defs/settlement"},
    "counterexample": {"type": ["object", "null"], "properties": _CERTIFIED_BY},
    "tightness": _NUMBER
    | {
        "description": (
            "largest lhs/rhs (rhs/lhs for >=) of a relation that holds, over resolved instances, settled "
            "in high precision at the instance attaining it"
        )
    },
    "tightness_witness": _witness(),
    "tightness_excluded": {
        "type": "integer",
        "minimum": 0,
        "description": (
            "instances whose float64 ratio exceeds the figure but was rounding (not resolved above "
            "rounding sensitivity, or not confirmed in high precision)"
        ),
    },
    "nontrivial_tightness": _NUMBER
    | {
        "description": (
            "the figure over dims combinations with every size >= 2 (when the figure is attained at a "
            "size below 2)"
        )
    },
    "nontrivial_witness": _witness(),
    "float64_max_ratio": dict(_NUMBER),
    "explored": {
        "type": "object",
        "description": (
            "the whole domain (search/wide.py): magnitudes, the smallest and largest nonzero |entry| of "
            "each float input over every instance evaluated; wide_instances, the instances evaluated with "
            "unbounded inputs at magnitudes across the float range (10^-300 to 10^300, or the input's "
            "bound); wide_dropped, those float64 could not evaluate (non-finite, or the check raised), "
            "never judged; wide_candidates_dropped, their violations beyond the 4 strongest of each "
            "batch (those are settled), never judged; wide_skipped, why there were none (the check "
            "approximates a side by a discretisation, whose error is bounded only near the sampling scale)"
        ),
        "properties": {
            "magnitudes": {
                "type": "object",
                "additionalProperties": {"type": "array", "items": _NUMBER, "minItems": 2, "maxItems": 2},
            },
            "wide_instances": {"type": "integer", "minimum": 0},
            "wide_dropped": {"type": "integer", "minimum": 0},
            "wide_skipped": {"type": "string"},
            "wide_candidates_dropped": {"type": "integer", "minimum": 0},
        },
    },
    "domain": {
        "type": "array",
        "items": {"type": "string"},
        "description": "the bounded domain the claim declares, per input ('‖v‖∞ ≤ 30', 'p ∈ [0, 1]')",
    },
}
