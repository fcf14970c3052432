"""Reading a conversation back: each tool call with the first line of its result, the person's answers,
and the facts narrations state (menus, search results, minimum order, cart amount).

The planner re-reads the whole conversation on every turn instead of keeping state, so that a paused run
resumes in another process; this module is that reading, kept apart from the deciding (planner.py).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from webagent.goal import parse_goal
from webagent.names import normalize

__all__ = [
    "Answer",
    "Step",
    "answer_of",
    "cart_estimate",
    "cents",
    "is_refusal",
    "is_skip",
    "is_yes",
    "minimum_order",
    "parse_details",
    "parse_menu",
    "parse_search",
    "quoted",
    "read_steps",
    "text_of",
]

REFUSALS = {
    "no", "nope", "n", "cancel", "cancel it", "cancel the order", "cancel order", "stop", "abort", "quit",
    "never mind", "nevermind", "forget it", "dont", "don't", "do not", "no thanks", "no thank you", "none",
    "neither", "nothing", "dont order", "don't order", "do not order",
}  # fmt: skip
YES = {
    "yes",
    "y",
    "yeah",
    "yep",
    "sure",
    "ok",
    "okay",
    "go ahead",
    "proceed",
    "yes please",
    "do it",
    "place it",
    "fine",
}
SKIP_WORDS = ("skip", "without", "leave it out", "drop", "remove")
ID_PATTERN = re.compile(r"^call_\d+_\d+_(.+)$")


@dataclass
class Step:
    """One tool call of the conversation and the first line of its result (None: no result yet)."""

    index: int
    turn: int
    tag: str
    name: str
    args: dict[str, Any]
    result: str | None

    @property
    def said(self) -> str:
        return (self.result or "").split("\n", 1)[0]

    @property
    def page(self) -> str:
        return next((line for line in (self.result or "").splitlines() if line.startswith("Page: ")), "")


@dataclass
class Answer:
    index: int
    topic: str
    text: str | None


def read_steps(messages: list[dict[str, Any]]) -> tuple[list[Step], int]:
    results = {m.get("tool_call_id"): text_of(m.get("content")) for m in messages if m.get("role") == "tool"}
    steps: list[Step] = []
    turns = 0
    for message in messages:
        if message.get("role") != "assistant":
            continue
        turns += 1
        for call in message.get("tool_calls") or []:
            function = call.get("function") or {}
            try:
                args = json.loads(function.get("arguments") or "{}")
            except json.JSONDecodeError:
                args = {}
            match = ID_PATTERN.match(str(call.get("id", "")))
            steps.append(
                Step(
                    index=len(steps),
                    turn=turns,
                    tag=match.group(1) if match else "",
                    name=str(function.get("name", "")),
                    args=args if isinstance(args, dict) else {},
                    result=results.get(call.get("id")),
                )
            )
    return steps, turns


def text_of(content: Any) -> str:
    if isinstance(content, list):  # content parts
        return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return str(content or "")


def answer_of(step: Step) -> str | None:
    match = re.search(r'answered:[^"]*"([^"]*)"', step.result or "")
    return match.group(1).strip() if match else None


def is_refusal(answer: str) -> bool:
    key = normalize(answer).replace("dont", "don't")
    return (
        key in REFUSALS
        or normalize(answer) in REFUSALS
        or bool(re.match(r"(no|none|cancel|stop|don'?t)\b", key))
    )


def is_skip(answer: str) -> bool:
    return any(word in answer.lower() for word in SKIP_WORDS) or normalize(answer) in {"none", "nothing"}


def is_yes(answer: str) -> bool:
    key = normalize(answer)
    return key in YES or key.startswith(("yes", "ok", "sure", "go ahead"))


def cents(text: str) -> int:
    return round(float(text) * 100)


def quoted(text: str) -> list[str]:
    return re.findall(r'"([^"]+)"', text)


def parse_menu(said: str) -> tuple[str, dict[str, bool]] | None:
    """From an open_restaurant narration: the restaurant and its dishes (name → sold out), or None."""
    match = re.match(r'(?:Opened "([^"]+)"\.|"([^"]+)" is already open\.).*?Menu: (.*)$', said)
    if match is None:
        return None
    menu = {
        name: bool(sold)
        for name, sold in re.findall(r'"([^"]+)" -?\$\d+\.\d\d( \(sold out\))?', match.group(3))
    }
    return match.group(1) or match.group(2), menu


def parse_search(said: str) -> tuple[list[str], bool] | None:
    """From a search_restaurants narration: the restaurants found and whether the list was cut short."""
    if said.startswith("No restaurants match"):
        return [], False
    match = re.match(r'Found \d+ restaurants? for (?:"[^"]*")?[^:]*: (.*)$', said)
    if match is None:
        return None
    listing = match.group(1)
    return quoted(listing), bool(re.search(r" and \d+ more\.?$", listing))


def minimum_order(steps: list[Step]) -> int | None:
    for step in reversed(steps):
        if step.name == "open_restaurant" and parse_menu(step.said) is not None:
            match = re.search(r"Minimum order \$(\d+\.\d\d)", step.said)
            return cents(match.group(1)) if match else None
    return None


def cart_estimate(steps: list[Step]) -> int | None:
    for step in reversed(steps):
        match = re.search(r"cart now \d+ items?, \$(\d+\.\d\d)", step.said)
        if match:
            return cents(match.group(1))
    return None


def parse_details(answer: str, known: dict[str, Any]) -> dict[str, str | None]:
    """Delivery details from a free-text answer: labelled phrases first, then comma-separated parts."""
    spec = parse_goal(answer)
    found: dict[str, str | None] = {
        "name": spec.name, "address": spec.address, "phone": spec.phone, "payment_method": spec.payment_method,
    }  # fmt: skip
    missing = [k for k in ("name", "address", "phone", "payment_method") if not known.get(k) and not found[k]]
    if not missing:
        return found
    rest = answer
    for value in found.values():
        if value:
            rest = rest.replace(value, " ")
    parts = [p.strip(" .") for p in re.split(r"[;\n]|,(?!\s*[A-Z][a-z]+\s*$)", rest) if p.strip(" .")]
    if len(missing) == 1 and len(parts) == 1:
        found[missing[0]] = parts[0]
        return found
    for part in parts:
        if "phone" in missing and not found["phone"] and re.fullmatch(r"\+?[\d\s()+-]{5,30}", part):
            found["phone"] = part
        elif "address" in missing and not found["address"] and re.match(r"\d", part):
            found["address"] = part
        elif "name" in missing and not found["name"] and re.fullmatch(r"[^\d]{1,80}", part):
            found["name"] = part
    return found
