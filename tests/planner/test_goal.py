"""The goal reader's parts: the order file format, menus read back from the real narration, details,
and what a reading says about the words it could not place. (The phrasings are in the corpus:
tests/corpus/goals.yaml, tests/planner/test_goal_corpus.py; random ones in tests/planner/test_goal_properties.py.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from webagent.narration import said
from webagent.narration.narrate import Narration, narrate
from webagent.narration.state import MenuItem, MenuOption, PageState
from webagent.planner import OrderSpec, read_goal
from webagent.planner.details import slot_for
from webagent.planner.menu import Dish, Menu, Option
from webagent.planner.words import closeness, key

CATALOG = json.loads((Path(__file__).resolve().parents[2] / "demo_site" / "catalog.json").read_text("utf-8"))
RESTAURANTS = [r["name"] for r in CATALOG["restaurants"]]
BISTRO = Menu.from_catalog(CATALOG["restaurants"][0])


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
    assert OrderSpec.load(tmp_path / "order.json") == OrderSpec.model_validate(data)
    assert OrderSpec.load(tmp_path / "order.yaml") == OrderSpec.model_validate(data)


def test_load_rejects_unknown_fields(tmp_path: Path) -> None:
    (tmp_path / "order.json").write_text(json.dumps({"items": [], "colour": "red"}))
    with pytest.raises(ValueError, match="colour"):
        OrderSpec.load(tmp_path / "order.json")


def test_slot_for_rounds_down_to_the_half_hour() -> None:
    assert [slot_for(19, 0), slot_for(19, 45), slot_for(18, 30), slot_for(23, 45)] == [
        "19:00-19:30", "19:30-20:00", "18:30-19:00", "23:30-00:00"
    ]  # fmt: skip


def test_a_menu_is_read_back_from_the_real_narration() -> None:
    items = [
        MenuItem(
            name="Margherita Pizza",
            price_cents=1150,
            has_options=True,
            options=[
                MenuOption(name="Size", required=True, choices=["Regular", "Large"]),
                MenuOption(name="Extras", choices=["Extra cheese", "Bacon"]),
            ],
        ),
        MenuItem(name="Pork Dumplings (6)", price_cents=800),
        MenuItem(name="Dragon Roll", price_cents=1600, sold_out=True),
        MenuItem(name="Many Choices", price_cents=500, has_options=True),
    ]
    state = PageState(view="restaurant", restaurant="A, B & C", menu=items, min_order_cents=1500)
    text = narrate(Narration(said=said.opened("A, B & C", 1500, items).said, after=state))
    menu = Menu.from_narration(text.splitlines()[0])
    assert menu is not None
    assert (menu.restaurant, menu.minimum_cents) == ("A, B & C", 1500)
    assert menu.dishes == (
        Dish(
            "Margherita Pizza",
            1150,
            options=(
                Option("Size", True, ("Regular", "Large")),
                Option("Extras", False, ("Extra cheese", "Bacon")),
            ),
            has_options=True,
        ),
        Dish("Pork Dumplings (6)", 800),
        Dish("Dragon Roll", 1600, sold_out=True),
        Dish("Many Choices", 500, has_options=True),
    )
    already = said.already_open("A, B & C", items).said
    assert Menu.from_narration(already) == Menu("A, B & C", menu.dishes)
    assert Menu.from_narration(said.added(1, "Tiramisu", [], 1, 750).said) is None


def test_every_part_of_a_reading_points_at_its_words() -> None:
    goal = "For Kim Lee: 2 large pepperoni pizzas and a tiramisu from Italian Bistro, 3 Oak Road, 555-0177"
    reading = read_goal(goal, RESTAURANTS, BISTRO)
    assert reading.restaurant is not None and reading.restaurant.words.text == "Italian Bistro"
    assert [item.words.text for item in reading.items] == ["2 large pepperoni pizzas", "a tiramisu"]
    assert {name: detail.words.text for name, detail in reading.details.items()} == {
        "name": "Kim Lee", "address": "3 Oak Road", "phone": "555-0177"
    }  # fmt: skip
    for part in [reading.restaurant.words, *(i.words for i in reading.items)]:
        assert goal[part.start : part.end] == part.text


def test_unclear_words_carry_the_closest_names_and_what_was_said_around_them() -> None:
    reading = read_goal("2 pizzas (large) and a garlic bred from Italian Bistro", RESTAURANTS, BISTRO)
    pizzas, bread = reading.unclear
    assert pizzas.words.text == "pizzas"
    assert (pizzas.candidates, pizzas.quantity, pizzas.options) == (
        ["Margherita Pizza", "Pepperoni Pizza"],
        2,
        ["Large"],
    )
    assert bread.words.text == "garlic bred" and reading.items == []


def test_without_a_menu_the_dish_words_are_phrases_to_search_for() -> None:
    reading = read_goal("two spicy tuna rolls and 2 miso soups, pay cash", RESTAURANTS)
    assert reading.restaurant is None
    assert [p.text for p in reading.phrases] == ["spicy tuna rolls and 2 miso soups"]
    aside = read_goal("a tuna roll (large), from somewhere", RESTAURANTS)
    assert [p.text for p in aside.phrases] == ["tuna roll", "somewhere"]
    assert reading.details["payment_method"].value == "Cash"


def test_nothing_order_like_gives_an_empty_reading() -> None:
    reading = read_goal("Hi, I am hungry, order something please", RESTAURANTS, BISTRO)
    assert (reading.items, reading.unclear, reading.details, reading.restaurant) == ([], [], {}, None)


def test_word_keys_and_closeness() -> None:
    assert [key(w) for w in ("Pizzas", "Brûlée", "St", "&", "fries", "hummus")] == [
        "pizza", "brulee", "street", "and", "fry", "hummu"
    ]  # fmt: skip
    assert closeness("bahn", "banh") == 1.0  # two letters swapped
    assert closeness("hot", "hut") is None  # short words must be exact
    assert closeness("margarita", "margherita") == 2.0
    assert closeness("guac", "guacamole") == 1.5
    assert closeness("mild", "mind") is None


@pytest.mark.parametrize(
    ("goal", "note", "details"),
    [
        ("a tiramisu from Italian Bistro, leave it with the neighbour, cash", "leave it with the neighbour",
         {"payment_method": "Cash"}),
        ("a tiramisu from Italian Bistro, knock twice, 2 lemonades too", "knock twice", {}),
        ("a tiramisu from Italian Bistro, call me on 555-0101", None, {"phone": "555-0101"}),
        ("a tiramisu from Italian Bistro, promo code WELCOME10, door code 7734", "door code 7734",
         {"promo_code": "WELCOME10"}),
        ("a tiramisu from Italian Bistro, leave a $3 tip", None, {"tip_cents": 300}),
        ("a tiramisu from Italian Bistro, leave it at the door and a Lemonade too", "leave it at the door", {}),
        ("a tiramisu from Italian Bistro, ring me at 7pm", "ring me", {"delivery_slot": "19:00-19:30"}),
        ("Leave it at the door: 2 Churros from Taco Fiesta", "Leave it at the door", {}),
    ],
)  # fmt: skip
def test_a_note_for_the_courier_ends_where_the_next_detail_or_dish_begins(
    goal: str, note: str | None, details: dict[str, object]
) -> None:
    reading = read_goal(goal, RESTAURANTS)
    got = reading.details.get("delivery_note")
    assert (got.value if got else None) == note, goal
    for name, value in details.items():
        assert reading.details[name].value == value, (goal, name)


def test_the_choice_written_for_a_sold_out_dish_whose_choices_the_page_hides_is_kept() -> None:
    base = Option("Base", True, ("White rice", "Brown rice"))
    menu = Menu(
        "Poke Paradise",
        (
            Dish("Salmon Poke Bowl", 1450, options=(base,)),
            Dish("Shrimp Poke Bowl", 1500, sold_out=True),
            Dish("Haupia", 500),
        ),
    )
    reading = read_goal(
        "a shrimp poke bowl with white rice and a haupia from Poke Paradise", RESTAURANTS, menu
    )
    assert [(i.dish, i.options) for i in reading.items] == [
        ("Shrimp Poke Bowl", ["White rice"]),
        ("Haupia", []),
    ]
    assert reading.unclear == []
    # A word that is no choice on the page is not taken for one: it is asked about.
    reading = read_goal("a shrimp poke bowl, coleslaw, from Poke Paradise", RESTAURANTS, menu)
    assert [u.words.text for u in reading.unclear] == ["coleslaw"]


def _headings() -> list[tuple[str, str | None]]:
    """Every restaurant's opening words as a goal's heading, with the restaurant they name (None: a kind of
    food, or more than one restaurant)."""
    cases: list[tuple[str, str | None]] = []
    for name in RESTAURANTS:
        words = name.split()
        for n in range(1, len(words) + 1):
            prefix = " ".join(words[:n])
            full = [r for r in RESTAURANTS if r.lower() == prefix.lower()]
            starting = [r for r in RESTAURANTS if r.lower().startswith(prefix.lower() + " ")]
            meant = full[0] if full else starting[0] if n >= 2 and len(starting) == 1 else None
            cases += [
                (f"{prefix.lower()}{mark} a tiramisu and 2 lemonades", meant) for mark in (":", " -", " —")
            ]
    return sorted(set(cases))


@pytest.mark.parametrize(("goal", "meant"), _headings())
def test_a_restaurant_is_named_by_its_first_words_as_the_goals_heading(goal: str, meant: str | None) -> None:
    """ "sweet tooth: a cookie box" is Sweet Tooth Desserts; one word ("pizza: …", "curry: …") names a kind of
    food, and words the start of two names ("sushi house" of Sushi House Premium) the one named whole."""
    reading = read_goal(goal, RESTAURANTS)
    assert (reading.restaurant.name if reading.restaurant else None) == meant


def test_a_restaurants_first_words_name_it_only_as_a_heading_or_after_from() -> None:
    assert read_goal("a cookie box, sweet tooth: 2 cupcakes", RESTAURANTS).restaurant is None
    assert read_goal("sweet tooth cookie box", RESTAURANTS).restaurant is None
    found = read_goal("a cookie box from sweet tooth", RESTAURANTS).restaurant
    assert found is not None and found.name == "Sweet Tooth Desserts"
