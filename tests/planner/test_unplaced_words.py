"""The words the rules could not place, put to a model's reading (webagent/planner/unplaced_words.py and the
fallback words of webagent/planner/mentions.py).

A fourth blind corpus (tests/corpus/reading_blind4.yaml, written by a helper who read no reader code, committed
before these checks) found three wrong orders the checks agreed to: a swap by a verb they did not know ("trade
the nachos for a chicken burrito", read as both), a fallback by words they did not know ("failing that a salmon
poke bowl", read as both bowls) and a dish the menu lacks written as a line of a list ("chicken biryani & 2
garlic naan", read as the naan alone). Those three are here as they were read; every other goal below was
written for this test, before the change, in words unlike the corpus's — and the property writes a swap by
verbs no check names.
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


def W(dish: str, quantity: int = 1, *choices: str) -> Want:
    return Want(dish, quantity, tuple(choices))


def agreement(
    goal: str, restaurant: str, items: tuple[Want, ...], fallbacks: tuple[Fallback, ...] = ()
) -> Agreement:
    menu = Menu.from_catalog(RESTAURANTS[restaurant])
    model = Reading("model", restaurant, items, fallbacks=fallbacks)
    return agree(goal, read_goal(goal, NAMES, menu), model, menu)


FOURTH_BLIND = [
    (
        "taco fiesta nachos supreme, 2 carnitas tacos, margarita... nah trade the nachos for a chicken burrito "
        "(medium)",
        "Taco Fiesta",
        (W("Nachos Supreme"), W("Carnitas Tacos", 2), W("Chicken Burrito", 1, "Medium"), W("Margarita")),
    ),
    (
        "poke paradise shrimp poke bowl white rice, failing that a salmon poke bowl also white rice, + seaweed "
        "salad",
        "Poke Paradise",
        (W("Shrimp Poke Bowl", 1, "White rice"), W("Salmon Poke Bowl", 1, "White rice"), W("Seaweed Salad")),
    ),
    ("curry palace: chicken biryani & 2 garlic naan", "Curry Palace", (W("Garlic Naan", 2),)),
]


@pytest.mark.parametrize(("goal", "restaurant", "items"), FOURTH_BLIND)
def test_the_fourth_blind_corpuss_wrong_orders_are_asked_about(
    goal: str, restaurant: str, items: tuple[Want, ...]
) -> None:
    assert agreement(goal, restaurant, items).verdict == "differ"


SWAP_VERBS = [
    "nah trade the {a} for a {c}",
    "hmm, exchange the {a} for a {c}",
    "oh switch out the {a} for a {c}",
    "wait, can the {a} be a {c}",
    "on reflection the {a} → {c} pls",
    "yeet the {a}, get a {c}",
    "the {a} should be a {c} tbh",
]
"""Ways to swap a dish out written for this test; the checks know none of the verbs in most of them."""


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(USABLE), st.sampled_from(SWAP_VERBS), st.data())
def test_a_dish_named_again_is_never_agreed_as_it_was(
    restaurant: str, verb: str, data: st.DataObject
) -> None:
    """Whatever the words after it do to a dish the rules placed — a swap by any verb — a reading that keeps
    the dish as the rules read it and adds the new one is not the order: asked about."""
    dishes = plain_dishes(RESTAURANTS[restaurant])
    a, b, c = data.draw(st.lists(st.sampled_from(dishes), min_size=3, max_size=3, unique=True))
    goal = f"{restaurant.lower()}: a {a.lower()} and a {b.lower()}. " + verb.format(a=a.lower(), c=c.lower())
    both = (W(a), W(b), W(c))
    found = agreement(goal, restaurant, both)
    assert found.verdict == "differ", (goal, found)


@pytest.mark.parametrize(
    "goal",
    [
        "bangkok street pad thai mild + a green curry hot. oops the green curry medium, the pad thai stays mild",
        "taco fiesta: nachos supreme and churros; if the churros are sold out, skip them",
        "pho saigon: beef pho and a lychee soda - make that 2 lychee sodas. my brother had the beef pho there "
        "last week",
    ],
)
def test_a_dish_named_again_without_a_change_or_in_a_condition_is_no_doubt(goal: str) -> None:
    restaurant = next(name for name in NAMES if name.lower() in goal)
    reading = {
        "Bangkok Street": ((W("Pad Thai", 1, "Mild"), W("Green Curry", 1, "Medium")), ()),
        "Taco Fiesta": ((W("Nachos Supreme"), W("Churros")), (Fallback("Churros", None),)),
        "Pho Saigon": ((W("Beef Pho"), W("Lychee Soda", 2)), ()),
    }[restaurant]
    found = agreement(goal, restaurant, *reading)
    assert found.verdict == "agreed", found


@pytest.mark.parametrize(
    ("words", "first", "then"),
    [
        ("failing that", "Shrimp Poke Bowl", "Salmon Poke Bowl"),
        ("failing which", "Dragon Roll", "Spicy Tuna Roll"),
        ("alternatively", "Truffle Burger", "Classic Smash Burger"),
        ("or as a backup", "Vegetable Biryani", "Chana Masala"),
    ],
)
def test_a_fallback_by_words_like_failing_that_is_held_in_reserve(words: str, first: str, then: str) -> None:
    restaurant = next(r["name"] for r in CATALOG["restaurants"] if any(d["name"] == first for d in r["menu"]))
    menu = Menu.from_catalog(RESTAURANTS[restaurant])
    needs = {
        d.name: next((o.choices[0] for o in d.options if o.required and o.choices), None)
        for d in menu.dishes
        if d.name in (first, then)
    }

    def line(dish: str) -> Want:
        return W(dish, 1, *([needs[dish]] if needs[dish] else []))

    written = " ".join(f"{needs[d]} {d}".lower() if needs[d] else d.lower() for d in (first,))
    goal = f"{restaurant.lower()}, a {written}, {words} a {then.lower()}" + (
        f" {needs[then].lower()}" if needs[then] else ""
    )
    assert agreement(goal, restaurant, (line(first), line(then))).verdict == "differ", goal
    held = agreement(goal, restaurant, (line(first),), (Fallback(first, line(then)),))
    assert held.verdict == "agreed", (goal, held)


@pytest.mark.parametrize(
    ("goal", "restaurant", "kept"),
    [
        ("italian bistro: beef wellington, a tiramisu", "Italian Bistro", (W("Tiramisu"),)),
        ("sushi house - unagi donburi + miso soup", "Sushi House", (W("Miso Soup"),)),
        ("burger barn: chili cheese dog and a chocolate shake", "Burger Barn", (W("Chocolate Shake"),)),
    ],
)
def test_a_dish_the_menu_lacks_as_a_line_of_a_list_is_not_dropped_in_silence(
    goal: str, restaurant: str, kept: tuple[Want, ...]
) -> None:
    found = agreement(goal, restaurant, kept)
    assert found.verdict == "differ" and "which it does not read" in found.why, found


@pytest.mark.parametrize(
    "goal",
    [
        "curry palace: butter chicken medium, garlic naan, thanks so much",
        "curry palace: butter chicken medium & garlic naan, cheers mate",
    ],
)
def test_courtesy_at_the_end_of_a_list_is_no_dish(goal: str) -> None:
    found = agreement(goal, "Curry Palace", (W("Butter Chicken", 1, "Medium"), W("Garlic Naan")))
    assert found.verdict in ("agreed", "rules"), found


TF, CP, GB, BB = "Taco Fiesta", "Curry Palace", "Green Bowl", "Burger Barn"
TACOS_HORCHATA = (W("Carnitas Tacos", 2), W("Horchata"))
REVIEWED = [
    # A reviewer's ~700 attempts at a wrong order against these checks (2026-12-06, after the blind corpus's
    # three): each a reading the checks agreed to that is not what the words say, by cause.
    # 1. a swap by a pronoun or a kind of dish, read as an addition
    (
        TF,
        "taco fiesta: 2 carnitas tacos and a horchata. nah swap it for a margarita",
        (*TACOS_HORCHATA, W("Margarita")),
    ),
    (
        TF,
        "taco fiesta: 2 carnitas tacos and a horchata. switch the drink to a margarita",
        (*TACOS_HORCHATA, W("Margarita")),
    ),
    (
        TF,
        "taco fiesta: 2 carnitas tacos and a horchata. horchata -> margarita",
        (*TACOS_HORCHATA, W("Margarita")),
    ),
    (
        "Italian Bistro",
        "italian bistro: spaghetti carbonara, san pellegrino. change my drink to a lemonade",
        (W("Spaghetti Carbonara"), W("San Pellegrino"), W("Lemonade")),
    ),
    # 2. a polite "if", or "otherwise" meaning "apart from that", hiding a swap or a correction
    (
        TF,
        "taco fiesta: 2 carnitas tacos - no, 3 - and a horchata. oh and if you can, swap the horchata for a margarita",
        (W("Carnitas Tacos", 3), W("Horchata")),
    ),
    (
        TF,
        "taco fiesta: 2 carnitas tacos - no, 3 - and a horchata. otherwise all good, but trade the horchata for a margarita",
        (W("Carnitas Tacos", 3), W("Horchata")),
    ),
    (TF, "taco fiesta: 2 carnitas tacos and a horchata. if you can, make it 3 tacos", TACOS_HORCHATA),
    # 3. a late count correction with no word of correction
    (TF, "taco fiesta: a horchata and 3 carnitas tacos. nvm 2", (W("Horchata"), W("Carnitas Tacos", 3))),
    (TF, "taco fiesta: 3 carnitas tacos and a horchata, only 2 tho", (W("Carnitas Tacos", 3), W("Horchata"))),
    (
        TF,
        "taco fiesta: a horchata and 3 carnitas tacos - cut that to 2",
        (W("Horchata"), W("Carnitas Tacos", 3)),
    ),
    (TF, "taco fiesta: 3 carnitas tacos and a horchata, make it 2", (W("Carnitas Tacos", 3), W("Horchata"))),
    # 4. a late choice correction after another dish
    (
        TF,
        "taco fiesta: a hot chicken burrito and a horchata, make it mild",
        (W("Chicken Burrito", 1, "Hot"), W("Horchata")),
    ),
    (
        TF,
        "taco fiesta: a horchata and a chicken burrito hot. mild pls",
        (W("Horchata"), W("Chicken Burrito", 1, "Hot")),
    ),
    # 5. "same for my wife", "double it", "another one"
    (
        CP,
        "curry palace: butter chicken mild + garlic naan. same for my wife",
        (W("Butter Chicken", 1, "Mild"), W("Garlic Naan")),
    ),
    (
        CP,
        "curry palace: butter chicken mild + garlic naan. double it",
        (W("Butter Chicken", 1, "Mild"), W("Garlic Naan")),
    ),
    # 6. a dish the menu lacks, dropped in silence
    (TF, "taco fiesta - 2 carnitas tacos, a horchata, street corn.", TACOS_HORCHATA),
    (TF, "taco fiesta: 2 carnitas tacos; street corn; a horchata", TACOS_HORCHATA),
    (TF, "taco fiesta - 2 carnitas tacos, a horchata, elote", TACOS_HORCHATA),
    (TF, "taco fiesta: 2 carnitas tacos, a horchata. beef tamales too", TACOS_HORCHATA),
    (TF, "taco fiesta: 2 carnitas tacos, a horchata, plus beef tamales for my son", TACOS_HORCHATA),
    # 7. a dish in praise, or for another time, added
    (
        TF,
        "taco fiesta: 2 carnitas tacos and a horchata. ps your churros are the best",
        (*TACOS_HORCHATA, W("Churros")),
    ),
    (
        TF,
        "taco fiesta: 2 carnitas tacos and a horchata. churros next time maybe",
        (*TACOS_HORCHATA, W("Churros")),
    ),
    (
        TF,
        "taco fiesta: 2 carnitas tacos and a horchata. im allergic to churros haha",
        (*TACOS_HORCHATA, W("Churros")),
    ),
]


@pytest.mark.parametrize(("restaurant", "goal", "items"), REVIEWED)
def test_a_reviewers_wrong_readings_are_asked_about(
    restaurant: str, goal: str, items: tuple[Want, ...]
) -> None:
    assert agreement(goal, restaurant, items).verdict == "differ", goal


@pytest.mark.parametrize(
    ("goal", "restaurant", "items"),
    [
        (
            "taco fiesta: 2 carnitas tacos and a horchata. nah swap the horchata for a margarita",
            TF,
            (W("Carnitas Tacos", 2), W("Margarita")),
        ),
        (
            "green bowl: buddha bowl brown rice and a kombucha",
            GB,
            (W("Buddha Bowl", 1, "Brown rice"), W("Kombucha")),
        ),
        (
            "burger barn: bacon cheeseburger medium, onion rings. make it 2 onion rings",
            BB,
            (W("Bacon Cheeseburger", 1, "Medium"), W("Onion Rings", 2)),
        ),
    ],
)
def test_the_right_reading_of_the_same_shapes_is_agreed(
    goal: str, restaurant: str, items: tuple[Want, ...]
) -> None:
    found = agreement(goal, restaurant, items)
    assert found.verdict in ("agreed", "rules"), found


@pytest.mark.parametrize(
    "goal",
    [
        "dragon wok: kung pao chicken mild, egg fried rice. your mango pudding is the best",
        "taco fiesta: a horchata, 2 carnitas tacos, make those 3 carnitas tacos",
        "taco fiesta: 2 carnitas tacos and a horchata - 3 carnitas tacos",
    ],
)
def test_the_planner_alone_never_approves_a_praised_dish_or_a_count_written_twice(
    goal: str, tmp_path: Path
) -> None:
    """The rules alone read these with no word left over — the praised pudding ordered, 2 and 3 tacos added
    up to 5 — and the anchor approved the cart automatically (the reviewer's tenth cause). Now such items are
    in doubt: the cart goes to the person for approval, nothing is ordered without them."""
    from tests.planner.test_planner import PROFILE
    from tests.shop_double import run_planner

    result, shop, _ = run_planner(goal, tmp_path, profile=PROFILE, budget_cents=100_00, approve="auto")
    assert shop.orders == [] and result.outcome == "paused", result.message


SECOND_REVIEW = [
    # A second reviewer's ~600 attempts against the checks above (2026-12-06): the wrong readings agreed, by
    # cause — five of them opened by those very checks (a bare count matching another line, "if you can't",
    # "otherwise it's …", a chain of corrections, a one-word line), the rest older.
    (TF, "taco fiesta: 2 horchatas and 3 carnitas tacos. nvm 2", (W("Horchata", 2), W("Carnitas Tacos", 3))),
    (
        "Sushi House",
        "sushi house: 2 miso soup and 4 california rolls, 2 will do",
        (W("Miso Soup", 2), W("California Roll", 4)),
    ),
    (
        TF,
        "taco fiesta: 2 carnitas tacos and a horchata - if you can't, a margarita",
        (*TACOS_HORCHATA, W("Margarita")),
    ),
    (
        TF,
        "taco fiesta: 2 carnitas tacos and a horchata, otherwise it's a margarita for me",
        (*TACOS_HORCHATA, W("Margarita")),
    ),
    (
        TF,
        "taco fiesta: 3 carnitas tacos, make it 2.. no wait, make it 4, and a horchata",
        (W("Carnitas Tacos", 2), W("Horchata")),
    ),
    (
        TF,
        "taco fiesta: 3 carnitas tacos, make it 2 more, and a horchata",
        (W("Carnitas Tacos", 2), W("Horchata")),
    ),
    (
        TF,
        "taco fiesta: 2 carnitas tacos - no, 3 - and a horchata. same for my wife",
        (W("Carnitas Tacos", 3), W("Horchata")),
    ),
    (TF, "taco fiesta: 2 carnitas tacos, a horchata, tea", TACOS_HORCHATA),
    (TF, "taco fiesta: 2 carnitas tacos, a horchata. flan", TACOS_HORCHATA),
    (
        TF,
        "taco fiesta: 2 carnitas tacos and a horchata. nah ditch it for a margarita",
        (*TACOS_HORCHATA, W("Margarita")),
    ),
    (
        TF,
        "taco fiesta: 2 carnitas tacos and a horchata. your churros are to die for",
        (*TACOS_HORCHATA, W("Churros")),
    ),
    (
        TF,
        "taco fiesta: 2 carnitas tacos and a horchata. churros tomorrow maybe",
        (*TACOS_HORCHATA, W("Churros")),
    ),
]


@pytest.mark.parametrize(("restaurant", "goal", "items"), SECOND_REVIEW)
def test_a_second_reviewers_wrong_readings_are_asked_about(
    restaurant: str, goal: str, items: tuple[Want, ...]
) -> None:
    assert agreement(goal, restaurant, items).verdict == "differ", goal


@pytest.mark.parametrize(
    "goal",
    [
        "taco fiesta: 2 carnitas tacos, horchata not needed",
        "taco fiesta: 2 carnitas tacos, a horchata no",
        "taco fiesta: I already have a horchata, so 2 carnitas tacos",
    ],
)
def test_the_planner_alone_never_approves_a_dish_the_words_say_is_not_wanted(
    goal: str, tmp_path: Path
) -> None:
    from tests.planner.test_planner import PROFILE
    from tests.shop_double import run_planner

    result, shop, _ = run_planner(goal, tmp_path, profile=PROFILE, budget_cents=100_00, approve="auto")
    assert shop.orders == [] and result.outcome == "paused", result.message


@pytest.mark.parametrize(
    ("text", "counted"),
    [
        ("raise the tacos to 4", [4]),
        ("cut that to 2", [2]),
        ("only 2 tho", [2]),
        ("deliver to 12 elm street", []),
        ("send it to 14 main", []),
        ("love this place 10/10", []),
        ("can't go over 45.50", []),
        ("7 hours straight, 4 more to go", []),
        ("on my 4th day here", []),
    ],
)
def test_a_count_is_a_count_and_an_address_a_rating_or_money_is_not(text: str, counted: list[int]) -> None:
    from webagent.planner.mentions import counts_in

    assert [n for _, n in counts_in(text)] == counted


@pytest.mark.parametrize(
    ("restaurant", "goal", "items"),
    [
        (
            CP,
            "curry palace: butter chicken mild + garlic naan. again for my wife",
            (W("Butter Chicken", 1, "Mild"), W("Garlic Naan")),
        ),
        (TF, "taco fiesta: 2 carnitas tacos, a horchata, street corn again", TACOS_HORCHATA),
    ],
)
def test_again_is_not_read_past(restaurant: str, goal: str, items: tuple[Want, ...]) -> None:
    assert agreement(goal, restaurant, items).verdict == "differ", goal
