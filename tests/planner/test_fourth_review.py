"""A fourth reviewer's ~5,900 attempts (2026-12-06, /tmp/rv28 on that machine): orders the planner alone
placed with no question — a time read as a count ("… deliver at 7.30pm" as 7 horchatas), a dish after "no
onions and" dropped, a courier note that swallowed "she wants a horchata too", a dish on a line before an
address taken for a name, "and one for Sarah", "pad thai with chicken" as a Chicken Satay too, a second shop's
dish put in this shop's order — and readings a small model would give that were agreed. Each is asked now; the
properties draw the shapes over every restaurant.

The rules' own reading is put to the checks a model's is (`reading.unborne`): what no word left over shows,
a count or a dish not borne out at its words does.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.agent.test_anchor import conversation, line  # at import: its @given tests nest in none of ours
from tests.planner.test_reading import USABLE, plain_dishes
from tests.planner.test_third_review import NAMES, RESTAURANTS, W, agreement
from webagent.agent.anchor import check_cart
from webagent.planner.doubts import MORE_OF, unplaced
from webagent.planner.goal import read_goal
from webagent.planner.menu import Menu

RULES_WRONG = [
    ("Taco Fiesta", "taco fiesta: 2 carnitas tacos and a horchata, deliver at 7.30pm"),
    ("Taco Fiesta", "taco fiesta: 2 carnitas tacos and a horchata at 7.30"),
    ("Italian Bistro", "italian bistro: 2 lemonade and a caesar salad at 6.45"),
    ("Taco Fiesta", "taco fiesta: 2 carnitas tacos and a horchata, deliver 7-8pm"),
    ("Taco Fiesta", "taco fiesta: 2 carnitas tacos and a horchata, 6:30-7"),
    ("Taco Fiesta", "taco fiesta: 2 carnitas tacos and a horchata, from 7 to 8pm"),
    ("Curry Palace", "curry palace: butter chicken mild and a garlic naan, deliver at 7.30pm"),
    ("Taco Fiesta", "taco fiesta: a chicken burrito mild no onions and 2 churros"),
    ("Taco Fiesta", "taco fiesta: a chicken burrito mild without sour cream and 2 churros"),
    ("Burger Barn", "burger barn: a crispy chicken sandwich no pickles and onion rings"),
    ("Italian Bistro", "italian bistro: caesar salad without croutons and a san pellegrino"),
    ("Taco Fiesta", "taco fiesta: no cutlery and a horchata plus 2 churros"),
    ("Taco Fiesta", "taco fiesta: no rush and 2 churros and a horchata"),
    ("Taco Fiesta", "taco fiesta: 2 carnitas tacos. leave it with the neighbour, she wants a horchata too"),
    ("Taco Fiesta", "taco fiesta: a chicken burrito hot. leave it at the door, also a horchata"),
    ("Taco Fiesta", "taco fiesta: a chicken burrito hot, call me when you're here and grab a horchata"),
    ("Pho Saigon", "pho saigon: 2 beef pho, ring the bell, my son wants a banh mi as well"),
    ("Taco Fiesta", "Taco Fiesta\n2 Carnitas Tacos\nHorchata\n12 Elm Street"),
    ("Taco Fiesta", "Taco Fiesta: 2 Carnitas Tacos; Horchata, 5 Mill Lane"),
    ("Taco Fiesta", "Taco Fiesta\nCarnitas Tacos x2\nChurros\n555-123-4567"),
    ("Taco Fiesta", "Taco Fiesta: a Horchata. For Dessert Churros please"),
    ("Taco Fiesta", "taco fiesta: a horchata for me and one for Sarah"),
    ("Taco Fiesta", "taco fiesta: a horchata for Sam and one for me"),
    ("Taco Fiesta", "taco fiesta: a carnitas taco for me, he wants 2"),
    ("Taco Fiesta", "taco fiesta: a horchata, and one more"),
    ("Taco Fiesta", "taco fiesta: a horchata plus one more"),
    ("Taco Fiesta", "taco fiesta: a carnitas taco and 2 more"),
    ("Taco Fiesta", "taco fiesta: we both want a horchata"),
    ("Taco Fiesta", "taco fiesta: 2 carnitas tacos and the same number of horchatas"),
    ("Taco Fiesta", "taco fiesta: a carnitas tacos for me and one for Sam, plus churros"),
    ("Taco Fiesta", "taco fiesta: a horchata (item 8)"),
    ("Curry Palace", "curry palace: a mango lassi (item 8) and garlic naan"),
    ("Pancake House", "pancake house: buttermilk pancakes with blueberries"),
    ("Burger Barn", "burger barn: classic smash burger with onions"),
    ("Bangkok Street", "bangkok street: pad thai mild with chicken"),
    ("Pho Saigon", "pho saigon: banh mi with chicken"),
    ("Seoul Kitchen", "seoul kitchen: bibimbap mild with beef"),
    ("Green Bowl", "green bowl: buddha bowl brown rice with tofu"),
    ("Italian Bistro Express", "italian bistro express: margherita pizza large with extra cheese"),
    ("Italian Bistro Express", "italian bistro express: penne arrabbiata with chicken"),
    ("Pizza Planet", "pizza planet: margherita pizza large with chicken"),
    ("Dragon Wok", "dragon wok: beef chow fun with egg"),
    ("Pancake House", "pancake house: a belgian waffle with chocolate"),
    ("Le Petit Café", "le petit café: steak frites with onion"),
    ("Taco Fiesta", "taco fiesta: 2 carnitas tacos with chicken"),
    ("Curry Palace", "curry palace: butter chicken mild and garlic naan. bombay express: a mango lassi"),
    ("Curry Palace", "butter chicken mild from curry palace and a mango lassi from bombay express"),
    ("Pizza Planet", "pizza planet: a large hawaiian pizza. italian bistro express: a cola"),
    ("Sushi House", "2 edamame from sushi house and a miso soup from sushi house premium"),
    ("Berlin Döner", "berlin döner: 2 lahmacun. falafel corner: a ayran"),
    ("Sushi House", "sushi house: a california roll and miso soup, and from sushi house premium a miso soup"),
    ("Taco Fiesta", "taco fiesta: 2 carnitas tacos and a horchata, or a margarita"),
    ("Taco Fiesta", "taco fiesta: a horchata, or a margarita"),
    ("Taco Fiesta", "taco fiesta: 2 carnitas tacos and a horchata or 2 margaritas"),
    ("Taco Fiesta", "taco fiesta: 2 carnitas tacos and a horchata, or churros"),
    ("Taco Fiesta", "taco fiesta: carnitas tacos for 4, and a horchata"),
    ("Taco Fiesta", "taco fiesta: a horchata and nachos supreme for 2."),
    ("Taco Fiesta", "taco fiesta: a horchata and nachos supreme for 2 please"),
    ("Taco Fiesta", "taco fiesta: nachos supreme and churros, 4 of us"),
    ("Taco Fiesta", "taco fiesta: horchatas for all of us"),
    ("Taco Fiesta", "taco fiesta: churros for all"),
    ("Taco Fiesta", "taco fiesta: carnitas tacos and horchatas, 4 total"),
    ("Taco Fiesta", "taco fiesta: carnitas tacos and a horchata, 2 items total"),
    ("Taco Fiesta", "taco fiesta: a horchata and #7"),
    ("Taco Fiesta", "taco fiesta: carnitas tacos and a 7 up"),
    ("Taco Fiesta", "taco fiesta: a chicken burrito, spice level 3"),
    ("Taco Fiesta", "taco fiesta: 2 carnitas tacos and a dessert"),
    ("Taco Fiesta", "taco fiesta: 2 carnitas tacos and something for dessert"),
    ("Taco Fiesta", "taco fiesta: carnitas tacos (about 4) and a horchata"),  # "about 4": a time, 1 taco
    ("Bangkok Street", "bangkok street: pad thai (around 3) and a thai iced tea"),
]
"""Each placed by the rules alone, wrong (the reviewer's meaning in /tmp/rv28/findings.py), or wrong under
every reading ("a horchata or 2 margaritas", "4 total")."""

AGREED_WRONG = [
    (
        "Taco Fiesta",
        "taco fiesta: 2 carnitas tacos and a horchata; Sam will order his own churros",
        (
            W("Carnitas Tacos", 2),
            W("Horchata", 1),
            W("Churros", 1),
        ),
    ),
    (
        "Taco Fiesta",
        "taco fiesta: 2 carnitas tacos and a horchata, the churros I'll pick up myself",
        (
            W("Carnitas Tacos", 2),
            W("Horchata", 1),
            W("Churros", 1),
        ),
    ),
    (
        "Italian Bistro",
        "italian bistro: 2 caesar salad and a lasagna al forno; Sam will order his own tiramisu",
        (
            W("Caesar Salad", 2),
            W("Lasagna al Forno", 1),
            W("Tiramisu", 1),
        ),
    ),
    (
        "Taco Fiesta",
        "taco fiesta: 2 carnitas tacos, a horchata or one margarita",
        (
            W("Carnitas Tacos", 2),
            W("Horchata", 1),
            W("Margarita", 1),
        ),
    ),
    (
        "Sushi House",
        "sushi house: 2 california roll, a miso soup or one edamame",
        (
            W("California Roll", 2),
            W("Miso Soup", 1),
            W("Edamame", 1),
        ),
    ),
    ("Taco Fiesta", "taco fiesta: a horchata for me and one for my wife", (W("Horchata", 1),)),
    (
        "Italian Bistro",
        "italian bistro: a caesar salad for me, one for my wife, and a san pellegrino",
        (
            W("Caesar Salad", 1),
            W("San Pellegrino", 1),
        ),
    ),
    (
        "Taco Fiesta",
        "taco fiesta: 2 carnitas tacos, and my kids want churros",
        (
            W("Carnitas Tacos", 2),
            W("Churros", 1),
        ),
    ),
    (
        "Taco Fiesta",
        "taco fiesta: 2 carnitas tacos. horchatas for the table",
        (W("Carnitas Tacos", 2), W("Horchata", 1)),
    ),
    (
        "Curry Palace",
        "curry palace: a butter chicken and garlic naans",
        (W("Butter Chicken", 1), W("Garlic Naan", 1)),
    ),
]
"""Readings a small model would give, agreed before: a dish someone else sees to, "or one margarita" as both,
"one for my wife" not counted, "my kids want churros" as one, a dish written in the plural with no count
("horchatas for the table", "garlic naans") as one."""


@pytest.mark.parametrize(("restaurant", "goal"), RULES_WRONG)
def test_the_rules_alone_do_not_place_them(restaurant: str, goal: str) -> None:
    found = agreement(goal, restaurant, None)
    assert found.verdict == "unread" and found.doubts, (goal, found.rules.items)


@pytest.mark.parametrize(("restaurant", "goal", "items"), AGREED_WRONG)
def test_the_wrong_readings_are_not_agreed(restaurant: str, goal: str, items: tuple[W, ...]) -> None:
    assert agreement(goal, restaurant, items).verdict == "differ", goal


def _word_marked(restaurant: str, goal: str) -> bool:
    return bool(unplaced(read_goal(goal, NAMES, Menu.from_catalog(RESTAURANTS[restaurant])), goal))


REAL_LOOP = [goal for restaurant, goal in RULES_WRONG if _word_marked(restaurant, goal)][::3] + [
    goal for restaurant, goal in RULES_WRONG if not _word_marked(restaurant, goal)
][::4]
"""Some whose doubt is among the words the rules could not place (`unplaced`), some whose doubt only the
checks find in the rules' reading (`unborne`): the approval anchor reads both."""


@pytest.mark.parametrize(("restaurant", "goal"), RULES_WRONG)
def test_the_anchor_does_not_approve_the_rules_reading_of_each(restaurant: str, goal: str) -> None:
    """The cart the planner alone would build — the rules' reading — is not approved automatically."""
    assert anchor_concern(restaurant, goal) is not None, goal


def anchor_concern(restaurant: str, goal: str) -> str | None:
    """What the approval anchor says of the cart the planner alone builds for ``goal``: the rules' reading."""
    reading = read_goal(goal, NAMES, Menu.from_catalog(RESTAURANTS[restaurant]))
    cart = [line(item.dish, item.quantity, tuple(item.options)) for item in reading.items]
    return check_cart(goal, None, conversation(goal, restaurant), cart).concern(total_cents=2000)


def assert_nothing_ordered(goal: str, tmp_path: Path) -> None:
    """The planner, the holds and the approval anchor as a run has them: the run pauses, nothing is ordered."""
    from tests.planner.test_planner import PROFILE
    from tests.shop_double import run_planner

    result, shop, _ = run_planner(goal, tmp_path, profile=PROFILE, budget_cents=100_00, approve="auto")
    assert shop.orders == [] and result.outcome in ("paused", "failed"), (
        goal,
        result.outcome,
        result.message,
    )


@pytest.mark.parametrize("goal", REAL_LOOP)
def test_through_the_real_loop_nothing_is_ordered_without_the_person(goal: str, tmp_path: Path) -> None:
    assert_nothing_ordered(goal, tmp_path)


def _word_of_another(restaurant: str, dish: str, data: st.DataObject) -> tuple[str, str] | None:
    """A word of another dish's name (four letters or more) that ``dish``'s name lacks, and that dish."""
    own = {w.lower() for w in dish.split()}
    pairs = [
        (w.lower(), other)
        for other in (d["name"] for d in RESTAURANTS[restaurant]["menu"])
        if other != dish
        for w in other.split()
        if w.isalpha()
        and len(w) > 3
        and w.lower() not in own
        and len([x for x in other.split() if x.isalpha()]) > 1  # not the whole name: "… with gyoza" orders it
    ]
    return data.draw(st.sampled_from(pairs)) if pairs else None


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(USABLE), st.sampled_from(["with", "w/", "with extra"]), st.data())
def test_a_word_of_another_dish_after_with_is_never_ordered_unasked(
    restaurant: str, joiner: str, data: st.DataObject
) -> None:
    """ "a A with <a word of B>": B is never ordered by the rules alone (an ingredient, or a side?)."""
    dish = data.draw(st.sampled_from(plain_dishes(RESTAURANTS[restaurant])))
    drawn = _word_of_another(restaurant, dish, data)
    if drawn is None:
        return
    word, other = drawn
    goal = f"{restaurant.lower()}: a {dish.lower()} {joiner} {word}"
    if all(w.lower() in goal.split() for w in other.split() if w.isalpha()):
        return  # "a shiro with extra injera" names Extra Injera whole
    found = agreement(goal, restaurant, None)
    if found.verdict == "rules":
        assert other not in {w.dish for w in found.rules.items if w.dish != dish}, (goal, found.rules.items)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(USABLE), st.sampled_from(NAMES), st.data())
def test_a_second_shop_named_is_asked_about(first: str, second: str, data: st.DataObject) -> None:
    """ "<shop>: a A. <another shop>: a B" — one order from one shop: never placed unasked."""
    if second == first or first.lower() in second.lower() or second.lower() in first.lower():
        return
    a = data.draw(st.sampled_from(plain_dishes(RESTAURANTS[first])))
    b = data.draw(st.sampled_from([d["name"] for d in RESTAURANTS[second]["menu"]]))
    goal = f"{first.lower()}: a {a.lower()}. {second.lower()}: a {b.lower()}"
    assert agreement(goal, first, None).verdict == "unread", goal


@pytest.mark.parametrize(
    ("restaurant", "goal"),
    [
        ("Taco Fiesta", "taco fiesta: 3 carnitas tacos and a horchata. one more taco"),
        ("Seoul Kitchen", "can i get a bibimbap hot and some kimchi"),
        (
            "Burger Barn",
            "Burger Barn. Classic Smash Burger, medium rare, extra cheese. Large fries. Root beer.",
        ),
        ("Italian Bistro Express", "Italian Bistro Express:\n- 1 x penne arrabbiata\n- 2 x iced tea"),
        ("Dragon Wok", "dragon wok: beef chow fun, jasmine tea, at 19:30"),
        (
            "Curry Palace",
            "curry palace palak paneer medium & 2 garlic naan — name: Priya Shah, phone: 555-0198",
        ),
        ("Bangkok Street", "bangkok street pad thai x3, 2 mild and 1 hot"),
        ("Burger Barn", "burger barn: classic smash burger medium + regular fries, $20 max all-in"),
        # Found by the approval anchor's property once it put the rules' reading to the checks:
        ("Seoul Kitchen", "Seoul Kitchen: 2 BIBIMBAP, mild and 2 Kimchi Jjigaes"),
        ("BBQ Smokehouse", "1 Brisket Plate and half a dozen Peach Cobbler from bbq smokehouse"),
        (
            "Burger Barn",
            "Burger Barn: 4 × Bacon Cheeseburger and CLASSIC SMASH BURGER x 1 (extra cheese, bacon)",
        ),
        ("Burger Barn", "twelve Classic Smash Burgers, bacon and twelve Onion Rings from Burger Barn"),
        (
            "Sweet Tooth Desserts",
            "sweet tooth desserts: 4 × strawberry cheesecakes and 5x chocolate Ice Cream Pint",
        ),
        (
            "Pancake House",
            "morning! pancake house: 3 coffees, a large and two mediums, plus blueberry pancakes",
        ),
    ],
)
def test_right_readings_the_rules_make_stand(restaurant: str, goal: str) -> None:
    """Put to the checks, the rules' right readings stand: "medium rare" is no "Medium", "2 x" counts, "$20",
    "19:30" and "x3, 2 mild" count no dish, "& 2 garlic naan" counts the naan; "Kimchi Jjigae" names no
    Kimchi, "half a dozen" no half rack, a choice the rules read ("bacon", "chocolate") no dish — and the
    approval anchor approves the cart they read."""
    found = agreement(goal, restaurant, None)
    assert found.verdict == "rules", (goal, found.doubts)
    assert anchor_concern(restaurant, goal) is None, goal


def test_people_counted_after_a_dish_still_ask() -> None:
    """ "chicken pho for my husband and both kids": 3, which no count at the dish says — a reading of 1 is
    not agreed (a number the words go on to count people by is no address)."""
    goal = "pho saigon — beef pho for me, chicken pho for my husband and both kids"
    assert agreement(goal, "Pho Saigon", (W("Beef Pho"), W("Chicken Pho"))).verdict == "differ"


def test_a_dish_named_with_a_kind_word_is_no_unnamed_dish() -> None:
    """ "a sweet and sour pork" names a dish; "a dessert" alone does not (found by hypothesis in CI)."""
    goal = "1 beef chow fun, a sweet and sour pork and a egg fried rice from dragon wok - but not the egg fried rice after all"
    assert agreement(goal, "Dragon Wok", (W("Beef Chow Fun"), W("Sweet and Sour Pork"))).verdict == "agreed"


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(USABLE),
    st.sampled_from(["I want", "i would like", "we'd like", "I'll have", "we will have", "I need"]),
    st.integers(min_value=2, max_value=5),
    st.data(),
)
def test_a_plain_order_in_the_first_person_is_no_count_said_of_someone(
    restaurant: str, said: str, n: int, data: st.DataObject
) -> None:
    """ "I would like 2 <dish> from <shop>": the count is at the dish — not "…, he wants 2" (a review of the
    round found the first cut of `MORE_OF` asking about every such order)."""
    dish = data.draw(st.sampled_from(plain_dishes(RESTAURANTS[restaurant])))
    goal = f"{said} {n} {dish.lower()} from {restaurant.lower()}"
    assert MORE_OF.search(goal) is None, goal


def _dishes_with(group: str) -> list[tuple[str, str]]:
    return [
        (restaurant, dish["name"])
        for restaurant, r in RESTAURANTS.items()
        for dish in r["menu"]
        if any(o["name"] == group for o in dish["options"])
    ]


@pytest.mark.parametrize(("restaurant", "dish"), _dishes_with("Extras"))
def test_a_dish_with_two_add_ons_is_no_doubt(restaurant: str, dish: str) -> None:
    """A group of add-ons takes several ("extra cheese and bacon"): the rules' reading stands, and the anchor
    approves it (a rules reading with two extras was asked, and kept the anchor from reading `unborne`)."""
    from tests.agent.test_anchor import conversation, line
    from webagent.agent.anchor import check_cart

    goal = f"{restaurant}: 2 {dish}, extra cheese and bacon"
    found = agreement(goal, restaurant, None)
    assert found.verdict == "rules", (goal, found.doubts)
    cart = [line(dish, 2, ("Extra cheese", "Bacon"))]
    assert check_cart(goal, None, conversation(goal, restaurant), cart).concern(total_cents=2000) is None


@pytest.mark.parametrize(("restaurant", "dish"), _dishes_with("Doneness"))
def test_a_dish_with_two_of_one_kind_is_still_asked(restaurant: str, dish: str) -> None:
    """A burger is cooked one way: "medium and well done" of 2 means two lines, never both on each."""
    goal = f"{restaurant}: 2 {dish}, medium and well done"
    assert agreement(goal, restaurant, None).verdict == "unread", goal


def core(dish: str) -> str:
    return dish.lower().split(" (")[0]


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(USABLE), st.data())
def test_a_dish_written_in_the_plural_with_no_count_is_never_one(
    restaurant: str, data: st.DataObject
) -> None:
    """ "a A and Bs": more than one B, and no count says how many — never ordered as one, by the rules alone
    or with a model's reading of one (a fourth reviewer's "horchatas for the table" was agreed as one)."""
    dishes = plain_dishes(RESTAURANTS[restaurant])
    first = data.draw(st.sampled_from(dishes))
    second = data.draw(st.sampled_from([d for d in dishes if d != first and not core(d).endswith("s")]))
    rest = second.lower()[len(core(second)) :]  # " (non-alcoholic)"
    plural = core(second) + ("es" if core(second).endswith(("ch", "sh", "x")) else "s") + rest
    tail = data.draw(st.sampled_from(["", " for the table", " please", " too"]))
    goal = f"{restaurant.lower()}: a {first.lower()} and {plural}{tail}"
    rules = agreement(goal, restaurant, None)
    if rules.verdict == "rules":
        assert {w.dish: w.quantity for w in rules.rules.items}.get(second, 0) != 1, goal
    assert agreement(goal, restaurant, (W(first), W(second))).verdict != "agreed", goal


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(USABLE),
    st.sampled_from(["about", "around", "roughly", "approx"]),
    st.integers(2, 9),
    st.data(),
)
def test_a_rough_number_after_a_dish_with_no_count_is_asked(
    restaurant: str, rough: str, n: int, data: st.DataObject
) -> None:
    """ "A (about 4) and a B": 4 of A, or 4 o'clock? Never one A at a time nobody said."""
    dishes = plain_dishes(RESTAURANTS[restaurant])
    first = data.draw(st.sampled_from(dishes))
    second = data.draw(st.sampled_from([d for d in dishes if d != first]))
    goal = f"{restaurant.lower()}: {first.lower()} ({rough} {n}) and a {second.lower()}"
    found = agreement(goal, restaurant, None)
    if found.verdict == "rules":
        assert {w.dish: w.quantity for w in found.rules.items}.get(first) == n, (goal, found.rules.items)
