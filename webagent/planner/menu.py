"""A restaurant's menu as its narration shows it: dishes, prices, sold-out marks and each dish's choices.

`Menu.from_narration` reads the sentence ``open_restaurant`` returns::

    Opened "Italian Bistro". Minimum order $15.00. Menu: "Margherita Pizza" $11.50 (choose Size:
    "Regular" or "Large"; optional Extras: "Extra cheese", "Bacon"), "Tiramisu" $7.50, …

(written by webagent/narration/narrate.py ``menu_listing`` and said.py ``opened``, read back by their
readers beside them, ``read_opened``). `Menu.from_catalog` builds the same thing from the shop's
catalog, for tests.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from webagent.narration.said import read_opened
from webagent.narration.seen import Seen
from webagent.narration.state import MenuItem

__all__ = ["Dish", "Menu", "Option"]


@dataclass(frozen=True)
class Option:
    """A choice a dish asks for: ``Size`` (required) with ``Regular`` or ``Large``."""

    name: str
    required: bool
    choices: tuple[str, ...] = ()

    @property
    def one_of(self) -> bool:
        """Whether a dish takes one of its choices: a size, a spice level, a doneness — not a group of add-ons
        the shop lets one tick several of ("Extras": extra cheese and bacon)."""
        return self.required or not ADD_ONS.search(self.name)


ADD_ONS = re.compile(r"\b(?:extras?|toppings?|add[- ]?ons?|additions?|sides?|sauces?|dips?)\b", re.I)
"""The name of a group of choices that are added, not chosen between."""


@dataclass(frozen=True)
class Dish:
    name: str
    price_cents: int
    sold_out: bool = False
    options: tuple[Option, ...] = ()
    has_options: bool = False
    """True also when the narration only said "(has options)" without naming them."""

    @property
    def choices(self) -> list[str]:
        return [choice for option in self.options for choice in option.choices]

    def option_of(self, choice: str) -> Option | None:
        return next((option for option in self.options if choice in option.choices), None)


@dataclass(frozen=True)
class Menu:
    """What a restaurant's page showed."""

    restaurant: str
    dishes: tuple[Dish, ...] = ()
    minimum_cents: int | None = None
    by_name: dict[str, Dish] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self.by_name.update({dish.name: dish for dish in self.dishes})

    @property
    def names(self) -> list[str]:
        return [dish.name for dish in self.dishes]

    def dish(self, name: str) -> Dish | None:
        return self.by_name.get(name)

    @classmethod
    def from_narration(cls, said: str) -> Menu | None:
        """The menu an ``open_restaurant`` narration's first line shows, or None for another sentence."""
        opened = read_opened(said)
        if opened is None:
            return None
        return cls(
            restaurant=opened.restaurant,
            dishes=_dishes(opened.menu),
            minimum_cents=opened.minimum_cents,
        )

    @classmethod
    def from_seen(cls, seen: Seen) -> Menu:
        """The menu a typed record of the page shows (webagent/narration/seen.py)."""
        return cls(
            restaurant=seen.restaurant or "",
            dishes=_dishes(seen.menu),
            minimum_cents=seen.min_order_cents,
        )

    @classmethod
    def from_catalog(cls, restaurant: dict[str, Any]) -> Menu:
        """The menu of one restaurant of ``demo_site/catalog.json``."""
        return cls(
            restaurant=restaurant["name"],
            minimum_cents=restaurant.get("min_order_cents"),
            dishes=tuple(
                Dish(
                    name=dish["name"],
                    price_cents=dish["price_cents"],
                    sold_out=bool(dish.get("sold_out")),
                    has_options=bool(dish.get("options")),
                    options=tuple(
                        Option(o["name"], bool(o["required"]), tuple(c["name"] for c in o["choices"]))
                        for o in dish.get("options") or []
                    ),
                )
                for dish in restaurant["menu"]
            ),
        )


def _dishes(items: Sequence[MenuItem]) -> tuple[Dish, ...]:
    return tuple(
        Dish(
            name=item.name,
            price_cents=item.price_cents,
            sold_out=item.sold_out,
            options=tuple(Option(o.name, o.required, tuple(o.choices)) for o in item.options),
            has_options=item.has_options,
        )
        for item in items
    )
