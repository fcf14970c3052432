"""Wrong readings further than two edits from the rules' own, which an adversary found the checks agreed to
after the sweep of tests/planner/test_edited_readings.py (2026-12-07), and a property over the whole catalogue
for the largest class of them: a dish the menu lacks, read as a dish it has that shares a word with it.

Each reading below, put to `agree` as a model's, would have been acted on and approved automatically with
`--approve auto`: a wrong order. The phrasings are the adversary's classes, written again here; the word list
of the property was written for it, not taken from the code's own lists.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from webagent.planner.goal import read_goal
from webagent.planner.menu import Menu
from webagent.planner.reading import Fallback, Reading, Want, agree

CATALOG = yaml.safe_load((Path(__file__).parents[2] / "demo_site" / "catalog.json").read_text("utf-8"))
RESTAURANTS = {r["name"]: r for r in CATALOG["restaurants"]}
NAMES = list(RESTAURANTS)

Line = tuple[str, int, tuple[str, ...]]


def _agree(restaurant: str, goal: str, lines: list[Line], fallbacks: tuple[Fallback, ...] = ()) -> str:
    menu = Menu.from_catalog(RESTAURANTS[restaurant])
    rules = read_goal(goal, NAMES, menu)
    model = Reading(
        by="model",
        restaurant=restaurant,
        items=tuple(Want(d, n, c) for d, n, c in lines),
        fallbacks=fallbacks,
    )
    return agree(goal, rules, model, menu).verdict


WRONG: list[tuple[str, str, list[Line]]] = [
    # a dish the menu lacks, read as one it has that shares a word with it
    ("Curry Palace", "curry palace: a butter chicken and 2 peshwari naan", [("Butter Chicken", 1, ()), ("Garlic Naan", 2, ())]),
    ("Curry Palace", "curry palace: butter chicken, jeera rice", [("Butter Chicken", 1, ()), ("Basmati Rice", 1, ())]),
    ("Italian Bistro", "italian bistro: tiramisu and spaghetti bolognese", [("Tiramisu", 1, ()), ("Spaghetti Carbonara", 1, ())]),
    ("Burger Barn", "burger barn: bacon cheeseburger + vanilla shake", [("Bacon Cheeseburger", 1, ()), ("Chocolate Shake", 1, ())]),
    ("Sushi House", "sushi house: miso soup and 2 salmon rolls", [("Miso Soup", 1, ()), ("Salmon Nigiri", 2, ())]),
    ("Athens Grill", "athens grill: lamb gyro and a caesar salad", [("Lamb Gyro", 1, ()), ("Greek Salad", 1, ())]),
    # a list taken out where one of its dishes was named before
    ("Ramen Yokocho", "ramen yokocho: a tonkotsu ramen, gyoza and karaage. Actually skip the gyoza and karaage",
     [("Tonkotsu Ramen", 1, ()), ("Karaage", 1, ())]),
    ("Sushi House", "sushi house: california roll, edamame, green tea. no edamame or green tea",
     [("California Roll", 1, ()), ("Green Tea", 1, ())]),
    ("Taco Fiesta", "taco fiesta: 2 carnitas tacos, churros and a horchata. Never mind the churros and horchata",
     [("Carnitas Tacos", 2, ()), ("Horchata", 1, ())]),
    # a choice corrected by the one word that tells it from the others
    ("Poke Paradise", "poke paradise: tofu poke bowl, white rice... nah, brown", [("Tofu Poke Bowl", 1, ("White rice",))]),
    ("Poke Paradise", "poke paradise: tofu poke bowl brown rice... nah, white", [("Tofu Poke Bowl", 1, ("Brown rice",))]),
    ("Le Petit Café", "le petit cafe: steak frites med rare and an orange juice",
     [("Steak Frites", 1, ("Medium",)), ("Orange Juice", 1, ())]),
    # a count as a range, a number that labels, one dish preferred and another allowed
    ("Italian Bistro", "italian bistro: lasagna for 2 to 3 people", [("Lasagna al Forno", 2, ())]),
    ("Italian Bistro", "italian bistro: lasagna for 2-3 ppl and a lemonade", [("Lasagna al Forno", 2, ()), ("Lemonade", 1, ())]),
    ("Addis Ethiopian", "addis ethiopian: option 2 beef tibs and a shiro", [("Beef Tibs", 2, ()), ("Shiro", 1, ())]),
    ("Addis Ethiopian", "addis ethiopian: beef tibs [2]", [("Beef Tibs", 2, ())]),
    ("Italian Bistro Express", "italian bistro express: preferably chicken parmigiana, penne arrabbiata is fine too",
     [("Chicken Parmigiana", 1, ()), ("Penne Arrabbiata", 1, ())]),
]  # fmt: skip


@pytest.mark.parametrize(("restaurant", "goal", "lines"), WRONG, ids=[g for _, g, _ in WRONG])
def test_a_wrong_reading_beyond_two_edits_is_not_agreed(
    restaurant: str, goal: str, lines: list[Line]
) -> None:
    assert _agree(restaurant, goal, lines) not in ("agreed", "rules")


RIGHT: list[tuple[str, str, list[Line]]] = [
    ("Poke Paradise", "poke paradise: tofu poke bowl, white rice... nah, brown", [("Tofu Poke Bowl", 1, ("Brown rice",))]),
    ("Poke Paradise", "poke paradise: tofu poke bowl brown rice... nah, white", [("Tofu Poke Bowl", 1, ("White rice",))]),
    ("Curry Palace", "curry palce - 3 gralic naan no wait 2, and a butter chicken hot.. sorry medium not hot",
     [("Garlic Naan", 2, ()), ("Butter Chicken", 1, ("Medium",))]),
    ("Addis Ethiopian", "addis ethiopian plz — beef tibs, shiro, xtra injera x2. thx",
     [("Beef Tibs", 1, ()), ("Shiro", 1, ()), ("Extra Injera", 2, ())]),
    ("Sushi House", "sushi house: dragon roll + california roll. if the dragon roll's sold out get a spicy tuna roll instead",
     [("Dragon Roll", 1, ()), ("California Roll", 1, ())]),
]  # fmt: skip


@pytest.mark.parametrize(("restaurant", "goal", "lines"), RIGHT, ids=[g for _, g, _ in RIGHT])
def test_the_right_reading_beside_them_stands(restaurant: str, goal: str, lines: list[Line]) -> None:
    fallbacks = (
        (Fallback("Dragon Roll", Want("Spicy Tuna Roll")),) if "sold out" in goal else ()
    )  # the stated fallback is part of the order meant
    assert _agree(restaurant, goal, lines, fallbacks) in ("agreed", "rules")


_OTHER_KINDS = """peshwari keema aloo tandoori bolognese pesto vanilla strawberry mint oreo greek caesar nicoise
tuna prawn veggie halloumi chorizo brioche sourdough matcha taro lychee pistachio mushroom hawaiian jalapeno
katsu teriyaki buffalo cajun truffle salted pumpkin"""
OTHER_KINDS = _OTHER_KINDS.split()
"""Words that name another kind of a dish, written for this test (not the code's lists)."""

PLAIN = [
    (name, dish["name"])
    for name, r in RESTAURANTS.items()
    for dish in r["menu"]
    if len(re.findall(r"[^\W\d_]+", dish["name"])) > 1 and not any(o["required"] for o in dish["options"])
]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PLAIN), st.integers(min_value=0, max_value=5), st.sampled_from(OTHER_KINDS))
def test_a_dish_the_menu_lacks_is_never_read_as_one_it_has(
    pick: tuple[str, str], at: int, other: str
) -> None:
    """One word of a menu dish's name put in another kind's word ("vanilla shake" of the Chocolate Shake):
    a reading that orders the menu's dish for it is never agreed; the dish's own name is."""
    restaurant, dish = pick
    menu_words = {
        w.lower() for d in RESTAURANTS[restaurant]["menu"] for w in re.findall(r"[^\W\d_]+", d["name"])
    }
    words = re.findall(r"[^\W\d_]+", dish)
    at %= len(words)
    if other in menu_words:
        return
    first = next(d["name"] for d in RESTAURANTS[restaurant]["menu"] if d["name"] != dish and not d["options"])
    said = " ".join([*words[:at], other, *words[at + 1 :]]).lower()
    goal = f"{restaurant.lower()}: {first.lower()} and a {said}"
    assert _agree(restaurant, goal, [(first, 1, ()), (dish, 1, ())]) not in ("agreed", "rules"), goal
    right = f"{restaurant.lower()}: {first.lower()} and a {dish.lower()}"
    assert _agree(restaurant, right, [(first, 1, ()), (dish, 1, ())]) in ("agreed", "rules"), right
