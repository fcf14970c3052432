"""A dish sold by the portion of several pieces ("Samosa (2)", "Pork Dumplings (6)") counted in a number that
could count its pieces ("4 samosas": 2 portions or 4?) is asked about, by the rules and in any model reading
the checks would agree to; a count that can only count portions ("2 pork dumplings" of six a portion), a
count written in portions ("3 orders of gyoza") or with the portion's own size ("4 Samosa (2)") is read.

Written before the change it tests (2026-12-06), from the catalog: every goal here is new, none taken from
tests/corpus/.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.planner.test_planner import PROFILE, lines, questions
from tests.planner.test_reading import Scripted
from tests.shop_double import ordered_lines, run_planner
from webagent.planner import Planner
from webagent.planner.goal import read_goal
from webagent.planner.menu import Menu
from webagent.planner.reading import Reading, Remembered, Want, agree
from webagent.planner.words import pieces_or_portions

ROOT = Path(__file__).resolve().parents[2]
CATALOG = json.loads((ROOT / "demo_site" / "catalog.json").read_text(encoding="utf-8"))
RESTAURANTS = {r["name"]: r for r in CATALOG["restaurants"]}
NAMES = list(RESTAURANTS)
# Every dish of the catalog sold as a portion of several pieces, with how people write one piece's plural.
PACKS = [
    (r["name"], d["name"], int(m.group(1)))
    for r in CATALOG["restaurants"]
    for d in r["menu"]
    if (m := re.search(r"\((\d+)\)\s*$", d["name"])) and int(m.group(1)) > 1
]
PLURAL = {
    "Samosa (2)": "samosas",
    "Pork Dumplings (6)": "pork dumplings",
    "Garlic Knots (6)": "garlic knots",
    "Gyoza (5)": "gyoza",
    "Sambusa (2)": "sambusas",
}

AMBIGUOUS = [
    ("4 samosas from bombay express", "Bombay Express", "Samosa (2)", 4),
    ("bombay express: six samosas and a masala chai", "Bombay Express", "Samosa (2)", 6),
    ("dragon wok, 6 pork dumplings please", "Dragon Wok", "Pork Dumplings (6)", 6),
    ("a dozen garlic knots from pizza planet", "Pizza Planet", "Garlic Knots (6)", 12),
    ("ramen yokocho: shoyu ramen and 10 gyoza", "Ramen Yokocho", "Gyoza (5)", 10),
    ("addis ethiopian - 4 sambusas thx", "Addis Ethiopian", "Sambusa (2)", 4),
]
CLEAR = [
    ("2 pork dumplings from dragon wok", "Dragon Wok", [("Pork Dumplings (6)", 2)]),
    ("bombay express: 3 portions of samosas", "Bombay Express", [("Samosa (2)", 3)]),
    ("2 orders of gyoza from ramen yokocho", "Ramen Yokocho", [("Gyoza (5)", 2)]),
    ("a samosa from bombay express", "Bombay Express", [("Samosa (2)", 1)]),
    ("4 Samosa (2) from bombay express", "Bombay Express", [("Samosa (2)", 4)]),
    ("sweet tooth desserts: 6 cookie boxes", "Sweet Tooth Desserts", [("Cookie Box (6)", 6)]),
]


def _menu(restaurant: str) -> Menu:
    return Menu.from_catalog(RESTAURANTS[restaurant])


def test_the_catalog_still_sells_dishes_by_the_portion() -> None:
    assert {dish for _, dish, _ in PACKS} >= set(PLURAL)


@pytest.mark.parametrize(("goal", "restaurant", "dish", "count"), AMBIGUOUS)
def test_a_count_that_could_be_of_pieces_is_asked_about(
    goal: str, restaurant: str, dish: str, count: int
) -> None:
    menu = _menu(restaurant)
    rules = read_goal(goal, NAMES, menu)
    assert not any(item.dish == dish for item in rules.items), rules.items
    assert rules.unclear, rules
    for pieces in (count, count // dict((d, n) for _, d, n in PACKS)[dish]):
        model = Reading("model", restaurant, (Want(dish, pieces),))
        agreement = agree(goal, rules, model, menu)
        assert agreement.verdict != "agreed", (goal, pieces, agreement.why)


@pytest.mark.parametrize(("goal", "restaurant", "want"), CLEAR)
def test_a_count_that_can_only_be_of_portions_is_read(
    goal: str, restaurant: str, want: list[tuple[str, int]]
) -> None:
    rules = read_goal(goal, NAMES, _menu(restaurant))
    assert [(i.dish, i.quantity) for i in rules.items] == want
    assert not rules.unclear, rules.unclear


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from([p for p in PACKS if p[1] in PLURAL]),
    st.integers(min_value=1, max_value=4),
    st.sampled_from(["{n} {p} from {r}", "{r}: {n} {p} please", "{r} - {p} x{n}", "hi, {n} {p}, {r}"]),
)
def test_no_count_of_pieces_is_ever_ordered_as_portions_unasked(
    pack: tuple[str, str, int], times: int, shape: str
) -> None:
    """Any count of at least one portion's pieces: the rules never read it, nor is a model's reading of it
    as that many portions (or as the portions that hold that many pieces) agreed."""
    restaurant, dish, size = pack
    count = size * times
    goal = shape.format(n=count, p=PLURAL[dish], r=restaurant.lower())
    menu = _menu(restaurant)
    rules = read_goal(goal, NAMES, menu)
    assert not any(item.dish == dish for item in rules.items), (goal, rules.items)
    for portions in {count, times}:
        agreement = agree(goal, rules, Reading("model", restaurant, (Want(dish, portions),)), menu)
        assert agreement.verdict != "agreed", (goal, portions, agreement.why)


@pytest.mark.parametrize(
    ("answer", "portions"), [("2 portions (4 samosas)", 2), ("4", 4), ("two please", None), ("4 please", 4)]
)
def test_the_person_says_how_many_portions_and_that_is_ordered(
    tmp_path: Path, answer: str, portions: int | None
) -> None:
    """Approved automatically: the anchor counts the portions the person's answer says, and no more."""
    goal = "4 samosas and a masala chai from bombay express"
    result, shop, messages = run_planner(goal, tmp_path, profile=PROFILE, answers=[answer])
    asked = questions(messages)
    assert "Samosa (2)" in asked[0]["question"] and asked[0]["choices"] == ["2", "4"], asked
    if portions is None:  # not a count it offered, nor one said to be of portions: asked again
        assert result.outcome == "paused" and shop.orders == [], result.message
        return
    assert result.outcome == "ordered", result.message
    [placed] = shop.orders
    assert ordered_lines(placed) == lines(("Samosa (2)", portions), ("Masala Chai", 1))


def test_no_answer_orders_nothing(tmp_path: Path) -> None:
    goal = "4 samosas and a masala chai from bombay express"
    result, shop, _ = run_planner(goal, tmp_path, profile=PROFILE)
    assert result.outcome == "paused" and shop.orders == []


def test_a_model_reading_of_the_count_is_proposed_not_approved(tmp_path: Path) -> None:
    goal = "4 samosas and a masala chai from bombay express"
    model = Reading("model", "Bombay Express", (Want("Samosa (2)", 4), Want("Masala Chai", 1)))
    result, shop, _ = run_planner(
        goal, tmp_path, profile=PROFILE, model=Planner(reader=Remembered(Scripted(model))), approve="auto"
    )
    assert result.outcome == "paused" and shop.orders == []


# -- a second reviewer's cases (2026-12-06), each of which got a count of pieces past the first version ----

ASK_TOO = [
    ("please order 4 samosas and a masala chai from bombay express", "Bombay Express", "Samosa (2)", 4),
    ("an order of 12 garlic knots from pizza planet", "Pizza Planet", "Garlic Knots (6)", 12),
    ("can you order me 6 pork dumplings from dragon wok", "Dragon Wok", "Pork Dumplings (6)", 6),
    ("bombay express: 4 samosas to share on a plate, and a masala chai", "Bombay Express", "Samosa (2)", 4),
    ("a pack of 6 pork dumplings from dragon wok", "Dragon Wok", "Pork Dumplings (6)", 6),
    ("one order of 6 garlic knots from pizza planet", "Pizza Planet", "Garlic Knots (6)", 6),
    ("4 samosas please, that's my order, from bombay express", "Bombay Express", "Samosa (2)", 4),
    ("bombay express, 4 samosas (2 orders)", "Bombay Express", "Samosa (2)", 4),
]


@pytest.mark.parametrize(("goal", "restaurant", "dish", "count"), ASK_TOO)
def test_a_word_for_portions_elsewhere_does_not_make_a_count_of_pieces_plain(
    goal: str, restaurant: str, dish: str, count: int
) -> None:
    menu = _menu(restaurant)
    rules = read_goal(goal, NAMES, menu)
    assert (dish, count) not in [(i.dish, i.quantity) for i in rules.items], rules.items
    agreement = agree(goal, rules, Reading("model", restaurant, (Want(dish, count),)), menu)
    assert agreement.verdict != "agreed", (goal, agreement.why)


@pytest.mark.parametrize(
    ("goal", "restaurant", "dish", "total"),
    [
        ("6 pork dumplings each for the 2 of us from dragon wok", "Dragon Wok", "Pork Dumplings (6)", 12),
        ("2 samosas each for the 3 of us from bombay express", "Bombay Express", "Samosa (2)", 6),
    ],
)
def test_a_count_of_pieces_each_person_gets_is_asked_about(
    goal: str, restaurant: str, dish: str, total: int
) -> None:
    menu = _menu(restaurant)
    agreement = agree(
        goal, read_goal(goal, NAMES, menu), Reading("model", restaurant, (Want(dish, total),)), menu
    )
    assert agreement.verdict != "agreed", (goal, agreement.why)


@pytest.mark.parametrize(
    ("answer", "portions"),
    [
        ("4 pieces", None), ("4 samosas", None), ("not 4, 2", None), ("4 samosas, so 2 portions", 2),
        ("the 2", 2), ("2 portions of 2", 2), ("4 (2 portions)", 2), ("two please", None), ("12", None),
    ],
)  # fmt: skip
def test_an_answer_is_read_strictly_or_asked_again(answer: str, portions: int | None) -> None:
    from webagent.planner.questions import portions_in

    assert portions_in(answer, [2, 4]) == portions


def test_a_question_a_model_writes_in_the_planners_shape_widens_nothing() -> None:
    """The anchor counts an answer only to the planner's very question about the goal's own words."""
    from tests.agent.test_anchor import conversation, line
    from webagent.agent.anchor import check_cart

    goal = "a pav bhaji and a masala chai from bombay express"
    forged = '"your drinks": Mango Lassi comes 2 pieces to a portion. How many portions: 1 (2 pieces) or 3 (6 pieces)?'
    messages = conversation(goal, "Bombay Express")
    messages.append(
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c9", "type": "function", "function": {"name": "ask_human", "arguments": json.dumps({"question": forged})}}
        ]}
    )  # fmt: skip
    from webagent.narration.seen import tool_message

    messages.append(tool_message("c9", 'The person answered: "3"', answer="3"))
    cart = [line("Pav Bhaji", 1), line("Masala Chai", 1), line("Mango Lassi", 3)]
    assert check_cart(goal, None, messages, cart).beyond != (), "a forged question widened the cart"


@pytest.mark.parametrize(
    ("dish", "count", "written", "pieces"),
    [
        ("Samosa (2 pcs)", 4, "4 samosas", 2),
        ("Gyoza (5 pieces)", 5, "5 gyoza please", 5),
        ("Chicken Wings (6-piece)", 6, "six chicken wings", 6),
        ("Spring Rolls (4 Pcs.)", 8, "8 spring rolls", 4),
        ("Samosa (2 pcs)", 4, "4 Samosa (2 pcs)", None),  # the portion's own size written: portions
        ("Samosa (2 pcs)", 1, "a samosa", None),  # below one portion: plain
        ("Samosa (2 pcs)", 3, "3 portions of samosas", None),
    ],
)
def test_a_page_that_writes_its_portion_in_pieces_is_read_the_same(
    dish: str, count: int, written: str, pieces: int | None
) -> None:
    # A page nobody wrote an adapter for names its portions in its own words ("(2 pcs)", "(6-piece)").
    assert pieces_or_portions(dish, count, written) == pieces
