"""What the words hold in reserve: whether they state a fallback ("if the dragon roll is sold out, a spicy
tuna roll"; "else nothing"), for which dish, and what of a model's reading they cannot bear and taking
away orders nothing more (`pruned`).

Used by the checks of a model's reading (webagent/planner/accounts.py) and by the model reader, which is
not offered a fallback where the words hold no condition (`may_fall_back`). Pure: no browser code.
"""

from __future__ import annotations

import re
from dataclasses import replace

from webagent.planner.mentions import (
    CONDITION,
    ELSE,
    IF_AVAILABLE,
    NOTHING,
    SENTENCE,
    UNAVAILABLE,
    asked_mentions,
    conditional,
    mention_end,
    mentions_of,
    negated,
    others_after,
    written_at,
)
from webagent.planner.menu import Menu
from webagent.planner.spec import Fallback, Reading, Want

__all__ = ["may_fall_back", "pruned", "stated_fallback", "unread_fallback"]


def may_fall_back(words: str) -> bool:
    """Whether the words could state a fallback at all: a condition ("if", "else", "unless", "in case") or
    an "or" ("a flapjack, or a brownie if they're gone")."""
    return bool(CONDITION.search(words) or re.search(r"\bor\b", words, re.I))


def stated_fallback(fallback: Fallback, words: str, menu: Menu) -> bool:
    """Whether the words state ``fallback``: "nothing" in a condition at its dish, or its dish in reserve
    named in a condition."""
    if not may_fall_back(words):
        return False
    if fallback.take is None:  # "if no X, nothing" or "X, or if it's unavailable, nothing"
        dish = fallback.instead_of
        for at in mentions_of(dish, words, menu):
            if conditional(words, at) and NOTHING.search(SENTENCE.split(words[at : at + 80])[0]):
                return True
            condition = CONDITION.search(clause := _reserve(dish, words, menu, at))
            if condition is not None and NOTHING.search(clause, condition.end()):
                return True
        return False
    return any(
        conditional(words, at)
        and _condition_on(fallback.instead_of, words, menu, at)
        and not negated(words, at)  # "anything except a salmon poke bowl"
        and not REFUSES.search(words[max(0, at - 40) : at])  # "I don't want salmon poke bowl"
        for at in mentions_of(fallback.take.dish, words, menu)
    )


def unread_fallback(words: str, model: Reading, menu: Menu) -> str | None:
    """A dish the words hold in reserve for one the reading orders ("a dragon roll if available, otherwise a
    california roll"), where the reading holds no fallback for it: why, or None."""
    ordered = model.per_dish()
    for want in model.items:
        if any(f.instead_of == want.dish for f in model.fallbacks):
            continue
        for other in menu.names:
            if other not in ordered and stated_fallback(Fallback(want.dish, Want(other)), words, menu):
                return f'the words hold "{other}" in reserve for "{want.dish}", which it does not read'
        for at in mentions_of(want.dish, words, menu):  # "2 tiramisu if you have them, otherwise 1"
            sentence = SENTENCE.split(_reserve(want.dish, words, menu, at))[0]
            held = re.search(rf"\b{ELSE}\b(.*)", sentence, re.I) if IF_AVAILABLE.search(sentence) else None
            if held and not NOTHING.search(held.group(1)):
                return f'the words hold "{held.group(0).strip()}" in reserve for "{want.dish}"'
    return None


def _condition_on(dish: str, words: str, menu: Menu, at: int) -> bool:
    """Whether the condition the mention at ``at`` stands in is about ``dish``: named between the condition's
    word and the mention ("if the dragon roll is sold out get a spicy tuna roll"), or the dish written last
    before that word ("a dragon roll, or if it's sold out a spicy tuna roll"); not another dish of the order
    ("a carbonara and a lasagna, if the lasagna is sold out a salad" holds the salad for the lasagna only)."""
    conditions = [m for m in CONDITION.finditer(words[:at]) if not m.group(0).lower().startswith("unless")]
    if not conditions:  # "a spicy tuna roll if the dragon roll is sold out": the condition follows
        after = CONDITION.search(words, at)
        if after is None or after.group(0).lower().startswith("unless"):
            return False
        clause = SENTENCE.split(words[after.start() :])[0]
        unavailable = UNAVAILABLE.search(clause) or re.match(r"(?:if|in case)\s+no\b", clause, re.I)
        return bool(mentions_of(dish, clause, menu)) and unavailable is not None
    start = conditions[-1].start()
    clause = words[start:at]
    if not UNAVAILABLE.search(clause) and not re.match(rf"{ELSE}\b|(?:if|in case)\s+no\b", clause, re.I):
        return False  # "if you have them, 2 churros" holds nothing in reserve for another dish
    if [o for o in mentions_of(dish, words, menu) if start <= o < at]:
        return True
    if ARROW_CONDITION.match(conditions[-1].group(0)):  # "brisket unavailable -> half rack of ribs"
        return _arrow_on(dish, words, menu, start, at)
    # "a dragon roll, or if it's sold out a spicy tuna roll": the dish just before, the condition naming
    # nothing else ("if they're out of drinks" is about something else).
    if not PRONOUN_CONDITION.match(clause):
        return False
    inside = [o for other in menu.names for o in mentions_of(other, words, menu) if start <= o < at]
    before = [(o, other) for other in menu.names for o in mentions_of(other, words, menu) if o < start]
    return not inside and bool(before) and max(before)[1] == dish


ARROW_CONDITION = re.compile(r"(?:unavailable|sold out|not available|out of stock|gone|run out|out)\b", re.I)
"""A condition written after its dish by an arrow (`CONDITION`): "brisket unavailable -> ribs" holds the
ribs for the dish written right before it, and for no other."""


def _arrow_on(dish: str, words: str, menu: Menu, start: int, at: int) -> bool:
    """Whether an arrow condition at ``start`` ("brisket unavailable -> …") holds the dish at ``at`` for
    ``dish``: the only dish of its sentence before the arrow, written right before it, and the one at ``at``
    the only dish after it, with nothing refused between ("-> anything but smoked chicken", "-> skip it,
    smoked chicken is gross", "smoked chicken or cornbread gone -> …", "-> smoked ribs or smoked chicken")."""
    begin = max((m.end() for m in SENTENCE.finditer(words[:start])), default=0)
    end = next((m.start() + at for m in SENTENCE.finditer(words[at:])), len(words))
    mentioned = sorted(
        (o, other) for other in menu.names for o in mentions_of(other, words, menu) if begin <= o < end
    )
    before = [(o, other) for o, other in mentioned if o < start]
    after = [(o, other) for o, other in mentioned if o > start]
    if len(before) != 1 or before[0][1] != dish or [o for o, _ in after] != [at]:
        return False
    o = before[0][0]
    return not words[mention_end(dish, words, o) : start].strip() and not REFUSED_AFTER.search(
        words[start:at]
    )


REFUSED_AFTER = re.compile(r"\b(?:but|except|not|no|skip|without|other than|never|don['’]?t|nothing)\b", re.I)
"""Between an arrow condition and the dish after it, words that refuse it or hold nothing: no fallback."""
REFUSES = re.compile(r"\b(?:don['’]?t|do not|never|no)\s+(?:want|like|need|give me|get me)\b[^,;.!?]*$", re.I)
"""Before a dish, words that refuse it ("I don't want salmon poke bowl")."""
PRONOUN_CONDITION = re.compile(
    rf"{ELSE}\b|(?:if|in case)\s+(?:(?:it|they|that|those|these|this|there)(?:['’]s|['’]re| is| are)?\s+)?"
    r"(?:(?:is|are|gets?)\s+)?(?:sold out|unavailable|not available|gone|out|none|n['’]t (?:any|available))"
    r"(?:\s*(?:->|→|=>|[,;:.?!-]|then\b|get\b|take\b|a\b|an\b|\d)|\s*$)",
    re.I,
)
"""A condition about the dish written just before it, by a pronoun or none: "or if it's sold out, …", "else …"."""


def _reserve(dish: str, words: str, menu: Menu, at: int) -> str:
    """The words from the mention of ``dish`` at ``at`` to the next dish (at most 80 characters): where what
    to do if it cannot be had is written."""
    nxt = [o for o in others_after(dish, words, menu) if o > at]
    return words[at : min([at + 80, *nxt])]


def pruned(words: str, model: Reading, menu: Menu) -> Reading:
    """A model's reading with what the words cannot bear taken away, never anything added: a fallback the
    words do not state (a swap read as "if the horchata is unavailable, a margarita"; "if the tiramisu is
    unavailable, nothing" beside "but not the tiramisu"), and a dish the words name only in a condition
    that the reading also orders outright beside holding it in reserve ("…, if they're out of shrimp get the
    salmon poke bowl"). Taking these away orders nothing more and substitutes nothing the person did not
    ask for; whatever else is wrong with the reading is still found by `unaccounted`."""
    items, kept = model.items, model.fallbacks
    while True:  # until nothing more is taken away: a dish taken out of the order takes its fallback with it
        ordered = {want.dish for want in items}
        kept = tuple(f for f in kept if f.instead_of in ordered and stated_fallback(f, words, menu))
        reserve = {f.take.dish for f in kept if f.take is not None}
        fewer = tuple(
            want
            for want in items
            if want.dish not in reserve
            or asked_mentions(want.dish, words, menu)
            or not mentions_of(want.dish, words, menu)
        )
        if fewer == items:
            break
        items = fewer
    # A choice of a dish on the menu that the dish lacks and the words do not write either (invented for a
    # dish that has none): nothing to ask about, nothing ordered. Anything else the menu lacks is kept, written
    # or not ("a coke" read as "Coca-Cola", a dish read as the restaurant's name): the person is asked.
    off = tuple(
        o
        for o in model.off_menu
        if ": " not in o or menu.dish(o.split(": ", 1)[0]) is None or _written_off_menu(o, words)
    )
    if (items, kept, off) == (model.items, model.fallbacks, model.off_menu):
        return model
    return replace(model, items=items, fallbacks=kept, off_menu=off)


def _written_off_menu(name: str, words: str) -> bool:
    """Whether a choice a reading could not find on the menu ("Carnitas Tacos: Hot") is written in the
    words: any word of it of three letters or more (after the dish it is a choice of)."""
    written = name.split(": ", 1)[-1]
    return any(
        written_at(w, words) for w in re.findall(r"[\w']+", written) if len(w) >= 3 and not w.isdigit()
    ) or not re.findall(r"[\w']{3,}", written)
