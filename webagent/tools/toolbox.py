"""The toolbox: runs one tool call from raw model output to narration, never raising for the model's
mistakes.

    raw arguments ─► validate (pydantic) ─► precondition (graph) ─► act (tools.py) ─► read the page
                 ─► narrate(before, after, new breadcrumbs, dismissed overlays, blocked requests)

Invalid arguments, unknown names, refused preconditions, a shop that answers 503 or too slowly, an
element that never became clickable: each ends in a narration the model can act on. Anything else is
a bug and raises.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import functools
import json
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator
from playwright.async_api import TimeoutError as PlaywrightTimeout
from pydantic import ValidationError

from webagent.browser.busy import MAX_RETRIES, backoff, is_transient
from webagent.browser.obstruction import Obstructed, act, clear_way
from webagent.browser.session import PageSession
from webagent.errors import BrowserClosed
from webagent.llm.schemas import strict_tool
from webagent.narration.narrate import Narration, changes, narrate, quote
from webagent.narration.said import timed_out
from webagent.narration.state import PageState, read_state
from webagent.tools import TOOLS, TOOLS_BY_NAME, Args, Outcome, Press, PressKey, Tool
from webagent.tools.generic import PLACES_ORDER_JS, find_control, places_order_by_name
from webagent.tools.graph import possible, refusal

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
    detail: str | None = None
    """The browser driver's own words when an action failed: for people (the transcript), not the model."""


class ToolRunner(Protocol):
    """What the loop needs from the page side: schemas to offer, calls to run, the state to read."""

    @property
    def schemas(self) -> list[dict[str, Any]]: ...

    def parse(self, name: str, arguments: str | dict[str, Any]) -> Args | str: ...

    async def is_consequential(self, name: str, arguments: str | dict[str, Any]) -> bool: ...

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


class NotLoaded(Exception):
    """A page a tool needs did not load, even after trying again; carries what the page shows."""


class ToolContext:
    """What a tool function gets: the page, actions that get past overlays, and waits that watch the
    shop rather than the clock — retrying what is safe when the shop says it is busy."""

    def __init__(self, session: PageSession) -> None:
        self.session = session
        self.page = session.page
        self.busy: list[str] = []
        """The shop's own words for each busy answer weathered during the current call."""
        self._cleared = False

    async def read(self) -> PageState:
        return await read_state(self.page, self.session.quiet_test_ids)

    # -- acting as a person would, past whatever covers the page -------------------------------------

    async def click(self, target: Locator, again: Callable[[], Awaitable[object]] | None = None) -> None:
        """Click ``target`` past whatever covers it; ``again`` restores its container after a dismissal."""
        await self._act(target, lambda ms: target.click(timeout=ms), again)

    async def fill(self, target: Locator, text: str) -> None:
        await self._act(target, lambda ms: target.fill(text, timeout=ms))

    async def check(self, target: Locator) -> None:
        await self._act(target, lambda ms: target.check(timeout=ms))

    async def select(self, target: Locator, label: str) -> None:
        async def choose(ms: float) -> None:
            await target.select_option(label=label, timeout=ms)

        await self._act(target, choose)

    async def _act(
        self,
        target: Locator,
        action: Callable[[float], Awaitable[Any]],
        again: Callable[[], Awaitable[object]] | None = None,
    ) -> None:
        await self.session.highlight(target)
        await act(self.page, target, action, self.session.dismissed, cleared=self._cleared, again=again)

    @contextlib.asynccontextmanager
    async def cleared(self, region: Locator) -> AsyncIterator[None]:
        """Clear what covers ``region`` once, for several actions inside it (a form's fields): each then
        goes first and looks for a popup only if it does not go through (`obstruction.act`)."""
        await clear_way(self.page, region, self.session.dismissed)
        self._cleared = True
        try:
            yield
        finally:
            self._cleared = False

    # -- waiting for the shop ------------------------------------------------------------------------

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

    async def error_since(self, mark: int) -> str | None:
        """The shop's own words for the last error it recorded after ``mark`` ("could not add … — …")."""
        message = await self.page.evaluate(
            """(n) => { const e = (window.shopActivity || []).slice(n).filter((b) => b.kind === "error").pop();
                        return e ? e.message : null; }""",
            mark,
        )
        if not message:
            return None
        return re.sub(r"^@action:\s*|\s+at \d\d:\d\d:\d\d$", "", str(message))

    async def attempt(
        self,
        do: Callable[[], Awaitable[None]],
        kinds: tuple[str, ...],
        *,
        took_effect: Callable[[], Awaitable[bool]] | None = None,
        timeout_ms: float = 10_000,
    ) -> str | None:
        """Do an action and wait for the shop's answer (one of ``kinds``, or ``"error"``).

        When the page says the shop was busy, try again — bounded, with backoff — but first ask
        ``took_effect`` whether the failed try changed things anyway (re-read the cart before adding again).
        """
        kinds = tuple(dict.fromkeys((*kinds, "error")))
        for attempt in range(MAX_RETRIES + 1):
            mark = await self.mark()
            await do()
            kind = await self.wait_for_activity(mark, kinds, timeout_ms)
            if kind != "error":
                return kind
            message = await self.error_since(mark)
            if not is_transient(message) or attempt == MAX_RETRIES:
                return kind
            self.busy.append(message or "the shop was busy")
            if took_effect is not None and await took_effect():
                return kinds[0]
            await asyncio.sleep(backoff(attempt))
        return "error"

    async def settle_after(self, mark: int, quiet_ms: float = 600) -> None:
        """After a generic action: let the shop answer (a breadcrumb, or a short quiet time when the
        action changes nothing the shop records), and any view it starts finish rendering."""
        with contextlib.suppress(PlaywrightTimeout):
            await self.page.wait_for_function(
                "(n) => (window.shopActivity || []).length > n", arg=mark, timeout=quiet_ms
            )
        with contextlib.suppress(PlaywrightTimeout):
            await self.page.wait_for_function(
                "() => !document.body || document.body.dataset.view !== 'loading'", timeout=10_000
            )
        await self.session.sync_breadcrumbs()

    async def recover(self, state: PageState) -> PageState:
        """A view that failed to load for a passing reason (the shop was busy): press the page's own
        "Try again", or reload when it has none — bounded. A page that loaded but shows a busy error
        from an earlier action is left as it is (a reload would lose a filled form)."""
        for attempt in range(MAX_RETRIES):
            transient = [error for error in state.errors if is_transient(error)]
            if not transient:
                return state
            retry = self.page.get_by_role("button", name=re.compile(r"^(try again|retry|reload)$", re.I))
            offered = await retry.count() > 0
            if not offered and not _unloaded(state):
                return state
            self.busy.append(transient[0])
            await asyncio.sleep(backoff(attempt))
            mark = await self.mark()
            if offered:
                await self.click(retry.first)
            else:
                await self.page.reload(wait_until="domcontentloaded")
            await self.wait_for_activity(mark, ("navigate", "error"))
            await self.session.settle()
            state = await self.read()
        return state

    async def wait_for_view(self, view: str, timeout_ms: float = 10_000) -> PageState:
        with contextlib.suppress(PlaywrightTimeout):  # the caller reports what the page shows instead
            await self.page.wait_for_function(
                "(view) => document.body && document.body.dataset.view === view", arg=view, timeout=timeout_ms
            )
        return await self.recover(await self.read())

    async def menu_ready(self) -> PageState:
        """The restaurant page once its menu has replaced the loading skeletons (or failed to load)."""
        await self._menu_or_error()
        state = await self.read()
        if any(is_transient(error) for error in state.errors):
            await self.recover(state)
            await self._menu_or_error()
            state = await self.read()
        return state

    async def _menu_or_error(self) -> None:
        with contextlib.suppress(PlaywrightTimeout):  # the caller reports what the page shows instead
            await self.page.wait_for_function(
                """() => document.body.dataset.view === "restaurant"
                     && ((document.querySelector('[data-testid="menu-item"]')
                          && !document.querySelector('[data-testid="menu-skeleton"]'))
                         || !document.querySelector('[data-testid="error"]').hidden)"""
            )

    async def open_cart(self) -> PageState:
        state = await self.read()
        if not state.cart_open:
            await self.click(self.page.get_by_test_id("cart-button"))
            await self.page.get_by_test_id("cart-drawer").wait_for(state="visible")
            state = await self.read()
        return state

    async def close_cart(self) -> None:
        drawer = self.page.get_by_test_id("cart-drawer")
        await self.click(drawer.get_by_role("button", name="Close cart", exact=True))
        await drawer.wait_for(state="hidden")

    async def go_home(self, *, clear_search: bool = False) -> None:
        """The restaurant list, through the header's Home link; optionally with the search cleared."""
        state = await self.read()
        if state.view != "restaurants":
            await self.click(self.page.get_by_role("link", name="Home", exact=True))
            state = await self.wait_for_view("restaurants")
        state = await self.recover(state)
        if _unloaded(state):
            raise NotLoaded(state.errors[-1] if state.errors else "the restaurant list did not appear")
        if clear_search:
            box = self.page.get_by_test_id("search-input")
            cuisine = self.page.get_by_test_id("cuisine-filter")
            if await box.input_value() or await cuisine.input_value():

                async def search_all() -> None:
                    await self.fill(box, "")
                    await self.select(cuisine, "All cuisines")
                    await self.click(self.page.get_by_role("button", name="Search", exact=True))

                await self.attempt(search_all, ("search",))


class Toolbox:
    """Runs tool calls against one `PageSession` and narrates each result."""

    def __init__(
        self,
        session: PageSession,
        *,
        screenshots: Path | None = None,
        on_failure: Callable[[ToolResult], Awaitable[None]] | None = None,
    ) -> None:
        self.session = session
        self.context = ToolContext(session)
        self.screenshots = screenshots
        """Where a small JPEG of the page is saved after each call (for report.html); None: none."""
        self.on_failure = on_failure
        """Awaited after a call fails, before the loop goes on (``--pause-on-failure`` opens the inspector)."""
        self.last_screenshot: tuple[str, str, int] | None = None
        """(tool name, file name in ``screenshots``, milliseconds it took) of the latest call's screenshot."""
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

    async def is_consequential(self, name: str, arguments: str | dict[str, Any]) -> bool:
        """Whether this call would place an order — `place_order`, or a generic press of the shop's
        place-order control (by button, or Enter in the checkout form) — so it must pass the approval
        gate and the budget like `place_order` does."""
        tool = TOOLS_BY_NAME.get(name)
        if tool is None or tool.consequential:
            return tool is not None
        if name not in ("press", "press_key"):
            return False
        args = self.parse(name, arguments)
        page = self.session.page
        if isinstance(args, Press):
            if places_order_by_name(args.name):
                return True
            found = await find_control(self.context, args.name)
            return not isinstance(found, Outcome) and bool(await found.evaluate(PLACES_ORDER_JS))
        if isinstance(args, PressKey) and args.key in ("Enter", "Space"):
            return bool(await page.evaluate(f"({PLACES_ORDER_JS})(document.activeElement)"))
        return False

    async def call(self, name: str, arguments: str | dict[str, Any]) -> ToolResult:
        """Validate and run one call; every model mistake comes back as a narrated, failed result."""
        self.last_screenshot = None
        await self.session.show_call(
            f"{name} {arguments if isinstance(arguments, str) else json.dumps(arguments)}"
        )
        parsed = self.parse(name, arguments)
        if isinstance(parsed, str):
            result = await self._refuse(name, parsed)
        else:
            result = await self.run(name, parsed)
        await self._witness(result)
        return result

    async def _witness(self, result: ToolResult) -> None:
        """After the narration: the screenshot, the on-page panel, the trace, a pause on failure."""
        if self.screenshots is not None:
            self._shots += 1
            file = f"step-{self._shots:03d}-{result.name}.jpg"
            # Cheap on purpose (~50 ms, ~55 KB; a blinking caret is left as it is, saving a round trip);
            # a page that cannot be captured just has no picture.
            started = time.monotonic()
            with contextlib.suppress(PlaywrightError):
                await self.session.page.screenshot(
                    path=str(self.screenshots / file),
                    type="jpeg",
                    quality=60,
                    scale="css",
                    caret="initial",
                    timeout=5_000,
                )
                self.last_screenshot = (result.name, file, round((time.monotonic() - started) * 1000))
        await self.session.show_result(result.ok, result.text)
        await self.session.trace_narration(result.text)
        if not result.ok and self.on_failure is not None:
            await self.on_failure(result)

    async def run(self, name: str, args: Args) -> ToolResult:
        tool = TOOLS_BY_NAME[name]
        if tool.run is None:
            return await self._refuse(name, f"Refused: {name} is handled by the agent loop, not on the page.")
        self.context.busy = []
        before = await self.context.recover(await self.state())  # a page that failed to load first
        reason = refusal(name, before)
        if reason is not None:
            return await self._refuse(name, f"Refused: {reason}", before)
        detail: str | None = None
        async with self.session.step(f"{name}({args.model_dump_json(exclude_none=True)})"):
            try:
                if before.cart_open and name not in CART_TOOLS:
                    await self.context.close_cart()
                outcome = await tool.run(self.context, args)
            except Obstructed as error:
                outcome = Outcome(f"{name} could not act: {error}", ok=False, changes_expected=False)
            except NotLoaded as error:
                outcome = Outcome(
                    f"{name} could not finish: the page did not load ({quote(str(error))}).", ok=False
                )
            except PlaywrightTimeout as error:
                self.session.timeouts += 1
                detail = _brief(error)
                outcome = Outcome(timed_out(name), ok=False)
            except PlaywrightError as error:
                if self.session.page.is_closed():
                    raise BrowserClosed("the browser window was closed, so the run cannot go on") from error
                detail = _brief(error)
                outcome = Outcome(f"{name} could not finish: the page did not accept the action.", ok=False)
            after = await self.state()
        if not outcome.ok and detail is not None and after.errors:
            # The page's own words explain a failure better than the browser driver's.
            outcome = replace(
                outcome, said=f"{name} could not finish: the page shows {quote(after.errors[-1])}."
            )
        if tool.generic:
            outcome = replace(outcome, said=f"{outcome.said} {changes(before, after)}".strip())
        if self.context.busy:
            tries = len(self.context.busy)
            again = "tried again" + (f" {tries} times" if tries > 1 else "")
            # A line of its own: the first line keeps its shape ("Added …"), which models and the planner read.
            busy = f"The shop was busy ({quote(self.context.busy[-1])}); {again}."
            outcome = replace(outcome, said=f"{outcome.said}\n{busy}")
        result = self._result(name, outcome, before, after)
        return replace(result, detail=detail)

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


def _unloaded(state: PageState) -> bool:
    """Whether the view is missing what it exists to show (its data failed to load)."""
    return (
        (state.view == "restaurants" and not state.restaurants and not state.no_results)
        or (state.view == "restaurant" and not state.menu)
        or (state.view == "checkout" and state.checkout is None)
        or (state.view == "confirmation" and state.order_number is None)
    )


def _brief(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0][:200] if text else type(error).__name__
