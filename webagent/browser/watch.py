"""Headed debugging: what a person watching the window sees, and the stops they can ask for.

- An on-page panel shows the tool call being made and, once it is done, the narration the model reads;
  the element each action presses, fills or chooses is outlined. Both live in a shadow root marked
  ``aria-hidden`` with ``pointer-events: none``, so neither the shop, the agent's page reading nor
  Playwright's click checks ever see them.
- `keep_open` holds the window open after the run until the person closes it or presses Enter.
- `inspect` opens Playwright's inspector (``page.pause()``) when a tool fails or a run ends failed.

Both stops are plain async functions taking the page: the runner takes them as parameters, so tests
pass their own in (a headless ``page.pause()`` returns at once and there is no window to close).
"""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Awaitable, Callable
from contextlib import suppress
from typing import Any, TextIO

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator, Page

__all__ = ["PANEL_JS", "Pause", "Stay", "Watched", "enter_pressed", "inspect", "keep_open"]

Pause = Callable[[Page, str], Awaitable[None]]
"""A stop at a failure: given the page and why (``"place_order failed: …"``), returns to go on."""
Stay = Callable[[Page], Awaitable[None]]
"""A stop after the run, before the window closes: returns when the window may close."""


class Watched:
    """The on-page panel and outline, for a session (`PageSession`) a person watches (``watch``)."""

    page: Page
    watch: bool

    async def show_call(self, text: str) -> None:
        """Put the tool call about to run on the on-page panel (watched sessions only)."""
        if self.watch:
            with suppress(PlaywrightError):
                await self.page.evaluate(
                    "(t) => window.__webagentWatch && window.__webagentWatch.call(t)", text
                )

    async def show_result(self, ok: bool, narration: str) -> None:
        """Put the narration the model receives under the call on the panel (watched sessions only)."""
        if self.watch:
            with suppress(PlaywrightError):
                await self.page.evaluate(
                    "([ok, t]) => window.__webagentWatch && window.__webagentWatch.result(ok, t)",
                    [ok, narration],
                )

    async def highlight(self, target: Locator) -> None:
        """Outline the element an action is about to act on (watched sessions only); never waits for it."""
        if self.watch:
            with suppress(PlaywrightError):
                # evaluate_all resolves what is there now: a highlight must not wait for a missing element.
                await target.evaluate_all(
                    "(els) => window.__webagentWatch && els.length && window.__webagentWatch.highlight(els[0])"
                )


# Installed in every page of a watched session. `window.__webagentWatch` draws the panel and the outline;
# everything sits in one closed shadow root so page styles cannot touch it and page scripts cannot see it.
PANEL_JS = """
(() => {
  if (window.__webagentWatch) return;
  let host = null, panel = null, title = null, body = null, box = null, target = null;
  const ensure = () => {
    if (host && host.isConnected) return true;
    if (!document.documentElement) return false;
    host = document.createElement("webagent-watch");
    host.setAttribute("aria-hidden", "true");
    host.style.cssText = "all: initial; position: fixed; inset: 0; pointer-events: none; z-index: 2147483647;";
    const root = host.attachShadow({ mode: "closed" });
    // A constructed style sheet and CSSOM only: the page's Content-Security-Policy (no inline styles)
    // holds in the agent's browser as in anyone's, and neither is an inline style.
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(`
      .panel { position: fixed; left: 12px; bottom: 12px; max-width: 440px; max-height: 40vh; overflow: hidden;
               background: rgba(17, 24, 39, .92); color: #f9fafb; border-radius: 8px; padding: 8px 10px;
               font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; box-shadow: 0 4px 16px rgba(0,0,0,.35); }
      .panel[hidden] { display: none; }
      .title { font-weight: 600; color: #93c5fd; white-space: pre-wrap; word-break: break-word; }
      .title.failed { color: #fca5a5; }
      .body { margin-top: 4px; white-space: pre-wrap; word-break: break-word; color: #e5e7eb; }
      .box { position: fixed; border: 2px solid #f59e0b; border-radius: 4px; background: rgba(245,158,11,.12);
             box-sizing: border-box; transition: all .08s; }
      .box[hidden] { display: none; }
    `);
    root.adoptedStyleSheets = [sheet];
    root.innerHTML = `<div class="box" hidden></div><div class="panel" hidden><div class="title"></div><div class="body"></div></div>`;
    panel = root.querySelector(".panel"); title = root.querySelector(".title");
    body = root.querySelector(".body"); box = root.querySelector(".box");
    document.documentElement.appendChild(host);
    return true;
  };
  const follow = () => {
    if (box && target) {
      const r = target.isConnected ? target.getBoundingClientRect() : null;
      if (r && r.width && r.height) {
        box.hidden = false;
        Object.assign(box.style, { left: `${r.left - 3}px`, top: `${r.top - 3}px`,
                                   width: `${r.width + 6}px`, height: `${r.height + 6}px` });
      } else box.hidden = true;
    }
    requestAnimationFrame(follow);
  };
  requestAnimationFrame(follow);
  window.__webagentWatch = {
    call(text) {
      if (!ensure()) return;
      target = null; box.hidden = true;
      panel.hidden = false; title.className = "title"; title.textContent = "\u25b6 " + text; body.textContent = "";
    },
    result(ok, text) {
      if (!ensure()) return;
      panel.hidden = false;
      if (!ok) title.className = "title failed";
      body.textContent = text;
    },
    highlight(el) { if (ensure()) { target = el; } },
    state() {
      return { panel: panel && !panel.hidden ? title.textContent + "\\n" + body.textContent : null,
               box: box && !box.hidden ? box.getBoundingClientRect().toJSON() : null };
    },
  };
})();
"""


def enter_pressed(stream: TextIO | None = None) -> asyncio.Future[str]:
    """A future that resolves with the next line the person types (or "" at end of input).

    Read on a daemon thread: a person who closes the window instead never presses Enter, and the
    process must still be free to exit.
    """
    loop = asyncio.get_running_loop()
    line: asyncio.Future[str] = loop.create_future()
    source = stream or sys.stdin

    def read() -> None:
        try:
            text = source.readline()
        except (OSError, ValueError):
            text = ""

        def deliver() -> None:
            if not line.done():
                line.set_result(text)

        loop.call_soon_threadsafe(deliver)

    threading.Thread(target=read, name="webagent-keep-open", daemon=True).start()
    return line


async def keep_open(page: Page, enter: Awaitable[object] | None = None) -> None:
    """Return when the person closes the window (the page) or ``enter`` resolves (default: Enter).

    Says so on stderr first, since the run's output has already been printed.
    """
    if page.is_closed():
        return
    print(
        "webagent: the run is over; the window stays open — close it or press Enter to end.",
        file=sys.stderr,
        flush=True,
    )
    closed: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    def on_close(_page: Page) -> None:
        if not closed.done():
            closed.set_result(None)

    page.once("close", on_close)
    waiting: asyncio.Future[Any] = asyncio.ensure_future(enter if enter is not None else enter_pressed())
    try:
        await asyncio.wait([closed, waiting], return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiting.cancel()
        page.remove_listener("close", on_close)


async def inspect(page: Page, why: str) -> None:
    """Open Playwright's inspector on ``page`` and wait until the person presses Resume.

    Headless there is no inspector and ``page.pause()`` returns at once; the line on stderr still says why.
    """
    if page.is_closed():
        return
    print(
        f"webagent: paused on a failure — {why}\n"
        "  Look around in the window; press Resume (F8) in Playwright's inspector to go on.",
        file=sys.stderr,
        flush=True,
    )
    await page.pause()
