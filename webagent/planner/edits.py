"""The readings an edit or two away from the rules' own, from which the checks single out one to propose.

Where the rules leave words in doubt and a model's reading is not agreed, the person is asked. The question
is better for proposing a reading the checks *do* agree to: of every reading one or two edits from the rules'
(a count changed to a number the words write, a choice to one they write, a dish dropped, replaced by one
they name, added, or held as a fallback), the checks of `agree` agree to the right one alone on most goals
the rules miss (measured: 62 of the 91 of the main corpus; no wrong one among ~88,000 over the six corpora
but three listed in tests/planner/test_edited_readings.py). So the one they single out
(webagent/planner/reading.py `singled_out`) is what a question proposes — never what is ordered without the
person's yes.

Pure: no browser code.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from webagent.planner.accounts import named_dishes
from webagent.planner.mentions import numbers_in, written_whole
from webagent.planner.menu import Menu
from webagent.planner.spec import Fallback, GoalReading, Reading, Want

__all__ = ["edited"]


def edited(words: str, rules: GoalReading, menu: Menu, most: int | None = None) -> list[Reading]:
    """Every reading one or two edits away from the rules' reading of ``words`` — none where there would be
    more than ``most`` (counted before any is made: a long order has many pairs of edits)."""
    base = [Want(i.dish, i.quantity, tuple(i.options)) for i in rules.items]
    named = named_dishes(words, menu)
    numbers = sorted({v for _, v in numbers_in(words) if v <= 12} | {1})

    def choices_of(name: str) -> list[tuple[str, ...]]:
        dish = menu.dish(name)
        groups = [
            ([] if option.required else [None]) + [c for c in option.choices if written_whole(c, words)]
            for option in (dish.options if dish else ())
        ]
        combos = itertools.product(*[g or [None] for g in groups])
        return [tuple(c for c in combo if c) for combo in combos][:8]

    edits: list[tuple[Any, ...]] = []
    for i, want in enumerate(base):
        edits += [("count", i, n) for n in numbers if n != want.quantity]
        edits += [("choices", i, c) for c in choices_of(want.dish) if set(c) != set(want.choices)]
        edits += [("drop", i), ("fallback", i, None)]
        edits += [(kind, i, d) for d in named if d != want.dish for kind in ("replace", "fallback")]
    for name in (n for n in named if n not in {w.dish for w in base}):
        edits += [("add", name, n, c) for n in numbers for c in choices_of(name)]

    if most is not None and len(edits) * (len(edits) + 1) // 2 > most:
        return []

    def apply(chosen: Sequence[tuple[Any, ...]]) -> Reading | None:
        items: list[Want | None] = list(base)
        fallbacks = []
        for edit in chosen:
            kind, at = edit[0], edit[1]
            if kind == "add":
                items.append(Want(at, edit[2], edit[3]))
                continue
            line = items[at]
            if line is None:
                return None
            if kind == "count":
                items[at] = Want(line.dish, edit[2], line.choices)
            elif kind == "choices":
                items[at] = Want(line.dish, line.quantity, edit[2])
            elif kind == "drop":
                items[at] = None
            elif kind == "replace":
                items[at] = Want(edit[2], line.quantity, (choices_of(edit[2]) or [()])[0])
            else:
                take = Want(edit[2], 1, (choices_of(edit[2]) or [()])[0]) if edit[2] else None
                items = [w if w is None or take is None or w.dish != take.dish else None for w in items]
                fallbacks.append(Fallback(line.dish, take))
        kept = tuple(w for w in items if w is not None)
        return Reading(by="model", restaurant=menu.restaurant, items=kept, fallbacks=tuple(fallbacks))

    found = []
    for size in (1, 2):
        for chosen in itertools.combinations(edits, size):
            if (reading := apply(chosen)) is not None:
                found.append(reading)
    return found
