"""What a person wants ordered, as typed values.

`OrderSpec` is the order itself — the shape of ``webagent run --order order.yaml`` — and `GoalReading`
is what the goal reader made of a sentence: the same order, but every part still pointing at the
`Words` of the goal it came from, plus the words it could not place (`Unclear`), so that a question
can quote exactly those words. `Reading` is the final order a person meant as a reader — the rules, a
model, or the person — read it: dishes after corrections and substitutions (`Want`), fallbacks
(`Fallback`), dishes left out, a budget and whether fees count (webagent/planner/reading.py puts two
readings together).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Collection
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field

from webagent.narration.lines import counted, line_name
from webagent.narration.money import money

__all__ = [
    "Detail",
    "Fallback",
    "GoalReading",
    "ItemReading",
    "OrderItem",
    "OrderSpec",
    "Reading",
    "Spotted",
    "Unclear",
    "Want",
    "Words",
    "from_rules",
]


class OrderItem(BaseModel):
    """One dish to order."""

    model_config = ConfigDict(extra="forbid")

    dish: str
    quantity: int = Field(1, ge=1, le=50)
    options: list[str] = Field(default_factory=list)
    """Option choices as the menu names them ("Large", "Extra cheese")."""


class OrderSpec(BaseModel):
    """A structured order: what to buy, where, and how it is delivered and paid."""

    model_config = ConfigDict(extra="forbid")

    restaurant: str | None = None
    items: list[OrderItem] = Field(default_factory=list)
    name: str | None = None
    address: str | None = None
    phone: str | None = None
    delivery_slot: str | None = None
    """A slot label as the shop shows it ("19:00-19:30", "ASAP")."""
    payment_method: str | None = None
    promo_code: str | None = None
    tip_cents: int | None = Field(None, ge=0)
    budget_cents: int | None = Field(None, ge=0)
    delivery_note: str | None = None
    """A note for the courier, as written ("leave it with the neighbour"); filled where the shop has a note
    field, else named in the run's summary."""

    @classmethod
    def load(cls, path: str | Path) -> OrderSpec:
        """Read an order from a ``.json``, ``.yaml`` or ``.yml`` file."""
        path = Path(path)
        text = path.read_text(encoding="utf-8")
        data = json.loads(text) if path.suffix.lower() == ".json" else yaml.safe_load(text)
        return cls.model_validate(data or {})


@dataclass(frozen=True)
class Words:
    """A stretch of the goal: ``goal[start:end] == text``."""

    start: int
    end: int
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Spotted:
    """A name the page shows, found in the goal."""

    name: str
    words: Words


@dataclass(frozen=True)
class Detail:
    """A delivery detail read from the goal ("at 7pm" → ``"19:00-19:30"``)."""

    value: str | int
    words: Words


@dataclass
class ItemReading:
    """One dish of the goal, with the words it was read from."""

    dish: str
    quantity: int
    options: list[str]
    words: Words


@dataclass
class Unclear:
    """Words that look like part of the order but match nothing on the page (or several things).

    ``candidates`` are the closest names the page shows; ``quantity`` and ``options`` are what the
    words around them said, kept for the dish the person names in their answer.
    """

    words: Words
    candidates: list[str] = field(default_factory=list)
    quantity: int = 1
    options: list[str] = field(default_factory=list)
    dish: str | None = None
    """Set when the words are a choice the dish ``dish`` does not offer ("a large Tiramisu")."""
    pieces: int = 0
    """Set when the words count a dish sold by the portion (``candidates[0]``) in a number that could count
    its pieces, this many a portion ("4 samosas" of Samosa (2): 2 portions or 4?)."""
    split: str = ""
    """Set when the words give one dish several of one choice and do not say how many of which ("3 pad
    thai, 1 mild 1 hot": 2 in all, not 3); ``candidates[0]`` is the dish (webagent/planner/splits.py)."""


@dataclass
class GoalReading:
    """What the goal reader made of a goal."""

    text: str
    restaurant: Spotted | None = None
    items: list[ItemReading] = field(default_factory=list)
    details: dict[str, Detail] = field(default_factory=dict)
    """Keyed by `OrderSpec` field: name, address, phone, delivery_slot, payment_method, promo_code,
    tip_cents, budget_cents."""
    unclear: list[Unclear] = field(default_factory=list)
    phrases: list[Words] = field(default_factory=list)
    """Without a menu: the stretches that name dishes (to search the shop for)."""
    asides: list[Words] = field(default_factory=list)
    """Sentences about how a dish ordered is made or carried ("make sure the tacos are warm"): in the note that
    goes with the order, not words about what to buy (webagent/planner/asides.py)."""

    @property
    def spec(self) -> OrderSpec:
        """The order as a plain `OrderSpec`."""
        values = {name: detail.value for name, detail in self.details.items()}
        return OrderSpec.model_validate(
            {
                **values,
                "restaurant": self.restaurant.name if self.restaurant else None,
                "items": [
                    {"dish": item.dish, "quantity": item.quantity, "options": item.options}
                    for item in self.items
                ],
            }
        )


@dataclass(frozen=True)
class Want:
    """One line of the final order: ``Want("Margherita Pizza", 2, ("Large",))``."""

    dish: str
    quantity: int = 1
    choices: tuple[str, ...] = ()

    def __str__(self) -> str:
        return counted(self.quantity, line_name(self.dish, self.choices))


@dataclass(frozen=True)
class Fallback:
    """If ``instead_of`` cannot be had (sold out, not on the menu), ``take`` — or nothing for it when None."""

    instead_of: str
    take: Want | None = None

    def __str__(self) -> str:
        return f'if "{self.instead_of}" is unavailable, ' + (
            str(self.take) if self.take else "nothing instead"
        )


@dataclass(frozen=True)
class Reading:
    """The final order, as one reader (or the person) read it."""

    by: str
    """``rules``, ``model`` (``model, told why``: mended after the checks' objection), ``checks`` (the one
    they single out, proposed), or ``person`` (a reading the person confirmed)."""
    restaurant: str | None = None
    items: tuple[Want, ...] = ()
    leave_out: tuple[str, ...] = ()
    fallbacks: tuple[Fallback, ...] = ()
    budget_cents: int | None = None
    budget_includes_fees: bool | None = None
    unplaced: tuple[str, ...] = ()
    """Words of the goal this reading did not place (the rules' unclear words)."""
    off_menu: tuple[str, ...] = ()
    """Dishes the reader read that the menu does not have, as written."""

    def counts(self) -> Counter[tuple[str, frozenset[str]]]:
        """The items as a multiset of (dish, choices): "2 × X (Large)" and "1 × X (Large)" are 3 of one."""
        found: Counter[tuple[str, frozenset[str]]] = Counter()
        for want in self.items:
            found[(want.dish, frozenset(want.choices))] += want.quantity
        return found

    def per_dish(self) -> Counter[str]:
        found: Counter[str] = Counter()
        for want in self.items:
            found[want.dish] += want.quantity
        return found

    def placed(self, sold_out: Collection[str]) -> Reading:
        """The order a run places of this reading where the dishes ``sold_out`` are: each replaced by its
        fallback (or dropped, where the fallback is nothing), that fallback then spent."""
        fallen = {f.instead_of: f.take for f in self.fallbacks if f.instead_of in sold_out}
        if not fallen:
            return self
        items = tuple(
            taken
            for want in self.items
            for taken in ((fallen[want.dish],) if want.dish in fallen else (want,))
            if taken is not None
        )
        kept = tuple(f for f in self.fallbacks if f.instead_of not in fallen)
        return Reading(self.by, self.restaurant, items, self.leave_out, kept, self.budget_cents,
                       self.budget_includes_fees, self.unplaced, self.off_menu)  # fmt: skip

    def describe(self) -> str:
        """``3 × "Lasagna al Forno" and 1 × "Lemonade"; if "Tiramisu" is unavailable, 1 × "Caesar Salad"``."""
        merged: dict[tuple[str, frozenset[str]], Want] = {}
        for want in self.items:
            known = merged.get((want.dish, frozenset(want.choices)))
            merged[(want.dish, frozenset(want.choices))] = Want(
                want.dish, want.quantity + (known.quantity if known else 0), want.choices
            )
        parts = [str(want) for want in merged.values()]
        text = " and ".join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 1 else parts) or "nothing"
        extra = [str(fallback) for fallback in self.fallbacks]
        extra += [f'not "{dish}"' for dish in self.leave_out]
        if self.budget_cents is not None:
            fees = {True: ", fees included", False: ", before fees", None: ""}[self.budget_includes_fees]
            extra.append(f"at most {money(self.budget_cents)}{fees}")
        return "; ".join([text, *extra])

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Reading:
        def want(value: dict[str, Any]) -> Want:
            return Want(str(value["dish"]), int(value["quantity"]), tuple(str(c) for c in value["choices"]))

        return cls(
            by=str(data["by"]),
            restaurant=data.get("restaurant"),
            items=tuple(want(w) for w in data.get("items") or ()),
            leave_out=tuple(str(d) for d in data.get("leave_out") or ()),
            fallbacks=tuple(
                Fallback(str(f["instead_of"]), want(f["take"]) if f.get("take") else None)
                for f in data.get("fallbacks") or ()
            ),
            budget_cents=data.get("budget_cents"),
            budget_includes_fees=data.get("budget_includes_fees"),
            unplaced=tuple(str(w) for w in data.get("unplaced") or ()),
            off_menu=tuple(str(w) for w in data.get("off_menu") or ()),
        )


def from_rules(reading: GoalReading, restaurant: str | None = None) -> Reading:
    """The rules' `GoalReading` as a `Reading`."""
    budget = reading.details.get("budget_cents")
    return Reading(
        by="rules",
        restaurant=restaurant or (reading.restaurant.name if reading.restaurant else None),
        items=tuple(Want(i.dish, i.quantity, tuple(i.options)) for i in reading.items),
        budget_cents=budget.value if budget is not None and isinstance(budget.value, int) else None,
        unplaced=tuple(u.words.text for u in reading.unclear),
    )
