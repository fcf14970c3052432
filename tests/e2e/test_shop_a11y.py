"""axe-core (via axe-playwright-python) on the shop's main pages, in a real Chromium.

The clean shop (clutter 0) must have no accessibility violations at all — colour contrast included —
on the restaurant list, a restaurant page, the open cart drawer, checkout and a confirmation.
"""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from demo_site import Shop

from .test_shop_ui import add_dish, fill_delivery_details, open_restaurant, wait_view


@pytest.fixture(scope="module")
def axe() -> Axe:
    return Axe()


def violations(axe: Axe, page: Page) -> list[dict[str, Any]]:
    """axe's violations on the page as it is now, each with its rule, impact and first few targets."""
    found: list[dict[str, Any]] = axe.run(page).response["violations"]
    return [
        {
            "rule": violation["id"],
            "impact": violation["impact"],
            "where": [node["target"] for node in violation["nodes"][:3]],
        }
        for violation in found
    ]


def test_the_main_pages_pass_axe(page: Page, shop: Shop, axe: Axe) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    found: dict[str, list[dict[str, Any]]] = {}

    page.goto(shop.url)
    wait_view(page, "restaurants")
    found["restaurant list"] = violations(axe, page)

    open_restaurant(page, shop, "italian-bistro")
    found["restaurant page"] = violations(axe, page)

    add_dish(page, "Lasagna al Forno")
    add_dish(page, "Tiramisu")
    page.get_by_test_id("cart-button").click()
    expect(page.get_by_test_id("cart-drawer")).to_be_visible()
    found["cart drawer"] = violations(axe, page)

    page.get_by_test_id("checkout-button").click()
    wait_view(page, "checkout")
    fill_delivery_details(page)
    found["checkout"] = violations(axe, page)

    page.get_by_test_id("place-order").click()
    wait_view(page, "confirmation")
    found["confirmation"] = violations(axe, page)

    assert found == {name: [] for name in found}
