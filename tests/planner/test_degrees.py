"""A choice written with a word that makes it one the menu lacks ("extra hot", "medium well", "extra
large") is never read as the plain choice, by the rules or by a model's reading the checks would agree to;
and a dish given two fallbacks ("if no salmon either, nothing") is asked about.

Written before the change it tests (2026-12-05), from the catalog: goals and dishes chosen here, not taken
from tests/corpus/.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webagent.planner.goal import read_goal
from webagent.planner.menu import Menu
from webagent.planner.reading import Fallback, Reading, Want, agree

ROOT = Path(__file__).resolve().parents[2]
CATALOG = json.loads((ROOT / "demo_site" / "catalog.json").read_text(encoding="utf-8"))
RESTAURANTS = {r["name"]: r for r in CATALOG["restaurants"]}
NAMES = list(RESTAURANTS)

# (restaurant, dish, the plain choice, how it is written beyond the menu)
BEYOND = [
    ("Burger Barn", "Bacon Cheeseburger", "Medium", "medium well"),
    ("Burger Barn", "Classic Smash Burger", "Medium", "medium-well"),
    ("Le Petit Café", "Steak Frites", "Medium", "Medium Well"),
    ("Taco Fiesta", "Chicken Burrito", "Hot", "extra hot"),
    ("Curry Palace", "Lamb Rogan Josh", "Hot", "super hot"),
    ("Dragon Wok", "Mapo Tofu", "Mild", "extra mild"),
    ("Bangkok Street", "Green Curry", "Hot", "extra-hot"),
    ("Sweet Tooth Desserts", "Milkshake", "Large", "extra large"),
    ("Le Petit Café", "Café au Lait", "Small", "extra small"),
    ("Burger Barn", "French Fries", "Large", "xtra large"),
    ("Burger Barn", "French Fries", "Large", "x-large"),  # a reviewer's, after the change
]
SHAPES = [
    "{r}: a {d} {c}",
    "{r} - 2 {d}, {c} please",
    "from {r}, {c} {d} and that's it",
    "{d} ({c}) from {r}",
]


def _menu(restaurant: str) -> Menu:
    return Menu.from_catalog(RESTAURANTS[restaurant])


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(BEYOND), st.sampled_from(SHAPES))
def test_a_choice_written_beyond_the_menu_is_never_read_as_the_plain_one(
    case: tuple[str, str, str, str], shape: str
) -> None:
    restaurant, dish, plain, written = case
    goal = shape.format(r=restaurant.lower(), d=dish.lower(), c=written)
    menu = _menu(restaurant)
    rules = read_goal(goal, NAMES, menu)
    assert not any(plain in item.options for item in rules.items), rules.items
    quantity = 2 if "2 " in goal else 1
    model = Reading("model", restaurant, (Want(dish, quantity, (plain,)),))
    agreement = agree(goal, rules, model, menu)
    assert agreement.verdict != "agreed", (goal, agreement.why)


@pytest.mark.parametrize(
    "goal",
    [
        "burger barn: a bacon cheeseburger medium, well, and large fries",
        "taco fiesta: a chicken burrito, medium, extra cheese if they do it",
        "burger barn: 2 classic smash burgers well done",
    ],
)
def test_a_plain_choice_beside_other_words_is_still_read(goal: str) -> None:
    restaurant = "Burger Barn" if "burger barn" in goal else "Taco Fiesta"
    rules = read_goal(goal, NAMES, _menu(restaurant))
    assert any(item.options for item in rules.items), rules


def test_two_fallbacks_for_one_dish_are_asked_about() -> None:
    """ "if no salmon either then nothing" is a fallback for the fallback; read as a second fallback for the
    first dish, the planner would keep one of the two."""
    goal = (
        "poke paradise: 2 shrimp poke bowls. if they're sold out get salmon poke bowls, "
        "and if no salmon either then nothing"
    )
    menu = _menu("Poke Paradise")
    for second in (
        Fallback("Shrimp Poke Bowl", None),
        Fallback("Shrimp Poke Bowl", Want("Salmon Poke Bowl", 1)),
    ):
        model = Reading(
            "model",
            "Poke Paradise",
            (Want("Shrimp Poke Bowl", 2),),
            fallbacks=(Fallback("Shrimp Poke Bowl", Want("Salmon Poke Bowl", 2)), second),
        )
        agreement = agree(goal, read_goal(goal, NAMES, menu), model, menu)
        assert agreement.verdict == "differ", agreement.why
