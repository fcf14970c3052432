"""The planner's reader of messages: what the person asked, what each tool said, what the pages showed.

The planner keeps no state between turns: each turn it reads the whole conversation again (so a run
paused in one process resumes in another with a fresh planner), and this module is that reading:

- the person's messages (`Message`): their words, and the page narration that came with them (the
  shop's opening, or in ``webagent chat`` what the page shows now, with the person's own clicks);
- each tool call and its result (`Step`), and each question asked with its answer (`Asked`);
- facts the narrations state: the restaurants seen, the menus, the cart's lines, the page line.

It reads only what an LLM would read: message text. The tools' sentences (the cart, a search, a menu,
the ``Page:`` line) are read with the readers beside their writers in webagent/narration/said.py and
narrate.py; what is matched here is the run's own notes (webagent/runs/runner.py: the opening, budget,
profile).

Beside the text, each message may carry what the page showed, typed (webagent/narration/seen.py), and
an ``ask_human`` result the person's answer as they gave it. The answers are read only from there, and
the approval anchor (webagent/agent/anchor.py) reads the menus and restaurants only from there
(`menus_seen`, `restaurants_seen`): no sentence of ours, and no page text a narration carries, decides
what the person approved.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import Any

from webagent.narration.money import parse_cents
from webagent.narration.narrate import read_narration, read_page_summary
from webagent.narration.said import read_back_at_list, read_cart_contents, read_not_found, read_searched
from webagent.narration.seen import REFUSAL, Seen, answer_of, order_of, seen_of
from webagent.planner.menu import Menu

__all__ = ["Asked", "CartLine", "Message", "Step", "Transcript", "text_of"]

NARRATION_START = re.compile(r"\n\n(?=The shop is open\.|Page now[.:]|Page: )")
PROFILE_NOTE = re.compile(
    r"\s*Customer profile \(use for details the goal does not give\): (\{.*?\})\s*$", re.S
)
BUDGET_NOTE = re.compile(r"\s*Budget: at most \$(\d+\.\d\d) in total\.")
EXACT_ORDER = re.compile(r"^Place exactly this order: (\{.*\})", re.S)
CART_CHANGES = ("add_to_cart", "change_quantity", "remove_from_cart")
NUDGE = "Call a tool to go on, or finish to end."
CART_CRUMB = re.compile(r"^@action: (?:added |changed |removed |emptied the cart|placed order)", re.M)
QUOTED = re.compile(r'"([^"]+)"')
OPENING = re.compile(r"^(?:The shop is open|Page now)\. Restaurants: (.*)$")
"""The run's opening (webagent/runs/runner.py ``opening_said``) and a chat's page now."""


def text_of(content: Any) -> str:
    """A message's text, whether a string or a list of content parts."""
    if isinstance(content, list):
        return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return str(content or "")


def first_line(text: str) -> str:
    return text.split("\n", 1)[0]


def page_line(text: str) -> str | None:
    """The narration's own ``Page:`` line: found from the narration's end, where `narrate` puts it
    (after the page's breadcrumbs, which are framed one line each and cannot start with it); else the
    last such line (a person's message with the page now)."""
    told = read_narration(text)
    if told.page is not None:
        return told.page
    return next((line for line in reversed(text.splitlines()) if line.startswith("Page: ")), None)


@dataclass
class Message:
    """A message from the person: their words and the narration of the page that came with it."""

    position: int
    words: str
    narration: str
    seen: Seen | None = None
    """What the page showed as the message was sent, typed."""


@dataclass
class Step:
    """One tool call and its result (None while it has none)."""

    position: int
    """Where its result stands among the messages (the assistant message's, without a result)."""
    turn: int
    name: str
    args: dict[str, Any]
    result: str | None
    seen: Seen | None = None
    """What the page showed after the call, typed (None: not recorded)."""
    answer: str | None = None
    """For ``ask_human``: the person's answer as they gave it (None: not answered)."""
    refusal: str = ""
    """Why the call was refused before it acted, as a code ("" when it ran): `ToolResult.refusal`."""
    order_id: int | None = None
    """The order the call placed, or the run's order a refusal names."""

    @property
    def said(self) -> str:
        """The first line: what the tool did."""
        return first_line(self.result or "")


@dataclass
class Asked:
    """A question the planner asked (`ask_human`) and the person's answer (None: not answered yet)."""

    step: Step
    question: str
    choices: list[str]
    answer: str | None


@dataclass(frozen=True)
class CartLine:
    """One line of the cart as ``view_cart`` narrated it: ``2 × "Margherita Pizza (Large)" $31.00``."""

    name: str
    quantity: int


@dataclass
class Transcript:
    """The conversation, read."""

    messages: list[dict[str, Any]]
    people: list[Message] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)
    """The position of each assistant message."""

    def __post_init__(self) -> None:
        results = {
            m.get("tool_call_id"): (i, m) for i, m in enumerate(self.messages) if m.get("role") == "tool"
        }
        for position, message in enumerate(self.messages):
            role = message.get("role")
            if role == "user":
                text = text_of(message.get("content"))
                if text.strip() == NUDGE:
                    continue
                parts = NARRATION_START.split(text, maxsplit=1)
                words, narration = parts[0], parts[1] if len(parts) > 1 else ""
                self.people.append(Message(position, words.strip(), narration, seen_of(message)))
            elif role == "assistant":
                self.turns.append(position)
                for call in message.get("tool_calls") or []:
                    function = call.get("function") or {}
                    try:
                        args = json.loads(function.get("arguments") or "{}")
                    except json.JSONDecodeError:
                        args = {}
                    where, result = results.get(call.get("id"), (position, None))
                    self.steps.append(
                        Step(
                            position=where,
                            turn=len(self.turns),
                            name=str(function.get("name", "")),
                            args=args if isinstance(args, dict) else {},
                            result=text_of(result.get("content")) if result is not None else None,
                            seen=seen_of(result) if result is not None else None,
                            answer=answer_of(result) if result is not None else None,
                            refusal=str(result.get(REFUSAL) or "") if result is not None else "",
                            order_id=order_of(result) if result is not None else None,
                        )
                    )

        # A look refused as a repeat (the page unchanged since the same call) found what that call found:
        # read it as that call's result, as its narration says.
        for index, step in enumerate(self.steps):
            if step.refusal == "repeated":
                same = (step.name, step.args)
                earlier = [s for s in self.steps[:index] if (s.name, s.args) == same and not s.refusal]
                if earlier:
                    self.steps[index] = replace(
                        step, result=earlier[-1].result, seen=earlier[-1].seen, refusal=""
                    )

    # -- what the person said -----------------------------------------------------------------------

    def assistant_texts(self) -> list[str]:
        """What the assistant said in each turn (its text beside the calls)."""
        return [text_of(m.get("content")) for m in self.messages if m.get("role") == "assistant"]

    def system_text(self) -> str:
        return "\n".join(text_of(m.get("content")) for m in self.messages if m.get("role") == "system")

    def profile(self) -> dict[str, str]:
        """The customer profile the run states (in the goal or the system prompt), if any."""
        for text in [*(m.words for m in self.people), self.system_text()]:
            match = PROFILE_NOTE.search(text) or re.search(r"Customer profile[^:]*: (\{.*?\})", text, re.S)
            if match:
                try:
                    data = json.loads(match.group(1))
                except json.JSONDecodeError:
                    continue
                return {k: str(v) for k, v in data.items() if isinstance(v, str | int) and v}
        return {}

    @staticmethod
    def goal_of(words: str) -> tuple[str, int | None, dict[str, Any] | None]:
        """(the person's own words, the run's budget note in cents, a structured order) of a request."""
        words = PROFILE_NOTE.sub("", words)
        budget = BUDGET_NOTE.search(words)
        words = BUDGET_NOTE.sub("", words).strip()
        exact = EXACT_ORDER.match(words)
        order = None
        if exact:
            try:
                order = json.loads(exact.group(1))
            except json.JSONDecodeError:
                order = None
        return words, parse_cents(budget.group(0)) if budget else None, order

    # -- what happened since a message --------------------------------------------------------------

    def steps_after(self, position: int) -> list[Step]:
        return [step for step in self.steps if step.position > position]

    def turns_after(self, position: int) -> int:
        return sum(1 for turn in self.turns if turn > position)

    def asked_after(self, position: int) -> list[Asked]:
        found = []
        for step in self.steps_after(position):
            if step.name != "ask_human":
                continue
            answer = step.answer.strip() if step.answer is not None else None
            found.append(
                Asked(
                    step=step,
                    question=str(step.args.get("question", "")),
                    choices=[str(c) for c in step.args.get("choices") or []],
                    answer=answer or None,
                )
            )
        return found

    def narrations(self) -> list[tuple[int, str]]:
        """Every narration in order: (position, text) of tool results and of the person's messages."""
        found = [(m.position, m.narration) for m in self.people if m.narration]
        found += [(s.position, s.result) for s in self.steps if s.result]
        return sorted(found, key=lambda pair: pair[0])

    # -- facts the pages showed ---------------------------------------------------------------------

    def sightings(self) -> list[Seen]:
        """Every typed record of what the page showed, in order (the person's messages' and the tools')."""
        found = [(m.position, m.seen) for m in self.people if m.seen is not None]
        found += [(s.position, s.seen) for s in self.steps if s.seen is not None]
        return [seen for _, seen in sorted(found, key=lambda pair: pair[0])]

    def menus_seen(self) -> list[Menu]:
        """Every menu the page showed, latest first, one per restaurant: typed, never read from narration."""
        found: dict[str, Menu] = {}
        for seen in reversed(self.sightings()):
            if seen.restaurant and seen.menu and seen.restaurant not in found:
                found[seen.restaurant] = Menu.from_seen(seen)
        return list(found.values())

    def restaurants_seen(self) -> list[str]:
        """Every restaurant the page listed or opened, in order of first sight: typed."""
        names: list[str] = []
        for seen in self.sightings():
            names += [*seen.restaurants, *([seen.restaurant] if seen.restaurant else [])]
        return list(dict.fromkeys(names))

    def restaurants(self) -> list[str]:
        """Every restaurant name a narration listed: the opening, the list, searches, suggestions."""
        names: list[str] = []
        for _, text in self.narrations():
            line = first_line(text)
            opening = OPENING.match(line)
            missing = read_not_found(line)
            unknown = missing is not None and missing.kind == "restaurant" and not missing.ambiguous
            suggested = missing.candidates if missing and unknown else ()
            listed = QUOTED.findall(opening.group(1)) if opening else []
            listed += read_back_at_list(line) or read_searched(line) or suggested
            names += [name for name in listed if name]
            menu = Menu.from_narration(line)
            if menu:
                names.append(menu.restaurant)
        return list(dict.fromkeys(names))

    def menu_of(self, restaurant: str) -> Menu | None:
        """The latest menu narrated for ``restaurant``."""
        for _, text in reversed(self.narrations()):
            menu = Menu.from_narration(first_line(text))
            if menu and menu.restaurant == restaurant:
                return menu
        return None

    def page(self) -> str:
        """The latest ``Page:`` line."""
        for _, text in reversed(self.narrations()):
            line = page_line(text)
            if line:
                return line
        return ""

    def open_restaurant(self) -> str | None:
        """The restaurant whose menu the page shows now, if any."""
        page = read_page_summary(self.page())
        return page.restaurant if page else None

    def cart(self) -> tuple[list[CartLine], int | None] | None:
        """The cart's lines and subtotal as last seen — or None when it may have changed since."""
        narrations = self.narrations()
        paged = [position for position, text in narrations if page_line(text)]
        changed_since = paged and any(
            s.position > paged[-1] and s.name in CART_CHANGES and s.result for s in self.steps
        )
        page = read_page_summary(self.page())
        if page is not None and page.cart_empty and not changed_since:  # an answer without a page after it
            return [], 0
        for index in range(len(narrations) - 1, -1, -1):
            position, text = narrations[index]
            shown = read_cart_contents(first_line(text))
            if shown is not None:
                lines = [CartLine(line.name, line.quantity) for line in shown.lines]
                return lines, shown.subtotal_cents or 0
            changed_by_step = any(s.position == position and s.name in CART_CHANGES for s in self.steps)
            if changed_by_step or CART_CRUMB.search(text):
                return None
        return None
