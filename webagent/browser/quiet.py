"""Settling by what a page does, on a page whose site keeps no activity log of its own (a page nobody
wrote an adapter for): the requests it has in flight, and its DOM gone still — never a fixed wait.

`Traffic` counts each tab's requests from Playwright's request events (streams that never end — event
sources, WebSockets — are not counted; a ``fetch`` is let go `ANSWERED_S` after its reply's headers, and
any request answered but not finished when a wait reaches its bound: one whose reply the page never reads is
never "finished" to Playwright, and held every later call to the bound — measured 3.4 s a call after one,
0.5 s before it); `quiet` waits until the DOM
has not changed for `STILL_MS` with no request in flight, within a bound: a page that never goes still (a
clock, a ticker) is read at the bound.
"""

from __future__ import annotations

import asyncio
import contextlib

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page, Request

__all__ = ["ANSWERED_S", "STILL_MS", "Traffic", "quiet"]

STILL_MS = 150
"""How long the DOM stays unchanged, with nothing in flight, before a page counts as settled."""
ANSWERED_S = 0.5
"""How long a page's own ``fetch`` or XHR, its reply's headers come, is still counted in flight for its body:
one the page never reads is never "finished" to Playwright (an analytics beacon on every click held each
call to the bound, 3 s). A body still coming after that is seen by the next look, not this one."""
_SCRIPTED = ("fetch", "xhr")

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
        self._answered: set[Request] = set()
        self._idle = asyncio.Event()
        self._idle.set()

    def watch(self, page: Page) -> None:
        self._open[page] = set()
        page.on("request", lambda request: self._start(page, request))
        page.on("response", lambda response: self._replied(page, response.request))
        page.on("requestfinished", lambda request: self._end(page, request))
        page.on("requestfailed", lambda request: self._end(page, request))
        page.on("close", lambda closed: self._forget(closed))

    def in_flight(self, page: Page) -> int:
        return len(self._open.get(page, ()))

    def _start(self, page: Page, request: Request) -> None:
        if request.resource_type not in _STREAMS:
            self._open.setdefault(page, set()).add(request)
            self._idle.clear()

    def _replied(self, page: Page, request: Request) -> None:
        if request in self._open.get(page, ()):
            self._answered.add(request)
            if request.resource_type in _SCRIPTED:
                asyncio.get_running_loop().call_later(ANSWERED_S, self._end, page, request)

    def _end(self, page: Page, request: Request) -> None:
        self._open.get(page, set()).discard(request)
        self._answered.discard(request)
        self._wake()

    def let_go_answered(self, page: Page) -> None:
        """Stop counting ``page``'s requests that have their reply but never finished: a wait gave them its
        whole bound (a body still coming after that is no reason to hold every later call too)."""
        for request in [r for r in self._open.get(page, ()) if r in self._answered]:
            self._end(page, request)

    def _forget(self, page: Page) -> None:
        self._answered -= self._open.pop(page, set())
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
    still; a closed one ends the wait (the read after it says what is there). A wait that reaches its bound
    lets go of the requests answered but never finished (`Traffic.let_go_answered`)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + bound_ms / 1000
    try:
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
    except TimeoutError:
        traffic.let_go_answered(page)
