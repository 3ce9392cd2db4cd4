"""A certificate's scope, said exactly and counted: which dims combinations and parameter values were
proved, which the claim's dims table declares, and whether what was proved is ``trivial`` (both sides
coincide as computed, every margin literally 0 or True).

The class a certificate is counted in: ``all`` (proved, not trivially, for every parameter value the
table declares at sizes where every size is ≥ 2), ``some`` (proved for some of them, or only at a size
of 1), ``trivial``, or ``none``.  Nothing here says the statement is proved for every size it covers: a
certificate is for the stated sizes only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .plan import is_size, parameters_of

__all__ = ["scope_of", "scope_counts", "counts_line", "SCOPE_CLASSES", "scope_text"]

SCOPE_CLASSES = ("all", "some", "trivial")


def _key(params: Mapping[str, Any]) -> str:
    return repr(sorted(params.items()))


def _sizes_text(proved: list[dict[str, Any]]) -> str:
    names = sorted({k for d in proved for k, v in d.items() if is_size(v)})
    parts = []
    for name in names:
        values = sorted({d[name] for d in proved if name in d})
        parts.append(f"{name} ≤ {values[-1]} ({name} = {', '.join(map(str, values))})")
    return ", ".join(parts)


def scope_of(table: Mapping[str, Any], tried: list[dict[str, Any]]) -> dict[str, Any]:
    """The scope of a certificate whose dims entries are ``tried``."""
    proved = [t for t in tried if t["status"] == "certified"]
    trivial = [t for t in proved if all(s.get("trivial") for s in t["steps"])]
    real = [t for t in proved if t not in trivial]
    declared_params = {k: list(v) for k, v in table.items() if not any(is_size(x) for x in v)}
    combos = {_key(parameters_of(t["dims"])) for t in tried}
    proved_big = {_key(parameters_of(t["dims"])) for t in real if t["every_size_at_least_two"]}
    if not proved:
        klass = "none"
    elif not real:
        klass = "trivial"
    elif combos and combos <= proved_big and len(combos) == _declared_count(declared_params):
        klass = "all"
    else:
        klass = "some"
    return {
        "class": klass,
        "proved": [t["dims"] for t in proved],
        "trivial": [t["dims"] for t in trivial],
        "empty": [t["dims"] for t in tried if t["status"] == "empty domain"],
        "not_proved": [t["dims"] for t in tried if t["status"] not in ("certified", "empty domain")],
        "declared": {k: list(v) for k, v in table.items()},
        "parameters": {
            k: {"declared": v, "proved": [x for x in v if any(t["dims"].get(k) == x for t in real)]}
            for k, v in declared_params.items()
        },
        "text": scope_text(klass, real, declared_params),
    }


def _declared_count(params: Mapping[str, list]) -> int:
    n = 1
    for v in params.values():
        n *= len(v)
    return n


def scope_text(klass: str, real: list[dict[str, Any]], params: Mapping[str, list]) -> str:
    if klass == "none":
        return "nothing certified"
    if klass == "trivial":
        return "trivial: both sides coincide as computed at every dims certified (margin literally 0 or True)"
    sizes = _sizes_text([t["dims"] for t in real])
    head = f"certified for {sizes}" if sizes else "certified (no sizes)"
    if params:
        proved = {k: sorted({repr(t["dims"][k]) for t in real if k in t["dims"]}) for k in params}
        head += "; " + "; ".join(
            f"{k} ∈ {{{', '.join(v)}}} of {len(params[k])} declared" for k, v in proved.items()
        )
    tail = (
        " (every declared value, at sizes ≥ 2)"
        if klass == "all"
        else " (some of the declared values or sizes)"
    )
    return head + tail + "; not for every size the statement covers"


#: the key of :func:`scope_counts` that counts the certificates a safety net stopped somewhere
NET_COUNT = "safety_net_fired"


def scope_counts(certificates: Iterable[dict[str, Any] | None]) -> dict[str, int]:
    """How many certificates fall in each class (``all``, ``some``, ``trivial``), how many certified in
    all, how many were tried and not certified (by status), and for how many a safety net fired
    (``safety_net_fired``); None certificates are not counted."""
    counts = dict.fromkeys(SCOPE_CLASSES, 0) | {"certified": 0, NET_COUNT: 0}
    for cert in certificates:
        if not cert:
            continue
        counts[NET_COUNT] += bool(cert.get("safety_net_fired"))
        status = cert.get("status", "")
        klass = (cert.get("scope") or {}).get("class")
        if status == "certified" and klass in SCOPE_CLASSES:
            counts[klass] += 1
            counts["certified"] += 1
        elif status != "certified":
            key = status.replace(" ", "_")
            counts[key] = counts.get(key, 0) + 1
    return counts


def counts_line(counts: dict[str, int]) -> str:
    """The terminal's line: certified by scope, then what was not."""
    rest = ", ".join(
        f"{v} {k.replace('_', ' ')}"
        for k, v in counts.items()
        if k not in (*SCOPE_CLASSES, "certified", NET_COUNT)
    )
    fired = counts.get(NET_COUNT, 0)
    net = (
        f"; a CPU-time safety net fired for {fired} (those certificates may depend on the machine)"
        if fired
        else "; no safety net fired (every certificate was decided by the budgets of work)"
    )
    return (
        f"certificates (for the stated sizes only): {counts['certified']} certified — {counts['all']} for "
        f"every declared value at sizes ≥ 2, {counts['some']} for some, {counts['trivial']} trivial (both "
        "sides coincide as computed)" + (f"; {rest}" if rest else "") + net
    )
