"""`ToolContext`: what a tool function gets — the page, actions that get past overlays, and waits that
watch the site rather than the clock, retrying what is safe when the site says it is busy.

The site's activity log is its breadcrumbs, which the session forwards to Python as the page dispatches
them: a wait for the site's answer awaits its breadcrumb there, polling nothing (`PageSession.next_crumb`).
What else the waits watch (a rendered view, the words in a breadcrumb) belongs to the site: a `SitePage`
given by the site adapter (webagent/sites/), so nothing here names a particular site's markup.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import JSHandle, Locator, Page

from webagent.browser.busy import MAX_RETRIES, backoff, is_transient
from webagent.browser.obstruction import act, clear_way
from webagent.browser.quiet import quiet
from webagent.browser.session import Overlay, PageSession
from webagent.narration.said import Outcome
from webagent.narration.state import PageState
from webagent.tools.consequence import Consequence

__all__ = ["QUIET_BOUND_MS", "Judged", "NotLoaded", "SitePage", "ToolContext"]

QUIET_BOUND_MS = 3_000
"""The longest a page not the site's own is waited on to go still after an action (a page that polls,
ticks or streams is read at this bound)."""


class NotLoaded(Exception):
    """A page a tool needs did not load, even after trying again; carries what the page shows."""


@dataclass(frozen=True)
class Judged:
    """Whether a generic action is consequential, and the control it resolved to — so that the action
    presses the very control that was judged (and approved), resolved once."""

    consequence: Consequence
    control: Locator | Outcome | None = None
    """The control found by its name, or the narration of why none was; None: resolve when acting."""
    focus: JSHandle | None = None
    """For a key: the element that had the focus when it was judged, where the key must land. For a
    press or a choice: the element ``control`` resolved to when it was judged — the action goes ahead
    only on that element (`ToolContext.same_element`)."""

    async def release(self) -> None:
        """Let go of ``focus``: the page holds the element for its handle until then."""
        if self.focus is not None:
            with contextlib.suppress(PlaywrightError):  # the page is gone, and the handle with it
                await self.focus.dispose()


class SitePage(Protocol):
    """What a tool's context needs from the site: how to read its page, and what to wait on."""

    @property
    def order_control(self) -> str:
        """CSS selector of the site's own order control: a generic press of it (or Enter in its form) is
        consequential, and followed by the site's confirmation (webagent/tools/consequence.py)."""
        ...

    async def read(self, page: Page, quiet: Sequence[Overlay]) -> PageState:
        """The page's state in one round trip; ``quiet`` overlays (handled already) are left out."""
        ...

    def words(self, message: str) -> str:
        """The site's own words in one of its breadcrumb messages, without the framing it adds."""
        ...

    async def wait_for_view(self, page: Page, view: str, timeout_ms: float) -> None:
        """Wait (without raising) until the page shows ``view``."""
        ...

    def unloaded(self, state: PageState) -> bool:
        """Whether the view is missing what it exists to show (its data failed to load)."""
        ...


class ToolContext:
    """The page of one session, the site's waits, and a record of busy answers weathered."""

    def __init__(self, session: PageSession, site: SitePage) -> None:
        self.session = session
        self.site = site
        self.busy: list[str] = []
        """The site's own words for each busy answer weathered during the current call."""
        self.judged: Judged | None = None
        """The current generic call's judgement (set by the toolbox): its action uses the same control."""
        self._cleared = False
        self._seen: PageState | None = None
        self._site_view = True
        """Whether the page last read was one of the site's own views (settled by its activity log)."""
        """The page as last read through this context, while nothing has been done through it since."""

    @property
    def page(self) -> Page:
        """The page the tools act on: the session's, which follows a tab the page opens."""
        return self.session.page

    async def read(self) -> PageState:
        """The page's state: one round trip — or none, when the last read through this context was made
        with nothing done through it since (`forget` says when something was).

        So a call's reads serve one another: the toolbox's look before the call is the tool's first, and
        the tool's last is the toolbox's look after. A tool acting or waiting on ``page`` directly, not
        through this context, calls `forget` after it.
        """
        if self._seen is None:
            self._seen = await self.site.read(self.page, self.session.handled_overlays)
            self._site_view = self._seen.view != "unknown"
        return self._seen

    def forget(self) -> None:
        """Something was done on the page (or time was given to it): the next `read` looks again."""
        self._seen = None

    # -- acting as a person would, past whatever covers the page -------------------------------------

    async def click(self, target: Locator, again: Callable[[], Awaitable[object]] | None = None) -> None:
        """Click ``target`` past whatever covers it; ``again`` restores its container after a dismissal."""
        await self._act(target, lambda ms: target.click(timeout=ms), again)

    async def hover(self, target: Locator) -> None:
        """The pointer onto ``target`` past whatever covers it, pressing nothing."""
        await self._act(target, lambda ms: target.hover(timeout=ms))

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
        self.forget()
        try:
            await self.session.highlight(target)
            await act(self.page, target, action, self.session.dismissed, cleared=self._cleared, again=again)
        finally:
            self.forget()

    @contextlib.asynccontextmanager
    async def cleared(self, region: Locator) -> AsyncIterator[None]:
        """Clear what covers ``region`` once, for several actions inside it (a form's fields): each then
        goes first and looks for a popup only if it does not go through (`obstruction.act`)."""
        self.forget()
        await clear_way(self.page, region, self.session.dismissed)
        self._cleared = True
        try:
            yield
        finally:
            self._cleared = False

    # -- waiting for the site ------------------------------------------------------------------------

    async def mark(self) -> int:
        """A position in the site's breadcrumbs (its activity log); `wait_for_activity` waits for
        entries after it."""
        return await self.session.crumb_mark()

    async def wait_for_activity(
        self, mark: int, kinds: tuple[str, ...], timeout_ms: float = 10_000
    ) -> str | None:
        """Wait for the site to record an entry of one of ``kinds`` after ``mark``; its kind, or None.

        Its breadcrumb is awaited as it reaches Python (`PageSession.next_crumb`): no polling of the page.
        """
        try:
            crumb = await self.session.next_crumb(mark, kinds, timeout_ms)
        finally:
            self.forget()
        return crumb.kind if crumb is not None else None

    async def error_since(self, mark: int) -> str | None:
        """The site's own words for the last error it recorded after ``mark`` ("could not add … — …")."""
        errors = [crumb for crumb in self.session.breadcrumbs[mark:] if crumb.kind == "error"]
        return self.site.words(errors[-1].message) if errors else None

    async def attempt(
        self,
        do: Callable[[], Awaitable[None]],
        kinds: tuple[str, ...],
        *,
        took_effect: Callable[[], Awaitable[bool]] | None = None,
        timeout_ms: float = 10_000,
    ) -> str | None:
        """Do an action and wait for the site's answer (one of ``kinds``, or ``"error"``).

        When the page says the site was busy, try again — bounded, with backoff — but first ask
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
            self.busy.append(message or "the site was busy")
            if took_effect is not None and await took_effect():
                return kinds[0]
            await asyncio.sleep(backoff(attempt))
        return "error"

    async def settle_after(self, mark: int, quiet_ms: float = 600) -> None:
        """After a generic action: let the site answer (a breadcrumb, or a short quiet time when the
        action changes nothing the site records), and any view it starts finish rendering. A page not the
        site's own keeps no log to answer in: it is settled by what it does — its requests done and its
        DOM still (webagent/browser/quiet.py), within `QUIET_BOUND_MS`."""
        if self._site_view:
            await self.session.next_crumb(mark, None, quiet_ms)
        else:
            await quiet(self.page, self.session.events.traffic, QUIET_BOUND_MS)
        await self.session.settle()
        self.forget()

    async def recover(self, state: PageState) -> PageState:
        """A view that failed to load for a passing reason (the site was busy): press the page's own
        "Try again", or reload when it has none — bounded. A page that loaded but shows a busy error
        from an earlier action is left as it is (a reload would lose a filled form)."""
        for attempt in range(MAX_RETRIES):
            transient = [error for error in state.errors if is_transient(error)]
            if not transient:
                return state
            retry = self.page.get_by_role("button", name=re.compile(r"^(try again|retry|reload)$", re.I))
            offered = await retry.count() > 0
            if not offered and not self.site.unloaded(state):
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
            self.forget()
            state = await self.read()
        return state

    async def wait_for_view(self, view: str, timeout_ms: float = 10_000) -> PageState:
        """The page once it shows ``view`` (or what it shows instead), recovered from a passing failure."""
        await self.site.wait_for_view(self.page, view, timeout_ms)
        self.forget()
        return await self.recover(await self.read())
