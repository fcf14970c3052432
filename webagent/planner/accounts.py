"""Whether a model's reading of a request accounts for its words: the checks `agree` puts a model's
reading to (webagent/planner/reading.py).

A model's reading is taken as the order only when the words bear every line of it out, *at its dish*:

- every dish it orders is named in the words, outside a condition, and its last mention is not taken out;
- its count is the one written at the dish — the number by its last mention, or one written after a
  correction that follows it ("4 carnitas tacos… actually make it 2"), else one; "one each for the four of
  us" is the count each person gets times the people the words count, nearest to the dish;
- each choice is written at the dish (or after a correction that follows it), and a choice written at the
  dish is read unless a later one of its kind replaced it ("small.. scratch that, medium");
- a dish it drops is negated or swapped away, or corrected into another right after it; a bare "instead"
  must take something out;
- every dish the words name is in its reading (ordered, a fallback) or taken out;
- a fallback's dish is named in a condition, in the count written there, and "nothing instead" only where
  the words say so;
- a budget it reads is an amount the words state beside a budget's words.

`unaccounted` says the first thing that does not hold; anything it cannot bear out is asked about, never
guessed. These are rules too, but they check a proposal against the words instead of reading them alone.

Pure: no browser code.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from webagent.planner.doubts import AMENDS, weighty
from webagent.planner.menu import Menu
from webagent.planner.spec import GoalReading, Reading, Want, from_rules
from webagent.planner.words import closeness, key, tokenize

__all__ = ["BUDGET_WORDS", "left_out", "leftover", "named_dishes", "unaccounted"]


NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "single": 1, "two": 2, "both": 2, "pair": 2, "couple": 2, "twins": 2,
    "twin": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "dozen": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40,
    "fifty": 50,
}  # fmt: skip
NEGATING = re.compile(
    r"\b(?:not|no|without|except|excluding|minus|skip|hold|drop|remove|forget|cancel|leave out|instead of"
    r"|rather than|swap|replace|change|sub|substitute|make the|don['’]?t|nor|never mind|ditch|scrap|lose)\b",
    re.I,
)
"""Words before a dish that take it out of the order or replace it ("swap the horchata for…")."""
NEGATED_BEFORE = re.compile(
    rf"(?:{NEGATING.pattern})(?:\s+(?:the|a|an|any|of|my|our|that|those|these|one|two|three|\d+))*\s*$", re.I
)
CORRECTION = re.compile(
    rf"(?:{AMENDS.pattern})|\b(?:no|nope|nah|sorry|wait|i mean|actually|oops|ugh|hmm|scratch)\b", re.I
)
"""Words after which what is written replaces what came before ("3 salmon nigiri - no, 4")."""
CONDITION = re.compile(r"\b(?:if|unless|else|otherwise|in case)\b", re.I)
SENTENCE = re.compile(r"[.;!?\n]")
BOUNDARY = re.compile(r"[,;.!?\n:+|•]|\band\b|\bplus\b|\balso\b|\s[-–—]\s|\.\.")
"""Where the words about one dish end: "a mild butter chicken *and* a hot tikka masala"."""
DISTRIBUTIVE = re.compile(
    r"\b(?:each|per (?:\w+ )?(?:person|head|people|guest|kid|adult)s?|apiece|every ?one|everybody|for all)\b",
    re.I,
)
SELF_PLUS = re.compile(r"\b(?:me|myself)\s*(?:and|plus|\+|,|&)|\b(?:and|plus|\+|&)\s*(?:me|myself)\b", re.I)
""""me and 3 mates": the writer counts too (not "I need one each for my 3 kids")."""
NOTHING = re.compile(
    r"\b(?:nothing|no replacement|none|skip|don['’]?t|do not|leave it|no \w+ then|forget it)\b", re.I
)
BUDGET_WORDS = re.compile(
    r"[$€£]|\b(?:dollars?|bucks|quid|euros?|pounds?|budget|spend|under|below|at most|max(?:imum)?|no more than"
    r"|less than|cap|only (?:have|got)|within)\b",
    re.I,
)
"""Words without which a budget is one nobody stated ("around 7ish" is no budget of $7)."""
NOT_A_COUNT = re.compile(
    r"\b(?:past|to|at|by|around|about|before|after|until|flat|apt|apartment|unit|suite|floor|ring|buzz|buzzer"
    r"|code|door|gate|no|number|#|under|below|most|max|than|budget|spend)\s*[$€£]?\s*$"
    r"|^\s*(?::|pm|am|o'?clock|ish|th|st|nd|rd|[a-z]\b|bucks|dollars|quid|euros)",
    re.I,
)
"""Around a number, words that make it a time, an address, a code or money rather than how many to order."""


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


def _counts(text: str) -> list[tuple[int, int]]:
    """The numbers in ``text`` that could be how many to order (not "half past 7", "flat 4B", "$25")."""
    found = []
    for at, value in _numbers(text):
        end = at + len(re.match(r"\w+", text[at:]).group(0))  # type: ignore[union-attr]
        if not NOT_A_COUNT.search(text[max(0, at - 12) : at]) and not NOT_A_COUNT.search(text[end : end + 8]):
            found.append((at, value))
    return found


def _written_at(name: str, text: str, others: Sequence[str] = ()) -> list[int]:
    """Where ``name`` (a dish or a choice) is written in ``text``: the whole name, its first two words where
    no other name starts so ("the tom yum"), or a word of it that no name of ``others`` has (four letters or
    more, not a number, forgiving a typo: "veg biryani" names "Vegetable Biryani", but "smoked" names neither
    "Smoked Ribs" nor "Smoked Chicken")."""
    tokens = [token for token in tokenize(text) if token.is_word]
    wanted = [key(w) for w in re.findall(r"[\w']+", name)]
    shared = {key(w) for other in others if other != name for w in re.findall(r"[\w']+", other)}
    starts = [[key(w) for w in re.findall(r"[\w']+", other)][:2] for other in others if other != name]
    places: list[int] = []
    for i, token in enumerate(tokens):
        if [t.key for t in tokens[i : i + len(wanted)]] == wanted:
            places.append(token.start)
            continue
        if len(wanted) > 2 and [t.key for t in tokens[i : i + 2]] == wanted[:2] and wanted[:2] not in starts:
            places.append(token.start)
            continue
        for word in wanted:
            if word in shared or len(word) < 4 or word in NUMBER_WORDS:
                continue
            if (distance := closeness(token.key, word)) is not None and distance <= 1.5:
                places.append(token.start)
                break
        else:
            if len(wanted) == 1 and len(wanted[0]) < 4 and token.key == wanted[0]:
                places.append(token.start)
    return places


def _whole(name: str, text: str, at: int) -> bool:
    """Whether ``name`` is written whole at ``at`` (not one word of it)."""
    wanted = [key(w) for w in re.findall(r"[\w']+", name)]
    return [t.key for t in tokenize(text[at:]) if t.is_word][: len(wanted)] == wanted


def _choice_spans(words: str, menu: Menu) -> list[tuple[int, int]]:
    """Where the menu's choices of two words or more are written whole ("salad greens", "white rice")."""
    spans = []
    for choice in {c for dish in menu.dishes for c in dish.choices if len(c.split()) > 1}:
        spans += [(at, at + len(choice)) for at in _written_at(choice, words) if _whole(choice, words, at)]
    return spans


def _mentions(name: str, words: str, menu: Menu) -> list[int]:
    """Where each mention of dish ``name`` starts (one place a mention however many words), a word of a
    choice written whole aside ("salad greens" names no Seaweed Salad)."""
    spans = _choice_spans(words, menu)
    found: list[int] = []
    for at in _written_at(name, words, menu.names):
        if any(start <= at < end for start, end in spans) and not _whole(name, words, at):
            continue
        if not found or at - found[-1] > len(name) + 2:
            found.append(at)
    return found


def _negated(words: str, at: int) -> bool:
    """Whether the mention at ``at`` is taken out by the words right before it ("but not the …",
    "instead of the …", "swap the …")."""
    return bool(NEGATED_BEFORE.search(words[max(0, at - 30) : at]))


def _conditional(words: str, at: int) -> bool:
    """Whether the mention at ``at`` stands in a condition: after "if"/"else" in its sentence, or in a part
    of it (between commas) that holds one ("a spicy tuna roll if the dragon roll is sold out")."""
    if CONDITION.search(SENTENCE.split(words[:at])[-1]):
        return True
    start = max((m.end() for m in re.finditer(r"[,;.!?\n]", words[:at])), default=0)
    end = next((m.start() for m in re.finditer(r"[,;.!?\n]", words[at:])), len(words) - at) + at
    return bool(CONDITION.search(words[start:end]))


def _asked(dish: str, words: str, menu: Menu) -> list[int]:
    """The mentions of ``dish`` that ask for it: not in a condition, not taken out."""
    return [
        at for at in _mentions(dish, words, menu) if not _conditional(words, at) and not _negated(words, at)
    ]


def _others(dish: str, words: str, menu: Menu) -> list[int]:
    return sorted(at for other in menu.names if other != dish for at in _mentions(other, words, menu))


def _around(dish: str, words: str, menu: Menu, at: int) -> tuple[str, str]:
    """The words about the mention of ``dish`` at ``at``, before and after its name: from the boundary before
    it to the boundary (or the next dish) after it ("a mild " of "a mild butter chicken and a hot …")."""
    start = max((m.end() for m in BOUNDARY.finditer(words[:at])), default=0)
    name_end = at + len(dish)
    nxt = [o for o in _others(dish, words, menu) if o > at]
    stop = BOUNDARY.search(words, name_end)
    end = min([stop.start() if stop else len(words), *nxt])
    return words[start:at], words[name_end:end] if end > name_end else ""


def _own(dish: str, words: str, menu: Menu, at: int) -> str:
    """The words about the mention at ``at``, its name included (`_around`)."""
    before, after = _around(dish, words, menu, at)
    return before + words[at : at + len(dish)] + after


def _segment(dish: str, words: str, menu: Menu) -> str:
    """The words from the last mention of ``dish`` to the words about the next dish (or the sentence's
    end): "café au lait x2 (1 small, 1 large) " of "… (1 small, 1 large) + 2 butter croissants"."""
    places = _mentions(dish, words, menu)
    if not places:
        return ""
    at = places[-1]
    nxt = [o for o in _others(dish, words, menu) if o > at]
    sentence = SENTENCE.search(words, at + len(dish))
    end = min([sentence.start() if sentence else len(words), *nxt])
    if nxt and min(nxt) == end:  # stop before the next dish's own words ("… and a hot tikka masala")
        end = max((m.start() for m in BOUNDARY.finditer(words[:end], at + len(dish))), default=end)
    return words[at:end]


def _correction(dish: str, words: str, menu: Menu) -> str:
    """What the words say after a correction that follows the last mention of ``dish``, up to the next dish
    ("make it 2" of "4 carnitas tacos… actually make it 2"); "" when none follows."""
    places = _mentions(dish, words, menu)
    if not places:
        return ""
    at = places[-1]
    nxt = [o for o in _others(dish, words, menu) if o > at]
    segment = words[at + len(dish) : min(nxt, default=len(words))]
    found = CORRECTION.search(segment)
    return segment[found.end() :] if found else ""


def _written_count(dish: str, words: str, menu: Menu) -> int | None:
    """The count written at ``dish``: after a correction that follows it, else by its last asking mention
    (before the name, else after it: "3 × …", "… x2"), else one."""
    corrected = _counts(_correction(dish, words, menu))
    if corrected:  # the first count after it: a later one counts the next dish ("… make that one, and 2 …")
        return corrected[0][1]
    asked = _asked(dish, words, menu) or _mentions(dish, words, menu)
    if not asked:
        return 1
    before, after = _around(dish, words, menu, asked[-1])
    counts = [v for _, v in _counts(before)][-1:] or [v for _, v in _counts(after)][:1]
    if counts:
        return counts[0]
    # No count at the dish: one — unless the words go on to count it ("chicken pho for my husband and both
    # kids"), which no count at the dish bears out.
    return None if _counts(_segment(dish, words, menu)) else 1


def _per_person(dish: str, words: str, menu: Menu) -> tuple[int, int] | None:
    """(each person's count, the mention) where the words give ``dish`` to each of several ("one pad thai
    each for the four of us" → 1); None where they do not."""
    for at in _asked(dish, words, menu):
        nxt = [o for o in _others(dish, words, menu) if o > at]
        sentence = SENTENCE.search(words, at)
        if DISTRIBUTIVE.search(words[at : min([sentence.start() if sentence else len(words), *nxt])]):
            counts = [v for _, v in _counts(_around(dish, words, menu, at)[0])]
            return (counts[-1] if counts else 1), at
    return None


def _people(words: str, menu: Menu, at: int) -> int | None:
    """How many people the words count, nearest the mention at ``at``: a number that counts no dish, one
    more where the writer counts too ("me and 3 mates" → 4), divided by "per two people"."""
    found = []
    for place, value in _counts(words):
        head = re.split(r"[,;.!?]", re.sub(r"^\w+\s*(?:x\s*)?", "", words[place : place + 40]), maxsplit=1)[0]
        if any(o <= 12 for dish in menu.names for o in _mentions(dish, head[:30], menu)):
            continue  # "2 nachos supreme": a dish's count, not people
        if value > 1:
            found.append((abs(place - at), place, value))
    if not found:
        return None
    _, place, people = min(found)
    per = re.search(r"\bper (\w+) (?:people|persons|guests|adults|kids)\b", words, re.I)
    if per and (
        n := NUMBER_WORDS.get(per.group(1).lower()) or (int(per.group(1)) if per.group(1).isdigit() else 0)
    ):
        return people // n if n > 1 and people % n == 0 and people != n else people
    return people + 1 if SELF_PLUS.search(words) else people


def _choices(want: Want, words: str, menu: Menu, split: bool) -> str | None:
    """Why a line's choices are not the ones written at its dish (or after a correction that follows it; for
    a dish split into lines, anywhere in what the words say about it), or None."""
    dish = menu.dish(want.dish)
    if dish is None:
        return None
    asked = _asked(want.dish, words, menu) or _mentions(want.dish, words, menu)
    nearby = (
        " ".join(_own(want.dish, words, menu, at) for at in asked) + " " + _correction(want.dish, words, menu)
    )
    if split and asked:
        nxt = [o for o in _others(want.dish, words, menu) if o > asked[-1]]
        nearby += " " + words[asked[0] : min(nxt, default=len(words))]
    for choice in want.choices:
        if choice not in dish.choices:
            return f'"{want.dish}" has no choice "{choice}"'
        if not _written_at(choice, nearby):
            return f'the choice "{choice}" is not written at "{want.dish}"'
    return None


def _unused_choice(name: str, model: Reading, words: str, menu: Menu) -> str | None:
    """A choice written by its name at the dish, not negated, that no line of the reading has, unless a later
    one of its kind does ("small.. scratch that, medium")."""
    dish = menu.dish(name)
    if dish is None:
        return None
    used = {c for want in model.items if want.dish == name for c in want.choices}
    asked = _asked(name, words, menu)
    nearby = " ".join(_own(name, words, menu, at) for at in asked[-1:]) + " " + _correction(name, words, menu)
    nearby += " " + _segment(name, words, menu)
    for choice in dish.choices:
        places = [at for at in _written_at(choice, nearby) if _whole(choice, nearby, at)]
        if choice in used or not places or all(_negated(nearby, at) for at in places):
            continue
        option = dish.option_of(choice)
        rivals = [c for c in used if option is not None and c in option.choices]
        later = [at for c in rivals for at in _written_at(c, nearby) if _whole(c, nearby, at)]
        if later and max(later) > max(places):
            continue
        return choice
    return None


def _taken_out(dish: str, words: str, rules: GoalReading, menu: Menu, kept: Sequence[str]) -> bool:
    """Whether the words take ``dish`` out: its last mention negated or swapped away, or a correction right
    after it (no other dish between) followed by a dish the reading ``kept`` ("a lasagna — no sorry, a
    carbonara"), not one that adds ("…, oh and actually a lemonade too")."""
    places = _mentions(dish, words, menu)
    if places and _negated(words, places[-1]) and not _conditional(words, places[-1]):
        return True
    if not places:
        return False
    at = places[-1]
    nxt = [o for o in _others(dish, words, menu) if o > at]
    found = CORRECTION.search(words, at + len(dish))
    if found is None or (nxt and min(nxt) < found.start()) or re.match(r"\s+of\b", words[found.end() :]):
        return False
    rest = SENTENCE.split(words[found.end() :])[0]
    if re.search(r"\b(?:too|also|as well|and also|another)\b", rest, re.I):
        return False
    return any(o > found.end() for other in kept if other != dish for o in _mentions(other, words, menu))


def _without_restaurant(words: str, rules: GoalReading) -> str:
    """The words with the restaurant's name blanked ("from taco fiesta" names no taco)."""
    if rules.restaurant is None:
        return words
    at = rules.restaurant.words
    return words[: at.start] + " " * (at.end - at.start) + words[at.end :]


def _lines(model: Reading, rules: GoalReading, words: str, menu: Menu) -> str | None:
    """Why the reading's dishes, counts and choices are not the ones written at each dish, or None."""
    rules_count: Counter[str] = Counter()
    for item in rules.items:
        rules_count[item.dish] += item.quantity
    model_count = model.per_dish()
    for name, quantity in model_count.items():
        places = _mentions(name, words, menu)
        if not places:
            return f'"{name}" is not named in the words'
        if not _asked(name, words, menu):
            return f'the words name "{name}" only in a condition or to leave it out'
        if _negated(words, places[-1]) and not _conditional(words, places[-1]):
            return f'the words take "{name}" out'
        lines = [w for w in model.items if w.dish == name]
        for want in lines:
            if why := _choices(want, words, menu, split=len(lines) > 1):
                return why
        if unused := _unused_choice(name, model, words, menu):
            return f'the words choose "{unused}" for "{name}", which it does not read'
        each = _per_person(name, words, menu)
        if each is not None:
            people = _people(words, menu, each[1])
            if people is None or quantity != each[0] * people:
                return f'it reads {quantity} × "{name}", but the words give {each[0]} to each of the people'
            continue
        written = _written_count(name, words, menu)
        if written is None:
            return f'it reads {quantity} × "{name}", but the words count it where no count is written at it'
        if quantity != written:
            return f'it reads {quantity} × "{name}", but the words write {written}'
        if len(lines) > 1:  # split lines: each count is one written about the dish
            tail = words[places[0] :]
            if any(w.quantity != 1 and w.quantity not in {v for _, v in _counts(tail)} for w in lines):
                return f'it splits "{name}" into counts the words do not write'
    for name in rules_count:
        if name in model_count or any(f.instead_of == name for f in model.fallbacks):
            continue
        takes = {f.take.dish for f in model.fallbacks if f.take is not None}
        if name in takes and all(_conditional(words, at) for at in _mentions(name, words, menu)):
            continue  # "…, else 2 california rolls": the rules ordered what the words hold in reserve
        if not _taken_out(name, words, rules, menu, list(model_count)):
            return f'it leaves out "{name}", which the words do not take out'
    bare = [m.start() for m in re.finditer(r"\binstead\b(?!\s+of)", words, re.I)]
    if (
        any(not _conditional(words, at) for at in bare)
        and rules_count
        and set(rules_count) <= set(model_count)
    ):
        return 'it adds what the words swap in ("instead") without taking anything out'
    accounted = {*model_count, *(f.instead_of for f in model.fallbacks)}
    accounted |= {f.take.dish for f in model.fallbacks if f.take is not None}
    for name in menu.names:
        if name in accounted or _taken_out(name, words, rules, menu, list(model_count)):
            continue
        if _asked(name, words, menu):
            return f'the words name "{name}", which it does not read'
    return None


def _fallbacks(model: Reading, words: str, menu: Menu) -> str | None:
    """Why the reading's fallbacks are not the ones the words state, or None."""
    for fallback in model.fallbacks:
        take = fallback.take
        if take is None:
            places = _mentions(fallback.instead_of, words, menu)
            clauses = [words[at : at + 80] for at in places if _conditional(words, at)]
            if not any(NOTHING.search(clause) for clause in clauses):
                return f'it reads nothing in place of "{fallback.instead_of}", which the words do not say'
            continue
        if menu.dish(take.dish) is None:
            return f'its fallback "{take.dish}" is not on the menu'
        places = _mentions(take.dish, words, menu)
        if not places:
            return f'its fallback "{take.dish}" is not named in the words'
        if not any(_conditional(words, at) for at in places):
            return f'its fallback "{take.dish}" is not named in a condition'
        if take.dish in model.per_dish():
            return f'it orders its fallback "{take.dish}" outright too'
        if take.quantity != _written_count(take.dish, words, menu):
            return f'it reads {take.quantity} × "{take.dish}" in reserve, which the words do not write'
        if why := _choices(take, words, menu, split=False):
            return why
    if model.fallbacks and not CONDITION.search(words) and not re.search(r"\bor\b", words, re.I):
        return "it reads a fallback the words do not state"
    return None


def _budget(model: Reading, rules: GoalReading, words: str) -> str | None:
    """Why the reading's budget is not one the words state, or None."""
    stated = {
        round(float(m.group(1)) * 100)
        for m in re.finditer(r"(\d+(?:\.\d{1,2})?)", words)
        if BUDGET_WORDS.search(words[max(0, m.start() - 25) : m.end() + 10])
    }
    stated |= {
        value * 100
        for at, value in _numbers(words)
        if value > 1 and BUDGET_WORDS.search(words[max(0, at - 25) : at + 20])
    }
    if model.budget_cents is not None and model.budget_cents not in stated:
        return f"it reads a budget of ${model.budget_cents / 100:.2f}, which the words do not state"
    ruled = rules.details.get("budget_cents")
    if (
        model.budget_cents is None
        and ruled is None
        and stated
        and re.search(
            r"\b(?:budget|under|at most|max|no more than|less than|spend|only (?:have|got))\b", words, re.I
        )
    ):
        return "the words state a budget it does not read"
    return None


def unaccounted(words: str, rules: GoalReading, model: Reading, menu: Menu) -> str | None:
    """Why the model's reading cannot be taken as the order the words say — or None when every line of it
    is borne out at its dish (see the module)."""
    if model.off_menu:
        return "it reads dishes the menu does not have: " + ", ".join(f'"{w}"' for w in model.off_menu[:3])
    if not model.items:
        return "it reads no dish"
    if model.restaurant is not None and model.restaurant != menu.restaurant:
        return f'it reads another restaurant, "{model.restaurant}"'
    for want in model.items:
        dish = menu.dish(want.dish)
        groups = Counter(o.name for c in want.choices if dish and (o := dish.option_of(c)) is not None)
        if any(n > 1 for n in groups.values()):
            return f'it gives "{want.dish}" two choices of one kind: {", ".join(want.choices)}'
    plain = _without_restaurant(words, rules)  # "from taco fiesta" names no taco
    why = _lines(model, rules, plain, menu) or _fallbacks(model, plain, menu) or _budget(model, rules, words)
    if why is None and model.counts() == from_rules(rules, menu.restaurant).counts() and not model.fallbacks:
        # The same order as the rules': right only if no word that could change it follows a dish they placed.
        after = [
            d
            for d in weighty(words, rules, menu)
            if not _explained(d, model, menu)
            and (at := words.find(d)) >= 0
            and any(i.words.start < at for i in rules.items)
        ]
        if after:
            return f'it reads the order as the rules do, but "{after[0]}" follows a dish they placed'
    return why


def _explained(doubt: str, model: Reading, menu: Menu) -> bool:
    """Whether words the rules left are borne out by a reading that orders what the rules read: no amending
    words in them, no count the reading lacks, and any dish they name one they take out ("no churros")."""
    if AMENDS.search(doubt):
        return False
    quantities = {w.quantity for w in model.items}
    if any(n not in quantities and n != 1 for _, n in _counts(doubt)):
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
    name = menu.restaurant
    plain = re.sub(re.escape(name), " " * len(name), words, flags=re.I) if name else words
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


def leftover(words: str, reading: GoalReading, model: Reading, menu: Menu) -> list[str]:
    """Words the rules left unplaced that a reading of dishes does not settle: a name ("for my grandma, Rosa
    Delgado" where the rules took the sign-off's "Miguel"), a time ("around 7ish", "half seven") — they name
    no dish or choice of the menu and hold no count the reading has. Left to be asked about, as without a
    model."""
    found = []
    named = str(reading.details["name"].value) if "name" in reading.details else ""
    for unclear in reading.unclear:
        text = unclear.words.text
        capitals = [
            w for w in re.findall(r"\b[A-Z][a-z]+\b", text) if w not in ("I", "Im") and w not in named
        ]
        if capitals and not any(_mentions(dish, text, menu) for dish in menu.names):
            found.append(text)  # "for my grandma, Rosa Delgado": a recipient the rules did not place
            continue
        if not re.search(r"\d|\b(?:half|quarter|noon|midnight|tonight|o'?clock|am|pm|ish)\b", text, re.I):
            continue
        if any(_mentions(dish, text, menu) for dish in menu.names):
            continue
        if any(_written_at(c, text) for dish in menu.dishes for c in dish.choices):
            continue
        counts = {w.quantity for w in model.items}
        if model.budget_cents is not None:
            counts.add(model.budget_cents // 100)
        if any(v in counts for _, v in _numbers(text)) and not re.search(r"\d\s*(?:ish|pm|am|:)", text, re.I):
            continue
        found.append(text)
    return found
