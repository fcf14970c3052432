"""How the demo shop is waited on: the words in its breadcrumbs, the view it has rendered
(``body.dataset.view``), its menu skeletons, its cart drawer and its header's Home link.

Its breadcrumbs themselves (the ``shop:action`` event) reach Python as they happen and are waited on there
(`PageSession.next_crumb`, through `ToolContext.wait_for_activity`); `words` and `wait_for_view` are the
`SitePage` half of `DEMO_SHOP`, the rest are steps the shop's own tools share.
"""

from __future__ import annotations

import contextlib
import re

from playwright.async_api import Page
from playwright.async_api import TimeoutError as PlaywrightTimeout

from webagent.browser.busy import is_transient
from webagent.narration.state import PageState
from webagent.tools.context import NotLoaded, ToolContext

__all__ = [
    "RENDERED_JS",
    "close_cart",
    "go_home",
    "menu_ready",
    "open_cart",
    "unloaded",
    "wait_for_view",
    "words",
]

RENDERED_JS = (
    "document.body && (!('view' in document.body.dataset) || document.body.dataset.view !== 'loading')"
)
"""True once the shop has rendered a view (its page starts with ``body[data-view=loading]`` and its script
sets the view), or at once on a page that is not the shop's (no ``data-view`` at all): such a page is
never waited on for a marker it will not set."""


# -- the activity log and views ----------------------------------------------------------------------


def words(message: str) -> str:
    """The shop's own words in a breadcrumb: "@action: could not add … at 12:00:00" → "could not add …"."""
    return re.sub(r"^@action:\s*|\s+at \d\d:\d\d:\d\d$", "", message)


async def wait_for_view(page: Page, view: str, timeout_ms: float) -> None:
    with contextlib.suppress(PlaywrightTimeout):  # the caller reports what the page shows instead
        await page.wait_for_function(
            "(view) => document.body && document.body.dataset.view === view", arg=view, timeout=timeout_ms
        )


def unloaded(state: PageState) -> bool:
    """Whether the view is missing what it exists to show (its data failed to load)."""
    return (
        (state.view == "restaurants" and not state.restaurants and not state.no_results)
        or (state.view == "restaurant" and not state.menu)
        or (state.view == "checkout" and state.checkout is None)
        or (state.view == "confirmation" and state.order_number is None)
    )


# -- steps the shop's tools share --------------------------------------------------------------------


async def menu_ready(ctx: ToolContext) -> PageState:
    """The restaurant page once its menu has replaced the loading skeletons (or failed to load)."""
    state = await ctx.read()
    if state.view == "restaurant" and state.menu and not state.menu_loading and not state.errors:
        return state  # ready already: no wait to ask for
    await _menu_or_error(ctx.page)
    ctx.forget()
    state = await ctx.read()
    if any(is_transient(error) for error in state.errors):
        await ctx.recover(state)
        await _menu_or_error(ctx.page)
        ctx.forget()
        state = await ctx.read()
    return state


async def _menu_or_error(page: Page) -> None:
    with contextlib.suppress(PlaywrightTimeout):  # the caller reports what the page shows instead
        await page.wait_for_function(
            """() => document.body.dataset.view === "restaurant"
                 && ((document.querySelector('[data-testid="menu-item"]')
                      && !document.querySelector('[data-testid="menu-skeleton"]'))
                     || !document.querySelector('[data-testid="error"]').hidden)"""
        )


async def open_cart(ctx: ToolContext) -> PageState:
    state = await ctx.read()
    if not state.cart_open:
        await ctx.click(ctx.page.get_by_test_id("cart-button"))
        await ctx.page.get_by_test_id("cart-drawer").wait_for(state="visible")
        ctx.forget()
        state = await ctx.read()
    return state


async def close_cart(ctx: ToolContext) -> None:
    drawer = ctx.page.get_by_test_id("cart-drawer")
    await ctx.click(drawer.get_by_role("button", name="Close cart", exact=True))
    await drawer.wait_for(state="hidden")


async def go_home(ctx: ToolContext, *, clear_search: bool = False) -> None:
    """The restaurant list, through the header's Home link; optionally with the search cleared."""
    state = await ctx.read()
    if state.view != "restaurants":
        await ctx.click(ctx.page.get_by_role("link", name="Home", exact=True))
        state = await ctx.wait_for_view("restaurants")
    state = await ctx.recover(state)
    if unloaded(state):
        raise NotLoaded(state.errors[-1] if state.errors else "the restaurant list did not appear")
    if clear_search:
        box = ctx.page.get_by_test_id("search-input")
        cuisine = ctx.page.get_by_test_id("cuisine-filter")
        if await box.input_value() or await cuisine.input_value():

            async def search_all() -> None:
                await ctx.fill(box, "")
                await ctx.select(cuisine, "All cuisines")
                await ctx.click(ctx.page.get_by_role("button", name="Search", exact=True))

            await ctx.attempt(search_all, ("search",))
