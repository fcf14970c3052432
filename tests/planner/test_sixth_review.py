"""A sixth reviewer's goals (2026-12-07): 320 written with the order meant before the code was run
(tests/corpus/reading_blind5.yaml), put to the approval anchor over the rules' reading alone (no model reader).

Two wrong readings were approved — "4 cheese pizza large" as four Four Cheese Pizzas, "kfc medium + japchae +
bingsu" without the chicken (a choice said of words that name no dish) — and a third of the right readings
were held: an address's floor, unit or zip ("… 5th floor, unit 5C", "zip 94110") asked about or counted, a
note for the courier after a phone number ("call 555-201-7788 when outside"), a second note, "tip the driver
$5", a sentence about how a dish ordered is made or carried ("make sure the tacos are still warm": an aside,
webagent/planner/asides.py), a list's numbers ("1) large hawaiian\\n2) regular meat lovers" read as 2
pizzas), counts after a dash ("patatas bravas - 2"), a list that writes a dish on two lines, greetings and
sign-offs ("hola", "thank u so much, Rosa"). Batches 1-4 were looked at while changing the reader; 5-8 were
not (the figures: docs/safety.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.planner.test_fourth_review import anchor_concern, assert_nothing_ordered
from tests.planner.test_third_review import NAMES, RESTAURANTS
from webagent.planner.goal import read_goal
from webagent.planner.mentions import written_at
from webagent.planner.menu import Menu

CORPUS = yaml.safe_load((Path(__file__).parents[1] / "corpus" / "reading_blind5.yaml").read_text("utf-8"))


def _reading(restaurant: str, goal: str):  # type: ignore[no-untyped-def]
    return read_goal(goal, NAMES, Menu.from_catalog(RESTAURANTS[restaurant]))


def _counted(reading) -> dict[tuple[str, frozenset[str]], int]:  # type: ignore[no-untyped-def]
    found: dict[tuple[str, frozenset[str]], int] = {}
    for item in reading.items:
        at = (item.dish, frozenset(item.options))
        found[at] = found.get(at, 0) + item.quantity
    return found


def _asked_at_the_menu(restaurant: str, reading) -> bool:  # type: ignore[no-untyped-def]
    """A dish sold out, or a required choice left open: the planner asks at the menu, before any cart."""
    menu = {d["name"]: d for d in RESTAURANTS[restaurant]["menu"]}
    return any(
        menu[item.dish]["sold_out"]
        or any(
            o["required"] and not {c["name"] for c in o["choices"]} & set(item.options)
            for o in menu[item.dish]["options"]
        )
        for item in reading.items
    )


def test_no_wrong_reading_of_the_reviewers_goals_is_approved() -> None:
    """All 320: where the rules' reading is not the order meant (or the goal should be asked about), the
    planner asks at the menu or the anchor holds the cart."""
    approved = []
    for entry in CORPUS:
        reading = _reading(entry["restaurant"], entry["goal"])
        meant: dict[tuple[str, frozenset[str]], int] = {}
        for item in entry["items"]:
            at = (item["dish"], frozenset(item.get("choices") or ()))
            meant[at] = meant.get(at, 0) + item["quantity"]
        if (
            (entry.get("ask") or _counted(reading) != meant)
            and reading.items
            and not _asked_at_the_menu(entry["restaurant"], reading)
            and anchor_concern(entry["restaurant"], entry["goal"]) is None
        ):
            approved.append((entry["goal"], _counted(reading)))
    assert approved == []


WRONG = [
    ("Italian Bistro Express", "Italian Bistro Express: 4 cheese pizza large + cannoli"),
    ("Seoul Kitchen", "seoul kitchen plzz kfc medium + japchae + bingsu"),
]


@pytest.mark.parametrize(("restaurant", "goal"), WRONG)
def test_the_two_approved_before_are_held(restaurant: str, goal: str, tmp_path: Path) -> None:
    assert anchor_concern(restaurant, goal) is not None
    assert_nothing_ordered(goal, tmp_path)


def _plain(restaurant: str) -> list[str]:
    """Dishes with no required choice, on sale, written in plain words."""
    return [
        d["name"]
        for d in RESTAURANTS[restaurant]["menu"]
        if not d["sold_out"]
        and not any(o["required"] for o in d["options"])
        and all(w.isalpha() for w in d["name"].replace("&", "and").split())
    ]


TWO_PLAIN = [name for name in RESTAURANTS if len(_plain(name)) >= 3]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(TWO_PLAIN), st.data())
def test_a_choice_said_of_words_that_name_no_dish_is_never_dropped(
    restaurant: str, data: st.DataObject
) -> None:
    """ "<words no dish has> <a choice> + <dish>": the cart without whatever was asked for is never approved."""
    choices = sorted(
        {c["name"] for d in RESTAURANTS[restaurant]["menu"] for o in d["options"] for c in o["choices"]}
    )
    if not choices:
        return
    junk = data.draw(st.sampled_from(["kfc", "zorbo", "the usual thing", "qwerty"]))
    choice = data.draw(st.sampled_from(choices)).lower()
    dish = data.draw(st.sampled_from(_plain(restaurant))).lower()
    goal = f"{restaurant.lower()}: {junk} {choice} + {dish}"
    reading = _reading(restaurant, goal)
    if [i.dish.lower() for i in reading.items] == [dish]:
        assert anchor_concern(restaurant, goal) is not None, goal


ASIDES = [
    "Please make sure the {a} is still warm.",
    "Put the {a} in a separate bag so it doesn't go soggy.",
    "Driver, the {a} is fragile, keep it upright please!",
    "Please keep the {a} away from the {b}, no cutlery needed.",
    "Could the {a} be packed separately?",
    "The {a} is fragile, so please don't squash it.",
]
NOT_ASIDES = [
    "Please make sure the {a} is for both of us.",
    "And the {a} too.",
    "Actually make the {a} 2.",
    "Make sure the {a} comes with a {c}.",
    "Please put the {c} in a separate bag.",
    "On second thought, skip the {a}.",
    "Make the {a} 3 please.",
    "If the {a} is sold out, get the {c}.",
    "The {a} for my kid and the {a} for my roommate.",
    "Keep the {a} warm and the drinks cold.",
]


def _pair(restaurant: str, data: st.DataObject) -> tuple[str, str, str]:
    a, b, c = data.draw(st.permutations(_plain(restaurant)))[:3]
    return a, b, c


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(TWO_PLAIN), st.sampled_from(ASIDES), st.data())
def test_a_sentence_about_how_an_ordered_dish_is_carried_is_a_note(
    restaurant: str, aside: str, data: st.DataObject
) -> None:
    """Written after the order, a sentence about a dish ordered — made, packed or carried — is read into the
    note that goes with the order, and the order it follows stands."""
    a, b, _ = _pair(restaurant, data)
    said = aside.format(a=a.lower(), b=b.lower())
    goal = f"{restaurant}: a {a.lower()} and a {b.lower()}. {said}"
    reading = _reading(restaurant, goal)
    if _counted(reading) != {(a, frozenset()): 1, (b, frozenset()): 1}:
        return  # the rules read the order otherwise: not this test's concern
    if not reading.asides:  # only where a word of it may name another dish ("bag" of a Bagel?)
        menu = Menu.from_catalog(RESTAURANTS[restaurant])
        assert [n for n in menu.names if n not in (a, b) and written_at(n, said, menu.names)], goal
        return
    assert said.rstrip(".!?") in str(reading.details["delivery_note"].value), goal
    assert anchor_concern(restaurant, goal) is None, goal


def test_the_asides_of_the_reviewer_are_read_as_notes() -> None:
    goal = (
        "Get me carnitas tacos x2 and churros from Taco Fiesta. Please make sure the tacos are still warm, and "
        "tell the driver not to stack anything on the churros."
    )
    reading = _reading("Taco Fiesta", goal)
    assert [a.text for a in reading.asides] == [
        "Please make sure the tacos are still warm, and tell the driver not to stack anything on the churros"
    ]
    assert "tacos are still warm" in str(reading.spec.delivery_note)
    assert anchor_concern("Taco Fiesta", goal) is None


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(TWO_PLAIN), st.sampled_from(NOT_ASIDES), st.data())
def test_a_sentence_that_counts_adds_swaps_or_names_another_dish_is_no_aside(
    restaurant: str, sentence: str, data: st.DataObject
) -> None:
    a, b, c = _pair(restaurant, data)
    goal = f"{restaurant}: a {a.lower()} and a {b.lower()}. " + sentence.format(a=a.lower(), c=c.lower())
    assert _reading(restaurant, goal).asides == [], goal


UNITS = [", apt 3", ", 5th floor, unit 5C", " #4F", ", zip 94110", ", floor 3, office 305", ", Unit 3, zip 02110",
         " building 43", ", flat 2, zip 10023", ", 34th floor"]  # fmt: skip
STREETS = ["Elm St", "Harbor Blvd", "Orchard Lane", "Park Place", "W 23rd St", "Kalakaua Ave", "Pier Road"]


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(TWO_PLAIN),
    st.integers(1, 4),
    st.integers(1, 2999),
    st.sampled_from(STREETS),
    st.sampled_from(UNITS),
    st.sampled_from(["deliver to", "send to", "to", "address:"]),
    st.data(),
)
def test_an_address_with_its_floor_unit_and_zip_counts_nothing(
    restaurant: str, count: int, number: int, street: str, unit: str, lead: str, data: st.DataObject
) -> None:
    """ "<n> <dish>, deliver to 77 Bayview Terrace, 5th floor, unit 5C": the address is read whole (its numbers
    count no dish) and the cart of n is approved."""
    dish = data.draw(st.sampled_from(_plain(restaurant)))
    goal = f"{restaurant.lower()}: {count} {dish.lower()}, {lead} {number} {street}{unit}."
    reading = _reading(restaurant, goal)
    assert _counted(reading) == {(dish, frozenset()): count}, goal
    assert str(reading.details["address"].value).endswith(unit.strip(" ,")), goal
    assert anchor_concern(restaurant, goal) is None, goal


LINES = ["{i}) {dish} x{n}", "{i}. {dish} - {n}", "- {dish} - {n}", "{dish} x{n}", "{i}) {n} {dish}"]


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(TWO_PLAIN), st.sampled_from(LINES), st.data())
def test_a_numbered_list_counts_by_its_lines_not_its_numbers(
    restaurant: str, form: str, data: st.DataObject
) -> None:
    dishes = data.draw(st.permutations(_plain(restaurant)))[: data.draw(st.integers(2, 3))]
    counts = [data.draw(st.integers(1, 4)) for _ in dishes]
    lines = [
        form.format(i=i + 1, dish=d.lower(), n=n) for i, (d, n) in enumerate(zip(dishes, counts, strict=True))
    ]
    goal = f"{restaurant}\n" + "\n".join(lines)
    reading = _reading(restaurant, goal)
    if _counted(reading) == {(d, frozenset()): n for d, n in zip(dishes, counts, strict=True)}:
        assert anchor_concern(restaurant, goal) is None, goal


@pytest.mark.parametrize(
    ("restaurant", "goal"),
    [
        ("Seoul Kitchen", "Seoul Kitchen\nBulgogi Beef\nKimchi Jjigae\nKimchi\nBarley Tea\nBarley Tea"),
        ("Berlin Döner", "Berlin Döner order:\n* Falafel Döner\n* Falafel Döner\n* Beef Döner – mild\n* Fries x2"),
        ("Tapas Barcelona", "Tapas Barcelona: patatas bravas - 2, gambas al ajillo - 1, jamón croquetas - 2"),
        ("Pizza Planet", "pizza planet order\n1) large hawaiian\n2) regular meat lovers\n3) buffalo wings, hot"),
        ("Tapas Barcelona", "hola tapas barcelona!! jamon croquetas x2, pan con tomate, gambas — gracias, Pablo"),
        ("Italian Bistro", "hello there :) could I get the lasagna al forno and a lemonade from italian bistro? thank u so much, Rosa"),
        ("Sushi House", "Order 2 California rolls and a miso soup from Sushi House, send to 1180 Harbor Blvd, unit 12, call 555-201-7788 when outside."),
        ("BBQ Smokehouse", "From BBQ Smokehouse I want the brisket plate and 3 cornbreads. Tip the driver $5, gate code 4471."),
        ("Tapas Barcelona", "Tapas Barcelona, seafood paella plus pan con tomate, to 18 Mayor St, 2nd floor. Budget around $35, leave a $4 tip."),
    ],
)  # fmt: skip
def test_right_readings_the_anchor_held_stand(restaurant: str, goal: str) -> None:
    assert anchor_concern(restaurant, goal) is None, goal


def test_a_list_written_twice_on_a_line_each_is_two() -> None:
    reading = _reading("Seoul Kitchen", "Seoul Kitchen\nBarley Tea\nBarley Tea")
    assert _counted(reading) == {("Barley Tea", frozenset()): 2}


ADVERSARY = [
    ("Pizza Planet", "buffalo wings mild to 3 Bay Rd. Make sure the wings are fiery."),
    ("Taco Fiesta", "chicken burrito hot to 12 Oak St. Make sure the burrito isn't spicy."),
    ("Taco Fiesta", "carnitas tacos to 12 Oak St. Make sure the tacos are doubled."),
    ("Curry Palace", "lamb rogan josh mild to 5 Elm Rd. Make sure the lamb is chicken."),
    ("Curry Palace", "palak paneer mild to 5 Elm Rd. Make sure the paneer is tofu."),
    ("Bangkok Street", "green curry mild to 2 Rama Rd. Make sure the curry is red."),
    ("Green Bowl", "green smoothie small to 1 Oak Ln. Make sure the smoothie is XL."),
    ("Le Petit Café", "steak frites medium to 2 Rue St. Make sure the steak is bloody."),
    ("Le Petit Café", "croque monsieur to 2 Rue St. Make sure the croque monsieur has an egg on top."),
    ("Sweet Tooth Desserts", "ice cream pint vanilla to 7 Sugar Ln. Make sure the ice cream is mint."),
    ("Burger Barn", "french fries to 4 Main St. Make sure the fries are sweet potato."),
    ("Sushi House", "california roll to 8 Sea St. Please make sure the 2 rolls are cold."),
    ("Burger Barn", "classic smash burger medium and french fries large to 4 Main St. Please make sure both burgers are wrapped."),
    ("Pho Saigon", "beef pho to 9 Pine Ave. Please make sure the pho has no onions."),
    ("Pizza Planet", "large hawaiian pizza to 3 Bay Rd. Make sure the pizza is gluten free."),
    ("Taco Fiesta", "carnitas tacos to 12 Oak St, apt 2 horchata"),
    ("Taco Fiesta", "deliver to 12 Oak St building 43 carnitas tacos"),
    ("Curry Palace", "butter chicken mild to 5 Elm Rd, apt 3 garlic naan"),
    ("Taco Fiesta", "2 carnitas tacos to 12 Oak St.\nlol 1 more"),
    ("Taco Fiesta", "2 carnitas tacos to 12 Oak St. gracias x3"),
    ("Taco Fiesta", "2 carnitas tacos to 12 Oak St. ty ty ty 3"),
    ("Italian Bistro Express", "4-cheese pizza large to 1 Via St"),
    ("Italian Bistro Express", "4 cheeze pizza large to 1 Via St"),
    ("Italian Bistro Express", "margherita pizza large, cheese pizza x4 regular"),
    ("Pizza Planet", "1 large hawaiian\n2 regular meat lovers\n3 colas"),
    # a second adversary's, on these changes
    ("Taco Fiesta", "\n#1 churros\n#2 horchata"),
    ("Taco Fiesta", "\nNo. 1 churros\nNo. 2 horchata"),
    ("Taco Fiesta", "\n1> churros\n2> horchata"),
    ("Taco Fiesta", "order: #1 churros, #2 horchata"),
    ("Taco Fiesta", "carnitas tacos and churros to 12 Oak St. The tacos for my kid and the tacos for my roommate."),
    ("Sushi House", "california roll and miso soup to 8 Sea St. The soup for my kid and the soup for my daughter."),
    ("Taco Fiesta", "carnitas tacos and churros to 12 Oak St. Put the churros in a bag and the churros in a box."),
    ("Taco Fiesta", "carnitas tacos and churros to 12 Oak St. Put the tacos in separate boxes for me and my roommate."),
    ("Taco Fiesta", "carnitas tacos x2 to 12 Oak St. Keep the tacos warm and the drinks cold."),
    ("Taco Fiesta", "churros x2 to 12 Oak St. Keep the churros warm and the meal for my kid separate."),
    ("Burger Barn", "large french fries and a classic smash burger medium to 4 Main St. Make sure the fries are normal."),
    ("Pancake House", "fresh coffee large and belgian waffle to 1 Oak Ln. Make sure the coffee is cold."),
    ("Taco Fiesta", "\n1) churros\n2) \""),
]  # fmt: skip
"""An adversary's wrong carts, approved when the first cut of these changes took a sentence that chooses
("… is fiery", "… is XL", "… is vegan") for an aside, an address its unit's number before a dish ("apt 2
horchata"), or a count after "lol" for none — or before them (a count after a greeting, "4-cheese pizza")."""


@pytest.mark.parametrize(("restaurant", "goal"), ADVERSARY)
def test_an_adversarys_wrong_carts_are_held(restaurant: str, goal: str) -> None:
    goal = f"{restaurant}: {goal}"
    assert anchor_concern(restaurant, goal) is not None, goal
    assert not _reading(restaurant, goal).asides, goal


def test_through_the_real_loop_an_aside_is_told_in_the_summary(tmp_path: Path) -> None:
    """Placed with no question, and the run's summary names the aside with the note for the courier."""
    from tests.planner.test_planner import PROFILE
    from tests.shop_double import run_planner

    goal = "taco fiesta: 2 carnitas tacos and a horchata to 42 Elm St, 5th floor, unit 5C. Please make sure the tacos are still warm."
    result, shop, _ = run_planner(goal, tmp_path, profile=PROFILE, budget_cents=100_00, approve="auto")
    assert result.outcome == "ordered" and len(shop.orders) == 1, result.message
    assert "Please make sure the tacos are still warm" in str(result.message)
