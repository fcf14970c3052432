"""A fifth reviewer's goals (2026-12-06): 493 written with the order meant before the code was run, put to the
approval anchor over the rules' reading alone (no model reader). 42 wrong readings were approved — 29 of 36
placed end to end by the real loop: a choice said of a dish that does not offer it put on the next dish ("caesar
salad with extra cheese and a margherita pizza large"), a choice said of one of several put on all ("2 large
margherita pizzas, bacon on one"), a hedged choice ("nothing too hot"), a choice the shop does not offer swapped
for a near one ("classic smash burger rare"), a count after a filler ("2 horchatas, uh, 3"). The rules' own
choices are now put to the checks a model's are (`chosen.unwritten_choices`), and the words that say a choice
of some, a hedge or a filler's count are doubts (`doubts.SOME_OF`); a choice read from another sentence ("… a
fresh coffee. just a small thing, ring twice") and a word of a choice at the dish that the line lacks ("steak
frites, cooked well": Well done?) are doubts too.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.planner.test_fourth_review import anchor_concern, assert_nothing_ordered
from tests.planner.test_third_review import NAMES, RESTAURANTS, agreement
from webagent.planner.goal import read_goal
from webagent.planner.menu import Menu

HELD = [
    ("Pancake House", "pancake house: eggs benedict and a fresh coffee. just a small thing, ring twice"),
    ("Le Petit Café", "le petit café: steak frites, cooked well"),
    ("Italian Bistro", "italian bistro: caesar salad with extra cheese and a margherita pizza large"),
    ("Italian Bistro", "italian bistro: a lasagna al forno with extra cheese and a pepperoni pizza large"),
    ("Italian Bistro", "italian bistro: caesar salad with bacon, margherita pizza regular"),
    ("Italian Bistro", "italian bistro: spaghetti carbonara with extra cheese, pepperoni pizza large"),
    ("Burger Barn", "burger barn: crispy chicken sandwich with extra cheese, classic smash burger well done"),
    ("Pancake House", "pancake house: avocado toast with bacon and buttermilk pancakes"),
    ("Italian Bistro", "italian bistro: caesar salad w/ extra cheese & margherita pizza large"),
    ("Burger Barn", "burger barn: onion rings with bacon, then a classic smash burger medium rare"),
    ("Italian Bistro", "italian bistro: lasagna al forno + bacon, margherita pizza large"),
    ("Green Bowl", "green bowl: vegan burger with brown rice and a buddha bowl"),
    ("Sweet Tooth Desserts", "sweet tooth desserts: brownie sundae with pistachio and an ice cream pint"),
    ("Pancake House", "pancake house: 2 eggs benedict with bacon and 2 buttermilk pancakes"),
    ("Bangkok Street", "bangkok street: pad thai, nothing too hot please"),
    ("Le Petit Café", "le petit café: steak frites rare"),
    ("Burger Barn", "burger barn: classic smash burger rare"),
    ("Green Bowl", "green bowl: falafel wrap with white rice, tofu teriyaki bowl"),
    ("Poke Paradise", "poke paradise: seaweed salad with brown rice and a salmon poke bowl"),
    ("Sweet Tooth Desserts", "sweet tooth desserts: chocolate lava cake with vanilla, and an ice cream pint"),
    ("Curry Palace", "curry palace: garlic naan (hot please) and butter chicken"),
    ("Bangkok Street", "bangkok street: tom yum soup, medium spice, and pad thai"),
    ("Taco Fiesta", "taco fiesta: 2 horchatas, er, 3"),
    ("Taco Fiesta", "taco fiesta: 2 horchatas, uh, 3"),
    ("Pizza Planet", "pizza planet: 3 large margherita pizzas, one of them regular"),
    ("Italian Bistro", "italian bistro: 2 large margherita pizzas, bacon on one"),
    ("Burger Barn", "burger barn: 2 classic smash burgers, extra cheese on one"),
    ("Pizza Planet", "pizza planet: 2 hawaiian pizzas large, one of them regular"),
    ("Taco Fiesta", "taco fiesta: 3 chicken burritos hot, one of them mild"),
    ("Curry Palace", "curry palace: 2 butter chicken hot, but one of them mild for my son"),
    ("Italian Bistro", "italian bistro: 2 pepperoni pizzas large, extra cheese on just one"),
    ("Pancake House", "pancake house: 2 buttermilk pancakes, bacon on one please"),
    ("Falafel Corner", "falafel corner: falafel plate, mild please, and a chicken shawarma wrap"),
    ("Addis Ethiopian", "addis ethiopian: beef tibs, medium spicy, and doro wat"),
    ("Ramen Yokocho", "ramen yokocho: tonkotsu ramen, hot, and spicy miso ramen"),
    ("Burger Barn", "burger barn: crispy chicken sandwich + bacon + classic smash burger"),
    ("Pancake House", "pancake house: belgian waffle with extra cheese, buttermilk pancakes"),
    ("Curry Palace", "curry palace: chicken tikka masala medium hot"),
    ("Taco Fiesta", "taco fiesta: chicken burrito, hot but not too hot"),
]
"""Each approved before with a wrong cart (the reviewer's meaning in the module's docstring)."""


@pytest.mark.parametrize(("restaurant", "goal"), HELD)
def test_the_anchor_does_not_approve_the_rules_wrong_reading(restaurant: str, goal: str) -> None:
    assert anchor_concern(restaurant, goal) is not None, goal


@pytest.mark.parametrize("goal", [goal for _, goal in HELD[::6]])
def test_through_the_real_loop_nothing_is_ordered_without_the_person(goal: str, tmp_path: Path) -> None:
    assert_nothing_ordered(goal, tmp_path)


def _with_options(restaurant: str) -> list[tuple[str, str]]:
    """(dish, a choice of it) for each dish with choices."""
    return [
        (d["name"], c["name"])
        for d in RESTAURANTS[restaurant]["menu"]
        if not d["sold_out"]
        for o in d["options"]
        for c in o["choices"]
    ]


OFFERING = [name for name, r in RESTAURANTS.items() if _with_options(name)]


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(OFFERING), st.sampled_from(["{a} with {c} and a {b}", "{a} ({c}) and a {b}",
                                                   "{a}, {c} please, and a {b}", "{a} + {c}, {b}"]), st.data())  # fmt: skip
def test_a_choice_said_of_a_dish_without_it_never_moves_to_the_next(
    restaurant: str, form: str, data: st.DataObject
) -> None:
    """ "A with <a choice A lacks> and a B": the choice is never put on B with no question."""
    b, choice = data.draw(st.sampled_from(_with_options(restaurant)))
    lacking = [
        d["name"]
        for d in RESTAURANTS[restaurant]["menu"]
        if d["name"] != b and choice not in {c["name"] for o in d["options"] for c in o["choices"]}
    ]
    if not lacking:
        return
    a = data.draw(st.sampled_from(lacking))
    goal = f"{restaurant.lower()}: " + form.format(a=a.lower(), c=choice.lower(), b=b.lower())
    reading = read_goal(goal, NAMES, Menu.from_catalog(RESTAURANTS[restaurant]))
    if any(item.dish == b and choice in item.options for item in reading.items):
        assert anchor_concern(restaurant, goal) is not None, (goal, reading.items)
        assert agreement(goal, restaurant, None).verdict != "rules", goal


@pytest.mark.parametrize(
    ("restaurant", "goal"),
    [
        ("Sweet Tooth Desserts", "sweet tooth desserts: 2 ice cream pints vanilla and chocolate"),
        ("Italian Bistro", "italian bistro: margherita pizza large, no extra cheese"),
        ("Burger Barn", "burger barn: classic smash burger, not well done, and onion rings"),
        ("Sweet Tooth Desserts", "sweet tooth desserts: 3 ice cream pints: vanilla, chocolate, pistachio"),
        (
            "Burger Barn",
            "Get me a classic smash burger, medium rare, with bacon and extra cheese, plus onion rings from Burger Barn",
        ),
    ],
)
def test_choices_written_after_their_dish_stand(restaurant: str, goal: str) -> None:
    """Put to the checks, choices written after their dish up to the next one are its own ("… pints vanilla
    and chocolate": no Chocolate Lava Cake in between)."""
    assert anchor_concern(restaurant, goal) is None, goal
