"""Fixtures for driving the real shop through webagent's async toolbox from synchronous tests.

The toolbox is async (Playwright's async API); `run_sync` runs it on webagent's event-loop thread, the
same facade scripts use. The browser honours pytest-playwright's ``--headed`` and ``--slowmo``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from demo_site import Shop
from webagent.browser.session import Browser, PageSession
from webagent.narration.state import PageState
from webagent.sites.demo_shop import DEMO_SHOP
from webagent.sync import run_sync
from webagent.tools.toolbox import Toolbox, ToolResult


class Tools:
    """A synchronous handle on one page session's toolbox."""

    def __init__(self, session: PageSession) -> None:
        self.session = session
        self.toolbox = Toolbox(session, DEMO_SHOP)

    def __call__(self, tool: str, /, **arguments: Any) -> ToolResult:
        return run_sync(self.toolbox.call(tool, arguments))

    def raw(self, name: str, arguments: str) -> ToolResult:
        return run_sync(self.toolbox.call(name, arguments))

    def state(self) -> PageState:
        return run_sync(self.toolbox.state())


@pytest.fixture
def open_tools(agent_browser: Browser, shop: Shop) -> Iterator[Callable[..., Tools]]:
    """``open_tools(clutter=3)`` → a fresh browser context on the shop, at that clutter, with a toolbox."""
    sessions: list[PageSession] = []

    def make(clutter: int = 0, seed: int = 7, on: Shop | None = None) -> Tools:
        session = run_sync(agent_browser.new_session((on or shop).url, DEMO_SHOP))
        sessions.append(session)
        run_sync(session.goto(DEMO_SHOP.start_url(session.shop_url, {"clutter": clutter, "seed": seed})))
        return Tools(session)

    yield make
    for session in sessions:
        run_sync(session.close())
