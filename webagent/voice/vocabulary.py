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
from typing import TYPE_CHECKING

from playwright.async_api import Page
from pydantic import BaseModel, Field, ValidationError

from webagent.state import read_state

if TYPE_CHECKING:
    from webagent.browser import PageSession

__all__ = ["DishNames", "RestaurantNames", "ShopVocabulary", "cache_dir", "shop_vocabulary"]

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


def cache_dir() -> Path:
    """``$WEBAGENT_CACHE_DIR``, else ``$XDG_CACHE_HOME/webagent``, else ``~/.cache/webagent``."""
    explicit = os.environ.get("WEBAGENT_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "webagent"


_CARD_LINKS_JS = """
() => Array.from(document.querySelectorAll('[data-testid="restaurant-card"]')).map((card) => {
  const link = Array.from(card.querySelectorAll("a[href]")).find((a) => a.textContent.trim().startsWith("Open"))
      || card.querySelector("a[href]");
  return link ? link.getAttribute("href") : "";
})
"""

_MENU_READY_JS = """() => document.body && document.body.dataset.view === "restaurant"
    && document.querySelector('[data-testid="menu-item"]')
    && !document.querySelector('[data-testid="menu-skeleton"]')"""


async def shop_vocabulary(session: PageSession, cache: Path | None = None) -> ShopVocabulary:
    """The shop's names, from the cache when this shop's front page was read before.

    Opens a browser context of its own on the shop (next to the run's), reads the front page, and —
    unless the cache has this restaurant list — every restaurant's menu.
    """
    browser = session.context.browser
    if browser is None:  # a persistent context has no browser to open another context in
        return await _read(session.page, session.url("/"), cache)
    context = await browser.new_context()
    try:
        return await _read(await context.new_page(), session.url("/"), cache)
    finally:
        await context.close()


async def _read(page: Page, front: str, cache: Path | None) -> ShopVocabulary:
    await page.goto(front, wait_until="domcontentloaded")
    await page.wait_for_function(
        "() => document.body && document.body.dataset.view === 'restaurants'", timeout=MENU_TIMEOUT_MS
    )
    state = await read_state(page)
    names = [card.name for card in state.restaurants]
    key = hashlib.sha256(json.dumps(sorted(names)).encode()).hexdigest()[:16]
    path = (cache or cache_dir()) / "shop-vocabulary" / f"{key}.json"
    try:
        return ShopVocabulary.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, ValidationError):
        pass  # not cached yet (or an unreadable cache file): read the menus
    links = await page.evaluate(_CARD_LINKS_JS)
    restaurants: list[RestaurantNames] = []
    for name, link in zip(names, links, strict=False):
        if not link:
            restaurants.append(RestaurantNames(name=name))
            continue
        await page.goto(
            front.rstrip("/") + link if link.startswith("/") else link, wait_until="domcontentloaded"
        )
        await page.wait_for_function(_MENU_READY_JS, timeout=MENU_TIMEOUT_MS)
        menu = (await read_state(page)).menu
        dishes = [
            DishNames(name=dish.name, choices=[c for option in dish.options for c in option.choices])
            for dish in menu
        ]
        restaurants.append(RestaurantNames(name=name, dishes=dishes))
    vocabulary = ShopVocabulary(key=key, restaurants=restaurants)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(vocabulary.model_dump_json(indent=1), encoding="utf-8")
    os.replace(temporary, path)
    return vocabulary
