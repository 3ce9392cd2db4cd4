"""Certified HOLDS (issue 22 §3, issue 33): a claim that holds on samples, proved at stated dims and
domain, with its scope said exactly and a replay that re-derives what it must prove from the claim."""

from .certificate import SAFETY_SECONDS, attach_certificate, certificate_summary, certify_claim
from .replay import replay_certificate
from .scope import scope_counts

__all__ = [
    "SAFETY_SECONDS",
    "attach_certificate",
    "certify_claim",
    "replay_certificate",
    "certificate_summary",
    "scope_counts",
]
