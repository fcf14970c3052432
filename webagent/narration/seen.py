"""`Seen`: what the page showed after one tool call, as a small typed record for the run's transcript.

The narration tells the model what changed, in sentences; this tells whoever judges the run afterwards
(the eval's stop reasons, webagent/evals/stop_reasons.py) what was on screen, in values: the view, the open
restaurant, the dishes its menu showed sold out, its minimum and whether the cart reached it, the cart's
lines and totals, the promo code and whether the shop took it, the dialogs, the overlay that kept the call
from acting, the error box. Nothing here is a sentence of ours; page text stays page text (names, titles).
Written once per tool event (``seen``), read back with `Seen.model_validate`.

The same record rides on the conversation's own messages (`tool_message`, `person_message`), under keys
no endpoint is sent (webagent/llm/openai_client.py keeps only the API's own): the approval anchor reads
the menus, the restaurants listed and the person's answers from there, typed, never from the sentences
narration wrote for the model (`seen_of`, `answer_of`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from webagent.narration.state import MenuItem, PageState, View

__all__ = [
    "ANSWER",
    "ORDER",
    "REFUSAL",
    "SEEN",
    "Seen",
    "answer_of",
    "order_of",
    "person_message",
    "seen",
    "seen_of",
    "tool_message",
]

SEEN = "seen"
"""The key of a message's typed `Seen` record."""
ANSWER = "answer"
"""The key of an ``ask_human`` result's answer, as the person gave it (absent: not answered)."""
REFUSAL = "refusal"
"""The key of a refused call's reason, as a code (`webagent.tools.toolbox.ToolResult.refusal`)."""
ORDER = "order_id"
"""The key of the order a call placed, or that a refusal names as the run's own."""


class Seen(BaseModel):
    """What one page state showed; unset fields were not on screen (``model_dump(exclude_defaults=True)``)."""

    model_config = ConfigDict(extra="ignore")

    view: View = "unknown"
    restaurant: str | None = None
    """The restaurant whose menu is open."""
    dishes: int | None = None
    """How many dishes the open menu listed."""
    menu: list[MenuItem] = Field(default_factory=list)
    """The open menu's dishes, with prices, sold-out marks and choices, as the page showed them."""
    sold_out: list[str] = Field(default_factory=list)
    """The dishes the open menu showed sold out."""
    min_order_cents: int | None = None
    """The open restaurant's minimum order, as its page states it."""
    min_reached: bool | None = None
    """Whether the cart's subtotal reached that minimum (known where both are shown)."""
    listed: int | None = None
    """How many restaurants the list showed."""
    restaurants: list[str] = Field(default_factory=list)
    """The restaurants the list showed, by name."""
    cart: list[tuple[str, int]] = Field(default_factory=list)
    """The cart's lines as the shop names them (choices in brackets), with their quantities."""
    subtotal_cents: int | None = None
    total_cents: int | None = None
    """What the order would cost with fees: the checkout's total, else the cart's."""
    promo_code: str | None = None
    """The code in the checkout's promo field."""
    promo_valid: bool | None = None
    """Whether the shop accepted that code (None: not tried yet)."""
    dialogs: list[str] = Field(default_factory=list)
    blocked_by: str | None = None
    """The overlay that covered the page and kept this call from acting ("" when it has no title)."""
    buttons: list[str] = Field(default_factory=list)
    """That overlay's buttons."""
    error: str | None = None
    """The shop's error box, the last message shown."""
    order: int | None = None
    """The order number a confirmation page showed."""

    def record(self) -> dict[str, Any]:
        """The JSON the transcript holds: only what was shown."""
        return {"view": self.view, **self.model_dump(exclude_defaults=True, exclude={"view"})}


def seen(state: PageState, blocked_by: str | None = None, buttons: Sequence[str] = ()) -> Seen:
    """The `Seen` record of ``state``; ``blocked_by`` and ``buttons``: the overlay that stopped the call."""
    on_menu = state.view == "restaurant"
    subtotal = state.cart_subtotal_cents if state.cart_count else None
    checkout = state.checkout
    total = state.summary_total_cents if state.view == "checkout" else None
    reached = None
    if on_menu and state.min_order_cents is not None and state.cart_count:
        reached = subtotal is not None and subtotal >= state.min_order_cents
    return Seen(
        view=state.view,
        restaurant=state.restaurant if on_menu else None,
        dishes=len(state.menu) if on_menu and state.menu else None,
        menu=list(state.menu) if on_menu else [],
        sold_out=[item.name for item in state.menu if item.sold_out] if on_menu else [],
        min_order_cents=state.min_order_cents if on_menu else None,
        min_reached=reached,
        listed=len(state.restaurants) if state.view == "restaurants" else None,
        restaurants=[card.name for card in state.restaurants] if state.view == "restaurants" else [],
        cart=[(line.name, line.quantity) for line in state.cart_lines],
        subtotal_cents=subtotal,
        total_cents=total if total is not None else (state.cart_total_cents if state.cart_count else None),
        promo_code=checkout.promo_code or None if checkout else None,
        promo_valid=checkout.promo_valid if checkout and checkout.promo_code else None,
        dialogs=list(state.dialogs),
        blocked_by=blocked_by,
        buttons=list(buttons),
        error=state.errors[-1] if state.errors else None,
        order=state.order_number if state.view == "confirmation" else None,
    )


def tool_message(
    call_id: str,
    text: str,
    shown: dict[str, Any] | None = None,
    answer: str | None = None,
    *,
    refusal: str = "",
    order_id: int | None = None,
) -> dict[str, Any]:
    """A tool result as the conversation keeps it: the narration, and beside it what the page showed (a
    `Seen.record`), for ``ask_human`` the person's answer, for a refused call why (its code), and the order
    the call placed or, refused, the run's order it names."""
    message: dict[str, Any] = {"role": "tool", "tool_call_id": call_id, "content": text}
    if shown:
        message[SEEN] = shown
    if answer is not None:
        message[ANSWER] = answer
    if refusal:
        message[REFUSAL] = refusal
    if order_id is not None:
        message[ORDER] = order_id
    return message


def person_message(text: str, state: PageState | None = None) -> dict[str, Any]:
    """The person's words (with the page's narration) and, beside them, what the page showed."""
    message: dict[str, Any] = {"role": "user", "content": text}
    if state is not None:
        message[SEEN] = seen(state).record()
    return message


def seen_of(message: dict[str, Any]) -> Seen | None:
    """The typed record a message carries, if any."""
    record = message.get(SEEN)
    return Seen.model_validate(record) if isinstance(record, dict) else None


def answer_of(message: dict[str, Any]) -> str | None:
    """The person's answer an ``ask_human`` result carries (None: none given)."""
    answer = message.get(ANSWER)
    return answer if isinstance(answer, str) else None


def order_of(message: dict[str, Any]) -> int | None:
    """The order a tool result placed, or the run's order its refusal names."""
    order = message.get(ORDER)
    return order if isinstance(order, int) and not isinstance(order, bool) else None
