"""The calls the loop settles itself rather than the page: `place_order` — and any call the toolbox
judges consequential, on any page (a press of "Pay $43.42") — behind the approval gate and the budget,
`ask_human`, and `finish`'s integrity check — plus settling them when a paused run resumes.

They stop the loop through two exceptions that say what happens next: `Paused` (a person must act;
the checkpoint holds the pending call) and `RunEnded` (the run is over, with its outcome).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from webagent.agent.anchor import (
    asked_on_menu,
    check_cart,
    in_cart,
    requests_and_menu,
    stated_details,
)
from webagent.agent.approval import ApprovalGate, CardEntry, Decision, HumanChannel, already_spent, joined
from webagent.agent.checkpoint import (
    ActionRecord,
    Checkpoint,
    OrderIntent,
    PendingCall,
    PlacedOrder,
    RunFolder,
    Spend,
)
from webagent.agent.claims import refused_on_page, unsent_form
from webagent.agent.offer import outside_offer, sized
from webagent.agent.result import Outcome
from webagent.agent.stated import answers_in, held_to_order, held_to_person, read_whole
from webagent.agent.understand import Understanding
from webagent.errors import BrowserClosed
from webagent.llm.protocol import Model, ToolCall
from webagent.narration.money import money
from webagent.narration.narrate import cart_listing, quote
from webagent.narration.state import CartLine, CheckoutForm
from webagent.planner.reading import ModelReader
from webagent.planner.transcript import Transcript
from webagent.tools import AskHuman, Finish
from webagent.tools.toolbox import ToolResult, ToolRunner

__all__ = ["Controls", "Paused", "RunEnded", "origin_of"]


class RunEnded(Exception):
    """Ends the run; carries its outcome."""

    def __init__(self, outcome: Outcome, message: str, order_id: int | None = None, total: int | None = None):
        super().__init__(message)
        self.outcome, self.message, self.order_id, self.total_cents = outcome, message, order_id, total


class Paused(Exception):
    """The run waits for a person; the checkpoint holds the pending call."""


@dataclass(frozen=True)
class _About:
    """What an approval is asked for: the order (or generic action), its total, the cart lines."""

    summary: str
    question: str
    total: int | None
    token: str
    """The checkout token ('' off the demo shop's checkout): a different one on resume means a changed cart."""
    lines: list[CartLine]
    action: str = ""
    """A generic action's words ('pressing "Pay $43.42"'); empty for the checkout's order."""
    why: str = ""
    form: CheckoutForm | None = None
    """The checkout form's delivery details, for the anchor; None for a generic action."""
    record: ActionRecord = field(default_factory=lambda: ActionRecord(action=""))
    """What an approval of it approves, once."""

    @property
    def generic(self) -> bool:
        return bool(self.action)


def origin_of(url: str) -> str:
    """``scheme://host:port`` of ``url`` ('' for none): where an approval and a spend belong."""
    parts = urlsplit(url or "")
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""


def _same_as_asked(about: _About, pending: PendingCall, *, embedded: bool) -> bool:
    """Whether the action on the page now is the one a paused run asked a person about.

    The origin counts, except for the ``embedded`` demo shop's own checkout (both records hold its checkout
    token): that shop comes back on another port when the run resumes. A yes given on one site approves
    nothing on another, nor on another port of it."""
    if pending.record is not None:
        now, then = about.record, pending.record
        if embedded and now.token and then.token:
            now, then = now.model_copy(update={"origin": ""}), then.model_copy(update={"origin": ""})
        return now.same_as(then)
    return about.token == pending.checkout_token  # a checkpoint written before records


def refused(name: str, text: str, refusal: str, placed: int | None = None) -> ToolResult:
    """A call the loop refused before the page was touched; ``refusal`` says why, as a code
    (`ToolResult.refusal`: the ones in `LOOP_REFUSALS` are never run again by a replay); ``placed``: the
    run's order the refusal names."""
    return ToolResult(name, text, ok=False, changed=False, refused=True, refusal=refusal, placed=placed)


def answered(answer: str | None) -> ToolResult:
    said = f"The person answered: {quote(answer or '', 500)}"
    return ToolResult("ask_human", said, ok=True, changed=False, answer=answer)


@dataclass
class Controls:
    """Approval, questions and finishing for one run, recorded in its checkpoint."""

    toolbox: ToolRunner
    gate: ApprovalGate
    human: HumanChannel
    state: Checkpoint
    folder: RunFolder
    emit: Callable[..., None]
    reader: ModelReader | None = None
    """Reads the person's words where the rules leave them in doubt (webagent/llm/reader.py)."""
    understanding: Understanding = field(init=False)
    """The run's reading of the person's words, the rules' and a model's (webagent/agent/understand.py)."""
    offer: list[dict[str, Any]] | None = field(init=False, default=None)
    """The tools a narrowed model was offered this turn; a call outside them is refused (`outside`)."""
    _narrowed_for: Model | None = field(init=False, default=None)
    _said: dict[str, str] = field(init=False, default_factory=dict)
    """The words a conversation's request ended with, in full, by the finish call made of them (`words`)."""

    def __post_init__(self) -> None:
        self.understanding = Understanding(self.reader, self.state, self.emit)

    async def _understood(self) -> Understanding:
        """The understanding, with the requests in doubt on the menu seen last read by the model first."""
        config = self.state.config
        requests, restaurants, menu = requests_and_menu(config.goal, config.order, self.state.messages)
        if menu is not None:
            await self.understanding.prepare(requests, restaurants, menu)
        return self.understanding

    async def ask_human(self, call: ToolCall) -> ToolResult:
        ask = self.toolbox.parse("ask_human", call.arguments)
        if not isinstance(ask, AskHuman):
            return await self.toolbox.call("ask_human", call.arguments)  # narrates the bad arguments
        self.state.asked_human = True
        await self._understood()  # what the words were read as, in the transcript before the question
        answer = await self.human.answer(ask)
        self.state.answers_left = list(self.human.answers)
        if answer is None:
            self.pause(PendingCall(kind="answer", call=call, question=ask.question, choices=ask.choices))
        return answered(answer)

    async def place_order(self, call: ToolCall) -> ToolResult:
        """The approval gate, then the page: approve, deny, or pause the run until a person decides."""
        return await self._approve_then_place(call, pending=None)

    async def settle(self, pending: PendingCall) -> ToolResult:
        """The result of a call a run paused on, now that a person may have acted."""
        if pending.kind == "approval":
            return await self._approve_then_place(pending.call, pending=pending)
        kind = "multiple_choice" if pending.choices else "free_text"
        answer = await self.human.answer(
            AskHuman(question=pending.question, choices=pending.choices, format=kind)
        )
        self.state.answers_left = list(self.human.answers)
        if answer is None:
            self.pause(pending)
        return answered(answer)

    async def tools_for(self, model: Model) -> list[dict[str, Any]]:
        """The tool schemas to send ``model`` this turn: all of them, or for a small model
        (``narrow_tools``) only what the page allows now, held to its choices and to the delivery
        details and dishes the person stated, with the cart as it is (webagent/agent/stated.py)."""
        if not getattr(model, "narrow_tools", False):
            pages = await self.toolbox.page_schemas() if getattr(model, "page_tools", True) else []
            return [*self.toolbox.schemas, *pages]
        declare = getattr(model, "declare", None)  # the tool-calling path sends every tool, every turn
        if declare is not None:
            declare(self.toolbox.schemas)
        self.offer = sized(await self._narrowed(model), getattr(model, "context_tokens", None))
        self._narrowed_for = model
        return self.offer

    async def outside(self, call: ToolCall, first: bool) -> ToolResult | None:
        """A call a narrowed model is not offered, refused before it runs (webagent/agent/offer.py): the
        turn's ``first`` call against what the turn offered, a later one against what the page offers after
        the calls before it ("open_restaurant, then add_to_cart"). None for one it is offered, or when the
        model is offered everything."""
        if self.offer is None or self._narrowed_for is None:
            return None
        if not first:
            await self.tools_for(self._narrowed_for)
        why = outside_offer(call.name, call.arguments, self.offer)
        return None if why is None else refused(call.name, why, "not_offered")

    async def _narrowed(self, model: Model) -> list[dict[str, Any]]:
        unions = getattr(model, "steps", "tools") == "structured"
        page = await self.toolbox.state()
        offered = await self.toolbox.offered(unions=unions, state=page)
        if self.state.placed:  # the shop showed the order: what is left is to say so
            return held_to_order(offered, self.state.placed[0].order_id, self.state.placed[0].confirmed())
        config = self.state.config
        messages = self.state.messages
        # The cart is held to a run's goal or order file; in a conversation each message is its own request.
        understand = await self._understood()
        asked = (
            asked_on_menu(config.goal, config.order, messages, understand)
            if config.goal or config.order
            else {}
        )
        items = {dish: quantity for dish, (quantity, _) in asked.items()}
        transcript = Transcript(messages)
        menus = transcript.menus_seen() if items else []
        seen = transcript.restaurants_seen()
        # Nothing left to ask: the goal read whole, no page dialog open, no payment tried and failed, the
        # cart within the budget (else the person may need asking: `held_to_person`'s ``settled``).
        over = config.budget_cents is not None and (page.cart_total_cents or 0) > config.budget_cents
        calm = not page.dialogs and not self.state.order_attempted and not self.state.spent and not over
        whole = calm and bool(menus) and read_whole(config.goal, config.order, understand, menus[0], seen)
        return held_to_person(
            offered,
            stated_details(config.goal, config.order, messages, config.profile),
            items,
            in_cart(page.cart_lines, messages) if items else None,
            unions=unions,
            form=page.checkout,
            choices={dish: named for dish, (_, named) in asked.items() if named},
            answers=answers_in(messages),
            settled=whole,
            here=page.restaurant if page.view == "restaurant" else None,
            on_sale=[item.name for item in page.menu if not item.sold_out],
        )

    async def _approve_then_place(self, call: ToolCall, pending: PendingCall | None) -> ToolResult:
        await self._adopt_late_confirmation()
        if pending is not None and call.name == "answer_dialog":  # the question went with the stopped page
            return refused(
                call.name,
                "Not answered: the page's question was lost when the run stopped. Nothing was done; do the "
                "action that asks it again (it is answered Cancel), then answer_dialog.",
                "changed",
            )
        if self.state.placed:
            order_id = self.state.placed[0].order_id
            return refused(
                call.name,
                f"Refused: order #{order_id} was already placed in this run; a run "
                "places at most one order. Call finish.",
                "already_ordered",
                order_id,
            )
        about = await self._about(call)
        if about is None:  # place_order away from the checkout: the site's graph narrates the way there
            return await self.toolbox.call(call.name, call.arguments)
        config = self.state.config
        goal = check_cart(
            config.goal,
            config.order,
            self.state.messages,
            about.lines,
            about.form,
            config.profile,
            self.state.person_added,
            await self._understood(),
        )
        concern = joined(already_spent(self.state.spent), goal.concern(about.total, self.gate.budget_cents))
        question = about.question + (f"\nNote: {concern}." if concern else "")
        # On resume the page was reloaded and refilled: what is approved must be what was asked about.
        embedded = self.state.config.shop_url is None  # the run's own shop, started on resume
        if pending is not None and not _same_as_asked(about, pending, embedded=embedded):
            self.gate.granted = self.gate.declined = None  # the yes (or no) was for that action alone
            return refused(
                call.name,
                "Not placed: the order changed since approval was asked (it may "
                "already have been ordered — see view_order_history). Nothing was ordered.",
                "changed",
            )
        if pending is not None:  # the person's word on resume binds the action as the page shows it now
            self.gate.granted = about.record if self.gate.granted is not None else None
            self.gate.declined = about.record if self.gate.declined is not None else None
        verdict = await self.gate.decide(
            about.summary, about.total, goal, record=about.record, spent=self.state.spent
        )
        if verdict.decision is Decision.APPROVE and not verdict.reason.startswith("approved automatically"):
            # A person's yes (or an automatic one) took time: it covers the action as it was asked
            # about, so the page is read again and must still show that very action.
            now = await self._about(call)
            if now is None or not now.record.same_as(about.record):
                self.emit("approval_stale", action=about.record.action, asked=about.record.model_dump())
                return refused(
                    call.name,
                    f"Not placed: {about.record.action} changed while it was being approved "
                    "(the cart, total, control or details are not what was approved). Nothing was done; "
                    "call again to be asked about it as it is now.",
                    "stale",
                )
        lines = [{"name": line.name, "quantity": line.quantity} for line in about.lines]
        self.emit(
            "approval",
            decision=verdict.decision.value,
            reason=verdict.reason,
            lines=lines,
            total_cents=about.total,
            origin=about.record.origin,
            **({"action": about.action, "why": about.why} if about.generic else {}),
        )
        if verdict.decision is Decision.PAUSE:
            self.pause(
                PendingCall(
                    kind="approval",
                    call=call,
                    total_cents=about.total,
                    question=question,
                    checkout_token=about.token,
                    record=about.record,
                )
            )
        if verdict.decision is Decision.DENY:
            if about.generic:
                return refused(
                    call.name,
                    f"Not placed: {verdict.reason}. Nothing was pressed: {about.action} needs approval "
                    f"({about.why}).",
                    "denied",
                )
            return refused(call.name, f"Not placed: {verdict.reason}. Nothing was ordered.", "denied")
        card = await self._card_entered(call, about) if about.generic else False
        if isinstance(card, ToolResult):
            return card
        # The intent first, then the button, then the result: a run killed in between is reconciled
        # with the shop's order history on resume (recovery.py) instead of ordering again. Only the demo
        # shop's own checkout has that history; a press elsewhere is reconciled by the ledger alone.
        record = about.record
        self.state.order_attempted = self.state.order_attempted or not about.generic
        self.state.order_intent = OrderIntent(
            checkout_token=about.token, total_cents=about.total, origin=record.origin, action=record.action
        )
        self.folder.save(self.state)  # on disk before it is announced, and before the press
        self.emit("order_intent", checkout_token=about.token, total_cents=about.total, origin=record.origin)
        result = await self.toolbox.call(call.name, call.arguments)
        if card and (result.refused or not result.ok):
            await (
                self.toolbox.clear_card()
            )  # the person's card was for this payment, which did not go through
        if result.order_id is not None:
            order = PlacedOrder(order_id=result.order_id, total_cents=result.total_cents)
            self.state.placed.append(order)
            self.folder.save(self.state)  # at once: a crash after this must not lose the order
            order.lines = (await self.toolbox.state()).order_lines  # the shop's words, for summaries
        if result.refused and about.generic:
            self.state.order_intent = None  # it never reached the page: there is nothing to reconcile
        said = None
        if about.generic and result.ok and not result.refused:  # "Your card was declined": not paid
            with suppress(BrowserClosed):  # a page gone says nothing; the spend is recorded all the same
                said = refused_on_page(await self.toolbox.state())
        if not result.refused:  # it reached the page: whatever it says, it may have spent
            self.state.spent.append(
                Spend(
                    origin=record.origin,
                    action=record.action,
                    control=record.control,
                    total_cents=result.total_cents if result.order_id is not None else about.total,
                    order_id=result.order_id,
                    approved=verdict.reason,
                    ok=result.ok and said is None,
                    said=said,
                )
            )
        self.folder.save(self.state)
        placed = self.state.placed[-1].lines if result.order_id is not None else []  # typed, for replay
        self.emit(
            "order_result",
            order_id=result.order_id,
            total_cents=result.total_cents,
            ok=result.ok,
            lines=placed,
        )
        return result

    async def _about(self, call: ToolCall) -> _About | None:
        """What approving ``call`` would approve: the checkout's order, or on any other page the
        generic action (pressing "Pay $43.42") and the total it would commit; None for `place_order` away
        from the checkout (it cannot order there)."""
        page = await self.toolbox.state()
        form = page.checkout
        origin = origin_of(page.url)
        if page.view == "checkout" and form is not None:
            total = page.summary_total_cents
            summary = (
                f"{cart_listing(page.cart_lines)}\nDeliver to {form.name}, {form.address}, "
                f"{form.delivery_slot}, paying {form.payment_method}"
            )
            extras = [
                f"tip {form.tip}" if form.tip else "",
                f"promo code {form.promo_code}" if form.promo_code else "",
            ]
            if any(extras):
                summary += "; " + ", ".join(extra for extra in extras if extra)
            question = f"Approve the order of {money(total)}?\n{summary}"
            details = {
                key: str(getattr(form, key))
                for key in (
                    "name",
                    "address",
                    "phone",
                    "delivery_slot",
                    "payment_method",
                    "tip",
                    "promo_code",
                )
            }
            record = ActionRecord(
                origin=origin,
                action="placing the order",
                lines=[f"{line.quantity} × {line.name}" for line in page.cart_lines],
                total_cents=total,
                details=details,
                token=form.checkout_token,
            )
            return _About(
                summary, question, total, form.checkout_token, page.cart_lines, form=form, record=record
            )
        judged = await self.toolbox.judged(call.name, call.arguments)
        if judged.typed:
            return None
        # The amount the control names, else the total its form or page shows; unknown stays unknown
        # (a budget then refuses it: webagent/agent/approval.py).
        total = judged.total_cents
        where = f" on {page.url}" if page.url else ""
        summary = f"{judged.action[:1].upper()}{judged.action[1:]}{where}: {judged.reason}"
        question = f"Approve {judged.action} ({money(total)})?\n{summary}"
        record = ActionRecord(
            origin=origin,
            action=judged.action,
            control=judged.control,
            lines=[f"{line.quantity} × {line.name}" for line in page.cart_lines],
            total_cents=total,
        )
        return _About(
            summary, question, total, "", page.cart_lines, judged.action, judged.reason, record=record
        )

    async def _card_entered(self, call: ToolCall, about: _About) -> ToolResult | bool:
        """A payment whose page asks for card details: the person enters them on a page of their own, for
        this approved payment (`CardEntry`, the prompt's ``cards``), and they go into the page's fields,
        never through the model; a refusal when they do not (what went in taken out again). False when none
        are asked, True once they are in."""
        fields = [field for field in await self.toolbox.card_fields() if not field.filled]
        if not fields:
            return False
        asked = ", ".join(quote(field.label or field.kind, 40) for field in fields)
        entry: CardEntry | None = getattr(self.gate.prompt, "cards", None)
        values = await entry(about.question, fields) if entry is not None else None
        if values is not None and not any(v.strip() for v in values.values()):
            values = None  # nothing typed is no entry
        missing = (
            await self.toolbox.enter_card(fields, values) if values is not None else [f.label for f in fields]
        )
        self.emit(
            "card_entered",
            asked=len(fields),
            entered=len(fields) - len(missing),
            by_person=values is not None,
        )
        if entry is None:
            why = "which only the person enters, never the model, and nobody here can be asked for them"
        elif values is None:
            why = "and the person entered none"
        elif missing:
            await self.toolbox.clear_card()  # what went in was for this payment, which is not made
            why = f"and {', '.join(quote(m, 40) for m in missing)} did not take the person's entry"
        else:
            return True
        return refused(
            call.name,
            f"Not pressed: the page asks for card details ({asked}), {why}. Nothing was pressed or paid. "
            "(webagent mcp asks the person through a link their MCP client opens: docs/mcp.md.)",
            "card_details",
        )

    async def _adopt_late_confirmation(self) -> None:
        """A confirmation that appeared after place_order stopped waiting is still the shop's word."""
        if not self.state.order_attempted or self.state.placed:
            return
        page = await self.toolbox.state()
        if page.view == "confirmation" and page.order_number is not None:
            self.state.placed.append(
                PlacedOrder(
                    order_id=page.order_number, total_cents=page.order_total_cents, lines=page.order_lines
                )
            )
            self.folder.save(self.state)

    async def finish(self, call: ToolCall) -> ToolResult:
        """Accept a finish only when its claim matches what the shop confirmed in this run."""
        finish = self.toolbox.parse("finish", call.arguments)
        if not isinstance(finish, Finish):
            return await self.toolbox.call("finish", call.arguments)
        await self._adopt_late_confirmation()
        placed = {order.order_id: order for order in self.state.placed}
        if finish.outcome == "ordered" and finish.order_id not in placed:
            seen = f"order #{next(iter(placed))} was" if placed else "no order was"
            return refused(
                "finish",
                f"Refused: finish claims order #{finish.order_id}, but {seen} confirmed "
                "by the shop in this run.",
                "finish",
            )
        if finish.outcome != "ordered" and placed:
            order_id = next(iter(placed))
            return refused(
                "finish",
                f"Refused: order #{order_id} was placed in this run; finish with outcome "
                f"'ordered' and order_id {order_id}.",
                "finish",
                order_id,
            )
        if finish.outcome == "done" and (
            unsent := unsent_form(await self.toolbox.state(), self.state.messages)
        ):
            return refused("finish", unsent, "finish")
        order = placed.get(finish.order_id) if finish.order_id is not None else None
        raise RunEnded(
            finish.outcome,
            self._said.pop(call.id, finish.summary),  # a chat's words in full, not cut to a summary's length
            order.order_id if order else None,
            order.total_cents if order else None,
        )

    def words(self, content: str) -> ToolCall:
        """In a conversation the model's words to the person end the request as a `finish` would — "ordered"
        with the order this request placed, else "done" — and so are held to its checks: a form filled and
        never sent, an order the words would leave unreported."""
        placed = self.state.placed
        claim: dict[str, Any] = (
            {"outcome": "ordered", "order_id": placed[0].order_id} if placed else {"outcome": "done"}
        )
        arguments = json.dumps({**claim, "summary": content[:1000]})
        call = ToolCall(id=f"words_{len(self.state.messages)}", name="finish", arguments=arguments)
        self._said[call.id] = content
        return call

    def pause(self, pending: PendingCall) -> Any:
        self.state.pending = pending
        self.emit("paused", kind=pending.kind, question=pending.question, choices=pending.choices)
        raise Paused()
