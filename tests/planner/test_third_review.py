"""A third reviewer's ~800 attempts against the checks (2026-12-06, /tmp/rv27 on that machine): readings a
small model would plausibly make that the checks agreed to, and — worse — orders the rules alone placed with
no question. Each cause a case here; none held on the code before this test.

The properties draw the reviewer's own tails (what follows an order with a fallback) over every restaurant.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.planner.test_reading import USABLE, plain_dishes
from webagent.planner.goal import read_goal
from webagent.planner.menu import Menu
from webagent.planner.reading import Agreement, Fallback, Reading, Want, agree

ROOT = Path(__file__).resolve().parents[2]
CATALOG = json.loads((ROOT / "demo_site" / "catalog.json").read_text(encoding="utf-8"))
RESTAURANTS = {r["name"]: r for r in CATALOG["restaurants"]}
NAMES = list(RESTAURANTS)
TF, SH = "Taco Fiesta", "Sushi House"


def W(dish: str, quantity: int = 1, *choices: str) -> Want:
    return Want(dish, quantity, tuple(choices))


def agreement(
    goal: str, restaurant: str, items: tuple[Want, ...] | None, fallbacks: tuple[Fallback, ...] = ()
) -> Agreement:
    menu = Menu.from_catalog(RESTAURANTS[restaurant])
    model = Reading("model", restaurant, items, fallbacks=fallbacks) if items is not None else None
    return agree(goal, read_goal(goal, NAMES, menu), model, menu)


TACOS_HORCHATA = (W("Carnitas Tacos", 2), W("Horchata"))
IF_NO_HORCHATA = "taco fiesta: 2 carnitas tacos and a horchata, if no horchata then a margarita. "
MARGARITA_IN_RESERVE = (Fallback("Horchata", W("Margarita")),)
ROLL_AND_SOUP = (W("Dragon Roll"), W("Miso Soup"))
WITH_TUNA = (*ROLL_AND_SOUP, W("Spicy Tuna Roll"))
WITH_MOCHI = (*ROLL_AND_SOUP, W("Mochi Ice Cream"))
TFB = (W("Carnitas Tacos", 2), W("Chicken Burrito", 1, "Mild"), W("Horchata"))
FOUR = "taco fiesta: 2 carnitas tacos, a chicken burrito mild and a horchata. "

WRONG_READINGS = [
    # A. a fallback stated, and what follows it read past
    *[(TF, IF_NO_HORCHATA + tail, TACOS_HORCHATA, MARGARITA_IN_RESERVE) for tail in
      ("same for my wife", "double it", "x2", "that times two", "nvm 3", "sorry, up to 4", "one more", "twice")],
    (
        "Curry Palace",
        "curry palace: butter chicken mild and garlic naan; if butter chicken is gone, chicken tikka masala mild. "
        "actually make it hot",
        (W("Butter Chicken", 1, "Mild"), W("Garlic Naan")),
        (Fallback("Butter Chicken", W("Chicken Tikka Masala", 1, "Mild")),),
    ),
    # B. a fallback in words nobody listed, ordered outright
    *[(SH, f"sushi house: a dragon roll and miso soup; {tail}", WITH_TUNA, ()) for tail in
      ("spicy tuna roll as a substitute", "second choice spicy tuna roll", "in a pinch a spicy tuna roll",
       "spicy tuna roll would also do", "spicy tuna roll as fallback", "spicy tuna roll as an alternate")],
    # C. a dish undecided, declined, complained about or asked about, added
    *[(SH, f"sushi house: a dragon roll and miso soup{tail}", WITH_MOCHI, ()) for tail in
      (", maybe mochi ice cream", ", mochi ice cream tbd", "; tempted by the mochi ice cream but no",
       ". the mochi ice cream was meh", ". how big is the mochi ice cream",
       "; add mochi ice cream only to reach the minimum")],
    # D. a swap read as an addition
    *[(TF, "taco fiesta: 2 carnitas tacos and a horchata. " + tail, (*TACOS_HORCHATA, W("Margarita")), ()) for tail in
      ("horchata - margarita actually", "horchata, margarita actually", "horchata; margarita actually")],
    *[(TF, FOUR + tail, (*TFB, W("Margarita")), ()) for tail in
      ("the 3rd item a margarita", "last item margarita pls", "the drink changes to a margarita",
       "horchata/margarita", "on reflection a margarita", "eh, margarita is better")],
    # E. a removal in new words, ignored
    *[(TF, "taco fiesta: 2 carnitas tacos and a horchata. " + tail, TACOS_HORCHATA, ()) for tail in
      ("horchata = no", "horchata x0", "0 horchata", "we're good on drinks", "my wife says no to the horchata")],
    # G. a budget dropped; H. a multiplier ignored
    (SH, "sushi house: a dragon roll and miso soup, I've got 20 bucks", ROLL_AND_SOUP, ()),
    (SH, "sushi house: a dragon roll and miso soup, can't go over twenty dollars", ROLL_AND_SOUP, ()),
    ("Pho Saigon", "pho saigon: a beef pho and a lychee soda, my son will have what I'm having",
     (W("Beef Pho"), W("Lychee Soda")), ()),
]  # fmt: skip


@pytest.mark.parametrize(("restaurant", "goal", "items", "fallbacks"), WRONG_READINGS)
def test_a_third_reviewers_wrong_readings_are_asked_about(
    restaurant: str, goal: str, items: tuple[Want, ...], fallbacks: tuple[Fallback, ...]
) -> None:
    assert agreement(goal, restaurant, items, fallbacks).verdict == "differ", goal


RULES_ALONE = [
    (TF, "taco fiesta: 3 carnitas tacos and a horchata. tacos: 4"),
    (TF, "taco fiesta: 3 carnitas tacos and a horchata. tacos = 5"),
    (TF, "taco fiesta: 3 carnitas tacos and a horchata. tacos (5)"),
    (TF, "taco fiesta: 3 carnitas tacos and a horchata. four, not three"),
    (TF, "taco fiesta: 3 carnitas tacos and a horchata. not 3, 4"),
    (TF, "taco fiesta: 3 carnitas tacos and a horchata. knock one off the tacos"),
    (TF, "taco fiesta: 3 carnitas tacos and a horchata. tacos -1"),
    (TF, "taco fiesta: 3 carnitas tacos and a horchata. no more horchata"),
    (TF, "taco fiesta: 3 carnitas tacos and a horchata. the horchata can go"),
    (SH, "sushi house: 2 california rolls and a miso soup. california rolls: 3"),
    (SH, "sushi house: 2 california rolls and a miso soup. three, not two"),
    ("Curry Palace", "curry palace: butter chicken medium, 2 garlic naan; naan: 1"),
    ("Pizza Planet", "pizza planet: a large hawaiian pizza, mild buffalo wings. wings: hot"),
    ("Pizza Planet", "pizza planet: hawaiian pizza large and a cola, cola not diet"),
    ("Pho Saigon", "pho saigon: 2 beef pho, 2 banh mi. banh mi one"),
    ("Pho Saigon", "pho saigon: beef pho for 4"),
    ("Pho Saigon", "pho saigon: beef pho for both of us"),
    ("Pho Saigon", "pho saigon: a beef pho and a lychee soda. all of that times 3"),
    ("Pho Saigon", "pho saigon: a beef pho and a lychee soda, the same for my plus one"),
    ("Bangkok Street", "bangkok street: pad thai mild and a thai iced tea - 3 orders of that"),
    ("Bangkok Street", "bangkok street: pad thai mild and thai iced tea, dinner for two"),
    ("Burger Barn", "burger barn: a bacon cheeseburger for the both of us"),
    ("Burger Barn", "burger barn: onion rings and a bacon cheeseburger medium, +1"),
]


@pytest.mark.parametrize(("restaurant", "goal"), RULES_ALONE)
def test_the_rules_alone_never_place_what_a_third_reviewer_found(restaurant: str, goal: str) -> None:
    """Each was ordered by the rules alone, approved, with no question: now a doubt the person settles."""
    assert agreement(goal, restaurant, None).verdict != "rules", goal


@pytest.mark.parametrize(
    ("restaurant", "goal", "items"),
    [
        (TF, "4 carnitas tacos n a horchata frm taco fiesta. correction: 3 tacos not 4", (W("Carnitas Tacos", 3), W("Horchata"))),
        ("Dragon Wok", "3x kung pao chicken (medium) + 2x egg fried rice @ dragon wok", None),
        ("Curry Palace", "curry palace butter chicken mild + basmati rice, around half past seven please",
         (W("Butter Chicken", 1, "Mild"), W("Basmati Rice"))),
        ("Bangkok Street", "bangkok street: pad thai mild for the 2 of us", None),
        (TF, "taco fiesta: 3 carnitas tacos and a horchata. one more taco", None),
    ],
)  # fmt: skip
def test_what_the_words_say_plainly_is_still_read_as_before(
    restaurant: str, goal: str, items: tuple[Want, ...] | None
) -> None:
    found = agreement(goal, restaurant, items)
    assert found.verdict in ("agreed", "rules"), (goal, found.why, found.doubts)


TAILS = [
    "same for my wife", "double it", "x2", "that times two", "nvm 3", "one more", "another round", "twice",
    "times 2", "sorry, up to 4", "minus one", "everything twice please", "same for my brother",
]  # fmt: skip
"""The reviewer's tails after an order with a fallback."""


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(USABLE), st.sampled_from(TAILS), st.data())
def test_a_fallback_never_hides_what_follows_it(restaurant: str, tail: str, data: st.DataObject) -> None:
    """ "a A and a B, if no B then a C. <tail>": the reading of A, B with C in reserve, the tail read past,
    is never agreed."""
    a, b, c = data.draw(
        st.lists(st.sampled_from(plain_dishes(RESTAURANTS[restaurant])), min_size=3, max_size=3, unique=True)
    )
    goal = (
        f"{restaurant.lower()}: a {a.lower()} and a {b.lower()}, if no {b.lower()} then a {c.lower()}. {tail}"
    )
    found = agreement(goal, restaurant, (W(a), W(b)), (Fallback(b, W(c)),))
    assert found.verdict == "differ", (goal, found.why)


@pytest.mark.parametrize("goal", [goal for _, goal in RULES_ALONE])
def test_the_planner_alone_never_approves_them(goal: str, tmp_path: Path) -> None:
    """Through the real loop and anchor: nothing is ordered without the person (the run pauses to ask)."""
    from tests.planner.test_planner import PROFILE
    from tests.shop_double import run_planner

    result, shop, _ = run_planner(goal, tmp_path, profile=PROFILE, budget_cents=100_00, approve="auto")
    assert shop.orders == [] and result.outcome == "paused", result.message
