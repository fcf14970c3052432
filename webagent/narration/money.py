"""Amounts of money, both ways: the one formatter every sentence uses and the one parser of page text.

Narration, the planner, the approval anchor and the reports write ``$12.34`` through `money`, and read
an amount back (the shop's ``$1,234.50``, a narration's ``Total $37.10``) through `parse_cents`, so the
two can never disagree about a sign, a comma or a missing cent. A page that is not the demo shop writes
amounts in any currency and style (``€12,50``, ``1.234,56 kr``): `amount_cents` and `total_shown` read
those, for the gate's judgement of a control (webagent/tools/consequence.py). Pure.
"""

from __future__ import annotations

import re

__all__ = ["ANY_AMOUNT", "amount_cents", "money", "parse_cents", "plain_cents", "total_shown"]

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


# -- amounts in any currency, on any page --------------------------------------------------------

_SYMBOLS = r"R\$|US\$|C\$|A\$|[$€£¥₹₩₽₺₪₫฿]|kr\b|zł"
_CODES = r"\b(?:USD|EUR|GBP|JPY|CNY|CAD|AUD|NZD|CHF|SEK|NOK|DKK|PLN|INR|BRL|MXN)\b"
_NUMBER = r"\d{1,3}(?:[.,\u00a0 ]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?"
ANY_AMOUNT = re.compile(
    rf"(?:(?:{_SYMBOLS})|{_CODES})\s?(?P<a>{_NUMBER})|(?P<b>{_NUMBER})\s?(?:(?:{_SYMBOLS})|{_CODES})",
    re.I,
)
_TOTAL_LABEL = re.compile(
    r"\b(?:grand total|order total|total due|total|amount due|amount|to pay|you pay|due today|balance due"
    r"|gesamtbetrag|gesamt|summe|montant|importe|totale)\b",
    re.I,
)


def _cents(number: str) -> int:
    """``"1,234.56"`` / ``"1.234,56"`` / ``"12,50"`` / ``"1 234"`` → cents."""
    digits = number.replace("\u00a0", " ").replace(" ", "")
    decimal = ""
    last = max(digits.rfind("."), digits.rfind(","))
    if last != -1 and len(digits) - last - 1 in (1, 2):
        digits, decimal = digits[:last], digits[last + 1 :]
    whole = int(re.sub(r"[.,]", "", digits) or "0")
    return whole * 100 + int(decimal.ljust(2, "0") or "0")


def amount_cents(text: str) -> int | None:
    """The first amount of money in ``text`` ("Pay €12,50" → 1250), or None; a bare number is none."""
    match = ANY_AMOUNT.search(text or "")
    if match is None:
        return None
    return _cents(match.group("a") or match.group("b"))


def plain_cents(value: str) -> int | None:
    """A field's value that is only a number ("50", "12,50") → cents, or None."""
    match = re.fullmatch(rf"\s*({_NUMBER})\s*", value or "")
    return _cents(match.group(1)) if match else None


def total_shown(text: str) -> int | None:
    """The largest amount labelled as a total ("Total $43.42", "Amount due: €12,50") in ``text``.

    The largest, so that a budget is checked against the most the page could charge ("Subtotal" is not
    a total; a "Sub-total" read as one is smaller than the grand total anyway).
    """
    found = []
    for label in _TOTAL_LABEL.finditer(text or ""):
        after = text[label.end() : label.end() + 40]
        match = ANY_AMOUNT.search(after)
        # The amount that follows the label, with no other number between ("Total results: 12" is none).
        if match is not None and not re.search(r"\d", after[: match.start()]):
            found.append(_cents(match.group("a") or match.group("b")))
    return max(found, default=None)
