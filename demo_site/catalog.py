"""The menu in memory: look-ups, accent-insensitive search, and checking a dish's option choices."""

from __future__ import annotations

import unicodedata
from typing import Any

from demo_site.db import ShopDB


class OptionsError(ValueError):
    """Option choices that do not fit the dish; the message is a sentence for the customer."""


def fold(text: str) -> str:
    """Lower-case and strip accents, so "Döner" and "doner" compare equal."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


class Catalog:
    """Restaurants and dishes as seeded in the database; read once, since the catalog never changes."""

    def __init__(self, db: ShopDB) -> None:
        self.restaurants: dict[str, dict[str, Any]] = {r["id"]: r for r in db.restaurants()}
        self.dishes: dict[str, dict[str, Any]] = {
            dish["id"]: dish for restaurant in self.restaurants.values() for dish in restaurant["menu"]
        }
        self._haystacks = {
            rid: fold(" ".join([r["name"], r["cuisine"], *r["tags"], *(d["name"] for d in r["menu"])]))
            for rid, r in self.restaurants.items()
        }

    def cuisines(self) -> list[str]:
        """Every cuisine once, sorted."""
        return sorted({r["cuisine"] for r in self.restaurants.values()})

    def search(self, query: str, cuisine: str, sponsored_first: bool) -> list[dict[str, Any]]:
        """Restaurants whose name, cuisine, tags or dish names contain every word of `query`."""
        words = fold(query).split()
        wanted_cuisine = fold(cuisine.strip())
        found = [
            r
            for rid, r in self.restaurants.items()
            if all(word in self._haystacks[rid] for word in words)
            and (not wanted_cuisine or fold(r["cuisine"]) == wanted_cuisine)
        ]
        found.sort(key=lambda r: (sponsored_first and not r["sponsored"], fold(r["name"])))
        return found

    @staticmethod
    def normalize_options(dish: dict[str, Any], chosen: dict[str, str | list[str]]) -> dict[str, Any]:
        """Check choices against the dish's options and return them in canonical form.

        Required options map to one choice name, optional ones to a list in menu order (omitted
        when empty), so the same choices always merge into the same cart line.
        """
        by_name = {option["name"]: option for option in dish["options"]}
        for name in chosen:
            if name not in by_name:
                offered = ", ".join(by_name) or "none"
                raise OptionsError(f"{dish['name']} has no option {name!r} (options: {offered})")
        normalized: dict[str, Any] = {}
        for option in dish["options"]:
            name = option["name"]
            choices = [choice["name"] for choice in option["choices"]]
            value = chosen.get(name)
            picked = [value] if isinstance(value, str) else list(value or [])
            for pick in picked:
                if pick not in choices:
                    raise OptionsError(f"{name} has no choice {pick!r} (choices: {', '.join(choices)})")
            if option["required"]:
                if len(set(picked)) != 1:
                    verb = "needs a choice" if not picked else "takes only one choice"
                    raise OptionsError(f"{name} {verb} for {dish['name']} ({', '.join(choices)})")
                normalized[name] = picked[0]
            elif picked:
                normalized[name] = [choice for choice in choices if choice in picked]
        return normalized
