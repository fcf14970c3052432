"""The last of a second reviewer's wrong readings (2026-12-06), each agreed before this test: a count changed
after the dish in words no count is read from ("…, sorry, up to 4", "bump the tacos up to 4", "that times
two"), a dish the menu lacks on a line of its own with words of habit or of the shop having it ("…, street
corn like last time", "…, beef tamales if u have", "…, rice cakes"), and a swap pointed back to by the kind of
dish or after it ("hmm the drink, margarita pls", "a margarita in its place", "scrap that, a margarita").

The properties draw what the checks were not written against: dishes of the *other* restaurants of the
catalogue (written by whoever wrote the shop) as what the menu lacks, and the reviewer's own ways to change a
count.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.planner.test_reading import USABLE, plain_dishes
from webagent.planner.goal import read_goal
from webagent.planner.menu import Menu
from webagent.planner.reading import Agreement, Reading, Want, agree
from webagent.planner.words import key

ROOT = Path(__file__).resolve().parents[2]
CATALOG = json.loads((ROOT / "demo_site" / "catalog.json").read_text(encoding="utf-8"))
RESTAURANTS = {r["name"]: r for r in CATALOG["restaurants"]}
NAMES = list(RESTAURANTS)
TF = "Taco Fiesta"


def W(dish: str, quantity: int = 1) -> Want:
    return Want(dish, quantity, ())


def agreement(goal: str, restaurant: str, items: tuple[Want, ...] | None) -> Agreement:
    menu = Menu.from_catalog(RESTAURANTS[restaurant])
    model = Reading("model", restaurant, items) if items is not None else None
    return agree(goal, read_goal(goal, NAMES, menu), model, menu)


TACOS_HORCHATA = (W("Carnitas Tacos", 2), W("Horchata"))
H3 = "taco fiesta: a horchata and 3 carnitas tacos, "
LAST_OF_THE_SECOND_REVIEW = [
    (TF, "taco fiesta: 2 carnitas tacos - no, 3 - and a horchata. that times two", (W("Carnitas Tacos", 3), W("Horchata"))),
    (TF, H3 + "make it 2 orders", (W("Horchata"), W("Carnitas Tacos", 2))),
    (TF, H3 + "sorry, up to 4", (W("Horchata"), W("Carnitas Tacos", 3))),
    (TF, H3 + "sorry - about 4", (W("Horchata"), W("Carnitas Tacos", 3))),
    (TF, H3 + "bump the tacos up to 4", (W("Horchata"), W("Carnitas Tacos", 1))),
    (TF, H3 + "tacos to 4 pls", (W("Horchata"), W("Carnitas Tacos", 3))),
    (TF, H3 + "tacos at 4 pls", (W("Horchata"), W("Carnitas Tacos", 3))),
    (TF, H3 + "the tacos by 2 more", (W("Horchata"), W("Carnitas Tacos", 1))),
    (TF, H3 + "add the tacos 2 times", (W("Horchata"), W("Carnitas Tacos", 1))),
    (TF, "taco fiesta: 2 carnitas tacos, a horchata, house made salsa", TACOS_HORCHATA),
    (TF, "taco fiesta: 2 carnitas tacos and house made salsa and a horchata", TACOS_HORCHATA),
    (TF, "taco fiesta: 2 carnitas tacos, a horchata. house made salsa", TACOS_HORCHATA),
    (TF, "taco fiesta: 2 carnitas tacos, a horchata, beef tamales if u have", TACOS_HORCHATA),
    (TF, "taco fiesta: 2 carnitas tacos, a horchata. beef tamales if u have", TACOS_HORCHATA),
    (TF, "taco fiesta: 2 carnitas tacos, a horchata, street corn like last time", TACOS_HORCHATA),
    (TF, "taco fiesta: 2 carnitas tacos and street corn like last time and a horchata", TACOS_HORCHATA),
    (TF, "taco fiesta: 2 carnitas tacos, a horchata. street corn like last time", TACOS_HORCHATA),
    (TF, "taco fiesta: 2 carnitas tacos, a horchata. a home fries", TACOS_HORCHATA),
    ("Green Bowl", "green bowl: a buddha bowl, a kombucha, rice cakes", (W("Buddha Bowl"), W("Kombucha"))),
    (
        "Italian Bistro",
        "italian bistro: a lasagna al forno, a lemonade, cheese garlic bread",
        (W("Lasagna al Forno"), W("Lemonade")),
    ),
    (TF, "taco fiesta: 2 carnitas tacos and a horchata. hmm, a margarita in its place", (*TACOS_HORCHATA, W("Margarita"))),
    (TF, "taco fiesta: 2 carnitas tacos and a horchata. hmm the drink, margarita pls", (*TACOS_HORCHATA, W("Margarita"))),
    (
        TF,
        "taco fiesta: 2 carnitas tacos - no, 3 - and a horchata. scrap that, a margarita",
        (W("Carnitas Tacos", 3), W("Horchata"), W("Margarita")),
    ),
    # found by hypothesis in test_unplaced_words on this round (wrong before it): a dish pointed back to by
    # "the", which the rules read as a second one
    (
        "Tapas Barcelona",
        "tapas barcelona: a sangria (non-alcoholic) and a seafood paella. wait, can the sangria (non-alcoholic) "
        "be a patatas bravas",
        (W("Sangria (non-alcoholic)"), W("Seafood Paella"), W("Patatas Bravas")),
    ),
]  # fmt: skip


@pytest.mark.parametrize(("restaurant", "goal", "items"), LAST_OF_THE_SECOND_REVIEW)
def test_the_last_of_the_second_reviewers_wrong_readings_are_asked_about(
    restaurant: str, goal: str, items: tuple[Want, ...]
) -> None:
    assert agreement(goal, restaurant, items).verdict == "differ", goal
    assert agreement(goal, restaurant, None).verdict != "rules", goal  # nor approved by the rules alone


@pytest.mark.parametrize(
    ("restaurant", "goal", "items"),
    [
        (TF, H3 + "raise the tacos to 4", (W("Horchata"), W("Carnitas Tacos", 4))),
        (TF, H3 + "cut the tacos to 2", (W("Horchata"), W("Carnitas Tacos", 2))),
        (TF, H3 + "increase the carnitas tacos to 4", (W("Horchata"), W("Carnitas Tacos", 4))),
        (TF, "taco fiesta: 2 carnitas tacos, a horchata. deliver at 4", TACOS_HORCHATA),
        (
            TF,
            "taco fiesta: 2 carnitas tacos and a horchata, no rush, anytime after 8 is fine",
            TACOS_HORCHATA,
        ),
        (
            "Ramen Yokocho",
            "ramen yokocho pls: tonkotsu ramen and gyoza. on my 4th day here and ive had ramen 3 times already",
            (W("Tonkotsu Ramen"), W("Gyoza (5)")),
        ),
        (TF, "taco fiesta: 2 carnitas tacos and a horchata. and for the drink, a margarita", None),
    ],
)
def test_the_right_reading_of_such_words_is_still_agreed(
    restaurant: str, goal: str, items: tuple[Want, ...] | None
) -> None:
    if items is None:  # a drink added to an order with one already: asked, not guessed — and no error
        assert agreement(goal, restaurant, (*TACOS_HORCHATA, W("Margarita"))).verdict in ("agreed", "differ")
        return
    found = agreement(goal, restaurant, items)
    assert found.verdict in ("agreed", "rules"), (goal, found.why)


def _words(name: str) -> set[str]:
    return {key(w) for w in re.findall(r"[\w']+", name)}


HABITS = ["", " like last time", " if u have", " if you have them", " too", " pls", " as well", " as usual"]
SEPARATORS = [", ", ". ", " and ", " + ", ", also ", " / "]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(USABLE), st.sampled_from(HABITS), st.sampled_from(SEPARATORS), st.data())
def test_a_dish_of_another_menu_on_a_line_of_its_own_is_never_dropped_in_silence(
    restaurant: str, habit: str, separator: str, data: st.DataObject
) -> None:
    """A dish this menu lacks — any dish of another restaurant sharing no word with this menu — written as a
    line of the list: a reading of the rest alone is never agreed, nor approved by the rules alone."""
    menu = Menu.from_catalog(RESTAURANTS[restaurant])
    ours = set().union(*(_words(n) for n in menu.names), *(_words(c) for d in menu.dishes for c in d.choices))
    others = sorted(
        {
            dish["name"]
            for name, other in RESTAURANTS.items()
            if name != restaurant
            for dish in other["menu"]
            if not _words(dish["name"]) & ours
        }
    )
    lacking = data.draw(st.sampled_from(others))
    a, b = data.draw(
        st.lists(st.sampled_from(plain_dishes(RESTAURANTS[restaurant])), min_size=2, max_size=2, unique=True)
    )
    goal = f"{restaurant.lower()}: a {a.lower()} and a {b.lower()}{separator}{lacking.lower()}{habit}"
    assert agreement(goal, restaurant, (W(a), W(b))).verdict == "differ", goal
    assert agreement(goal, restaurant, None).verdict != "rules", goal


RECOUNTS = [
    "sorry, up to {m}",
    "sorry - about {m}",
    "bump the {w} up to {m}",
    "{w} at {m} pls",
    "the {w} by {k} more",
    "add the {w} {k} times",
    "that times two",
    "make it {k} orders",
    "oops, up to {m} of them",
]
"""The second reviewer's ways to change a count after the dish (and one more of theirs, reworded)."""


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(USABLE), st.sampled_from(RECOUNTS), st.integers(2, 4), st.data())
def test_a_count_changed_after_the_dish_is_never_agreed_as_it_was(
    restaurant: str, recount: str, n: int, data: st.DataObject
) -> None:
    """ "{n} {dish}, <words that change its count>": a reading that keeps {n} is never agreed."""
    a, b = data.draw(
        st.lists(st.sampled_from(plain_dishes(RESTAURANTS[restaurant])), min_size=2, max_size=2, unique=True)
    )
    last = a.split()[-1].lower() if len(a.split()[-1]) > 3 else a.lower()  # "the tacos", "the banh mis"
    tail = recount.format(w=last if last.endswith("s") else last + "s", m=n + 1, k=2)
    goal = f"{restaurant.lower()}: a {b.lower()} and {n} {a.lower()}, {tail}"
    found = agreement(goal, restaurant, (W(b), W(a, n)))
    if found.verdict == "rules":  # sure of the words alone: only where they say by how many more
        assert "more" in recount and found.rules.per_dish()[a] == n + 2, (goal, found.rules.describe())
    else:
        assert found.verdict == "differ", goal
