"""A page's own typed tools (WebMCP, webagent/browser/webmcp.py) offered to the model beside ours.

- **Named apart**: ``page__`` and the page's name, so a page cannot shadow a tool of ours ("press").
- **Held to the strict subset**: a tool's input schema is offered only when it is inside OpenAI's strict
  subset (`strict_violations`; ``additionalProperties: false`` is added where the page left it out); one
  outside it is left out, and the narration says which and why, once.
- **Gated**: a call is consequential — the approval gate and the budget, as a press of "Pay" — unless the
  page marks the tool read-only *and* nothing in its name or description pays, orders, books or sends
  money; what a page's tool does cannot be seen before it runs, so a write counts.
- **Narrated as page text**: what it answered is quoted, bounded, on one line: untrusted, never obeyed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import jsonschema
from playwright.async_api import Error as PlaywrightError

from webagent.browser.cards import card_words
from webagent.browser.session import PageSession
from webagent.browser.webmcp import PageTool, call_page_tool, page_tools
from webagent.llm.schemas import strict_violations
from webagent.narration.money import amount_cents
from webagent.narration.narrate import quote
from webagent.tools.consequence import NOT_CONSEQUENTIAL, Consequence, says_consequential

__all__ = [
    "NO_WEBMCP",
    "PREFIX",
    "Called",
    "Offered",
    "PageTools",
    "answered",
    "arguments_of",
    "canonical",
    "consequence",
    "is_page_tool",
    "offered",
]

PREFIX = "page__"
MAX_ANSWER = 600
MAX_SCHEMA = 4_000
"""A page tool's input schema, in characters of JSON, beyond which it is not offered (its words would
crowd the model's context)."""


def is_page_tool(name: str) -> bool:
    return name.startswith(PREFIX)


@dataclass(frozen=True)
class Offered:
    """The page's tools as offered now: their function schemas by our name, and those left out."""

    tools: dict[str, PageTool]
    schemas: list[dict[str, Any]]
    left_out: list[str]
    """One sentence per tool not offered, saying why."""


def offered(tools: list[PageTool]) -> Offered:
    by_name: dict[str, PageTool] = {}
    schemas: list[dict[str, Any]] = []
    left_out: list[str] = []
    for tool in tools:
        name = PREFIX + re.sub(r"[^A-Za-z0-9_-]", "_", tool.name)[: 64 - len(PREFIX)]
        parameters = _bounded(dict(tool.schema)) or {"type": "object", "properties": {}}
        if parameters.get("type") == "object":
            parameters.setdefault("additionalProperties", False)
            parameters.setdefault("properties", {})
        try:
            size = len(json.dumps(parameters))
            problems = (
                strict_violations(parameters, name)
                if size <= MAX_SCHEMA
                else [f"its schema is {size} characters"]
            )
        except Exception as error:  # a page's schema of any shape: one that cannot be read is left out
            problems = [f"its schema cannot be read ({type(error).__name__})"]
        if problems or name in by_name:
            why = problems[0].split(": ", 1)[-1] if problems else "another page tool has the same name"
            left_out.append(f"The page's tool {quote(tool.name, 60)} is not offered: {quote(why, 160)}.")
            continue
        by_name[name] = tool
        description = f"The page's own tool (its words, not ours): {' '.join(tool.description.split())[:300]}"
        schemas.append(
            {
                "type": "function",
                "function": {
                    "name": name,
                    "description": description,
                    "parameters": parameters,
                    "strict": True,
                },
            }
        )
    return Offered(by_name, schemas, left_out)


def _bounded(schema: Any, depth: int = 0) -> Any:
    """A copy of a page's schema whose words (each ``description`` and ``title``) are cut to 100 characters
    on one line: the page's words reach the model's tool list only so far."""
    if depth > 32:
        return {}
    if isinstance(schema, dict):
        return {
            key: " ".join(value.split())[:100]
            if key in ("description", "title") and isinstance(value, str)
            else _bounded(value, depth + 1)
            for key, value in schema.items()
        }
    if isinstance(schema, list):
        return [_bounded(item, depth + 1) for item in schema]
    return schema


def arguments_of(tool: PageTool, arguments: str | dict[str, Any]) -> dict[str, Any] | str:
    """The call's arguments, valid against the page's own schema; else a sentence saying what is wrong."""
    try:
        raw = json.loads(arguments or "{}") if isinstance(arguments, str) else arguments
    except json.JSONDecodeError as error:
        return f"The arguments are not valid JSON ({error.msg}); nothing was done."
    if not isinstance(raw, dict):
        return "The arguments must be a JSON object; nothing was done."
    carded = [key for key, value in raw.items() if value not in (None, "") and card_words(str(key))]
    if carded:  # the model never gives card details, to a page's tool either
        return (
            f"Not called: {quote(carded[0], 60)} is a {card_words(carded[0])}, which only the person enters, "
            "never the model. Nothing was done."
        )
    if tool.schema:
        try:
            jsonschema.validate(raw, tool.schema)
        except jsonschema.ValidationError as error:
            return f"Invalid arguments for the page's tool: {quote(error.message, 160)}. Nothing was done."
        except jsonschema.SchemaError:
            return "The page's tool has a schema that cannot be checked; nothing was done."
    return raw


def consequence(tool: PageTool, arguments: dict[str, Any]) -> Consequence:
    """Whether calling ``tool`` with ``arguments`` commits something (see the module doc)."""
    named = spoken(tool.name)
    words = f"{named}. {tool.description}"
    pays = tool.consequential or says_consequential(named) or says_consequential(tool.description)
    if tool.read_only and not pays:
        return NOT_CONSEQUENTIAL
    shown = json.dumps(arguments, ensure_ascii=False)
    reason = (
        f"the page's tool {quote(tool.name, 60)} says it does so ({quote(words, 120)})"
        if pays
        else f"the page's tool {quote(tool.name, 60)} is not marked read-only: what it does cannot be seen "
        "before it runs"
    )
    return Consequence(
        True,
        reason,
        control=tool.name,
        action=f"calling the page's tool {quote(tool.name, 60)} with {quote(shown, 160)}",
        total_cents=amount_cents(f"{tool.description} {shown}"),
    )


def spoken(name: str) -> str:
    """A tool's name as words: "placeOrder", "place_order", "place-order" → "place Order"/"place order"."""
    return " ".join(re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ").replace("-", " ").split())


def answered(tool: PageTool, answer: Any) -> tuple[str, bool]:
    """The narration's first line for what the page's tool answered, and whether it said it failed."""
    failed = isinstance(answer, dict) and answer.get("isError") is True
    content = answer.get("content") if isinstance(answer, dict) else None
    if isinstance(content, list):
        parts = [
            str(part.get("text")) if isinstance(part, dict) and part.get("type") == "text" else "[not text]"
            for part in content
        ]
        text = " ".join(parts)
    else:
        text = answer if isinstance(answer, str) else json.dumps(answer, ensure_ascii=False, default=str)
    verb = "answered with an error" if failed else "answered"
    return f"The page's tool {quote(tool.name, 60)} {verb} (page text): {quote(text, MAX_ANSWER)}.", failed


def canonical(arguments: str | dict[str, Any]) -> str:
    """The arguments as one text, whatever their spacing or key order: a judgement's key."""
    try:
        raw = json.loads(arguments or "{}") if isinstance(arguments, str) else arguments
    except json.JSONDecodeError:
        return str(arguments)
    return json.dumps(raw, sort_keys=True, ensure_ascii=False)


@dataclass(frozen=True)
class Called:
    """What calling a page's tool came to: the narration's first line; refused: it never ran."""

    said: str
    ok: bool = False
    refused: bool = True


class PageTools:
    """The page tools of one session: looked at each turn, offered, judged and called."""

    def __init__(self, session: PageSession) -> None:
        self.session = session
        self.now = Offered({}, [], [])
        self._told: set[str] = set()
        self._judged: dict[tuple[str, str], PageTool] = {}
        """The tool each call was judged on, by (name, arguments), until the call runs."""

    async def offer(self) -> list[dict[str, Any]]:
        """The function schemas of the page's tools now (none where the browser has no WebMCP, said once)."""
        tools = await page_tools(self.session.page)
        if tools is None:
            if "-" not in self._told:
                self._told.add("-")
                self.session.events.notes.append(NO_WEBMCP)
            tools = []
        self.now = offered(tools)
        for line in self.now.left_out:
            if line not in self._told:
                self._told.add(line)
                self.session.events.notes.append(line)
        return self.now.schemas

    async def find(self, name: str) -> PageTool | None:
        """The page's tool called ``name`` as the page registers it now (looked at afresh: a press may have
        brought another page, whose tool of the same name does something else)."""
        await self.offer()
        return self.now.tools.get(name)

    async def judge(self, name: str, arguments: str | dict[str, Any]) -> Consequence:
        """The call's consequence, with the tool as judged kept for the call (`run`)."""
        tool = await self.find(name)
        args = arguments_of(tool, arguments) if tool is not None else "none"
        if tool is None or isinstance(args, str):
            return NOT_CONSEQUENTIAL  # nothing runs: the call narrates what is wrong
        self._judged[(name, canonical(arguments))] = tool
        return consequence(tool, args)

    async def run(self, name: str, arguments: str | dict[str, Any], approved: Consequence | None) -> Called:
        """Call the page's tool ``name`` — only while it is the very tool judged (and, when consequential,
        approved as it reads now: name, words, schema, marks, arguments, amount)."""
        judged = self._judged.pop((name, canonical(arguments)), None)
        tool = await self.find(name)
        if tool is None:
            return Called(
                f"There is no page tool called {quote(name, 80)} on this page now; nothing was done."
            )
        args = arguments_of(tool, arguments)
        if isinstance(args, str):
            return Called(args)
        now = consequence(tool, args)
        if (judged is not None and judged != tool) or (now.consequential and approved != now):
            return Called(
                f"Nothing was done: the page's tool {quote(tool.name, 60)} changed after it was checked. Call "
                "it again to have it checked (and approved) afresh."
            )
        try:
            said, failed = answered(tool, await call_page_tool(self.session.page, tool.name, args))
        except PlaywrightError as error:
            first = (str(error).strip().splitlines() or ["it failed"])[0]
            return Called(
                f"{name} could not finish: the page's tool failed ({quote(first, 160)}).", refused=False
            )
        return Called(said, ok=not failed, refused=False)


NO_WEBMCP = (
    "This browser cannot read a page's own tools (WebMCP is not enabled in it); going on without them."
)
