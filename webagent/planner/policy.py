"""The planning policy: from the conversation so far, the next turn.

`Planner` is a `Model` like any other: it acts only through the tools and reads only their narrations.
Each turn it reads the whole conversation again (transcript.py) and `Decision.next` walks the order
from the start, stopping at the first thing still to do:

1. Has the order been placed, refused, or has the person said "cancel"? Then finish.
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
import re
from dataclasses import dataclass, field
from typing import Any

from webagent.model import Reply, ToolCall, Usage
from webagent.names import resolve
from webagent.planner import questions
from webagent.planner.goal import read_goal
from webagent.planner.menu import Menu
from webagent.planner.questions import is_refusal, is_skip, is_yes
from webagent.planner.spec import GoalReading, ItemReading, OrderSpec, Unclear, Words
from webagent.planner.transcript import CartLine, Message, Step, Transcript
from webagent.planner.words import key, keys

__all__ = ["MAX_TURNS", "Decision", "Line", "Plan", "Planner", "kind_of"]

MAX_TURNS = 20
"""A request gives up (finish failed) after this many turns."""
MAX_ASKS = 2
"""The same question is asked at most this often before the run stops without ordering."""

GO_ON = re.compile(r"\b(go on|continue|carry on|keep going|proceed|go ahead)\b")
ORDER_VERBS = re.compile(
    r"\b(order|buy|get me|i'?d like|i would like|i want|we want|can i (have|get)|could i (have|get)|may i have|send me|bring me)\b"
)
QUESTION_START = re.compile(
    r"^(what|what's|whats|which|who|where|how|do you|does|is there|are there|any |show me|list|tell me|can you tell)\b"
)
CART_WORDS = re.compile(r"\b(cart|basket)\b")
MENU_WORDS = re.compile(r"\b(menu|serve|serves|sell|sells|have|has|offer|offers|on the)\b")


def kind_of(words: str) -> str:
    """ "go on" (carry on with the order before), "question" (about the shop) or "order"."""
    text = " ".join(words.lower().split())
    if GO_ON.search(text):
        return "go on"
    if ORDER_VERBS.search(text):
        return "order"
    if QUESTION_START.match(text) or text.endswith("?"):
        return "question"
    return "order"


@dataclass
class Plan:
    """A turn: what the planner says and the tool calls it makes, in order."""

    say: str
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)


def ask(
    question: str, choices: list[str] | None = None, *, yes_no: bool = False, context: str | None = None
) -> Plan:
    args: dict[str, Any] = {"question": question[:500]}
    if context:
        args["context"] = context[:1000]
    if yes_no:
        args["format"] = "yes_no"
    elif choices:
        args["format"] = "multiple_choice"
        args["choices"] = choices[:10]
    return Plan(question, [("ask_human", args)])


def finish(outcome: str, summary: str, order_id: int | None = None) -> Plan:
    args: dict[str, Any] = {"outcome": outcome, "summary": summary[:1000]}
    if order_id is not None:
        args["order_id"] = order_id
    return Plan(summary, [("finish", args)])


@dataclass(frozen=True)
class Line:
    """One line the cart must hold: a dish, how many, and its choices."""

    dish: str
    quantity: int
    options: tuple[str, ...] = ()

    @property
    def key(self) -> tuple[str, frozenset[str]]:
        return self.dish, frozenset(self.options)

    def add_args(self) -> dict[str, Any]:
        args: dict[str, Any] = {"dish": self.dish, "quantity": self.quantity}
        if self.options:
            args["options"] = list(self.options)
        return args

    def __str__(self) -> str:
        choices = f" ({', '.join(self.options)})" if self.options else ""
        return f"{self.quantity} × {self.dish}{choices}"


def line_key(name: str, menu: Menu) -> tuple[str, frozenset[str]] | None:
    """A cart line's name → (dish, choices): ``"Margherita Pizza (Large, Bacon)"`` → (…, {Large, Bacon})."""
    for dish in sorted(menu.names, key=len, reverse=True):
        if name == dish:
            return dish, frozenset()
        if name.startswith(dish + " (") and name.endswith(")"):
            return dish, frozenset(part.strip() for part in name[len(dish) + 2 : -1].split(", "))
    return None


class Planner:
    """A deterministic, offline `Model` that orders what the person asked for in the conversation.

    It takes nothing but the messages: the goal, the customer profile and a budget are read from the
    first user message as the runner writes it (``goal_text``), or from each message in a chat.
    """

    def describe(self) -> str:
        """For logs, like `OpenAIModel.describe`."""
        return "offline planner"

    def __repr__(self) -> str:
        return "Planner()"

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Reply:
        """The next turn, computed from ``messages`` alone (the planner knows the tools)."""
        return self.next_reply(messages)

    def next_reply(self, messages: list[dict[str, Any]]) -> Reply:
        """Synchronous core of `complete`."""
        transcript = Transcript(messages)
        plan = Decision(transcript).next()
        turn = len(transcript.turns) + 1
        calls = [
            ToolCall(id=f"call_{turn}_{i}", name=name, arguments=json.dumps(args))
            for i, (name, args) in enumerate(plan.calls)
        ]
        return Reply(content=plan.say, tool_calls=calls, usage=Usage(), finish_reason="tool_calls")


class Decision:
    """One turn's decision: the facts of the conversation, read in order, and what to do next."""

    def __init__(self, transcript: Transcript) -> None:
        self.t = transcript
        self.request = self._request()
        position = self.request.position if self.request else -1
        self.steps = transcript.steps_after(position)
        self.asked = transcript.asked_after(position)
        words, budget_note, order = transcript.goal_of(self.request.words if self.request else "")
        # "What would you like to order?" is answered with the goal the first message lacked.
        told = [a.answer for a in self.asked if a.question == questions.WHAT and a.answer]
        self.words = "\n".join([words, *told]).strip()
        self.order = OrderSpec.model_validate(order) if order is not None else None
        self.budget_note = budget_note
        self.restaurants = transcript.restaurants()
        self.profile = transcript.profile()
        self.reading = read_goal("" if self.order else words, self.restaurants)

    def _request(self) -> Message | None:
        """The message this attempt serves: the latest, unless it only says "go on" to an earlier order."""
        people = self.t.people
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

    # -- the decision -------------------------------------------------------------------------------

    def next(self) -> Plan:
        """What to do next (see the module docstring for the order of the stages)."""
        if self.request is None or not (self.words or self.order):
            return ask(questions.WHAT)
        if self.t.turns_after(self.request.position) > MAX_TURNS:
            return finish("failed", f"Gave up after {MAX_TURNS} turns without placing the order.")
        ended = self.ended()
        if ended:
            return ended
        if kind_of(self.request.words) == "question" and self.order is None:
            return self.answer_question()
        if not self.restaurants:
            return Plan("Looking at the restaurant list.", [("back_to_restaurants", {})])
        if self.order is None and not self.reading.restaurant and not self.reading.phrases:
            return self.ask_again(questions.WHAT)  # nothing in the words names a restaurant or a dish
        restaurant = self.restaurant()
        if isinstance(restaurant, Plan):
            return restaurant
        menu = self.menu(restaurant)
        if isinstance(menu, Plan):
            return menu
        wanted = self.wanted(menu)
        if isinstance(wanted, Plan):
            return wanted
        if not wanted and not self.said_dishes(menu):
            return self.ask_again(questions.what_from(menu.restaurant))
        if not wanted:
            return finish("done", "Nothing to order: every dish was left out.")
        from webagent.planner.checkout import Checkout

        return self.fill_cart(menu, wanted) or self.reach_minimum(menu) or Checkout(self, menu).next()

    # -- 1. the end ---------------------------------------------------------------------------------

    def ended(self) -> Plan | None:
        """Finish when the order was placed, refused or unconfirmed, or the person said to stop."""
        for step in self.steps:
            placed = re.match(r"Order #(\d+) placed", step.said) if step.name == "place_order" else None
            known = re.search(r"order #(\d+) was (?:already )?placed in this run", step.said)
            found = placed or known
            if found:
                order_id = int(found.group(1))
                if self.t.people[-1].position > step.position:
                    return finish("done", f"Order #{order_id} is already placed; tell me what else to order.")
                return finish("ordered", self.summary(order_id, step.said), order_id)
        attempts = [step for step in self.steps if step.name == "place_order"]
        for step in attempts:
            if step.result is None:
                return finish("failed", "Pressed Place order but saw no result; not retrying.")
            if step.said.startswith(("Refused:", "Not run:")):
                continue  # never tried: what stood in the way is handled below
            if re.search(r"\bden(y|ies|ied)\b|declin|not approve", step.said):
                return finish("done", f"The order was not placed: {step.said}")
            return finish("failed", f"The order was not placed and I will not retry it: {step.said}")
        if len(attempts) >= 3:
            return finish("failed", f"Could not place the order: {attempts[-1].said}")
        for asked in self.asked:
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

    def summary(self, order_id: int, said: str) -> str:
        """What the shop confirmed: the confirmation's lines, else the cart last seen."""
        confirmed = re.search(r"total (\$\d+\.\d\d): (.*?)\.?$", said)
        total = re.search(r"total (\$\d+\.\d\d)", said)
        if confirmed:
            lines = confirmed.group(2).replace('"', "")
        else:
            cart = self.t.cart()
            lines = ", ".join(f"{line.quantity} × {line.name}" for line in cart[0]) if cart else "the cart"
        where = f" at {total.group(1)}" if total else ""
        return f"Placed order #{order_id}{where}: {lines}."

    # -- 2. questions about the shop ----------------------------------------------------------------

    def answer_question(self) -> Plan:
        """Answer from what the pages show: the cart, a restaurant's menu, or a search."""
        text = self.words.lower()
        if CART_WORDS.search(text):
            view = self._result_of("view_cart", {})
            if view is None:
                return Plan("Looking at the cart.", [("view_cart", {})])
            return finish("done", view.said)
        spotted = self.reading.restaurant
        if spotted and (MENU_WORDS.search(text) or not self.reading.phrases):
            opened = self._result_of("open_restaurant", {"name": spotted.name})
            if opened is None:
                return Plan(f"Opening {spotted.name}.", [("open_restaurant", {"name": spotted.name})])
            menu = Menu.from_narration(opened.said)
            if menu is None:
                return finish("done", opened.said)
            dishes = ", ".join(
                f"{d.name} (${d.price_cents / 100:.2f}{', sold out' if d.sold_out else ''})"
                for d in menu.dishes
            )
            return finish("done", f"{menu.restaurant} has: {dishes}.")
        query = " ".join(
            word for phrase in self.reading.phrases for word in search_words(phrase.text, question=True)
        )
        if not query:
            return finish(
                "done",
                "I can tell you which restaurants sell a dish, what a menu has, or what is in your cart.",
            )
        found = self._result_of("search_restaurants", {"query": query})
        if found is None:
            return Plan(f"Searching the shop for {query}.", [("search_restaurants", {"query": query})])
        names = (
            re.findall(r'"([^"]+)"', found.said.split(": ", 1)[-1]) if found.said.startswith("Found") else []
        )
        if not names:
            return finish("done", f"No restaurant in the shop sells {query}.")
        return finish("done", f"Restaurants with {query}: {', '.join(names)}.")

    def _result_of(self, name: str, args: dict[str, Any]) -> Step | None:
        return next((s for s in reversed(self.steps) if s.name == name and s.args == args and s.result), None)

    # -- 3. the restaurant --------------------------------------------------------------------------

    RESTAURANT_QUESTIONS = (
        "Several restaurants sell",
        "I could not find a restaurant",
        "The shop has no restaurant",
    )

    def restaurant(self) -> str | Plan:
        answered = [a for a in self.asked if a.question.startswith(self.RESTAURANT_QUESTIONS) and a.answer]
        if answered:
            answer = str(answered[-1].answer)
            return (
                questions.pick(answer, answered[-1].choices or self.restaurants)
                or resolve(answer, self.restaurants).found
                or answer
            )
        if self.reading.restaurant:
            return self.reading.restaurant.name
        if self.order and self.order.restaurant:
            return resolve(self.order.restaurant, self.restaurants).found or self.order.restaurant
        here = self.t.open_restaurant()
        menu = self.t.menu_of(here) if here else None
        if here and menu:
            reading = self.read(menu)
            if reading.items and not reading.unclear:
                return here  # a follow-up in a chat, about the restaurant already open
        return self.search()

    def search(self) -> str | Plan:
        """Find the restaurant that sells every dish named: one search per dish phrase, then narrow."""
        phrases = (
            [item.dish for item in self.order.items] if self.order else [p.text for p in self.reading.phrases]
        )
        results = {
            key_of(str(s.args.get("query", ""))): found
            for s in self.steps
            if s.name == "search_restaurants" and (found := found_restaurants(s.said)) is not None
        }
        calls: list[tuple[str, dict[str, Any]]] = []
        lists: list[list[str]] = []
        for phrase in phrases:
            for query in search_queries(phrase):
                if key_of(query) not in results:
                    calls.append(("search_restaurants", {"query": query}))
                    break
                if results[key_of(query)]:
                    lists.append(results[key_of(query)])
                    break
        dishes = " and ".join(phrases) or "what you asked for"
        if calls:
            return Plan(
                f"No restaurant named; searching for {', '.join(c[1]['query'] for c in calls)}.", calls
            )
        if not lists:
            return ask(questions.no_restaurant(dishes))
        candidates = list(lists[0])
        for names in lists[1:]:
            candidates = [c for c in candidates if c in names] or candidates
        if len(candidates) == 1:
            return candidates[0]
        return ask(questions.which_restaurant(dishes, candidates), candidates)

    # -- 4. the menu and the dishes -------------------------------------------------------------------

    def menu(self, restaurant: str) -> Menu | Plan:
        opens = [s for s in self.steps if s.name == "open_restaurant"]
        last = opens[-1] if opens else None
        if last is not None and last.result is not None:
            menu = Menu.from_narration(last.said)
            if menu is not None and (menu.restaurant == restaurant or last.args.get("name") == restaurant):
                return menu
            if menu is None and last.args.get("name") == restaurant:
                suggested = (
                    re.findall(r'"([^"]+)"', last.said.split("Did you mean", 1)[-1])
                    if "Did you mean" in last.said
                    else []
                )
                if last.said.startswith("No restaurant called") and suggested:
                    return ask(
                        f'The shop has no restaurant called "{restaurant}". Which did you mean: {questions.or_list(suggested)}?',
                        suggested,
                    )
                if sum(1 for s in opens if s.args.get("name") == restaurant) >= 2:
                    return finish("failed", f"Could not open {restaurant}: {last.said}")
        if last is None and self.t.open_restaurant() == restaurant:
            menu = self.t.menu_of(restaurant)
            if menu is not None:
                return menu
        return Plan(f"Opening {restaurant}.", [("open_restaurant", {"name": restaurant})])

    def read(self, menu: Menu) -> GoalReading:
        """The goal read against ``menu`` (a structured order: its items matched to the menu)."""
        if self.order is None:
            return read_goal(self.words, self.restaurants, menu)
        reading = GoalReading(text="")
        for item in self.order.items:
            found = resolve(item.dish, menu.names).found
            words = Words(0, 0, item.dish)
            dish = menu.dish(found) if found else None
            if dish is None:
                reading.unclear.append(
                    Unclear(words, resolve(item.dish, menu.names).candidates, item.quantity)
                )
                continue
            options = [resolve(option, dish.choices).found for option in item.options]
            if None in options:
                bad = item.options[options.index(None)]
                reading.unclear.append(Unclear(Words(0, 0, bad), dish.choices, item.quantity, dish=dish.name))
            reading.items.append(ItemReading(dish.name, item.quantity, [o for o in options if o], words))
        return reading

    def answer_to(self, question: str) -> str | None:
        """The latest answer to exactly this question, if it was asked and answered."""
        found = [a.answer for a in self.asked if a.question == question and a.answer]
        return found[-1] if found else None

    def times_asked(self, question: str) -> int:
        return sum(1 for a in self.asked if a.question == question)

    def ask_again(self, question: str, choices: list[str] | None = None) -> Plan:
        if self.times_asked(question) >= MAX_ASKS:
            return finish("failed", f"Stopped without ordering: still unresolved after asking — {question}")
        return ask(question, choices)

    def wanted(self, menu: Menu) -> list[Line] | Plan:
        """The lines the cart must hold, once every question about the dishes is answered."""
        reading = self.read(menu)
        lines = [Line(i.dish, i.quantity, tuple(i.options)) for i in reading.items]
        for unclear in reading.unclear:
            settled = self.settle(unclear, menu, lines)
            if isinstance(settled, Plan):
                return settled
            lines = settled
        for index, line in enumerate(list(lines)):
            dish = menu.dish(line.dish)
            if dish is not None and dish.sold_out:
                question = questions.sold_out(dish.name, menu.restaurant)
                answer = self.answer_to(question)
                if answer is None:
                    return self.ask_again(question)
                instead = [] if is_skip(answer) else self.lines_from(answer, menu, line.quantity)
                if instead is None:
                    return self.ask_again(question)
                lines[index : index + 1] = [*instead, Line("", 0)]  # keep indices; blanks removed below
        lines = [line for line in lines if line.quantity]
        for index, line in enumerate(lines):
            dish = menu.dish(line.dish)
            for option in dish.options if dish else ():
                if option.required and option.choices and not set(line.options) & set(option.choices):
                    question = questions.choose_option(option.name, line.dish, option.choices)
                    answer = self.answer_to(question)
                    choice = questions.pick(answer, option.choices) if answer else None
                    if choice is None:
                        return self.ask_again(question, list(option.choices))
                    lines[index] = line = Line(line.dish, line.quantity, (*line.options, choice))
        for asked in self.asked:
            more = asked.question.endswith(questions.WHAT_TO_ADD) or asked.question.startswith(
                questions.WHAT_FROM
            )
            if more and asked.answer:
                extra = self.lines_from(asked.answer, menu, 1)
                if extra is None:
                    return self.ask_again(asked.question)
                lines += extra
        merged: dict[tuple[str, frozenset[str]], Line] = {}
        for line in lines:
            known = merged.get(line.key)
            merged[line.key] = Line(line.dish, line.quantity + (known.quantity if known else 0), line.options)
        return list(merged.values())

    def said_dishes(self, menu: Menu) -> bool:
        """Whether the goal (or an answer) named anything on the menu, or anything at all to ask about."""
        reading = self.read(menu)
        return bool(reading.items or reading.unclear) or any(
            a.question.startswith(questions.WHAT_FROM) and a.answer for a in self.asked
        )

    def settle(self, unclear: Unclear, menu: Menu, lines: list[Line]) -> list[Line] | Plan:
        """Ask about words that matched nothing (or several things) and fold the answer into ``lines``."""
        words = unclear.words.text
        if unclear.dish is not None:
            dish = menu.dish(unclear.dish)
            choices = list(dish.choices) if dish else []
            question = questions.unknown_choice(unclear.dish, words, choices)
            answer = self.answer_to(question)
            if answer is None:
                return self.ask_again(question, choices or None)
            if is_skip(answer):
                return lines
            choice = questions.pick(answer, choices)
            if choice is None:
                return self.ask_again(question, choices or None)
            return [
                Line(line.dish, line.quantity, (*line.options, choice)) if line.dish == unclear.dish else line
                for line in lines
            ]
        several = len(unclear.candidates) > 1 and all(
            set(keys(words)) & set(keys(candidate)) for candidate in unclear.candidates
        )
        if several:
            question = questions.choose_dish(words, unclear.candidates)
        else:
            question = questions.unknown_dish(menu.restaurant, words, unclear.candidates)
        answer = self.answer_to(question)
        if answer is None:
            return self.ask_again(question, unclear.candidates or None)
        if is_skip(answer):
            return lines
        instead = self.lines_from(answer, menu, unclear.quantity, unclear.options)
        if instead is None:
            return self.ask_again(question, unclear.candidates or None)
        return [*lines, *instead]

    def lines_from(
        self, answer: str, menu: Menu, quantity: int, options: list[str] | None = None
    ) -> list[Line] | None:
        """The dishes an answer names ("a margherita and a pepperoni"), or None when it names none."""
        reading = read_goal(answer, (), menu)
        if reading.items and not reading.unclear:
            if len(reading.items) == 1 and reading.items[0].quantity == 1:
                item = reading.items[0]
                dish = menu.dish(item.dish)
                kept = [o for o in options or [] if dish and o in dish.choices and o not in item.options]
                return [Line(item.dish, quantity, (*item.options, *kept))]
            return [Line(i.dish, i.quantity, tuple(i.options)) for i in reading.items]
        found = questions.pick(answer, menu.names)
        return [Line(found, quantity)] if found else None

    # -- 5. the cart ----------------------------------------------------------------------------------

    def fill_cart(self, menu: Menu, wanted: list[Line]) -> Plan | None:
        """Make the cart hold exactly ``wanted``; None once ``view_cart`` showed that it does."""
        cart = self.t.cart()
        if cart is None:
            return Plan("Checking the cart.", [("view_cart", {})])
        have: dict[tuple[str, frozenset[str]], CartLine] = {}
        strangers: list[CartLine] = []
        for seen in cart[0]:
            found = line_key(seen.name, menu)
            if found is None or found in have:
                strangers.append(seen)
            else:
                have[found] = seen
        calls: list[tuple[str, dict[str, Any]]] = []
        for line in wanted:
            there = have.pop(line.key, None)
            if there is None:
                calls.append(("add_to_cart", line.add_args()))
            elif there.quantity != line.quantity:
                calls.append(("change_quantity", {"item": there.name, "quantity": line.quantity}))
        for extra in [*have.values(), *strangers]:
            calls.append(("remove_from_cart", {"item": extra.name}))
        if not calls:
            return None
        for name, args in calls:
            # The same change again: once more after a failure, never after one the shop said it made.
            tries = [s for s in self.steps if s.name == name and s.args == args and s.result is not None]
            if tries and (
                len(tries) >= 2 or not is_failure(tries[-1].said) or "is sold out" in tries[-1].said
            ):
                return self.cart_trouble(tries[-1], menu)
        if any(name == "add_to_cart" for name, _ in calls) and self.t.open_restaurant() != menu.restaurant:
            calls.insert(0, ("open_restaurant", {"name": menu.restaurant}))
        described = "; ".join(describe(name, args) for name, args in calls)
        return Plan(f"{described}; then checking the cart.", [*calls, ("view_cart", {})])

    def cart_trouble(self, step: Step, menu: Menu) -> Plan:
        """The cart would not take a change: ask when the shop says why, else stop."""
        said = step.said
        dish = str(step.args.get("dish", ""))
        if "is sold out" in said:
            return self.ask_again(questions.sold_out(dish, menu.restaurant))
        required = re.search(r": (.+?) is required: choose one of (.+?)\.?$", said)
        if required:
            choices = [c.strip() for c in required.group(2).split(",")]
            return self.ask_again(questions.choose_option(required.group(1), dish, choices), choices)
        return finish("failed", f"Stopped without ordering: the cart would not match the order ({said})")

    # -- 6. the minimum order -----------------------------------------------------------------------

    def reach_minimum(self, menu: Menu) -> Plan | None:
        cart = self.t.cart()
        if cart is None or menu.minimum_cents is None or cart[1] is None or cart[1] >= menu.minimum_cents:
            return None
        asked = sum(1 for a in self.asked if a.question.endswith(questions.WHAT_TO_ADD))
        if asked >= MAX_ASKS + 1:
            return finish(
                "failed", f"Stopped without ordering: the cart is still below {menu.restaurant}'s minimum."
            )
        gap = money(menu.minimum_cents - cart[1])
        return ask(questions.minimum(menu.restaurant, gap, money(menu.minimum_cents)))


def is_failure(said: str) -> bool:
    """A tool sentence saying the page did not end up as asked (the failure shapes of said.py)."""
    if said.startswith(("Refused:", "Did not", "Tried to", "No ", "Not ")) or " could not " in said:
        return True
    return said.startswith('"') and any(
        words in said for words in ("is sold out", "has no options", "matches several")
    )


def money(cents: int) -> str:
    return f"${cents // 100}.{cents % 100:02d}"


def describe(name: str, args: dict[str, Any]) -> str:
    if name == "add_to_cart":
        return f"adding {Line(args['dish'], args['quantity'], tuple(args.get('options') or ()))}"
    if name == "change_quantity":
        return f"setting {args['item']} to {args['quantity']}"
    if name == "remove_from_cart":
        return f"removing {args['item']}, which was not asked for"
    return name.replace("_", " ")


def key_of(query: str) -> str:
    return " ".join(query.lower().split())


def found_restaurants(said: str) -> list[str] | None:
    """The restaurants a search narration lists ([] for none), or None for another sentence."""
    if said.startswith("No restaurants match"):
        return []
    match = re.match(r'Found \d+ restaurants? for (?:"[^"]*"|[^:]*): (.*)$', said)
    return re.findall(r'"([^"]+)"', match.group(1)) if match else None


def search_words(phrase: str, question: bool = False) -> list[str]:
    """The words to search the shop for: no filler, numbers or size words; plurals as the shop spells
    them ("pizzas" → "pizza", but "fries" stays: the shop matches words as substrings)."""
    from webagent.planner.goal import COMMON_CHOICE_WORDS, FILLER

    skip = FILLER | COMMON_CHOICE_WORDS | (QUESTION_FILLER if question else frozenset())
    found = []
    for word in re.findall(r"[^\W\d_][\w']*", phrase):
        if key(word) in skip:
            continue
        found.append(word.lower() if word.lower().endswith("ies") else key(word))
    return found


QUESTION_FILLER = frozenset(
    key(w)
    for w in [
        "restaurants",
        "restaurant",
        "have",
        "has",
        "sell",
        "sells",
        "serve",
        "serves",
        "offer",
        "offers",
        "do",
        "does",
        "you",
        "which",
        "who",
        "where",
        "how",
        "there",
        "any",
        "can",
        "i",
        "find",
        "shop",
        "shops",
        "place",
        "places",
        "is",
        "are",
    ]
)


def search_queries(phrase: str) -> list[str]:
    """The searches to try for one dish phrase, best first: all its words, each "and" part, then fewer
    leading words ("large hawaiian pizza" → "hawaiian pizza" → "pizza")."""
    words = search_words(phrase)
    parts = [search_words(part) for part in re.split(r"\s+(?:and|&|plus)\s+", phrase) if part.strip()]
    queries = [" ".join(words)] if words else []
    queries += [" ".join(part) for part in parts if part and len(parts) > 1]
    queries += [" ".join(words[i:]) for i in range(1, len(words))]
    return list(dict.fromkeys(query for query in queries if query))
