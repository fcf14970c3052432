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
from webagent.planner.reading import Agreement, Fallback, Reading, Want, agree

CATALOG = yaml.safe_load((Path(__file__).parents[2] / "demo_site" / "catalog.json").read_text("utf-8"))
RESTAURANTS = {r["name"]: r for r in CATALOG["restaurants"]}
NAMES = list(RESTAURANTS)

Line = tuple[str, int, tuple[str, ...]]


def _agree(restaurant: str, goal: str, lines: list[Line], fallbacks: tuple[Fallback, ...] = ()) -> str:
    """The verdict on ``lines`` as a model's reading: ``agreed`` it, ``rules`` (the rules' own reading stands,
    the model's is not asked for), else held."""
    return _agreement(restaurant, goal, lines, fallbacks).verdict


def _acts_on(restaurant: str, goal: str, lines: list[Line], fallbacks: tuple[Fallback, ...] = ()) -> bool:
    """Whether a run would act on ``lines`` (approved automatically): agreed, or the rules' own reading."""
    acted = _agreement(restaurant, goal, lines, fallbacks).reading
    return (
        acted is not None
        and acted.counts() == Reading("m", restaurant, tuple(Want(d, n, c) for d, n, c in lines)).counts()
    )


def _agreement(restaurant: str, goal: str, lines: list[Line], fallbacks: tuple[Fallback, ...]) -> Agreement:
    menu = Menu.from_catalog(RESTAURANTS[restaurant])
    rules = read_goal(goal, NAMES, menu)
    model = Reading(
        by="model",
        restaurant=restaurant,
        items=tuple(Want(d, n, c) for d, n, c in lines),
        fallbacks=fallbacks,
    )
    return agree(goal, rules, model, menu)


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
    # a reviewer of the first cut: a choice said "no" to, read as a correction to it (the rules read it right)
    ("Poke Paradise", "poke paradise: salmon poke bowl on salad greens, no white rice", [("Salmon Poke Bowl", 1, ("White rice",))]),
    ("Poke Paradise", "poke paradise: tofu poke bowl, white rice please, no brown", [("Tofu Poke Bowl", 1, ("Brown rice",))]),
    ("Le Petit Café", "le petit café: steak frites medium rare, no well done please", [("Steak Frites", 1, ("Well done",))]),
    ("Curry Palace", "curry palace: butter chicken mild please, no hot", [("Butter Chicken", 1, ("Hot",))]),
    # … and wrong readings of the same classes it found agreed, before and after the first cut
    ("Green Bowl", "green bowl: buddha bowl on white rice, actually no, on brown", [("Buddha Bowl", 1, ("White rice",))]),
    ("Poke Paradise", "poke paradise: tofu poke bowl with white rice, make that brown", [("Tofu Poke Bowl", 1, ("White rice",))]),
    ("Sushi House", "sushi house: a black tea and 2 california rolls", [("Green Tea", 1, ()), ("California Roll", 2, ())]),
    ("Bombay Express", "bombay express: pav bhaji and a sweet lassi", [("Pav Bhaji", 1, ()), ("Mango Lassi", 1, ())]),
    ("Ramen Yokocho", "ramen yokocho: 2 tonkotsu ramen, gyoza and karaage. no gyoza/karaage",
     [("Tonkotsu Ramen", 2, ()), ("Karaage", 1, ())]),
    ("Italian Bistro", "italian bistro: 2 - 3 lasagnas", [("Lasagna al Forno", 3, ())]),
    ("Italian Bistro", "italian bistro: lasagna al forno to feed 2/3 people", [("Lasagna al Forno", 2, ())]),
    ("Addis Ethiopian", "addis ethiopian: option two beef tibs", [("Beef Tibs", 2, ())]),
    ("Italian Bistro Express", "italian bistro express: I'd prefer the chicken parmigiana, but penne arrabbiata is fine too",
     [("Chicken Parmigiana", 1, ()), ("Penne Arrabbiata", 1, ())]),
    ("Italian Bistro Express", "italian bistro express: chicken parmigiana ideally, but penne arrabbiata works",
     [("Chicken Parmigiana", 1, ()), ("Penne Arrabbiata", 1, ())]),
]  # fmt: skip


@pytest.mark.parametrize(("restaurant", "goal", "lines"), WRONG, ids=[g for _, g, _ in WRONG])
def test_a_wrong_reading_beyond_two_edits_is_not_agreed(
    restaurant: str, goal: str, lines: list[Line]
) -> None:
    assert not _acts_on(restaurant, goal, lines)


RIGHT: list[tuple[str, str, list[Line]]] = [
    ("Poke Paradise", "poke paradise: tofu poke bowl, white rice... nah, brown", [("Tofu Poke Bowl", 1, ("Brown rice",))]),
    ("Poke Paradise", "poke paradise: tofu poke bowl brown rice... nah, white", [("Tofu Poke Bowl", 1, ("White rice",))]),
    ("Curry Palace", "curry palce - 3 gralic naan no wait 2, and a butter chicken hot.. sorry medium not hot",
     [("Garlic Naan", 2, ()), ("Butter Chicken", 1, ("Medium",))]),
    ("Addis Ethiopian", "addis ethiopian plz — beef tibs, shiro, xtra injera x2. thx",
     [("Beef Tibs", 1, ()), ("Shiro", 1, ()), ("Extra Injera", 2, ())]),
    ("Sushi House", "sushi house: dragon roll + california roll. if the dragon roll's sold out get a spicy tuna roll instead",
     [("Dragon Roll", 1, ()), ("California Roll", 1, ())]),
    ("Green Bowl", "green bowl: buddha bowl on white rice, actually no, on brown", [("Buddha Bowl", 1, ("Brown rice",))]),
    ("Poke Paradise", "poke paradise: tofu poke bowl with white rice, make that brown", [("Tofu Poke Bowl", 1, ("Brown rice",))]),
    ("Bombay Express", "bombay express: 2 veg biryani and a masala chai", [("Vegetable Biryani", 2, ()), ("Masala Chai", 1, ())]),
    ("Bombay Express", "bombay express: 2 veggie biryani and a masala chai", [("Vegetable Biryani", 2, ()), ("Masala Chai", 1, ())]),
    ("Italian Bistro Express", "italian bistro express: a chicken parmigiana and a cannoli. preferably before 7pm, whenever is fine too",
     [("Chicken Parmigiana", 1, ()), ("Cannoli", 1, ())]),
    ("Ramen Yokocho", "ramen yokocho: 2 tonkotsu ramen, gyoza and karaage. no gyoza/karaage", [("Tonkotsu Ramen", 2, ())]),
]  # fmt: skip


@pytest.mark.parametrize(("restaurant", "goal", "lines"), RIGHT, ids=[g for _, g, _ in RIGHT])
def test_the_right_reading_beside_them_stands(restaurant: str, goal: str, lines: list[Line]) -> None:
    fallbacks = (
        (Fallback("Dragon Roll", Want("Spicy Tuna Roll")),) if "sold out" in goal else ()
    )  # the stated fallback is part of the order meant
    assert _acts_on(restaurant, goal, lines, fallbacks)


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
    if other in menu_words or (other, words[at].lower()) == ("veggie", "vegetable"):
        return  # the menu's own word, or the same kind in other words ("veggie biryani")
    first = next(d["name"] for d in RESTAURANTS[restaurant]["menu"] if d["name"] != dish and not d["options"])
    said = " ".join([*words[:at], other, *words[at + 1 :]]).lower()
    goal = f"{restaurant.lower()}: {first.lower()} and a {said}"
    assert _agree(restaurant, goal, [(first, 1, ()), (dish, 1, ())]) not in ("agreed", "rules"), goal
    right = f"{restaurant.lower()}: {first.lower()} and a {dish.lower()}"
    assert _agree(restaurant, right, [(first, 1, ()), (dish, 1, ())]) in ("agreed", "rules"), right


def test_a_rough_number_after_a_dish_whose_name_ends_in_a_bracket_is_asked() -> None:
    """Found by tests/planner/test_fourth_review.py's property on a random seed: "smoked ribs (half rack)
    (about 2)" was read as one rack at 14:00 with no doubt (the dish's own bracket stood between)."""
    goal = "bbq smokehouse: smoked ribs (half rack) (about 2) and a brisket plate"
    assert (
        _agree("BBQ Smokehouse", goal, [("Smoked Ribs (half rack)", 1, ()), ("Brisket Plate", 1, ())])
        != "rules"
    )
