"""`ToolResult`: one tool call's result — the narration the model reads and the typed facts the loop, the
transcript and a replay check — and what a replay compares of the page a call left (`glance`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from webagent.narration.seen import tool_message
from webagent.narration.state import PageState

__all__ = ["LOOP_REFUSALS", "ToolResult", "glance"]


@dataclass(frozen=True)
class ToolResult:
    """One tool call's result: the narration for the model and the facts the loop checks."""

    name: str
    text: str
    ok: bool
    changed: bool
    refused: bool = False
    order_id: int | None = None
    total_cents: int | None = None
    detail: str | None = None
    """The browser driver's own words when an action failed: for people (the transcript), not the model."""
    seen: dict[str, Any] | None = None
    """What the page showed after the call, typed (`webagent.narration.seen.Seen.record`): for the
    transcript, never the model."""
    refusal: str = ""
    """Why a refused call never acted, as a code: "arguments", "precondition", "repeated" (the toolbox); "denied",
    "already_ordered", "changed", "stale", "earlier_failed" (the loop's own decisions: `LOOP_REFUSALS`)."""
    page: dict[str, Any] | None = None
    """What the call left on the page, as a replay compares it (`glance`); None when it never looked."""
    answer: str | None = None
    """The person's answer to ``ask_human``, as they gave it (None: not answered)."""
    placed: int | None = None
    """The order this run already placed, which a refusal of the loop's names (the one-order rule, a
    finish that claims otherwise); the conversation keeps it typed beside the sentence."""

    def as_message(self, call_id: str) -> dict[str, Any]:
        """The conversation's tool message: the narration, with the typed facts beside it (`tool_message`)."""
        return tool_message(call_id, self.text, self.seen, self.answer, **self.kept())

    def kept(self) -> dict[str, Any]:
        """What the conversation keeps typed beside the narration, besides the page (`tool_message`)."""
        refusal = (self.refusal or "refused") if self.refused else ""
        return {"refusal": refusal, "order_id": self.order_id if self.order_id is not None else self.placed}

    def recorded(self) -> dict[str, Any]:
        """The typed facts the transcript's ``tool`` event holds beside the narration, for replay
        (webagent/runs/compare.py): never read back from the sentences."""
        return {
            "refused": self.refused,
            "refusal": self.refusal,
            "order_id": self.order_id,
            "total_cents": self.total_cents,
            "page": self.page,
            **({"seen": self.seen} if self.seen else {}),
        }


LOOP_REFUSALS = frozenset(
    {"denied", "already_ordered", "changed", "stale", "earlier_failed", "not_offered", "card_details"}
)
"""Refusals the agent loop decides before the page is touched (the gate, the one-order rule, a call outside
the turn's offer): a replay
does not run those calls again."""


def glance(state: PageState) -> dict[str, Any]:
    """What a replay compares of the page a call left: its view, restaurant, the menu's dishes with their
    prices and sold-out marks, the cart count and totals — not popups, times or order numbers, which differ
    on every replay."""
    return {
        "view": state.view,
        "restaurant": state.restaurant,
        "menu": {item.name: [item.price_cents, item.sold_out] for item in state.menu},
        "cart_count": state.cart_count,
        "cart_subtotal_cents": state.cart_subtotal_cents,
        "cart_total_cents": state.cart_total_cents,
        "summary_total_cents": state.summary_total_cents,
        "order_total_cents": state.order_total_cents,
        "order_lines": state.order_lines,
    }
