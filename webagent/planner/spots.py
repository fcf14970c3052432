"""What the goal reader (webagent/planner/goal.py) spots in a goal: a name the page shows, mentioned at some of its
tokens, and a part of the goal between separators. Pure: no browser code."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["Mention", "Part", "Partial"]

Partial = bool | Callable[[int, int], bool]
"""Whether part of a name counts ("from sweet tooth"): always, never, or depending on where it starts and
ends (its first and last token)."""


@dataclass
class Mention:
    """A name the page shows, found at tokens ``first``…``last`` (a choice or a dish, or a restaurant)."""

    kind: str
    names: list[str]
    first: int
    last: int
    full: bool
    cost: float
    size: int

    @property
    def clear(self) -> bool:
        return len(self.names) == 1


@dataclass
class Part:
    """One part of the goal between separators: its dish, choices, quantity and leftover words."""

    tokens: list[int] = field(default_factory=list)
    dishes: list[Mention] = field(default_factory=list)
    choices: list[Mention] = field(default_factory=list)
    quantity: int | None = None
    leftover: list[int] = field(default_factory=list)
    aside: bool = False
    """Written in parentheses: "(large)", "(not the premium one)"."""
