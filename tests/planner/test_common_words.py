"""A common English word is not a typo of a dish (2026-12-06): "… and a coffee for the 2 grown ups" was
2 × Hash Browns ("grown" one letter from "browns"), "butter chicken mild … better be hot when it arrives" a
second Butter Chicken, hot — both ordered by the planner alone with no question. The words drawn here are
wordfreq's own list of English words, not ones the matcher was tuned on.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from wordfreq import top_n_list

from tests.planner.test_reading import USABLE, plain_dishes
from tests.planner.test_third_review import NAMES, RESTAURANTS, agreement
from webagent.planner.goal import read_goal
from webagent.planner.menu import Menu
from webagent.planner.words import closeness, common, key

ENGLISH = [w for w in top_n_list("en", 20_000) if re.fullmatch(r"[a-z]{4,}", w) and common(w)]
"""The words the matcher takes as themselves (rarer ones still may be typos: of 14,000 drawn from the 36,000
most common, "panzer" was read as Palak Paneer and "sprawling" as Sparkling Water, and no other)."""


def _words_of(restaurant: dict[str, object]) -> set[str]:
    text = str(restaurant["menu"])  # its dishes' names and choices alike
    return {key(w) for w in re.findall(r"[A-Za-z']+", text)}


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(USABLE),
    st.sampled_from(ENGLISH),
    st.sampled_from(["for the 2 {w}", "{w} please", "and {w}"]),
)
def test_a_common_word_orders_no_dish(restaurant: str, word: str, form: str) -> None:
    """ "a A and a B for the 2 <word>": the rules read no dish but A and B, whatever the English word."""
    if key(word) in _words_of(RESTAURANTS[restaurant]):
        return
    a, b = plain_dishes(RESTAURANTS[restaurant])[:2]
    goal = f"{restaurant}: a {a.lower()} and a {b.lower()} " + form.format(w=word)
    read = read_goal(goal, NAMES, Menu.from_catalog(RESTAURANTS[restaurant]))
    assert {i.dish for i in read.items} <= {a, b}, (goal, read.items)


def test_the_wrong_orders_found_are_asked() -> None:
    for restaurant, goal in (
        ("Pancake House", "pancake house: blueberry pancakes and a coffee for the 2 grown ups"),
        ("Curry Palace", "curry palace: butter chicken mild, a garlic naan. better be hot when it arrives"),
    ):
        found = agreement(goal, restaurant, None)
        assert found.verdict == "unread" and found.doubts, (goal, found.rules.items)


def test_typos_and_spellings_are_still_read() -> None:
    assert closeness("grown", "brown") is None and closeness("share", "shake") is None
    assert closeness("friend", "fried") is None and closeness("break", "bread") is None
    assert closeness("calm", "clam") is None and closeness("match", "matcha") is None
    for written, shown in (
        ("chiken", "chicken"),  # a misspelling, no word
        ("lasagne", "lasagna"),
        ("desert", "dessert"),  # a word, but a doubled letter
        ("cheese", "cheesy"),  # a last vowel
        ("margarita", "margherita"),  # rarer than the bar
    ):
        assert closeness(written, shown) is not None, written
