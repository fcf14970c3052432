"""Where the words say something about a dish: its mentions (a whole name, its first words, a word only it
has, forgiving a typo), the words around each, and what is written there — counts (not times, addresses or
money), conditions, negations, corrections (the people an order is for: webagent/planner/people.py).

The ground the checks of a model's reading stand on (webagent/planner/accounts.py). Pure: no browser code.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from webagent.planner.doubts import AMENDS, NOT_WANTED, PRAISED, UNDECIDED
from webagent.planner.menu import Menu
from webagent.planner.words import Token, closeness, key, tokenize

__all__ = [
    "BOUNDARY",
    "BUDGET_WORDS",
    "CONDITION",
    "CORRECTION",
    "ELSE",
    "FILLER",
    "IF_AVAILABLE",
    "IN_PLACE_OF",
    "NEGATED_BEFORE",
    "NEGATING",
    "NOTHING",
    "NUMBER_WORDS",
    "SENTENCE",
    "UNAVAILABLE",
    "UNDECIDED",
    "VAGUE",
    "around",
    "asked_mentions",
    "choice_spans",
    "conditional",
    "correction_after",
    "counts_in",
    "elsewhere",
    "mention_end",
    "mentions_of",
    "negated",
    "negated_list",
    "numbers_in",
    "others_after",
    "own_words",
    "pointed_away",
    "said_after",
    "segment_of",
    "someone_elses",
    "vague_before",
    "whole_at",
    "within_a_name",
    "written_at",
    "written_whole",
]


NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "single": 1, "two": 2, "both": 2, "pair": 2, "couple": 2, "twins": 2,
    "twin": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "dozen": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40,
    "fifty": 50,
}  # fmt: skip
NEGATING = re.compile(
    r"\b(?:not|no|without|except|excluding|minus|skip|hold|drop|remove|forget|cancel|leave out|instead of"
    r"|rather than|anything but|other than|swap|replace|change|sub|substitute|make the|don['’]?t|nor|never mind|ditch"
    r"|scrap|lose)\b",
    re.I,
)
"""Words before a dish that take it out of the order or replace it ("swap the horchata for…")."""
NEGATED_BEFORE = re.compile(
    rf"(?:{NEGATING.pattern})(?:\s+(?:the|a|an|any|of|my|our|that|those|these|one|two|three|\d+|want|need|for"
    r"|add|get|include|bother with|out|too|so|very|that))*\s*$",
    re.I,
)
CORRECTION = re.compile(
    rf"(?:{AMENDS.pattern})|\b(?:no|nope|nah|sorry|wait|i mean|actually|oops|ugh|hmm|scratch)\b", re.I
)
"""Words after which what is written replaces what came before ("3 salmon nigiri - no, 4")."""
FILLER = re.compile(
    r"[\s,.;:!—–-]*(?:(?:no|nope|nah|sorry|wait|i mean|i meant|actually|oops|ugh|hmm|scratch that|make (?:it|that)"
    r"|the|a|an|one|some)\b[\s,.;:!—–-]*)*",
    re.I,
)
"""What may stand between a correction and the dish it puts in the place of the one before it."""
VAGUE = re.compile(
    r"\b(?:a few|few|several|some|a bunch of|bunch of|a handful of|handful of|a lot of|lots of|plenty of|many"
    r"|a number of|a couple more|more)\s+(?:\w+\s+){0,2}$"
    r"|\b\d+\s*(?:to|-|–)\s*\d+\s+(?:\w+\s+)?$",
    re.I,
)
"""Right before a dish, a quantity no number says: "a few carnitas tacos", "some spicy tuna rolls"."""
ELSE = (
    r"(?:else|otherwise(?!\s+(?:all (?:good|fine)|the usual|same as (?:before|usual)|everything(?:['’]?s| is)? (?:fine|good"
    r"|ok)|it['’]?s all good|that['’]?s it|as (?:usual|before))\b)"
    r"|failing (?:that|which|this|it|those)|alternatively|(?:as an?|or an?) back-?up|plan b"
    r"|as (?:an? )?(?:substitute|sub|fallback|alternate|alternative|back-?up)|second (?:choice|pick)|in a pinch"
    r"|would also do|(?:is|['’]s) fine as an? (?:sub|substitute|replacement|back-?up|alternative))"
)
"""Words that hold what follows in reserve for what came before: "…, else …", "failing that, …" (a blind
corpus: "shrimp poke bowl, failing that a salmon poke bowl" was read as both bowls and agreed)."""
POLITE = (
    r"\s+(?:(?:you|u|ya)\s+(?:(?:can|could)\b(?!['’]?t\b|\s+not\b)|don['’]?t mind|dont mind|would|please)|possible"
    r"|poss\b|(?:it['’]?s|its|that['’]?s"
    r"|thats|this is)\s+(?:ok|okay|alright|fine|possible)|not too much trouble|ok\b|okay\b)"
)
"""After "if", words of courtesy, not of a condition: "if you can, swap the horchata …", "… if possible"."""
CONDITION = re.compile(
    rf"\b(?:if(?!{POLITE})|unless|in case|{ELSE})\b"
    r"|\b(?:unavailable|sold out|not available|out of stock|gone|run out|out)\s*(?:\?\s*then\b|->|→|=>)"
    r"|\bno\s+(?!wait\b|sorry\b)[\w'’ ]{1,30}?\s*(?:\?\s*then\b|->|→|=>)",
    re.I,
)
"""Words that hold what follows in reserve: "if", "else"…, and "brisket unavailable -> ribs", "doro wat sold
out? then two beef tibs", "no cornbread -> skip it"."""
SENTENCE = re.compile(r"[.;!\n]|\?(?!\s*then\b)")
"""Where a sentence ends (not at "sold out? then …", which goes on with what to take instead)."""
PART = re.compile(r"[,;.!\n]|\?(?!\s*then\b)")
BOUNDARY = re.compile(r"[,;!?\n+|•&]|(?<!\d)[.:]|[.:](?!\d)|\band\b|\bplus\b|\balso\b|\s[-–—]\s|\.\.|->|→|=>")
"""Where the words about one dish end: "a mild butter chicken *and* a hot tikka masala"."""
UNAVAILABLE = re.compile(
    r"sold out|unavailable|out of stock|not available|n['’]t available|run out|gone|out of|do(?:n['’]?t| not) have"
    r"|no more|can['’]?t get",
    re.I,
)
"""Words that say a dish cannot be had: what a fallback's condition is about."""
NOTHING = re.compile(
    r"\b(?:nothing|no replacement|none|skip|don['’]?t|do not|leave it|no \w+ then|forget it)\b", re.I
)
BUDGET_WORDS = re.compile(
    r"[$€£]|\b(?:dollars?|bucks|quid|euros?|pounds?|budget|spend|under|below|at most|max(?:imum)?|no more than"
    r"|less than|cap|only (?:have|got)|within|keep it (?:to|under|below|at)|limit)\b",
    re.I,
)
"""Words without which a budget is one nobody stated ("around 7ish" is no budget of $7)."""
NOT_A_COUNT_BEFORE = re.compile(
    r"\b(?:past|(?:deliver(?:ed)?|send|sent|bring|ship|come|drop(?: it)?|it|straight|directly|way|up|out)\s+to|at|by"
    r"|over|around|about|before|after|until|flat|apt|apartment|unit|suite|floor|ring|buzz|buzzer"
    r"|code|door|gate|no|number|#|under|below|most|max|than|budget|spend|room|rm|table|seat|desk|locker|box"
    r"|building|block|tower|wing|terminal|route|bus)\s*[$€£]?\s*$|\d[.,/:]$|[$€£]\s*$",
    re.I,
)
NOT_A_COUNT_AFTER = re.compile(
    r"^(?:th|st|nd|rd)\b|^\s*(?::\d|pm|am|o'?clock|ish|[a-wyz]\b|bucks|dollars|quid|euros|/\s*(?:5|10|100)\b|%|stars?\b|out of \d|times\b|more to\b|(?:hours?|hrs?|mins?|minutes?|days?|weeks?|miles?|km)\b)",
    re.I,
)
"""Before and after a number, words that make it a time, an address, a code or money rather than how many to
order (each read on its own side: the start of the words before is no word after the number)."""


def numbers_in(text: str) -> list[tuple[int, int]]:
    """(position, value) of every count written: digits ("3x", "x2") and number words."""
    found = []
    for token in tokenize(text):
        value = (
            int(digits)
            if (digits := re.sub(r"^x|x$", "", token.key)).isdecimal()
            else NUMBER_WORDS.get(token.key)
        )
        if value == 12 and re.search(r"\bhalf an?\s+$", text[: token.start], re.I):
            value = 6  # "half a dozen"
        if value is not None and 0 < value <= 50:
            found.append((token.start, value))
    return found


def counts_in(text: str) -> list[tuple[int, int]]:
    """The numbers in ``text`` that could be how many to order (not "half past 7", "flat 4B", "$25")."""
    found = []
    for at, value in numbers_in(text):
        end = at + len(re.match(r"\w+", text[at:]).group(0))  # type: ignore[union-attr]
        if not NOT_A_COUNT_BEFORE.search(text[max(0, at - 12) : at]) and not NOT_A_COUNT_AFTER.search(
            text[end : end + 8]
        ):
            found.append((at, value))
    return found


def written_at(name: str, text: str, others: Sequence[str] = ()) -> list[int]:
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
        if [t.key for t in tokens[i : i + len(wanted)]] == wanted or _whole_misspelt(
            tokens[i : i + len(wanted)], wanted
        ):
            places.append(token.start)
            continue
        if len(wanted) > 2 and [t.key for t in tokens[i : i + 2]] == wanted[:2] and wanted[:2] not in starts:
            places.append(token.start)
            continue
        for word in wanted:
            if word in shared or len(word) < 4 or word in NUMBER_WORDS:
                continue
            if word == "half" and re.match(r"\s+(?:a\s+)?dozen\b", text[token.end :], re.I):
                continue  # "half a dozen peach cobbler" names no half rack
            if (distance := closeness(token.key, word)) is not None and distance <= 1.5:
                places.append(token.start)
                break
        else:  # a short last word no other dish has: "large fries" names French Fries
            last = wanted[-1]
            if (
                len(last) < 4
                and token.key == last
                and (len(wanted) == 1 or not (last in {*shared, *NUMBER_WORDS} or last.isdigit()))
            ):
                places.append(token.start)
    return places


def _whole_misspelt(tokens: Sequence[Token], wanted: list[str]) -> bool:
    """Every word of a name of two words or more written, each as it is or a typo off — a long word two edits
    off too ("margarita pizza" is the Margherita Pizza, as the shop's matcher reads it; "a margarita" alone is
    not, nor is a one-word name two edits off: "margarita" beside a Margherita)."""
    return (
        len(wanted) > 1
        and len(tokens) == len(wanted)
        and all(
            t.key == w or ((d := closeness(t.key, w)) is not None and d <= 2.0)
            for t, w in zip(tokens, wanted, strict=True)
        )
    )


def mention_end(name: str, text: str, at: int) -> int:
    """Where the mention of ``name`` at ``at`` ends: after the words of the name written there ("hawaiian"
    of "Hawaiian Pizza" ends after "hawaiian", not as many characters on as the whole name has)."""
    wanted = [key(w) for w in re.findall(r"[\w']+", name)]  # each word of the name once: "sweet and sour
    end = at  # pork *and* 2 beef chow fun" ends before the second "and"
    for token in tokenize(text[at:]):
        if not token.is_word:
            continue
        match = next(
            (
                w
                for w in wanted
                if token.key == w or (len(w) >= 4 and (d := closeness(token.key, w)) is not None and d <= 1.5)
            ),
            None,
        )
        if match is None:
            break
        wanted.remove(match)
        end = at + token.end
    return max(end, at + 1)


def whole_at(name: str, text: str, at: int) -> bool:
    """Whether ``name`` is written whole at ``at`` (not one word of it)."""
    wanted = [key(w) for w in re.findall(r"[\w']+", name)]
    return [t.key for t in tokenize(text[at:]) if t.is_word][: len(wanted)] == wanted


def written_whole(name: str, text: str) -> list[int]:
    """Where ``name`` is written whole in ``text`` (every word of it, in order)."""
    return [at for at in written_at(name, text) if whole_at(name, text, at)]


def choice_spans(words: str, menu: Menu) -> list[tuple[int, int]]:
    """Where the menu's choices of two words or more are written whole ("salad greens", "white rice")."""
    spans = []
    for choice in {c for dish in menu.dishes for c in dish.choices if len(c.split()) > 1}:
        spans += [(at, at + len(choice)) for at in written_whole(choice, words)]
    return spans


def within_a_name(part: str, words: str, at: int, names: Sequence[str]) -> bool:
    """Whether ``part`` written at ``at`` is part of a longer one of ``names`` written whole there ("kimchi"
    of "Kimchi Jjigae", a choice "bacon" of "Bacon Cheeseburger")."""
    wanted = [key(w) for w in re.findall(r"[\w']+", part)]
    longer = []
    for name in names:
        theirs = [key(w) for w in re.findall(r"[\w']+", name)]
        longer += [
            (name, k)
            for k in range(len(theirs) - len(wanted) + 1)
            if len(theirs) > len(wanted) and theirs[k : k + len(wanted)] == wanted
        ]
    if not longer:
        return False
    tokens = [token.start for token in tokenize(words) if token.is_word]
    here = tokens.index(at) if at in tokens else -1
    return any(here >= k and whole_at(name, words, tokens[here - k]) for name, k in longer)


def mentions_of(name: str, words: str, menu: Menu) -> list[int]:
    """Where each mention of dish ``name`` starts (one place a mention however many words), a word of a
    choice written whole aside ("salad greens" names no Seaweed Salad)."""
    return list(_mentions(name, words, menu))


@lru_cache(maxsize=1 << 14)
def _mentions(name: str, words: str, menu: Menu) -> tuple[int, ...]:
    """`mentions_of`, kept by value (pure): the checks ask it of one request's words many times over."""
    spans = choice_spans(words, menu)
    found: list[int] = []
    for at in written_at(name, words, menu.names):
        if any(start <= at < end for start, end in spans) and not whole_at(name, words, at):
            continue
        if within_a_name(name, words, at, menu.names):
            continue  # "kimchi" of "2 Kimchi Jjigae" names no Kimchi
        if _a_choice_of_one(name, words, at, menu):
            continue  # "a vanilla ice cream pint + a chocolate one": a pint, no Chocolate Lava Cake
        if (
            not found
            or at - found[-1] > len(name) + 2
            or (at >= mention_end(name, words, found[-1]) and whole_at(name, words, at))  # "Tea\nBarley Tea"
        ):
            found.append(at)
    return tuple(found)


def _a_choice_of_one(name: str, words: str, at: int, menu: Menu) -> bool:
    """Whether a part of ``name`` written at ``at`` is a choice of the menu's before "one"/"ones" or the name of a
    kind of choice ("a chocolate one", "chocolate flavour" beside Ice Cream Pint's Chocolate): a choice of the dish
    named before, not this dish ("an ahi tuna one" is still the Ahi Tuna Poke Bowl)."""
    end = mention_end(name, words, at)
    if whole_at(name, words, at) or not re.match(r"\s+(?:ones?|flavou?r(?:ed)?|base)\b", words[end:], re.I):
        return False
    written = key(words[at:end])
    return any(key(choice) == written for dish in menu.dishes for choice in dish.choices)


def negated(words: str, at: int) -> bool:
    """Whether the mention at ``at`` is taken out by the words right before it ("but not the …",
    "instead of the …", "swap the …") — not where that negation is itself negated ("don't forget the
    churros", "never skip the …", "can't skip the …") or asked ("skip the churros? no way")."""
    window = max(0, at - 30)
    found = NEGATED_BEFORE.search(words[window:at])
    if found is None:
        return False
    if DOUBLE_NEGATION.search(words[max(0, window + found.start() - 16) : window + found.start()]):
        return False
    return not re.match(r"[\w' -]{0,30}\?", words[at:])


DOUBLE_NEGATION = re.compile(r"\b(?:don['’]?t|do not|never|can['’]?t|cannot|won['’]?t|not|no way)\W*$", re.I)


def conditional(words: str, at: int) -> bool:
    """Whether the mention at ``at`` stands in a condition: after "if"/"else" in its sentence, or in a part
    of it (between commas) that holds one ("a spicy tuna roll if the dragon roll is sold out")."""
    if CONDITION.search(IF_AVAILABLE.sub(" ", SENTENCE.split(words[:at])[-1])):
        return True
    start = max((m.end() for m in PART.finditer(words[:at])), default=0)
    end = next((m.start() for m in PART.finditer(words[at:])), len(words) - at) + at
    return bool(CONDITION.search(IF_AVAILABLE.sub(" ", words[start:end])))


IF_AVAILABLE = re.compile(
    r"(?:\b(?:if|when)\s+(?:(?:it|they|that|those)\s*(?:['’]?s|['’]?re|is|are)\s+)?(?:still\s+)?"
    r"(?:available|avail|in stock|on the menu|not sold out)\b"
    r"|\bif\s+(?:you|u|ya|they)\s+(?:still\s+)?(?:have|got|carry|sell|make)\s+(?:it|them|one|any|some|those|that)\b"
    r"|\bif\s+(?:there['’]?s|there is|there are)\s+(?:any|some)(?:\s+left)?\b|\bif\s+any\s+left\b)"
    r"(?=\s*(?:$|[,.;:!?)\n]|-|and\b|or\b|otherwise\b|else\b|plus\b|pls\b|please\b|thx\b|thanks\b))",
    re.I,
)
"""Words that ask for a dish where it can be had, and hold nothing else in reserve: "a dragon roll if
available, and a green tea" orders both (else nothing for the roll: `reserve`)."""


ELSEWHERE = re.compile(
    r"\b(?:(?<!\bas )(?<!\blike )last (?:time|week|night|month|year)|yesterday|the other day|previously"
    r"|(?:she|he|they|we|my \w+|our \w+)\s+(?:had|got|ordered|loved|liked|ate|tried|enjoyed)|\w+ (?:is|are) bringing"
    r"|(?:i|i['’]?ve|ive|i have|we['’]?ve)\s+(?:had|ordered|ate|eaten|tried)"
    r"|next time|another (?:day|time)|some other (?:day|time)|at home|already (?:have|got|had)|allergic"
    r"|saving room|from the bakery|(?:will|['’]ll|is going to|are going to) (?:order|get|grab|bring|buy|make) (?:his|her|their"
    r"|my|our) own|pick (?:it |them |those |that )?up (?:myself|ourselves|himself|herself|themselves))\b",
    re.I,
)
"""Words about another time or another person's meal: "she had the samosas last time" — not "same as last
time (…)", which orders it again."""
SOMEONE_ELSES = re.compile(
    r"(?:\b(?:my|our|his|her|their) \w+['’]s|\b(?:swears?|swore) by|\brecommend(?:s|ed)?|\braves? about"
    r"|\bwon'?t shut up about)\s+(?:the\s+)?$",
    re.I,
)
"""Right before a dish, words that make it someone else's or someone's praise, not an order: "my roommate's
hummus & pita", "my wife swears by the smoked ribs"."""


def elsewhere(words: str, at: int) -> bool:
    """Whether the mention at ``at`` stands in a part of a sentence (between commas) about another time or
    another person's meal ("my sister says hi, she had the samosas last time"), which asks for nothing."""
    start = max((m.end() for m in PART.finditer(words[:at])), default=0)
    end = next((m.start() for m in PART.finditer(words[at:])), len(words) - at) + at
    return bool(ELSEWHERE.search(words[start:end]))


def someone_elses(words: str, at: int) -> bool:
    """`elsewhere`, or right after someone else's possessive or praise ("my roommate's hummus & pita", "my wife
    swears by the smoked ribs"): a dish a reading may not *add* on such words — never one it may leave out
    ("my husband's smoked ribs" may well be ordered for him)."""
    start = max((m.end() for m in PART.finditer(words[:at])), default=0)
    end = next((m.start() for m in PART.finditer(words[at:])), len(words) - at) + at
    return (
        elsewhere(words, at)
        or bool(SOMEONE_ELSES.search(words[start:at]))
        or bool(PRAISED.search(words[start:end]))
        or bool(NOT_WANTED.search(words[start:end]))
    )


def asked_mentions(dish: str, words: str, menu: Menu) -> list[int]:
    """The mentions of ``dish`` that ask for it: not in a condition, not taken out (nor in a list taken out:
    "skip the gyoza & karaage")."""
    return [
        at
        for at in mentions_of(dish, words, menu)
        if not conditional(words, at) and not negated(words, at) and not negated_list(dish, words, menu, at)
    ]


_JOINS = r"\s*,?\s*(?:&|\+|/|\band\b|\bor\b|\bnor\b|\bn\b)\s*(?:the\s+|any\s+)?"
LISTED = re.compile(_JOINS + "$", re.I)
"""What joins a dish to the one before it in a list, with no count or article of its own ("… & karaage", "…,
and karaage"; a comma only where the list goes on to close so: "no barley tea, bingsu instead")."""
COMMA = re.compile(r"\s*,\s*(?:the\s+)?$")
JOINS_NEXT = re.compile(_JOINS, re.I)


def negated_list(dish: str, words: str, menu: Menu, at: int, depth: int = 0) -> bool:
    """Whether the mention at ``at`` is the next of a list whose first dish is taken out ("skip the gyoza &
    karaage", "no fries or onion rings", "drop the gyoza, karaage and calpico"): no count or article of its
    own between ("…, and a karaage" adds)."""
    joined = LISTED.search(words[:at])
    by_comma = joined is None and _closed(dish, words, menu, at)
    joined = joined or (COMMA.search(words[:at]) if by_comma else None)
    if joined is None or depth > 6:
        return False
    for other in menu.names:
        for o in mentions_of(other, words, menu) if other != dish else ():
            between = words[mention_end(other, words, o) : joined.start()]
            if o < joined.start() and not (BRACKET.sub("", between) if "(" in other else between).strip():
                if by_comma and not any(p < o for p in mentions_of(dish, words, menu)):
                    return False  # "instead of the gyoza, karaage and calpico": a list of what to take?
                return negated(words, o) or negated_list(other, words, menu, o, depth + 1)
    return False


def _closed(dish: str, words: str, menu: Menu, at: int, depth: int = 0) -> bool:
    """Whether the list the mention at ``at`` stands in goes on, by commas, to a dish joined by "and"/"or"
    ("karaage" of "the gyoza, karaage and calpico")."""
    end = mention_end(dish, words, at)
    if "(" in dish and (bracket := BRACKET.match(words, end)):  # "samosa (2), …"
        end = bracket.end()
    for pattern in (JOINS_NEXT, COMMA_NEXT) if depth < 6 else ():
        if (joined := pattern.match(words, end)) is None:
            continue
        for other in menu.names:
            if other != dish and joined.end() in mentions_of(other, words, menu):
                return pattern is JOINS_NEXT or _closed(other, words, menu, joined.end(), depth + 1)
    return False


COMMA_NEXT = re.compile(r"\s*,\s*(?:the\s+)?")
BRACKET = re.compile(r"\s*(?:\([^()]*)?\)")
"""A bracket after a dish's name, as the menu writes it ("samosa (2)"), or what is left of it after a
mention (which ends before the ")")."""


def others_after(dish: str, words: str, menu: Menu) -> list[int]:
    return sorted(at for other in menu.names if other != dish for at in mentions_of(other, words, menu))


def around(dish: str, words: str, menu: Menu, at: int) -> tuple[str, str]:
    """The words about the mention of ``dish`` at ``at``, before and after its name: from the boundary before
    it to the boundary (or the next dish) after it ("a mild " of "a mild butter chicken and a hot …")."""
    start = max((m.end() for m in BOUNDARY.finditer(words[:at])), default=0)
    name_end = mention_end(dish, words, at)
    nxt = [o for o in others_after(dish, words, menu) if o > at]
    stop = BOUNDARY.search(words, name_end)
    end = min([stop.start() if stop else len(words), *nxt])
    return words[start:at], words[name_end:end] if end > name_end else ""


def own_words(dish: str, words: str, menu: Menu, at: int) -> str:
    """The words about the mention at ``at``, its name included (`around`)."""
    before, after = around(dish, words, menu, at)
    return before + words[at : mention_end(dish, words, at)] + after


def segment_of(dish: str, words: str, menu: Menu, at: int | None = None) -> str:
    """The words from the last mention of ``dish`` (or the one at ``at``) to the words about the next dish
    (or the sentence's end): "café au lait x2 (1 small, 1 large) " of "… (1 small, 1 large) + 2 butter
    croissants"."""
    places = mentions_of(dish, words, menu)
    if not places:
        return ""
    at = places[-1] if at is None else at
    nxt = [o for o in others_after(dish, words, menu) if o > at]
    sentence = SENTENCE.search(words, mention_end(dish, words, at))
    end = min([sentence.start() if sentence else len(words), *nxt])
    if nxt and min(nxt) == end:  # stop before the next dish's own words ("… and a hot tikka masala")
        end = max(
            (m.start() for m in BOUNDARY.finditer(words[:end], mention_end(dish, words, at))), default=end
        )
    return words[at:end]


def said_after(dish: str, words: str, menu: Menu) -> str:
    """What the words say after the last mention of ``dish``, up to the next dish's own words ("… make it
    hot. plus 2 garlic naan" ends before "plus")."""
    places = mentions_of(dish, words, menu)
    if not places:
        return ""
    at = places[-1]
    nxt = [o for o in others_after(dish, words, menu) if o > at]
    end = min(nxt, default=len(words))
    if nxt:
        end = max(
            (m.start() for m in BOUNDARY.finditer(words[:end], mention_end(dish, words, at))), default=end
        )
    return words[mention_end(dish, words, at) : end]


def correction_after(dish: str, words: str, menu: Menu) -> str:
    """What the words say after a correction that follows the last mention of ``dish``, up to the next dish
    ("make it 2" of "4 carnitas tacos… actually make it 2"); "" when none follows."""
    raw = said_after(dish, words, menu)
    # A condition is no correction: "dragon roll sold out -> 2 california rolls" counts the rolls in reserve,
    # and "if no churros then…" corrects nothing.
    segment = CONDITION.sub(lambda m: " " * len(m.group(0)), raw)
    found = CORRECTION.search(segment)
    if found is None or CONDITION.search(SENTENCE.split(raw[: found.start()])[-1]):
        return ""
    if UNAVAILABLE.fullmatch(found.group(0).strip()):
        return ""
    # the last of a chain of corrections stands: "make it 2.. no wait, make it 4"
    last = [m for m in CORRECTION.finditer(segment) if not UNAVAILABLE.fullmatch(m.group(0).strip())][-1]
    # "make it 2": the correction's own last word is its count, not something before it ("make it 2 more"
    # adds: no count the correction writes)
    own = re.search(r"\b(?:\d+|one|two|three|four|five|six)$", last.group(0), re.I)
    rest = segment[own.start() + last.start() if own else last.end() :]
    return "" if re.match(r"\s*\w+\s+(?:more|extra|additional)\b", rest, re.I) else rest


IN_PLACE_OF = r"\b(?:instead of|in place of|rather than|in lieu of)"
"""Words before the dish that goes: "a lasagna instead of the carbonara"."""
INSTEAD_OF_THE = re.compile(rf"{IN_PLACE_OF} (?:the|my|those|that) ([\w']+)", re.I)


def pointed_away(dish: str, words: str, ordered: set[str], after: int) -> bool:
    """Whether the words after ``after`` swap away the one dish of those ``ordered`` with a word of ``dish``'s
    name: "… blueberry pancakes … a belgian waffle instead of the pancakes" (not where another has the word)."""
    others = {key(w) for d in ordered - {dish} for w in re.findall(r"[\w']+", d)}
    own = {key(w) for w in re.findall(r"[\w']+", dish) if len(w) > 3} - others
    return any(
        key(m.group(1)) in own and not conditional(words, m.start())
        for m in INSTEAD_OF_THE.finditer(words, after)
    )


def vague_before(dish: str, words: str, menu: Menu, at: int) -> bool:
    """Whether the words before the mention at ``at`` leave how many undecided ("a few carnitas tacos",
    "some spicy tuna rolls") — not "some" before a dish written as the menu writes it ("some kimchi": a
    portion of it), nor a count's "more" ("one more california roll")."""
    before = around(dish, words, menu, at)[0]
    found = VAGUE.search(before)
    if (
        found
        and found.group(0).lower().startswith("more")
        and re.search(r"\b(?:\d+|one|two|three)\s+$", before[: found.start()])
    ):
        return False  # "one more california roll": one
    if found is None or not re.fullmatch(r"some\s+(?:\w+\s+){0,2}", found.group(0), re.I):
        return found is not None
    written = re.findall(r"[\w']+", words[at : mention_end(dish, words, at)].lower())
    return not written or written[-1] != re.findall(r"[\w']+", dish.lower())[-1]
