"""Telling a busy shop from a refusal, by the words the page shows.

A 503 "The kitchen is busy, try again" is worth another try; "Minimum order not reached" is not. Pure
text rules, so tools, narrations and tests agree on them without a browser.
"""

from __future__ import annotations

import re

__all__ = ["BACKOFF_S", "MAX_RETRIES", "backoff", "is_transient"]

MAX_RETRIES = 8
"""Tries after the first, for an action the page says failed for a passing reason (about 6 s in all)."""
BACKOFF_S = (0.1, 0.2, 0.4, 0.8, 1.0)

_TRANSIENT = re.compile(
    r"\b(?:busy|try again|temporar(?:y|ily)|unavailable|overloaded|too many requests|timed? ?out"
    r"|unreachable|check your connection|HTTP 5\d\d|service unavailable|bad gateway|gateway timeout)\b",
    re.I,
)


def is_transient(message: str | None) -> bool:
    """Whether the page's error reads as passing (busy, unavailable) rather than a refusal."""
    return bool(message and _TRANSIENT.search(message))


def backoff(attempt: int) -> float:
    """Seconds to wait before try number ``attempt + 1`` (bounded, growing)."""
    return BACKOFF_S[min(attempt, len(BACKOFF_S) - 1)]
