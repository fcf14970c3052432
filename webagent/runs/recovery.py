"""Durable runs: what is written down before each page call, and how an interrupted run goes on.

A run may be killed at any moment — SIGKILL, a power cut, a closed laptop. Two things make that safe:

1. **The journal.** Every page call passes through `Journal`, which saves the checkpoint *before* the
   call acts (which call, with what arguments, how many items the cart held) and again as soon as it
   returns (its narration). Before `place_order` it also saves the browser's storage state — the
   shop's session cookie — and `Controls` records the order's intent (checkout token, total) and,
   after, its result.
2. **Reconciliation.** ``webagent resume`` of a run that was interrupted (its checkpoint still says
   ``running``) reopens the run's own shop session and asks the shop, through the page as a person
   would, whether the order exists: the order history of that session. A run places at most one
   order, and the session is the run's own, so an order there is this run's: it is reported — order
   id and total as the confirmation page shows them — and the run ends ``ordered``. Otherwise nothing
   was ordered, and the run goes on from its checkpoint: the interrupted turn's calls are answered
   from what the page shows, or taken back when they cannot have had any effect, and the model is
   told that the run was interrupted and the page reloaded.

Never a second order: the order history is read before anything can be ordered again, and the shop
itself places at most one order per checkout token.

Only the demo shop's own checkout has an order history to ask. A run that pressed a consequential
control on any other page (`Checkpoint.spent`, `unknown_spend`) is never sent looking for the demo shop's
pages there: a press the ledger holds ends the run ``paid``; one whose result is unknown ends it
``failed``, saying it may have paid and was not pressed again (`off_the_shop`).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import urlsplit

from webagent.browser.cards import CardField
from webagent.agent.checkpoint import Checkpoint, Intent, OrderIntent, PlacedOrder, RunFolder
from webagent.agent.result import RunResult
from webagent.errors import RunError, ShopUnreachable
from webagent.narration.money import money
from webagent.narration.narrate import Narration, narrate, quote
from webagent.narration.seen import tool_message
from webagent.narration.state import PageState
from webagent.tools.base import Args
from webagent.tools.consequence import Consequence
from webagent.tools.toolbox import Toolbox, ToolResult

__all__ = [
    "CART_CALLS",
    "Journal",
    "end_ordered",
    "find_order",
    "load_page",
    "off_the_shop",
    "on_origin",
    "reconcile",
    "resume_note",
    "resume_path",
    "settle_interrupted_turn",
    "true_to_the_shop",
    "unknown_spend",
]

CART_CALLS = frozenset({"add_to_cart", "change_quantity", "remove_from_cart", "answer_dialog"})
"""Calls that change the shop's cart (kept on the server, so a reload does not undo them); `answer_dialog`
does another call again, which may be one of them."""

LOAD_ATTEMPTS = 4
"""Page loads tried while the shop answers with an error (it may be busy) before giving up."""


class Journal:
    """A `ToolRunner` that checkpoints each page call before it acts and as soon as it returns."""

    def __init__(self, toolbox: Toolbox, state: Checkpoint, folder: RunFolder) -> None:
        self.toolbox = toolbox
        self.checkpoint = state
        self.folder = folder

    @property
    def schemas(self) -> list[dict[str, Any]]:
        return self.toolbox.schemas

    async def offered(self, *, unions: bool = False, state: PageState | None = None) -> list[dict[str, Any]]:
        return await self.toolbox.offered(unions=unions, state=state)

    async def page_schemas(self) -> list[dict[str, Any]]:
        return await self.toolbox.page_schemas()

    def parse(self, name: str, arguments: str | dict[str, Any]) -> Args | str:
        return self.toolbox.parse(name, arguments)

    async def state(self) -> PageState:
        return await self.toolbox.state()

    async def is_consequential(self, name: str, arguments: str | dict[str, Any]) -> bool:
        return await self.toolbox.is_consequential(name, arguments)

    async def judged(self, name: str, arguments: str | dict[str, Any]) -> Consequence:
        return await self.toolbox.judged(name, arguments)

    async def card_fields(self) -> list[CardField]:
        return await self.toolbox.card_fields()

    async def enter_card(self, fields: list[CardField], values: dict[int, str]) -> list[str]:
        return await self.toolbox.enter_card(fields, values)

    async def clear_card(self) -> None:
        await self.toolbox.clear_card()

    async def call(self, name: str, arguments: str | dict[str, Any]) -> ToolResult:
        """Record the intent, run the call, record its result: a kill at any point leaves a clear record."""
        state, session = self.checkpoint, self.toolbox.session
        text = arguments if isinstance(arguments, str) else json.dumps(arguments)
        cart = (await self.toolbox.state()).cart_count if name in CART_CALLS else None
        if (await self.toolbox.judged(name, arguments)).consequential:  # judged once, by the loop
            # The session cookie: a resumed run must look at *this* session's order history.
            state.storage_state = await session.storage_state()
        state.in_flight = Intent(
            call_id=_running_call_id(state, name), name=name, arguments=text, cart_count=cart
        )
        state.url = session.secrets.hide(session.page.url)
        self.folder.save(state)
        result = await self.toolbox.call(name, arguments)
        update = {"result": result.text, "seen": result.seen, "kept": result.kept()}
        state.in_flight = state.in_flight.model_copy(update=update)
        state.url = session.secrets.hide(session.page.url)  # a GET form may have put a card into it
        self.folder.save(state)
        return result


def _running_call_id(state: Checkpoint, name: str) -> str | None:
    """The id of the call being run: the first unanswered call of that name in the latest turn."""
    turn = _last_turn(state.messages)
    if turn is None:
        return None
    answered = _answered(state.messages[turn + 1 :])
    return next(
        (
            call["id"]
            for call in state.messages[turn].get("tool_calls") or []
            if call["id"] not in answered and call["function"]["name"] == name
        ),
        None,
    )


def _last_turn(messages: list[dict[str, Any]]) -> int | None:
    return next((i for i in range(len(messages) - 1, -1, -1) if messages[i].get("role") == "assistant"), None)


def _answered(messages: list[dict[str, Any]]) -> set[str]:
    return {str(m.get("tool_call_id")) for m in messages if m.get("role") == "tool"}


# -- going on after an interruption (pure) ----------------------------------------------------------


def settle_interrupted_turn(
    messages: list[dict[str, Any]], intent: Intent | None, cart_count: int
) -> list[str]:
    """Answer or take back each unanswered call of the latest turn, in place; returns the calls taken back.

    Calls run in order, so everything after the call in flight never started: taken back. The call in
    flight is answered with its recorded result when it returned before the kill; a cart call is
    answered from the cart (``cart_count`` now against the count its intent recorded) when the cart
    shows it took effect; anything else in flight is taken back — the reload undid whatever it did on
    the page (the order, the one thing a reload cannot undo, was ruled out by reconciliation).
    """
    turn = _last_turn(messages)
    if turn is None or not messages[turn].get("tool_calls"):
        return []
    answered = _answered(messages[turn + 1 :])
    kept: list[dict[str, Any]] = []
    taken_back: list[str] = []
    stopped = False
    for call in messages[turn]["tool_calls"]:
        if call["id"] in answered:
            kept.append(call)
            continue
        answer = None
        if not stopped and intent is not None and intent.call_id == call["id"]:
            answer = intent.result if intent.result is not None else cart_effect(intent, cart_count)
        stopped = True
        if answer is None:
            taken_back.append(call["function"]["name"])
            continue
        kept.append(call)
        returned = intent if intent is not None and intent.call_id == call["id"] and intent.result else None
        shown, facts = (returned.seen, returned.kept) if returned else (None, {})
        messages.append(tool_message(call["id"], answer, shown, **facts))
    if kept:
        messages[turn]["tool_calls"] = kept
    elif messages[turn].get("content"):
        del messages[turn]["tool_calls"]
    else:  # nothing left to say: the turn goes (an assistant message needs content or calls)
        del messages[turn]
    return taken_back


def cart_effect(intent: Intent, cart_count: int) -> str | None:
    """What a cart call in flight did, as the cart shows it now; None when it did nothing."""
    if intent.name not in CART_CALLS or intent.cart_count is None or cart_count == intent.cart_count:
        return None
    before, after = intent.cart_count, cart_count
    went = f"the cart went from {before} to {after} item{'s' if after != 1 else ''}"
    if intent.name == "add_to_cart":
        try:
            args = json.loads(intent.arguments)
        except json.JSONDecodeError:
            args = {}
        quantity, dish = args.get("quantity", 1), str(args.get("dish", "?"))
        if isinstance(quantity, int) and after - before == quantity:
            return f"Added {quantity} × {quote(dish, 60)} — {went} before the run was interrupted."
    return f"{intent.name} took effect before the run was interrupted: {went}."


def resume_note(taken_back: list[str], page: PageState, breadcrumbs: list[str], possible: list[str]) -> str:
    """The user message that tells the model what happened while it was away; ``possible``: the site's
    next steps on ``page``."""
    again = (
        f" These calls of your last turn did not run: {', '.join(taken_back)}."
        if taken_back
        else " Every call of your last turn has its result above."
    )
    note = (
        "The run was interrupted (its process stopped) and has been resumed; the page was reloaded."
        f"{again} The shop's order history for this session has no order: nothing has been ordered yet."
        " Go on from the page as it is now."
    )
    # The page after a blank line, as a person's message carries it ("Page now."), so a reader of the
    # conversation reads the cart and the view from it and not from a page the interruption changed.
    seen = narrate(Narration(said="Page now.", after=page, breadcrumbs=breadcrumbs, possible=possible))
    return f"{note}\n\n{seen}"


# -- asking the shop, through the page --------------------------------------------------------------


async def load_page(toolbox: Toolbox, path: str, *, site_view: bool = True) -> PageState:
    """Open ``path`` (on the shop's origin) in the run's page until it shows no error (the shop may be
    busy); bounded. With ``site_view`` only a view the site knows will do (the shop's order history);
    without, a page that is not the site's ("unknown") is taken as it is (a run on any page, reopened)."""
    page = PageState()
    for attempt in range(LOAD_ATTEMPTS):
        if attempt:
            await asyncio.sleep(0.5 * 2 ** (attempt - 1))
        await toolbox.session.goto(on_origin(toolbox.session.shop_url, path))
        page = await toolbox.state()
        if not page.errors and page.view != "loading" and (page.view != "unknown" or not site_view):
            return page
    shown = "; ".join(page.errors) or f"the page stayed at {page.view!r}"
    raise ShopUnreachable(f"the shop did not show {path} after {LOAD_ATTEMPTS} tries: {shown}")


async def find_order(toolbox: Toolbox, state: Checkpoint, folder: RunFolder) -> PlacedOrder | None:
    """This run's order as the shop shows it (order history, then its confirmation page), or None.

    The session is the run's own and a run places at most one order, so an order in its history is
    this run's. `ShopUnreachable` when the shop cannot say (then nothing may be ordered again).
    """
    history = await load_page(toolbox, toolbox.site.order_history_path())
    folder.record(
        "reconciled",
        orders=history.orders,
        order_intent=state.order_intent.model_dump() if state.order_intent else None,
        in_flight=state.in_flight.name if state.in_flight else None,
    )
    if not history.orders:
        return None
    known = {placed.order_id for placed in state.placed}
    # Newest first: without a recorded one, the oldest is the run's (a second would be a bug to see).
    order_id = next((number for number in history.orders if number in known), history.orders[-1])
    confirmation = await load_page(toolbox, toolbox.site.order_history_path(order_id))
    total = confirmation.order_total_cents if confirmation.order_number == order_id else None
    order = PlacedOrder(order_id=order_id, total_cents=total)
    if order_id not in known:
        state.placed.append(order)
    return order


def end_ordered(state: Checkpoint, folder: RunFolder, order: PlacedOrder, message: str) -> RunResult:
    """Close the run out as ``ordered`` with the order the shop confirmed."""
    result = state.close(
        state.result_of("ordered", message, str(folder.path), order.order_id, order.total_cents)
    )
    folder.save(state)
    folder.record("finished", **result.model_dump(exclude={"run_dir"}))
    return result


async def reconcile(toolbox: Toolbox, state: Checkpoint, folder: RunFolder) -> RunResult | None:
    """Resuming an interrupted run: when it ordered or paid, end the run reporting it; else None (go on).

    Only the demo shop's checkout has an order history to ask, and it is asked only when that checkout
    was pressed (`Checkpoint.order_attempted`). A run interrupted around a consequential press on any other
    page is never pressed again: a press whose result is unknown ends the run ``failed``, one the spend
    ledger holds ends it ``paid`` (`off_the_shop`)."""
    unknown = unknown_spend(state)
    if unknown is not None:
        folder.record("reconciled", order_intent=unknown.model_dump(), spend="unknown")
        return _close(state, folder, off_the_shop(state, "", str(folder.path)))
    if state.order_attempted or state.placed:
        order = await find_order(toolbox, state, folder)
        if order is not None:
            message = (
                f"Order #{order.order_id} ({money(order.total_cents)}) was placed before the run was "
                "interrupted; the shop's order history confirms it. Nothing was ordered again."
            )
            return end_ordered(state, folder, order, message)
    ended = off_the_shop(
        state, "The run was interrupted after that; nothing was pressed again.", str(folder.path)
    )
    if ended is not None:
        folder.record("reconciled", spent=[spend.model_dump() for spend in state.spent])
        return _close(state, folder, ended)
    return None  # nothing consequential went out: there is nothing to look for, on any site


def off_the_shop(state: Checkpoint, message: str, run_dir: str) -> RunResult | None:
    """How a run that cannot go on ends when it pressed a consequential control off the demo shop's
    checkout: ``failed`` saying it may have paid when that press's result is unknown (`unknown_spend`);
    ``paid`` when the spend ledger holds a payment the page confirmed (``failed`` with "May have paid" when
    it did not confirm it); None when no such press was made. ``message`` says why the run stopped."""
    unknown = unknown_spend(state)
    if unknown is not None:
        where = f" on {unknown.origin}" if unknown.origin else ""
        may = (
            f"May have paid: {unknown.action or 'a consequential action'}{where} ({money(unknown.total_cents)}) "
            "was under way when the run stopped, and that page keeps no order history the agent can read, so "
            "whether it went through is not known. It was not pressed again: check with the site before "
            "running this again."
        )
        return state.result_of("failed", f"{may} {message}".strip(), run_dir)
    foreign = [spend for spend in state.spent if spend.order_id is None]
    if not foreign:
        return None
    return state.result_of("paid" if any(spend.ok for spend in foreign) else "failed", message, run_dir)


def _close(state: Checkpoint, folder: RunFolder, result: RunResult | None) -> RunResult | None:
    if result is None:
        return None
    state.close(result)
    folder.save(state)
    folder.record("finished", **result.model_dump(exclude={"run_dir"}))
    return result


async def true_to_the_shop(
    result: RunResult, state: Checkpoint, folder: RunFolder, toolbox: Toolbox
) -> RunResult:
    """A run that failed after a consequential press ends with what the page says, not with a guess.

    The loop ends on the model's, the browser's or the shop's failure as ``failed``. When the demo shop's
    order was confirmed — or may have been placed — before that, the result says what the shop shows;
    when a press on another page went through (the spend ledger) it ends ``paid``, and when its result is
    unknown it says it may have paid (`off_the_shop`): the demo shop's pages are never looked for there.
    """
    if result.outcome != "failed":
        return result
    if not state.order_attempted:  # (its message already says what the ledger holds: `result_of`)
        return _close(state, folder, off_the_shop(state, result.message, str(folder.path))) or result
    order = state.placed[0] if state.placed else None
    if order is None:
        try:
            order = await find_order(toolbox, state, folder)
        except RunError as error:
            # The shop cannot say now: keep the run resumable; `resume` asks the shop again.
            state.status, state.result = "running", None
            folder.save(state)
            message = (
                f"{result.message} — place_order was pressed and the shop could not be asked whether the "
                f"order exists ({error}); `webagent resume {state.run_id}` asks it again"
            )
            return result.model_copy(update={"message": message})
        if order is None:
            return result
    message = (
        f"Order #{order.order_id} was placed (the shop shows it); then the run stopped: {result.message}"
    )
    return end_ordered(state, folder, order, message)


def unknown_spend(state: Checkpoint) -> OrderIntent | None:
    """The consequential press off the demo shop's checkout (no checkout token) that the run was about
    to make when it was interrupted, and that the spend ledger does not hold; None when there is none."""
    intent = state.order_intent
    if intent is None or intent.checkout_token or not intent.action:
        return None
    if any(spend.at >= intent.at for spend in state.spent):
        return None  # it went through and was recorded
    return intent


def resume_path(state: Checkpoint) -> str:
    """Where the run's page was when the checkpoint was written (the shop may be on another port now)."""
    return urlsplit(state.url or "/").path or "/"


def on_origin(shop_url: str, path: str) -> str:
    """``path`` (a whole path, as `resume_path` gives it) on the origin of ``shop_url``: a page given by its
    URL (``https://pay.example/checkout/3``) is reopened where it was, not at that URL with the path again."""
    parts = urlsplit(shop_url)
    return f"{parts.scheme}://{parts.netloc}{path}"
