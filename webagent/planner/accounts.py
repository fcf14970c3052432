"""Whether a model's reading of a request accounts for its words: the checks `agree` puts a model's
reading to (webagent/planner/reading.py).

A model's reading is taken as the order only when the words bear it out: every dish it orders is named in
them (outside a condition, not taken out), every quantity is written there or follows from numbers written
there ("one each for the four of us"), a quantity or choice it changes from the rules' reading is written
*after* the rules' (corrections go forward), a dish it drops is negated or replaced, every dish the words
name is in its reading (ordered, left out or a fallback), and where it reads the same order as the rules no
amending words follow a dish the rules placed. `unaccounted` says what does not hold. These are rules too,
but they check a proposal against the words instead of reading the words alone.

Pure: no browser code.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from webagent.planner.doubts import AMENDS, weighty
from webagent.planner.menu import Menu
from webagent.planner.spec import GoalReading, Reading, from_rules
from webagent.planner.words import closeness, key, tokenize

__all__ = ["left_out", "named_dishes", "unaccounted"]


NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "single": 1, "two": 2, "both": 2, "pair": 2, "couple": 2, "twins": 2,
    "twin": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "dozen": 12, "fifteen": 15, "twenty": 20,
}  # fmt: skip
SELF = {"me", "i", "myself", "i'm", "im"}
NEGATING = re.compile(
    r"\b(?:not|no|without|except|excluding|minus|skip|hold|drop|remove|forget|cancel|leave out|instead of"
    r"|rather than|swap|replace|change|sub|substitute|make the|don['’]?t|nor|never)\b",
    re.I,
)
"""Words before a dish that take it out of the order or replace it ("swap the horchata for…")."""


def _numbers(text: str) -> list[tuple[int, int]]:
    """(position, value) of every count written: digits ("3x", "x2") and number words."""
    found = []
    for token in tokenize(text):
        value = (
            int(digits)
            if (digits := re.sub(r"^x|x$", "", token.key)).isdigit()
            else NUMBER_WORDS.get(token.key)
        )
        if value is not None and 0 < value <= 50:
            found.append((token.start, value))
    return found


def _derived(values: Sequence[int], text: str) -> set[int]:
    """Counts that follow from the numbers written: products ("2 each for the 3 of us"), sums, a half
    ("half of us"), one more for the writer ("me and my 3 roommates")."""
    found = set(values)
    counts = [v for v in values if v > 1]  # "a"/"an" are one of a thing, not a number to work with
    halves = bool(re.search(r"\bhalf\b", text, re.I))
    for i, a in enumerate(counts):
        if halves and a % 2 == 0:  # "half of us"
            found.add(a // 2)
        for b in counts[i + 1 :]:  # two numbers written, not one number twice
            found.update({a * b, a + b})
    if {key(w) for w in re.findall(r"[\w']+", text.lower())} & SELF:
        found.update(v + 1 for v in list(found) if v > 1)
    return {v for v in found if 0 < v <= 50}


def _written_at(name: str, text: str, others: Sequence[str] = ()) -> list[int]:
    """Where ``name`` (a dish or a choice) is written in ``text``: the whole name, or a word of it that no
    name of ``others`` has (four letters or more, forgiving a typo: "veg biryani" names "Vegetable Biryani",
    but "smoked" names neither "Smoked Ribs" nor "Smoked Chicken")."""
    tokens = [token for token in tokenize(text) if token.is_word]
    wanted = [key(w) for w in re.findall(r"[\w']+", name)]
    shared = {key(w) for other in others if other != name for w in re.findall(r"[\w']+", other)}
    places: list[int] = []
    for i, token in enumerate(tokens):
        if [t.key for t in tokens[i : i + len(wanted)]] == wanted:
            places.append(token.start)
            continue
        if (
            len(wanted) > 2
            and [t.key for t in tokens[i : i + 2]] == wanted[:2]
            and wanted[:2]
            not in [[key(w) for w in re.findall(r"[\w']+", other)][:2] for other in others if other != name]
        ):
            places.append(token.start)  # "the tom yum" for "Tom Yum Soup"
            continue
        for word in wanted:
            if word in shared or len(word) < 4 or word in NUMBER_WORDS:  # "four" names no Four Cheese Pizza
                continue
            if (distance := closeness(token.key, word)) is not None and distance <= 1.5:
                places.append(token.start)
                break
        else:
            if len(wanted) == 1 and len(wanted[0]) < 4 and token.key == wanted[0]:
                places.append(token.start)
    return places


def _where(name: str, reading: GoalReading) -> int | None:
    """Where the rules read ``name`` first (the start of its words)."""
    starts = [item.words.start for item in reading.items if item.dish == name]
    return min(starts) if starts else None


def unaccounted(words: str, rules: GoalReading, model: Reading, menu: Menu) -> str | None:
    """Why the model's reading cannot be taken as the order the words say — or None when it accounts for
    the doubts without contradicting the words."""
    if model.off_menu:
        return "it reads dishes the menu does not have: " + ", ".join(f'"{w}"' for w in model.off_menu[:3])
    if not model.items:
        return "it reads no dish"
    if model.restaurant is not None and model.restaurant != menu.restaurant:
        return f'it reads another restaurant, "{model.restaurant}"'
    for want in model.items:
        dish_of = menu.dish(want.dish)
        groups = Counter(o.name for c in want.choices if dish_of and (o := dish_of.option_of(c)) is not None)
        if any(n > 1 for n in groups.values()):
            return f'it gives "{want.dish}" two choices of one kind: {", ".join(want.choices)}'
    words = _without_restaurant(words, rules)  # "from taco fiesta" names no taco
    numbers = _numbers(words)
    every = _derived([v for _, v in numbers], words)
    rules_count = Counter[str]()
    for item in rules.items:
        rules_count[item.dish] += item.quantity
    model_count = model.per_dish()
    for dish, quantity in model_count.items():
        places = _mentions(dish, words, menu)
        if dish not in rules_count and not places:
            return f'"{dish}" is not named in the words'
        fixed = None  # "change one of the tonkotsu to a shoyu": the count the words leave
        if places and _negated(words, places[-1]) and not _conditional(words, places[-1]):
            taken = _taken_count(words, places[-1])
            fixed = rules_count.get(dish, 0) - taken if taken is not None else None
            if fixed != quantity:
                return f'the words take "{dish}" out'
        if places and all(_conditional(words, at) or _negated(words, at) for at in places):
            return f'the words name "{dish}" only in a condition or to leave it out'
        dish_of = menu.dish(dish)
        for want in model.items:
            for choice in want.choices if want.dish == dish else ():
                if dish_of is not None and choice not in dish_of.choices:
                    return f'"{dish}" has no choice "{choice}"'
                if not _written_at(choice, words) and not _implied(choice, rules, dish):
                    return f'the choice "{choice}" is not in the words'
        unused = _choices_unused(dish, model, words, menu)
        if unused:
            return f'the words choose "{unused}" for "{dish}", which it does not read'
        each = _per_person(dish, words, menu)
        if each is not None and quantity not in {each * n for n in _group_sizes(words, menu)}:
            return f'it reads {quantity} × "{dish}", but the words give {each} to each of several people'
        if quantity in (rules_count.get(dish), fixed) or each is not None:
            continue
        since = _where(dish, rules)
        later = {v for at, v in numbers if since is None or at > since}
        if (
            quantity not in later
            and quantity not in _derived(sorted(later), words)
            and not (since is None and quantity in every)
            and not (since is None and quantity == 1 and not _counts_in(_segment(dish, words, menu)))
        ):  # (no number by it: one of it)
            return f'{quantity} × "{dish}" is not written in the words'
        if since is not None and quantity < rules_count[dish] and not _corrected_after(words, since):
            return f'it orders fewer "{dish}" than written, with no correction'
    takes = {f.take.dish for f in model.fallbacks if f.take is not None}
    for dish in rules_count:
        if dish in model_count or any(f.instead_of == dish for f in model.fallbacks):
            continue
        if dish in takes and all(_conditional(words, at) for at in _mentions(dish, words, menu)):
            continue  # "…, else 2 california rolls": the rules ordered what the words hold in reserve
        if not _taken_out(dish, words, rules, menu, list(model_count)):
            return f'it leaves out "{dish}", which the words do not take out'
    accounted = {*model_count, *model.leave_out, *(f.instead_of for f in model.fallbacks)}
    accounted |= {f.take.dish for f in model.fallbacks if f.take is not None}
    for dish in menu.names:
        if dish in accounted or _taken_out(dish, words, rules, menu, list(model_count)):
            continue
        if any(
            not _conditional(words, at) and not _negated(words, at) for at in _mentions(dish, words, menu)
        ):
            return f'the words name "{dish}", which it does not read'
    for fallback in model.fallbacks:
        if fallback.instead_of not in model_count:
            return f'its fallback is for "{fallback.instead_of}", which it does not order'
        if fallback.take is not None and not _mentions(fallback.take.dish, words, menu):
            return f'its fallback "{fallback.take.dish}" is not named in the words'
        if fallback.take is not None and menu.dish(fallback.take.dish) is None:
            return f'its fallback "{fallback.take.dish}" is not on the menu'
    if not re.search(r"\b(?:if|unless|else|otherwise|or)\b", words, re.I) and model.fallbacks:
        return "it reads a fallback the words do not state"
    if model.counts() == from_rules(rules, menu.restaurant).counts() and not model.fallbacks:
        # The same order as the rules': right only if no word that could change it follows a dish they placed.
        heavy = [d for d in weighty(words, rules, menu) if not _explained(d, model, menu)]
        after = [
            d for d in heavy if (at := words.find(d)) >= 0 and any(i.words.start < at for i in rules.items)
        ]
        if after:
            return f'it reads the order as the rules do, but "{after[0]}" follows a dish they placed'
    return None


DISTRIBUTIVE = re.compile(
    r"\b(?:each|per (?:\w+ )?(?:person|head|people|guest|kid|adult)s?|apiece|every ?one|everybody|for all)\b",
    re.I,
)
CLAUSE = re.compile(r"[.;!?\n]|,|\band\b|\bplus\b|\+")


def _per_person(dish: str, words: str, menu: Menu) -> int | None:
    """How many of ``dish`` each person gets, where the words give it to each of several ("one pad thai
    each for the four of us" → 1; "two california rolls per person" → 2); None where they do not."""
    for at in _mentions(dish, words, menu):
        rest = words[at:]
        end = CLAUSE.search(rest, len(dish))
        if not DISTRIBUTIVE.search(rest[: end.start() if end else len(rest)]):
            continue
        before = [v for place, v in _numbers(words[max(0, at - 12) : at])]
        return before[-1] if before else 1
    return None


def _without_restaurant(words: str, rules: GoalReading) -> str:
    """The words with the restaurant's name blanked ("from taco fiesta" names no taco)."""
    if rules.restaurant is None:
        return words
    at = rules.restaurant.words
    return words[: at.start] + " " * (at.end - at.start) + words[at.end :]


NOT_A_COUNT = re.compile(
    r"\b(?:past|to|at|by|around|about|before|after|until|flat|apt|apartment|unit|suite|floor|ring|buzz|buzzer"
    r"|code|door|gate|no|number|#)\s*$|^\s*(?::|pm|am|o'?clock|ish|th|st|nd|rd|[a-z]\b)",
    re.I,
)
"""Around a number, words that make it a time, an address or a code rather than how many to order."""


def _counts_in(text: str) -> list[int]:
    """The numbers in ``text`` that could be how many to order (not "half past 7", "flat 4B", "ring 55")."""
    found = []
    for at, value in _numbers(text):
        end = at + len(re.match(r"\w+", text[at:]).group(0))  # type: ignore[union-attr]
        if not NOT_A_COUNT.search(text[max(0, at - 12) : at]) and not NOT_A_COUNT.search(text[end : end + 8]):
            found.append(value)
    return found


def _explained(doubt: str, model: Reading, menu: Menu) -> bool:
    """Whether words the rules left are borne out by a reading that orders what the rules read: no amending
    words in them, no count the reading lacks, and any dish they name one they take out ("no churros")."""
    if AMENDS.search(doubt):
        return False
    quantities = {w.quantity for w in model.items}
    if model.budget_cents is not None and model.budget_cents % 100 == 0:
        quantities.add(model.budget_cents // 100)  # "spend at most 30": the budget, not a count
    if any(n not in quantities and n != 1 for n in _counts_in(doubt)):
        return False
    ordered = {w.dish for w in model.items}
    for dish in menu.names:
        for at in _mentions(dish, doubt, menu):
            if dish in ordered or not _negated(doubt, at):
                return False
    return True


def named_dishes(words: str, menu: Menu) -> list[str]:
    """The menu's dishes the words name (a whole name, or a word only that dish has), the restaurant's own
    name aside ("taco fiesta" names no taco)."""
    plain = (
        re.sub(re.escape(menu.restaurant), " " * len(menu.restaurant), words, flags=re.I)
        if menu.restaurant
        else words
    )
    return [dish for dish in menu.names if _mentions(dish, plain, menu)]


def left_out(words: str, model: Reading, menu: Menu) -> tuple[str, ...]:
    """The dishes the words take out ("but not the tiramisu"): named, last negated, outside a condition,
    and not ordered."""
    ordered = {w.dish for w in model.items}
    found = []
    for dish in menu.names:
        places = _mentions(dish, words, menu)
        if (
            dish not in ordered
            and places
            and _negated(words, places[-1])
            and not _conditional(words, places[-1])
        ):
            found.append(dish)
    return tuple(found)


def _taken_count(words: str, at: int) -> int | None:
    """How many the negation before the mention at ``at`` takes ("change one of the …" → 1); None: all."""
    before = NEGATED_BEFORE.search(words[max(0, at - 30) : at])
    counts = _numbers(before.group(0)) if before else []
    return counts[0][1] if counts and re.search(r"\bof\b", before.group(0) if before else "") else None


def _segment(dish: str, words: str, menu: Menu) -> str:
    """The words from the last mention of ``dish`` to the next mention of another dish (or the end)."""
    places = _mentions(dish, words, menu)
    if not places:
        return ""
    start = places[-1]
    others = [
        at for other in menu.names if other != dish for at in _mentions(other, words, menu) if at > start
    ]
    return words[start : min(others, default=len(words))]


def _choices_unused(dish: str, model: Reading, words: str, menu: Menu) -> str | None:
    """A choice of ``dish`` written by its name in the words about it, not negated, that no line of the
    reading has ("2 salmon poke bowls, one white rice one salad greens" read as two on white rice)."""
    dish_of = menu.dish(dish)
    if dish_of is None:
        return None
    used = {c for want in model.items if want.dish == dish for c in want.choices}
    segment = _segment(dish, words, menu)
    for choice in dish_of.choices:
        places = [at for at in _written_at(choice, segment) if _whole(choice, segment, at)]
        if choice in used or all(_negated(segment, at) for at in places):
            continue
        option = dish_of.option_of(choice)
        rivals = [c for c in used if option is not None and c in option.choices]
        later = [at for c in rivals for at in _written_at(c, segment) if _whole(c, segment, at)]
        if later and max(later) > max(places):
            continue  # "small.. scratch that, medium": a choice written later of the same kind
        return choice
    return None


def _whole(name: str, text: str, at: int) -> bool:
    """Whether ``name`` is written whole at ``at`` (not one word of it)."""
    wanted = [key(w) for w in re.findall(r"[\w']+", name)]
    got = [t.key for t in tokenize(text[at:]) if t.is_word][: len(wanted)]
    return got == wanted


def _group_sizes(words: str, menu: Menu) -> set[int]:
    """How many people the words say there are: the numbers written that count no dish ("me and 3 mates"
    → 3, and 4 with the writer), worked out as `_derived` does; "per two people" divides."""
    counts = []
    for at, value in _numbers(words):
        after = re.sub(r"^\w+\s*(?:x\s*)?", "", words[at : at + 40])
        if any(_whole_start(dish, after, menu) for dish in menu.names):
            continue  # "2 nachos supreme": a dish's count, not people
        counts.append(value)
    found = _derived(counts, words)
    if re.search(r"\bper\b", words, re.I):
        found |= {a // b for a in counts for b in counts if b > 1 and a > b and a % b == 0}
    return found - {1}


def _whole_start(dish: str, text: str, menu: Menu) -> bool:
    """Whether ``text`` starts with a mention of ``dish`` (a few words in at most, no comma before it)."""
    head = re.split(r"[,;.!?]", text, maxsplit=1)[0][:30]
    return any(at <= 12 for at in _mentions(dish, head, menu))


def _implied(choice: str, rules: GoalReading, dish: str) -> bool:
    """A choice the rules read for the dish (from words like "extra spicy" → Hot)."""
    return any(item.dish == dish and choice in item.options for item in rules.items)


def _corrected_after(words: str, since: int) -> bool:
    return bool(AMENDS.search(words, since)) or bool(
        re.search(r"\b(?:no|sorry|i mean|actually)\b", words[since:], re.I)
    )


def _choice_spans(words: str, menu: Menu) -> list[tuple[int, int]]:
    """Where the menu's choices of two words or more are written whole ("salad greens", "white rice")."""
    spans = []
    for choice in {c for dish in menu.dishes for c in dish.choices if len(c.split()) > 1}:
        for at in _written_at(choice, words):
            if _whole(choice, words, at):
                spans.append((at, at + len(choice)))
    return spans


def _mentions(name: str, words: str, menu: Menu) -> list[int]:
    """Where each mention of dish ``name`` starts (`_written_at`, one place a mention however many words),
    a word of a choice written whole aside ("salad greens" names no Seaweed Salad)."""
    spans = _choice_spans(words, menu)
    found: list[int] = []
    for at in _written_at(name, words, menu.names):
        if any(start <= at < end for start, end in spans) and not _whole(name, words, at):
            continue
        if not found or at - found[-1] > len(name) + 2:
            found.append(at)
    return found


NEGATED_BEFORE = re.compile(
    rf"(?:{NEGATING.pattern})(?:\s+(?:the|a|an|any|of|my|our|that|those|these|one|two|three|\d+))*\s*$", re.I
)
CONDITION = re.compile(r"\b(?:if|unless|else|otherwise|in case)\b", re.I)
CLAUSE_END = re.compile(r"[.;!?\n]")


def _negated(words: str, at: int) -> bool:
    """Whether the mention at ``at`` is taken out by the words right before it ("but not the …",
    "instead of the …", "swap the …")."""
    return bool(NEGATED_BEFORE.search(words[max(0, at - 30) : at]))


def _conditional(words: str, at: int) -> bool:
    """Whether the mention at ``at`` stands in a condition's clause ("if the X is sold out, …")."""
    clause = CLAUSE_END.split(words[:at])[-1]
    return bool(CONDITION.search(clause))


def _taken_out(dish: str, words: str, rules: GoalReading, menu: Menu, kept: Sequence[str]) -> bool:
    """Whether the words take ``dish`` out: its last mention negated or swapped away, or an amendment after
    it followed by a dish the reading ``kept`` ("a lasagna — no sorry, a carbonara"); not "… instead of
    the X", which takes out what follows it."""
    mentions = _mentions(dish, words, menu)
    if mentions and _negated(words, mentions[-1]) and not _conditional(words, mentions[-1]):
        return True
    since = _where(dish, rules)
    if since is None:
        return False
    for amend in AMENDS.finditer(words, since):
        if re.match(r"\s+of\b", words[amend.end() :]):
            continue
        if any(at > amend.end() for other in kept if other != dish for at in _mentions(other, words, menu)):
            return True
    return False
