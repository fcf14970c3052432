"""Match the names a person (or a model) writes to the names the page shows.

Case, accents, punctuation and plurals do not matter; a small typo is forgiven when exactly one name is
close. Anything else is reported as unknown or ambiguous with "did you mean" candidates, never guessed.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

from rapidfuzz import fuzz

__all__ = ["Match", "normalize", "resolve"]


def normalize(text: str) -> str:
    """``"Crème  Brûlée!"`` → ``"creme brulee"``: no accents, no punctuation, one space, lower case."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    plain = plain.replace("&", " and ").replace("×", "x")
    words = re.sub(r"[^a-z0-9]+", " ", plain.casefold()).split()
    return " ".join(_singular(word) for word in words)


def _singular(word: str) -> str:
    # Good enough for menus: "pizzas" → "pizza", "tacos" → "taco", "dumplings" → "dumpling".
    if len(word) > 3 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


@dataclass(frozen=True)
class Match:
    """The outcome of resolving a written name against the names on the page."""

    found: str | None
    candidates: list[str] = field(default_factory=list)

    @property
    def ambiguous(self) -> bool:
        return self.found is None and len(self.candidates) > 1


def resolve(wanted: str, names: Iterable[str], *, cutoff: float = 0.8) -> Match:
    """Find ``wanted`` among ``names``: exact (normalised), then one containing it, then one close typo."""
    choices = list(dict.fromkeys(names))
    key = normalize(wanted)
    if not key:
        return Match(None, choices[:5])
    by_key: dict[str, list[str]] = {}
    for name in choices:
        by_key.setdefault(normalize(name), []).append(name)
    if key in by_key:
        exact = by_key[key]
        return Match(exact[0]) if len(exact) == 1 else Match(None, exact)
    wanted_words = set(key.split())
    containing = [name for name in choices if wanted_words <= set(normalize(name).split())]
    if len(containing) == 1:
        return Match(containing[0])
    if len(containing) > 1:
        return Match(None, containing)
    scored = sorted(
        ((fuzz.ratio(key, normalize(name)) / 100, name) for name in choices),
        reverse=True,
    )
    close = [name for score, name in scored if score >= cutoff]
    if len(close) == 1 or (len(close) > 1 and scored[0][0] - scored[1][0] >= 0.08):
        return Match(close[0])
    if close:
        return Match(None, close[:5])
    return Match(None, [name for score, name in scored[:3] if score >= 0.5])
