"""What a transcript orders: the planner's goal reader, held to the names the shop showed.

The voice layer reads names only through the browser (`webagent.voice.vocabulary`); this module gives
the goal reader those names — the restaurants, and the menu of the one the transcript names — so that
a transcript reads as the typed goal would once the agent has opened that restaurant.
"""

from __future__ import annotations

from rapidfuzz import fuzz, process, utils

from webagent.planner.goal import read_goal
from webagent.planner.menu import Dish, Menu, Option
from webagent.planner.spec import GoalReading
from webagent.voice.vocabulary import RestaurantNames, ShopVocabulary

__all__ = ["names_an_order", "read_spoken"]


def _menu(restaurant: RestaurantNames) -> Menu:
    """A menu of the names the shop showed; the vocabulary keeps choices, not their groups or prices."""
    return Menu(
        restaurant=restaurant.name,
        dishes=tuple(
            Dish(
                name=dish.name,
                price_cents=0,
                options=(Option("Choice", False, tuple(dish.choices)),) if dish.choices else (),
                has_options=bool(dish.choices),
            )
            for dish in restaurant.dishes
        ),
    )


def read_spoken(text: str, vocabulary: ShopVocabulary | None = None) -> GoalReading:
    """Read ``text`` against the shop's restaurants and, when it names one, that restaurant's menu."""
    names = [restaurant.name for restaurant in vocabulary.restaurants] if vocabulary else []
    reading = read_goal(text, names)
    if vocabulary is None or reading.restaurant is None:
        return reading
    named = next((r for r in vocabulary.restaurants if r.name == reading.restaurant.name), None)
    return read_goal(text, names, _menu(named)) if named is not None and named.dishes else reading


def names_an_order(text: str, vocabulary: ShopVocabulary | None = None) -> bool:
    """Whether the goal reader finds something to order in ``text``.

    With the shop's names: a dish of the restaurant it names, or words close to some dish the shop
    shows. Without them (the names were not read): words the goal reader takes as naming dishes.
    """
    reading = read_spoken(text, vocabulary)
    if reading.items or any(unclear.candidates for unclear in reading.unclear):
        return True
    if vocabulary is None:
        return bool(reading.phrases)
    dishes = sorted({dish.name for r in vocabulary.restaurants for dish in r.dishes})
    return any(
        process.extractOne(
            phrase.text, dishes, scorer=fuzz.partial_ratio, processor=utils.default_process, score_cutoff=85
        )
        is not None
        for phrase in reading.phrases
    )
