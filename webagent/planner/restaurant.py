"""Which restaurant, and its menu: the one the goal names, the one an answer names, the one already open
in a chat — or the one a search finds for every dish the goal names. Also the searches themselves."""

from __future__ import annotations

import re
from typing import Any

from webagent.narration.names import resolve
from webagent.narration.said import read_not_found, read_searched
from webagent.planner import questions
from webagent.planner.decision import Decision
from webagent.planner.dishes import read_against
from webagent.planner.goal import COMMON_CHOICE_WORDS
from webagent.planner.menu import Menu
from webagent.planner.plan import Plan, ask, finish
from webagent.planner.words import FILLER, key

__all__ = ["choose_restaurant", "found_restaurants", "open_menu", "search_queries", "search_words"]

RESTAURANT_QUESTIONS = (
    "The shop's search",
    "Several restaurants sell",  # as an earlier version asked it: a resumed run's answer still counts
    "I could not find a restaurant",  # as asked before
    "The shop has no restaurant",
)
QUESTION_WORDS = frozenset(
    key(word)
    for word in [
        "restaurants",
        "restaurant",
        "have",
        "has",
        "sell",
        "sells",
        "serve",
        "serves",
        "offer",
        "offers",
        "do",
        "does",
        "you",
        "which",
        "who",
        "where",
        "how",
        "there",
        "any",
        "can",
        "i",
        "find",
        "shop",
        "shops",
        "place",
        "places",
        "is",
        "are",
    ]
)


def choose_restaurant(d: Decision) -> str | Plan:
    """The restaurant to order from, or the turn that finds out (a search, a question)."""
    answered = [a for a in d.asked if a.question.startswith(RESTAURANT_QUESTIONS) and a.answer]
    if answered:
        answer = str(answered[-1].answer)
        return questions.pick(answer, answered[-1].choices or d.restaurants) or answer
    if d.reading.restaurant:
        return d.reading.restaurant.name
    if d.order and d.order.restaurant:
        return resolve(d.order.restaurant, d.restaurants).found or d.order.restaurant
    here = d.t.open_restaurant()
    menu = d.t.menu_of(here) if here else None
    if here and menu:
        reading = read_against(d, menu)
        if reading.items and not reading.unclear:
            return here  # a follow-up in a chat, about the restaurant already open
    return search(d)


def search(d: Decision) -> str | Plan:
    """Find the restaurant that sells every dish named: one search per dish phrase, then narrow."""
    phrases = [item.dish for item in d.order.items] if d.order else [p.text for p in d.reading.phrases]
    results = {
        plain(str(s.args.get("query", ""))): found
        for s in d.steps
        if s.name == "search_restaurants" and (found := found_restaurants(s.said)) is not None
    }
    calls: list[tuple[str, dict[str, Any]]] = []
    lists: list[list[str]] = []
    queries: list[str] = []  # the search each list came from
    for phrase in phrases:
        for query in search_queries(phrase):
            if plain(query) not in results:
                calls.append(("search_restaurants", {"query": query}))
                break
            if results[plain(query)]:
                lists.append(results[plain(query)])
                queries.append(query)
                break
    dishes = " and ".join(phrases) or "what you asked for"
    if calls:
        return Plan(f"No restaurant named; searching for {', '.join(c[1]['query'] for c in calls)}.", calls)
    if not lists:
        return ask(questions.no_restaurant(dishes))
    candidates = list(lists[0])
    for names in lists[1:]:
        candidates = [c for c in candidates if c in names] or candidates
    if len(candidates) == 1:
        return candidates[0]
    every = all(c in names for c in candidates for names in lists)
    return ask(
        questions.which_restaurant(" and ".join(queries), candidates, "" if every else queries[0]), candidates
    )


def open_menu(d: Decision, restaurant: str) -> Menu | Plan:
    """The menu of ``restaurant`` as its page showed it in this request — opening it if need be."""
    opens = [s for s in d.steps if s.name == "open_restaurant"]
    last = opens[-1] if opens else None
    if last is not None and last.result is not None:
        menu = Menu.from_narration(last.said)
        if menu is not None and (menu.restaurant == restaurant or last.args.get("name") == restaurant):
            return menu
        if menu is None and last.args.get("name") == restaurant:
            missing = read_not_found(last.said)
            unknown = missing is not None and missing.kind == "restaurant" and not missing.ambiguous
            suggested = list(missing.candidates) if missing and unknown else []
            if suggested:
                question = f'The shop has no restaurant called "{restaurant}". Which did you mean: {questions.or_list(suggested)}?'
                return ask(question, suggested)
            if sum(1 for s in opens if s.args.get("name") == restaurant) >= 2:
                return finish("failed", f"Could not open {restaurant}: {last.said}")
    if last is None and d.t.open_restaurant() == restaurant:
        menu = d.t.menu_of(restaurant)
        if menu is not None:
            return menu  # a chat: the page already shows it
    return Plan(f"Opening {restaurant}.", [("open_restaurant", {"name": restaurant})])


def plain(query: str) -> str:
    return " ".join(query.lower().split())


def found_restaurants(said: str) -> list[str] | None:
    """The restaurants a search narration lists ([] for none), or None for another sentence."""
    found = read_searched(said)
    return [name for name in found if name] if found is not None else None


def search_words(phrase: str, question: bool = False) -> list[str]:
    """The words to search the shop for: no filler, numbers or size words; plurals as the shop spells
    them ("pizzas" → "pizza", but "fries" stays: the shop matches words as substrings)."""
    skip = FILLER | COMMON_CHOICE_WORDS | (QUESTION_WORDS if question else frozenset())
    found = []
    for word in re.findall(r"[^\W\d_][\w']*", phrase):
        lower = word.lower()
        if key(word) in skip:
            continue
        if lower.endswith("ies"):
            found.append(lower[:-1])  # "fries" → "frie", "pies" → "pie": a substring either way
        elif lower.endswith("ie"):
            found.append(lower)  # "cookie": its key "cooky" is no substring of anything
        else:
            found.append(key(word))
    return found


def search_queries(phrase: str) -> list[str]:
    """The searches to try for one dish phrase, best first: all its words, each "and" part, then fewer
    leading words ("large hawaiian pizza" → "hawaiian pizza" → "pizza")."""
    words = search_words(phrase)
    parts = [search_words(part) for part in re.split(r"\s+(?:and|&|plus)\s+", phrase) if part.strip()]
    queries = [" ".join(words)] if words else []
    queries += [" ".join(part) for part in parts if part and len(parts) > 1]
    queries += [" ".join(words[i:]) for i in range(1, len(words))]
    return list(dict.fromkeys(query for query in queries if query))
