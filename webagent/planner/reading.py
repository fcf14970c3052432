"""The reading: the final order a person meant, read by the rules and by a model together.

What the person wants is one typed value, a `Reading`: the restaurant, the dishes with their quantities and
choices after every correction and substitution, the dishes left out, the fallbacks ("if the dragon roll is
sold out, a spicy tuna roll"), the budget and whether fees count. Two readers make one:

- **the rules** (goal.py): exact on the shop's own names, misspellings and accents; blind to discourse —
  "two, no wait, three", "instead", "if it's sold out", "one each for the four of us";
- **a model** (`ModelReader`, webagent/llm/reader.py): one structured-output call with the menu's names as
  its vocabulary, which reads discourse but may misread anything.

`agree` puts them together:

1. The words the rules could not place, or with which the request amends itself (`doubts`), are what the
   model is asked about. With none, the rules' reading stands (verdict ``rules``): the model is not asked.
2. The model's reading is **agreed** when it accounts for those words without contradicting the goal: every
   dish it orders is named in the words, every quantity is written there (or follows from numbers written
   there: "one each for the four of us"), a quantity or choice it changes from the rules' reading is one
   written *after* the rules' (corrections go forward), a dish it drops is negated or replaced in the words,
   and where it reads the same order as the rules, no amending words follow a dish the rules placed.
3. Anything else is a disagreement (``differ``): never guessed — the person is asked one question that
   proposes a reading (`propose`): the one the checks single out among those an edit or two from the rules'
   (`singled_out`, webagent/planner/edits.py) where there is exactly one, else the model's. A model that failed or answered garbage leaves the rules' reading
   with its unplaced words (``unread``): the planner asks about them as it always did.

The checks in 2 are rules too, but they check a proposal against the words rather than read the words
alone; what they cannot verify is asked about. Pure: no browser code, no model client.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

from webagent.planner.accounts import (
    fees_said,
    left_out,
    leftover,
    named_dishes,
    plain_words,
    unaccounted,
)
from webagent.planner.chosen import names_its_choice, unwritten_choices
from webagent.planner.doubts import (
    alternative,
    doubts,
    labelled,
    name_as_count,
    said_of_some,
    the_same,
    undecided,
)
from webagent.planner.edits import edited
from webagent.planner.mentions import BUDGET_WORDS, CORRECTION, mentions_of, within_a_name, written_whole
from webagent.planner.menu import Menu
from webagent.planner.reserve import pruned
from webagent.planner.spec import Detail, Fallback, GoalReading, ItemReading, Reading, Want, Words, from_rules
from webagent.planner.transcript import EXACT_ORDER

__all__ = [
    "PROPOSE",
    "Agreement",
    "Fallback",
    "Mends",
    "ModelReader",
    "Reading",
    "Readings",
    "Remembered",
    "SecondLook",
    "Want",
    "agree",
    "answered",
    "in_doubt",
    "planned",
    "propose",
    "read_agreed",
    "settled",
    "singled_out",
    "substituted",
    "unborne",
    "with_proposal",
]

Verdict = Literal["rules", "agreed", "differ", "unread"]


class ModelReader(Protocol):
    """Reads a request against a menu in one call; None when the model failed or answered nothing usable."""

    def read(self, words: str, menu: Menu) -> Reading | None: ...


class SecondLook(Protocol):
    """A `ModelReader` that can read once more another way (webagent/llm/reader.py `read_again`)."""

    def read_again(self, words: str, menu: Menu) -> Reading | None: ...


class Mends(Protocol):
    """A `ModelReader` that can read again told why its reading was not agreed (webagent/llm/reader.py
    `read_mended`): the checks' objection fed back, as a validation error is fed back to a model."""

    def read_mended(self, words: str, menu: Menu, reading: Reading, why: str) -> Reading | None: ...


def read_agreed(
    words: str, rules: GoalReading, reader: ModelReader, menu: Menu
) -> tuple[Agreement, Reading | None]:
    """The model's reading of ``words``, put to the words (`agree`), and the reading as the model gave it
    (to keep: agreeing it again gives the same agreement). Where the checks cannot agree to it and the
    reader can look again (`SecondLook`), its second reading is put to them too and stands only if they
    agree to it; otherwise the first reading is the one proposed. Measured (docs/local-model.md): a small
    model that lists a dish swapped out or not wanted as ordered reads it right when asked what became of
    each dish it mentions — but that form reads fallbacks worse, so it is the second look only.

    Where neither look is agreed and the reader can mend (`Mends`), it is shown its first reading and why
    the checks cannot agree to it ("it reads 5 × "Lasagna al Forno", but the words write 3"), and its mended
    reading is put to them in turn: it too stands only if they agree to it. The checks do not read for it —
    they say what they cannot bear out; the model reads again (measured: docs/local-model.md)."""
    first = reader.read(words, menu)
    found = agree(words, rules, first, menu)
    if found.verdict not in ("differ", "unread"):
        return found, first
    again = getattr(reader, "read_again", None)
    if again is not None:
        second = again(words, menu)
        looked = agree(words, rules, second, menu)
        if looked.verdict == "agreed":
            return looked, second
    mend = getattr(reader, "read_mended", None)
    if mend is not None and found.verdict == "differ" and first is not None and found.why:
        mended = mend(words, menu, first, found.why)
        looked = agree(words, rules, mended, menu)
        if looked.verdict == "agreed":
            return looked, mended
    return found, first


class Remembered:
    """A `ModelReader` that asks its model once per request and menu, however many parts of a run ask it
    (the planner each turn, the holds, the anchor): one process, one reading."""

    def __init__(self, reader: ModelReader) -> None:
        self.reader = reader
        self._kept: dict[tuple[str, Menu], Reading | None] = {}
        self._again: dict[tuple[str, Menu], Reading | None] = {}
        self._mended: dict[tuple[str, Menu, Reading, str], Reading | None] = {}

    def __repr__(self) -> str:
        return f"Remembered({self.reader!r})"

    def read(self, words: str, menu: Menu) -> Reading | None:
        if (words, menu) not in self._kept:
            self._kept[(words, menu)] = self.reader.read(words, menu)
        return self._kept[(words, menu)]

    def read_again(self, words: str, menu: Menu) -> Reading | None:
        again = getattr(self.reader, "read_again", None)
        if again is None:
            return None
        if (words, menu) not in self._again:
            self._again[(words, menu)] = again(words, menu)
        return self._again[(words, menu)]

    def read_mended(self, words: str, menu: Menu, reading: Reading, why: str) -> Reading | None:
        mend = getattr(self.reader, "read_mended", None)
        if mend is None:
            return None
        at = (words, menu, reading, why)
        if at not in self._mended:
            self._mended[at] = mend(words, menu, reading, why)
        return self._mended[at]


@dataclass(frozen=True)
class Agreement:
    """The two readings of one request against one menu, and which stands."""

    verdict: Verdict
    rules: Reading
    model: Reading | None = None
    doubts: tuple[str, ...] = ()
    """The words that made the model's reading needed (`doubts`)."""
    why: str = ""
    """For ``differ``: what the model's reading changes that the words do not show."""
    proposal: Reading | None = None
    """For ``differ``: the reading the checks single out (`singled_out`), which the question proposes."""

    @property
    def proposed(self) -> Reading | None:
        """What the question of a disagreement proposes: the reading singled out, else the model's."""
        return self.proposal or self.model

    @property
    def reading(self) -> Reading | None:
        """The reading to act on: the rules' (``rules``), the model's (``agreed``); None otherwise."""
        if self.verdict == "rules":
            return self.rules
        if self.verdict == "agreed":
            return self.model
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "rules": self.rules.to_json(),
            "model": self.model.to_json() if self.model else None,
            "doubts": list(self.doubts),
            "why": self.why,
            **({"proposal": self.proposal.to_json()} if self.proposal else {}),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Agreement:
        return cls(
            verdict=data["verdict"],
            rules=Reading.from_json(data["rules"]),
            model=Reading.from_json(data["model"]) if data.get("model") else None,
            doubts=tuple(data.get("doubts") or ()),
            why=str(data.get("why") or ""),
            proposal=Reading.from_json(data["proposal"]) if data.get("proposal") else None,
        )


# -- what the rules leave in doubt ---------------------------------------------------------------------


def unborne(words: str, rules: GoalReading, menu: Menu) -> str | None:
    """Why the checks a model's reading is put to (`unaccounted`) do not bear out the rules' own reading of
    ``words``, or None. A reading with no word left over may still be wrong: "… a horchata, deliver at
    7.30pm" read as 7 horchatas, "a chicken burrito no onions and 2 churros" without the churros, "… leave it
    with the neighbour, she wants a horchata too" without the horchata (a fourth reviewer's, all ordered by
    the rules alone); the count and the dish written at each tell (the choices are the rules' own reading)."""
    if not words.strip() or EXACT_ORDER.match(words) or not (rules.items or named_dishes(words, menu)):
        return None  # an order written as data, or no dish named ("surprise me under $20")
    mine = from_rules(rules, menu.restaurant)
    return unaccounted(
        _choices_blanked(words, rules, menu), rules, mine, menu, own=True
    ) or unwritten_choices(plain_words(words, rules), mine, menu)


def _choices_blanked(words: str, rules: GoalReading, menu: Menu) -> str:
    """The words with the choices the rules read blanked where they would name a dish and no dish's name
    holds them: "a smash burger (extra cheese, bacon)" names no Bacon Cheeseburger, "chocolate ice cream
    pint" no Chocolate Lava Cake."""
    named = {at for name in menu.names for at in mentions_of(name, words, menu)}
    for choice in {option for item in rules.items for option in item.options}:
        for at in written_whole(choice, words):
            if at in named and not within_a_name(choice, words, at, menu.names):
                words = words[:at] + " " * len(choice) + words[at + len(choice) :]
    return words


def in_doubt(words: str, rules: GoalReading, menu: Menu) -> tuple[str, ...]:
    """What leaves the rules' reading of ``words`` in doubt: `doubts`, else why it is `unborne`."""
    found = doubts(words, rules, menu)
    return found or ((why,) if (why := unborne(words, rules, menu)) else ())


def agree(words: str, rules: GoalReading, model: Reading | None, menu: Menu) -> Agreement:
    """The rules' reading and the model's of ``words`` against ``menu``, put together (see the module)."""
    mine = from_rules(rules, menu.restaurant)
    found = in_doubt(words, rules, menu)
    if not found:
        return Agreement("rules", mine, model)
    if model is None:
        return Agreement("unread", mine, None, found)
    # What the words cannot bear and taking away orders nothing more (a fallback nobody stated, a dish in
    # reserve ordered outright too): taken away, not held against it.
    model = pruned(plain_words(words, rules), model, menu)
    if model.budget_cents is not None and not BUDGET_WORDS.search(words):
        model = replace(model, budget_cents=None, budget_includes_fees=None)  # a budget nobody stated
    if model.budget_cents is not None and (said := fees_said(words)) is not None:
        model = replace(model, budget_includes_fees=said)  # the words say it plainly: "… before fees"
    # "a large lasagna": a choice the dish lacks, which no reading held to the menu can mean ("7ish" is a time)
    offered = [
        u
        for u in rules.unclear
        if u.dish is not None
        and not re.search(r"\d", u.words.text)
        and not CORRECTION.search(u.words.text)
        and not names_its_choice(
            u.words.text, u.words.start, u.dish, words, menu
        )  # "medium heat", "add bacon"
    ]
    why = (
        unaccounted(words, rules, model, menu)
        or name_as_count(words, model)
        or the_same(words)
        or said_of_some(words, model)
        or undecided(words, rules)
        or labelled(words)
        or alternative(words, model, menu)
        or (f'"{offered[0].dish}" has no choice "{offered[0].words.text}"' if offered else None)
    )
    model = replace(model, leave_out=left_out(words, model, menu))
    if why is None:
        budget = model.budget_cents if model.budget_cents is not None else mine.budget_cents
        return Agreement("agreed", mine, _with_budget(model, budget), found)
    return Agreement("differ", mine, model, found, why)


def singled_out(words: str, rules: GoalReading, menu: Menu) -> Reading | None:
    """The one order among the readings an edit or two from the rules' (webagent/planner/edits.py) that the
    checks agree to — None where none is, or several different ones are. Kept per request and menu."""
    at = (words, menu)
    if at in _SINGLED:
        return _SINGLED[at]
    found: dict[Any, Reading] = {}
    for candidate in edited(words, rules, menu, most=MOST_EDITED):
        acted = agree(words, rules, candidate, menu)
        if acted.verdict != "agreed" or acted.model is None:
            continue
        order = (frozenset(acted.model.counts().items()), frozenset(acted.model.fallbacks))
        found.setdefault(order, replace(acted.model, by="checks"))
        if len(found) > 1:
            break
    single = next(iter(found.values())) if len(found) == 1 else None
    if len(_SINGLED) > 256:
        _SINGLED.clear()
    _SINGLED[at] = single
    return single


_SINGLED: dict[tuple[str, Menu], Reading | None] = {}
MOST_EDITED = 1500
"""Readings put to the checks for one question at most (~10 s on one core; the corpora's goals in doubt have
61 at the median, 979 at most)."""


def with_proposal(words: str, rules: GoalReading, agreement: Agreement, menu: Menu) -> Agreement:
    """A disagreement with the reading its question proposes (`singled_out`); anything else as it is."""
    if agreement.verdict != "differ" or agreement.proposal is not None:
        return agreement
    return replace(agreement, proposal=singled_out(words, rules, menu))


def _with_budget(model: Reading, budget: int | None) -> Reading:
    return replace(model, budget_cents=budget, unplaced=())


PROPOSE = "I read your order as: "
INSTEAD = "Instead: "
"""How the choice of the rules' reading starts (not "No", which would read as a refusal)."""


def propose(agreement: Agreement) -> tuple[str, list[str]]:
    """The one question a disagreement asks, and its choices: yes (the reading proposed: the one the checks
    single out, else the model's), the rules' reading, or stop."""
    model = agreement.proposed
    assert model is not None
    question = f"{PROPOSE}{model.describe()}. Is that right?"
    rules = agreement.rules.describe() if agreement.rules.items else None
    choices = ["Yes", *([f"{INSTEAD}{rules}"[:200]] if rules else []), "Stop"]
    return question, choices


@dataclass
class Readings:
    """The agreements a run made, by (request words, restaurant): kept in its checkpoint, so a resumed run
    and every part of it (the planner, the holds, the anchor) read the same one back, never asking again."""

    entries: dict[str, dict[str, Any]] = field(default_factory=dict)

    @staticmethod
    def key(words: str, restaurant: str) -> str:
        return json.dumps([words, restaurant], ensure_ascii=True)

    def get(self, words: str, restaurant: str) -> Agreement | None:
        found = self.entries.get(self.key(words, restaurant))
        return Agreement.from_json(found) if found is not None else None

    def put(self, words: str, restaurant: str, agreement: Agreement) -> None:
        self.entries[self.key(words, restaurant)] = agreement.to_json()


def planned(reading: Reading, menu: Menu) -> tuple[Want, ...]:
    """The lines to order from ``menu``: the reading's items, each with its fallback where the menu shows it
    sold out or lacks it (taken in its place, or left out for "else nothing")."""
    found: list[Want] = []
    fallbacks = {f.instead_of: f for f in reading.fallbacks}
    for want in reading.items:
        dish = menu.dish(want.dish)
        fallback = fallbacks.get(want.dish)
        if fallback is not None and (dish is None or dish.sold_out):
            if fallback.take is not None:
                found.append(fallback.take)
            continue
        found.append(want)
    return tuple(found)


def settled(rules: GoalReading, agreement: Agreement | None, menu: Menu) -> GoalReading:
    """The rules' `GoalReading` with the order an agreement settled: its items the planned lines of the
    reading acted on (`planned`), no word left unplaced but those no reading of dishes settles (a time:
    `leftover`); the rules' delivery details kept. Unchanged when
    the agreement settles nothing (``differ``, ``unread``) or only confirms the rules."""
    acted = agreement.reading if agreement is not None else None
    if acted is None or agreement is None or agreement.verdict == "rules":
        return rules
    words = Words(0, 0, "")
    left = set(leftover(rules.text, rules, acted, menu))  # "around 7ish": a time no reading of dishes settles
    copy = GoalReading(
        text=rules.text,
        restaurant=rules.restaurant,
        items=[ItemReading(w.dish, w.quantity, list(w.choices), words) for w in planned(acted, menu)],
        details=dict(rules.details),
        unclear=[u for u in rules.unclear if u.words.text in left],
        phrases=list(rules.phrases),
    )
    if acted.budget_cents is not None and "budget_cents" not in copy.details:
        copy.details["budget_cents"] = Detail(acted.budget_cents, words)
    return copy


def answered(agreement: Agreement, answer: str) -> Agreement | None:
    """The agreement once the person answered `propose`'s question: a plain "Yes" makes the reading proposed
    theirs, the offered "Instead: …" exactly the rules'; anything else ("stop", "no", "yes but only 3") None —
    nothing is ordered on a reading the person did not say yes to as it stands."""
    model = agreement.proposed
    said = answer.strip().rstrip(".!").strip().lower()
    rules = propose(agreement)[1][1] if agreement.rules.items and model is not None else None
    if model is not None and said in ("yes", "y", "yes please", "yep", "correct", "right", "that's right"):
        mine = replace(model, by="person", unplaced=())
    elif rules is not None and said == rules.lower():  # the offered choice exactly, nothing added to it
        mine = replace(agreement.rules, by="person", unplaced=())
    else:
        return None
    return Agreement("agreed", agreement.rules, mine, agreement.doubts, "the person said so")


def substituted(reading: Reading, menu: Menu) -> list[str]:
    """What the order did with the reading's fallbacks and leavings-out, for the run's summary:
    ``"Dragon Roll" is sold out: 1 × "Spicy Tuna Roll" instead``."""
    said = []
    fallbacks = {f.instead_of: f for f in reading.fallbacks}
    for want in reading.items:
        dish = menu.dish(want.dish)
        fallback = fallbacks.get(want.dish)
        if fallback is not None and (dish is None or dish.sold_out):
            gone = "is sold out" if dish is not None else "is not on the menu"
            said.append(
                f'"{want.dish}" {gone}: '
                + (f"{fallback.take} instead" if fallback.take else "nothing instead, as asked")
            )
    said += [f'"{dish}" left out, as asked' for dish in reading.leave_out]
    return said
