"""A model that does exactly what the checks' objection tells it: is the reading it then writes ever agreed wrong?

Where neither of a model's looks is agreed, a run shows it the checks' objection in their own words ("That is
not quite it: it reads 5 × "Lasagna al Forno", but the words write 3 …") and takes its mended reading if the
checks agree to it (webagent/planner/reading.py `read_agreed`, `Mends`). A reviewer found that this steers a
model into the checks' holes: told "it leaves out the shake, which the words do not take out", a model that
complies writes the one wrong reading a hole accepts ("the same again … swap the shake for a root beer — that
was …, shake"). A corpus measures this only on what the 1.5B happened to write; here the model is the most
obedient one possible, made by the test.

From the rules' reading of each corpus goal in doubt, every reading one or two edits away that the checks hold
(tests/planner/test_edited_readings.py `edited`) is changed as its objection says — a dish added, taken out or
held in reserve, a count or a choice set to the one the words write — and put to the checks again. Each one
they agree to must be the order meant. The objection is read here by patterns written for this test from the
objections' wording, not by the code that writes them; an objection no pattern follows is left (a model that
cannot comply is asked), and a floor on how many were followed keeps a change of wording from emptying the test.

Measured when written (2026-12-07): over the six corpora, 4,648 held readings changed as told (a count set to
the one written, 1,708; a dish left out put back, 1,152; one each for the people, 523; a choice written added,
305; …), 0 agreed and wrong, ~60 s. Not followed: "it reads no dish" (504: nothing to change) and the
objections that say only that the words leave something open ("the words change how many … and no count says
to what") — a model cannot comply with those but by guessing, and the checks hold a guess as they held the
first reading.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
import yaml
from rapidfuzz import fuzz, process

from tests.planner.test_edited_readings import (
    CORPORA,
    RESTAURANTS,
    _as_placed,
    _choice_left_open,
    _is_meant,
)
from webagent.planner.edits import edited
from webagent.planner.goal import read_goal
from webagent.planner.menu import Menu
from webagent.planner.reading import Fallback, Reading, Want, agree, in_doubt


def _with_items(reading: Reading, items: tuple[Want, ...]) -> Reading:
    return replace(reading, items=items)


def _without(reading: Reading, name: str) -> Reading:
    return replace(
        reading,
        items=tuple(w for w in reading.items if w.dish != name),
        fallbacks=tuple(
            f for f in reading.fallbacks if f.instead_of != name and (f.take is None or f.take.dish != name)
        ),
    )


def _counted(reading: Reading, name: str, count: int) -> Reading | None:
    if count < 1:
        return None
    return _with_items(
        reading, tuple(replace(w, quantity=count) if w.dish == name else w for w in reading.items)
    )


def _chosen(reading: Reading, name: str, choice: str, keep: bool) -> Reading:
    def change(want: Want) -> Want:
        if want.dish != name:
            return want
        kept = tuple(c for c in want.choices if c != choice)
        return replace(want, choices=(*kept, choice) if keep else kept)

    return _with_items(reading, tuple(change(w) for w in reading.items))


def _added(reading: Reading, name: str) -> Reading | None:
    if any(w.dish == name for w in reading.items):
        return None
    return _with_items(reading, (*reading.items, Want(name)))


def _reserved(reading: Reading, other: str, name: str) -> Reading:
    kept = _without(reading, other)
    return replace(kept, fallbacks=(*kept.fallbacks, Fallback(name, Want(other))))


def _no_fallback_for(reading: Reading, name: str) -> Reading:
    return replace(reading, fallbacks=tuple(f for f in reading.fallbacks if f.instead_of != name))


def _fallback_dropped(reading: Reading, take: str) -> Reading:
    return replace(
        reading, fallbacks=tuple(f for f in reading.fallbacks if f.take is None or f.take.dish != take)
    )


def _placed(reading: Reading, text: str, menu: Menu) -> list[Reading]:
    """The words asked for, placed as a model might: each of the two dishes whose names are nearest them."""
    nearest = process.extract(text, menu.names, scorer=fuzz.token_set_ratio, limit=2)
    return [r for name, _, _ in nearest if (r := _added(reading, name)) is not None]


def _more(reading: Reading, name: str) -> Reading:
    return _with_items(
        reading, tuple(replace(w, quantity=w.quantity + 1) if w.dish == name else w for w in reading.items)
    )


def _swapped(reading: Reading, text: str, name: str, menu: Menu) -> list[Reading]:
    return _placed(_without(reading, name), text, menu)


Obey = Callable[[Reading, "re.Match[str]", Menu], "list[Reading] | Reading | None"]

OBEYED: list[tuple[str, Obey]] = [
    (r'it leaves out "(.+?)", which the words do not take out', lambda r, m, _: _added(r, m[1])),
    (r'the words name "(.+?)", which it does not read', lambda r, m, _: _added(r, m[1])),
    (
        r'the words ask for "(.+?)" where it can be had, and it does not read it',
        lambda r, m, _: _added(r, m[1]),
    ),
    (
        r'the words ask for "(.+?)" \("(.+?)"\), which is not "(.+?)"',
        lambda r, m, menu: _swapped(r, m[1], m[3], menu),
    ),
    (r'the words ask for "(.+?)", which it does not read', lambda r, m, menu: _placed(r, m[1], menu)),
    (
        r'it reads \d+ × "(.+?)", but the words (?:write|ask for it|give) (\d+)',
        lambda r, m, _: _counted(r, m[1], int(m[2])),
    ),
    (r'it reads \d+ × "(.+?)", but the words count it where no count', lambda r, m, _: _counted(r, m[1], 1)),
    (
        r'the words (?:name "(.+?)" again|add more "(.+?)" to)',
        lambda r, m, _: _more(r, m[1] or m[2]),
    ),
    (
        r'"(.+?)" is not named in the words|the words (?:take "(.+?)" out|put another dish in the place of "(.+?)"'
        r'|name "(.+?)" only)',
        lambda r, m, _: _without(r, next(g for g in m.groups() if g)),
    ),
    (
        r'the words offer "(.+?)" or "(.+?)", and it orders both',
        lambda r, m, _: [_without(r, m[1]), _without(r, m[2])],
    ),
    (r'it orders its fallback "(.+?)" outright too', lambda r, m, _: _without(r, m[1])),
    (
        r'the words (?:may )?choose "(.+?)" for "(.+?)", which it does not read',
        lambda r, m, _: _chosen(r, m[2], m[1], True),
    ),
    (
        r'the choice "(.+?)" (?:is not written at|of) "(.+?)"|"(.+?)" has no choice "(.+?)"',
        lambda r, m, _: _chosen(r, m[2], m[1], False) if m[1] else _chosen(r, m[3], m[4], False),
    ),
    (
        r'the words hold "(.+?)" in reserve for "(.+?)", which it does not read',
        lambda r, m, _: _reserved(r, m[1], m[2]),
    ),
    (
        r'it reads nothing in place of "(.+?)"|it reads more than one fallback for "(.+?)"',
        lambda r, m, _: _no_fallback_for(r, m[1] or m[2]),
    ),
    (r'its fallback "(.+?)" is not', lambda r, m, _: _fallback_dropped(r, m[1])),
    (r"it reads a fallback the words do not state", lambda r, m, _: replace(r, fallbacks=())),
    (r"it reads dishes the menu does not have", lambda r, m, _: replace(r, off_menu=())),
    (r"it reads a budget of", lambda r, m, _: replace(r, budget_cents=None)),
]


def obeyed(reading: Reading, why: str, menu: Menu) -> list[Reading]:
    """``reading`` changed as ``why`` says (each way, where it says "or"); none where no pattern follows it."""
    for pattern, obey in OBEYED:
        if found := re.match(pattern, why):
            done = obey(reading, found, menu)
            return [] if done is None else done if isinstance(done, list) else [done]
    return []


def _held(entry: dict[str, Any]) -> tuple[str, Menu, Any] | None:
    if not entry.get("restaurant"):
        return None
    goal = entry["goal"]
    menu = Menu.from_catalog(RESTAURANTS[entry["restaurant"]])
    rules = read_goal(goal, list(RESTAURANTS), menu)
    if not in_doubt(goal, rules, menu):
        return None
    return goal, menu, rules


def wrong_when_obeyed(entry: dict[str, Any], tally: list[int] | None = None) -> list[str]:
    """The readings the checks hold, changed as told, that they then agree to and that are not the order meant."""
    held = _held(entry)
    if held is None:
        return []
    goal, menu, rules = held
    wrong = []
    for candidate in edited(goal, rules, menu, most=60):
        first = agree(goal, rules, candidate, menu)
        if first.verdict != "differ" or first.model is None:
            continue
        for mended in obeyed(first.model, first.why, menu):
            if tally is not None:
                tally.append(1)
            second = agree(goal, rules, mended, menu)
            acted = second.reading
            if second.verdict != "agreed" or acted is None or _choice_left_open(acted, menu):
                continue
            if entry.get("ask") or not any(_is_meant(r, entry) for r in (acted, _as_placed(acted, menu))):
                wrong.append(f"{first.why} -> {acted.describe()}")
    return sorted(set(wrong))


def _entries() -> list[Any]:
    return [
        pytest.param(entry, id=f"{corpus.stem}:{entry['goal'][:50]}")
        for corpus in CORPORA
        for entry in yaml.safe_load(corpus.read_text("utf-8"))
        if entry.get("restaurant")
    ]


@pytest.mark.parametrize("entry", _entries())
def test_a_reading_changed_as_told_is_never_agreed_wrong(entry: dict[str, Any]) -> None:
    assert wrong_when_obeyed(entry) == [], entry["goal"]


def test_enough_objections_are_followed() -> None:
    """The patterns above still follow the checks' wording: on the main corpus alone, when written, 800
    readings were changed as told."""
    tally: list[int] = []
    for entry in yaml.safe_load((CORPORA[0].parent / "reading.yaml").read_text("utf-8")):
        wrong_when_obeyed(entry, tally)
    assert len(tally) >= 700
