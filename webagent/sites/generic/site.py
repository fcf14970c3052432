"""`ANY_PAGE`: a page nobody wrote an adapter for, as a `Site` (webagent/tools/site.py).

What it knows is what any page shows a person: its title and main heading, the form on screen, lists and
tables in brief, its landmarks, what its live regions announce, what is open over it and where typing goes
(`reader.READ_ANY_PAGE_JS`). Its tools are
those that work on any page — press, fill a field, choose an option, a key, scroll, answer a page's
dialog, read the page — with `ask_human` and `finish`. It has no views, no known overlays (popups are got
past by what they look like: webagent/browser/obstruction.py), no breadcrumbs (a press is settled by what
the page does: webagent/browser/quiet.py), no order control of its own (whatever pays, orders or submits
is judged by what it says: webagent/tools/consequence.py) and no order history (no tool of its own
orders, so a resumed run never asks for one). `webagent run --site any-page --url URL` drives it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from playwright.async_api import Page

from webagent.browser.session import RENDERED_JS, Overlay
from webagent.narration.narrate import required_empty
from webagent.narration.state import PageState, state_from_raw
from webagent.sites.generic.reader import READ_ANY_PAGE_JS
from webagent.tools.base import Tool
from webagent.tools.common import LOOP_TOOLS, READ_PAGE
from webagent.tools.context import ToolContext
from webagent.tools.generic import ANSWER_DIALOG, GENERIC_TOOLS

__all__ = ["ANY_PAGE", "AnyPage"]

TOOLS: tuple[Tool, ...] = (READ_PAGE, *GENERIC_TOOLS, *LOOP_TOOLS)
"""Every tool that works on any page, in the order the model reads them: finish closes the list."""

NOTHING = ":not(*)"
"""A CSS selector no element matches: the order control a page with no adapter does not have."""


@dataclass(frozen=True)
class AnyPage:
    """Any page, as the generic layers see it: implements `Site` without inheriting."""

    tools: tuple[Tool, ...] = TOOLS
    overlays: tuple[Overlay, ...] = ()
    rendered_js: str = RENDERED_JS
    breadcrumb_event: str | None = None
    order_control: str = NOTHING

    async def read(self, page: Page, quiet: Sequence[Overlay]) -> PageState:
        return state_from_raw(await page.evaluate(READ_ANY_PAGE_JS, [overlay.selector for overlay in quiet]))

    def words(self, message: str) -> str:
        return message

    async def wait_for_view(self, page: Page, view: str, timeout_ms: float) -> None:
        """A page with no views: nothing to wait for (a press is settled by what the page does)."""

    def unloaded(self, state: PageState) -> bool:
        return False

    def refusal(self, tool: str, state: PageState) -> str | None:
        return None  # every tool here works on any page

    def possible(self, state: PageState) -> list[str]:
        return []  # nothing beyond the tools that always may run: no "Next:" line to add

    def offered(
        self, state: PageState, schemas: list[dict[str, Any]], *, unions: bool = False
    ) -> list[dict[str, Any]]:
        """Every tool but `answer_dialog` (the toolbox adds it when a page's question was answered
        Cancel), and `press_key` only with a focused field or a dialog to take the key — and not while the
        form on screen has a required field left empty: Enter would only get it marked invalid (the 1.5B
        pressed Enter in a newsletter form before choosing how often, then gave up on the choice)."""
        left_out = {ANSWER_DIALOG.name}
        if (not state.focused and not state.dialogs) or required_empty(state.form):
            left_out.add("press_key")
        return [schema for schema in schemas if schema["function"]["name"] not in left_out]

    async def before(self, ctx: ToolContext, tool: str, state: PageState) -> str | None:
        return None

    def start_url(self, base_url: str, settings: Mapping[str, Any]) -> str:
        return base_url

    async def restore(
        self,
        call: Callable[[str, str], Awaitable[object]],
        path: str,
        transcript: Sequence[Mapping[str, Any]],
    ) -> None:
        """Nothing is typed back: which of a run's fills a reloaded page still needs is not knowable here,
        and typing into a page is not done on a guess (the resumed run's narration shows the form)."""

    def order_history_path(self, order_id: int | None = None) -> str:
        return "/"  # never asked: no tool of this site's orders (`Checkpoint.order_attempted`)

    def order_sessions(self, url: str, identity: str | None = None) -> None:
        return None  # a page nobody wrote an adapter for: no order history webagent can ask


ANY_PAGE = AnyPage()
