"""The words the rules could not place, and whether a model's reading accounts for them: one of the checks
`unaccounted` (webagent/planner/accounts.py) puts a reading to.

- `unread_ask`: words that ask for something ("…, and a chicken korma", "curry palace: chicken biryani &
  2 garlic naan") which the reading neither orders nor keeps as what the menu lacks — dropped in silence;
- `named_again`: a dish the rules placed, named again in such words ("… nah trade the nachos for a chicken
  burrito"), which the reading keeps as it was — whatever the words do to it, the reading does not show;
- `explained`: words left over by a reading that orders what the rules read, borne out by it.

Pure: no browser code.
"""

from __future__ import annotations

import re
from collections import Counter

from webagent.planner.doubts import AMENDS, ORDER_WORDS
from webagent.planner.mentions import (
    NEGATED_BEFORE,
    NEGATING,
    conditional,
    counts_in,
    elsewhere,
    mention_end,
    mentions_of,
    negated,
)
from webagent.planner.menu import Menu
from webagent.planner.spec import GoalReading, Reading
from webagent.planner.words import FILLER, key

__all__ = ["explained", "named_again", "unread_ask"]


NOT_ASKED = re.compile(
    r"(?:people|persons?|guests?|adults?|kids?|child(?:ren)?|friends?|mates?|colleagues?|roommates?|coworkers?"
    r"|family|ppl|folks|others?|minutes?|mins?|hours?|bucks|dollars?|euros?|quid|pounds?|times?|lot|bit|while"
    r"|few|little|couple|total|tip|note|day|night|week)",
    re.I,
)
"""Words after "a"/"3" that count people, time or money, not something to order."""


NOT_A_DISH = re.compile(
    r"\b(?:fees?|tax|tips?|delivery|service|charges?|don['’]?t|doesn['’]?t|isn['’]?t|count|included?|ring|knock"
    r"|door|bell|call|text|leave|asap|hurry|rush)\b",
    re.I,
)
"""Words of a budget's terms, the delivery or a request to the courier: "fees don't count", "ring the bell"."""
PRONOUNS = frozenset({"them", "it", "one", "ones", "those", "these", "they", "both", "all"})
"""Words that stand for a dish already named: "skip them" orders nothing new."""
KEPT_AS_IT_WAS = re.compile(r"\s*(?:stays?|remains?|as (?:it is|is|before|it was)|unchanged|is fine)\b", re.I)
"""After a dish named again, words that leave it as it was: "…, the pad thai stays mild"."""


def named_again(words: str, rules: GoalReading, model: Reading, menu: Menu) -> str | None:
    """A dish the rules placed, named again in words they could not place ("…, nachos supreme, … nah trade
    the nachos for a chicken burrito"), that the reading keeps just as the rules read it: whatever those
    words do to it, the reading does not show (a blind corpus: the swap was read as both, and agreed)."""
    kept = Counter({(w.dish, frozenset(w.choices)): w.quantity for w in model.items})
    for unclear in rules.unclear:
        text, at = unclear.words.text, unclear.words.start
        for item in rules.items:
            if item.words.start >= at:
                continue
            if any(f.instead_of == item.dish for f in model.fallbacks):
                continue  # "if the dumplings are sold out get …": the reading holds what the words do
            lines = {k: n for k, n in kept.items() if k[0] == item.dish}
            again = [
                m
                for m in mentions_of(item.dish, text, menu)
                if not (elsewhere(words, at + m) or conditional(words, at + m))
                and not KEPT_AS_IT_WAS.match(words, at + mention_end(item.dish, text, m))
            ]
            if again and lines == {(item.dish, frozenset(o for o in item.options)): item.quantity}:
                return f'the words name "{item.dish}" again ("{text}"), and it reads it as before'
    return None


def unread_ask(words: str, rules: GoalReading, model: Reading, menu: Menu) -> str | None:
    """Words the rules could not place that ask for something ("2 carnitas tacos and a coke") which the
    reading neither orders nor keeps as what the menu lacks: dropped in silence, so asked about."""
    kept = " ".join(model.off_menu).lower()
    choices = {key(w) for dish in menu.dishes for c in dish.choices for w in c.split()}
    for unclear in rules.unclear:
        text, at = unclear.words.text, unclear.words.start
        if (
            unclear.dish is not None
            or not re.fullmatch(r"[a-z][\w'-]{2,}(?:\s+[a-z][\w'-]*){0,3}", text, re.I)  # "chicken korma"
            or NOT_ASKED.fullmatch(text)
            or any(mentions_of(want.dish, text, menu) for want in model.items)  # "green curry each": read
        ):
            continue
        before = words[max(0, at - 25) : at]
        asks = (
            re.search(
                r"(?:^|[,:;+&\-–—]|\band\b|\bplus\b|\balso\b)\s*(?:a|an|one|two|three|four|five|\d+|some)\s+$",
                before,
                re.I,
            )
            or (  # a line of a list, in words no filler, choice or people: "curry palace: chicken biryani & 2 …"
                len(text.split()) > 1
                and not any(key(w) in FILLER or key(w) in choices or key(w) in PRONOUNS for w in text.split())
                and not AMENDS.search(text)
                and not ORDER_WORDS.search(text)
                and not NOT_A_DISH.search(text)
                and not conditional(words, at)
                and re.search(r"(?:^|[:,+&\-–—])\s*$", before)
                and re.match(r"\s*(?:[,+&]|\band\b|\bplus\b|$)", words[at + len(text) :], re.I)
            )
        )
        if asks and text.lower() not in kept:
            return f'the words ask for "{text}", which it does not read'
    return None


def explained(doubt: str, model: Reading, menu: Menu, words: str) -> bool:
    """Whether words the rules left are borne out by a reading that orders what the rules read: no amending
    words in them, no count the reading lacks, and any dish they name one they take out ("no churros"); or
    the words that take out a dish the reading does not order, left without it ("skip the" of "skip the
    edamame")."""
    at = words.find(doubt)
    ordered = {w.dish for w in model.items}
    if at >= 0 and re.fullmatch(rf"\W*(?:{NEGATING.pattern})(?:\s+(?:the|a|an|any|my|our))*\W*", doubt, re.I):
        end = at + len(doubt)
        return any(
            dish not in ordered
            and m >= end
            and re.fullmatch(r"\W*(?:(?:the|a|an|any|my|our)\W+)*", words[end:m], re.I)
            and negated(words, m)
            for dish in menu.names
            for m in mentions_of(dish, words, menu)
        )
    rest = (
        doubt  # what amends the order, once "skip the edamame" of a dish the reading leaves out is set aside
    )
    for dish in menu.names:
        for m in mentions_of(dish, doubt, menu):
            if dish not in ordered and negated(doubt, m):
                start = NEGATED_BEFORE.search(doubt[max(0, m - 30) : m])
                begin = max(0, m - 30) + start.start() if start else m
                rest = (
                    rest[:begin]
                    + " " * (mention_end(dish, doubt, m) - begin)
                    + rest[mention_end(dish, doubt, m) :]
                )
    if AMENDS.search(rest):
        return False
    quantities = {w.quantity for w in model.items}
    # read in the words around (a doubt may end mid-number: "love this place 10" of "… 10/10 would order")
    near = words[at : at + len(doubt) + 12] if at >= 0 else doubt
    counted = [(place, n) for place, n in counts_in(near) if place < len(doubt)]
    if any(n not in quantities and n != 1 for _, n in counted):
        return False
    for dish in menu.names:
        for at in mentions_of(dish, doubt, menu):  # "my brother had the bun cha last week": none asked for
            if dish in ordered or not (negated(doubt, at) or elsewhere(doubt, at)):
                return False
    return True
