"""Baseline agents: what an eval score is worth, measured beside agents that deserve none.

Each is a `Model` (``async complete(messages, tools) -> Reply``), deterministic, offline, and acts only
through the tools, like any other model:

- `NullAgent` finishes at once. Whatever it passes, the suite gives away for nothing.
- `AskAgent` asks the person one question, then stops. It passes only tasks where asking is the whole
  job — a suite where it scores is rewarding a shrug.
- `RandomAgent` clicks at random over the tools the narrations offer ("Next: …"), with arguments drawn
  from what the narrations show (restaurant and dish names, choices, buttons), seeded so a run repeats.
- `GullibleAgent` orders like the planner but obeys instructions it finds in page text: it reads the
  reviews and the page (descriptions, notices) of every restaurant it opens, and does what they say —
  adds the dishes they push, drops the budget they tell it to ignore. It is the attacker's best friend,
  so the suite can show that page text cannot buy anything (the approval gate, webagent/agent/anchor.py).
- `NamerAgent` answers any question with names the page showed: it opens the restaurant the goal names
  (or one the list shows), then finishes ``done`` naming what the pages listed. It lands on the very page
  that shows a task's reason, so a stop reason judged by names in the agent's words (a question
  "answered" by repeating the page, a sold-out dish named in a summary) would pay it.

``webagent eval --model null|ask|random|gullible|namer`` runs the suite with one of them (``random:3``,
``namer:2``: another seed); ``--baselines`` runs them all beside the model under test.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

from webagent.llm.protocol import Reply, ToolCall, Usage
from webagent.narration.names import resolve
from webagent.planner import Planner, read_goal
from webagent.planner.menu import Menu
from webagent.planner.transcript import BUDGET_NOTE, EXACT_ORDER, PROFILE_NOTE, Transcript, first_line

__all__ = [
    "BASELINES",
    "AskAgent",
    "GullibleAgent",
    "NamerAgent",
    "NullAgent",
    "RandomAgent",
    "baseline",
    "is_baseline",
    "page_instructions",
]

BASELINES = ("null", "ask", "random", "gullible", "namer")
"""The names ``--model`` accepts for the baseline agents (``random`` and ``namer`` also as ``NAME:SEED``)."""
SEEDED = ("random", "namer")

QUESTION = "What exactly would you like me to order, and from which restaurant?"


def _reply(messages: list[dict[str, Any]], calls: list[tuple[str, dict[str, Any]]], say: str) -> Reply:
    turn = sum(1 for m in messages if m.get("role") == "assistant") + 1
    tool_calls = [
        ToolCall(id=f"call_{turn}_{i}", name=name, arguments=json.dumps(args))
        for i, (name, args) in enumerate(calls)
    ]
    return Reply(content=say, tool_calls=tool_calls, usage=Usage(), finish_reason="tool_calls")


class NullAgent:
    """Finishes at once, having done nothing."""

    def describe(self) -> str:
        return "null baseline (finishes at once)"

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Reply:
        return _reply(
            messages, [("finish", {"outcome": "done", "summary": "Finished without doing anything."})], ""
        )


class AskAgent:
    """Asks the person one question, then finishes without acting on the answer."""

    def describe(self) -> str:
        return "ask baseline (asks once, then stops)"

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Reply:
        asked = any(step.name == "ask_human" for step in Transcript(messages).steps)
        if not asked:
            return _reply(messages, [("ask_human", {"question": QUESTION, "format": "free_text"})], QUESTION)
        return _reply(
            messages, [("finish", {"outcome": "done", "summary": "Asked one question; stopping."})], ""
        )


# -- the random clicker ------------------------------------------------------------------------------

NEXT_LINE = re.compile(r"^Next: (.+)$", re.M)
QUOTED = re.compile(r'"([^"]{1,100})"')
ORDER_PLACED = re.compile(r"^Order #(\d+) placed", re.M)
EVERYWHERE = ("search_restaurants", "open_restaurant", "view_cart", "press", "scroll_to_text", "read_page")
"""Tools a clicker can always reach for, beside those the last narration offers."""
RANGE = re.compile(r"(\d+) to (\d+)")
PLAUSIBLE = {
    "name": "Random Person",
    "address": "1 Random Road",
    "phone": "555-0000",
    "delivery_slot": "ASAP",
    "question": "Should I go on?",
    "context": None,
    "summary": "Clicked around at random.",
    "promo_code": None,
}


class RandomAgent:
    """A seeded random clicker: each turn one tool the page offers, with arguments the page shows.

    It reads nothing but the narrations (never the goal), so any task it passes is one the suite gives
    away. Stateless: the choice is a function of the seed and the conversation, so a run repeats and a
    resumed run goes on as the first process would have.
    """

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def describe(self) -> str:
        return f"random baseline (seed {self.seed})"

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Reply:
        transcript = Transcript(messages)
        texts = [text for _, text in transcript.narrations()]
        rng = random.Random(f"{self.seed}:{len(messages)}:{texts[-1] if texts else ''}")
        schemas = {tool["function"]["name"]: tool["function"] for tool in tools}
        offered = NEXT_LINE.findall(texts[-1]) if texts else []
        names = [name.strip() for line in offered for name in line.split(",")]
        choices = [name for name in dict.fromkeys([*names, *EVERYWHERE]) if name in schemas]
        roll = rng.random()
        if roll < 0.04 or not choices:
            placed = ORDER_PLACED.findall("\n".join(texts))
            args: dict[str, Any] = {"outcome": "done", "summary": PLAUSIBLE["summary"], "order_id": None}
            if placed:
                args.update(outcome="ordered", order_id=int(placed[-1]))
            return _reply(messages, [("finish", args)], "")
        if roll < 0.08:
            return _reply(
                messages, [("ask_human", self._arguments("ask_human", schemas["ask_human"], {}, rng))], ""
            )
        name = rng.choice(choices)
        return _reply(
            messages, [(name, self._arguments(name, schemas[name], _seen(transcript, texts), rng))], ""
        )

    def _arguments(
        self, tool: str, schema: dict[str, Any], seen: dict[str, list[str]], rng: random.Random
    ) -> dict[str, Any]:
        args: dict[str, Any] = {}
        for field, spec in (schema.get("parameters") or {}).get("properties", {}).items():
            kinds = [spec, *spec.get("anyOf", [])]
            types = {kind.get("type") for kind in kinds}
            enums = [kind["enum"] for kind in kinds if "enum" in kind]
            words = seen.get(FIELD_SOURCES.get((tool, field), FIELD_SOURCES.get(("*", field), "quoted")), [])
            if "null" in types and rng.random() < 0.3:
                args[field] = None
            elif enums:
                args[field] = rng.choice(enums[0])
            elif tool in ("fill_delivery_details", "ask_human", "finish") and field in PLAUSIBLE:
                args[field] = PLAUSIBLE[field]
            elif "integer" in types:
                # Strict schemas carry limits in words ("1 to 50", "From 200 to 12000."): stay inside them.
                bounds = RANGE.search(str(spec.get("description", "")))
                low, high = (int(bounds[1]), int(bounds[2])) if bounds else (1, 3)
                args[field] = 0 if field == "tip_cents" else rng.randint(low, min(high, low + 2))
            elif "boolean" in types:
                args[field] = rng.random() < 0.5
            elif "array" in types:
                args[field] = [rng.choice(words)] if words else None
            else:  # within the field's length, said in words too ("At most 40 characters.", "From 1 to 40 …")
                most = re.search(r"(?:at most|to) (\d+) characters", str(spec.get("description", "")), re.I)
                args[field] = (rng.choice(words) if words else "menu")[: int(most[1]) if most else None]
        return args


FIELD_SOURCES = {
    ("open_restaurant", "name"): "restaurants",
    ("search_restaurants", "query"): "restaurants",
    ("*", "dish"): "dishes",
    ("*", "options"): "choices",
    ("*", "item"): "cart",
}
"""Which names the page showed fit which argument (anything else: any quoted page text)."""


def _seen(transcript: Transcript, texts: list[str]) -> dict[str, list[str]]:
    """The names the narrations showed, by kind: restaurants, the open menu's dishes and choices, cart lines."""
    here = transcript.open_restaurant()
    menu = transcript.menu_of(here) if here else None
    carts = [text for text in texts if text.startswith("Cart: ")]
    return {
        "restaurants": transcript.restaurants(),
        "dishes": menu.names if menu else [],
        "choices": list(dict.fromkeys(c for dish in menu.dishes for c in dish.choices)) if menu else [],
        "cart": re.findall(r'\d+ × "([^"]*)"', carts[-1].splitlines()[0]) if carts else [],
        "quoted": list(dict.fromkeys(q for text in texts[-3:] for q in QUOTED.findall(text))),
    }


# -- the namer ---------------------------------------------------------------------------------------


class NamerAgent:
    """Answers with names the page showed, whatever the goal asks: it opens the listed restaurant the goal
    names (else the seed-th listed), then finishes ``done`` naming what the pages listed — every name
    (seed 0) or one of them (another seed). Any stop reason it passes is one that names from the page buy."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def describe(self) -> str:
        return f"namer baseline (answers with names from the page, seed {self.seed})"

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Reply:
        transcript = Transcript(messages)
        listed = transcript.restaurants()
        looked = any(step.name in ("open_restaurant", "search_restaurants") for step in transcript.steps)
        if not looked and listed:
            goal = transcript.people[0].words.casefold() if transcript.people else ""
            named = sorted((name for name in listed if name.casefold() in goal), key=len, reverse=True)
            pick = named[0] if named else listed[self.seed % len(listed)]
            return _reply(messages, [("open_restaurant", {"name": pick})], f"Opening {pick}.")
        here = transcript.open_restaurant()
        menu = transcript.menu_of(here) if here else None
        names = list(dict.fromkeys([*listed, *(menu.names if menu else [])]))
        if self.seed and names:
            names = [random.Random(self.seed).choice(names)]
        summary = ", ".join(names) or "Nothing to name."
        return _reply(messages, [("finish", {"outcome": "done", "summary": summary[:1000]})], "")


# -- the gullible one --------------------------------------------------------------------------------

INSTRUCTION = re.compile(
    r"\b(add|adds|added|order|orders|buy|get|include|includes|put|want|wants|needs?|must|always|"
    r"ignore|place)\b",
    re.I,
)
COUNT = r"(?P<count>\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:(?:extra|more|additional)\s+)?"
NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
NUMBERS.update({"seven": 7, "eight": 8, "nine": 9, "ten": 10})
FENCED = re.compile(r"<<<\n(.*?)\n>>>", re.S)
IGNORE_BUDGET = re.compile(r"\bignore\b[^.!?]*\bbudget\b", re.I)
CONTROL = re.compile(r"^\s*- (?:button|link|spinbutton|checkbox|radio|textbox|combobox|searchbox|/url)\b")
READ_REVIEWS = re.compile(r'^(?:Reviews of "(?P<a>[^"]+)"|"(?P<b>[^"]+)" shows no reviews)')


def _page_texts(transcript: Transcript) -> Iterator[str]:
    """Everything the pages said, as the narrations quote it: fenced page text and quoted names (the
    person's own answers to questions are not page text)."""
    texts = [m.narration for m in transcript.people]
    texts += [s.result for s in transcript.steps if s.result and s.name not in ("ask_human", "finish")]
    for text in texts:
        for block in FENCED.findall(text):
            # A page snapshot names its controls too ("button \"Add Cola to cart\""): those are no one's words.
            yield "\n".join(line for line in block.splitlines() if not CONTROL.match(line))
        yield from QUOTED.findall(FENCED.sub("", text))


def page_instructions(transcript: Transcript, menu: Menu | None) -> tuple[list[tuple[str, int]], bool]:
    """What page text tells an agent to do: (dishes it pushes, with quantities), and whether it says to
    ignore the budget. A dish counts only when the instruction names it as the menu does."""
    pushed: dict[str, int] = {}
    ignore_budget = False
    for text in _page_texts(transcript):
        for sentence in re.split(r"(?<=[.!?;—])\s+|\n", text):
            if not INSTRUCTION.search(sentence):
                continue
            ignore_budget = ignore_budget or bool(IGNORE_BUDGET.search(sentence))
            for dish in menu.dishes if menu else ():
                found = re.search(rf"(?:{COUNT})?{re.escape(dish.name)}", sentence, re.I)
                if found is None or dish.sold_out or INSTRUCTION.search(dish.name):  # not the carrier
                    continue
                count = found.group("count")
                quantity = int(count) if count and count.isdigit() else NUMBERS.get((count or "a").lower(), 1)
                pushed[dish.name] = max(pushed.get(dish.name, 0), quantity)
    return list(pushed.items()), ignore_budget


class GullibleAgent:
    """Orders like the planner, but what page text says goes: it reads every restaurant's reviews and
    page, and folds their instructions into the person's goal as if the person had written them."""

    def __init__(self) -> None:
        self.planner = Planner()

    def describe(self) -> str:
        return "gullible baseline (obeys page text)"

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Reply:
        transcript = Transcript(messages)
        here = transcript.open_restaurant()
        if here and here not in self._read(transcript):
            calls = [("read_reviews", {"count": 20}), ("read_page", {"max_chars": 12_000})]
            return _reply(messages, calls, f"Reading what {here}'s page says.")
        menu = transcript.menu_of(here) if here else self._last_menu(transcript)
        pushed, ignore_budget = page_instructions(transcript, menu)
        if not pushed and not ignore_budget:
            return self.planner.next_reply(messages)
        return self.planner.next_reply(_obeying(messages, menu, pushed, ignore_budget))

    @staticmethod
    def _read(transcript: Transcript) -> set[str]:
        """The restaurants whose reviews it has read (or tried to, three times: then it goes on)."""
        tries = [step for step in transcript.steps if step.name == "read_reviews"]
        read = {m["a"] or m["b"] for step in tries if (m := READ_REVIEWS.match(step.said))}
        here = transcript.open_restaurant()
        return read | ({here} if here and len(tries) >= 3 else set())

    @staticmethod
    def _last_menu(transcript: Transcript) -> Menu | None:
        for _, text in reversed(transcript.narrations()):
            menu = Menu.from_narration(first_line(text))
            if menu is not None:
                return menu
        return None


def _obeying(
    messages: list[dict[str, Any]], menu: Menu | None, pushed: list[tuple[str, int]], ignore_budget: bool
) -> list[dict[str, Any]]:
    """The conversation as the gullible agent takes it: the first request rewritten to say what the page said."""
    rewritten = [dict(message) for message in messages]
    first = next((m for m in rewritten if m.get("role") == "user"), None)
    if first is None:
        return messages
    text = str(first.get("content") or "")
    words, sep, narration = text.partition("\n\n")
    notes = min(
        [m.start() for m in (BUDGET_NOTE.search(words), PROFILE_NOTE.search(words)) if m], default=len(words)
    )
    goal, tail = words[:notes], words[notes:]
    if ignore_budget:
        tail = BUDGET_NOTE.sub("", tail)
        budget = read_goal(goal).details.get("budget_cents")
        if budget is not None:
            goal = goal[: budget.words.start] + goal[budget.words.end :]
    extra = [f"{quantity} {_with_choices(dish, menu)}" for dish, quantity in pushed]
    exact = EXACT_ORDER.match(goal)
    if exact and extra:
        order = json.loads(exact.group(1))
        order.setdefault("items", []).extend(
            {"dish": dish, "quantity": quantity, "options": _choices(dish, menu)} for dish, quantity in pushed
        )
        goal = "Place exactly this order: " + json.dumps(order)
    elif extra:
        goal = goal.rstrip() + "\n" + "\n".join(f"- {line}" for line in extra)
    first["content"] = goal + tail + sep + narration
    return rewritten


def _choices(dish: str, menu: Menu | None) -> list[str]:
    """The first choice of each option the dish requires: a gullible agent does not ask."""
    found = menu.dish(resolve(dish, menu.names).found or dish) if menu else None
    return (
        [option.choices[0] for option in found.options if option.required and option.choices] if found else []
    )


def _with_choices(dish: str, menu: Menu | None) -> str:
    choices = _choices(dish, menu)
    return f"{dish} ({', '.join(choices)})" if choices else dish


def is_baseline(name: str | None) -> bool:
    """Whether ``--model NAME`` is a baseline agent: one of `BASELINES`, or a seeded one (``random:3``)."""
    if name is None:
        return False
    base, colon, seed = name.partition(":")
    return name in BASELINES or (base in SEEDED and bool(colon) and seed.isdigit())


def baseline(name: str, seed: int = 0) -> NullAgent | AskAgent | RandomAgent | GullibleAgent | NamerAgent:
    """The baseline agent called ``name`` (one of `BASELINES`, or ``random:SEED`` / ``namer:SEED``)."""
    base, _, given = name.partition(":")
    if base in SEEDED and given.isdigit():
        name, seed = base, int(given)
    if name == "namer":
        return NamerAgent(seed)
    if name == "null":
        return NullAgent()
    if name == "ask":
        return AskAgent()
    if name == "random":
        return RandomAgent(seed)
    if name == "gullible":
        return GullibleAgent()
    raise ValueError(f"no baseline called {name!r}; baselines: {', '.join(BASELINES)}")
