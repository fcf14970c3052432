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
  must take something out; a dish corrected into another ("kung pao.. I mean mapo tofu") is not ordered;
- a count the words leave open ("3, or maybe 4?") is no count;
- every dish the words name is in its reading (ordered, a fallback) or taken out;
- a fallback's dish is named in a condition about the dish it stands in for, in the count written there,
  and "nothing instead" only where the words say so;
- a budget it reads is an amount the words state beside a budget's words.

`unaccounted` says the first thing that does not hold; anything it cannot bear out is asked about, never
guessed. These are rules too, but they check a proposal against the words instead of reading them alone.
Before them, `pruned` takes away what the words cannot bear and taking away orders nothing more (a
fallback nobody stated, a dish in reserve ordered outright too, an invented choice). Where the words say
what: webagent/planner/mentions.py; the words the rules could not place: webagent/planner/unplaced_words.py.

Pure: no browser code.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from itertools import pairwise

from webagent.planner.chosen import added_on, choice_not_written, unused_choice
from webagent.planner.doubts import AMENDS, weighty
from webagent.planner.mentions import (
    BUDGET_WORDS,
    CONDITION,
    CORRECTION,
    FILLER,
    IF_AVAILABLE,
    IN_PLACE_OF,
    PART,
    SENTENCE,
    UNDECIDED,
    around,
    asked_mentions,
    conditional,
    counts_in,
    elsewhere,
    mention_end,
    mentions_of,
    negated,
    negated_list,
    numbers_in,
    others_after,
    pointed_away,
    segment_of,
    someone_elses,
    vague_before,
    written_at,
)
from webagent.planner.menu import Menu
from webagent.planner.people import people_for, per_person
from webagent.planner.recounts import recounted, written_count
from webagent.planner.reserve import may_fall_back, stated_fallback, unread_fallback
from webagent.planner.spec import GoalReading, Reading, Want, from_rules
from webagent.planner.unplaced_words import (
    another_kind,
    explained,
    named_again,
    of_its_name,
    unread_ask,
    unread_dish,
    unread_food,
    unswapped,
)
from webagent.planner.words import key, pieces_or_portions

__all__ = ["fees_said", "left_out", "leftover", "named_dishes", "plain_words", "unaccounted"]


def _fewer_with(
    name: str, lines: Sequence[Want], words: str, menu: Menu, places: Sequence[int]
) -> str | None:
    """Why lines give a choice to more of a dish than the words do ("2 margherita pizzas, one with bacon",
    "2 chicken burritos, make one of them hot"), or None."""
    dish = menu.dish(name)
    if dish is None:
        return None
    region = words[places[0] : places[-1]] + segment_of(name, words, menu)
    for want in lines:
        for choice in want.choices:
            for m in re.finditer(
                rf"\b(one|1|\d+|two|three)(?: of (?:them|those|the \w+))?\s+(?:with\s+|w/?\s*|in\s+|on\s+)?"
                rf"(?:the\s+)?{re.escape(choice)}\b",
                region,
                re.I,
            ):
                n = (
                    int(m.group(1))
                    if m.group(1).isdigit()
                    else {"one": 1, "two": 2, "three": 3}[m.group(1).lower()]
                )
                given = sum(w.quantity for w in lines if choice in w.choices)
                if n < want.quantity or (len(lines) > 1 and n != given):  # "3 burritos, 2 mild and 2 hot"
                    return f'it gives "{choice}" to {given} × "{name}", but the words to {n}'
    return None


def _taken_out(dish: str, words: str, rules: GoalReading, menu: Menu, kept: Sequence[str]) -> bool:
    """Whether the words take ``dish`` out: its last mention negated or swapped away, or a correction right
    after it (no other dish between) followed by a dish the reading ``kept`` ("a lasagna — no sorry, a
    carbonara"), not one that adds ("…, oh and actually a lemonade too")."""
    places = mentions_of(dish, words, menu)
    if places and PART_OF.search(words[max(0, places[-1] - 30) : places[-1]]):
        return False  # "change one of the tonkotsu to a shoyu ramen": one goes, not every one
    if places and (
        removed(dish, words, menu, places[-1])
        or pointed_away(dish, words, {*(i.dish for i in rules.items), *kept}, places[-1])
    ):
        return True
    if not places:
        return False
    at = places[-1]
    nxt = [o for o in others_after(dish, words, menu) if o > at]
    found = CORRECTION.search(words, mention_end(dish, words, at))
    if found is None or (nxt and min(nxt) < found.start()) or re.match(r"\s+of\b", words[found.end() :]):
        return False
    rest = SENTENCE.split(words[found.end() :])[0]
    if re.search(r"\b(?:too|also|as well|and also|another)\b", rest, re.I):
        return False
    named = re.search(rf"{IN_PLACE_OF}\b", rest, re.I)
    said = rest[named.end() :] if named else ""  # it names the dish that goes, not this one: "… actually a
    placed = {
        key(w) for i in rules.items if i.dish != dish for w in re.findall(r"[\w']+", i.dish) if len(w) > 3
    }
    if (
        any(mentions_of(o, said, menu) for o in menu.names if o != dish)
        or placed & {key(w) for w in re.findall(r"[\w']+", said)}  # "… instead of the pancakes" (one ordered)
    ) and not mentions_of(dish, said, menu):
        return False  # lasagna instead of the carbonara" (not "… instead of that": asked)
    # Another dish the reading keeps, right after a correction that takes back what came before ("kung pao
    # chicken.. I mean mapo tofu", "a lasagna - no sorry, a carbonara"); not "3 salmon nigiri - no, 4 - and
    # a miso soup", not a word of hesitation or an added dish ("2 tacos, hmm, a horchata", "a lasagna for me
    # and, sorry, a tiramisu").
    if not TAKES_BACK.search(found.group(0)) or re.search(
        r"\b(?:and|plus|also|with)\b|[&+]", words[mention_end(dish, words, at) : found.start()], re.I
    ):
        return False
    return any(
        o > found.end()
        and FILLER.fullmatch(words[found.end() : o])
        and not negated(words, o)  # "pad thai, no churros": the churros are taken out, not put in
        and not conditional(words, o)  # "…, if no churros then nachos"
        for other in kept
        if other != dish
        for o in mentions_of(other, words, menu)
    )


PART_OF = re.compile(
    r"\b(?:one|1|two|2|three|3|some|half|a couple)\s+of\s+(?:the|those|these|them|my|our|its|their)?\s*"
    r"(?:\d+\s+|two\s+|three\s+|four\s+)?$",
    re.I,
)
"""Words before a dish that take only part of it: "one of the tonkotsu", "one of the 2 beef phos"."""

TAKES_BACK = re.compile(
    r"\b(?:no|nope|nah|wait|i mean|i meant|actually|acutally|actualy|scratch|scrach|correction|rather"
    r"|change of plans?)\b",
    re.I,
)
"""A correction that takes back the dish before it, where a mere "sorry" or "hmm" may only add."""


def removed(dish: str, words: str, menu: Menu, at: int) -> bool:
    """Whether the mention of ``dish`` at ``at`` is taken out of the order: negated, outside a condition, and
    not a change of its own choice ("change the burrito to hot", "make the pad thai mild"); or counted none
    ("horchata = no", "horchata x0", "0 horchata", "~~horchata~~")."""
    after = words[mention_end(dish, words, at) :]
    if re.match(
        r"\s*(?:=\s*(?:no|none|0)\b|x\s?0\b|~~|(?:is|are) enough\b|can go\b)", after, re.I
    ) or re.search(r"(?:(?<![\d.])\b0\s*(?:x\s*)?|~~)$", words[max(0, at - 6) : at]):
        return not conditional(words, at)
    if not (negated(words, at) or negated_list(dish, words, menu, at)) or conditional(words, at):
        return False  # "skip the gyoza and karaage": the karaage too
    found = menu.dish(dish)
    choices = found.choices if found else []
    return not any(
        re.match(rf"\s*(?:to|into|a|an|one|it)?\s*{re.escape(c)}\b", after, re.I) for c in choices
    ) and not re.match(
        r"\s*(?:to|into)\s+(?:be\s+)?(?:mild|medium|hot|spicy|large|small|regular)\b", after, re.I
    )


def plain_words(words: str, rules: GoalReading) -> str:
    """The words with the restaurant's name blanked ("from taco fiesta" names no taco), and the address and
    phone the rules read ("… to 9 Orchard Lane, zip 94110" counts nothing), and their asides ("make sure the
    tacos are warm" asks for no taco)."""
    spans = [d.words for k, d in rules.details.items() if k in ("address", "phone")] + list(rules.asides)
    for at in [rules.restaurant.words] if rules.restaurant else []:
        spans.append(at)
    for at in spans:
        if words[at.start : at.end] == at.text:
            words = words[: at.start] + " " * (at.end - at.start) + words[at.end :]
    return words


def _lines(model: Reading, rules: GoalReading, words: str, menu: Menu, own: bool = False) -> str | None:
    """Why the reading's dishes, counts and choices are not the ones written at each dish, or None (``own``:
    the rules' reading, whose sum of "… one more taco" is theirs to make)."""
    rules_count: Counter[str] = Counter()
    for item in rules.items:
        rules_count[item.dish] += item.quantity
    model_count = model.per_dish()
    ordered = sorted((at, name) for name in model_count for at in asked_mentions(name, words, menu))
    for (at, first), (nxt, second) in pairwise(ordered):
        gap = words[mention_end(first, words, at) : nxt]
        if (
            first != second
            and re.search(
                r"\bor\b(?!\s+(?:if|rather|else|maybe|perhaps|so)\b|\s+(?:\d+|one|two|three|four|five)\b\s*\S)",
                gap,
                re.I,
            )
            and not CONDITION.search(gap)
        ):
            return f'the words offer "{first}" or "{second}", and it orders both'
    for name, quantity in model_count.items():
        places = mentions_of(name, words, menu)
        if any(
            re.search(r"\b(?:more|another|additional)\s+$", words[max(0, p - 14) : p], re.I)
            or re.match(r"\s*more\b", words[mention_end(name, words, p) :], re.I)
            for p in places[1:]
        ):  # "2 horchatas…, oh and 2 more horchatas": a sum no count at the dish says (the rules' own)
            if own:
                continue
            return f'the words add more "{name}" to what they asked for before'
        if not places:
            return f'"{name}" is not named in the words'
        if not asked_mentions(name, words, menu):
            return f'the words name "{name}" only in a condition or to leave it out'
        if all(someone_elses(words, at) for at in asked_mentions(name, words, menu)):
            return f'the words name "{name}" only about another time or person ("she had … last time")'
        if removed(name, words, menu, places[-1]) or any(
            removed(name, words, menu, i.words.start) for i in rules.items if i.dish == name
        ):
            return f'the words take "{name}" out'
        if _taken_out(name, words, rules, menu, list(model_count)):
            return f'the words put another dish in the place of "{name}"'
        lines = [w for w in model.items if w.dish == name]
        if why := _fewer_with(name, lines, words, menu, places):
            return why
        for want in (
            [] if own else lines
        ):  # the rules' own: `unwritten_choices` (chosen.py), on the words unblanked
            if why := choice_not_written(want, words, menu, split=len(lines) > 1):
                return why
        if not own and (unused := unused_choice(name, model, words, menu)):
            return f'the words choose "{unused}" for "{name}", which it does not read'
        each = per_person(name, words, menu)
        if each is not None:
            people = people_for(name, words, menu, each[1])
            if people is None or quantity != each[0] * people:
                return f'it reads {quantity} × "{name}", but the words give {each[0]} to each of the people'
            if pieces_or_portions(
                name, each[0], words[places[0] : places[-1]] + segment_of(name, words, menu)
            ):
                return f'the words may count the pieces of "{name}" each gets, not its portions'
            continue
        if vague_before(name, words, menu, places[0]):  # "a few carnitas tacos"
            return f'the words leave how many "{name}" undecided'
        if again := recounted(name, words, menu):
            return f'the words change how many "{name}" ("{again}"), and no count says to what'
        if (anew := _asked_again(name, words, menu)) > quantity:
            return f'it reads {quantity} × "{name}", but the words ask for it {anew} times'
        written = written_count(name, words, menu)
        # "3 or 4 carnitas tacos", "2 carnitas tacos, or maybe 3 carnitas tacos?": from the words before its
        # first mention to the end of what is said after its last.
        begin = places[0] - len(around(name, words, menu, places[0])[0])
        region = words[begin : places[-1]] + segment_of(name, words, menu)
        if UNDECIDED.search(region) and {v for _, v in counts_in(region)} - {written}:
            return f'the words leave how many "{name}" undecided'
        if written is None:
            return f'it reads {quantity} × "{name}", but the words count it where no count is written at it'
        if quantity != written:
            return f'it reads {quantity} × "{name}", but the words write {written}'
        if pieces_or_portions(name, written, region):  # "4 samosas" of Samosa (2): 2 portions or 4?
            return f'the words may count the pieces of "{name}", not its portions'
        if len(lines) > 1:  # split lines: each count is one written about the dish
            tail = words[places[0] :]
            if any(w.quantity != 1 and w.quantity not in {v for _, v in counts_in(tail)} for w in lines):
                return f'it splits "{name}" into counts the words do not write'
    for name in rules_count:
        if name in model_count or any(f.instead_of == name for f in model.fallbacks):
            continue
        takes = {f.take.dish for f in model.fallbacks if f.take is not None}
        if name in takes and all(conditional(words, at) for at in mentions_of(name, words, menu)):
            continue  # "…, else 2 california rolls": the rules ordered what the words hold in reserve
        if not _taken_out(name, words, rules, menu, list(model_count)):
            return f'it leaves out "{name}", which the words do not take out'
    bare = [m.start() for m in re.finditer(r"\binstead\b(?!\s+of)", words, re.I)]
    if (
        any(not conditional(words, at) for at in bare)
        and rules_count
        and set(rules_count) <= set(model_count)
    ):
        return 'it adds what the words swap in ("instead") without taking anything out'
    for name in menu.names:  # "chicken parmigiana if available, otherwise …": asked for, if it can be had
        if name not in model_count and any(
            AVAILABLE_AFTER.match(words[mention_end(name, words, at) :]) and not negated(words, at)
            for at in mentions_of(name, words, menu)
        ):
            return f'the words ask for "{name}" where it can be had, and it does not read it'
    accounted = {*model_count, *(f.instead_of for f in model.fallbacks)}
    accounted |= {f.take.dish for f in model.fallbacks if f.take is not None}
    for name in menu.names:
        if name in accounted or _taken_out(name, words, rules, menu, list(model_count)):
            continue
        asked = asked_mentions(name, words, menu)
        if asked and not all(elsewhere(words, at) for at in asked):  # not "she had the samosas last time"
            return f'the words name "{name}", which it does not read'
    return None


AVAILABLE_AFTER = re.compile(rf"\s*[(,]?\s*(?:{IF_AVAILABLE.pattern})", re.I)
"""Right after a dish, the words that ask for it where the shop has it ("… if available, otherwise …")."""


def _asked_again(name: str, words: str, menu: Menu) -> int:
    """How many times the words ask for ``name`` anew, where each later mention is one more ("a/an/another",
    or a list's next item; no correction between): "lobster roll for me, a lobster roll for Mark" is 2 — 0
    where they do not."""
    asked = asked_mentions(name, words, menu)
    if len(asked) < 2:
        return 0
    for before, at in pairwise(asked):
        anew = re.search(  # "a lobster roll for Mark", "…; kombucha; kombucha": one more, each
            r"\b(?:a|an|one|1|another)\s+$|(?:[;,+&\n]|\band\b|\bplus\b)\s*$",
            words[max(0, at - 10) : at],
            re.I,
        )
        if not anew or CORRECTION.search(words[before:at]):
            return 0
    return len(asked)


def _fallbacks(model: Reading, words: str, menu: Menu) -> str | None:
    """Why the reading's fallbacks are not the ones the words state, or None."""
    held = Counter(fallback.instead_of for fallback in model.fallbacks)
    if twice := [dish for dish, n in held.items() if n > 1]:  # "…, and if no salmon either then nothing"
        return f'it reads more than one fallback for "{twice[0]}"'
    for fallback in model.fallbacks:
        take = fallback.take
        if take is None:
            if not stated_fallback(fallback, words, menu):
                return f'it reads nothing in place of "{fallback.instead_of}", which the words do not say'
            continue
        if menu.dish(take.dish) is None:
            return f'its fallback "{take.dish}" is not on the menu'
        places = mentions_of(take.dish, words, menu)
        if not places:
            return f'its fallback "{take.dish}" is not named in the words'
        if not any(conditional(words, at) for at in places) or all(
            re.search(r"\b(?:and|plus|also)\s+(?:an?|one|\d+|some)?\s*$", words[max(0, at - 12) : at], re.I)
            and not CONDITION.search(words[max((m.end() for m in PART.finditer(words[:at])), default=0) : at])
            for at in places
        ):  # "if no banh mi then spring rolls, and a vietnamese iced coffee": ordered, in the same sentence
            return f'its fallback "{take.dish}" is not named in a condition'
        if take.dish in model.per_dish():
            return f'it orders its fallback "{take.dish}" outright too'
        if take.quantity != written_count(take.dish, words, menu):
            return f'it reads {take.quantity} × "{take.dish}" in reserve, which the words do not write'
        if why := choice_not_written(take, words, menu, split=False):
            return why
    if model.fallbacks and not may_fall_back(words):
        return "it reads a fallback the words do not state"
    return None


def fees_said(words: str) -> bool | None:
    """Whether the words count the fees in a budget ("under thirty bucks all in": True; "budget 25 bucks
    before fees": False), or None where they do not say."""
    food = re.search(
        r"before fees|food only|\bexcl|not including|without (?:the )?fees|fees? (?:don|do not)", words, re.I
    )
    if food:
        return False
    all_in = re.search(
        r"\ball[- ]in\b|\bincl(?:uding|uded|\.)?\b|\bwith (?:the )?fees\b|\btotal\b", words, re.I
    )
    return True if all_in else None


def _budget(model: Reading, rules: GoalReading, words: str) -> str | None:
    """Why the reading's budget is not one the words state, or None."""
    other = [d.words for k, d in rules.details.items() if k != "budget_cents"]  # "leave a $4 tip"
    words = "".join(" " if any(w.start <= i < w.end for w in other) else c for i, c in enumerate(words))
    stated = {
        round(float(m.group(1)) * 100)
        for m in re.finditer(r"(\d+(?:\.\d{1,2})?)", words)
        if BUDGET_WORDS.search(words[max(0, m.start() - 25) : m.end() + 10])
    }
    stated |= {
        value * 100
        for at, value in numbers_in(words)
        if value > 1 and BUDGET_WORDS.search(words[max(0, at - 25) : at + 20])
    }
    if model.budget_cents is not None and model.budget_cents not in stated:
        return f"it reads a budget of ${model.budget_cents / 100:.2f}, which the words do not state"
    amounts = [
        (m.start(), round(float(m.group(1)) * 100))
        for m in re.finditer(r"(\d+(?:\.\d{1,2})?)", words)
        if round(float(m.group(1)) * 100) in stated
    ]
    if (
        model.budget_cents is not None
        and len({v for _, v in amounts}) > 1
        and max(amounts)[1] != model.budget_cents
    ):
        return (
            f"it reads a budget of ${model.budget_cents / 100:.2f}, where the words go on to another amount"
        )
    said = fees_said(words)
    fees = model.budget_includes_fees
    if model.budget_cents is not None and fees is not None and said not in (None, fees):
        return "it reads the budget's fees otherwise than the words say"
    ruled = rules.details.get("budget_cents")
    if (
        model.budget_cents is None
        and ruled is None
        and stated
        and re.search(
            r"\b(?:budget|under|at most|max|no more than|less than|spend|only (?:have|got)|(?:i['’]?ve|i have|i) got"
            r"|go over)\b",
            words,
            re.I,
        )
    ):
        return "the words state a budget it does not read"
    return None


def unaccounted(words: str, rules: GoalReading, model: Reading, menu: Menu, own: bool = False) -> str | None:
    """Why the model's reading (``own``: the rules' own) cannot be taken as the order the words say — or None
    when every line of it is borne out at its dish (see the module)."""
    if model.off_menu:
        return "it reads dishes the menu does not have: " + ", ".join(f'"{w}"' for w in model.off_menu[:3])
    if not model.items:
        return "it reads no dish"
    if model.restaurant is not None and model.restaurant != menu.restaurant:
        return f'it reads another restaurant, "{model.restaurant}"'
    for want in model.items:
        dish = menu.dish(want.dish)
        groups = Counter(o.name for c in want.choices if dish and (o := dish.option_of(c)) and o.one_of)
        if not own and any(n > 1 for n in groups.values()):  # the rules' own are `_two_of_a_group`'s
            return f'it gives "{want.dish}" two choices of one kind: {", ".join(want.choices)}'
    plain = plain_words(words, rules)  # "from taco fiesta" names no taco
    why = (
        added_on(words, model, menu)
        or _lines(model, rules, plain, menu, own)
        or _fallbacks(model, plain, menu)
        or _budget(model, rules, words)
        or unread_ask(words, rules, model, menu)
        or unread_food(words, rules, model, menu)
        or (
            None
            if own
            else unread_dish(words, rules, model, menu)
            or another_kind(words, rules, model, menu)
            or unread_fallback(plain, model, menu)
        )
        or named_again(words, rules, model, menu)
        or unswapped(plain, rules, model, menu)
    )
    if why is None and not own:  # the rules' own doubts are doubts.py's to hold
        # Words that could change the order, after a dish the rules placed, are borne out only where the
        # reading changes what they speak of: "2 carnitas tacos - no, 3 - and a horchata. same for my wife"
        # read as 3 tacos and a horchata accounts for "no, 3", not for "same for my wife".
        mine, theirs = from_rules(rules, menu.restaurant).counts(), model.counts()
        held = {f.take.dish for f in model.fallbacks if f.take}  # a change of the fallback's own making
        changed = {k for k in {*mine, *theirs} if mine.get(k) != theirs.get(k) and k[0] not in held}
        after = [
            d
            for d in weighty(words, rules, menu)
            if not explained(d, model, menu, words)
            and (at := words.find(d)) >= 0
            and any(i.words.start < at for i in rules.items)
            and not any(of_its_name(d, i.dish) for i in rules.items)
            and not _speaks_of(d, {k: theirs.get(k, 0) for k in changed}, menu)
            and not _of_a_fallback(d, at, model, words, menu)
        ]
        if after:
            return f'it reads the order as the rules do, but "{after[0]}" follows a dish they placed'
    return why


def _of_a_fallback(doubt: str, at: int, model: Reading, words: str, menu: Menu) -> bool:
    """Whether words in doubt are the reading's fallback's own, each sentence of them: held in a condition
    ("if no horchata then a margarita") or naming only what it holds in reserve — not "… then a margarita.
    same for my wife", nor "… nvm 3" after it."""
    if not model.fallbacks:
        return False
    reserve = {f.instead_of for f in model.fallbacks} | {f.take.dish for f in model.fallbacks if f.take}
    for part in re.finditer(r"[^.;!?\n]*[^.;!?\n\s,-][^.;!?\n]*", doubt):
        named = [d for d in menu.names if mentions_of(d, part.group(0), menu)]
        start = at + part.start() + len(part.group(0)) - len(part.group(0).lstrip())
        if not (
            conditional(words, start) or CONDITION.search(part.group(0)) or (named and set(named) <= reserve)
        ):
            return False
    return True


PER_PERSON = re.compile(r"\b(?:each|apiece|per (?:person|head)|everyone|every one|all of us|one for)\b", re.I)


def _speaks_of(doubt: str, changed: dict[tuple[str, frozenset[str]], int], menu: Menu) -> bool:
    """Whether words in doubt speak of a line the reading changed from the rules' (to the count given): its
    dish, the count it now has, or one of its choices ("no, 3 -" of the tacos read as 3)."""
    counts = {n for _, n in counts_in(doubt)}
    if (
        changed
        and not counts
        and not any(mentions_of(d, doubt, menu) for d in menu.names)
        and (AMENDS.search(doubt) or PER_PERSON.search(doubt))
    ):
        return True  # "actually", "->", "instead": what the change itself is; "each": counted anew
    if changed and PER_PERSON.search(doubt):
        return True  # "for me and each of my 2 kids": the count it changed is worked out from these
    return any(
        mentions_of(dish, doubt, menu)
        or any(re.search(rf"\b{re.escape(c)}\b", doubt, re.I) for c in choices)
        or n in counts
        for (dish, choices), n in changed.items()
    )


def named_dishes(words: str, menu: Menu) -> list[str]:
    """The menu's dishes the words name (a whole name, or a word only that dish has), the restaurant's own
    name aside ("taco fiesta" names no taco)."""
    name = menu.restaurant
    plain = re.sub(re.escape(name), " " * len(name), words, flags=re.I) if name else words
    return [dish for dish in menu.names if mentions_of(dish, plain, menu)]


def left_out(words: str, model: Reading, menu: Menu) -> tuple[str, ...]:
    """The dishes the words take out ("but not the tiramisu"): named, last negated, outside a condition,
    and not ordered."""
    ordered = {w.dish for w in model.items}
    found = []
    for dish in menu.names:
        places = mentions_of(dish, words, menu)
        if dish not in ordered and places and removed(dish, words, menu, places[-1]):
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
        if capitals and not any(mentions_of(dish, text, menu) for dish in menu.names):
            found.append(text)  # "for my grandma, Rosa Delgado": a recipient the rules did not place
            continue
        if not re.search(r"\d|\b(?:half|quarter|noon|midnight|tonight|o'?clock|am|pm|ish)\b", text, re.I):
            continue
        if any(mentions_of(dish, text, menu) for dish in menu.names):
            continue
        if any(written_at(c, text) for dish in menu.dishes for c in dish.choices):
            continue
        counts = {w.quantity for w in model.items}
        if model.budget_cents is not None:
            counts.add(model.budget_cents // 100)
        if any(v in counts for _, v in numbers_in(text)) and not re.search(
            r"\d\s*(?:ish|pm|am|:)", text, re.I
        ):
            continue
        found.append(text)
    return found
