"""Two holes the 0.5B found in the checks (benchmarks/reading.py --reader local:0.5b, 2026-12-05): a dish
named only in words about another time or person ("she had the samosas last time") read as ordered, and a
dish the menu lacks, written in two words ("a chicken korma and garlic naan"), dropped in silence. Each was
agreed and would have been approved. The goals below were written for this test, before the change; none
is in tests/corpus/ but the two the model read wrong.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from webagent.planner.goal import read_goal
from webagent.planner.menu import Menu
from webagent.planner.reading import Reading, Want, agree

ROOT = Path(__file__).resolve().parents[2]
CATALOG = json.loads((ROOT / "demo_site" / "catalog.json").read_text(encoding="utf-8"))
RESTAURANTS = {r["name"]: r for r in CATALOG["restaurants"]}


def W(dish: str, quantity: int = 1) -> Want:
    return Want(dish, quantity, ())


MISREAD = [
    ("bombay express pav bhaji and a masala chai. ty! my sister says hi, she had the samosas last time lol",
     "Bombay Express", (W("Samosa (2)"), W("Pav Bhaji"), W("Masala Chai"))),
    ("curry palace: butter chicken and a mango lassi. my husband loved the garlic naan yesterday",
     "Curry Palace", (W("Butter Chicken"), W("Mango Lassi"), W("Garlic Naan"))),
    ("dragon wok, 2 egg fried rice. we got the mango pudding last week, it was great",
     "Dragon Wok", (W("Egg Fried Rice", 2), W("Mango Pudding"))),
    ("a chicken korma and garlic naan from curry palace", "Curry Palace", (W("Garlic Naan"),)),
    ("dragon wok: 2 kung pao chicken and a beef stir fry", "Dragon Wok", (W("Kung Pao Chicken", 2),)),
    ("bombay express - one lamb vindaloo plus a mango lassi", "Bombay Express", (W("Mango Lassi"),)),
]  # fmt: skip


@pytest.mark.parametrize(("goal", "restaurant", "items"), MISREAD)
def test_a_small_models_misreading_of_these_is_never_agreed(
    goal: str, restaurant: str, items: tuple[Want, ...]
) -> None:
    menu = Menu.from_catalog(RESTAURANTS[restaurant])
    agreement = agree(
        goal, read_goal(goal, list(RESTAURANTS), menu), Reading("model", restaurant, items), menu
    )
    assert agreement.verdict != "agreed", (goal, agreement.why)


@pytest.mark.parametrize(
    ("goal", "restaurant", "items"),
    [
        ("bombay express: pav bhaji and 2 samosas, same as last time", "Bombay Express", ()),
        ("curry palace: butter chicken and garlic naan, thanks, my husband says hi", "Curry Palace",
         (W("Butter Chicken"), W("Garlic Naan"))),
    ],
)  # fmt: skip
def test_an_order_beside_such_words_is_still_read(
    goal: str, restaurant: str, items: tuple[Want, ...]
) -> None:
    if not items:
        return  # "same as last time" beside the dish: asking is as right as ordering; nothing to hold
    menu = Menu.from_catalog(RESTAURANTS[restaurant])
    agreement = agree(
        goal, read_goal(goal, list(RESTAURANTS), menu), Reading("model", restaurant, items), menu
    )
    assert agreement.verdict == "agreed", agreement.why
