"""The offline planner: a deterministic stand-in for an LLM that places the order a goal describes.

It implements the `Model` protocol, acts only through the tools and reads only their narrations — the
same view of the shop an LLM gets. Everything it knows about progress is re-derived from the
conversation on every call (no instance state), so a run paused in one process continues in another
with a fresh `Planner` over the restored messages, and the same messages always give the same reply.

A typical order takes four turns::

    1. open_restaurant                    (or search_restaurants per dish when no restaurant is named)
    2. add_to_cart × each dish            (dish names resolved against the menu the narration listed)
    3. go_to_checkout, fill_delivery_details, place_order
    4. finish(outcome="ordered", order_id=N)

When the goal is ambiguous, impossible or incomplete it asks (``ask_human``) instead of guessing, and
it never retries a placed-but-unconfirmed or refused order.

Call ids carry a tag saying what the call was for (``call_{turn}_{i}_{tag}``, e.g. ``add2`` for the
third dish, ``ask-restaurant``): that is how a later turn ties a narration or an answer back to the
dish or question it belongs to, without keeping state between calls.
"""

from __future__ import annotations

import difflib
import json
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from webagent.config import Profile
from webagent.conversation import (
    Answer,
    Step,
    answer_of,
    cart_estimate,
    cents,
    is_refusal,
    is_skip,
    is_yes,
    minimum_order,
    parse_details,
    parse_menu,
    parse_search,
    quoted,
    read_steps,
    text_of,
)
from webagent.goal import OrderItem, OrderSpec, parse_goal, parse_quantity
from webagent.model import Reply, ToolCall, Usage
from webagent.names import normalize, resolve
from webagent.narrate import money

# OrderSpec and friends are re-exported: the CLI and the runner import them from here.
__all__ = [
    "MAX_TURNS",
    "OrderItem",
    "OrderSpec",
    "Planner",
    "match_dish",
    "parse_goal",
    "parse_menu",
    "parse_search",
]

MAX_TURNS = 20
"""The planner gives up (finish failed) once the conversation has more assistant turns than this."""

MAX_ASKS_PER_TOPIC = 2


@dataclass
class ItemState:
    """What the conversation says about one dish of the order."""

    phrase: str
    quantity: int
    options: list[str]
    added: str | None = None  # the "Added …" sentence, once the shop confirmed it
    dropped: bool = False
    no_options: bool = False
    merged: list[str] = field(default_factory=list)  # item phrases naming no dish, taken as choices
    failure: str | None = None  # the last add failure not yet answered
    failures: int = 0


@dataclass
class Plan:
    content: str
    calls: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)  # (tag, tool, arguments)


def match_dish(phrase: str, menu: list[str]) -> tuple[str | None, list[str], list[str]]:
    """Resolve an item phrase against the menu: (dish, leftover option words, candidates if unclear).

    Every word of a dish name must appear in the phrase (typos forgiven word by word); the longest such
    dish wins and the phrase's other words, in runs, become option choices: "large margherita pizzas"
    → ("Margherita Pizza", ["large"]). Failing that, `names.resolve` on the whole phrase.
    """
    words = normalize(phrase).split()
    best: list[tuple[int, str, set[int]]] = []
    for name in menu:
        needed = [w for w in normalize(name).split() if not w.isdigit() and w not in {"and", "with"}]
        used: set[int] = set()
        for need in needed:
            hit = next((i for i, w in enumerate(words) if i not in used and _same_word(w, need)), None)
            if hit is None:
                break
            used.add(hit)
        else:
            if needed:
                best.append((len(needed), name, used))
    if best:
        top = max(size for size, _, _ in best)
        winners = [(name, used) for size, name, used in best if size == top]
        if len(winners) == 1:
            name, used = winners[0]
            return name, _leftover_runs(words, used), []
        return None, [], [name for name, _ in winners]
    match = resolve(phrase, menu)
    if match.found:
        return match.found, [], []
    return None, [], match.candidates


def _same_word(written: str, menu_word: str) -> bool:
    if written == menu_word:
        return True
    if len(menu_word) < 4 or len(written) < 4:
        return False
    return difflib.SequenceMatcher(None, written, menu_word).ratio() >= 0.8


OPTION_FILLER = {"with", "and", "n", "on", "the", "a", "an", "please", "of", "some", "size", "style", "x"}


def _leftover_runs(words: list[str], used: set[int]) -> list[str]:
    runs: list[list[str]] = [[]]
    for i, word in enumerate(words):
        if i in used or word in OPTION_FILLER:
            runs.append([])
        else:
            runs[-1].append(word)
    return [" ".join(run) for run in runs if run]


class Planner:
    """A deterministic, offline `Model` that orders what a goal (or an `OrderSpec`) asks for.

    ``goal`` is parsed with `parse_goal` unless ``spec`` is given; ``profile`` fills delivery details
    the goal leaves out (the goal wins). With neither goal nor spec, the first user message is parsed.
    """

    def __init__(
        self, goal: str | None = None, *, spec: OrderSpec | None = None, profile: Profile | None = None
    ) -> None:
        self.goal = goal
        self.spec = spec if spec is not None else (parse_goal(goal) if goal else None)
        self.profile = profile or Profile()

    def describe(self) -> str:
        """For logs, like `OpenAIModel.describe`."""
        return "offline planner"

    def __repr__(self) -> str:
        return f"Planner(goal={self.goal!r})"

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Reply:
        """The next turn, computed from `messages` alone; `tools` is not needed (the planner knows them)."""
        return self.next_reply(messages)

    def next_reply(self, messages: list[dict[str, Any]]) -> Reply:
        """Synchronous core of `complete`."""
        steps, turns = read_steps(messages)
        spec = self.spec or self._spec_from(messages)
        plan = _Turn(spec, self.profile, steps, turns).plan()
        turn = turns + 1
        calls = [
            ToolCall(id=f"call_{turn}_{i}_{tag}", name=name, arguments=json.dumps(args))
            for i, (tag, name, args) in enumerate(plan.calls)
        ]
        return Reply(content=plan.content, tool_calls=calls, usage=Usage(), finish_reason="tool_calls")

    @staticmethod
    def _spec_from(messages: list[dict[str, Any]]) -> OrderSpec:
        first = next((text_of(m.get("content")) for m in messages if m.get("role") == "user"), "")
        return parse_goal(first.split("\n\n", 1)[0])


class _Turn:
    """One decision: the facts of the conversation, read in order, and what to do next."""

    def __init__(self, spec: OrderSpec, profile: Profile, steps: list[Step], turns: int) -> None:
        self.spec = spec
        self.profile = profile
        self.steps = steps
        self.turns = turns
        self.answers = [
            Answer(s.index, s.tag.removeprefix("ask-"), answer_of(s)) for s in steps if s.name == "ask_human"
        ]

    # -- helpers -------------------------------------------------------------------------------------

    def answers_to(self, topic: str) -> list[Answer]:
        return [a for a in self.answers if a.topic == topic]

    def latest(self, topic: str) -> str | None:
        found = self.answers_to(topic)
        return found[-1].text if found else None

    def ask(
        self,
        topic: str,
        question: str,
        *,
        context: str | None = None,
        choices: list[str] | None = None,
        yes_no: bool = False,
    ) -> Plan:
        if len(self.answers_to(topic)) >= MAX_ASKS_PER_TOPIC:
            return self.finish(
                "failed", f"Stopped without ordering: still unresolved after asking — {question}"
            )
        args: dict[str, Any] = {"question": question}
        if context:
            args["context"] = context[:1000]
        if yes_no:
            args["format"] = "yes_no"
        elif choices:
            args["format"] = "multiple_choice"
            args["choices"] = choices[:10]
        return Plan(question, [(f"ask-{topic}", "ask_human", args)])

    def finish(self, outcome: str, summary: str, order_id: int | None = None) -> Plan:
        args: dict[str, Any] = {"outcome": outcome, "summary": summary[:1000]}
        if order_id is not None:
            args["order_id"] = order_id
        return Plan(summary, [("finish", "finish", args)])

    # -- the decision --------------------------------------------------------------------------------

    def plan(self) -> Plan:
        if self.turns > MAX_TURNS:
            return self.finish("failed", f"Gave up after {self.turns} turns without placing the order.")
        for step in self.steps:
            # The loop refuses a second order or a wrong finish, naming the order it saw placed.
            known = re.search(r"order #(\d+) was (?:already )?placed in this run", step.said)
            if known:
                return self.finish("ordered", self._summary(int(known.group(1))), int(known.group(1)))
        for step in self.steps:
            if step.name == "place_order":
                ended = self._after_place(step)
                if ended is not None:
                    return ended
        for answer in self.answers:
            if answer.text is None:
                return self.finish("failed", "Stopped without ordering: my question got no answer.")
            if answer.topic in {"budget", "promo"}:
                declined = not is_yes(answer.text)
            elif answer.topic.startswith("dish") and is_skip(answer.text):
                declined = False  # "skip it" / "none" drops that one dish, not the order
            else:
                declined = is_refusal(answer.text)
            if declined:
                return self.finish("done", f"Stopped without ordering, as you answered {answer.text!r}.")
        items = list(self.spec.items)
        what = self.latest("what")
        if what:
            items = parse_goal(what).items
        if not items:
            return self.ask("what", "What would you like to order, and from which restaurant?")
        restaurant = self._restaurant(items)
        if isinstance(restaurant, Plan):
            return restaurant
        opened = self._opened(restaurant)
        if isinstance(opened, Plan):
            return opened
        name, menu = opened
        return self._order(name, menu, items)

    def _after_place(self, step: Step) -> Plan | None:
        placed = re.search(r"Order #(\d+) placed", step.said)
        if placed:
            return self.finish("ordered", self._summary(int(placed.group(1))), int(placed.group(1)))
        if step.result is None:
            return self.finish("failed", "Pressed Place order but saw no result; not retrying.")
        earlier_failed = any(
            s.turn == step.turn and s.index < step.index and not self._ok(s) for s in self.steps
        )
        attempts = sum(1 for s in self.steps if s.name == "place_order")
        if step.said.startswith("Refused:") and earlier_failed and attempts < 3:
            return None  # the order was never tried: the failure before it is handled below
        if re.search(r"\bden(y|ies|ied)\b|not approve|declin|reject", step.said, re.I):
            return self.finish("done", f"The order was not placed: {step.said}")
        return self.finish("failed", f"The order was not placed and I will not retry it: {step.said}")

    @staticmethod
    def _ok(step: Step) -> bool:
        if step.name == "go_to_checkout":
            return step.said.startswith("At checkout")
        if step.name == "fill_delivery_details":
            return "All required details are filled." in step.said and not re.search(
                r'Promo "[^"]*": "(?![^"]*applied)', step.said, re.I
            )
        return not step.said.startswith(("Refused:", "Did not", "No ", "Tried"))

    # -- which restaurant ----------------------------------------------------------------------------

    def _restaurant(self, items: list[OrderItem]) -> str | Plan:
        chosen = self.latest("restaurant")
        if chosen:
            offered = next((a for a in reversed(self.steps) if a.tag == "ask-restaurant"), None)
            choices = (offered.args.get("choices") or []) if offered else []
            return resolve(chosen, choices).found or chosen
        if self.spec.restaurant:
            return self.spec.restaurant
        what = self.latest("what")
        if what and parse_goal(what).restaurant:
            return str(parse_goal(what).restaurant)
        found: list[tuple[list[str], bool]] = []
        searches: list[tuple[str, str, dict[str, Any]]] = []
        for k, item in enumerate(items):
            words = _search_words(item.dish)
            done = [s for s in self.steps if s.tag.startswith(f"search{k}.")]
            parsed = parse_search(done[-1].said) if done else None
            dropped = int(done[-1].tag.split(".")[1]) if done else -1
            if parsed is None or (not parsed[0] and dropped + 1 < len(words)):
                query = " ".join(words[dropped + 1 :])
                if query:
                    searches.append((f"search{k}.{dropped + 1}", "search_restaurants", {"query": query}))
                continue
            found.append(parsed)
        if searches:
            dishes = ", ".join(str(args["query"]) for _, _, args in searches)
            return Plan(f"No restaurant named; searching for {dishes}.", searches)
        lists = [names for names, _ in found if names]
        if not lists:
            dishes = " and ".join(item.dish for item in items)
            return self.ask(
                "restaurant", f"I could not find a restaurant that sells {dishes}. Which restaurant?"
            )
        candidates = list(lists[0])
        for names, cut in found:
            if names and not cut:
                narrowed = [c for c in candidates if c in names]
                candidates = narrowed or candidates
        keys = {normalize(item.dish) for item in items}
        exact = [c for c in candidates if normalize(c) in keys]
        if len(candidates) == 1 or len(exact) == 1:
            return candidates[0] if len(candidates) == 1 else exact[0]
        dishes = " and ".join(item.dish for item in items)
        return self.ask(
            "restaurant",
            f"Several restaurants sell {dishes}. Which one should I order from?",
            context=f"Found: {', '.join(candidates)}.",
            choices=candidates,
        )

    def _opened(self, wanted: str) -> tuple[str, dict[str, bool]] | Plan:
        for step in reversed(self.steps):
            if step.name != "open_restaurant":
                continue
            menu = parse_menu(step.said)
            if menu is not None and resolve(wanted, [menu[0]]).found:
                return menu
            if menu is None and normalize(str(step.args.get("name", ""))) == normalize(wanted):
                candidates = quoted(step.said.split(":", 1)[1] if "matches several" in step.said else "")
                candidates += (
                    quoted(step.said.split("Did you mean", 1)[1]) if "Did you mean" in step.said else []
                )
                if candidates:
                    return self.ask(
                        "restaurant",
                        f"Which restaurant did you mean by {wanted!r}?",
                        context=step.said,
                        choices=candidates,
                    )
                return self.finish("failed", f"Could not open {wanted}: {step.said}")
            break
        return Plan(f"Opening {wanted}.", [("open", "open_restaurant", {"name": wanted})])

    # -- the dishes, then checkout -------------------------------------------------------------------

    def _items(self, menu: dict[str, bool], items: list[OrderItem]) -> list[ItemState]:
        states: list[ItemState] = []
        for item in items:
            dish, leftover, candidates = match_dish(item.dish, list(menu))
            previous = states[-1] if states else None
            if (
                previous is not None
                and dish is None
                and not candidates
                and item.quantity == 1
                and not item.options
                and len(item.dish.split()) <= 2
                and match_dish(previous.phrase, list(menu))[0] is not None
            ):
                # "an ice cream pint, pistachio, and …": a word or two naming no dish at all is a choice
                # of the dish before it; add_to_cart maps it to an option group or says it is none.
                previous.options.append(item.dish)
                previous.merged.append(item.dish)
                continue
            parts = re.split(r"\s+(?:and|&)\s+", item.dish)
            dishes = {match_dish(part, list(menu))[0] for part in parts}
            whole = dish is not None and not leftover  # "Mac and Cheese" is one dish
            if not whole and len(parts) > 1 and None not in dishes and len(dishes) == len(parts):
                # "a salad and tiramisu": the parser kept them together; the menu shows they are two.
                # The quantity was written before the first dish; the parser's options ("(regular)",
                # "with …", a lone ", hot,") after the last one, so each goes to the dish it is next to.
                for i, part in enumerate(parts):
                    count, phrase = parse_quantity(part)
                    if i == 0:
                        count = item.quantity
                    options = list(item.options) if i == len(parts) - 1 else []
                    states.append(ItemState(phrase, count, options))
                continue
            states.append(ItemState(item.dish, item.quantity, list(item.options)))
        extra = self.latest("minimum")
        if extra:
            states += [ItemState(i.dish, i.quantity, list(i.options)) for i in parse_goal(extra).items]
        return states

    def _fold(self, states: list[ItemState]) -> None:
        """Replay the add results and answers about each dish, in conversation order."""
        for step in self.steps:
            topic = step.tag.removeprefix("ask-") if step.name == "ask_human" else ""
            for k, state in enumerate(states):
                if step.tag == f"add{k}" and step.result is not None:
                    if step.said.startswith("Added "):
                        state.added, state.failure = step.said, None
                    else:
                        state.failure, state.failures = step.said, state.failures + 1
                        state.no_options = state.no_options or "has no options" in step.said
                elif topic in (f"dish{k}", f"opt{k}") and (text := answer_of(step)):
                    if topic == f"dish{k}":
                        if is_skip(text):
                            state.dropped = True
                        else:
                            state.phrase = text
                    else:
                        bad = re.search(r'no choice "([^"]+)"', state.failure or "")
                        if bad:
                            state.options = [
                                o for o in state.options if normalize(o) != normalize(bad.group(1))
                            ]
                        if normalize(text) not in {"skip", "skip it", "none", "nothing"}:
                            state.options.append(text)  # "skip": just leave the rejected choice out
                    state.failure, state.failures = None, 0

    def _order(self, restaurant: str, menu: dict[str, bool], items: list[OrderItem]) -> Plan:
        states = self._items(menu, items)
        self._fold(states)
        adds: list[tuple[str, str, dict[str, Any]]] = []
        blocker: Plan | None = None
        for k, state in enumerate(states):
            if state.added or state.dropped:
                continue
            issue = self._issue(k, state, restaurant, menu)
            if isinstance(issue, Plan):
                blocker = blocker or issue
            else:
                adds.append((f"add{k}", "add_to_cart", issue))
        if adds:
            names = ", ".join(f"{a['quantity']} × {a['dish']}" for _, _, a in adds)
            return Plan(f"Adding {names}.", adds)
        if blocker:
            return blocker
        if not any(state.added for state in states):
            return self.finish("done", "Nothing was ordered: none of the dishes could be added.")
        return self._checkout(restaurant, states)

    def _issue(
        self, k: int, state: ItemState, restaurant: str, menu: dict[str, bool]
    ) -> dict[str, Any] | Plan:
        dish, leftover, candidates = match_dish(state.phrase, list(menu))
        if dish is None:
            if candidates:
                return self.ask(
                    f"dish{k}",
                    f"Which dish did you mean by {state.phrase!r}?",
                    choices=candidates,
                    context=f"Several dishes on {restaurant}'s menu match.",
                )
            return self.ask(
                f"dish{k}",
                f"{restaurant} has no {state.phrase!r}. What should I order instead (or say skip)?",
                context="Menu: " + ", ".join(menu),
            )
        failure = state.failure or ""
        if menu.get(dish) or "is sold out" in failure:
            return self.ask(
                f"dish{k}", f"{dish} is sold out at {restaurant}. What should I order instead (or say skip)?"
            )
        required = re.search(r"is required: choose one of (.+?)\.?$", failure)
        if required:
            choices = [c.strip() for c in required.group(1).split(",")]
            group = failure.split(": ", 1)[-1].split(" is required", 1)[0]
            return self.ask(f"opt{k}", f"Which {group} for {dish}?", choices=choices, context=failure)
        offered = re.search(r"\(choices — (.+)\)", failure)
        if offered:
            choices = [
                c.strip() for part in offered.group(1).split(";") for c in part.split(":", 1)[-1].split(",")
            ]
            bad = re.search(r'no choice "([^"]+)"', failure)
            lone = bad and any(normalize(m) == normalize(bad.group(1)) for m in state.merged)
            question = (
                f"{restaurant} has no dish {bad.group(1)!r}, and it is no choice for {dish} either. "
                f"Which option for {dish} (or say skip)?"
                if bad and lone
                else f"Which option for {dish}?"
            )
            return self.ask(f"opt{k}", question, choices=choices, context=failure)
        if failure.startswith("No dish called") or "matches several dish" in failure:
            hint = (
                failure.split("Did you mean", 1)[-1]
                if "Did you mean" in failure
                else failure.split(":", 1)[-1]
            )
            return self.ask(
                f"dish{k}", f"Which dish did you mean by {state.phrase!r}?", choices=quoted(hint) or None
            )
        if failure and not state.no_options:
            if "choice" in failure:
                return self.ask(f"opt{k}", f"Which options exactly for {dish}?", context=failure)
            return self.finish("failed", f"Could not add {dish}: {failure}")
        if state.no_options and state.failures > 1:
            return self.finish("failed", f"Could not add {dish}: {failure}")
        options = [] if state.no_options else [*state.options, *leftover]
        args: dict[str, Any] = {"dish": dish, "quantity": state.quantity}
        if options:
            args["options"] = options
        return args

    def _details(self) -> dict[str, Any]:
        given = self.profile.merged_under(
            Profile(
                name=self.spec.name,
                address=self.spec.address,
                phone=self.spec.phone,
                payment_method=self.spec.payment_method,
            )
        )
        details: dict[str, Any] = given.model_dump()
        for answer in self.answers_to("details"):
            details.update({k: v for k, v in parse_details(answer.text or "", details).items() if v})
        details["delivery_slot"] = self.latest("slot") or self.spec.delivery_slot or "ASAP"
        if self.latest("payment"):
            details["payment_method"] = self.latest("payment")
        if self.spec.promo_code:
            # After "yes, order without it" the code is cleared ("" empties the field): the shop
            # refuses an order that still carries a rejected code.
            details["promo_code"] = "" if is_yes(self.latest("promo") or "") else self.spec.promo_code
        tip = self.latest("tip")
        if tip:
            amount = re.search(r"\d+(?:\.\d\d)?", tip)
            details["tip_cents"] = cents(amount.group(0)) if amount else 0
        elif self.spec.tip_cents is not None:
            details["tip_cents"] = self.spec.tip_cents
        return details

    def _checkout(self, restaurant: str, states: list[ItemState]) -> Plan:
        last_add = max(s.index for s in self.steps if s.tag.startswith("add") and s.said.startswith("Added "))
        after = [s for s in self.steps if s.index > last_add]
        short = re.search(r"Add (\$\d+\.\d\d) more to reach the (\$\d+\.\d\d) minimum", self.steps[-1].page)
        checkout = next((s for s in reversed(after) if s.name == "go_to_checkout"), None)
        gap = f"{short.group(1)} short of the {short.group(2)} minimum" if short else None
        minimum, amount = minimum_order(self.steps), cart_estimate(self.steps)
        if (
            gap is None
            and checkout is None
            and minimum is not None
            and amount is not None
            and amount < minimum
        ):
            # Checked here because a refused go_to_checkout would also fail the fill and place_order
            # after it — three failures in a row, which ends the run.
            gap = f"{money(minimum - amount)} short of the {money(minimum)} minimum"
        if gap or (checkout and "minimum order" in checkout.said):
            gap = gap or "below the minimum order"
            return self.ask(
                "minimum",
                f"The cart at {restaurant} is {gap}. What should I add (or say cancel)?",
                context=checkout.said if checkout else None,
            )
        details = self._details()
        missing = [
            field for field in ("name", "address", "phone", "payment_method") if not details.get(field)
        ]
        if missing:
            wanted = ", ".join(field.replace("_", " ") for field in missing)
            what = "What are they?" if len(missing) > 1 else "What is it?"
            return self.ask("details", f"To deliver the order I need your {wanted}. {what}")
        fill_args = {k: v for k, v in details.items() if v is not None}
        budget = self.spec.budget_cents
        # With a budget or a promo code, place_order waits a turn: the checkout total (fees, discount)
        # and the promo result are only known once the form is filled.
        together = budget is None and (not self.spec.promo_code or details.get("promo_code") == "")
        if checkout is None:
            calls = [("checkout", "go_to_checkout", {}), ("fill", "fill_delivery_details", fill_args)]
            if together:
                calls.append(("place", "place_order", {}))
            return Plan(f"Checking out at {restaurant}.", calls)
        if not checkout.said.startswith("At checkout"):
            return self.finish("failed", f"Could not reach checkout: {checkout.said}")
        fill = next((s for s in reversed(after) if s.name == "fill_delivery_details"), None)
        answered = [a for a in self.answers if a.topic in {"slot", "payment", "tip", "details", "promo"}]
        if fill is None or (answered and answered[-1].index > fill.index):
            calls = [("fill", "fill_delivery_details", fill_args)] + (
                [("place", "place_order", {})] if together else []
            )
            return Plan("Filling in the delivery details.", calls)
        said = fill.said
        for kind, topic in (("delivery time", "slot"), ("payment method", "payment")):
            if said.startswith(f"No {kind} called") or f"several {kind}s" in said:
                options = quoted(said.split("Did you mean", 1)[1]) if "Did you mean" in said else []
                return self.ask(
                    topic, f"Which {kind} should I choose?", context=said, choices=options or None
                )
        if said.startswith("No tip of"):
            tips = [t.strip() for t in said.split("choose one of", 1)[-1].rstrip(".").split(",")]
            return self.ask("tip", "Which tip should I give?", context=said, choices=tips)
        if "Still missing:" in said:
            return self.ask("details", f"The checkout form says: {said} What should I enter?")
        if "All required details are filled." not in said:
            return self.finish("failed", f"Could not fill in the delivery details: {said}")
        promo = re.search(r'Promo "([^"]*)": "([^"]*)"', said)
        if promo and "applied" not in promo.group(2).lower() and not is_yes(self.latest("promo") or ""):
            return self.ask(
                "promo",
                f"Promo code {promo.group(1)} was not accepted ({promo.group(2)}). Place the order without "
                "any promo code? (yes: order without the code, at the full price; no: do not order)",
                yes_no=True,
            )
        total = re.search(r"Total \$(\d+\.\d\d)", said)
        if (
            budget is not None
            and total
            and cents(total.group(1)) > budget
            and not is_yes(self.latest("budget") or "")
        ):
            return self.ask(
                "budget",
                f"The total is ${total.group(1)}, over your budget of {money(budget)}. Place the order anyway?",
                yes_no=True,
            )
        if any(s.name == "place_order" and s.index > fill.index for s in self.steps):
            return self.finish("failed", "The order was not confirmed; not retrying it.")
        return Plan("Placing the order.", [("place", "place_order", {})])

    def _summary(self, order_id: int) -> str:
        added = [s.said for s in self.steps if s.tag.startswith("add") and s.said.startswith("Added ")]
        lines = [re.sub(r"^Added (.*?) — .*$", r"\1", said).replace('"', "") for said in added]
        total = next(
            (m.group(1) for s in reversed(self.steps) if (m := re.search(r"total (\$\d+\.\d\d)", s.said))),
            None,
        )
        where = f" at {total}" if total else ""
        return f"Placed order #{order_id}{where}: {', '.join(lines) or 'the cart'}."


def _search_words(dish: str) -> list[str]:
    # The shop matches every query word as a substring, so "pizzas" must become "pizza" — but "fries"
    # must stay "fries" (its singular "fry" is no substring of it).
    words = []
    for word in _fold_text(dish).split():
        if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "ies")):
            word = word[:-1]
        words.append(word)
    return words


def _fold_text(text: str) -> str:
    """Like `names.normalize`, but keeping plurals (the shop's search needs the written form)."""
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))
    return " ".join(re.sub(r"[^a-z0-9]+", " ", plain.casefold()).split())
