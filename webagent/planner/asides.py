"""Sentences about how a dish ordered is to be made, packed or carried — "make sure the tacos are still warm",
"put the naan in a separate bag from the curry", "Driver, the soup is hot so please don't tip the bag" — read
as a note that goes with the order, not as words about what to buy (a sixth reviewer: 14 of 160 goals were
asked about such words, with the cart right).

A sentence is such an aside only when all of it says so: it points back to a dish the reading orders ("the
tacos", "the burger's sauce"), names no other dish, and holds no count, choice, correction, fallback, leaving
out or adding (`ORDER_WORDS`, `AMENDS`, the recounts — but for "not"/"n't" before a verb and "no" before a
thing that is no dish: "isn't overcooked", "no chopsticks needed"); the rules read no item in it and no
choice the dish lacks. Anything less is left unplaced — asked, or read by a model.

Pure: no browser code.
"""

from __future__ import annotations

import re

from webagent.narration.names import normalize
from webagent.planner.doubts import AMENDS, MORE_OF, ORDER_WORDS, RECOUNTS, SOME_OF
from webagent.planner.mentions import mention_end, written_at
from webagent.planner.menu import Menu
from webagent.planner.spec import Detail, GoalReading, Words

__all__ = ["asides", "set_aside"]

SENTENCE = re.compile(r"[.!?;\n]+|\s[—–]\s")
"""Where an aside ends: a sentence, or a clause after a dash ("… keep it hot — courier, leave it at door 6")."""
POINTED = re.compile(r"\b(?:the|my|our|his|her|their|your)\s+$", re.I)
"""Before a dish's word, what points back to a dish already ordered: "the tacos", "my soup"."""
SPARED = re.compile(
    r"\b(?:is|are|was|were|does|do|did|should|could|ca|wo)n['’]?t\b(?!\s+(?:want|need|order|add|get|have|like))"
    r"|\bdon['’]?t\s+(?!want|need|order|add|get|have|like|forget)\w+|\bnot\s+(?:to\s+)?(?=[a-z]{4,}\b)"
    r"(?!(?:want|need|order|add|get|have|like|more|many|much|sure|only|just)\b)",
    re.I,
)
"""A "not" that says how to handle what is bought, not what to buy: "isn't overcooked", "don't tip the bag",
"not to stack anything on the churros"."""
ADDING = re.compile(
    r"\b(?:too|also|as well|plus|add|another|more|again|same|order|get|want|have|include|throw in|instead"
    r"|without|hold|skip|cancel|remove|swap|forget|only|just|each|both)\b|\+|&",
    re.I,
)
"""Words that add, remove or count in a sentence: no aside holds them."""
SAID = frozenset(
    """please pls plz kindly make sure that it its it's is are be been was were so and or the a an to of in on for
    from with into onto at by as can could would will you your me my we our us i they them their this these those
    do does did don't dont doesn't isn't aren't not no any anything nothing everything while when get gets go
    goes stay stays still very really bit little way up over away inside outside there here thank thanks thx
    driver courier rider tell let needed required""".split()  # noqa: SIM905
)
"""The words of an aside that say nothing of the dish: who, what it is, please."""
HANDLED = frozenset(
    """warm hot fresh upright flat level straight separate separately apart bag bags box boxes container containers
    side sides keep kept put pack packed packing tip tipped tilt squash squashed squish crush crushed stack stacked
    spill spilled spills leak leaks leaked soggy fragile careful carefully gently delicate wrap wrapped foil lid
    lids sealed seal cut slice sliced slices squares wedges thin leave melt melting sun heat rain napkins napkin
    cutlery chopsticks utensils forks straw straws sauce dressing curry soup broth noodles rice bread bowl""".split()  # noqa: SIM905
)
"""How a dish is made, packed or carried: an aside's words, besides `SAID` and the dish's own name. A word of
any other kind ("make sure the wings are fiery", "… is vegan", "… the smoothie is XL", "… no onions") may ask
for another choice or another dish: no aside (an adversary's 37 such, each taken for a note at first; a second's
"… and the drinks cold", "the fries are normal", "the coffee is cold": an iced one?)."""
UTENSILS = r"(?:cutlery|chopsticks|utensils|forks|napkins|straws?|plastic|receipt|rush)"


def asides(text: str, reading: GoalReading, menu: Menu) -> list[Words]:
    """The sentences of ``text`` that are asides about dishes the reading orders (see the module)."""
    ordered = {item.dish for item in reading.items}
    if not ordered or not reading.unclear:
        return []
    found = []
    start = 0
    for stop in [*SENTENCE.finditer(text), None]:
        end = stop.start() if stop else len(text)
        begin, start = start, stop.end() if stop else len(text)
        while begin < end and text[begin] in " \t,:":
            begin += 1
        if begin < end and _is_aside(text, begin, end, reading, menu, ordered):
            found.append(Words(begin, end, text[begin:end]))
    return found


def _is_aside(text: str, begin: int, end: int, reading: GoalReading, menu: Menu, ordered: set[str]) -> bool:
    def inside(at: Words) -> bool:
        return at.start < end and begin < at.end

    unclear = [u for u in reading.unclear if inside(u.words)]
    if (
        not unclear
        or any(  # a choice said of words the rules could not place — not of "Driver, …"
            (u.dish or u.options) and not re.fullmatch(r"(?i)driver|courier|rider", u.words.text)
            for u in unclear
        )
        or any(inside(item.words) for item in reading.items)
        or (reading.restaurant is not None and inside(reading.restaurant.words))
        or any(inside(d.words) for k, d in reading.details.items() if k not in ("delivery_note", "name"))
    ):
        return False
    words = text[begin:end]
    note = reading.details.get("delivery_note")
    for part in str(note.value).split("; ") if note else ():  # a note read in it: "…, and ring twice"
        words = words.replace(part, " " * len(part))
    pointed = False
    for name in menu.names:
        places = written_at(name, words, menu.names)
        if places and name not in ordered:
            return False  # another dish: "… and the fries too" is no aside
        pointed |= any(POINTED.search(words[:at]) for at in places)
    if not pointed or any(_pointed_twice(name, words, menu) for name in ordered):
        return False  # "the tacos for my kid and the tacos for my roommate": two, or one each?
    plain = words
    # the dish's own name says nothing: "the guacamole & chips", "the bacon cheeseburger", "the tacos"
    for name in ordered:
        for at in written_at(name, plain, menu.names):
            end = max(mention_end(name, plain, at), at + len(re.match(r"[\w'’]*", plain[at:]).group(0)))  # type: ignore[union-attr]
            plain = plain[:at] + " " * (end - at) + plain[end:]
    if any(w.lower() not in SAID | HANDLED for w in re.findall(r"[^\W\d_][\w'’]*|\d", plain)):
        return False
    plain = SPARED.sub(" ", plain)
    plain = re.sub(rf"\bno\s+{UTENSILS}\b", " ", plain, flags=re.I)  # "no chopsticks needed"
    if any(r.search(plain) for r in (ORDER_WORDS, AMENDS, RECOUNTS, MORE_OF, SOME_OF, ADDING)):
        return False
    chosen = {normalize(c) for dish in menu.dishes if dish.name in ordered for c in dish.choices}
    return not any(re.search(rf"\b{re.escape(c)}\b", normalize(plain)) for c in chosen)


def _pointed_twice(name: str, words: str, menu: Menu) -> bool:
    """Whether ``words`` name the dish twice ("the tacos for my kid and the tacos for my roommate")."""
    end, seen = -1, 0
    for at in written_at(name, words, menu.names):
        if at >= end:
            seen += 1
            end = max(mention_end(name, words, at), at + 1)
    return seen > 1


def set_aside(text: str, reading: GoalReading, menu: Menu) -> None:
    """Read the `asides` of ``text`` into ``reading``: kept in ``asides``, their words no longer unplaced, and
    added to the note that goes with the order."""
    found = asides(text, reading, menu)
    if not found:
        return
    reading.asides = found
    reading.unclear = [u for u in reading.unclear if not any(a.start <= u.words.start < a.end for a in found)]
    note = reading.details.get("delivery_note")
    said = [str(note.value)] if note else []
    reading.details["delivery_note"] = Detail(
        "; ".join([*said, *(a.text for a in found)]), note.words if note else found[0]
    )
