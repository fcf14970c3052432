"""The shop's JSON API on a real server (docs/shop-contract.md): catalog, cart, pricing, orders, faults."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from demo_site import Shop, running_shop
from demo_site.db import ShopDB

PIZZA = "italian-bistro--margherita-pizza"
TIRAMISU = "italian-bistro--tiramisu"
CARBONARA = "italian-bistro--spaghetti-carbonara"
WATER = "italian-bistro--san-pellegrino"
DRAGON_ROLL = "sushi-house--dragon-roll"
NIGIRI = "sushi-house--salmon-nigiri"

DETAILS = {
    "name": "Ada Lovelace",
    "address": "12 Analytical Row",
    "phone": "+44 (20) 555-0100",
    "delivery_slot": "ASAP",
    "payment_method": "Cash",
}


@pytest.fixture
def client(shop: Shop) -> Iterator[httpx.Client]:
    """A new browser-like session (its own cookie jar) on the shared shop."""
    with httpx.Client(base_url=shop.url, timeout=30) as session:
        yield session


def add(client: httpx.Client, dish_id: str, quantity: int = 1, **options: Any) -> httpx.Response:
    return client.post("/api/cart/items", json={"dish_id": dish_id, "quantity": quantity, "options": options})


def checkout(client: httpx.Client, **overrides: Any) -> httpx.Response:
    token = client.get("/api/cart").json()["checkout_token"]
    return client.post("/api/orders", json={**DETAILS, "checkout_token": token, **overrides})


def assert_error(response: httpx.Response, status: int, *words: str) -> str:
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, str) and detail
    for word in words:
        assert word.lower() in detail.lower(), detail
    return detail


def fill_pizza_cart(client: httpx.Client) -> None:
    """2 × Margherita (Large + Bacon) = 3500, 1 × Tiramisu = 750: subtotal 4250."""
    assert add(client, PIZZA, 2, Size="Large", Extras=["Bacon"]).status_code == 200
    assert add(client, TIRAMISU).status_code == 200


# Session and catalog --------------------------------------------------------------------------


def test_first_request_sets_session_cookie_with_server_defaults(client: httpx.Client) -> None:
    response = client.get("/api/session")
    assert response.json() == {"clutter": 0, "seed": 7, "flaky": 0.0}
    assert "shop_session" in response.cookies
    cookie_header = response.headers["set-cookie"].lower()
    assert "httponly" in cookie_header and "samesite=lax" in cookie_header


def test_page_load_with_query_sets_session_clutter_and_seed(client: httpx.Client) -> None:
    page = client.get("/restaurant/italian-bistro", params={"clutter": 3, "seed": 11})
    assert page.headers["cache-control"] == "no-store"
    assert client.get("/api/session").json()["clutter"] == 3
    assert client.get("/api/session").json()["seed"] == 11


def test_page_load_with_out_of_range_clutter_is_rejected(client: httpx.Client) -> None:
    assert_error(client.get("/", params={"clutter": 5}), 422, "clutter")
    assert_error(client.get("/", params={"clutter": "lots"}), 422, "clutter")
    assert_error(client.get("/", params={"clutter": "3_0"}), 422, "clutter")
    assert_error(client.get("/", params={"seed": "٣"}), 422, "seed")


def test_restaurants_are_listed_by_name_at_low_clutter(client: httpx.Client) -> None:
    restaurants = client.get("/api/restaurants").json()
    assert len(restaurants) == 26
    names = [r["name"] for r in restaurants]
    assert names == sorted(names, key=str.casefold)
    assert set(restaurants[0]) == {
        "id",
        "name",
        "cuisine",
        "description",
        "rating",
        "delivery_fee_cents",
        "min_order_cents",
        "eta_minutes",
        "sponsored",
        "tags",
    }


def test_sponsored_restaurants_come_first_at_clutter_2(client: httpx.Client) -> None:
    client.get("/", params={"clutter": 2})
    sponsored = [r["sponsored"] for r in client.get("/api/restaurants").json()]
    assert sponsored[:3] == [True, True, True]
    assert not any(sponsored[3:])


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("doner", "berlin-doner"),
        ("DÖNER", "berlin-doner"),
        ("carbonara", "italian-bistro"),
        ("café", "le-petit-cafe"),
        ("pasta", "italian-bistro"),
    ],
)
def test_search_matches_names_tags_dishes_ignoring_case_and_accents(
    client: httpx.Client, query: str, expected: str
) -> None:
    ids = [r["id"] for r in client.get("/api/restaurants", params={"q": query}).json()]
    assert expected in ids


def test_search_by_cuisine_and_text_together(client: httpx.Client) -> None:
    japanese = client.get("/api/restaurants", params={"cuisine": "Japanese"}).json()
    assert {r["id"] for r in japanese} == {"sushi-house", "sushi-house-premium", "ramen-yokocho"}
    assert client.get("/api/restaurants", params={"q": "ramen", "cuisine": "Italian"}).json() == []
    assert client.get("/api/restaurants", params={"q": "no such food anywhere"}).json() == []


def test_cuisines_are_sorted_and_unique(client: httpx.Client) -> None:
    cuisines = client.get("/api/cuisines").json()
    assert cuisines == sorted(set(cuisines))
    assert "Italian" in cuisines and "Turkish" in cuisines


def test_menu_has_dishes_with_options_and_sold_out_flags(client: httpx.Client) -> None:
    bistro = client.get("/api/restaurants/italian-bistro").json()
    assert bistro["name"] == "Italian Bistro"
    assert bistro["reviews"]
    pizza = next(d for d in bistro["menu"] if d["id"] == PIZZA)
    assert pizza["price_cents"] == 1150
    assert pizza["options"][0] == {
        "name": "Size",
        "required": True,
        "choices": [{"name": "Regular", "price_delta_cents": 0}, {"name": "Large", "price_delta_cents": 400}],
    }
    sushi = client.get("/api/restaurants/sushi-house").json()
    assert next(d for d in sushi["menu"] if d["id"] == DRAGON_ROLL)["sold_out"] is True


def test_unknown_restaurant_is_404(client: httpx.Client) -> None:
    assert_error(client.get("/api/restaurants/nowhere"), 404, "nowhere")


def test_config_lists_catalog_constants(client: httpx.Client) -> None:
    config = client.get("/api/config").json()
    assert config["service_fee_percent"] == 5
    assert "ASAP" in config["delivery_slots"]
    assert config["payment_methods"] == ["Card on delivery", "Cash", "Voucher"]


# Cart -------------------------------------------------------------------------------------------


def test_empty_cart_has_a_checkout_token_and_no_restaurant(client: httpx.Client) -> None:
    cart = client.get("/api/cart").json()
    assert cart["restaurant_id"] is None and cart["lines"] == [] and cart["item_count"] == 0
    assert cart["total_cents"] == 0 and cart["min_order_met"] is False
    assert cart["checkout_token"]


def test_adding_the_same_dish_and_options_merges_lines(client: httpx.Client) -> None:
    add(client, PIZZA, 1, Size="Large", Extras=["Bacon", "Extra cheese"])
    cart = add(client, PIZZA, 2, Size="Large", Extras=["Extra cheese", "Bacon"]).json()
    assert len(cart["lines"]) == 1
    line = cart["lines"][0]
    assert line["quantity"] == 3
    assert line["options"] == {"Size": "Large", "Extras": ["Extra cheese", "Bacon"]}
    assert line["unit_price_cents"] == 1150 + 400 + 150 + 200
    cart = add(client, PIZZA, 1, Size="Regular").json()
    assert len(cart["lines"]) == 2
    assert cart["item_count"] == 4
    assert cart["restaurant_name"] == "Italian Bistro"


def test_patch_and_delete_cart_lines(client: httpx.Client) -> None:
    cart = add(client, TIRAMISU).json()
    line_id = cart["lines"][0]["line_id"]
    cart = client.patch(f"/api/cart/items/{line_id}", json={"quantity": 5}).json()
    assert cart["lines"][0]["quantity"] == 5 and cart["subtotal_cents"] == 5 * 750
    assert_error(client.patch(f"/api/cart/items/{line_id}", json={"quantity": 0}), 422, "quantity")
    assert_error(client.patch("/api/cart/items/999999", json={"quantity": 2}), 404)
    cart = client.delete(f"/api/cart/items/{line_id}").json()
    assert cart["lines"] == []
    assert_error(client.delete(f"/api/cart/items/{line_id}"), 404)


def test_delete_cart_empties_it(client: httpx.Client) -> None:
    fill_pizza_cart(client)
    cart = client.delete("/api/cart").json()
    assert cart["lines"] == [] and cart["restaurant_id"] is None


def test_cart_lines_belong_to_their_session(shop: Shop, client: httpx.Client) -> None:
    line_id = add(client, TIRAMISU).json()["lines"][0]["line_id"]
    with httpx.Client(base_url=shop.url) as stranger:
        assert_error(stranger.patch(f"/api/cart/items/{line_id}", json={"quantity": 2}), 404)
        assert_error(stranger.delete(f"/api/cart/items/{line_id}"), 404)
        assert stranger.get("/api/cart").json()["lines"] == []


def test_required_option_missing_or_unknown_choice_is_422(client: httpx.Client) -> None:
    assert_error(add(client, PIZZA), 422, "Size")
    assert_error(add(client, PIZZA, Size="Huge"), 422, "Huge")
    assert_error(add(client, PIZZA, Size="Large", Sauce="BBQ"), 422, "Sauce")
    assert_error(add(client, PIZZA, Size=["Regular", "Large"]), 422, "Size")
    assert client.get("/api/cart").json()["lines"] == []


def test_sold_out_dish_is_409(client: httpx.Client) -> None:
    assert_error(add(client, DRAGON_ROLL), 409, "sold out")


def test_unknown_dish_is_404(client: httpx.Client) -> None:
    assert_error(add(client, "italian-bistro--unicorn"), 404, "unicorn")


@pytest.mark.parametrize("quantity", [0, -1, 51])
def test_quantity_outside_1_to_50_is_422(client: httpx.Client, quantity: int) -> None:
    assert_error(add(client, TIRAMISU, quantity), 422, "quantity")


def test_merged_quantity_above_50_is_422(client: httpx.Client) -> None:
    add(client, TIRAMISU, 30)
    assert_error(add(client, TIRAMISU, 21), 422, "quantity")
    assert client.get("/api/cart").json()["item_count"] == 30


def test_dish_from_another_restaurant_is_409(client: httpx.Client) -> None:
    add(client, TIRAMISU)
    detail = assert_error(add(client, NIGIRI), 409, "Italian Bistro", "empty it first")
    assert "Your cart has dishes from" in detail


# Pricing and promo codes --------------------------------------------------------------------------


def test_cart_totals_match_hand_computed_numbers(client: httpx.Client) -> None:
    fill_pizza_cart(client)
    cart = client.get("/api/cart").json()
    assert cart["subtotal_cents"] == 4250
    assert cart["delivery_fee_cents"] == 299
    assert cart["service_fee_cents"] == 213  # 5 % of 4250 = 212.5, rounded half-up
    assert cart["total_cents"] == 4250 + 299 + 213
    assert cart["min_order_cents"] == 1500 and cart["min_order_met"] is True
    assert [line["line_total_cents"] for line in cart["lines"]] == [3500, 750]


def test_promo_preview_valid_expired_unknown_and_below_minimum(client: httpx.Client) -> None:
    add(client, CARBONARA)  # subtotal 1400, below WELCOME10's 2000
    below = client.post("/api/promo", json={"code": "welcome10"}).json()
    assert below["valid"] is False and "$20.00" in below["message"]
    add(client, TIRAMISU)  # 2150
    welcome = client.post("/api/promo", json={"code": "WELCOME10"}).json()
    assert welcome == {
        "code": "WELCOME10",
        "valid": True,
        "message": welcome["message"],
        "discount_cents": 215,
        "free_delivery": False,
    }
    expired = client.post("/api/promo", json={"code": "SPRING5"}).json()
    assert expired["valid"] is False and "expired" in expired["message"]
    unknown = client.post("/api/promo", json={"code": "FREEFOOD"}).json()
    assert unknown["valid"] is False and "does not exist" in unknown["message"]
    assert_error(client.post("/api/promo", json={"code": "X" * 41}), 422, "code")


def test_order_with_percent_promo_and_tip_is_priced_server_side(fresh_shop: Shop) -> None:
    with httpx.Client(base_url=fresh_shop.url) as client:
        fill_pizza_cart(client)
        response = checkout(client, promo_code="WELCOME10", tip_cents=300)
    assert response.status_code == 201, response.text
    order = response.json()
    assert order["subtotal_cents"] == 4250
    assert order["delivery_fee_cents"] == 299
    assert order["service_fee_cents"] == 213
    assert order["discount_cents"] == 425
    assert order["tip_cents"] == 300
    assert order["total_cents"] == 4250 + 299 + 213 - 425 + 300
    assert order["promo_code"] == "WELCOME10"
    assert order["status"] == "confirmed"


def test_free_delivery_promo_zeroes_the_delivery_fee(client: httpx.Client) -> None:
    fill_pizza_cart(client)
    order = checkout(client, promo_code="freedelivery").json()
    assert order["delivery_fee_cents"] == 0 and order["discount_cents"] == 0
    assert order["total_cents"] == 4250 + 213


@pytest.mark.parametrize(
    ("code", "reason"), [("SPRING5", "expired"), ("NOPE", "does not exist"), ("WELCOME10", "at least")]
)
def test_checkout_rejects_bad_promo_codes(client: httpx.Client, code: str, reason: str) -> None:
    add(client, CARBONARA)
    add(client, WATER)  # 1750: meets the 1500 minimum order, not WELCOME10's 2000
    assert_error(checkout(client, promo_code=code), 422, reason)
    assert len(client.get("/api/cart").json()["lines"]) == 2


def test_below_minimum_order_is_409(client: httpx.Client) -> None:
    cart = add(client, WATER).json()
    assert cart["min_order_met"] is False
    assert_error(checkout(client), 409, "$11.50 more", "$15.00 minimum")


def test_empty_cart_checkout_is_409(client: httpx.Client) -> None:
    assert_error(checkout(client), 409, "empty")


# Orders ---------------------------------------------------------------------------------------------


def test_order_is_persisted_and_cart_emptied(fresh_shop: Shop) -> None:
    with httpx.Client(base_url=fresh_shop.url) as client:
        fill_pizza_cart(client)
        token = client.get("/api/cart").json()["checkout_token"]
        order = checkout(client).json()
        cart = client.get("/api/cart").json()
        assert cart["lines"] == [] and cart["checkout_token"] != token
        assert client.get("/api/orders").json() == [order]
        assert client.get(f"/api/orders/{order['id']}").json() == order

    stored = ShopDB(fresh_shop.db_path).orders()
    assert len(stored) == 1
    assert stored[0]["id"] == order["id"] and stored[0]["total_cents"] == order["total_cents"]
    assert stored[0]["items"][0]["options"] == {"Size": "Large", "Extras": ["Bacon"]}

    with closing(sqlite3.connect(fresh_shop.db_path)) as conn:
        row = conn.execute("SELECT restaurant_id, name, total_cents FROM orders").fetchone()
        items = conn.execute(
            "SELECT dish_id, quantity, unit_price_cents, line_total_cents FROM order_items"
            " WHERE order_id = ? ORDER BY id",
            (order["id"],),
        ).fetchall()
    assert row == ("italian-bistro", "Ada Lovelace", 4250 + 299 + 213)
    assert items == [(PIZZA, 2, 1750, 3500), (TIRAMISU, 1, 750, 750)]


def test_reopening_the_database_keeps_orders(fresh_shop: Shop) -> None:
    with httpx.Client(base_url=fresh_shop.url) as client:
        fill_pizza_cart(client)
        order_id = checkout(client).json()["id"]
    reopened = ShopDB(fresh_shop.db_path)
    assert [order["id"] for order in reopened.orders()] == [order_id]
    assert reopened.order(order_id) is not None
    assert len(reopened.restaurants()) == 26


def test_resubmitting_the_same_token_returns_the_same_order(fresh_shop: Shop) -> None:
    with httpx.Client(base_url=fresh_shop.url) as client:
        fill_pizza_cart(client)
        body = {**DETAILS, "checkout_token": client.get("/api/cart").json()["checkout_token"]}
        first = client.post("/api/orders", json=body)
        second = client.post("/api/orders", json=body)
    assert (first.status_code, second.status_code) == (201, 200)
    assert first.json() == second.json()
    assert len(ShopDB(fresh_shop.db_path).orders()) == 1


def test_concurrent_double_submit_creates_one_order(fresh_shop: Shop) -> None:
    with httpx.Client(base_url=fresh_shop.url) as client:
        fill_pizza_cart(client)
        body = {**DETAILS, "checkout_token": client.get("/api/cart").json()["checkout_token"]}
        cookies = dict(client.cookies)

    def submit(_: int) -> httpx.Response:
        with httpx.Client(base_url=fresh_shop.url, cookies=cookies, timeout=30) as twin:
            return twin.post("/api/orders", json=body)

    with ThreadPoolExecutor(max_workers=4) as pool:
        responses = list(pool.map(submit, range(4)))
    assert sorted(r.status_code for r in responses) == [200, 200, 200, 201]
    assert len({r.json()["id"] for r in responses}) == 1
    assert len(ShopDB(fresh_shop.db_path).orders()) == 1


def test_stale_checkout_token_is_409(client: httpx.Client) -> None:
    fill_pizza_cart(client)
    assert_error(
        client.post("/api/orders", json={**DETAILS, "checkout_token": "not-the-token"}), 409, "stale"
    )


def test_orders_are_private_to_their_session(shop: Shop, client: httpx.Client) -> None:
    fill_pizza_cart(client)
    order_id = checkout(client).json()["id"]
    with httpx.Client(base_url=shop.url) as stranger:
        assert_error(stranger.get(f"/api/orders/{order_id}"), 404, f"#{order_id}")
        assert stranger.get("/api/orders").json() == []
    assert_error(client.get("/api/orders/99999999"), 404)


def test_orders_are_listed_newest_first(client: httpx.Client) -> None:
    ids = []
    for _ in range(2):
        fill_pizza_cart(client)
        ids.append(checkout(client).json()["id"])
    assert [order["id"] for order in client.get("/api/orders").json()] == ids[::-1]


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("name", "x" * 81, ("name", "80")),
        ("name", "   ", ("name", "empty")),
        ("address", "1 A", ("address", "5")),
        ("address", "a" * 201, ("address", "200")),
        ("phone", "call me maybe", ("phone", "digits")),
        ("phone", "1" * 31, ("phone", "30")),
        ("delivery_slot", "midnight", ("delivery_slot", "ASAP")),
        ("payment_method", "Bitcoin", ("payment_method", "Cash")),
        ("tip_cents", 10_001, ("tip_cents", "10000")),
        ("tip_cents", -1, ("tip_cents",)),
    ],
)
def test_bad_delivery_details_are_422(
    client: httpx.Client, field: str, value: Any, words: tuple[str, ...]
) -> None:
    fill_pizza_cart(client)
    assert_error(checkout(client, **{field: value}), 422, *words)


# Never a 500 -----------------------------------------------------------------------------------------


def test_malformed_and_oversized_requests_get_readable_4xx(client: httpx.Client) -> None:
    malformed = client.post(
        "/api/cart/items", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert_error(malformed, 422, "JSON")
    assert_error(client.post("/api/cart/items", json={}), 422, "dish_id", "required")
    assert_error(client.post("/api/cart/items", json=["a list"]), 422)
    assert_error(add(client, "d" * 101), 422, "dish_id", "100")
    assert_error(client.get("/api/restaurants", params={"q": "q" * 101}), 422, "q")
    assert_error(client.patch("/api/cart/items/abc", json={"quantity": 1}), 422, "line_id")
    assert_error(client.get("/api/orders/abc"), 422, "order_id")
    assert_error(client.post("/api/orders", json={"checkout_token": 5}), 422)
    assert_error(client.get("/api/no-such-endpoint"), 404)
    assert_error(client.put("/api/cart"), 405)


# Hardening: ids, strict integers, control characters, sessions, headers, the error schema ----------

SQLITE_MAX = 2**63 - 1


@pytest.mark.parametrize("line_id", [2**63, 2**64 + 5, 10**30, 0, -1])
def test_ids_outside_sqlites_range_are_422_not_500(client: httpx.Client, line_id: int) -> None:
    add(client, TIRAMISU)
    assert_error(client.patch(f"/api/cart/items/{line_id}", json={"quantity": 2}), 422, "line_id")
    assert_error(client.delete(f"/api/cart/items/{line_id}"), 422, "line_id")
    assert_error(client.get(f"/api/orders/{line_id}"), 422, "order_id")
    assert client.get("/api/cart").json()["item_count"] == 1


def test_the_largest_sqlite_id_is_a_plain_404(client: httpx.Client) -> None:
    assert_error(client.patch(f"/api/cart/items/{SQLITE_MAX}", json={"quantity": 2}), 404, "no line")
    assert_error(client.delete(f"/api/cart/items/{SQLITE_MAX}"), 404, "no line")
    assert_error(client.get(f"/api/orders/{SQLITE_MAX}"), 404, f"#{SQLITE_MAX}")


@pytest.mark.parametrize("quantity", [True, False, "3", "three", 2.5, None, [2], {"n": 2}])
def test_quantities_must_be_json_integers(client: httpx.Client, quantity: Any) -> None:
    body = {"dish_id": TIRAMISU, "quantity": quantity}
    assert_error(client.post("/api/cart/items", json=body), 422, "quantity")
    line_id = add(client, TIRAMISU).json()["lines"][0]["line_id"]
    assert_error(client.patch(f"/api/cart/items/{line_id}", json={"quantity": quantity}), 422, "quantity")
    assert client.get("/api/cart").json()["item_count"] == 1


def test_a_whole_float_is_the_integer_it_spells(client: httpx.Client) -> None:
    # JSON has one number type; JSON Schema (and so the published schema) counts 3.0 as an integer.
    cart = client.post("/api/cart/items", json={"dish_id": TIRAMISU, "quantity": 3.0}).json()
    assert cart["item_count"] == 3


@pytest.mark.parametrize("tip", [True, "200", 1.5])
def test_tip_must_be_a_json_integer(client: httpx.Client, tip: Any) -> None:
    fill_pizza_cart(client)
    assert_error(checkout(client, tip_cents=tip), 422, "tip_cents")


def send_json(client: httpx.Client, path: str, body: Any) -> httpx.Response:
    """POST JSON with every non-ASCII character escaped, so even a lone surrogate ("\\ud800") can be sent."""
    return client.post(path, content=json.dumps(body), headers={"content-type": "application/json"})


@pytest.mark.parametrize("character", ["\x00", "\x07", "\t", "\n", "\x1b", "\x7f", "\x85", "\ud800"])
def test_control_characters_are_refused_in_text(fresh_shop: Shop, character: str) -> None:
    problem = "unicode" if character == "\ud800" else "control characters"
    with httpx.Client(base_url=fresh_shop.url) as client:
        fill_pizza_cart(client)
        token = client.get("/api/cart").json()["checkout_token"]
        for field in ("name", "address", "phone", "delivery_slot", "payment_method", "promo_code"):
            body = {
                **DETAILS,
                "checkout_token": token,
                field: f"{DETAILS.get(field, 'WELCOME10')}{character}x",
            }
            assert_error(send_json(client, "/api/orders", body), 422, field, problem)
        for body in (
            {"dish_id": f"{PIZZA}{character}"},
            {"dish_id": PIZZA, "options": {f"Size{character}": "Large"}},
            {"dish_id": PIZZA, "options": {"Size": f"Large{character}"}},
            {"dish_id": PIZZA, "options": {"Size": "Large", "Extras": [f"Bacon{character}"]}},
        ):
            assert_error(send_json(client, "/api/cart/items", body), 422, problem)
        assert_error(send_json(client, "/api/promo", {"code": f"WELCOME{character}"}), 422, "code")
        if character != "\ud800":  # a lone surrogate has no UTF-8 form to put in a URL
            search = client.get("/api/restaurants", params={"q": f"pizza{character}"})
            assert_error(search, 422, "q", "control characters")
        assert client.get("/api/cart").json()["item_count"] == 3
    assert ShopDB(fresh_shop.db_path).orders() == []


def test_accented_and_emoji_text_is_still_welcome(fresh_shop: Shop) -> None:
    with httpx.Client(base_url=fresh_shop.url) as client:
        fill_pizza_cart(client)
        order = checkout(client, name="  Zoë Ñúñez 🍕  ", address="Straße 5, Köln").json()
    assert order["name"] == "Zoë Ñúñez 🍕"  # spaces around are dropped, the rest is kept
    assert order["address"] == "Straße 5, Köln"


def test_a_body_that_is_not_utf8_is_a_422(client: httpx.Client) -> None:
    response = client.post(
        "/api/cart/items", content=b'{"dish_id": "\xff"}', headers={"content-type": "application/json"}
    )
    assert_error(response, 422, "JSON")


def test_a_client_chosen_session_id_is_never_adopted(shop: Shop) -> None:
    chosen = "attacker-chosen-session-id-0001"
    with httpx.Client(base_url=shop.url, cookies={"shop_session": chosen}) as victim:
        response = victim.get("/api/cart")
        issued = response.cookies.get("shop_session")
        assert issued and issued != chosen
        add(victim, TIRAMISU)
    with closing(sqlite3.connect(shop.db_path)) as conn:
        assert conn.execute("SELECT COUNT(*) FROM sessions WHERE id = ?", (chosen,)).fetchone() == (0,)
    # The attacker who planted the id sees nothing of the victim's cart.
    with httpx.Client(base_url=shop.url, cookies={"shop_session": chosen}) as attacker:
        assert attacker.get("/api/cart").json()["lines"] == []


def test_an_issued_session_is_kept_for_its_requests(client: httpx.Client) -> None:
    first = client.get("/api/cart")
    issued = first.cookies["shop_session"]
    add(client, TIRAMISU)
    again = client.get("/api/cart")
    assert "set-cookie" not in again.headers
    assert again.json()["item_count"] == 1
    assert client.cookies["shop_session"] == issued


def start_shop_process(db_path: Path) -> tuple[subprocess.Popen[str], str]:
    """`python -m demo_site` on a free port; its URL once it listens."""
    process = subprocess.Popen(
        [sys.executable, "-m", "demo_site", "--port", "0", "--db", str(db_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert process.stdout is not None
    return process, process.stdout.readline().strip().removeprefix("Shop running at ")


def test_an_issued_session_outlives_a_crash_and_restart_of_the_shop(tmp_path: Path) -> None:
    db_path = tmp_path / "shop.db"
    first, url = start_shop_process(db_path)
    try:
        with httpx.Client(base_url=url, timeout=30) as client:
            client.get("/", params={"clutter": 2, "seed": 11})
            add(client, TIRAMISU, 2)
            cookies = dict(client.cookies)
    finally:
        first.kill()  # no clean shutdown: a crash
        first.wait(timeout=30)
    second, url = start_shop_process(db_path)
    try:
        with httpx.Client(base_url=url, cookies=cookies, timeout=30) as client:
            cart = client.get("/api/cart")
            assert "set-cookie" not in cart.headers  # the same session, not a new one
            assert cart.json()["item_count"] == 2
            assert client.get("/api/session").json()["clutter"] == 2
    finally:
        second.terminate()
        second.wait(timeout=30)


@pytest.mark.parametrize(
    "path",
    ["/", "/checkout", "/static/app.js", "/api/cart", "/api/nowhere", "/api/orders/abc", "/?clutter=9"],
)
def test_every_answer_carries_the_security_headers(client: httpx.Client, path: str) -> None:
    headers = client.get(path).headers
    csp = headers["content-security-policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp and "object-src 'none'" in csp
    assert "unsafe-inline" not in csp
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "same-origin"


def test_the_schema_declares_the_error_body_the_shop_sends(client: httpx.Client) -> None:
    schema = client.get("/openapi.json").json()
    assert "HTTPValidationError" not in schema["components"]["schemas"]
    assert schema["components"]["schemas"]["ErrorBody"]["required"] == ["detail"]
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            for status, answer in operation["responses"].items():
                if status.startswith(("4", "5")):
                    ref = answer["content"]["application/json"]["schema"]["$ref"]
                    assert ref.endswith("/ErrorBody"), (method, path, status)
    add_item = schema["paths"]["/api/cart/items"]["post"]["responses"]
    assert {"200", "404", "409", "422", "503"} <= set(add_item)


# Faults ----------------------------------------------------------------------------------------------


def test_flaky_1_makes_the_kitchen_busy_except_for_session(tmp_path: Path) -> None:
    with (
        running_shop(db_path=tmp_path / "shop.db", flaky=1.0) as flaky,
        httpx.Client(base_url=flaky.url) as client,
    ):
        for path in ("/api/restaurants", "/api/cart", "/api/restaurants/italian-bistro"):
            assert client.get(path).status_code == 503
            assert client.get(path).json() == {"detail": "The kitchen is busy, try again"}
        assert client.get("/api/session").json() == {"clutter": 0, "seed": 7, "flaky": 1.0}


def test_flaky_0_never_fails(client: httpx.Client) -> None:
    statuses = {client.get("/api/restaurants").status_code for _ in range(50)}
    assert statuses == {200}


def test_openapi_schema_is_served(client: httpx.Client) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/cart/items", "/api/orders", "/api/promo"} <= set(paths)


# Command line ----------------------------------------------------------------------------------------


def test_python_m_demo_site_prints_its_url_and_serves(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "demo_site", "--port", "0", "--db", str(tmp_path / "cli.db")],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline().strip()
        assert line.startswith("Shop running at http://127.0.0.1:")
        url = line.removeprefix("Shop running at ")
        restaurants = httpx.get(f"{url}/api/restaurants", timeout=30).json()
        assert len(restaurants) == 26
    finally:
        process.terminate()
        process.wait(timeout=30)
