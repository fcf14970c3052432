"""The shop's ground truth for judging why a run stopped: restaurants, menus, sold-out dishes, minimums,
promo codes, the checkout's defaults — read from the shop's own database, or from its seed catalog.

A task run in a fresh shop is judged against that shop's SQLite file (tables ``restaurants``, ``dishes``,
``promo_codes``, ``settings``; docs/shop-contract.md). A task run against a shared shop (``--shop-url``)
has no database here: the catalog the shop was seeded from (demo_site/catalog.json) stands in for it.
Read only, never through the shop's code: a file and a JSON document.
"""

from __future__ import annotations

import importlib.util
import json
import sqlite3
import unicodedata
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["Dish", "Promo", "Restaurant", "ShopFacts", "fold"]


def fold(text: str) -> str:
    """Case, accents and spacing folded away: ``"Le Petit Café "`` → ``"le petit cafe"``."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return " ".join(plain.casefold().split())


@dataclass(frozen=True)
class Dish:
    name: str
    sold_out: bool
    price_cents: int
    choices: tuple[str, ...] = ()
    """Every choice of every option the dish offers."""
    words: str = ""
    """Its description and category, for "which restaurants sell X"."""


@dataclass(frozen=True)
class Restaurant:
    name: str
    min_order_cents: int
    tags: tuple[str, ...]
    cuisine: str
    dishes: tuple[Dish, ...]

    def dish(self, name: str) -> Dish | None:
        return next((dish for dish in self.dishes if fold(dish.name) == fold(name)), None)

    def offers(self, words: str) -> bool:
        """Whether any dish's name, or any of its choices, holds ``words``."""
        wanted = fold(words)
        return any(
            wanted in fold(dish.name) or any(wanted in fold(choice) for choice in dish.choices)
            for dish in self.dishes
        )

    def sells(self, food: str) -> bool:
        """Whether the restaurant sells ``food``: its name, tags or a dish (name, description, category)
        say so — the shop's own search matches the same places."""
        wanted = fold(food)
        places = [self.name, *self.tags, *(f"{dish.name} {dish.words}" for dish in self.dishes)]
        return any(wanted in fold(place) for place in places)


@dataclass(frozen=True)
class Promo:
    code: str
    expired: bool
    min_subtotal_cents: int

    def refuses(self, subtotal_cents: int | None) -> bool:
        """Whether the shop refuses this code for a cart of ``subtotal_cents`` (None: not known)."""
        if self.expired:
            return True
        return subtotal_cents is not None and subtotal_cents < self.min_subtotal_cents


@dataclass(frozen=True)
class ShopFacts:
    """What the shop holds, by folded name."""

    restaurants: dict[str, Restaurant]
    promos: dict[str, Promo]
    delivery_slots: tuple[str, ...] = ()
    payment_methods: tuple[str, ...] = ()
    source: str = field(default="catalog", compare=False)

    def restaurant(self, name: str | None) -> Restaurant | None:
        return self.restaurants.get(fold(name)) if name else None

    def promo_refused(self, code: str, subtotal_cents: int | None) -> bool:
        """Whether the shop refuses ``code`` (unknown codes included) for that subtotal."""
        promo = self.promos.get(code.strip().upper())
        return promo is None or promo.refuses(subtotal_cents)

    def named_restaurants(self, text: str) -> list[str]:
        """The restaurants ``text`` names, longest names first so that "Sushi House Premium" is not also
        "Sushi House"; each named once, in catalog spelling."""
        left = f" {fold(text)} "
        found: list[str] = []
        for restaurant in sorted(self.restaurants.values(), key=lambda r: -len(r.name)):
            key = fold(restaurant.name)
            spots = [
                i
                for i in _find_all(left, key)
                if not left[i - 1].isalnum() and not left[i + len(key)].isalnum()
            ]
            if spots:
                found.append(restaurant.name)
                for i in spots:
                    left = left[:i] + " " * len(key) + left[i + len(key) :]
        return found

    @classmethod
    def from_db(cls, path: Path) -> ShopFacts:
        """The facts in a shop's SQLite file; the seed catalog when there is no such file."""
        if not path.exists():
            return cls.from_catalog()
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        conn.row_factory = sqlite3.Row
        try:
            menus: dict[str, list[dict[str, Any]]] = {}
            for row in conn.execute("SELECT * FROM dishes ORDER BY restaurant_id, position"):
                menus.setdefault(row["restaurant_id"], []).append(
                    {**dict(row), "options": json.loads(row["options_json"])}
                )
            restaurants = [
                {**dict(row), "tags": json.loads(row["tags_json"]), "menu": menus.get(row["id"], [])}
                for row in conn.execute("SELECT * FROM restaurants ORDER BY position")
            ]
            promos = [dict(row) for row in conn.execute("SELECT * FROM promo_codes")]
            settings = {
                row["key"]: json.loads(row["value_json"]) for row in conn.execute("SELECT * FROM settings")
            }
        finally:
            conn.close()
        return cls._of(restaurants, promos, settings, f"database {path}")

    @classmethod
    def from_catalog(cls) -> ShopFacts:
        """The facts the shop is seeded with (demo_site/catalog.json)."""
        return _catalog()

    @classmethod
    def _of(
        cls,
        restaurants: list[dict[str, Any]],
        promos: list[dict[str, Any]],
        settings: dict[str, Any],
        source: str,
    ) -> ShopFacts:
        built = {
            fold(r["name"]): Restaurant(
                name=r["name"],
                min_order_cents=int(r["min_order_cents"]),
                tags=tuple(r.get("tags") or ()),
                cuisine=str(r.get("cuisine", "")),
                dishes=tuple(
                    Dish(
                        name=d["name"],
                        sold_out=bool(d["sold_out"]),
                        price_cents=int(d["price_cents"]),
                        choices=tuple(
                            str(c["name"] if isinstance(c, dict) else c)
                            for option in d.get("options") or []
                            for c in option.get("choices") or []
                        ),
                        words=f"{d.get('description', '')} {d.get('category', '')}",
                    )
                    for d in r.get("menu") or []
                ),
            )
            for r in restaurants
        }
        codes = {
            str(p["code"]).upper(): Promo(
                code=str(p["code"]).upper(),
                expired=bool(p["expired"]),
                min_subtotal_cents=int(p["min_subtotal_cents"]),
            )
            for p in promos
        }
        return cls(
            built,
            codes,
            tuple(settings.get("delivery_slots") or ()),
            tuple(settings.get("payment_methods") or ()),
            source,
        )


def _find_all(text: str, key: str) -> list[int]:
    spots, start = [], text.find(key)
    while start != -1 and key:
        spots.append(start)
        start = text.find(key, start + 1)
    return spots


def catalog_path() -> Path:
    """demo_site/catalog.json, found without importing the shop's server."""
    spec = importlib.util.find_spec("demo_site")
    if spec is None or spec.origin is None:
        raise FileNotFoundError("the demo shop (demo_site) is not installed: no catalog to judge by")
    return Path(spec.origin).with_name("catalog.json")


@cache
def _catalog() -> ShopFacts:
    data = json.loads(catalog_path().read_text(encoding="utf-8"))
    return ShopFacts._of(data["restaurants"], data["promo_codes"], data, "catalog")
