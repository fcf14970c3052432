"""A restaurant's menu as its narration shows it: dishes, prices, sold-out marks and each dish's choices.

`Menu.from_narration` reads the sentence ``open_restaurant`` returns::

    Opened "Italian Bistro". Minimum order $15.00. Menu: "Margherita Pizza" $11.50 (choose Size:
    "Regular" or "Large"; optional Extras: "Extra cheese", "Bacon"), "Tiramisu" $7.50, …

(shapes: webagent/narration/narrate.py ``menu_listing`` and webagent/narration/said.py ``opened``). `Menu.from_catalog`
builds the same thing from the shop's catalog, for tests.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from webagent.narration.money import parse_cents

__all__ = ["Dish", "Menu", "Option"]

ENTRY = re.compile(
    r'"(?P<name>[^"]*)" (?P<price>-?\$\d+\.\d\d)(?P<sold> \(sold out\))?'
    r'(?: \((?P<note>(?:[^()"]|"[^"]*")*)\))?(?:, |\.?$)'
)
OPENED = re.compile(
    r'^(?:Opened "(?P<a>[^"]+)"\.|"(?P<b>[^"]+)" is already open\.)(?P<rest>.*?) Menu: (?P<menu>.*)$'
)


@dataclass(frozen=True)
class Option:
    """A choice a dish asks for: ``Size`` (required) with ``Regular`` or ``Large``."""

    name: str
    required: bool
    choices: tuple[str, ...] = ()


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
        opened = OPENED.match(said)
        if opened is None:
            return None
        minimum = re.search(r"Minimum order (\$\d+\.\d\d)", opened.group("rest"))
        dishes = [_dish(entry) for entry in ENTRY.finditer(opened.group("menu"))]
        return cls(
            restaurant=opened.group("a") or opened.group("b"),
            dishes=tuple(dishes),
            minimum_cents=parse_cents(minimum.group(1)) if minimum else None,
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


def _dish(entry: re.Match[str]) -> Dish:
    note = entry.group("note") or ""
    options = tuple(_option(part) for part in note.split("; ") if part.startswith(("choose ", "optional ")))
    return Dish(
        name=entry.group("name"),
        price_cents=parse_cents(entry.group("price")) or 0,
        sold_out=bool(entry.group("sold")),
        options=options,
        has_options=bool(options) or note == "has options",
    )


def _option(part: str) -> Option:
    """``choose Size: "Regular" or "Large"`` or ``optional Extras: "Extra cheese", "Bacon"``."""
    kind, _, rest = part.partition(" ")
    name, _, listed = rest.partition(": ")
    return Option(name=name, required=kind == "choose", choices=tuple(re.findall(r'"([^"]*)"', listed)))
