"""What a person wants ordered, as typed values.

`OrderSpec` is the order itself — the shape of ``webagent run --order order.yaml`` — and `GoalReading`
is what the goal reader made of a sentence: the same order, but every part still pointing at the
`Words` of the goal it came from, plus the words it could not place (`Unclear`), so that a question
can quote exactly those words.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Detail", "GoalReading", "ItemReading", "OrderItem", "OrderSpec", "Spotted", "Unclear", "Words"]


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
