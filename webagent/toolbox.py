"""The toolbox: runs one tool call from raw model output to narration, never raising for the model's
mistakes.

    raw arguments ─► validate (pydantic) ─► precondition (graph) ─► act (tools.py) ─► read the page
                 ─► narrate(before, after, new breadcrumbs, dismissed overlays, blocked requests)

Invalid arguments, unknown names, refused preconditions, a shop that answers 503 or too slowly, an
element that never became clickable: each ends in a narration the model can act on. Anything else is
a bug and raises.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeout
from pydantic import ValidationError

from webagent.browser import PageSession
from webagent.errors import BrowserClosed
from webagent.graph import possible, refusal
from webagent.narrate import Narration, narrate
from webagent.schemas import strict_tool
from webagent.state import PageState, read_state
from webagent.tools import TOOLS, TOOLS_BY_NAME, Args, Outcome, Tool

__all__ = [
    "ToolContext",
    "ToolResult",
    "ToolRunner",
    "Toolbox",
    "describe_validation_error",
    "parse_call",
    "tool_schemas",
]

# Tools that work inside the cart drawer; every other tool closes it first, as a person would.
CART_TOOLS = frozenset({"view_cart", "change_quantity", "remove_from_cart", "go_to_checkout"})


@dataclass(frozen=True)
class ToolResult:
    """One tool call's result: the narration for the model and the facts the loop checks."""

    name: str
    text: str
    ok: bool
    changed: bool
    refused: bool = False
    order_id: int | None = None
    total_cents: int | None = None


class ToolRunner(Protocol):
    """What the loop needs from the page side: schemas to offer, calls to run, the state to read."""

    @property
    def schemas(self) -> list[dict[str, Any]]: ...

    def parse(self, name: str, arguments: str | dict[str, Any]) -> Args | str: ...

    async def call(self, name: str, arguments: str | dict[str, Any]) -> ToolResult: ...

    async def state(self) -> PageState: ...


def tool_schemas(tools: tuple[Tool, ...] = TOOLS) -> list[dict[str, Any]]:
    """Strict Chat Completions tool schemas inside OpenAI's strict subset, from the argument models.

    Built once per tool (about 1.5 ms each) and copied for each caller, who may change its copy.
    """
    return copy.deepcopy([_schema(tool.args, tool.name) for tool in tools])


@functools.cache
def _schema(args: type[Args], name: str) -> dict[str, Any]:
    return strict_tool(args, name)


def describe_validation_error(error: ValidationError) -> str:
    """Pydantic's errors as one short sentence the model can fix its call from."""
    parts = []
    for item in error.errors()[:4]:
        where = ".".join(str(p) for p in item["loc"]) or "arguments"
        parts.append(f"{where}: {item['msg']}")
    return "; ".join(parts)


def parse_call(name: str, arguments: str | dict[str, Any]) -> Args | str:
    """The validated arguments, or a sentence saying what is wrong with them."""
    tool = TOOLS_BY_NAME.get(name)
    if tool is None:
        return f"There is no tool called {name!r}. Tools: {', '.join(TOOLS_BY_NAME)}."
    try:
        raw = json.loads(arguments or "{}") if isinstance(arguments, str) else arguments
    except json.JSONDecodeError as error:
        return f"{name} arguments are not valid JSON ({error.msg} at position {error.pos}); nothing was done."
    if not isinstance(raw, dict):
        return f"{name} arguments must be a JSON object; nothing was done."
    try:
        return tool.args.model_validate(raw)
    except ValidationError as error:
        return f"Invalid arguments for {name}: {describe_validation_error(error)}. Nothing was done."


class ToolContext:
    """What a tool function gets: the page, and waits that watch the shop rather than the clock."""

    def __init__(self, session: PageSession) -> None:
        self.session = session
        self.page = session.page

    async def read(self) -> PageState:
        return await read_state(self.page, self.session.quiet_test_ids)

    async def mark(self) -> int:
        """The shop's activity-log length now; `wait_for_activity` waits for entries after it."""
        count = await self.page.evaluate("(window.shopActivity || []).length")
        return int(count)

    async def wait_for_activity(
        self, mark: int, kinds: tuple[str, ...], timeout_ms: float = 10_000
    ) -> str | None:
        """Wait for the shop to record a breadcrumb of one of ``kinds`` after ``mark``; its kind, or None."""
        try:
            handle = await self.page.wait_for_function(
                """([n, kinds]) => {
                     const hit = (window.shopActivity || []).slice(n).find((b) => kinds.includes(b.kind));
                     return hit ? hit.kind : false;
                   }""",
                arg=[mark, list(kinds)],
                timeout=timeout_ms,
            )
            kind = await handle.json_value()
        except PlaywrightTimeout:
            return None
        finally:
            await self.session.sync_breadcrumbs()
        return str(kind)

    async def wait_for_view(self, view: str, timeout_ms: float = 10_000) -> PageState:
        with contextlib.suppress(PlaywrightTimeout):  # the caller reports what the page shows instead
            await self.page.wait_for_function(
                "(view) => document.body && document.body.dataset.view === view", arg=view, timeout=timeout_ms
            )
        return await self.read()

    async def menu_ready(self) -> PageState:
        """The restaurant page once its menu has replaced the loading skeletons."""
        with contextlib.suppress(PlaywrightTimeout):
            await self.page.wait_for_function(
                """() => document.body.dataset.view === "restaurant"
                     && document.querySelector('[data-testid="menu-item"]')
                     && !document.querySelector('[data-testid="menu-skeleton"]')"""
            )
        return await self.read()

    async def open_cart(self) -> PageState:
        state = await self.read()
        if not state.cart_open:
            await self.page.get_by_test_id("cart-button").click()
            await self.page.get_by_test_id("cart-drawer").wait_for(state="visible")
            state = await self.read()
        return state

    async def close_cart(self) -> None:
        drawer = self.page.get_by_test_id("cart-drawer")
        await drawer.get_by_role("button", name="Close cart", exact=True).click()
        await drawer.wait_for(state="hidden")

    async def go_home(self, *, clear_search: bool = False) -> None:
        """The restaurant list, through the header's Home link; optionally with the search cleared."""
        state = await self.read()
        if state.view != "restaurants":
            await self.page.get_by_role("link", name="Home", exact=True).click()
            state = await self.wait_for_view("restaurants")
        if clear_search:
            box = self.page.get_by_test_id("search-input")
            cuisine = self.page.get_by_test_id("cuisine-filter")
            if await box.input_value() or await cuisine.input_value():
                mark = await self.mark()
                await box.fill("")
                await cuisine.select_option(label="All cuisines")
                await self.page.get_by_role("button", name="Search", exact=True).click()
                await self.wait_for_activity(mark, ("search", "error"))


class Toolbox:
    """Runs tool calls against one `PageSession` and narrates each result."""

    def __init__(self, session: PageSession, *, screenshots: Path | None = None) -> None:
        self.session = session
        self.context = ToolContext(session)
        self.screenshots = screenshots
        self._narrated = len(session.breadcrumbs)
        self._shots = 0

    @property
    def schemas(self) -> list[dict[str, Any]]:
        return tool_schemas()

    async def state(self) -> PageState:
        """The page's state now; `BrowserClosed` when the page is gone (a closed window, a crash)."""
        try:
            return await self.context.read()
        except PlaywrightError as error:
            if self.session.page.is_closed():
                raise BrowserClosed("the browser window was closed, so the run cannot go on") from error
            raise

    def parse(self, name: str, arguments: str | dict[str, Any]) -> Args | str:
        """The validated arguments, or a sentence saying what is wrong with them."""
        return parse_call(name, arguments)

    async def call(self, name: str, arguments: str | dict[str, Any]) -> ToolResult:
        """Validate and run one call; every model mistake comes back as a narrated, failed result."""
        parsed = self.parse(name, arguments)
        if isinstance(parsed, str):
            return await self._refuse(name, parsed)
        return await self.run(name, parsed)

    async def run(self, name: str, args: Args) -> ToolResult:
        tool = TOOLS_BY_NAME[name]
        if tool.run is None:
            return await self._refuse(name, f"Refused: {name} is handled by the agent loop, not on the page.")
        before = await self.state()
        reason = refusal(name, before)
        if reason is not None:
            return await self._refuse(name, f"Refused: {reason}", before)
        async with self.session.step(f"{name}({args.model_dump_json(exclude_none=True)})"):
            try:
                if before.cart_open and name not in CART_TOOLS:
                    await self.context.close_cart()
                outcome = await tool.run(self.context, args)
            except PlaywrightTimeout as error:
                outcome = Outcome(
                    f"{name} could not finish: the page did not respond in time ({_brief(error)}).", ok=False
                )
            except PlaywrightError as error:
                if self.session.page.is_closed():
                    raise BrowserClosed("the browser window was closed, so the run cannot go on") from error
                outcome = Outcome(f"{name} could not finish: {_brief(error)}.", ok=False)
            after = await self.state()
        if self.screenshots is not None:
            self._shots += 1
            await self.session.page.screenshot(
                path=str(self.screenshots / f"step-{self._shots:03d}-{name}.png")
            )
        return self._result(name, outcome, before, after)

    async def _refuse(self, name: str, reason: str, state: PageState | None = None) -> ToolResult:
        state = state or await self.state()
        outcome = Outcome(reason, ok=False, changes_expected=False)
        result = self._result(name, outcome, state, state)
        return ToolResult(name, result.text, ok=False, changed=False, refused=True)

    def new_breadcrumbs(self) -> list[str]:
        """Breadcrumbs not yet narrated — the model's actions and a person's clicks alike."""
        fresh = self.session.breadcrumbs[self._narrated :]
        self._narrated = len(self.session.breadcrumbs)
        return [crumb.message for crumb in fresh]

    def _result(self, name: str, outcome: Outcome, before: PageState, after: PageState) -> ToolResult:
        text = narrate(
            Narration(
                said=outcome.said,
                before=before,
                after=after,
                breadcrumbs=self.new_breadcrumbs(),
                dismissed=self.session.take_dismissed(),
                blocked=self.session.take_blocked(),
                possible=possible(after),
                changes_expected=outcome.changes_expected,
            )
        )
        changed = before.fingerprint() != after.fingerprint()
        return ToolResult(name, text, outcome.ok, changed, False, outcome.order_id, outcome.total_cents)


def _brief(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0][:200] if text else type(error).__name__
