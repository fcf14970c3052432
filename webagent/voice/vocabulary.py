"""The names a spoken order can use — restaurants, dishes, option choices — read from the shop's pages.

webagent sees the shop only through the browser, so the vocabulary is read the way a person would
collect it: the restaurant list on the front page, then each restaurant's menu (dish names and the
choices each dish shows). That takes a page load per restaurant, so it is cached per shop, keyed by
the restaurant list the front page shows (the embedded shop gets a new port on every run, so the URL
cannot be the key). The reading runs in a browser context of its own, so the run's page, cart and
activity log are untouched.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page
from pydantic import BaseModel, Field, ValidationError

from webagent.errors import ShopUnreachable
from webagent.sites.demo_shop.reader import read_state
from webagent.sites.demo_shop.vocabulary import CARDS_JS, LIST_READY_JS, MENU_READY_JS

if TYPE_CHECKING:
    from webagent.browser.session import PageSession

__all__ = ["DishNames", "RestaurantNames", "ShopVocabulary", "cache_dir", "from_catalog", "shop_vocabulary"]

MENU_TIMEOUT_MS = 15_000


class DishNames(BaseModel):
    """A dish as its menu shows it, with every choice its options offer."""

    name: str
    choices: list[str] = Field(default_factory=list)


class RestaurantNames(BaseModel):
    name: str
    dishes: list[DishNames] = Field(default_factory=list)


class ShopVocabulary(BaseModel):
    """Every name a spoken order may use, as the shop's pages show them."""

    key: str
    """A digest of the front page's restaurant list: the cache key."""
    restaurants: list[RestaurantNames] = Field(default_factory=list)

    def size(self) -> str:
        """``"26 restaurants, 208 dishes"``, for messages."""
        dishes = sum(len(r.dishes) for r in self.restaurants)
        return f"{len(self.restaurants)} restaurants, {dishes} dishes"


def from_catalog(catalog: dict[str, Any], key: str = "catalog") -> ShopVocabulary:
    """The names a shop built from ``catalog`` (demo_site/catalog.json's shape) shows: for tests and
    benchmarks, which know the catalog; a run reads the names through the browser instead."""
    return ShopVocabulary(
        key=key,
        restaurants=[
            RestaurantNames(
                name=r["name"],
                dishes=[
                    DishNames(name=d["name"], choices=[c["name"] for o in d["options"] for c in o["choices"]])
                    for d in r["menu"]
                ],
            )
            for r in catalog["restaurants"]
        ],
    )


def cache_dir() -> Path:
    """``$WEBAGENT_CACHE_DIR``, else ``$XDG_CACHE_HOME/webagent``, else ``~/.cache/webagent``."""
    explicit = os.environ.get("WEBAGENT_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "webagent"


# A page that shows an error ("The kitchen is busy, try again") is given up on at once and loaded again.
_FAILED = """Array.from(document.querySelectorAll('[role="alert"]')).some((e) => !e.hidden && e.textContent.trim())"""
ATTEMPTS = 3
"""Loads of a menu before its restaurant is left without dish names (a busy kitchen answers 503)."""


async def shop_vocabulary(session: PageSession, cache: Path | None = None) -> ShopVocabulary:
    """The shop's names, from the cache when this shop's front page was read before.

    Opens a browser context of its own on the shop (next to the run's), reads the front page, and —
    unless the cache has this restaurant list — every restaurant's menu. A menu that does not load
    after `ATTEMPTS` tries leaves that restaurant without dishes, and such a partial reading is not
    cached. `ShopUnreachable` when even the front page does not load.
    """
    browser = session.context.browser
    if browser is None:  # webagent's contexts always have one; a persistent context would not
        raise ShopUnreachable("reading the shop's names needs a browser that can open a second context")
    try:
        context = await browser.new_context()
        try:
            return await _read(await context.new_page(), session.url("/"), cache)
        finally:
            await context.close()
    except PlaywrightError as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ShopUnreachable(
            f"could not read the shop's restaurant list for speech recognition: {first}"
        ) from error


async def _read(page: Page, front: str, cache: Path | None) -> ShopVocabulary:
    if not await _load(page, front, LIST_READY_JS):
        raise ShopUnreachable(
            f"the shop's restaurant list at {front} would not load (tried {ATTEMPTS} times)"
        )
    cards = [card for card in await page.evaluate(CARDS_JS) if card["name"]]
    names = [card["name"] for card in cards]
    key = hashlib.sha256(json.dumps(sorted(names)).encode()).hexdigest()[:16]
    path = (cache or cache_dir()) / "shop-vocabulary" / f"{key}.json"
    try:
        return ShopVocabulary.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, ValidationError):
        pass  # not cached yet (or an unreadable cache file): read the menus
    restaurants: list[RestaurantNames] = []
    complete = True
    for card in cards:
        link = str(card["link"])
        menu = await _menu(page, front.rstrip("/") + link if link.startswith("/") else link) if link else None
        complete = complete and menu is not None
        restaurants.append(RestaurantNames(name=card["name"], dishes=menu or []))
    vocabulary = ShopVocabulary(key=key, restaurants=restaurants)
    if not complete:
        return vocabulary  # good enough for this run; the next one reads the menus again
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(vocabulary.model_dump_json(indent=1), encoding="utf-8")
    os.replace(temporary, path)
    return vocabulary


async def _load(page: Page, url: str, ready: str) -> bool:
    """Load ``url`` until the page is ``ready`` (a JS condition), at most `ATTEMPTS` times."""
    for _ in range(ATTEMPTS):
        try:
            await page.goto(url, wait_until="domcontentloaded")
            await page.wait_for_function(f"() => ({ready}) || ({_FAILED})", timeout=MENU_TIMEOUT_MS)
            if await page.evaluate(f"() => !!({ready})"):
                return True
        except PlaywrightError:
            continue
    return False


async def _menu(page: Page, url: str) -> list[DishNames] | None:
    """A restaurant's dishes and their choices, or None when its menu would not load."""
    if not await _load(page, url, MENU_READY_JS):
        return None
    menu = (await read_state(page)).menu
    return [DishNames(name=d.name, choices=[c for o in d.options for c in o.choices]) for d in menu]
