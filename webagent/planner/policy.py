"""The planning policy: from the conversation so far, the next turn.

`Planner` is a `Model` like any other: it acts only through the tools and reads only their narrations.
Each turn it reads the whole conversation again (transcript.py) into a `Decision` (decision.py), and
`decide` walks the order from the start, stopping at the first thing still to do:

1. Has the order been placed, refused, or has the person said "cancel"? Then finish. Did a popup no
   tool could dismiss block the last turn? Press its neutral button, or ask which (popups.py).
2. Is the message a question about the shop ("what restaurants have sushi")? Answer it from a search,
   a menu or the cart, and finish.
3. Which restaurant: the one the goal names, the one a search finds for its dishes, or ask.
4. Open it; read the goal against its menu (goal.py). Ask about every word that matched nothing, every
   name that matched several dishes, a missing required choice, a sold-out dish — one at a time.
5. Make the cart equal the order: add what is missing, correct quantities, remove what was not asked
   for, then `view_cart` and compare again. An order is placed only after the cart the shop shows has
   been seen to match the goal line for line (dish, quantity, choices).
6. The restaurant's minimum, then checkout (checkout.py): details, promo code, budget, place the order.

A typical order takes four turns: open the restaurant; add each dish and view the cart; go to checkout,
fill in the details and place the order; finish with the order number the shop confirmed.
"""

from __future__ import annotations

import json
from typing import Any

from webagent.llm.protocol import Reply, ToolCall, Usage
from webagent.narration.lines import counted
from webagent.narration.money import money
from webagent.narration.narrate import read_page_summary
from webagent.narration.said import read_placed
from webagent.planner import consult, questions
from webagent.planner.cart import fill_cart, reach_minimum
from webagent.planner.checkout import Checkout
from webagent.planner.consult import Consultant, record, recorded
from webagent.planner.decision import Decision
from webagent.planner.dishes import said_dishes, wanted
from webagent.planner.goal import read_goal
from webagent.planner.menu import Menu
from webagent.planner.plan import Plan, ask, finish
from webagent.planner.popups import get_past
from webagent.planner.questions import is_refusal, is_skip, is_yes
from webagent.planner.reading import ModelReader, substituted
from webagent.planner.restaurant import choose_restaurant, open_menu
from webagent.planner.shop_questions import answer_question, kind_of
from webagent.planner.transcript import Message, Transcript, page_line
from webagent.sync import in_daemon_thread

__all__ = ["MAX_TURNS", "Planner", "decide", "request_of"]

NEVER_TRIED = frozenset({"arguments", "precondition", "earlier_failed", "not_run", "refused"})
"""Refusals (`webagent.tools.toolbox.ToolResult.refusal`) of a call that never reached the gate or the page."""

MAX_TURNS = 20
"""A request gives up (finish failed) after this many turns."""


class Planner:
    """A deterministic, offline `Model` that orders what the person asked for in the conversation.

    It takes nothing but the messages: the goal, the customer profile and a budget are read from the
    first user message as the runner writes it (``goal_text``), or from each message in a chat.
    """

    page_tools = False
    """It drives the demo shop through its typed tools: a page's own tools (WebMCP) are not looked for."""

    def __init__(self, consultant: Consultant | None = None, reader: ModelReader | None = None) -> None:
        self.consultant = consultant
        """Asked narrow questions before the person is (consult.py); None: the person is asked."""
        self.reader = reader
        """Reads a request the rules leave in doubt (reading.py); None: the rules alone, and questions."""

    def describe(self) -> str:
        """For logs, like `OpenAIModel.describe`."""
        return (
            "offline planner"
            + (" reading with a local model" if self.reader else "")
            + (" consulting a local model" if self.consultant else "")
        )

    def __repr__(self) -> str:
        given = [
            f"{name}={value!r}"
            for name, value in (("consultant", self.consultant), ("reader", self.reader))
            if value
        ]
        return f"Planner({', '.join(given)})"

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Reply:
        """The next turn, computed from ``messages`` alone (the planner knows the tools)."""
        if self.consultant is not None or self.reader is not None:  # a model's answer: not on the event loop,
            return await in_daemon_thread(self.next_reply, messages)  # nor in the way of Ctrl-C
        return self.next_reply(messages)

    def next_reply(self, messages: list[dict[str, Any]]) -> Reply:
        """Synchronous core of `complete`."""
        transcript = Transcript(messages)
        decision = Decision(transcript, request_of(transcript), self.consultant, self.reader)
        plan = decide(decision)
        turn = len(transcript.turns) + 1
        calls = [
            ToolCall(id=f"call_{turn}_{i}", name=name, arguments=json.dumps(args))
            for i, (name, args) in enumerate(plan.calls)
        ]
        content = "\n".join(
            [*(r.line() for r in decision.read), *(record(c) for c in decision.consulted), plan.say]
        )
        return Reply(content=content, tool_calls=calls, usage=Usage(), finish_reason="tool_calls")


NOT_THE_SHOP = (
    "Stopped: this page is not one of the demo shop's, and the offline planner drives only a site it has an "
    "adapter for (the bundled demo shop). To drive this page, run with a model (--model local, or an "
    "OpenAI-compatible endpoint)."
)


def off_the_shop(t: Transcript) -> bool:
    """Whether no page of this run has been one of the shop's own: the run is on a site the planner has no
    adapter for (its ``Page:`` lines name a page, never a shop view)."""
    lines = [line for _, text in t.narrations() if (line := page_line(text))]
    seen = [read_page_summary(line) for line in lines]
    return bool(seen) and all(page is not None and page.view == "unknown" for page in seen)


def request_of(t: Transcript) -> Message | None:
    """The message this attempt serves: the latest, unless it only says "go on" to an earlier order."""
    people = t.people
    if not people:
        return None
    if kind_of(people[-1].words) == "go on":
        for earlier in reversed(people[:-1]):
            kind = kind_of(earlier.words)
            if kind == "order":
                return earlier
            if kind == "question":
                break
    return people[-1]


def decide(d: Decision) -> Plan:
    """What to do next (see the module docstring for the order of the stages)."""
    if d.request is None or not (d.words or d.order):
        return ask(questions.WHAT)
    if d.t.turns_after(d.request.position) > MAX_TURNS:
        return finish("failed", f"Gave up after {MAX_TURNS} turns without placing the order.")
    stop = ended(d)
    if stop:
        return stop
    popup = get_past(d)  # a popup no tool could get past blocks whatever comes next
    if popup:
        return popup
    if kind_of(d.request.words) == "question" and d.order is None:
        return answer_question(d)
    if not d.restaurants:
        # At the list already (it failed to load at first): a search for everything shows it again.
        at_list = d.t.page().startswith("Page: restaurant list")
        look: tuple[str, dict[str, Any]] = (
            ("search_restaurants", {}) if at_list else ("back_to_restaurants", {})
        )
        if d.result_of(*look) is not None and off_the_shop(d.t):
            return finish("failed", NOT_THE_SHOP)
        if d.result_of(*look) is not None and sum(1 for s in d.steps if s.name == look[0]) >= 2:
            return finish("failed", "Stopped without ordering: the restaurant list did not load.")
        return Plan("Looking at the restaurant list.", [look])
    if d.order is None and not d.reading.restaurant and not d.reading.phrases:
        return d.ask_again(questions.WHAT)  # nothing in the words names a restaurant or a dish
    restaurant = choose_restaurant(d)
    if isinstance(restaurant, Plan):
        return restaurant
    menu = open_menu(d, restaurant)
    if isinstance(menu, Plan):
        return menu
    lines = wanted(d, menu)
    if isinstance(lines, Plan):
        return lines
    if not lines and not said_dishes(d, menu):
        return d.ask_again(questions.what_from(menu.restaurant))
    if not lines:
        agreement = d.agreement(menu)
        acted = agreement.reading if agreement is not None and agreement.verdict == "agreed" else None
        gone = substituted(acted, menu) if acted is not None else []
        if gone:  # "if the biryani is sold out, nothing instead", and it is
            return finish("failed", "Not ordered: " + "; ".join(gone) + ".")
        return finish("done", "Nothing to order: every dish was left out.")
    return fill_cart(d, menu, lines) or reach_minimum(d, menu) or Checkout(d, menu).next()


# -- 1. the end -------------------------------------------------------------------------------------


def ended(d: Decision) -> Plan | None:
    """Finish when the order was placed, refused or unconfirmed, or the person said to stop."""
    for step in d.steps:  # the order place_order placed, or the run's order a refusal names: typed, not said
        ours = step.name == "place_order" or step.refusal in ("already_ordered", "finish")
        order_id = step.order_id if ours else None
        if order_id is not None:
            if d.t.people[-1].position > step.position:
                return finish("done", f"Order #{order_id} is already placed; tell me what else to order.")
            return finish("ordered", summary(d, order_id, step.said), order_id)
    attempts = [step for step in d.steps if step.name == "place_order"]
    for step in attempts:
        if step.result is None:
            return finish("failed", "Pressed Place order but saw no result; not retrying.")
        if step.refusal in NEVER_TRIED:
            continue  # never tried: what stood in the way is handled below
        if step.refusal == "denied":  # the gate's no: the person's, or the policy's
            return finish("done", f"The order was not placed: {step.said}")
        return finish("failed", f"The order was not placed and I will not retry it: {step.said}")
    if len(attempts) >= 3:
        return finish("failed", f"Could not place the order: {attempts[-1].said}")
    for asked in d.asked:
        if asked.answer is None or not asked.answer.strip():
            if asked.step.result is not None:
                return finish("failed", "Stopped without ordering: my question got no answer.")
            continue
        if asked.question.startswith(questions.YES_NO_STARTS):
            if not is_yes(asked.answer):
                return finish("done", f"Not ordered: you answered {asked.answer!r} to: {asked.question}")
            continue
        if is_refusal(asked.answer) and not is_skip(asked.answer):
            return finish("done", f"Stopped without ordering, as you answered {asked.answer!r}.")
    return None


def summary(d: Decision, order_id: int, said: str) -> str:
    """What the shop confirmed: the confirmation's lines, else the cart last seen."""
    placed = read_placed(said)
    total = placed.total_cents if placed else None
    if placed and total is not None and placed.lines:
        lines = ", ".join(placed.lines)
    else:
        cart = d.t.cart()
        lines = ", ".join(counted(line.quantity, line.name) for line in cart[0]) if cart else "the cart"
    where = f" at {money(total)}" if total is not None else ""
    menus = [step.said for step in d.t.steps_after(-1) if step.name == "open_restaurant"]
    menu = Menu.from_narration(menus[-1].split("\n", 1)[0]) if menus else None
    # read against the menu: a sentence about a dish ordered is in the note then ("… keep the tacos warm")
    read = read_goal(d.words, d.restaurants, menu) if menu is not None and not d.order else d.reading
    written = read.details.get("delivery_note")
    note = d.order.delivery_note if d.order else str(written.value) if written else None
    untold = (
        f" The note for the courier was not given to the shop, whose checkout has no field for it: “{note}”."
        if note
        else ""
    )
    left = [
        option
        for c in recorded(d.t.assistant_texts())
        if c.question == consult.WORDS
        for option in c.options
        if option not in c.chosen
    ]
    aside = (
        f" Not read as part of the order: {', '.join(f'“{w}”' for w in dict.fromkeys(left))}." if left else ""
    )
    agreement = d.agreement(menu) if menu is not None else None
    acted = agreement.reading if agreement is not None and agreement.verdict == "agreed" else None
    done = "".join(f" {said}." for said in substituted(acted, menu)) if acted and menu else ""
    return f"Placed order #{order_id}{where}: {lines}.{done}{untold}{aside}"
