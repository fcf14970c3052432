"""The people an order is for, where the words count them: one each for the four of us, half of the party,
one for every so many, the people a dish is said to be for ("for each of the 3 kids").

Where the checks of a model's reading (webagent/planner/accounts.py) work out a count from people. Pure: no
browser code.
"""

from __future__ import annotations

import re

from webagent.planner.mentions import (
    NUMBER_WORDS,
    SENTENCE,
    around,
    asked_mentions,
    counts_in,
    mention_end,
    mentions_of,
    others_after,
    segment_of,
)
from webagent.planner.menu import Menu

__all__ = ["DISTRIBUTIVE", "HALF", "people_for", "people_near", "per_person"]

DISTRIBUTIVE = re.compile(
    r"\b(?:each|per (?:\w+ )?(?:person|head|people|guest|kid|adult)s?|apiece|every ?one|everybody|for all)\b",
    re.I,
)
N = r"(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty)"
WHO = r"(?:kids?|children|child|adults?|people|persons|guests?|friends?|grown-?ups?|parents?|boys?|girls?|of us|twins|triplets)"
OWN_PEOPLE = re.compile(rf"\b(?:for |to )?each of (?:the |my |our |those )?{N}\s+{WHO}\b", re.I)
"""In the words about one dish, the people it is for: "a veggie quesadilla for each of the 3 kids"."""
EACH_OF_US = re.compile(rf"\beach of us\W{{0,3}}{N}\s+(?:people|persons|ppl|of us)\b", re.I)
"""The people said right after "each of us": "a mango lassi for each of us (4 people)"."""
FOR_EVERY = re.compile(rf"\b(?:for every|per|for each) {N}(?:\s+{WHO})?(?!\s*[\w×])", re.I)
"""In the words about one dish, one for every so many: "one patatas bravas for every 2 people"."""
PARTY = re.compile(
    rf"\b(?:we(?:['’]re| are)|there(?:['’]s| are| is)|theres|party of|group of|table for)\s+{N}\b"
    r"(?!\s*(?:minutes?|mins?|hours?|hrs?|h\b|am\b|pm\b|:|min\b|blocks?|miles?|km))"
    rf"|\b{N}\s+(?:of us|people|persons|guests|ppl|folks)\b",
    re.I,
)
"""How many the whole party is: "we're 10 people", "there are 6 of us"."""
HALF = re.compile(
    r"\b(?:(?:the other |the )?half(?: of (?:us|them|the group|the table|everyone))?)"
    r"\s+(?:(?:want|wants|get|gets|have|has|take|takes|will have|would like|like)\s+)?(?:(?:a|an|the|some)\s+)?$",
    re.I,
)
"""Right before a dish, half the party: "half of us want butter chicken", "the other half lamb rogan josh"."""
GROUP = r"(?:adults?|kids?|children|child|grown-?ups?|parents?|teens?|babies|baby|friends?|mates?)"
MORE_PEOPLE = re.compile(rf"\b{N}\s+{GROUP}\b.*\b{N}\s+{GROUP}\b", re.I | re.S)
"""Two groups of people counted apart ("3 adults and 2 kids"): no one number is the party."""
EACH_GETS = re.compile(
    r"\b(?:every ?one|everybody|each of us|each)\s+(?:gets?|wants?|has|have|will have|takes?|needs?)\s+"
    rf"(?:a|an|{N})\s*$",
    re.I,
)
"""Before a dish, words that give some to each person ("everyone gets a cola", "the 3 of us each want 2 salmon
nigiri": 6; not "everyone's sharing 2…")."""
SELF_PLUS = re.compile(
    r"\b(?:me|myself)\s*(?:and|plus|\+|,|&)|(?:\b(?:and|plus)|[+&])\s*(?:me|myself)\b"
    r"|,\s*(?:me|myself)\b(?=\s*(?:$|[-–—:.;!)\n]|too\b|included\b|as well\b))",
    re.I,
)
""""me and 3 mates", "our 2 kids, me": the writer counts too (not "I need one each for my 3 kids", nor "2 kids
each get a burrito, me the nachos": a third reviewer)."""


def per_person(dish: str, words: str, menu: Menu) -> tuple[int, int] | None:
    """(each person's count, the mention) where the words give ``dish`` to each of several ("one pad thai
    each for the four of us" → 1, "one patatas bravas for every 2 people", "half of us want …"); None where
    they do not."""
    for at in asked_mentions(dish, words, menu):
        nxt = [o for o in others_after(dish, words, menu) if o > at]
        sentence = SENTENCE.search(words, at)
        before = around(dish, words, menu, at)[0]  # "everyone gets a cola", "a cola for everyone"
        span = words[at : min([sentence.start() if sentence else len(words), *nxt])]
        span = OF_THE_DISHES.sub(
            " ", span
        )  # "2 dragon rolls, each of the 2 cut in half": each roll, not person
        if (
            DISTRIBUTIVE.search(span)
            or FOR_EVERY.search(span)
            or EACH_GETS.search(before)
            or HALF.search(before)
            or _shares_each(dish, words, menu, at)
        ):
            counts = [v for _, v in counts_in(before)]
            return (counts[-1] if counts else 1), at
    return None


JOINED = re.compile(r"^\s*(?:,|&|\+|and|plus|n|with)\s*(?:a|an|one|1)?\s*$", re.I)
"""Between two dishes of one phrase, one of each: "a tonkotsu ramen and a calpico", "a wrap (medium) + ayran"."""


def _shares_each(dish: str, words: str, menu: Menu, at: int) -> bool:
    """Whether ``dish`` at ``at`` is one of two dishes joined in one phrase that gives one to each person as a
    whole: "each get a tonkotsu ramen and a calpico", "a spicy tuna roll and a miso soup for everyone"."""
    sentence = SENTENCE.search(words, at)
    end = sentence.start() if sentence else len(words)
    for other in menu.names:
        for o in mentions_of(other, words, menu) if other != dish else ():
            between = re.sub(r"\([^)]*\)", "", words[mention_end(other, words, o) : at])
            if o < at and JOINED.match(between) and EACH_GETS.search(around(other, words, menu, o)[0]):
                return True  # "each get a tonkotsu ramen and a calpico"
            if o > at and JOINED.match(re.sub(r"\([^)]*\)", "", words[mention_end(dish, words, at) : o])):
                nxt = [n for n in others_after(other, words, menu) if n > o]
                span = words[mention_end(other, words, o) : min([end, *nxt])]
                if DISTRIBUTIVE.search(span) and not re.search(r"\beach\b", span[:12], re.I):
                    return (
                        True  # "a spicy tuna roll and a miso soup for everyone" (not "… and a pad thai each")
                    )
    return False


PERSON = re.compile(
    r"\bmy (?:wife|husband|partner|mom|mum|mother|dad|father|friend|boss|son|daughter|brother|sister|girlfriend"
    r"|boyfriend|roommate|flatmate|colleague|neighbou?r)\b",
    re.I,
)
"""One more person named beside a number ("me, my wife and our 2 kids"): a count no number says."""


ONE_MORE = re.compile(
    r"(?:\+|\band\b|&|plus)\s*(?:1|one|a)\s+(?:kid|child|friend|adult|person|guest|baby|teen|colleague|mate)\b",
    re.I,
)
"""A person added to a number ("3 adults + 1 kid"): the count is the sum, which no one number says."""


OF_THE_DISHES = re.compile(rf"\beach of (?:the|those|them)(?!\s+(?:{N}\s+)?{WHO})(?:\s+{N})?\b", re.I)
"""Each of the dishes, not of people: "wrap each of the 3 separately"."""
COUNTED_OTHERWISE = re.compile(
    rf"\b(?:except|apart from|but not|besides|other than|the others|the rest)\b|\b{N}\s+(?:are|is)\b"
    r"|\b(?:some|a few|several|and|plus|with|maybe) (?:others|more people|more of us|friends|guests|people)\b"
    r"|\betc\b|\band co\b",
    re.I,
)
"""Words that take people out of the party, count some apart or leave it open ("except the 2 drivers", "2 are
vegan", "me and 4 friends and some others")."""


def _number(text: str) -> int:
    """A number written in digits or as a word ("3", "three"); 0 for anything else."""
    return NUMBER_WORDS.get(text.lower()) or (int(text) if text.isdecimal() else 0)


def people_for(dish: str, words: str, menu: Menu, at: int) -> int | None:
    """How many people the words give ``dish`` to at the mention at ``at``: the people named there ("for each of
    the 3 kids" → 3, "for each of my 2 kids and me" → 3); half the party, or one for every so many of it, only
    where the party is one number and nothing counts people otherwise ("we're 6 …: half of us want …" → 3);
    else `people_near`. None: the words do not say — asked."""
    if _named_beside(words, menu) or NOT_IN_IT.search(words):
        return (
            None  # "our 2 kids, Jin each want …", "Tom isn't hungry": a person no number counts, or one out
        )
    said = segment_of(dish, words, menu, at)
    if SHARED.search(said):
        return None  # "each get 2 salmon nigiri to share": each, or between them?
    if twins := re.search(r"\b(?:each of )?(?:the |my |our |both )?(twins|triplets)\b", said, re.I):
        return {"twins": 2, "triplets": 3}[twins.group(1).lower()] + (1 if SELF_PLUS.search(said) else 0)
    if (own := OWN_PEOPLE.search(said) or EACH_OF_US.search(said)) and _number(own.group(1)) > 1:
        return _number(own.group(1)) + (1 if SELF_PLUS.search(said) else 0)
    halved, every = HALF.search(around(dish, words, menu, at)[0]), FOR_EVERY.search(said)
    party = {_number(next(g for g in m.groups() if g)) for m in PARTY.finditer(FOR_EVERY.sub(" ", words))}
    people = {_number(m.group(1)) for m in re.finditer(rf"\b{N}\s+{WHO}", FOR_EVERY.sub(" ", words), re.I)}
    counted_once = (
        len(party) == 1
        and people <= party
        and not (PERSON.search(words) or ONE_MORE.search(words) or COUNTED_OTHERWISE.search(words))
    )
    if COUNTED_OTHERWISE.search(words):
        return None  # "a cola each, except me", "2 are vegan": no number says how many
    if not (halved or every):
        return (
            next(iter(party)) if counted_once and DISTRIBUTIVE.search(said) else people_near(words, menu, at)
        )
    if not counted_once:
        return None  # "me and 3 friends: half of us …", "one for every 2 people" with no party: asked
    total = party.pop()
    n = 2 if halved else _number(every.group(1)) if every else 0
    return total // n if n > 1 and total % n == 0 else None


def people_near(words: str, menu: Menu, at: int) -> int | None:
    """How many people the words count, nearest the mention at ``at``: a number that counts no dish nor the
    people another dish is for, one more where the writer counts too ("me and 3 mates" → 4), divided by "per
    two people"."""
    found = []
    claimed = [m.span() for m in OWN_PEOPLE.finditer(words)]  # "… a lava cake for each of the 2 parents"
    for place, value in counts_in(words):
        if any(start <= place < end for start, end in claimed):
            continue  # people another dish is said to be for, in its own words: not the ones counted here
        head = re.split(r"[,;.!?]", re.sub(r"^\w+\s*(?:x\s*)?", "", words[place : place + 40]), maxsplit=1)[0]
        if any(o <= 12 for dish in menu.names for o in mentions_of(dish, head[:30], menu)):
            continue  # "2 nachos supreme": a dish's count, not people
        if re.match(r"\s*(?:minutes?|mins?|hours?|hrs?|blocks?|miles?|km|stops?)\b", head, re.I):
            continue  # "we are 10 minutes away": a time or a distance, not people
        if value > 1:
            found.append((abs(place - at), place, value))
    if not found:
        return None
    if len({value for _, _, value in found}) > 1 or PERSON.search(words) or ONE_MORE.search(words):
        return None  # "2 adults and 3 kids", "me, my wife and our 2 kids": counted otherwise than by a number
    _, place, people = min(found)
    per = re.search(r"\bper (\w+) (?:people|persons|guests|adults|kids)\b", words, re.I)
    if per and (n := _number(per.group(1))):
        return people // n if n > 1 and people % n == 0 and people != n else people
    return people + 1 if SELF_PLUS.search(words) else people


NAME = r"(?<![.!?:]\s)(?<!^)\b([A-Z][a-z]{1,14})\b(?!['’]s\b)"
PEOPLE_WORD = (
    r"(?i:\b(?:me|myself|i|(?:my|our|the|his|her)\s+(?:\w+\s+)?\w+|(?:\d+|two|three|four|five)\s+\w+))"
)
LIST_SEP = r"\s*(?:,|\band\b|&|\+|\bplus\b)\s*"
NAMED_BESIDE = re.compile(rf"{NAME}{LIST_SEP}{PEOPLE_WORD}|{PEOPLE_WORD}{LIST_SEP}{NAME}")
"""A first name in a list with people ("our 2 kids, Jin", "me and Sam"): one more no number counts."""


def _named_beside(words: str, menu: Menu) -> bool:
    """Whether a first name stands in a list with people (`NAMED_BESIDE`) — not a word of the menu's or the
    restaurant's names ("Italian Bistro, and 2 lemonades")."""
    own = {w.lower() for name in (*menu.names, menu.restaurant or "") for w in re.findall(r"\w+", name)}
    for found in NAMED_BESIDE.finditer(words):
        name = found.group(1) or found.group(2)
        if name and name.lower() not in own and name.lower() not in NUMBER_WORDS:
            return True
    return False


NOT_IN_IT = re.compile(
    r"\b(?:not|isn['’]?t|aren['’]?t|won['’]?t|doesn['’]?t|never|can['’]?t)\s+(?:\w+\s+)?(?:hungry|eating|eat|coming"
    r"|joining|make it)\b|\balready (?:ate|eaten|had)\b|\bnothing for\b|\bskipping\b|\bsitting (?:this|it) out\b",
    re.I,
)
"""Someone who is not in the party this time ("Tom's not hungry", "Sam can't make it", "nothing for my wife")."""


SHARED = re.compile(r"\b(?:to share|between (?:us|them|the \w+)|split|for the table|shared)\b", re.I)
"""Words that share what they give each: "each get 2 salmon nigiri to share" — each, or between them?"""
