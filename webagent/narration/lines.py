"""Cart and order lines, both ways: ``2 × Margherita Pizza (Large, Bacon)``.

The shop names a line with choices ``Dish (choice, choice)``, and the agent counts one ``2 × name``.
The planner (which lines the cart holds), the approval anchor (which dishes the person is buying) and
the eval's verifier all take such names apart again; this module is the one place that knows how.
A dish's own name may hold parentheses ("Pad Thai (Vegan)"), so the menu's dish names, when known,
decide where the dish ends; without them the last parenthesised group is the choices. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["LineName", "counted", "line_name", "read_counted", "read_line_name", "split_line_name"]

SHAPE = re.compile(r"(?P<dish>.+?) \((?P<choices>[^()]*)\)")
COUNTED = re.compile(r"(?P<quantity>\d+) × (?P<name>.+)")


@dataclass(frozen=True)
class LineName:
    """A line's name taken apart: the dish and the choices made for it."""

    dish: str
    choices: tuple[str, ...] = ()

    def __str__(self) -> str:
        return line_name(self.dish, self.choices)


def line_name(dish: str, choices: Sequence[str] = ()) -> str:
    """``("Margherita Pizza", ["Large", "Bacon"])`` → ``"Margherita Pizza (Large, Bacon)"``."""
    return f"{dish} ({', '.join(choices)})" if choices else dish


def split_line_name(name: str, dishes: Iterable[str]) -> LineName | None:
    """``name`` as one of ``dishes`` (the longest that fits) with its choices; None when none fits."""
    for dish in sorted(dishes, key=len, reverse=True):
        if name == dish:
            return LineName(dish)
        if name.startswith(dish + " (") and name.endswith(")"):
            return LineName(dish, tuple(part.strip() for part in name[len(dish) + 2 : -1].split(", ")))
    return None


def read_line_name(name: str, dishes: Iterable[str] = ()) -> LineName:
    """``name`` by ``dishes`` when one fits, else by its shape alone (``Dish (a, b)``), else all dish."""
    known = split_line_name(name, dishes)
    if known is not None:
        return known
    match = SHAPE.fullmatch(name)
    if match:
        return LineName(match["dish"], tuple(part.strip() for part in match["choices"].split(", ")))
    return LineName(name)


def counted(quantity: int, name: str) -> str:
    """``(2, "Margherita Pizza (Large)")`` → ``"2 × Margherita Pizza (Large)"``."""
    return f"{quantity} × {name}"


def read_counted(text: str) -> tuple[int, str] | None:
    """``"2 × Margherita Pizza (Large)"`` → ``(2, "Margherita Pizza (Large)")``; None for another shape."""
    match = COUNTED.fullmatch(text)
    return (int(match["quantity"]), match["name"]) if match else None
