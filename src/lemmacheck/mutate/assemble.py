"""The data a mutation run writes to ``mutation.json``: its settings, the counts, the scores and the
per-operator and per-claim tables (the format is in docs/mutation.md)."""

from __future__ import annotations

from collections.abc import Sequence

from . import classify as C
from .timecap import CAP_AVAILABLE

__all__ = ["SCHEMA_VERSION", "assemble", "counts"]

SCHEMA_VERSION = 1


def assemble(
    claims_out,
    settings,
    profile,
    ops,
    started,
    seconds,
    enumerated,
    selected,
    n_claims,
    n_mutable,
    *,
    partial: bool,
) -> dict:
    totals = counts([m for e in claims_out for m in e["mutants"]])
    done = totals["total"]
    return {
        "schema_version": SCHEMA_VERSION,
        "partial": partial,
        "run": {
            "seed": settings.seed,
            "profile": profile.name,
            "effort": settings.effort,
            "started": started,
            "seconds": round(seconds, 3),
            "time_cap": settings.time_cap,
            "cap_factor": settings.cap_factor,
            "time_cap_enforced": CAP_AVAILABLE,
            "max_per_claim": settings.max_per_claim,
            "sample": settings.sample,
            "fraction": settings.fraction,
            "operators": list(settings.operators),
            "only": list(settings.only),
            "implication_test": settings.implication,
        },
        "enumerated": enumerated,
        "selected": selected,
        "claims_selected": n_claims,
        "claims_with_mutants": n_mutable,
        "counts": totals,
        "score": C.score(totals),
        "score_true_claims": C.score(
            counts([m for e in claims_out if e["baseline"]["verdict"] != "REFUTED" for m in e["mutants"]])
        ),
        "seconds_per_mutant": round(seconds / max(done, 1), 3),
        "operators": [
            {
                "name": op.name,
                "summary": op.summary,
                "counts": counts([m for e in claims_out for m in e["mutants"] if m["operator"] == op.name]),
            }
            for op in ops
        ],
        "claims": claims_out,
    }


def counts(mutants: Sequence[dict]) -> dict[str, int]:
    out = {s: 0 for s in C.STATUSES}
    for m in mutants:
        out[m["status"]] += 1
    out["total"] = len(mutants)
    return out
