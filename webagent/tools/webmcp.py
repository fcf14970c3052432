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
        parameters = dict(tool.schema) or {"type": "object", "properties": {}}
        if parameters.get("type") == "object":
            parameters.setdefault("additionalProperties", False)
            parameters.setdefault("properties", {})
        problems = strict_violations(parameters, name)
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


def arguments_of(tool: PageTool, arguments: str | dict[str, Any]) -> dict[str, Any] | str:
    """The call's arguments, valid against the page's own schema; else a sentence saying what is wrong."""
    try:
        raw = json.loads(arguments or "{}") if isinstance(arguments, str) else arguments
    except json.JSONDecodeError as error:
        return f"The arguments are not valid JSON ({error.msg}); nothing was done."
    if not isinstance(raw, dict):
        return "The arguments must be a JSON object; nothing was done."
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
    words = f"{tool.name.replace('_', ' ').replace('-', ' ')}. {tool.description}"
    pays = says_consequential(tool.name.replace("_", " ").replace("-", " ")) or says_consequential(
        tool.description
    )
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
        if name not in self.now.tools:
            await self.offer()
        return self.now.tools.get(name)

    async def judge(self, name: str, arguments: str | dict[str, Any]) -> Consequence:
        tool = await self.find(name)
        args = arguments_of(tool, arguments) if tool is not None else "none"
        return NOT_CONSEQUENTIAL if tool is None or isinstance(args, str) else consequence(tool, args)

    async def run(self, name: str, arguments: str | dict[str, Any], approved: Consequence | None) -> Called:
        """Call the page's tool ``name`` — only as it was judged (and approved), when it is consequential."""
        tool = await self.find(name)
        if tool is None:
            return Called(
                f"There is no page tool called {quote(name, 80)} on this page now; nothing was done."
            )
        args = arguments_of(tool, arguments)
        if isinstance(args, str):
            return Called(args)
        now = consequence(tool, args)
        if now.consequential and (
            approved is None or (approved.reason, approved.action) != (now.reason, now.action)
        ):
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
