"""The baselines: what each tool wraps, done with bare Playwright calls — no narration, no checks.

Every function here acts on the same element a tool acts on and waits for the same observable effect
the tool waits for (the cart count changing, the menu appearing, the shop recording a search), so the
difference between a tool call and its baseline is the toolbox's own work: validation, the
precondition graph, reading the page before and after, matching names, narrating.
"""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path

from playwright.async_api import Browser, Locator, Page, Playwright, async_playwright
from playwright.async_api import Error as PlaywrightError

from webagent.browser.chromium import find_chromium, launch_args
from webagent.sites.demo_shop.site import OVERLAYS

CART_COUNT_CHANGED = """(n) => {
  const el = document.querySelector('[data-testid="cart-count"]');
  return el && (parseInt(el.textContent, 10) || 0) !== n;
}"""

MENU_READY = """() => document.body.dataset.view === "restaurant"
  && document.querySelector('[data-testid="menu-item"]')
  && !document.querySelector('[data-testid="menu-skeleton"]')"""

ACTIVITY_AFTER = """([n, kind]) => (window.shopActivity || []).slice(n).some((b) => b.kind === kind)"""


async def cart_count(page: Page) -> int:
    text = await page.get_by_test_id("cart-count").text_content()
    return int((text or "0").strip() or 0)


async def open_restaurant(page: Page, name: str) -> None:
    """Click the restaurant's card link; wait for its menu to replace the list."""
    await page.get_by_role("link", name=f"Open {name}", exact=True).click()
    await page.wait_for_function(MENU_READY)


async def add_to_cart(page: Page, dish: str) -> None:
    """Click "Add {dish} to cart" (a dish without options); wait for the cart count to change."""
    before = await cart_count(page)
    await page.get_by_role("button", name=f"Add {dish} to cart", exact=True).click()
    await page.wait_for_function(CART_COUNT_CHANGED, arg=before)


async def view_cart(page: Page) -> None:
    """Click the cart button; wait for the drawer to show."""
    await page.get_by_test_id("cart-button").click()
    await page.get_by_test_id("cart-drawer").wait_for(state="visible")


async def change_quantity(page: Page, line: str, quantity: int) -> None:
    """Type the quantity into the open drawer's box and leave it; wait for the cart count to change."""
    before = await cart_count(page)
    box = page.get_by_test_id("cart-drawer").get_by_role("spinbutton", name=f"Quantity of {line}", exact=True)
    await box.fill(str(quantity))
    await box.blur()
    await page.wait_for_function(CART_COUNT_CHANGED, arg=before)


async def search_restaurants(page: Page, query: str) -> None:
    """Type the query, press Search; wait for the shop to record the search (the list re-rendered)."""
    mark = await page.evaluate("(window.shopActivity || []).length")
    await page.get_by_test_id("search-input").fill(query)
    await page.get_by_role("button", name="Search", exact=True).click()
    await page.wait_for_function(ACTIVITY_AFTER, arg=[mark, "search"])


async def fill_delivery_details(
    page: Page, name: str, address: str, phone: str, slot: str, payment: str
) -> None:
    """Fill the five required checkout fields."""
    form = page.get_by_role("form", name="Delivery details")
    await form.get_by_label("Name", exact=True).fill(name)
    await form.get_by_label("Address", exact=True).fill(address)
    await form.get_by_label("Phone", exact=True).fill(phone)
    await form.get_by_label("Delivery time").select_option(label=slot)
    await (
        form.get_by_role("radiogroup", name="Payment method")
        .get_by_role("radio", name=payment, exact=True)
        .check()
    )


def overlay_buttons(page: Page) -> list[Locator]:
    """The dismiss buttons of the clutter, as `PageSession` locates them (same selectors)."""
    return [
        page.locator(overlay.selector).get_by_role("button", name=overlay.button, exact=True)
        for overlay in OVERLAYS
    ]


async def add_overlay_handlers(page: Page) -> None:
    """Click away the clutter as a hand-written script on this shop must (Playwright's own mechanism)."""
    for button in overlay_buttons(page):

        async def dismiss(target: Locator) -> None:
            with suppress(PlaywrightError):  # a toast that hid itself
                await target.click(timeout=2_000)

        await page.add_locator_handler(button, dismiss, no_wait_after=True)


async def scripted_order(shop_url: str, profile: dict[str, str]) -> None:
    """The benchmark's 3-dish order by hand: launch Chromium, click through, place it, close.

    2 × Margherita Pizza (Large), 1 × Tiramisu, 1 × Spaghetti Carbonara from Italian Bistro, at
    19:00-19:30, cash. No narration, no reading back, no checks beyond waiting for each effect.
    """
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=find_chromium(headless=True), args=launch_args(headless=True)
        )
        await scripted_order_in(browser, shop_url, profile)
        await browser.close()


async def scripted_order_in(browser: Browser, shop_url: str, profile: dict[str, str]) -> None:
    """`scripted_order` in a new context of a browser already running (the warm-browser baseline)."""
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await context.new_page()
    await add_overlay_handlers(page)
    await page.goto(f"{shop_url}/?clutter=2&seed=7", wait_until="domcontentloaded")
    await open_restaurant(page, "Italian Bistro")
    card = page.get_by_test_id("menu-item").filter(
        has=page.get_by_test_id("dish-name").get_by_text("Margherita Pizza", exact=True)
    )
    await card.get_by_role("spinbutton").fill("2")
    await card.get_by_role("button", name="Add Margherita Pizza to cart", exact=True).click()
    dialog = page.get_by_test_id("options-dialog")
    await dialog.get_by_role("radio", name="Large", exact=True).check()
    await dialog.get_by_test_id("options-confirm").click()
    await page.wait_for_function(CART_COUNT_CHANGED, arg=0)
    await add_to_cart(page, "Tiramisu")
    await add_to_cart(page, "Spaghetti Carbonara")
    await view_cart(page)
    await page.get_by_test_id("checkout-button").click()
    await page.wait_for_function("() => document.body.dataset.view === 'checkout'")
    await fill_delivery_details(
        page, profile["name"], profile["address"], profile["phone"], "19:00-19:30", "Cash"
    )
    await page.get_by_test_id("place-order").click()
    await page.wait_for_function("() => document.body.dataset.view === 'confirmation'")
    await context.close()


def shop_orders(db_path: Path) -> int:
    from demo_site.db import ShopDB

    return len(ShopDB(db_path).orders())


async def launch() -> Browser:
    """A Chromium of the baseline's own (its own Playwright driver, as a script would have)."""
    playwright = await async_playwright().start()
    browser = await playwright.chromium.launch(
        executable_path=find_chromium(headless=True), args=launch_args(headless=True)
    )
    _drivers[browser] = playwright
    return browser


async def close(browser: Browser) -> None:
    await browser.close()
    await _drivers.pop(browser).stop()


_drivers: dict[Browser, Playwright] = {}
