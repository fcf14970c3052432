"""People named rather than counted: "one each" for a party the words list by name or by who they are.

"me, Ana and Luis", "me + my wife + our 3 kids", "a pho for me, one for my mother and a lychee soda each": no
number says how many the party is. The goals below were written on 2026-12-07, before any change to how the
checks count people, in words unlike the corpora's, each with the order meant. Counting such parties was
built and withdrawn the same day: two reviewers found ~30 wrong orders it agreed to ("me, my wife and our 3
kids and a friend" as 5; "a burrito each for Sam and Jo …, nachos for me" as 3 burritos; "my husband Tom" as
two people; "2 wraps, cut each in half" as one each of the party), so a party counted by no number is asked
about (docs/safety.md). What stays is what the goals hold the checks to: a reading with any other count than
the one meant is never acted on, named plainly or not, and where the words leave the party open (someone not
eating, a group of unsaid size, each of a part of it) nothing is.

One fix came of it: "the 3 of us each want 2 salmon nigiri" was agreed as 2 (the words before a dish gave
each person "a"/"one" only, `people.EACH_GETS`); it is 6 now, or asked.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from webagent.planner.goal import read_goal
from webagent.planner.menu import Menu
from webagent.planner.reading import Reading, Want, agree

CATALOG = yaml.safe_load((Path(__file__).parents[2] / "demo_site" / "catalog.json").read_text("utf-8"))
RESTAURANTS = {r["name"]: r for r in CATALOG["restaurants"]}

Line = tuple[str, int, tuple[str, ...]]

PLAIN: list[tuple[str, str, list[Line]]] = [
    (
        "Taco Fiesta",
        "taco fiesta: me, Priya and Tom each want a chicken burrito, medium",
        [("Chicken Burrito", 3, ("Medium",))],
    ),
    (
        "Pho Saigon",
        "Pho Saigon please — a lychee soda apiece for me, my husband and our 2 girls, plus 2 beef pho",
        [("Lychee Soda", 4, ()), ("Beef Pho", 2, ())],
    ),
    (
        "Athens Grill",
        "athens grill for me and my 3 flatmates: a lamb gyro each and one greek salad",
        [("Lamb Gyro", 4, ()), ("Greek Salad", 1, ())],
    ),
    (
        "Green Bowl",
        "Green Bowl: a vegan burger for me, a falafel wrap for my sister, and a kombucha each",
        [("Vegan Burger", 1, ()), ("Falafel Wrap", 1, ()), ("Kombucha", 2, ())],
    ),
    (
        "Curry Palace",
        "Curry Palace: my dad and I would like a mango lassi each and one basmati rice to share",
        [("Mango Lassi", 2, ()), ("Basmati Rice", 1, ())],
    ),
]

OPEN: list[tuple[str, str, list[Line]]] = [
    (  # someone named who is not eating
        "Taco Fiesta",
        "taco fiesta: me, Priya and Tom (Tom's not hungry tho) - a horchata each",
        [("Horchata", 2, ())],
    ),
    (  # a group of unsaid size
        "Pho Saigon",
        "pho saigon: me, my wife and the kids - a chicken pho each",
        [("Chicken Pho", 3, ())],
    ),
]

STILL_ASKED: list[tuple[str, str, list[Line]]] = [
    (  # a dish named again for another person: the checks count its last mention (1), so 2 is asked about
        "Seoul Kitchen",
        "seoul kitchen - bulgogi beef for Jin, japchae for Mara, japchae for me, and a barley tea for each of us",
        [("Bulgogi Beef", 1, ()), ("Japchae", 2, ()), ("Barley Tea", 3, ())],
    ),
]
"""A dish named again for another person: held, by another rule than the party's."""

PART: list[tuple[str, str, list[Line]]] = [
    (  # each of a part of the party: 2, or asked — never the party of 4
        "Burger Barn",
        "Burger Barn for me, my husband and our 2 boys: a bacon cheeseburger for each boy and 2 root beers",
        [("Bacon Cheeseburger", 2, ()), ("Root Beer", 2, ())],
    ),
    (
        "Bangkok Street",
        "bangkok street - me + my wife + 3 kids. thai iced tea for each kid, a pad thai hot for each grown-up",
        [("Thai Iced Tea", 3, ()), ("Pad Thai", 2, ("Hot",))],
    ),
]


def _acted(restaurant: str, goal: str, lines: list[Line]) -> Reading | None:
    menu = Menu.from_catalog(RESTAURANTS[restaurant])
    rules = read_goal(goal, list(RESTAURANTS), menu)
    model = Reading(by="model", restaurant=restaurant, items=tuple(Want(d, n, c) for d, n, c in lines))
    agreement = agree(goal, rules, model, menu)
    return agreement.reading if agreement.verdict in {"agreed", "rules"} else None


def _miscounted(lines: list[Line]) -> list[list[Line]]:
    """Each line's count one more and one fewer (not below one)."""
    found = []
    for i, (dish, n, choices) in enumerate(lines):
        for other in (n - 1, n + 1):
            if other >= 1:
                found.append([*lines[:i], (dish, other, choices), *lines[i + 1 :]])
    return found


def _counts(lines: list[Line]) -> dict[tuple[str, frozenset[str]], int]:
    return {(d, frozenset(c)): n for d, n, c in lines}


@pytest.mark.parametrize(("restaurant", "goal", "lines"), PLAIN + STILL_ASKED)
def test_a_party_named_plainly_is_asked_about_or_counted_right(
    restaurant: str, goal: str, lines: list[Line]
) -> None:
    acted = _acted(restaurant, goal, lines)
    assert acted is None or dict(acted.counts()) == _counts(lines), goal


@pytest.mark.parametrize(
    ("goal", "meant"),
    [
        (
            "sushi house: the 3 of us each want 2 salmon nigiri and a miso soup",
            {"Salmon Nigiri": 6, "Miso Soup": 3},
        ),
        ("Sushi House - we're 4, everyone gets 2 salmon nigiri", {"Salmon Nigiri": 8}),
    ],
)
def test_each_person_given_a_count_is_that_count_times_the_party(goal: str, meant: dict[str, int]) -> None:
    """A count before the dish, given to each ("each want 2 salmon nigiri"): the party times it, or asked —
    never the count alone (it was agreed as written)."""
    lines = [(dish, n, ()) for dish, n in meant.items()]
    alone = [
        (dish, n // (6 if n == 6 else 4) * (2 if dish == "Salmon Nigiri" else 1), ())
        for dish, n in meant.items()
    ]
    assert _acted("Sushi House", goal, alone) is None, goal
    acted = _acted("Sushi House", goal, lines)
    assert acted is None or dict(acted.counts()) == _counts(lines), goal


@pytest.mark.parametrize(("restaurant", "goal", "lines"), PLAIN + OPEN + PART + STILL_ASKED)
def test_a_party_miscounted_is_never_acted_on(restaurant: str, goal: str, lines: list[Line]) -> None:
    for wrong in _miscounted(lines):
        acted = _acted(restaurant, goal, wrong)
        assert acted is None or dict(acted.counts()) != _counts(wrong), (goal, wrong)


@pytest.mark.parametrize(("restaurant", "goal", "lines"), OPEN + STILL_ASKED)
def test_a_party_the_words_leave_open_is_asked_about(restaurant: str, goal: str, lines: list[Line]) -> None:
    assert _acted(restaurant, goal, lines) is None, goal


TERMS = {
    "me": 1,
    "Priya": 1,
    "Tom": 1,
    "Jin": 1,
    "my wife": 1,
    "my dad": 1,
    "my sister": 1,
    "our 2 kids": 2,
    "my 3 flatmates": 3,
    "the twins": 2,
}
JOINS = [", ", " and ", " + ", " & ", " plus "]
FORMS = [
    "{restaurant}: {party} - a {dish} each",
    "{restaurant} for {party}: one {dish} each and a {other}",
    "{party} each want a {dish} from {restaurant}",
    "{restaurant} please, a {dish} apiece for {party}",
]
DISHES = {
    "Pho Saigon": ["Lychee Soda", "Beef Pho", "Banh Mi"],
    "Athens Grill": ["Lamb Gyro", "Moussaka", "Baklava"],
}


@st.composite
def parties(draw: st.DrawFn) -> tuple[str, str, list[Line], bool]:
    """A goal giving one of a dish to each of a party named by a list, the order meant, and whether someone
    named is said not to eat (the party then open)."""
    names = draw(st.lists(st.sampled_from(sorted(TERMS)), min_size=2, max_size=4, unique=True))
    joins = [draw(st.sampled_from(JOINS)) for _ in names[1:]]
    party = names[0] + "".join(j + n for j, n in zip(joins, names[1:], strict=True))
    restaurant = draw(st.sampled_from(sorted(DISHES)))
    dish, other = draw(st.permutations(DISHES[restaurant]))[:2]
    goal = draw(st.sampled_from(FORMS)).format(
        restaurant=draw(st.sampled_from([restaurant, restaurant.lower()])),
        party=party,
        dish=dish.lower(),
        other=other.lower(),
    )
    out = draw(st.booleans())
    if out:
        who = next(n for n in names if n != "me")
        goal += f". {who.removeprefix('my ').removeprefix('our ').capitalize()} isn't hungry though"
    lines: list[Line] = [(dish, sum(TERMS[n] for n in names), ())]
    if "{other}" in goal or other.lower() in goal:
        lines.append((other, 1, ()))
    return restaurant, goal, lines, out


@settings(max_examples=300, deadline=None)
@given(parties())
def test_a_party_named_by_a_list_is_counted_as_listed_or_asked_about(
    case: tuple[str, str, list[Line], bool],
) -> None:
    restaurant, goal, lines, out = case
    for wrong in _miscounted(lines[:1]):
        acted = _acted(restaurant, goal, wrong + lines[1:])
        assert acted is None, (goal, wrong)
    if out:  # someone named is not eating: neither the whole list nor one fewer is sure
        assert _acted(restaurant, goal, lines) is None, goal
