"""Certified HOLDS (issue 22 §3): a claim that holds on samples, proved at stated dims and domain."""

from .certificate import (
    CAP_SECONDS,
    attach_certificate,
    certificate_summary,
    certify_claim,
    replay_certificate,
)

__all__ = ["CAP_SECONDS", "attach_certificate", "certify_claim", "replay_certificate", "certificate_summary"]
