"""What a replay compares, and what it only notes — pure functions over recorded and replayed narrations.

What matters is each call's result (the tool's own lines, `webagent.narration.narrate.read_narration`'s
``said``) and the run's outcome (an order placed or not, its total and lines as the shop showed them).
Times of day and order numbers are masked: they differ on every replay. Popups that came in one run and
not in the other, and a shop that was busy in one only, are clutter, not the outcome: they are notes.
Breadcrumbs and the ``Page:``/``Next:`` lines are not compared; what they add to a result shows in the
next call's result or in the outcome.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from webagent.narration.money import money
from webagent.narration.narrate import quote, read_narration
from webagent.narration.said import read_placed

__all__ = ["Order", "StepComparison", "compare_step", "masked"]

TIME = re.compile(r"\b\d{2}:\d{2}:\d{2}\b")
ORDER_NUMBER = re.compile(r"\b(order) #\d+", re.IGNORECASE)


def masked(text: str) -> str:
    """``text`` with what differs on every replay masked: times of day, order numbers."""
    return ORDER_NUMBER.sub(r"\1 #N", TIME.sub("HH:MM:SS", text)).strip()


@dataclass(frozen=True)
class StepComparison:
    """One call's recorded result against its replayed one."""

    expected: str
    """The recorded result (the tool's own lines), unmasked."""
    got: str
    diverged: bool
    notes: tuple[str, ...] = ()
    """Incidental differences: popups that came in one run only, a busy shop."""


def compare_step(expected: str, got: str) -> StepComparison:
    """Compare two narrations of one call: a divergence when their results differ, notes for the clutter."""
    then, now = read_narration(expected), read_narration(got)
    said_then, said_now = "\n".join(then.said), "\n".join(now.said)
    notes = []
    only_then = [label for label in then.dismissed if label not in now.dismissed]
    only_now = [label for label in now.dismissed if label not in then.dismissed]
    if only_then:
        notes.append(
            f"{_listed(only_then)} came in the recorded run only (dismissed there), not in the replay"
        )
    if only_now:
        notes.append(f"{_listed(only_now)} came in the replay only (dismissed), not in the recorded run")
    if (then.busy is None) != (now.busy is None):
        notes.append(
            f"the shop was busy in the {'recorded run' if then.busy else 'replay'} only: "
            + str(then.busy or now.busy)
        )
    return StepComparison(said_then, said_now, masked(said_then) != masked(said_now), tuple(notes))


def _listed(labels: Sequence[str]) -> str:
    return ", ".join(labels[:-1]) + " and " + labels[-1] if len(labels) > 1 else labels[0]


@dataclass(frozen=True)
class Order:
    """A run's outcome as the shop showed it: an order placed or not, its total and lines. The order
    number is shown, never compared (a replay's order gets a new one)."""

    placed: bool
    number: int | None = None
    total_cents: int | None = None
    lines: tuple[str, ...] = ()

    @classmethod
    def from_result(cls, narration: str, order_id: int | None, total_cents: int | None) -> Order:
        """The order one call placed: its number and total as the tool reported them, its lines as the
        confirmation page showed them (`place_order`'s result sentence; a generic press has none)."""
        if order_id is None:
            return cls(placed=False)
        placed = read_placed(read_narration(narration).said[0])
        return cls(True, order_id, total_cents, placed.lines if placed else ())

    def same_as(self, other: Order) -> bool:
        return (self.placed, self.total_cents, self.lines) == (other.placed, other.total_cents, other.lines)

    def sentence(self) -> str:
        if not self.placed:
            return "no order placed"
        listed = ": " + ", ".join(quote(line) for line in self.lines) if self.lines else ""
        return f"order #{self.number} placed, total {money(self.total_cents)}{listed}"
