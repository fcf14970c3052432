"""Amounts of money, both ways: the one formatter every sentence uses and the one parser of page text.

Narration, the planner, the approval anchor and the reports write ``$12.34`` through `money`, and read
an amount back (the shop's ``$1,234.50``, a narration's ``Total $37.10``) through `parse_cents`, so the
two can never disagree about a sign, a comma or a missing cent. Pure.
"""

from __future__ import annotations

import re

__all__ = ["money", "parse_cents"]

AMOUNT = re.compile(r"(-?)\$\s*(\d[\d,]*)(?:\.(\d{1,2}))?")


def money(cents: int | None) -> str:
    """``1234`` → ``"$12.34"``, ``-50`` → ``"-$0.50"``, None (not known) → ``"$?"``."""
    if cents is None:
        return "$?"
    sign = "-" if cents < 0 else ""
    return f"{sign}${abs(cents) // 100}.{abs(cents) % 100:02d}"


def parse_cents(text: str | None) -> int | None:
    """The first amount in ``text``: ``"$37.10"`` → 3710, ``"Total: $1,234.5"`` → 123450; None without one."""
    if not text:
        return None
    match = AMOUNT.search(text)
    if not match:
        return None
    sign, dollars, cents = match.groups()
    value = int(dollars.replace(",", "")) * 100 + int((cents or "0").ljust(2, "0"))
    return -value if sign else value
