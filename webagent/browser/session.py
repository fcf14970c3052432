"""The browser side of a run: launch Chromium, one context per run, and what we watch on the page.

A `Browser` owns Playwright and one Chromium; each run gets a `PageSession` — its own browser context
and page — so several runs share one browser. The session:

- aborts requests outside the shop's origin and remembers them ("blocked navigation to …");
- buffers the site's breadcrumbs (the DOM event its adapter names, `SessionSite.breadcrumb_event`) as they
  happen, so nothing is lost between tool calls, human clicks in a headed window included. On Chromium the
  listener runs in an isolated world with a CDP binding page scripts can neither see nor call, and it
  notes the trusted input (``isTrusted`` pointer presses, Enter and Space) that reaches the page: a
  breadcrumb is the *person's* (`Breadcrumb.person`) only when it follows such an input made while no
  tool call was acting (`PageSession.acting`), one breadcrumb per input. A page can dispatch the event
  itself, but it cannot make its breadcrumb the person's. Elsewhere (no CDP) a main-world bridge
  collects them, and none is the person's;
- remembers every popup dismissed on the model's behalf, for the next narration. Tools get past overlays
  nobody catalogued through obstruction.py (read in Playwright's utility world: layers.py); those a site
  adapter knows (`SessionSite.overlays`: the demo shop's cookie banner, newsletter…) are, in addition,
  dismissed by one ``page.add_locator_handler``, a speed-up that can be switched off
  (``known_overlays=False``). Errors and notices are never dismissed;
- blocks WebSockets to any other origin (``route_web_socket``), narrated like blocked requests;
- notes dialogs, new tabs (followed), downloads, file choosers and loads for the narration (events.py);
- optionally records a Playwright trace with one labelled group per tool call.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import functools
import json
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

from playwright.async_api import Browser as PlaywrightBrowser
from playwright.async_api import (
    BrowserContext,
    CDPSession,
    Locator,
    Page,
    Playwright,
    Request,
    Route,
    WebSocketRoute,
    async_playwright,
)
from playwright.async_api import Error as PlaywrightError

from webagent.browser import layers
from webagent.browser.cards import Secrets
from webagent.browser.chromium import find_chromium, ignored_default_args, launch_args
from webagent.browser.crumbs import BREADCRUMB_BRIDGE, BRIDGE_BINDING, Breadcrumb, trusted_bridge
from webagent.browser.events import PageEvents
from webagent.browser.isolated import IsolatedReader
from webagent.browser.obstruction import reachable
from webagent.browser.watch import PANEL_JS, Watched
from webagent.errors import BrowserNotFound, ShopUnreachable

__all__ = ["Browser", "Overlay", "PageSession", "SessionSite"]

DEFAULT_TIMEOUT_MS = 10_000
NAVIGATION_TIMEOUT_MS = 15_000
SHOT_SCALE = 0.5
"""Screenshots for the report at half the viewport's CSS size: 640 × 450, ~20 KB, still readable."""
SHOT_QUALITY = 60


@dataclass(frozen=True)
class Overlay:
    """Clutter that may cover what an action needs, and the button a person would press."""

    label: str
    selector: str
    """CSS selector of the overlay's container."""
    button: str


RENDERED_JS = "!!document.body"
"""When a page with no site adapter counts as rendered."""


class SessionSite(Protocol):
    """What a session needs from the site it opens (webagent/sites/): the overlays a person dismisses
    without a second thought, and when a page has rendered."""

    @property
    def overlays(self) -> tuple[Overlay, ...]: ...

    @property
    def rendered_js(self) -> str:
        """A JavaScript expression, true once the site has rendered a view."""
        ...

    @property
    def breadcrumb_event(self) -> str | None:
        """The DOM event the site dispatches on ``window`` for each action taken on it, or None."""
        ...


@dataclass
class PageSession(Watched):
    """One run's browser context and page, plus what happened on it that a narration must mention."""

    context: BrowserContext
    page: Page
    shop_url: str
    tracing: bool = False
    overlays: tuple[Overlay, ...] = ()
    """The site's known popups, dismissed by locator handlers as well (a speed-up; tests switch it off)."""
    rendered_js: str = RENDERED_JS
    """True in the page once the site has rendered a view (`settle` waits for it)."""
    breadcrumb_event: str | None = None
    """The DOM event the site dispatches for each action (its breadcrumbs), or None when it has none."""
    breadcrumbs: list[Breadcrumb] = field(default_factory=list)
    dismissed: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    timeouts: int = 0
    """Tool calls that ended because the page did not respond in time (an overlay must never cause one)."""
    watch: bool = False
    """Show a person watching the window what the model sees: an on-page panel with the current tool call
    and its narration, and an outline around the element each action targets (webagent/browser/watch.py)."""
    person_window_s: float = 10.0
    """How long after a person's press the site's breadcrumb may come (it may wait for its server)."""
    _cdps: dict[Page, CDPSession] = field(default_factory=dict)
    """Each tab's CDP session carrying the trusted bridge (none: no CDP here, none is the person's)."""
    _isolated: IsolatedReader | None = None
    _arrived: asyncio.Event = field(default_factory=asyncio.Event)
    """Set (and replaced) as each breadcrumb arrives, and when the page closes or crashes: what
    `next_crumb` waits on."""
    _gone: bool = False
    """The page closed or crashed: no breadcrumb will come."""
    _acting: int = 0
    _presses: list[float] = field(default_factory=list)
    """When each trusted press not yet matched to a breadcrumb came, while no tool call was acting."""
    events: PageEvents = field(init=False)
    """Dialogs, tabs, downloads and loads, noted for the next narration (webagent/browser/events.py)."""
    secrets: Secrets = field(default_factory=Secrets)
    """What the person entered into card fields: in memory only, hidden wherever the run speaks or keeps
    the page (webagent/browser/cards.py)."""

    def __post_init__(self) -> None:
        self.events = PageEvents(self, choose_files=not self.watch)

    # -- setting up ---------------------------------------------------------------------------------

    async def install(self) -> None:
        """Wire the allowlist, the breadcrumb bridge and the overlay handlers into the context."""
        self.events.watch(self.page)  # its closing or crashing ends a wait for a breadcrumb (`lost`)
        self.events.watch_context(self.context)
        origin = _origin(self.shop_url)
        ws_origin = origin.replace("http", "ws", 1)
        # All at once: each is a round trip to the driver, and a run waits for this before its first page.
        await asyncio.gather(
            # A regular expression is matched inside the driver, so same-origin requests are never
            # intercepted and pay nothing; only foreign ones reach `_block`.
            self.context.route(
                re.compile(rf"^(?!{re.escape(origin)}(/|$))(?!data:|blob:|about:)"), self._block
            ),
            # `route` does not see WebSockets; page script could otherwise talk to any host.
            self.context.route_web_socket(
                re.compile(rf"^(?!{re.escape(ws_origin)}(/|$))"), self._block_web_socket
            ),
            *((self._bridge(),) if self.breadcrumb_event else ()),
            *((self.context.add_init_script(PANEL_JS),) if self.watch else ()),
            *(
                (self.page.add_locator_handler(self._any_overlay(), self._dismiss_known, no_wait_after=True),)
                if self.overlays
                else ()
            ),
        )

    async def _bridge(self) -> None:
        """The breadcrumb bridge: the trusted one in an isolated world where CDP is there, else the plain one."""
        event = str(self.breadcrumb_event)
        cdp = await trusted_bridge(self.context, self.page, event, self._on_bridge, loaded=False)
        if cdp is not None:
            self._cdps[self.page] = cdp
            return
        await self.context.expose_binding("__webagentBreadcrumb", self._on_breadcrumb)
        await self.context.add_init_script(BREADCRUMB_BRIDGE % json.dumps(self.breadcrumb_event))

    @property
    def _cdp(self) -> CDPSession | None:
        return self._cdps.get(self.page)

    def _on_bridge(self, event: dict[str, Any]) -> None:
        if event.get("name") != BRIDGE_BINDING:
            return
        try:
            message = json.loads(str(event.get("payload")))
        except json.JSONDecodeError:
            return
        if not isinstance(message, dict):
            return
        now = time.monotonic()
        if message.get("kind") == "input":
            if not self._acting:
                self._presses.append(now)
        elif message.get("kind") == "crumb":
            self._presses = [at for at in self._presses if now - at <= self.person_window_s]
            person = not self._acting and bool(self._presses)
            if person:
                self._presses.pop(0)  # one breadcrumb per press
            self._on_breadcrumb(None, message.get("detail"), person=person)

    @asynccontextmanager
    async def acting(self) -> AsyncIterator[None]:
        """While a tool call acts on the page: trusted input now is the driver's, not the person's."""
        self._acting += 1
        self._presses.clear()
        try:
            yield
        finally:
            try:
                await self.sync_breadcrumbs()  # what the call's own presses caused lands as the agent's
            finally:
                self._acting -= 1
                self._presses.clear()

    @property
    def acting_now(self) -> bool:
        return self._acting > 0

    async def adopt(self, page: Page) -> None:
        """Act on ``page`` (a tab the page opened) from now on, its breadcrumbs bridged as the first tab's
        (the plain bridge is the context's already); the known-overlay handler stays with the first tab (a
        speed-up only: `clear_way` gets past overlays on any page)."""
        if self.breadcrumb_event and self._cdps:
            with suppress(PlaywrightError):  # a tab closed meanwhile is left by `events` at once
                cdp = await trusted_bridge(
                    self.context, page, self.breadcrumb_event, self._on_bridge, loaded=True
                )
                if cdp is not None:
                    self._cdps[page] = cdp
        self.show(page)

    def show(self, page: Page) -> None:
        self.page, self._isolated = page, None

    @property
    def handled_overlays(self) -> tuple[Overlay, ...]:
        """Clutter this session dismisses by itself: not worth a line in every narration."""
        return self.overlays

    def _overlay_locator(self, overlay: Overlay) -> Locator:
        # The dismiss button, not the container: a minimised chat widget stays on the page but no
        # longer has a "Minimize chat" button, so the handler stops firing once the job is done.
        return self.page.locator(overlay.selector).get_by_role("button", name=overlay.button, exact=True)

    def _any_overlay(self) -> Locator:
        # One handler for them all: before every action, and every poll of a wait, Playwright checks each
        # handler's locator with a page evaluation of its own — six handlers cost six, one costs one.
        buttons = [self._overlay_locator(overlay) for overlay in self.overlays]
        return functools.reduce(Locator.or_, buttons).filter(visible=True).first

    async def _dismiss_known(self, _found: Locator) -> None:
        buttons = [self._overlay_locator(overlay) for overlay in self.overlays]
        # Which are shown and uncovered, asked of the page once. Under a popup nobody catalogued, a click
        # would only spend the action's time (this handler runs before each of its retries); `clear_way`
        # removes that popup, and this runs again.
        shown = await reachable(functools.reduce(Locator.or_, buttons), [o.selector for o in self.overlays])
        for index, (overlay, button) in enumerate(zip(self.overlays, buttons, strict=True)):
            if index not in shown:
                continue
            try:
                await button.click(timeout=2_000)
            except PlaywrightError:
                continue  # it went away by itself (toasts do); nothing to report
            self.dismissed.append(overlay.label)

    async def _block(self, route: Route, request: Request) -> None:
        self.blocked.append(request.url)
        # A page leaving for outside the site is held where it is (a cancelled navigation commits nothing),
        # not left on the browser's error page, which would take the site's page and its state with it.
        leaving = False
        if request.is_navigation_request():
            with suppress(PlaywrightError):  # a new window's first navigation has no frame to name yet
                leaving = request.frame == self.page.main_frame
        await route.abort("aborted" if leaving else "blockedbyclient")

    async def _block_web_socket(self, socket: WebSocketRoute) -> None:
        self.blocked.append(socket.url)
        await socket.close(code=1008, reason="blocked by webagent: outside the shop")

    def _on_breadcrumb(self, _source: Any, detail: Any, *, person: bool = False) -> None:
        if isinstance(detail, dict) and isinstance(detail.get("message"), str):
            self.breadcrumbs.append(
                Breadcrumb(
                    str(detail["message"]), str(detail.get("at", "")), str(detail.get("kind", "")), person
                )
            )
            self._wake()

    async def crumb_mark(self) -> int:
        """A position in the breadcrumbs, once every one the page dispatched so far has arrived:
        `next_crumb` waits for one after it."""
        await self.sync_breadcrumbs()
        return len(self.breadcrumbs)

    async def next_crumb(
        self, mark: int, kinds: tuple[str, ...] | None, timeout_ms: float
    ) -> Breadcrumb | None:
        """The first breadcrumb after ``mark`` of one of ``kinds`` (any, for None), as soon as it reaches
        Python — no polling of the page; None if none came within ``timeout_ms``.

        Raises `PlaywrightError` once the page is closed or has crashed, as a wait in the page would.
        """
        deadline = asyncio.get_running_loop().time() + timeout_ms / 1000
        try:
            async with asyncio.timeout_at(deadline):
                while (crumb := self._first_crumb(mark, kinds)) is None:
                    if self._gone:
                        raise PlaywrightError("the page was closed or crashed while waiting for the site")
                    mark = len(self.breadcrumbs)
                    await self._arrived.wait()
                return crumb
        except TimeoutError:
            await self.sync_breadcrumbs()  # one the page dispatched in time may still be on its way
            return self._first_crumb(mark, kinds)

    def _first_crumb(self, mark: int, kinds: tuple[str, ...] | None) -> Breadcrumb | None:
        return next((c for c in self.breadcrumbs[mark:] if kinds is None or c.kind in kinds), None)

    def _wake(self) -> None:
        arrived, self._arrived = self._arrived, asyncio.Event()
        arrived.set()

    def lost(self) -> None:
        """The last tab closed, or the one in use crashed: no breadcrumb will come."""
        self._gone = True
        self._wake()

    # -- using --------------------------------------------------------------------------------------

    def url(self, path: str = "/") -> str:
        return self.shop_url.rstrip("/") + path

    async def open(self, path: str = "/") -> None:
        """Load the shop page at ``path`` (relative to the shop's URL)."""
        await self.goto(self.url(path))

    async def goto(self, target: str) -> None:
        """Load ``target`` (a whole URL, such as a site's start URL) and wait until it has rendered."""
        self._acting += 1  # a load the run asked for is not the page's own doing
        try:
            await self.page.goto(target, wait_until="domcontentloaded", timeout=NAVIGATION_TIMEOUT_MS)
        except PlaywrightError as error:
            raise ShopUnreachable(
                f"The shop at {self.shop_url} did not answer: {_first_line(error)}"
            ) from error
        finally:
            self._acting -= 1
        await self.settle()

    async def settle(self) -> None:
        """Wait until the site has rendered a view, and let pending breadcrumbs reach Python.

        Not on a page outside the site (where a redirect led, a browser error page): it never renders one.
        """
        # On timeout the narration says what the page shows instead.
        if _origin(self.page.url) == _origin(self.shop_url):
            with contextlib.suppress(PlaywrightError):
                await self.page.wait_for_function(self.rendered_js, timeout=DEFAULT_TIMEOUT_MS)
        await self.sync_breadcrumbs()

    async def sync_breadcrumbs(self) -> None:
        # Binding calls travel on the same connection as evaluate's answer, so once this round trip
        # returns, every breadcrumb dispatched before it has been appended.
        with suppress(PlaywrightError):
            if (cdp := self._cdp) is not None:
                await cdp.send("Runtime.evaluate", {"expression": "0"})
            else:
                await self.page.evaluate("0")

    async def read_isolated(self, target: Locator, script: str, arg: Any) -> Any | None:
        """``script`` run on ``target``'s element in an isolated world, where page scripts cannot patch
        what it reads; None where that cannot be done faithfully (webagent/browser/isolated.py)."""
        if self._isolated is None:
            self._isolated = IsolatedReader(self.context, self.page)
        return await self._isolated.evaluate(target, script, arg)

    async def read_focused(self, script: str, arg: Any) -> Any | None:
        """``script`` run on the focused element in an isolated world; None where that cannot be done."""
        if self._isolated is None:
            self._isolated = IsolatedReader(self.context, self.page)
        return await self._isolated.evaluate_focused(script, arg)

    async def capture(self, path: Path, *, scale: float = SHOT_SCALE, quality: int = SHOT_QUALITY) -> None:
        """Save a small JPEG of the viewport at ``path`` (for report.html): ``scale`` of the CSS size.

        Through the page's CDP session where there is one — one message, scaled down by the compositor
        before encoding (a quarter of the pixels at 0.5) — else through Playwright at full size.
        """
        cdp = self._cdp
        if cdp is None:
            await self.page.screenshot(
                path=str(path), type="jpeg", quality=quality, scale="css", caret="initial", timeout=5_000
            )
            return
        size = self.page.viewport_size or {"width": 1280, "height": 900}
        clip = {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": scale}
        shot = await cdp.send(
            "Page.captureScreenshot",
            {"format": "jpeg", "quality": quality, "clip": clip, "optimizeForSpeed": True},
        )
        path.write_bytes(base64.b64decode(shot["data"]))

    def take_blocked(self) -> list[str]:
        blocked, self.blocked = self.blocked, []
        return blocked

    def take_dismissed(self) -> list[str]:
        dismissed, self.dismissed = self.dismissed, []
        return dismissed

    @asynccontextmanager
    async def step(self, label: str) -> AsyncIterator[None]:
        """Group everything one tool call does under its label in the trace."""
        if not self.tracing:
            yield
            return
        await self.context.tracing.group(label)
        try:
            yield
        finally:
            await self.context.tracing.group_end()

    # -- for reading the trace (the panel for people watching: `Watched`) -------------------------------

    async def trace_narration(self, narration: str) -> None:
        """Add the narration the model read as a group in the trace, right after the tool call's group:
        its first line names the group, the other lines are its children."""
        if not self.tracing:
            return
        first, *rest = narration.splitlines() or [""]
        with suppress(PlaywrightError):  # a trace missing a label must not stop the run
            await self.context.tracing.group(f"→ {first}")
            try:
                for line in rest:
                    await self.context.tracing.group(line)
                    await self.context.tracing.group_end()
            finally:
                await self.context.tracing.group_end()

    async def storage_state(self) -> dict[str, Any]:
        return dict(await self.context.storage_state())

    async def close(self, trace_path: Path | None = None) -> None:
        """Close the context, writing the trace first when one is being recorded."""
        try:
            if self.tracing and trace_path is not None:
                await self.context.tracing.stop(path=str(trace_path))
        finally:
            await self.context.close()


class Browser:
    """Playwright plus one Chromium, shared by every run of this process."""

    def __init__(self, playwright: Playwright, browser: PlaywrightBrowser) -> None:
        self._playwright = playwright
        self._browser = browser

    @classmethod
    async def launch(cls, *, headed: bool = False, slow_mo: float = 0) -> Browser:
        """Start Chromium as found by `find_chromium` (the headless shell when there is one, unless ``headed``)."""
        executable = find_chromium(headless=not headed)
        playwright = await async_playwright().start()
        try:
            await layers.install(playwright)
            browser = await playwright.chromium.launch(
                executable_path=executable,
                headless=not headed,
                slow_mo=slow_mo,
                args=launch_args(headless=not headed),
                ignore_default_args=ignored_default_args(),
            )
        except BaseException:
            await playwright.stop()
            raise
        return cls(playwright, browser)

    @classmethod
    async def connect(cls, ws_url: str, *, slow_mo: float = 0) -> Browser:
        """A browser served elsewhere by ``playwright run-server`` (or ``launchServer``) at ``ws_url``.

        The server launches its own browser for this connection (its machine must have one
        Playwright can find); the client and server Playwright versions must match.
        """
        return await cls._attach(ws_url, lambda p: p.chromium.connect(ws_url, slow_mo=slow_mo))

    @classmethod
    async def connect_over_cdp(cls, cdp_url: str, *, slow_mo: float = 0) -> Browser:
        """A Chrome or Chromium already running with ``--remote-debugging-port``, at ``cdp_url``."""
        return await cls._attach(cdp_url, lambda p: p.chromium.connect_over_cdp(cdp_url, slow_mo=slow_mo))

    @classmethod
    async def open(
        cls,
        *,
        ws_url: str | None = None,
        cdp_url: str | None = None,
        headed: bool = False,
        slow_mo: float = 0,
    ) -> Browser:
        """Connect to ``ws_url`` or ``cdp_url`` when one is given, else launch a local Chromium."""
        if ws_url:
            return await cls.connect(ws_url, slow_mo=slow_mo)
        if cdp_url:
            return await cls.connect_over_cdp(cdp_url, slow_mo=slow_mo)
        return await cls.launch(headed=headed, slow_mo=slow_mo)

    @classmethod
    async def _attach(cls, url: str, attach: Callable[[Playwright], Awaitable[PlaywrightBrowser]]) -> Browser:
        playwright = await async_playwright().start()
        try:
            await layers.install(playwright)
            browser = await attach(playwright)
        except PlaywrightError as error:
            await playwright.stop()
            raise BrowserNotFound(f"no browser answered at {url}: {_first_line(error)}") from error
        except BaseException:
            await playwright.stop()
            raise
        return cls(playwright, browser)

    async def new_session(
        self,
        shop_url: str,
        site: SessionSite | None = None,
        *,
        trace: bool = False,
        trace_title: str = "webagent run",
        storage_state: dict[str, Any] | None = None,
        known_overlays: bool = True,
        init_scripts: Sequence[Path] = (),
        watch: bool = False,
    ) -> PageSession:
        """A fresh context and page for one run, with the allowlist, breadcrumbs and overlays wired.

        ``site`` names the overlays to dismiss by handler (unless ``known_overlays`` is False) and when a
        page has rendered; without one the session knows no overlays and waits only for a body.
        ``init_scripts`` (JavaScript files) run in every page before the shop's own scripts; ``watch``
        adds the on-page panel and outline for a person watching (`PageSession.watch`).
        """
        context = await self._browser.new_context(
            storage_state=storage_state,  # type: ignore[arg-type]
            viewport={"width": 1280, "height": 900},
            # No bypass_csp: the site's Content-Security-Policy holds here as in a person's browser, so a
            # page the agent visits is no more exposed to injected script. What the agent runs needs no
            # exemption: init scripts, evaluations and waits come through the driver, and the headed
            # panel styles itself with a constructed style sheet, not inline styles (watch.py).
        )
        context.set_default_timeout(DEFAULT_TIMEOUT_MS)
        if trace:
            await context.tracing.start(screenshots=True, snapshots=True, title=trace_title)
        for script in init_scripts:
            await context.add_init_script(path=Path(script))
        page = await context.new_page()
        session = PageSession(
            context=context,
            page=page,
            shop_url=shop_url.rstrip("/"),
            tracing=trace,
            overlays=site.overlays if site is not None and known_overlays else (),
            rendered_js=site.rendered_js if site is not None else RENDERED_JS,
            breadcrumb_event=site.breadcrumb_event if site is not None else None,
            watch=watch,
        )
        await session.install()
        return session

    async def close(self) -> None:
        try:
            await self._browser.close()
        finally:
            await self._playwright.stop()

    async def __aenter__(self) -> Browser:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _first_line(error: BaseException) -> str:
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
