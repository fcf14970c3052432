"""What the rules' reading of a request leaves in doubt: the words a model must read, and the words that
make a cart matching the rules' reading a guess.

- `unplaced`: words the rules could not place that could change the order (a count, a size, a correction, a
  fallback, a word close to a dish's name, a choice the dish lacks), not a pleasantry or a house number;
- `amendments`: words with which a request amends itself ("make it 3", "instead", "if the X is sold out",
  "but not the Y after all");
- `weighty`: both, and a dish the rules read with two choices of one group ("one large and one regular");
- `doubts`: every word the rules could not place, and the weighty ones — what a model is asked to read.

Pure: no browser code.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from rapidfuzz import fuzz

from webagent.narration.names import normalize
from webagent.planner.menu import Menu
from webagent.planner.spec import GoalReading, ItemReading, Reading, Unclear
from webagent.planner.words import NUMBER_WORDS, interjection, key

__all__ = [
    "ALTERNATIVE",
    "AMENDS",
    "ORDER_WORDS",
    "PRAISED",
    "UNDECIDED",
    "alternative",
    "amendments",
    "doubts",
    "inside_a_detail",
    "labelled",
    "name_as_count",
    "next_line",
    "the_same",
    "undecided",
    "unplaced",
    "weighty",
]


ORDER_WORDS = re.compile(
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen|couple|pair|half|both|each"
    r"|every|all|more|less|fewer|extra|another|instead|rather|actually|make (?:that|it)|wait|sorry|scratch"
    r"|change|swap|replace|trade|if|unless|else|otherwise|failing|alternatively|back-?up|sold out|unavailable|out of|not|n't|without|except|skip"
    r"|leave out|hold the|no more|only|just|per|apiece|large|small|medium|regular|size|same|ditto|double"
    r"|twice|thrice|repeat|nvm|nevermind|again for)\b",
    re.I,
)
"""Words that can change what is bought — a count, a correction, a swap, a fallback, a leaving out, a size:
left unplaced, they make any cart a guess. Other unplaced words ("you guys are the best") do not."""

AMENDS = re.compile(
    r"\b(?:no,? wait|wait,? no|make (?:that|it) (?:\d+|one|two|three|four|five|six|a|an|just)|actually|scratch|instead"
    r"|rather than|swap|replace|trade|change (?:the|that|it)|failing (?:that|which|this|it|those)|sold out|unavailable|out of stock|run out|otherwise|or else"
    r"|else|after all|except|leave out|skip the|hold the|forget the|cancel the|i meant|on second thought|oops"
    r"|other way (?:round|around)|vice versa|the reverse|not available|n['’]t available|minus|drop the|remove the"
    r"|take off|no need for|don['’]t need|no,? sorry|sorry,? (?:make|i|a|an|\d+|one|two|three|four|five|six|not)"
    r"|never ?mind|nah|ditch|scrap|or rather|change of plans?|correction|acutally|actualy|scrach|make the"
    r"|no[,.]?(?= (?:\d+|one|two|three|four|five|six)\b)|either|undo|good on|says? no|on reflection"
    r"|(?:2nd|second) thoughts?|is better|go with|let['’]?s do|what i['’]?m having|same as me)\b|->|→|=>|=\s*no\b|~~",
    re.I,
)
"""Words with which a request amends itself — a correction, a swap, a fallback, a leaving out. The rules may
read the first words and drop the amendment without a trace ("…, but not the california roll after all"
reads as one California Roll): until a model's reading or the person has settled them, no cart is known to
be what was meant."""

PRAISED = re.compile(
    r"\b(?:(?:is|are|was|were|r) (?:the best|amazing|great|fire|so good|overrated|incredible|delicious|legendary)"
    r"|\w+ (?:rocks?|rule|slaps?)\b|made my (?:day|week|night)|(?:big )?fan of|love your|loves? the|stars? for"
    r"|shout ?out|to die for|top tier|addictive|obsessed|unreal|talks? about|heard (?:great|good) things|= ?life"
    r"|(?:is|are|was|were) (?:so |really )?(?:good|nice|lovely|tasty|yummy|perfect|awesome|fantastic))",
    re.I,
)
"""In a part of a sentence, praise of a dish rather than an order of it: "ps your churros are the best", "5
stars for the churros" — a dish a reading may not *add* on such words (one it leaves out is still asked)."""


NEAR_A_DISH = 75
"""rapidfuzz WRatio: "tiramisoo"/"Tiramisu" 82, "lasagne"/"Lasagna al Forno" 83; "aaa"/"Caesar Salad" 60."""


def inside_a_detail(unclear: Unclear, reading: GoalReading) -> bool:
    """Whether the words lie within words the reader placed as a delivery detail (a house number)."""
    at = unclear.words
    return any(d.words.start <= at.start and at.end <= d.words.end for d in reading.details.values())


def _near_a_dish(words: str, candidates: Sequence[str]) -> bool:
    """Whether ``words`` read as a misspelt dish ("tiramisoo", "lasagne"), not as a name or a pleasantry (a
    word of a letter or two is no part of a name: "thank u" is no Tiramisu)."""
    text = normalize(words)
    if len(text.replace(" ", "")) > 3 and any(
        fuzz.WRatio(text, normalize(c)) >= NEAR_A_DISH for c in candidates
    ):
        return True
    # a word of a dish's name, said of it: "the 2 rolls are cold", "both burgers are wrapped", "the pho has …"
    named = {w for c in candidates for w in normalize(c).split() if len(w) > 2 and w not in NOT_NAMING}
    return any(
        w in named or (len(w) > 3 and any(len(n) > 3 and fuzz.ratio(w, n) >= 80 for n in named))
        for w in text.split()
        if len(w) > 2
    )


NOT_NAMING = frozenset({"and", "the", "con", "with", "for", "del", "los", "las"})
"""Short words of dishes' names that name none ("Fish and Chips")."""


SOMEONE = re.compile(r"\b[A-Z][a-z]+(?:\s+(?:[Vv]an|[Dd]e|[Dd]el|[Dd]a|[Ll]e|[Oo]')?\s*[A-Z][a-z]+)+\b")
"""A person's full name ("Rosa Delgado"): left unplaced beside the name the rules read, it may be the one
the order goes to."""


def unplaced(reading: GoalReading, words: str = "") -> tuple[str, ...]:
    """The words the rules could not place that could change the order: close to a dish's name, a choice
    the dish lacks, `ORDER_WORDS`, or a person's name other than the one they read (not a pleasantry, not
    inside a delivery detail); and, given the ``words`` read, the items not sure to be ordered
    (`_doubtful_items`) and words that change how many of what came before (`RECOUNTS`)."""
    named = str(reading.details["name"].value) if "name" in reading.details else ""
    return tuple(
        dict.fromkeys(
            [
                *(
                    u.words.text
                    for u in reading.unclear
                    if not inside_a_detail(u, reading)
                    and not all(interjection(w) for w in re.findall(r"\w+", u.words.text))  # "hola"
                    and (
                        u.dish
                        or u.options  # a choice said of words that name no dish: "kfc medium + japchae"
                        or ORDER_WORDS.search(u.words.text)
                        or _near_a_dish(u.words.text, u.candidates)
                        or any(m.group(0) not in named for m in SOMEONE.finditer(u.words.text))
                    )
                ),
                *(_doubtful_items(words, reading) if words else ()),
                *_recounts(words),
                *_time_at_a_dish(words, reading),
                *_count_or_name(words, reading),
                *_numbered(words),
            ]
        )
    )


DITTO = re.compile(r"(?m)^[ \t]*(?:[-*•·][ \t]*|\(?\d{1,2}[.)>][ \t]*)?[\"“”〃]+(?:[ \t]*[\"“”〃])*[ \t]*$")
"""A line of a list that says "the same again" by a ditto mark: one more of the line above, or nothing?"""


def _numbered(words: str) -> tuple[str, ...]:
    """Lines that begin 1, 2, 3 … in turn with no mark after the number ("1 large hawaiian\n2 regular meat
    lovers\n3 colas"): counts, or the list's own numbers? (an adversary's, read as counts.)"""
    found = re.findall(r"(?m)(?:^|:)[ \t]*((\d{1,2})[ \t]+[^\W\d].*)$", words)
    counted = [int(n) for _, n in found] == list(range(1, len(found) + 1))
    ditto = tuple(m.group(0).strip() for m in DITTO.finditer(words))
    labelled = tuple(m.group(0).strip() for m in LABELLED.finditer(words))
    return (tuple(line for line, _ in found) if len(found) > 1 and counted else ()) + ditto + labelled


LABELLED = re.compile(
    r"\b(?:option|opt|combo|item|choice|menu item)[ \t]*(?:no\.?|#)?[ \t]*(?:\d{1,2}|one|two|three|four|five|six)\b"
    r"|\[\s*\d{1,2}\s*\]",
    re.I,
)
"""A number that labels rather than counts: "option 2 beef tibs", "beef tibs [2]" (an adversary's, read as 2);
on the same line ("… vegetarian combo\n2) 1 beef tibs" is a list's next number: a random property draw)."""


ALTERNATIVE = re.compile(
    r"\b(?:preferably|ideally|if possible|(?:i['’]?d|i would|we['’]?d) prefer|would be best|rather)\b.*"
    r"\b(?:(?:is|are|would be|'s)\s+(?:also\s+)?(?:fine|ok|okay|good|alright)(?:\s+(?:too|as well|also))?"
    r"|would do|works(?: too)?|will do)\b",
    re.I | re.S,
)
"""A dish preferred and another allowed in its place: "preferably chicken parmigiana, penne arrabbiata is fine
too" — one of the two, never both (an adversary's, read as both)."""


def alternative(words: str, model: Reading, menu: Menu) -> str | None:
    """Why a reading with no fallback cannot be borne out by words that prefer one dish and allow another, or
    None (not a time preferred: "preferably before 7pm, whenever is fine too")."""
    found = ALTERNATIVE.search(words)
    if found is None or model.fallbacks:
        return None
    begun = max((m.end() for m in re.finditer(r"[.!?\n]", words[: found.start()])), default=0)
    span = normalize(
        words[max(begun, found.start() - 60) : found.end()]
    )  # "chicken parmigiana ideally, but …"
    if sum(1 for name in menu.names if normalize(name) in span) < 2:
        return None
    return f'the words prefer one dish and allow another ("{found.group(0)[:60]}"), and it reads no fallback'


def labelled(words: str) -> str | None:
    """Why no reading's count can be borne out by words that number a dish as a label ("option 2 beef
    tibs"), or None."""
    found = LABELLED.search(words)
    return f'the words write "{found.group(0)}", a label or a count' if found else None


def _count_or_name(words: str, reading: GoalReading) -> tuple[str, ...]:
    """A dish whose name holds a number, read with that count where the words do not write the number's word:
    "4 cheese pizza" of Four Cheese Pizza — four pizzas, or the Four Cheese? (a sixth reviewer's, approved as 4
    pizzas; "4-cheese pizza", "cheese pizza x4" an adversary's)."""
    # "4-cheese pizza", "cheese pizza x4": the Four Cheese, once?
    return tuple(i.words.text for i in reading.items if _count_of_its_name(i.dish, i.quantity, i.words.text))


def _count_of_its_name(dish: str, quantity: int, words: str) -> bool:
    """Whether ``quantity`` is a number ``dish``'s name holds, its word not written in ``words``."""
    return any(
        NUMBER_WORDS.get(key(word)) == quantity and not re.search(rf"\b{word}\b", words, re.I)
        for word in re.findall(r"[\w']+", dish.lower())
    )


def name_as_count(words: str, model: Reading) -> str | None:
    """`_count_or_name` of any reading (a model's too): a line of a dish whose name holds a number, counted
    that number where the words do not write the number's word ("4 cheese pizza large" read as 4 × Four
    Cheese Pizza) — why the words do not bear it out, or None."""
    for want in model.items:
        if _count_of_its_name(want.dish, want.quantity, words):
            return f'it reads {want.quantity} × "{want.dish}", but the {want.quantity} may be of its name'
    return None


SAME_AS = re.compile(
    r"\b(?:(?:have|having|wants?|get|gets|takes?|order|orders|likes?)\s+the same\b(?!\s+(?:base|size|sauce|rice|way))"
    r"|the same (?:for|as (?:her|his|my|me|him|them|\w+['’]s))\b|what (?:i['’]?m|i am|he['’]?s|she['’]?s|they['’]?re)"
    r" (?:having|getting|ordering)|ditto\b|\bthe same(?=\s*(?:$|[.,;!?)]|too\b|please\b|pls\b)))",
    re.I,
)
"""Words that order one more of a dish by pointing at another person's: "I'll have the same", "the same for
me", "wants the same as her brother", "what I'm having", "… and for Sam and Jo the same" — a count no number
writes."""


def undecided(words: str, reading: GoalReading) -> str | None:
    """A count the rules could not place that the words leave open ("two, or maybe three, lasagna"): a count
    no reading can bear out — why, or None."""
    for unclear in reading.unclear:
        if not any(key(w) in NUMBER_WORDS or w.isdecimal() for w in re.findall(r"\w+", unclear.words.text)):
            continue
        said = words[unclear.words.start : unclear.words.end + 24]
        if UNDECIDED.search(said) or RANGE.search(unclear.words.text):
            return f'the words leave the count "{unclear.words.text}" undecided'
    dishes = {key(w) for item in reading.items for w in re.findall(r"[^\W\d_]+", item.dish)}
    for found in RANGE.finditer(words):
        after = {key(w) for w in re.findall(r"[^\W\d_]+", words[found.end() : found.end() + 30])[:4]}
        if after & (dishes | {"people", "person", "ppl", "guest", "us"}):
            return f'the words leave the count "{found.group(0)}" undecided'  # "2 - 3 lasagnas"
    return None


UNDECIDED = re.compile(r"\b(?:or|maybe|perhaps|possibly|might|idk|not sure)\b|\?", re.I)
"""Words that leave something open: "two, or maybe three", "lasagna?"."""
_COUNT = r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve)"
RANGE = re.compile(
    rf"(?:\b|(?<=x)){_COUNT}\s*(?:-|–|to|or|/)\s*{_COUNT}\b(?!\s*(?:pm|am|p\.m|a\.m|o['’]?clock|:|h\b|min|hour|ish))",
    re.I,
)
"""A count given as a range: "lasagna for 2 to 3 people", "2-3 lasagnas" (not a time: "6-7pm")."""


EARLIER_ORDER = re.compile(
    r"\bsame (?:thing |order |one |meal )?(?:again|as)\b|\b(?:my|our|the) usual\b|\b(?:reorder|re-order|repeat|redo)\b"
    r"|\b(?:last|previous|usual)\b[\w\s'’]{0,20}\border\b|\b(?:as|like) (?:last time|before|always|usual)\b",
    re.I,
)
"""Words that point at an earlier order: "the same again as last time", "my usual", "repeat my last order"."""
CHANGED = re.compile(
    r"\b(?:swap|switch|instead|minus|except|without|but not|not the|no more|hold|skip|change|replace|sub"
    r"|substitute|drop|remove|take off|leave out|lose|ditch|cancel|forget)\b",
    re.I,
)
"""Words that change an order: what is changed may be named again where the earlier order is told over."""


def said_of_some(words: str, model: Reading) -> str | None:
    """Why a reading that puts the same choices on every one of several of a dish cannot be borne out where the
    words say something of some of them ("2 large margheritas, add bacon to one of them"; a reviewer: agreed
    with bacon on both), or None. Lines split by choice ("…, one of them regular") are the reading's own."""
    several = [w for w in model.items if w.quantity > 1]
    for found in SOME_OF.finditer(words) if several else ():
        head = re.match(r"(\w+) of\b", found.group(0))
        of = head.group(1).lower() if head else ""
        if (int(of) if of.isdecimal() else NUMBER_WORDS.get(of, 0)) >= max(w.quantity for w in several):
            continue  # "two, no wait, three of them": all of them
        return f'the words say something of some of "{several[0].dish}" ("{found.group(0)}"), and it reads all alike'
    return None


def the_same(words: str) -> str | None:
    """Why a reading of words that order "the same" as someone else, or change an earlier order
    (`EARLIER_ORDER` and `CHANGED`), cannot be borne out, or None. An earlier order changed is asked about
    whole: what is swapped or taken out may be named again where the order is told over ("the same again as
    last time but swap the chocolate shake for a root beer — that was a …, chocolate shake"), and which
    mention is the last word — the checks' rule for corrections — cannot be told (a reviewer: 10 of 14
    phrasings of it agreed with the shake kept when only "the same again … that was" was held)."""
    if (found := EARLIER_ORDER.search(words)) and (changed := CHANGED.search(words)):
        return f'the words change an earlier order ("{found.group(0)}" … "{changed.group(0)}"), which no reading shows'
    found = SAME_AS.search(words)
    return f'the words order "{found.group(0)}", which no count says' if found else None


def amendments(words: str, menu: Menu | None) -> tuple[str, ...]:
    """The amending words of a request (`AMENDS`, or "not the"/"no" before a dish on ``menu``)."""
    found = [m.group(0) for m in AMENDS.finditer(words)]
    if menu is not None and menu.names:
        dishes = "|".join(re.escape(normalize(name)) for name in sorted(menu.names, key=len, reverse=True))
        negated = re.compile(rf"\b(?:not|no|without)(?: the| any| more)? (?:{dishes})\b")
        found += [m.group(0) for m in negated.finditer(normalize(words))]
    return tuple(dict.fromkeys(found))


def _two_of_a_group(reading: GoalReading, menu: Menu) -> tuple[str, ...]:
    """Items the rules gave two choices of one option group ("2 × Margherita Pizza (Large, Regular)"): a
    dish takes one size, so the words meant several lines ("one large and one regular")."""
    found = []
    for item in reading.items:
        dish = menu.dish(item.dish)
        if dish is None:
            continue
        groups = Counter(option.name for c in item.options if (option := dish.option_of(c)) and option.one_of)
        if any(n > 1 for n in groups.values()):
            found.append(item.words.text)
    return tuple(found)


def _in_context(words: str, reading: GoalReading, menu: Menu) -> tuple[str, ...]:
    """Unplaced words read with the words around them that the rules set aside as filler — from the dish
    before to the dish after: "nvm" of "3 carnitas tacos. nvm 2" is ". nvm 2", "wife" of "same for my wife"
    is ". same for my wife". Where those hold a count, a choice or `ORDER_WORDS`, the whole stretch is in
    doubt (a reviewer: "3 carnitas tacos, only 2 tho" was read as 3, the "2" set aside unseen)."""
    choices = {normalize(c) for dish in menu.dishes for c in dish.choices}
    found = []
    for u in reading.unclear:
        if inside_a_detail(u, reading):
            continue
        start = max((i.words.end for i in reading.items if i.words.end <= u.words.start), default=0)
        end = min((i.words.start for i in reading.items if i.words.start >= u.words.end), default=len(words))
        for d in reading.details.values():  # not into a delivery detail ("to 12 Elm St")
            if start <= d.words.start < end:
                end = min(end, d.words.start) if d.words.start >= u.words.end else end
                start = max(start, d.words.end) if d.words.end <= u.words.start else start
        stretch = words[start:end].strip(" ,;:.!?&+-–—")
        if stretch and (
            ORDER_WORDS.search(stretch)
            or any(re.search(rf"\b{re.escape(c)}\b", normalize(stretch)) for c in choices)
        ):
            found.append(stretch)
    return tuple(found)


PART = re.compile(r"[,;.!?\n]")
NOT_WANTED = re.compile(
    r"\b(?:not (?:needed|necessary|wanted|required)|(?:don['’]?t|do not|dont) (?:need|want)|no need|already (?:have|got|had)"
    r"|stomach ?ache|makes? me (?:sick|ill)|upsets? my|(?:can['’]?t|cannot) (?:have|eat|do|stand)|i say no"
    r"|(?:have|got) (?:\w+ )*already|at home|next time|another (?:day|time)|tomorrow|allergic|later (?:in the|this)"
    r" week|on (?:mon|tues|wednes|thurs|fri|satur|sun)day|can go|no more|(?:is|are) enough|(?:we['’]?re|i['’]?m) good on"
    r"|says? no to|maybe|perhaps|possibly|tbd|your call|might want|thinking (?:about|of)|tempted|would be nice"
    r"|wish you had|was (?:meh|bad|awful|cold)|how (?:big|much|large)|do you (?:have|sell)|should it be"
    r"|only to reach|assuming|as long as|on a diet|will let you know|x\s?0|0 (?=\w))\b|=\s*no\b|~~",
    re.I,
)
"""In a part of a sentence, words that say a dish there is not wanted now: "horchata not needed", "I already
have a horchata", "churros next time"."""


def _doubtful_items(words: str, reading: GoalReading) -> tuple[str, ...]:
    """Items the rules placed that are not sure to be ordered: a dish written again with another count and
    nothing that adds ("2 carnitas tacos and a horchata - 3 carnitas tacos": a correction, or 5?), or one in
    a part of a sentence that praises it ("your mango pudding is the best")."""
    found = []
    for n, item in enumerate(reading.items):
        start = max((m.end() for m in PART.finditer(words, 0, item.words.start)), default=0)
        end = next((m.start() for m in PART.finditer(words, item.words.end)), len(words))
        if (
            PRAISED.search(words[start:end])
            or NOT_WANTED.search(words[start:end])
            or re.match(r"\W*(?:\?\s*)?(?:not|no|nah|nope)\b", words[item.words.end : end], re.I)
            or re.search(r"\W(?:not|no|nah|nope)\W*$", item.words.text, re.I)
        ):
            found.append(item.words.text)
        whole = {key(w) for w in re.findall(r"[^\W\d_]{2,}", item.dish)}  # "… with chicken": Chicken Satay?
        if not whole <= {key(w) for w in re.findall(r"[\w']+", item.words.text)} and re.search(
            r"\b(?:with|w/|w|extra|add)\s+(?:extra\s+|some\s+)?$",
            words[max(0, item.words.start - 14) : item.words.start],
            re.I,
        ):
            found.append(item.words.text)
        # up to this item from the one before: "…, a horchata. tacos: 4" — written again, and nothing adds
        between = words[reading.items[n - 1].words.end : item.words.end] if n else ""
        named = {key(w) for w in re.findall(r"[\w']+", item.dish) if len(w) > 2} & {
            key(w) for w in re.findall(r"[\w']+", item.words.text)
        }
        if (
            named  # the dish written again, not a line the rules split off ("…, one large and one regular")
            and any(e.dish == item.dish and e.words.end <= item.words.start for e in reading.items[:n])
            and not ADDS.search(between)
            and not (n and next_line(words, reading.items[n - 1], item))
        ):
            found.append(item.words.text)
    return tuple(found)


def next_line(words: str, before: ItemReading, item: ItemReading) -> bool:
    """Whether ``item`` is the same dish as ``before`` written alone on the next line of a list, neither with a
    count ("* Falafel Döner\n* Falafel Döner"): one more, as a list adds its lines."""
    return (
        before.dish == item.dish
        and before.quantity == item.quantity == 1
        and not re.search(r"\d", before.words.text + item.words.text)
        and re.fullmatch(r"[ \t]*\n\s*(?:[-*•·]\s*)?", words[before.words.end : item.words.start]) is not None
        and re.fullmatch(r"[ \t]*(?:\n|$)", words[item.words.end : item.words.end + 1] or "\n") is not None
    )


ADDS = re.compile(r"\b(?:more|another|extra|also|plus|and|for|each|too|as well|additional)\b|[&+]", re.I)
"""Between a dish read once and the same dish read again, words that add the second to the first."""
COUNT = r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)"
_N = COUNT
RECOUNTS = re.compile(
    rf"\bnot\s+{_N}\b|\b{_N}\W{{0,3}}\s*not\s+{_N}\b|\b(?:knock|take)\s+{_N}\s+off\b|(?<=\s)-{_N}\b"
    rf"|\b(?:half|double|triple) (?:that|it|this|them|those|the)\b|\ball of (?:that|it|this)\b|\btimes\s+{_N}\b"
    r"|\b(?:orders?|portions?|rounds?) of (?:that|this|it|those|them|the same)\b|\b(?:the )?same (?:for|again|here)\b"
    r"|\bone more of\b|(?:\bplus one|\+1)(?=\s*(?:$|[.,;!?]|for\b))|\bboth of us\b|\bthe both\b|\bfor (?:both|the couple|us (?:two|both))\b"
    rf"|\b(?:that|this|it|dinner|order|lunch|meal) for {_N}\b|\bfor {_N}\s*$|\b\d+\s+portions\b"
    r"|[.!?;]\s*(?:x\s?\d+|\d+\s?x|one more|another (?:round|one)|same again)(?=\s*(?:[.!?,;]|pls|please|$))",
    re.I,
)
"""Words that change how many of what came before — by a count taken back ("four, not three", "knock one off
the tacos", "tacos -1") or by multiplying the order ("all of that times 3", "the same for my plus one",
"dinner for two", "beef pho for 4") — which the rules may put on the last dish or drop (a third reviewer:
each approved by the rules alone)."""
MORE_OF = re.compile(
    r"(?:\band|\bplus|&|,)\s+(?:one|1|another)(?:\s+more)?(?=\s*(?:$|[.,;!?]|for\b|pls|please))|\bwe both\b"
    r"|\b(?:my|our|the) (?:kids|children|friends|guests|mates|boys|girls|family|team|colleagues|coworkers) (?:all )?"
    r"(?:want|need|would like|['’]d like|will have)\b|(?:^|[.,;:!?]\s*|\band\s+)(?!(?:a|an|one|two|three|four|five|six"
    r"|\d+)\b)(?:[a-z]+\s+){0,2}[a-z]+s for the (?:table|group|team|kids|family|office|crew)\b"
    rf"|\b(?:he|she|they|we|[a-z]+)\s+(?:wants?|needs?|would like|'d like|'ll have|will have)\s+{_N}"
    r"(?=\s*(?:$|[.,;!?]|too\b|as well\b|pls\b|please\b))"  # "…, he wants 2" — not "I would like 2 tacos"
    r"|\b(?:same|equal) (?:number|amount) of\b|\bas many\b",
    re.I,
)
"""More of what came before said of someone ("… and one for Sarah", "and one more", "he wants 2", "we both
want", "the same number of horchatas"), or dishes in the plural for a group ("my kids want churros",
"horchatas for the table"): counts no reading of the words as written has (a fourth reviewer: each approved
by the rules alone)."""
UNNAMED = re.compile(
    r"\b(?:(?:a|an|one|any|some)\s+(?:dessert|drink|side|starter|beverage|appetizer)s?|something (?:for|to)"
    r" (?:dessert|drink|share))\b(?=\s*(?:$|[.,;!?]|too\b|as well\b|pls\b|please\b|and\b|\+|&))",
    re.I,
)
"""Something to order named by its kind only ("… and a dessert", "something for dessert"): which dish, the
rules cannot say, and they read past it (a fourth reviewer)."""


SOME_OF = re.compile(
    rf"\b(?:{_N}|half) of (?:them|those|these|the \w+)\b|\bon (?:just |only )?(?:one|1|two|2)\b(?!\s*(?:more|extra))"
    r"|\b(?:for|to) (?:just |only )?(?:one|1)(?= *(?:$|[.,;!?)]|only\b|please\b|pls\b))"
    r"|\b(?:on|to|for) (?:just |only )?(?:a couple|a few|some|the (?:first|second|third|other|last)(?: one)?"
    r"|a single one|one of (?:them|those|these))\b"
    r"|(?:\band|\bplus|[,&+])\s+(?:a|an|another) (?!(?:good|great|nice|lovely|fun|new|big|small)\b)[a-z]+ one\b"
    r"|\b(?:not|nothing|none) too\b|\b(?:uh+|er+m?|um+|hmm+|lol|lmao|haha|yo|xo|ty|thx|gracias|ok|okay)\W+(?:x\s?)?"
    r"(?:\d+|one|two|three|four|five|six)\b|\b(?:\d+|one|two|three|four|five)\s+more\s*(?:$|[.,;!?\n]|lol|pls|please)",
    re.I,
)
"""A choice said of some of a dish ("… pizzas large, one of them regular", "bacon on one", "bacon on a couple",
"add bacon to the second one", "2 burgers and a bacon one"), one hedged ("nothing
too hot"), a count after a filler ("2 horchatas, uh, 3"): the rules put it on every one, or read past it (a
fifth reviewer: each approved by the rules alone)."""


SELF_ASKED = re.compile(r"\?\s*(?:no|nah|nope|hmm+|actually|or|maybe|wait|yes|yeah)\b", re.I)
"""A question the words answer themselves ("cheesecake? no, 2 chocolate lava cakes"; a third reviewer: the
rules placed the cheesecake too)."""


def _recounts(words: str) -> tuple[str, ...]:
    """`RECOUNTS` in the words — in a delivery detail the rules read too ("knock one off the tacos" is no
    note for the courier, "beef pho for 4" no time)."""
    found = (RECOUNTS, MORE_OF, UNNAMED, SOME_OF, SAME_AS, SELF_ASKED)
    return tuple(m.group(0) for r in found for m in r.finditer(words))


def _time_at_a_dish(words: str, reading: GoalReading) -> tuple[str, ...]:
    """A delivery time the rules read right after a dish written with no count, with nothing that marks it a
    time ("carnitas tacos (about 4)": 4 tacos, or 4 o'clock? a fourth reviewer's, read as 1 taco at 16:00)."""
    slot = reading.details.get("delivery_slot")
    if (
        slot is None
        or not re.search(rf"\d|\b{_N}\b", slot.words.text)
        or re.search(
            r"\d\s*[:.h]\s*\d|(?:am|pm|o'?clock|noon|tonight)\b|^(?:at|by|before|after|for|from)\b",
            slot.words.text,
            re.I,
        )
    ):
        return ()
    at_a_dish = any(
        re.fullmatch(r"[\s()\[,-]*", words[item.words.end : slot.words.start])  # "ribs (half rack) (about 2)"
        and not re.search(rf"\d|\b(?:an?|couple|dozen|{_N})\b", item.words.text, re.I)
        for item in reading.items
    )
    return (slot.words.text,) if at_a_dish else ()


def weighty(words: str, reading: GoalReading, menu: Menu) -> tuple[str, ...]:
    """What in the rules' reading of ``words`` could make a cart that matches it the wrong order: unplaced
    words that could change it (read with the filler around them, `_in_context`), amending words, a dish
    read with two choices of one group, a count said of someone, a time that may be a dish's count."""
    return tuple(
        dict.fromkeys(
            [
                *unplaced(reading, words),
                *_in_context(words, reading, menu),
                *amendments(words, menu),
                *_two_of_a_group(reading, menu),
                *_recounts(words),
                *_time_at_a_dish(words, reading),
            ]
        )
    )


def doubts(words: str, reading: GoalReading, menu: Menu) -> tuple[str, ...]:
    """What the rules' reading of ``words`` leaves in doubt: every word it could not place (a pleasantry
    too: only a reader of the whole sentence can tell "thanks, Maren" from "some of those choc things"),
    and the `weighty` words. Empty: the rules' reading is the order."""
    words_left = [u.words.text for u in reading.unclear if not inside_a_detail(u, reading)]
    return tuple(dict.fromkeys([*words_left, *weighty(words, reading, menu)]))


# -- the two readings ----------------------------------------------------------------------------------
