"""What a replay compares, and what it only notes — pure functions over recorded and replayed calls.

What matters is each call's result as typed facts — whether it succeeded or was refused, the order it
placed and its total, and what it left on the page: the view, the restaurant, the cart's count and totals
(`webagent.tools.toolbox.ToolResult.recorded`, written beside the narration in the transcript's ``tool``
event) — and the run's outcome (an order placed or not, its total and lines as the shop showed them, from
the ``order_result`` event). No decision reads our own sentences back: a result worded otherwise with the
same facts is a note. Order numbers and times of day are not compared. Popups that came in one run and not
in the other, and a shop that was busy in one only, are clutter: notes.

A transcript recorded before those typed facts existed is compared as it was then: by the tool's own lines
(`webagent.narration.narrate.read_narration`'s ``said``), times and order numbers masked.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from webagent.narration.money import money
from webagent.narration.narrate import quote, read_narration
from webagent.narration.said import read_placed

__all__ = ["FACTS", "Order", "StepComparison", "compare_step", "facts", "masked"]

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


FACTS = ("ok", "refused", "refusal", "total_cents", "page")
"""The typed facts of a call compared by a replay (with whether it placed an order, not its number)."""


def facts(fields: dict[str, Any]) -> dict[str, Any] | None:
    """A recorded ``tool`` event's (or a replayed result's) typed facts; None for an event recorded before
    they were (it has no ``page`` key)."""
    if "page" not in fields:
        return None
    return {**{key: fields.get(key) for key in FACTS}, "placed": fields.get("order_id") is not None}


def compare_step(
    expected: str, got: str, then_facts: dict[str, Any] | None = None, now_facts: dict[str, Any] | None = None
) -> StepComparison:
    """Compare two results of one call: a divergence when their typed facts differ (``then_facts``,
    ``now_facts``: `facts`), a note when only their wording does; for a call recorded without typed facts,
    a divergence when their results' lines differ. Notes for the clutter."""
    then, now = read_narration(expected), read_narration(got)
    said_then, said_now = "\n".join(then.said), "\n".join(now.said)
    worded = masked(said_then) != masked(said_now)
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
    if then_facts is None or now_facts is None:
        return StepComparison(said_then, said_now, worded, tuple(notes))
    diverged = then_facts != now_facts
    if worded and not diverged:
        notes.append(f"the result reads otherwise, with the same facts: {quote(said_now, 200)}")
    return StepComparison(said_then, said_now, diverged, tuple(notes))


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
        """The order one call placed, for a transcript recorded before the ``order_result`` event held its
        lines: its number and total as the tool reported them, its lines read from `place_order`'s result
        sentence (a generic press has none)."""
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
