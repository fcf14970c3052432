"""Goal parsing: order-shaped sentences as people write them → `OrderSpec` fields."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from webagent.goal import OrderItem, OrderSpec, parse_goal, parse_quantity, slot_for


def item(dish: str, quantity: int = 1, *options: str) -> OrderItem:
    return OrderItem(dish=dish, quantity=quantity, options=list(options))


CASES: list[tuple[str, dict[str, Any]]] = [
    (
        "Order two Margherita Pizzas and a tiramisu from Italian Bistro",
        {"restaurant": "Italian Bistro", "items": [item("Margherita Pizzas", 2), item("tiramisu")]},
    ),
    ("a dozen gyoza from ramen yokocho", {"restaurant": "ramen yokocho", "items": [item("gyoza", 12)]}),
    (
        "a couple of chicken burritos, hot, and nachos supreme from Taco Fiesta",
        {"items": [item("chicken burritos", 2, "hot"), item("nachos supreme")]},
    ),
    ("one creme brulee at Le Petit Cafe", {"restaurant": "Le Petit Cafe", "items": [item("creme brulee")]}),
    (
        "I want a doner box and 2 ayrans from Berlin Doner",
        {"restaurant": "Berlin Doner", "items": [item("doner box"), item("ayrans", 2)]},
    ),
    ("three margarita pizas from Pizza Planet", {"items": [item("margarita pizas", 3)]}),
    ("a buddha bowl on brown rice", {"items": [item("buddha bowl", 1, "brown rice")], "restaurant": None}),
    (
        "a classic smash burger medium rare with extra cheese",
        {"items": [item("classic smash burger medium rare", 1, "extra cheese")]},
    ),
    (
        "butter chicken (Hot) from Curry Palace for 7:30 pm",
        {"items": [item("butter chicken", 1, "Hot")], "delivery_slot": "19:30-20:00"},
    ),
    (
        "pad thai, hot, at Bangkok Street by 8pm",
        {
            "restaurant": "Bangkok Street",
            "items": [item("pad thai", 1, "hot")],
            "delivery_slot": "20:00-20:30",
        },
    ),
    ("get me a salmon nigiri at 19:00", {"items": [item("salmon nigiri")], "delivery_slot": "19:00-19:30"}),
    ("tiramisu asap", {"items": [item("tiramisu")], "delivery_slot": "ASAP"}),
    ("Tiramisu as soon as possible please", {"items": [item("Tiramisu")], "delivery_slot": "ASAP"}),
    (
        "an omakase box from Sushi House Premium under $40",
        {"restaurant": "Sushi House Premium", "budget_cents": 4000},
    ),
    ("fish and chips, budget 40 dollars", {"items": [item("fish and chips")], "budget_cents": 4000}),
    ("a lobster roll, no more than $25.50", {"budget_cents": 2550}),
    ("a falafel plate, pay cash", {"items": [item("falafel plate")], "payment_method": "Cash"}),
    ("a lamb gyro, by card", {"items": [item("lamb gyro")], "payment_method": "Card on delivery"}),
    ("beef pho, card on delivery", {"items": [item("beef pho")], "payment_method": "Card on delivery"}),
    (
        "a brownie sundae and pay with a voucher",
        {"items": [item("brownie sundae")], "payment_method": "Voucher"},
    ),
    ("two cookie boxes, use code WELCOME10", {"items": [item("cookie boxes", 2)], "promo_code": "WELCOME10"}),
    ("a pizza, promo freedelivery", {"items": [item("pizza")], "promo_code": "FREEDELIVERY"}),
    ("a voucher code SPRING5 and a churros", {"promo_code": "SPRING5", "payment_method": None}),
    ("a churros, tip $2", {"items": [item("churros")], "tip_cents": 200}),
    ("a cola, $3 tip", {"items": [item("cola")], "tip_cents": 300}),
    ("a cola and no tip", {"items": [item("cola")], "tip_cents": 0}),
    (
        "a green curry hot, deliver to 12 Oak Street",
        {"items": [item("green curry hot")], "address": "12 Oak Street"},
    ),
    (
        "a bibimbap, my name is Ana, phone 555-0101",
        {"name": "Ana", "phone": "555-0101", "items": [item("bibimbap")]},
    ),
    (
        "Please order 2 x kimchi, deliver to 5 Harbor Rd, Springfield, phone (555) 123-4567",
        {"items": [item("kimchi", 2)], "address": "5 Harbor Rd, Springfield", "phone": "(555) 123-4567"},
    ),
    (
        "six samosas and a masala chai from Bombay Express at 6:30pm, tip $3, pay cash, my name is Raj Patel, "
        "deliver to 44 Elm Street",
        {
            "restaurant": "Bombay Express",
            "items": [item("samosas", 6), item("masala chai")],
            "name": "Raj Patel",
            "address": "44 Elm Street",
            "delivery_slot": "18:30-19:00",
            "payment_method": "Cash",
            "tip_cents": 300,
        },
    ),
    (
        "a pair of chicken tikka masala (medium) and half a dozen garlic naan",
        {"items": [item("chicken tikka masala", 2, "medium"), item("garlic naan", 6)]},
    ),
    (
        "mac and cheese and 3 sweet teas from BBQ Smokehouse",
        {"items": [item("mac and cheese"), item("sweet teas", 3)]},
    ),
    (
        "FOUR FRENCH FRIES (LARGE) FROM BURGER BARN",
        {"restaurant": "BURGER BARN", "items": [item("FRENCH FRIES", 4, "LARGE")]},
    ),
    (
        "an iced tea plus a cannoli from Italian Bistro Express, 20:00-20:30",
        {"items": [item("iced tea"), item("cannoli")], "delivery_slot": "20:00-20:30"},
    ),
    (
        "hawaiian pizza x2 from Pizza Planet for 7",
        {"items": [item("hawaiian pizza", 2)], "delivery_slot": "19:00-19:30"},
    ),
    (
        "a spicy tuna roll and a miso soup delivered to 9 Bay Ave at 7:15pm",
        {
            "items": [item("spicy tuna roll"), item("miso soup")],
            "address": "9 Bay Ave",
            "delivery_slot": "19:00-19:30",
        },
    ),
    (
        "2 Margherita Pizza (Large, Extra cheese) and a Tiramisu",
        {"items": [item("Margherita Pizza", 2, "Large", "Extra cheese"), item("Tiramisu")]},
    ),
    (
        "Order 2 large Margherita Pizzas and a Tiramisu from Italian Bistro, deliver to 12 Oak Street, my name is "
        "Ana, phone 555-0101, pay cash, at 7pm, use code WELCOME10, tip $2, under $40",
        {
            "restaurant": "Italian Bistro",
            "items": [item("large Margherita Pizzas", 2), item("Tiramisu")],
            "name": "Ana",
            "address": "12 Oak Street",
            "phone": "555-0101",
            "payment_method": "Cash",
            "delivery_slot": "19:00-19:30",
            "promo_code": "WELCOME10",
            "tip_cents": 200,
            "budget_cents": 4000,
        },
    ),
    ("a crème brûlée from Le Petit Café", {"restaurant": "Le Petit Café", "items": [item("crème brûlée")]}),
    ("an ice cream pint with pistachio", {"items": [item("ice cream pint", 1, "pistachio")]}),
    (
        "a tofu poke bowl on salad greens at Poke Paradise",
        {"items": [item("tofu poke bowl", 1, "salad greens")]},
    ),
    # "(…)" ends a dish phrase: the choices stay with the dish before them, the rest is another dish.
    (
        "a kung pao chicken (mild) and egg fried rice from Dragon Wok, promo SPRING5",
        {"items": [item("kung pao chicken", 1, "mild"), item("egg fried rice")], "promo_code": "SPRING5"},
    ),
    (
        "a doro wat (medium) and extra injera from Addis Ethiopian",
        {"items": [item("doro wat", 1, "medium"), item("extra injera")]},
    ),
    # Without a parenthesis before "and" only the menu can split the phrase (the planner does).
    (
        "a classic smash burger and french fries (regular) from Burger Barn",
        {"items": [item("classic smash burger and french fries", 1, "regular")]},
    ),
]

BUDGET_PHRASES = [
    "keep it under 25 dollars",
    "and keep the total below $25",
    "spend no more than 25 dollars",
    "make sure it stays below $25",
    "don't spend more than $25",
    "do not go over $25",
    "try to keep it below 25 dollars total",
    "keep the whole order under 25 bucks please",
    "$25 or less",
]


@pytest.mark.parametrize(("goal", "expected"), CASES, ids=[goal[:40] for goal, _ in CASES])
def test_parse_goal(goal: str, expected: dict[str, Any]) -> None:
    spec = parse_goal(goal)
    for field, value in expected.items():
        assert getattr(spec, field) == value, field


@pytest.mark.parametrize("budget", BUDGET_PHRASES)
def test_budget_phrases_leave_no_words_behind_as_dishes(budget: str) -> None:
    spec = parse_goal(f"a lamb gyro and a baklava from Athens Grill, {budget}")
    assert spec.budget_cents == 2500
    assert spec.items == [item("lamb gyro"), item("baklava")]
    assert spec.restaurant == "Athens Grill"
    spec = parse_goal(f"a lamb gyro from Athens Grill {budget.removeprefix('and ')}, pay cash")
    assert (spec.budget_cents, spec.items, spec.payment_method) == (2500, [item("lamb gyro")], "Cash")
    assert spec.restaurant == "Athens Grill"


def test_nothing_recognisable_gives_an_empty_spec() -> None:
    assert parse_goal("Hi, I am hungry, order something please") == OrderSpec()


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("a couple of tacos", (2, "tacos")),
        ("half a dozen samosas", (6, "samosas")),
        ("12 gyoza", (12, "gyoza")),
        ("pizza x3", (3, "pizza")),
        ("an apple pie", (1, "apple pie")),
        ("tiramisu", (1, "tiramisu")),
    ],
)
def test_parse_quantity(phrase: str, expected: tuple[int, str]) -> None:
    assert parse_quantity(phrase) == expected


def test_slot_for_rounds_down_to_the_half_hour() -> None:
    assert slot_for(19, 0) == "19:00-19:30"
    assert slot_for(19, 45) == "19:30-20:00"
    assert slot_for(18, 30) == "18:30-19:00"


def test_load_json_and_yaml(tmp_path: Path) -> None:
    data = {
        "restaurant": "Italian Bistro",
        "items": [{"dish": "Margherita Pizza", "quantity": 2, "options": ["Large"]}],
        "name": "Ana",
        "delivery_slot": "ASAP",
        "tip_cents": 100,
    }
    (tmp_path / "order.json").write_text(json.dumps(data))
    (tmp_path / "order.yaml").write_text(
        "restaurant: Italian Bistro\nitems:\n  - dish: Margherita Pizza\n    quantity: 2\n    options: [Large]\n"
        "name: Ana\ndelivery_slot: ASAP\ntip_cents: 100\n"
    )
    from_json = OrderSpec.load(tmp_path / "order.json")
    assert from_json == OrderSpec.model_validate(data)
    assert OrderSpec.load(tmp_path / "order.yaml") == from_json


def test_load_rejects_unknown_fields(tmp_path: Path) -> None:
    (tmp_path / "order.json").write_text(json.dumps({"items": [], "colour": "red"}))
    with pytest.raises(ValueError, match="colour"):
        OrderSpec.load(tmp_path / "order.json")
