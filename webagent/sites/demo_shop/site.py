"""`DEMO_SHOP`: the bundled demo shop as a `Site` (webagent/tools/site.py) — its tools in the order
the model reads them, its page reader, its waits, its precondition graph, its known overlays, its
order control, its start URL and its order-history pages.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from playwright.async_api import Page

from webagent.browser.session import Overlay
from webagent.narration.state import PageState
from webagent.sites.demo_shop import graph, waits
from webagent.sites.demo_shop.browsing import (
    AddToCart,
    BackToRestaurants,
    OpenRestaurant,
    ReadDish,
    ReadReviews,
    RecentActions,
    SearchRestaurants,
    add_to_cart,
    back_to_restaurants,
    open_restaurant,
    read_dish,
    read_reviews,
    recent_actions,
    search_restaurants,
)
from webagent.sites.demo_shop.choices import held_to_page
from webagent.sites.demo_shop.ordering import (
    CART_TOOLS,
    ChangeQuantity,
    FillDeliveryDetails,
    GoToCheckout,
    PlaceOrder,
    RemoveFromCart,
    ViewCart,
    ViewOrderHistory,
    change_quantity,
    fill_delivery_details,
    go_to_checkout,
    place_order,
    remove_from_cart,
    view_cart,
    view_order_history,
)
from webagent.sites.demo_shop.reader import read_state
from webagent.sites.demo_shop.session_api import ShopSessions
from webagent.tools.base import Tool
from webagent.tools.common import LOOP_TOOLS, READ_PAGE
from webagent.tools.context import ToolContext
from webagent.tools.generic import GENERIC_TOOLS

__all__ = ["DEMO_SHOP", "OVERLAYS", "SHOP_TOOLS", "TOOLS", "DemoShop"]

SHOP_TOOLS: tuple[Tool, ...] = (
    Tool("search_restaurants", SearchRestaurants, search_restaurants, same_twice=True),
    Tool("open_restaurant", OpenRestaurant, open_restaurant, same_twice=True),
    Tool("back_to_restaurants", BackToRestaurants, back_to_restaurants, same_twice=True),
    Tool("add_to_cart", AddToCart, add_to_cart),
    Tool("change_quantity", ChangeQuantity, change_quantity),
    Tool("remove_from_cart", RemoveFromCart, remove_from_cart),
    Tool("view_cart", ViewCart, view_cart, same_twice=True),
    Tool("go_to_checkout", GoToCheckout, go_to_checkout, same_twice=True),
    Tool("fill_delivery_details", FillDeliveryDetails, fill_delivery_details),
    Tool("place_order", PlaceOrder, place_order, consequential=True),
    Tool("view_order_history", ViewOrderHistory, view_order_history),
    Tool("recent_actions", RecentActions, recent_actions),
    READ_PAGE,
    Tool("read_reviews", ReadReviews, read_reviews, same_twice=True),
    Tool("read_dish", ReadDish, read_dish, same_twice=True),
)
"""The shop's typed vocabulary of ordering food (with `read_page`, which every site has)."""

TOOLS: tuple[Tool, ...] = (*SHOP_TOOLS, *GENERIC_TOOLS, *LOOP_TOOLS)
"""Every tool offered on the demo shop, in the order the model reads them: finish closes the list."""


def _overlay(label: str, test_id: str, button: str) -> Overlay:
    return Overlay(label, f'[data-testid="{test_id}"]', button)


OVERLAYS = (
    _overlay("the cookie banner", "cookie-banner", "Reject non-essential"),
    _overlay("the newsletter popup", "newsletter-modal", "No thanks"),
    _overlay("the chat widget", "chat-widget", "Minimize chat"),
    _overlay("the app download bar", "app-bar", "Dismiss app banner"),
    _overlay('the "are you still there?" prompt', "still-there", "I'm still here"),
    _overlay("a promotion toast", "promo-toast", "Close promotion"),
)
"""What a person dismisses without a second thought. Error alerts and sold-out notices are not here
on purpose: the model must see those."""


@dataclass(frozen=True)
class DemoShop:
    """The demo shop (demo_site/), as the generic layers see it: implements `Site` without inheriting."""

    tools: tuple[Tool, ...] = TOOLS
    overlays: tuple[Overlay, ...] = OVERLAYS
    rendered_js: str = waits.RENDERED_JS
    breadcrumb_event: str | None = "shop:action"  # demo_site/static/activity.js
    order_control: str = '[data-testid="place-order"]'

    async def read(self, page: Page, quiet: Sequence[Overlay]) -> PageState:
        return await read_state(page, [overlay.selector for overlay in quiet])

    def words(self, message: str) -> str:
        return waits.words(message)

    async def wait_for_view(self, page: Page, view: str, timeout_ms: float) -> None:
        await waits.wait_for_view(page, view, timeout_ms)

    def unloaded(self, state: PageState) -> bool:
        return waits.unloaded(state)

    def refusal(self, tool: str, state: PageState) -> str | None:
        return graph.refusal(tool, state)

    def possible(self, state: PageState) -> list[str]:
        return graph.possible(state)

    def offered(
        self, state: PageState, schemas: list[dict[str, Any]], *, unions: bool = False
    ) -> list[dict[str, Any]]:
        names = set(graph.offered(state))
        return [
            held_to_page(schema, state, unions=unions)
            for schema in schemas
            if schema["function"]["name"] in names
        ]

    async def before(self, ctx: ToolContext, tool: str, state: PageState) -> str | None:
        """Close the cart drawer before any tool that does not work inside it, as a person would."""
        if state.cart_open and tool not in CART_TOOLS:
            await waits.close_cart(ctx)
            return f"Closed the cart drawer first ({tool} acts on the page behind it)."
        return None

    def start_url(self, base_url: str, settings: Mapping[str, Any]) -> str:
        """The shop's root with the run's clutter and seed (``settings["clutter"]``, ``["seed"]``); a URL with
        a path is opened as given (the clutter query is the demo shop's, and only its root reads it)."""
        if urlsplit(base_url).path.strip("/"):
            return base_url
        query = [f"{key}={settings[key]}" for key in ("clutter", "seed") if settings.get(key) is not None]
        return base_url.rstrip("/") + "/" + ("?" + "&".join(query) if query else "")

    async def restore(
        self,
        call: Callable[[str, str], Awaitable[object]],
        path: str,
        transcript: Sequence[Mapping[str, Any]],
    ) -> None:
        """The checkout form again as the transcript says it was filled: it lives only in the page (each
        visit to checkout renders it empty), so a reload on resume loses it, and an approved order would be
        refused for missing details."""
        if path.rstrip("/") != "/checkout":
            return
        fills: list[str] = []
        for event in transcript:
            if event.get("event") != "tool":
                continue
            if event.get("name") == "go_to_checkout":
                fills = []
            elif event.get("name") == "fill_delivery_details" and event.get("ok"):
                fills.append(str(event.get("arguments") or "{}"))
        for arguments in fills:
            await call("fill_delivery_details", arguments)

    def order_history_path(self, order_id: int | None = None) -> str:
        return "/orders" if order_id is None else f"/orders/{order_id}"

    def order_sessions(self, url: str, identity: str | None = None) -> ShopSessions:
        return ShopSessions(url, identity)


DEMO_SHOP = DemoShop()
