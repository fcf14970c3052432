"""`seen`: the typed record of what a page state showed, as a transcript's tool event keeps it."""

from __future__ import annotations

import json

from webagent.narration.seen import Seen, seen
from webagent.narration.state import CartLine, CheckoutForm, MenuItem, PageState, RestaurantCard

MENU = [
    MenuItem(name="Dragon Roll", price_cents=1600, sold_out=True),
    MenuItem(name="Miso Soup", price_cents=400),
]


def test_an_open_menu_shows_its_sold_out_dishes_and_whether_the_cart_reached_the_minimum() -> None:
    state = PageState(
        view="restaurant",
        restaurant="Sushi House",
        min_order_cents=2000,
        menu=MENU,
        cart_count=1,
        cart_lines=[CartLine(name="Miso Soup", quantity=1, total_cents=400)],
        cart_subtotal_cents=400,
        cart_total_cents=819,
        min_order_notice="Add $16.00 more to reach the $20.00 minimum",
    )
    record = seen(state).record()
    assert record == {
        "view": "restaurant",
        "restaurant": "Sushi House",
        "dishes": 2,
        "menu": [
            {"name": "Dragon Roll", "price_cents": 1600, "sold_out": True},
            {"name": "Miso Soup", "price_cents": 400},
        ],
        "sold_out": ["Dragon Roll"],
        "min_order_cents": 2000,
        "min_reached": False,
        "cart": [("Miso Soup", 1)],
        "subtotal_cents": 400,
        "total_cents": 819,
    }
    # JSON, and read back to the same values.
    assert Seen.model_validate(json.loads(json.dumps(record))) == seen(state)
    reached = state.model_copy(update={"cart_subtotal_cents": 2000, "min_order_notice": None})
    assert seen(reached).min_reached is True
    assert seen(state.model_copy(update={"cart_count": 0, "cart_lines": []})).min_reached is None


def test_the_checkout_shows_its_total_and_the_promo_code_the_shop_refused() -> None:
    form = CheckoutForm(
        promo_code="SPRING5", promo_result="The promo code SPRING5 has expired", promo_valid=False
    )
    state = PageState(
        view="checkout",
        cart_count=2,
        cart_lines=[CartLine(name="Kung Pao Chicken (Mild)", quantity=2, total_cents=2600)],
        cart_subtotal_cents=2600,
        cart_total_cents=3029,
        summary_total_cents=3029,
        checkout=form,
        errors=["The promo code SPRING5 has expired"],
    )
    record = seen(state).record()
    assert record["promo_code"] == "SPRING5" and record["promo_valid"] is False
    assert record["total_cents"] == 3029 and record["error"] == "The promo code SPRING5 has expired"
    assert "restaurant" not in record and "promo_result" not in record  # the shop's sentence stays out
    untried = state.model_copy(update={"checkout": CheckoutForm()})
    assert "promo_code" not in seen(untried).record() and "promo_valid" not in seen(untried).record()


def test_an_overlay_that_blocked_the_call_and_the_lists_and_confirmation() -> None:
    listing = PageState(
        view="restaurants", restaurants=[RestaurantCard(name="Sushi House")], dialogs=["Stay"]
    )
    blocked = seen(listing, "Stay in the loop", ["Allow notifications", "Subscribe to offers"]).record()
    assert blocked == {
        "view": "restaurants",
        "listed": 1,
        "restaurants": ["Sushi House"],
        "dialogs": ["Stay"],
        "blocked_by": "Stay in the loop",
        "buttons": ["Allow notifications", "Subscribe to offers"],
    }
    assert seen(PageState(view="confirmation", order_number=7)).record() == {
        "view": "confirmation",
        "order": 7,
    }
