"""Settling by what a page does, on a page whose site keeps no activity log of its own (a page nobody
wrote an adapter for): the requests it has in flight, and its DOM gone still — never a fixed wait.

`Traffic` counts each tab's requests from Playwright's request events (streams that never end — event
sources, WebSockets — are not counted); `quiet` waits until the DOM has not changed for `STILL_MS` with no
request in flight, within a bound: a page that never goes still (a clock, a ticker) is read at the bound.
"""

from __future__ import annotations

import asyncio
import contextlib

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page, Request

__all__ = ["STILL_MS", "Traffic", "quiet"]

STILL_MS = 150
"""How long the DOM stays unchanged, with nothing in flight, before a page counts as settled."""

_STREAMS = ("eventsource", "websocket")

_STILL_JS = """
([still, cap]) => new Promise((done) => {
  const start = performance.now();
  let timer = null;
  const finish = () => { observer.disconnect(); clearTimeout(timer); clearTimeout(bound); done(); };
  const observer = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(finish, still); });
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  timer = setTimeout(finish, still);
  const bound = setTimeout(finish, Math.max(0, cap - (performance.now() - start)));
})
"""


class Traffic:
    """The requests each watched tab has in flight."""

    def __init__(self) -> None:
        self._open: dict[Page, set[Request]] = {}
        self._idle = asyncio.Event()
        self._idle.set()

    def watch(self, page: Page) -> None:
        self._open[page] = set()
        page.on("request", lambda request: self._start(page, request))
        page.on("requestfinished", lambda request: self._end(page, request))
        page.on("requestfailed", lambda request: self._end(page, request))
        page.on("close", lambda closed: self._forget(closed))

    def in_flight(self, page: Page) -> int:
        return len(self._open.get(page, ()))

    def _start(self, page: Page, request: Request) -> None:
        if request.resource_type not in _STREAMS:
            self._open.setdefault(page, set()).add(request)
            self._idle.clear()

    def _end(self, page: Page, request: Request) -> None:
        self._open.get(page, set()).discard(request)
        self._wake()

    def _forget(self, page: Page) -> None:
        self._open.pop(page, None)
        self._wake()

    def _wake(self) -> None:
        self._idle.set()  # a waiter looks again at its own tab's count

    async def drained(self, page: Page) -> None:
        """Once ``page`` has no request in flight."""
        while self.in_flight(page):
            self._idle.clear()
            await self._idle.wait()


async def quiet(page: Page, traffic: Traffic, bound_ms: float) -> None:
    """Wait until ``page``'s DOM has been still for `STILL_MS` with no request in flight, at most
    ``bound_ms``. A page that navigates meanwhile is waited on until its new document has loaded and gone
    still; a closed one ends the wait (the read after it says what is there)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + bound_ms / 1000
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout_at(deadline):
            while not page.is_closed():
                await traffic.drained(page)
                left = max(0.0, (deadline - loop.time()) * 1000)
                try:
                    await page.evaluate(_STILL_JS, [STILL_MS, left])
                except PlaywrightError:  # the document went away under the wait: a navigation, or closed
                    if page.is_closed():
                        return
                    with contextlib.suppress(PlaywrightError):
                        await page.wait_for_load_state("domcontentloaded")
                    continue
                if not traffic.in_flight(page):
                    return
