"""Questions about the shop, answered from what its pages show: which restaurants sell something (a
search), what a restaurant has (its menu), what is in the cart (``view_cart``). In ``webagent chat`` a
message is such a question when it asks one ("what restaurants have sushi?") and orders nothing."""

from __future__ import annotations

import re

from webagent.narration.money import money
from webagent.planner.decision import Decision
from webagent.planner.menu import Menu
from webagent.planner.plan import Plan, finish
from webagent.planner.restaurant import found_restaurants, search_words

__all__ = ["answer_question", "kind_of"]

GO_ON = re.compile(r"\b(go on|continue|carry on|keep going|proceed|go ahead)\b")
ORDER_VERBS = re.compile(
    r"\b(order|buy|get me|i'?d like|i would like|i want|we want|can i (have|get)|could i (have|get)"
    r"|may i have|send me|bring me)\b"
)
QUESTION_START = re.compile(
    r"^(what|what's|whats|which|who|where|how|do you|does|is there|are there|any |show me|list|tell me"
    r"|can you tell)\b"
)
CART_WORDS = re.compile(r"\b(cart|basket)\b")
MENU_WORDS = re.compile(r"\b(menu|serve|serves|sell|sells|have|has|offer|offers|on the)\b")


def kind_of(words: str) -> str:
    """``"go on"`` (carry on with the order before), ``"question"`` (about the shop) or ``"order"``."""
    text = " ".join(words.lower().split())
    if GO_ON.search(text):
        return "go on"
    if ORDER_VERBS.search(text):
        return "order"
    if QUESTION_START.match(text) or text.endswith("?"):
        return "question"
    return "order"


def answer_question(d: Decision) -> Plan:
    """Answer from what the pages show: the cart, a restaurant's menu, or a search."""
    text = d.words.lower()
    if CART_WORDS.search(text):
        view = d.result_of("view_cart", {})
        if view is None:
            return Plan("Looking at the cart.", [("view_cart", {})])
        return finish("done", view.said)
    spotted = d.reading.restaurant
    if spotted and (MENU_WORDS.search(text) or not d.reading.phrases):
        opened = d.result_of("open_restaurant", {"name": spotted.name})
        if opened is None:
            return Plan(f"Opening {spotted.name}.", [("open_restaurant", {"name": spotted.name})])
        menu = Menu.from_narration(opened.said)
        if menu is None:
            return finish("done", opened.said)
        dishes = ", ".join(
            f"{dish.name} ({money(dish.price_cents)}{', sold out' if dish.sold_out else ''})"
            for dish in menu.dishes
        )
        return finish("done", f"{menu.restaurant} has: {dishes}.")
    query = " ".join(
        word for phrase in d.reading.phrases for word in search_words(phrase.text, question=True)
    )
    if not query:
        return finish(
            "done", "I can tell you which restaurants sell a dish, what a menu has, or what is in your cart."
        )
    found = d.result_of("search_restaurants", {"query": query})
    if found is None:
        return Plan(f"Searching the shop for {query}.", [("search_restaurants", {"query": query})])
    names = found_restaurants(found.said) or []
    if not names:
        return finish("done", f"The shop's search found no restaurant for {query}.")
    # what the search listed, no more: a restaurant may come up for a tag, not a dish on its menu
    return finish("done", f"The shop's search for {query} found: {', '.join(names)}.")
