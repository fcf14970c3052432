"""The goal corpus (tests/corpus/goals.yaml): hand-written goals, each with the reading it must give.

Every goal is read twice, as the planner reads it: first against the restaurant list only (which
restaurant does it name?), then against that restaurant's menu (or the entry's ``at`` menu when the
goal names none, as after a search). Every detail the entry leaves out must be read as absent, every
part of the reading must point back to words of the goal, and the words nothing matched must be the
ones the entry expects to be asked about — no more, no fewer.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from webagent.planner.goal import read_goal
from webagent.planner.menu import Menu

ROOT = Path(__file__).resolve().parents[2]
CATALOG = json.loads((ROOT / "demo_site" / "catalog.json").read_text(encoding="utf-8"))
RESTAURANTS = [restaurant["name"] for restaurant in CATALOG["restaurants"]]
CORPUS: list[dict[str, Any]] = yaml.safe_load((ROOT / "tests" / "corpus" / "goals.yaml").read_text("utf-8"))
ROUND3: list[dict[str, Any]] = yaml.safe_load((ROOT / "tests" / "corpus" / "round3.yaml").read_text("utf-8"))
"""Goals with words around the order (issue 20), written down before the reader was changed for them."""
DETAILS = {
    "name": "name",
    "address": "address",
    "phone": "phone",
    "slot": "delivery_slot",
    "payment": "payment_method",
    "promo": "promo_code",
    "tip": "tip_cents",
    "budget": "budget_cents",
}


def menu_of(name: str) -> Menu:
    """The menu as the menu narration shows it, built from the catalog."""
    restaurant = next(r for r in CATALOG["restaurants"] if r["name"] == name)
    return Menu.from_catalog(restaurant)


def expected_item(text: str) -> tuple[str, int, frozenset[str]]:
    """``"2 Margherita Pizza: Large, Bacon"`` → ("Margherita Pizza", 2, {"Large", "Bacon"})."""
    match = re.fullmatch(r"(?:(\d+) )?([^:]+?)(?:: (.*))?", text)
    assert match, text
    quantity, dish, options = match.groups()
    return dish, int(quantity or 1), frozenset(options.split(", ") if options else ())


def test_the_corpus_is_big_enough_and_every_goal_is_different() -> None:
    goals = [entry["goal"] for entry in CORPUS]
    assert len(goals) >= 200
    assert len(set(goals)) == len(goals)


@pytest.mark.parametrize(
    "entry",
    [*CORPUS, *ROUND3],
    ids=[*(f"{i:03d}" for i in range(len(CORPUS))), *(f"round3-{i:02d}" for i in range(len(ROUND3)))],
)
def test_goal_reading(entry: dict[str, Any]) -> None:
    goal = entry["goal"]
    first = read_goal(goal, restaurants=RESTAURANTS)
    assert (first.restaurant.name if first.restaurant else None) == entry.get("restaurant"), goal

    reading = read_goal(goal, restaurants=RESTAURANTS, menu=menu_of(entry.get("restaurant") or entry["at"]))
    spec = reading.spec
    got = [(item.dish, item.quantity, frozenset(item.options)) for item in spec.items]
    assert got == [expected_item(text) for text in entry.get("items", [])], goal
    for key, field in DETAILS.items():
        assert getattr(spec, field) == entry.get(key), f"{field} of {goal!r}"
    note = spec.delivery_note or ""
    assert (entry["courier"].lower() in note.lower()) if "courier" in entry else not note, f"note of {goal!r}"

    quoted = [part.words.text for part in reading.unclear]
    expected = entry.get("unclear", [])
    assert len(quoted) == len(expected), f"asked about {quoted} in {goal!r}"
    for words in expected:
        assert any(words.lower() in text.lower() for text in quoted), f"{words!r} not asked in {goal!r}"

    # Every part of the reading points back at the goal's own words.
    parts = [*(item.words for item in reading.items), *(part.words for part in reading.unclear)]
    parts += [detail.words for detail in reading.details.values()]
    if reading.restaurant:
        parts.append(reading.restaurant.words)
    for words in parts:
        assert goal[words.start : words.end] == words.text, words
