"""Every tool against the real shop (clutter 0 and 3), refusals, the graph walk, allowlist, breadcrumbs."""

from __future__ import annotations

import re
import socket
from collections.abc import Callable

import pytest

from demo_site import Shop, running_shop
from demo_site.db import ShopDB
from webagent.browser.session import Browser
from webagent.errors import BrowserClosed
from webagent.sites.demo_shop import DEMO_SHOP
from webagent.sites.demo_shop.graph import VIEWS, edges
from webagent.sync import run_sync

from .conftest import Tools

OpenTools = Callable[..., Tools]

DETAILS = {
    "name": "Ana Tester",
    "address": "12 Oak Street",
    "phone": "555-0101",
    "delivery_slot": "19:00-19:30",
    "payment_method": "Cash",
}


def first_line(text: str) -> str:
    return text.splitlines()[0]


@pytest.mark.parametrize("clutter", [0, 3])
def test_a_whole_order_through_every_tool(open_tools: OpenTools, clutter: int, shop) -> None:
    tools = open_tools(clutter=clutter)
    found = tools("search_restaurants", query="pizza", cuisine=None)
    assert found.ok and '"Italian Bistro"' in found.text and '"Pizza Planet"' in found.text

    opened = tools("open_restaurant", name="italian bistro")
    assert opened.ok, opened.text
    assert first_line(opened.text).startswith(
        'Opened "Italian Bistro". Minimum order $15.00. Menu: "Margherita Pizza" $11.50'
    )

    added = tools("add_to_cart", dish="Margherita Pizza", quantity=2, options=["Large", "Extra cheese"])
    assert added.ok, added.text
    assert (
        first_line(added.text)
        == 'Added 2 × "Margherita Pizza" (Large, Extra cheese) — cart now 2 items, $34.00.'
    )
    assert "@action: added 2 × Margherita Pizza (Large, Extra cheese) to the cart" in added.text

    tiramisu = tools("add_to_cart", dish="tiramisu", quantity=1, options=None)
    assert first_line(tiramisu.text) == 'Added 1 × "Tiramisu" — cart now 3 items, $41.50.'

    cart = tools("view_cart")
    assert cart.ok and first_line(cart.text).startswith(
        'Cart: 2 × "Margherita Pizza (Large, Extra cheese)" $34.00; 1 × "Tiramisu" $7.50.'
    )

    changed = tools("change_quantity", item="Tiramisu", quantity=2)
    assert first_line(changed.text) == 'Set "Tiramisu" to 2 — cart now 4 items, $49.00.'

    removed = tools("remove_from_cart", item="margherita pizza (large, extra cheese)")
    assert (
        first_line(removed.text)
        == 'Removed "Margherita Pizza (Large, Extra cheese)" — cart now 2 items, $15.00.'
    )

    checkout = tools("go_to_checkout")
    assert checkout.ok and first_line(checkout.text).startswith("At checkout, order total $")

    filled = tools("fill_delivery_details", **DETAILS, promo_code=None, tip_cents=200)
    assert filled.ok, filled.text
    assert "All required details are filled." in filled.text

    placed = tools("place_order")
    assert placed.ok and placed.order_id is not None, placed.text
    assert first_line(placed.text).startswith(f"Order #{placed.order_id} placed — the shop confirms it")

    history = tools("view_order_history")
    assert f"#{placed.order_id}" in history.text

    back = tools("back_to_restaurants")
    assert back.ok and first_line(back.text).startswith('Back at the restaurant list: "')

    recent = tools("recent_actions", count=3)
    assert recent.text.startswith("Recent activity (oldest first):") and "@action:" in recent.text

    page = tools("read_page", max_chars=500)
    assert "untrusted page text" in page.text and len(page.text) < 800

    order = ShopDB(shop.db_path).order(placed.order_id)
    assert order is not None and order["name"] == "Ana Tester" and order["delivery_slot"] == "19:00-19:30"
    assert [(item["dish_name"], item["quantity"]) for item in order["items"]] == [("Tiramisu", 2)]
    assert order["tip_cents"] == 200 and order["total_cents"] == placed.total_cents


def dismissals(text: str) -> list[str]:
    """The items of a narration's "dismissed …" part (each starts with "the", "a" or "an")."""
    page = next(line for line in text.splitlines() if line.startswith("Page: "))
    part = next((p for p in page.split(" · ") if p.startswith("dismissed ")), "")
    return re.split(r", (?=(?:the|a|an) )", part.removeprefix("dismissed ")) if part else []


@pytest.mark.parametrize("shortcuts", [True, False], ids=["known-list", "generic-only"])
def test_each_dismissed_overlay_is_reported_once_as_the_shop_recorded_it(
    agent_browser: Browser, shop: Shop, shortcuts: bool
) -> None:
    session = run_sync(agent_browser.new_session(shop.url, DEMO_SHOP, known_overlays=shortcuts))
    try:
        run_sync(session.goto(DEMO_SHOP.start_url(session.shop_url, {"clutter": 2, "seed": 7})))
        tools = Tools(session)
        texts = [
            tools("open_restaurant", name="Burger Barn").text,
            tools("add_to_cart", dish="Onion Rings", quantity=2, options=None).text,
            tools("view_cart").text,
            tools("back_to_restaurants").text,
        ]
        claimed = [item for text in texts for item in dismissals(text)]
        recorded = [c.message for c in session.breadcrumbs if c.kind == "clutter"]
        # The shop's own log of what was closed, and what the narrations said was closed, agree one to one.
        assert len(claimed) == len(recorded) >= 2, (claimed, recorded)
        assert not any(re.search(r"accepted|subscribed", message) for message in recorded), recorded
        if shortcuts:
            assert "the cookie banner" in claimed
        else:
            # The cookie banner sits at the bottom and covers nothing asked for, so it may stay.
            assert 'a dialog "Subscribe to our newsletter" with "No thanks"' in claimed, claimed
        assert tools.state().cart_count == 2
    finally:
        run_sync(session.close())


def test_precondition_refusals_do_not_touch_the_page(open_tools: OpenTools) -> None:
    tools = open_tools()
    before = tools.state()
    refused = tools("add_to_cart", dish="Tiramisu", quantity=1, options=None)
    assert refused.refused and not refused.ok
    assert first_line(refused.text) == (
        "Refused: add_to_cart needs an open restaurant page; you are at the restaurant list — call open_restaurant."
    )
    assert tools("go_to_checkout").text.startswith("Refused: go_to_checkout cannot run: the cart is empty")
    assert tools("place_order").text.startswith("Refused: place_order needs the checkout page")
    assert tools.state().fingerprint() == before.fingerprint()


def test_bad_input_becomes_narration(open_tools: OpenTools) -> None:
    tools = open_tools()
    assert tools("open_restaurant", name="Sushi House").ok
    assert tools.raw("add_to_cart", '{"dish": "Salmon Nigiri", "quantity": 51}').text.startswith(
        "Invalid arguments for add_to_cart: quantity: Input should be less than or equal to 50"
    )
    assert tools.raw("add_to_cart", '{"dish": ').text.startswith("add_to_cart arguments are not valid JSON")
    assert tools.raw("fly_to_moon", "{}").text.startswith("There is no tool called 'fly_to_moon'")
    sold_out = tools("add_to_cart", dish="Dragon Roll", quantity=1, options=None)
    assert first_line(sold_out.text) == '"Dragon Roll" is sold out; nothing was added.' and not sold_out.ok
    typo = tools("add_to_cart", dish="Salmon Nigri", quantity=1, options=None)
    assert typo.ok and "Salmon Nigiri" in typo.text
    unknown = tools("add_to_cart", dish="Lobster Thermidor", quantity=1, options=None)
    assert first_line(unknown.text).startswith('No dish called "Lobster Thermidor" on "Sushi House"\'s menu.')
    assert tools("open_restaurant", name="Italian").text.startswith(
        '"Italian" matches several restaurants in the shop: "Italian Bistro", "Italian Bistro Express". Which one?'
    )
    assert tools("open_restaurant", name="Pizza Planet").ok
    needs_size = tools("add_to_cart", dish="Hawaiian Pizza", quantity=1, options=None)
    assert (
        first_line(needs_size.text)
        == 'Did not add "Hawaiian Pizza": Size is required: choose one of Regular, Large.'
    )
    assert tools.state().dialogs == []  # the options dialog was cancelled, not left open
    wrong_choice = tools("add_to_cart", dish="Hawaiian Pizza", quantity=1, options=["Gigantic"])
    assert 'no choice "Gigantic" here' in wrong_choice.text
    assert tools.state().cart_count == 1  # still just the Salmon Nigiri


def test_a_busy_shop_is_narrated_not_raised(open_tools: OpenTools, tmp_path) -> None:
    with running_shop(db_path=tmp_path / "flaky.db", flaky=1.0) as flaky:
        tools = open_tools(on=flaky)
        result = tools("search_restaurants", query="pizza", cuisine=None)
        assert not result.ok
        assert "busy" in result.text.lower()


def test_requests_outside_the_shop_are_blocked_and_narrated(open_tools: OpenTools) -> None:
    tools = open_tools()
    run_sync(tools.session.page.evaluate("fetch('http://example.invalid/track').catch(() => null)"))
    result = tools("view_cart")
    assert 'Blocked navigation to "http://example.invalid/track" (outside the shop).' in result.text


def test_a_link_out_of_the_shop_is_held_on_the_page_it_was_on(open_tools: OpenTools) -> None:
    # A link written here, not by the shop. Before, the browser's error page replaced the checkout.
    tools = open_tools()
    tools("open_restaurant", name="Italian Bistro")
    tools("add_to_cart", dish="Lasagna al Forno", quantity=2)
    tools("go_to_checkout")
    tools("fill_field", label="Address", text="12 Oak Street")
    link = "<a href='http://example.invalid/deal'>Outside deal</a>"
    run_sync(
        tools.session.page.evaluate("(html) => document.body.insertAdjacentHTML('afterbegin', html)", link)
    )
    result = tools("press", name="Outside deal")
    assert result.ok and 'Blocked navigation to "http://example.invalid/deal"' in result.text, result.text
    state = tools.state()
    # Still the shop's checkout, with what was typed into it: the page never left.
    assert state.view == "checkout" and state.checkout is not None, result.text
    assert state.checkout.address == "12 Oak Street"
    assert tools.session.page.url.startswith(tools.session.shop_url)


# The shop's own "are you still there?" prompt, as its clutter script writes it, coming up while the Cash
# radio is pressed: the release lands on it (the race the shipped eval once lost, t69).
STILL_THERE_MID_PRESS = """() => {
  const cash = [...document.querySelectorAll("input[type=radio]")].find((radio) => radio.value === "Cash");
  cash.addEventListener("mousedown", () => {
    const back = document.createElement("div");
    back.className = "backdrop";
    back.innerHTML = '<div role="dialog" aria-modal="true" class="modal" data-testid="still-there" '
      + 'aria-label="Are you still there?"><p>We kept your cart for you.</p>'
      + '<button type="button" class="btn primary">I&#39;m still here</button></div>';
    back.querySelector("button").addEventListener("click", () => back.remove());
    document.getElementById("clutter-root").append(back);
  }, { once: true });
}"""


def test_a_known_popup_that_takes_the_press_of_a_radio_is_dismissed_and_the_choice_made(
    open_tools: OpenTools,
) -> None:
    tools = open_tools()
    tools("open_restaurant", name="Italian Bistro")
    tools("add_to_cart", dish="Lasagna al Forno", quantity=2)
    tools("go_to_checkout")
    run_sync(tools.session.page.evaluate(STILL_THERE_MID_PRESS))
    details = {"name": "Ada", "address": "12 Oak Street", "phone": "555-0101", "payment_method": "Cash"}
    result = tools("fill_delivery_details", **details)
    assert result.ok and 'dismissed the "are you still there?" prompt' in result.text, result.text
    assert tools.state().checkout.payment_method == "Cash"  # type: ignore[union-attr]


def test_websockets_to_other_origins_are_blocked_and_narrated(open_tools: OpenTools) -> None:
    # A real listener on another local port: the page must not reach it.
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.settimeout(0.5)
        port = listener.getsockname()[1]
        tools = open_tools()
        run_sync(tools.session.page.evaluate(f"window.__ws = new WebSocket('ws://127.0.0.1:{port}/spy')"))
        result = tools("view_cart")
        assert f'Blocked a WebSocket to "ws://127.0.0.1:{port}/spy" (outside the shop).' in result.text
        with pytest.raises(TimeoutError):
            listener.accept()


def test_a_human_click_reaches_the_next_narration(open_tools: OpenTools) -> None:
    tools = open_tools()
    tools("open_restaurant", name="Italian Bistro")
    page = tools.session.page
    card = page.get_by_test_id("menu-item").filter(has_text="Lemonade")
    run_sync(card.get_by_role("button", name="Add Lemonade to cart").click())  # a person, not the toolbox
    result = tools("view_cart")
    assert "@action: added 1 × Lemonade to the cart" in result.text
    assert '1 × "Lemonade" $4.00' in result.text


# -- the graph walk ----------------------------------------------------------------------------------

ARGUMENTS = {
    "search_restaurants": {"query": "pizza", "cuisine": None},
    "open_restaurant": {"name": "Italian Bistro"},
    "back_to_restaurants": {},
    "add_to_cart": {"dish": "Tiramisu", "quantity": 1, "options": None},
    "view_cart": {},
    "change_quantity": {"item": "Tiramisu", "quantity": 3},
    "remove_from_cart": {"item": "Tiramisu"},
    "go_to_checkout": {},
    "fill_delivery_details": {**DETAILS, "promo_code": None, "tip_cents": None},
    "place_order": {},
    "view_order_history": {},
    "read_reviews": {"count": 3},
    "read_dish": {"dish": "Tiramisu"},
}


def _fill_cart(tools: Tools) -> None:
    if tools.state().cart_count == 0:
        assert tools("open_restaurant", name="Italian Bistro").ok
        assert tools("add_to_cart", dish="Tiramisu", quantity=2, options=None).ok


def _reach(tools: Tools, view: str) -> str:
    """Bring the page to ``view`` and return its URL (the cart holds 2 Tiramisu afterwards)."""
    if view == "confirmation":
        _reach(tools, "checkout")
        tools("fill_delivery_details", **ARGUMENTS["fill_delivery_details"])
        assert tools("place_order").ok
        url = tools.state().url
        _fill_cart(tools)
        return url
    _fill_cart(tools)
    if view == "restaurants":
        tools("back_to_restaurants")
    elif view == "restaurant":
        tools("open_restaurant", name="Italian Bistro")
    elif view == "checkout":
        assert tools("go_to_checkout").ok
    elif view == "orders":
        tools("view_order_history")
    return tools.state().url


@pytest.mark.parametrize("start", VIEWS)
def test_graph_walk(open_tools: OpenTools, start: str) -> None:
    """Every edge from ``start``: run the tool there and land in the view the graph says."""
    tools = open_tools()
    url = _reach(tools, start)
    walked = []
    for source, tool, target in edges():
        if source != start:
            continue
        _fill_cart(tools)
        run_sync(tools.session.open(url.removeprefix(tools.session.shop_url).split("?")[0]))
        assert tools.state().view == start
        if tool == "place_order":
            tools("fill_delivery_details", **ARGUMENTS["fill_delivery_details"])
        result = tools(tool, **ARGUMENTS[tool])
        assert result.ok and not result.refused, f"{start} -{tool}-> : {result.text}"
        assert tools.state().view == target, f"{start} -{tool}-> expected {target}: {result.text}"
        walked.append(tool)
    assert walked


def test_a_closed_window_ends_the_run_with_a_clear_error(open_tools: OpenTools) -> None:
    tools = open_tools()
    run_sync(tools.session.page.close())
    with pytest.raises(BrowserClosed, match="the browser window was closed"):
        tools("view_cart")


def test_a_call_that_could_only_say_the_same_again_is_refused_before_it_is_made(
    open_tools: OpenTools,
) -> None:
    """The 1.5B searched the same words twice in a row (issue 38): on a page unchanged since, a repeat of a
    look can only find the same, so it is refused, naming what the first found; what changes the page
    (adding a dish twice) and a repeat after the page changed still run."""
    tools = open_tools(clutter=2)
    first = tools("search_restaurants", query="pizza", cuisine=None)
    assert first.ok and '"Pizza Planet"' in first.text
    again = tools("search_restaurants", query="pizza", cuisine=None)
    assert again.refused and again.refusal == "repeated" and not again.ok
    assert first_line(again.text).startswith("Refused: search_restaurants just ran with these arguments")
    assert first_line(first.text) in first_line(again.text) and "Call another tool" in first_line(again.text)
    assert tools("search_restaurants", query="sushi", cuisine=None).ok  # other arguments: a new look
    assert tools("open_restaurant", name="Italian Bistro").ok
    for _ in range(2):  # the same add twice is two dishes, never refused
        assert tools("add_to_cart", dish="Tiramisu", quantity=1, options=None).ok
    assert tools("view_cart").ok
    cart_again = tools("view_cart")
    assert cart_again.refusal == "repeated" and '2 × "Tiramisu"' in cart_again.text
    assert tools("change_quantity", item="Tiramisu", quantity=3).ok
    assert tools("view_cart").ok  # the cart changed since: looked at again
