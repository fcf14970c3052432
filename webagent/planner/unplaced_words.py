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

from wordfreq import zipf_frequency

from webagent.narration.names import normalize
from webagent.planner.doubts import AMENDS, MORE_OF, ORDER_WORDS, SOMEONE, next_line
from webagent.planner.foods import DIETS, HANDHELD, HOW_GOOD, KINDS, ORIGINS, SERVED_AS, foods_in
from webagent.planner.mentions import (
    CORRECTION,
    NEGATED_BEFORE,
    NEGATING,
    conditional,
    counts_in,
    elsewhere,
    mention_end,
    mentions_of,
    negated,
    negated_list,
    someone_elses,
)
from webagent.planner.menu import Menu
from webagent.planner.recounts import own_counts
from webagent.planner.spec import GoalReading, Reading
from webagent.planner.words import FILLER, NUMBER_WORDS, closeness, interjection, key, tokenize

__all__ = [
    "another_kind",
    "explained",
    "named_again",
    "of_its_name",
    "unread_ask",
    "unread_dish",
    "unread_food",
    "unswapped",
]


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
MULTIPLIES = re.compile(
    r"\b(?:same|ditto|double|twice|thrice|repeat|another|one more|times (?:two|three|2|3)|again for"
    r"|more(?!\s+(?:to go|hours?|mins?|minutes?|miles?|days?))"
    r"|each|extra|x\s*\d|\d\s*x|plus one|knock (?:\d|one|two|it|that)|half(?! past| an? hour)|orders? of|for (?:both|the both|us)|what i['’]?m having|same as me)\b|(?<!\w)[+-]\s?\d",
    re.I,
)
"""Words that multiply what came before or count it again: "same for my wife", "double it", "+1"."""
PRONOUNS = frozenset({"them", "it", "one", "ones", "those", "these", "they", "both", "all"})
"""Words that stand for a dish already named: "skip them" orders nothing new."""
KEPT_AS_IT_WAS = re.compile(r"\s*(?:stays?|remains?|as (?:it is|is|before|it was)|unchanged|is fine)\b", re.I)
"""After a dish named again, words that leave it as it was: "…, the pad thai stays mild"."""


def of_its_name(words: str, dish: str) -> bool:
    """Whether ``words`` are only words of ``dish``'s own name ("non-alcoholic" of "Sangria (non-alcoholic)")."""
    written = {key(w) for w in re.findall(r"[\w']+", words)}
    return bool(written) and written <= {key(w) for w in re.findall(r"[\w']+", dish)}


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
                and not of_its_name(text, item.dish)  # "1 sangria (non-alcoholic)": the rest of its name
                and not KEPT_AS_IT_WAS.match(words, at + mention_end(item.dish, text, m))
            ]
            if again and lines == {(item.dish, frozenset(o for o in item.options)): item.quantity}:
                return f'the words name "{item.dish}" again ("{text}"), and it reads it as before'
    return None


SWAPS = re.compile(
    r"\b(?:instead|swap|switch|trade|exchange|replace|substitute|sub|change(?!\s+of\s+plans?\b)|in place of|rather"
    r"|ditch|scrap|in (?:its|their|his|her) place|on (?:second|2nd) thoughts?|(?:2nd|second) thoughts?|prefer"
    r"|on reflection|is better|go with|let['’]?s do|changes? to|becomes?"
    r"|make (?:it|that|the|my|this|those|them)(?!\s+(?:\d|one|two|three|four|five|six)\b)|turn\w*|should be)\b"
    r"|->|→|=>",
    re.I,
)
"""Words that put one thing in the place of another ("swap it for a margarita", "the horchata -> margarita")."""


def unswapped(words: str, rules: GoalReading, model: Reading, menu: Menu) -> str | None:
    """Words that swap something in, where the reading keeps every dish the rules read before them and
    orders a dish named after them that was not among those: the swap took nothing out, so it is read as an
    addition ("2 carnitas tacos and a horchata. nah swap it for a margarita" as all three — a reviewer's
    wrong order; not "make it 3 tacos", which changes a dish already there). A fallback reading is left to
    the fallback checks."""
    if model.fallbacks:
        return None
    ordered = set(model.per_dish())
    found = [
        (m.start(), m.end(), m.group(0), True) for m in [*SWAPS.finditer(words), *THE_ONE.finditer(words)]
    ]
    for n, item in enumerate(
        rules.items
    ):  # a dish pointed back to: "…, a sangria and a paella. wait, can the…"
        if n and next_line(words, rules.items[n - 1], item):
            continue  # "* Falafel Döner\n* Falafel Döner": a list's next line
        if any(i.dish == item.dish and i.words.end <= item.words.start for i in rules.items) and (
            re.search(r"\b(?:the|that|this|those|these)\s+$", words[: item.words.start], re.I)
            or not re.search(r"\b(?:and|plus|more|another|extra|also|too)\b|[&+]", item.words.text, re.I)
        ):  # "… and a horchata. horchata - margarita actually"
            found.append((item.words.start, item.words.end, item.words.text, True))
    for begin, end, text, skip in found:
        start = begin
        if POSTFIX.fullmatch(text) and not re.match(r"\s+of\b", words[end:], re.I):
            start = max(
                (m.end() for m in re.finditer(r"[,.;!?\n]", words[:start])), default=0
            )  # "… in its place"
        before = {i.dish for i in rules.items if i.words.end <= start}
        if not before or not before <= ordered:
            continue
        # what it swaps in: the clause after it, past one that only points back ("scrap that, a margarita")
        clauses = re.split(r"[,.;!?\n]|\band\b|\bplus\b", words[end:])
        while skip and len(clauses) > 1 and set(clauses[0].lower().split()) <= POINTERS:
            clauses = clauses[1:]
        sentence = words[start:begin] if start < begin else clauses[0]
        if any(d not in before and mentions_of(d, sentence, menu) for d in ordered):
            return f'the words swap something in ("{text}"), and it keeps all that came before'
    return None


POSTFIX = re.compile(
    r"in (?:its|their|his|her) place|instead|is better|for (?:my|the) (?:drink|dessert|side|main)", re.I
)
THE_ONE = re.compile(
    r"(?:^|[.!?;]\s*|\b(?:hmm+|oh|oops|actually|wait|ah|um+|nah|no)\W*)(?:the|that|my) (?:drink|dessert|side|main|starter"
    r"|app|appetizer|sweet|beverage|(?:\d(?:st|nd|rd|th)|first|second|third|last) (?:item|one|thing|line))s?"
    r"(?=\s*(?:[,:?\-–—]|->|→|=>|\bto\b|\bchanges?\b|\bbecomes?\b|\bshould\b|\bis now\b|\s\w))"
    r"|\blast (?:item|one|thing)\b|\bfor (?:my|the) (?:drink|dessert|side|main)\b",
    re.I,
)
"""A line of the order pointed back to by its kind, then what replaces it: "… hmm the drink, margarita pls"."""
POINTERS = frozenset({"that", "it", "this", "those", "them", "one", "the", "pls", "please", "-", "—"})


SLOT = re.compile(r"[,;:/|•\n+&.!?()]|\s[-–—]\s|\.\.+|\b(?:and|plus|also|with|w)\b|\bw/|->|→")
"""Where one line of a list of dishes ends: "2 carnitas tacos; street corn / a horchata"."""
COURTESY = re.compile(
    r"\b(?:too|as well|please|pls|plz|thanks|thank you|thx|ty|cheers|x\d+|\d+x|\d+|one|two|three|for (?:me|us"
    r"|my \w+|the \w+|our \w+|him|her|them))\b|[^\w\s]",
    re.I,
)
"""Words around a line of a list that are not the dish: a count, "too", "please", who it is for, an emoji."""
NOT_A_LINE = re.compile(
    r"\b(?:is|are|was|were|isn|aren|wasn|says?|said|had|have|has|ive|i've|keep|loves?|loved|rocks?|would|wants?"
    r"|needs?|hungry|hi|hello|bye|going|gets?|got|make|made|be|been|do|does|did|don|can|will|won|name"
    r"|forgot|remember|think|thought|know|there['’]?s|there|here|fridge|home|work|office"
    r"|includ\w*|last|next|many|much|million|advance|appreciated|welcome|promo|code|pay|cash|card|floor|apt"
    r"|deliver\w*|times?|today|tonight|tomorrow)\b",
    re.I,
)
"""Words no line of a list of dishes holds: a verb, a sign-off, an address, a payment ("my partner isn't
hungry", "many thanks in advance", "keep it up", "name Lucia Gomez", "pay cash")."""


def _line(start: int, end: int, words: str, rules: GoalReading) -> tuple[int, str, bool]:
    """The line of a list around ``start:end`` — where it begins, its words with what the rules placed in
    it blanked out, and whether it begins a sentence."""
    found = list(SLOT.finditer(words, 0, start))
    begin = found[-1].end() if found else 0
    after = SLOT.search(words, end)
    stop = after.start() if after else len(words)
    sentence = not found or found[-1].group(0) in ".!?" or found[-1].group(0).startswith("..")
    line = list(words[begin:stop])
    placed = [item.words for item in rules.items] + ([rules.restaurant.words] if rules.restaurant else [])
    for span in placed:  # what the rules placed in the line is not the dish asked about
        for i in range(max(span.start, begin), min(span.end, stop)):
            line[i - begin] = " "
    return begin, "".join(line), sentence


AS_BEFORE = re.compile(
    r"\s*\b(?:(?:just\s+)?(?:like|as|same as)\s+(?:last time|before|usual|always|last week|ever)"
    r"|if\s+(?:u|you|ya|they)\s+(?:have|got|carry|sell|do|make)(?:\s+(?:it|them|any|some|one|that))?"
    r"|if\s+(?:available|any|there (?:are|is) any|poss(?:ible)?)|when available)\W*$",
    re.I,
)
"""After a line of a list, words of habit or of the shop having it, not of what to order: "…, street corn
like last time", "…, beef tamales if u have" — a line all the same."""


def unread_food(words: str, rules: GoalReading, model: Reading, menu: Menu) -> str | None:
    """A food or drink the menu lacks, named in a line of words the rules could not place ("…, a horchata,
    house made salsa", "…, rice cakes", "… street corn like last time"), which the reading neither orders nor
    keeps as what the menu lacks — dropped in silence (a second reviewer: agreed). Not a word of the menu's
    names or choices, nor one taken out, about another time or person, or held in a condition."""
    menu_words = {key(w) for name in menu.names for w in re.findall(r"[\w']+", name)}
    menu_words |= {key(w) for dish in menu.dishes for c in dish.choices for w in c.split()}
    menu_words |= {key(w) for want in model.items for w in re.findall(r"[\w']+", want.dish)}
    kept = {key(w) for text in model.off_menu for w in re.findall(r"[\w']+", text)}
    for unclear in rules.unclear:
        at = unclear.words.start
        begin, raw, _ = _line(at, at + len(unclear.words.text), words, rules)
        for place, food in foods_in(raw):
            where = begin + place
            if (
                key(food) in menu_words | kept
                or negated(words, where)
                or someone_elses(words, where)
                or (conditional(words, where) and not AS_BEFORE.search(raw))
            ):
                continue
            return f'the words ask for "{" ".join(raw.split())}", which it does not read'
    return None


SIZED = re.compile(r"\b(?:double|triple|twice|full|whole|big|huge|family)\b", re.I)
"""Words about how much of a dish that neither a count nor a choice of the menu says ("a double order of
garlic knots", "a full rack of ribs" of Smoked Ribs (half rack))."""


def unread_dish(words: str, rules: GoalReading, model: Reading, menu: Menu) -> str | None:
    """Words the rules could not place that ask for a dish — near one of the menu's ("pepperoni pizza",
    "ramens for the gang") or with a choice of it ("kfc medium") — of which the reading orders nothing (a
    dish dropped in silence), or orders it where they say how much no count says ("a double order of garlic
    knots" read as one): why, or None."""
    ordered = {want.dish for want in model.items}
    chosen = {c for want in model.items for c in want.choices}
    for unclear in rules.unclear:
        at = unclear.words.start
        text = unclear.words.text
        if negated(words, at) or conditional(words, at) or someone_elses(words, at) or model.off_menu:
            continue
        if _taken_out(words, menu, at, at + len(text)):
            continue  # "no gyoza, karaage or calpico": a list taken out
        if CORRECTION.search(text) or NEGATING.search(text) or AMENDS.search(text):
            continue  # "sorry", "skip the edamame", "replace the spanakopita": amending words, not a dish
        named = {key(w) for c in unclear.candidates for w in re.findall(r"[\w']+", c) if len(w) > 2}
        if unclear.candidates and not named & {key(w) for w in re.findall(r"[\w']+", text)}:
            continue  # "7ish", "xoxo", "quarter": near a dish's name by its letters only
        if unclear.candidates and not ordered & set(unclear.candidates):
            if all(of_its_name(text, c) and _taken_out_last(c, words, menu) for c in unclear.candidates):
                continue  # "a sangria (non-alcoholic) … but not the sangria (non-alcoholic) after all"
            return f'the words ask for "{text}", which it does not read'
        if unclear.candidates and SIZED.search(text):
            return f'the words say "{text}", which no count or choice of the menu says'
        if not unclear.candidates and unclear.options and not chosen & set(unclear.options):  # "kfc medium"
            return f'the words ask for "{text} {" ".join(unclear.options).lower()}", which it does not read'
    return None


def _taken_out_last(dish: str, words: str, menu: Menu) -> bool:
    """Whether the last mention of ``dish`` takes it out ("… but not the sangria after all")."""
    places = mentions_of(dish, words, menu)
    return bool(places) and (negated(words, places[-1]) or negated_list(dish, words, menu, places[-1]))


def another_kind(words: str, rules: GoalReading, model: Reading, menu: Menu) -> str | None:
    """Words the rules could not place that share a word with a dish the reading orders and put a word of
    their own where the dish's name has another ("2 peshwari naan" read as Garlic Naan, "a vanilla shake" as
    the Chocolate Shake, "spaghetti bolognese" as Spaghetti Carbonara, "salmon rolls" as Salmon Nigiri): a dish
    the menu lacks, read as one it has. The word of their own names a food or a kind of one, or is rarer in
    English than `KIND_OF` ("jeera", "mint", "buffalo"); "sangrias all round" and "pizza night" are not."""
    for unclear in rules.unclear:
        if negated(words, unclear.words.start) or someone_elses(words, unclear.words.start):
            continue
        start = max((m.end() for m in PART_OF_A_LIST.finditer(words, 0, unclear.words.start)), default=0)
        end = next((m.start() for m in PART_OF_A_LIST.finditer(words, unclear.words.end)), len(words))
        part = words[start:end]  # "… and a extra peshwari": the rules left "peshwari" alone unplaced
        for want in model.items:
            if (other := _of_another_kind(part, want.dish, menu)) is not None:
                return f'the words ask for "{part.strip()}" ("{other}"), which is not "{want.dish}"'
    return None


PART_OF_A_LIST = re.compile(r"[,.;:!?()\n+&/]|\band\b|\bplus\b|\bwith\b", re.I)
"""What parts a list of dishes: a dish and the words about it stand between two of these."""


def _of_another_kind(text: str, dish: str, menu: Menu) -> str | None:
    """The word of ``text`` that stands beside words of ``dish``'s name where the name has another, and tells
    another kind of dish — or None."""
    said = [t for t in tokenize(text) if not t.text.isspace()]
    name = [key(w) for w in re.findall(r"[^\W\d_]+", dish)]
    # "… get a spicy tuna roll instead", "butter chicken mild": words of the menu's other dishes, not this one's
    others = [
        (m, mention_end(d, text, m)) for d in menu.names if d != dish for m in mentions_of(d, text, menu)
    ]
    found = {
        n: i
        for i, t in enumerate(said)
        for n in name
        if t.is_word
        and closeness(t.key, n) is not None
        and not any(start <= t.start < end for start, end in others)
    }
    if not found:
        return None
    # "a vegetarian lasagna", "cheese fries", "a new york cheesecake": words before the name's first word,
    # whole or in part — an adjective of English comes before its noun
    before = (
        list(range(found[name[0]] - 1, max(found[name[0]] - 1 - MODIFIERS, -1), -1))
        if name[0] in found and all(found[n] > found[name[0]] for n in name[1:] if n in found)
        else []
    )
    beside = [
        found[name[n + 1]] - 1 for n in range(len(name) - 1) if name[n] not in found and name[n + 1] in found
    ]
    # "a new york style cheesecake": past a word of filler to the word that tells the kind
    beside += [i - 1 for i in beside if 0 < i < len(said) and said[i].key in FILLER - BEGINS]
    beside += [
        found[name[n - 1]] + 1 for n in range(1, len(name)) if name[n] not in found and name[n - 1] in found
    ]
    shop = {key(w) for w in re.findall(r"[\w']+", menu.restaurant)}
    found_dish = menu.dish(dish)
    choices = {key(w) for c in (found_dish.choices if found_dish else ()) for w in c.split()}  # "tikka hot"
    candidates = [(said[i], False) for i in beside if 0 <= i < len(said)]
    candidates += [(said[i], True) for i in before]
    # "a chicken burrito bowl": a word after the whole name that serves it as another dish
    after = found[name[-1]] + 1 if name[-1] in found and len(found) == len(name) else len(said)
    if after < len(said) and (
        said[after].key in SERVED_AS or (said[after].key == "bowl" and name[-1] in HANDHELD)
    ):
        candidates.append((said[after], False))
    # "a lasagna but vegan", "a vegan version of the lasagna": a diet the name does not say
    candidates += [(t, False) for t in said if t.key in DIETS and t.key not in name]
    run = True  # the words about the dish begin after a count, an article or filler ("a", "2", "my")
    for token, modifier in candidates:
        word = token.key
        run = run and not (
            modifier and (not token.is_word or token.is_number or word in NUMBER_WORDS.keys() | BEGINS)
        )
        if (modifier and not run) or (
            not token.is_word
            or token.is_number
            or word in FILLER | NUMBER_WORDS.keys() | shop
            or interjection(word)
            or any(p.fullmatch(token.text) for p in (ORDER_WORDS, AMENDS, CORRECTION))
            or any(
                closeness(word, w) is not None
                or _shortened(word, w)
                or (SAID_FOR.get(word) == w and w not in found)
                for w in name
            )
            or any(word == c or _shortened(word, c) for c in choices)  # "a sml cafe au lait"
            or (word, name[0]) in SAME_KIND
            or any(start <= token.start < end for start, end in others)
        ):
            continue
        if modifier:  # a food, a flavour or a diet ("a vegan lasagna"); not how it is made or where from
            if word in KINDS and word not in HOW_GOOD | ORIGINS:
                return token.text
            continue
        if word in KINDS or zipf_frequency(word, "en") < KIND_OF:
            return token.text
    return None


SAID_FOR = {
    key(short): key(word)
    for short, word in [
        ("veg", "vegetable"),
        ("veggie", "vegetable"),
        ("vegetarian", "vegetable"),
        ("maki", "roll"),
    ]
}
"""Words people write for a word of a dish's name that no typo or shortening rule finds ("2 veg biryani")."""
SAME_KIND = {(key(said), key(word)) for said, word in [("french", "fries")]}
"""A word before a dish's name that names the same dish ("french fries" of Fries)."""
_BEGINS = """a an the some any my our your his her their this that these those for of me us and
plus with to at from get got want order please pls plz also i we like would could can need
have grab gimme lemme wanna gonna gotta just then"""
BEGINS = frozenset(key(w) for w in _BEGINS.split())
"""Words after which the words about a dish begin ("a", "my", "gimme blueberry pancakes"); other filler stands
among them ("a korean style carbonara")."""
MODIFIERS = 3
"""How many words before a dish's name can tell its kind ("one gluten free lasagna")."""
KIND_OF = 4.5
"""Below this frequency in English (Zipf), a word beside a dish's can tell another kind of it ("mint",
"buffalo", "plain", "crispy"); above it, it says something else ("night", "large", "fresh", "usual")."""


def _shortened(written: str, word: str) -> bool:
    """Whether ``written`` is ``word`` with letters left out, as people shorten it ("xtra" of "extra")."""
    letters = iter(word)
    return len(written) >= 0.6 * len(word) and all(ch in letters for ch in written)


def listed(start: int, end: int, words: str, rules: GoalReading, menu: Menu) -> str | None:
    """The dish the person wrote as a line of a list, around the unplaced words at ``start:end`` — the words
    of that line no dish the rules read, no filler, count, courtesy or who it is for ("curry palace: chicken
    biryani & 2 garlic naan", "…, a horchata, 1 street corn.", "2 carnitas tacos / tamales / a horchata") —
    or None where the line holds something else (a choice, an amendment, a pleasantry, a condition)."""
    begin, raw, sentence = _line(start, end, words, rules)
    qualified = AS_BEFORE.search(raw)
    raw = raw[: qualified.start()] if qualified else raw
    qualified = qualified or AS_BEFORE.search(
        re.split(r"[.;!?\n]", words[start:])[0]
    )  # "… (half rack) if u have"
    core = " ".join(w for w in COURTESY.sub(" ", raw).split() if key(w) not in FILLER)
    if (
        sentence
        and len(core.split()) > 3
        and not re.search(r"\b(?:a|an|some|\d+|one|two|three|too|also|plus)\b", raw, re.I)
    ):
        return None  # a long sentence of its own is a line only with a count or "too": ". beef tamales too"
    choices = {key(w) for dish in menu.dishes for c in dish.choices for w in c.split()}
    if (
        not re.fullmatch(r"[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,3}", core, re.I)
        or (" " not in core and (len(core) < 3 or interjection(core)))
        or any(key(w) in choices or key(w) in PRONOUNS or interjection(w) for w in core.split())
        or AMENDS.search(core)
        or ORDER_WORDS.search(core)
        or NOT_A_DISH.search(core)
        or any(NOT_ASKED.fullmatch(w) for w in core.split())
        or NOT_A_LINE.search(raw)
        or NEGATING.search(raw)
        or any(mentions_of(name, raw, menu) for name in menu.names)
        or (conditional(words, start) and not qualified)
        or someone_elses(words, start)
        or (  # a person's name after who the order is for: "for my uncle, Tomas Reyes: …"
            SOMEONE.fullmatch(core) is not None
            and re.search(
                r"\b(?:for|to|name|my|our|his|her|their)\b", words[max(0, begin - 30) : begin], re.I
            )
        )
    ):
        return None
    return core


def unread_ask(words: str, rules: GoalReading, model: Reading, menu: Menu) -> str | None:
    """Words the rules could not place that ask for something ("2 carnitas tacos and a coke") which the
    reading neither orders nor keeps as what the menu lacks: dropped in silence, so asked about."""
    kept = " ".join(model.off_menu).lower()
    for unclear in rules.unclear:
        text, at = unclear.words.text, unclear.words.start
        line = listed(at, at + len(text), words, rules, menu)
        text = line or text
        if (
            unclear.dish is not None
            or not re.fullmatch(r"[a-z][\w'-]{2,}(?:\s+[a-z][\w'-]*){0,3}", text, re.I)  # "chicken korma"
            or NOT_ASKED.fullmatch(text)
            or any(mentions_of(want.dish, text, menu) for want in model.items)  # "green curry each": read
            or _taken_out(words, menu, at, at + len(text))  # "no gyoza, karaage or calpico"
        ):
            continue
        before = words[max(0, at - 25) : at]
        asks = (
            re.search(
                r"(?:^|[,:;+&\-–—]|\band\b|\bplus\b|\balso\b)\s*(?:a|an|one|two|three|four|five|\d+|some)\s+$",
                before,
                re.I,
            )
            or line is not None
        )
        if asks and text.lower() not in kept:
            return f'the words ask for "{text}", which it does not read'
    return None


def _taken_out(words: str, menu: Menu, start: int, end: int) -> bool:
    """Whether ``words[start:end]`` name dishes, each of them taken out, and nothing else ("karaage or calpico"
    of "no gyoza, karaage or calpico"; not "karaage or calpico but add takoyaki")."""
    named = [(d, at) for d in menu.names for at in mentions_of(d, words, menu) if start <= at < end]
    if not named or not all(negated(words, at) or negated_list(d, words, menu, at) for d, at in named):
        return False
    rest = list(words[start:end])
    for d, at in named:
        rest[at - start : mention_end(d, words, at) - start] = " " * (mention_end(d, words, at) - at)
    return not re.sub(r"[\s,&+/()\d]|\b(?:and|or|nor|n|the|any)\b", "", "".join(rest), flags=re.I)


NOT_A_COUNT = re.compile(r"\bnot\s+(\d+|one|two|three|four|five|six)\b", re.I)


def _count(word: str) -> int:
    return int(word) if word.isdecimal() else NUMBER_WORDS.get(word.lower(), 0)


def explained(doubt: str, model: Reading, menu: Menu, words: str) -> bool:
    """Whether words the rules left are borne out by a reading that orders what the rules read: no amending
    words in them, no count the reading lacks, and any dish they name one they take out ("no churros"); or
    the words that take out a dish the reading does not order, left without it ("skip the" of "skip the
    edamame")."""
    if MORE_OF.search(doubt):
        return (
            False  # "… and one for my wife": more of what came before, which a reading of it as written lacks
        )
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
    if AMENDS.search(rest) or MULTIPLIES.search(rest):
        return False
    # "… 3 tacos not 4": no count of 4 — unless a line of the reading has it ("… a horchata. not 3, 4")
    if any(_count(m.group(1)) in {w.quantity for w in model.items} for m in NOT_A_COUNT.finditer(doubt)):
        return False
    rest = NOT_A_COUNT.sub(" ", rest)
    choices = {normalize(c) for dish in menu.dishes for c in dish.choices}
    if any(re.search(rf"\b{re.escape(c)}\b", normalize(rest)) for c in choices):
        return False  # "…, make it mild": a choice the reading, the rules' own, does not take
    quantities = {w.quantity for w in model.items}
    # read in the words around (a doubt may end mid-number: "love this place 10" of "… 10/10 would order")
    near = words[at : at + len(doubt) + 12] if at >= 0 else doubt
    near = NOT_A_COUNT.sub(lambda m: " " * len(m.group(0)), near)
    if re.search(r"\b(?:sorry|wait|actually|oops|nvm|i mean)\b", doubt, re.I) and own_counts(
        near, " ".join(menu.names), menu, counted=False
    ):  # not "sorry for the late order, long day, 3 meetings"
        return False  # "…, sorry, up to 4": a correction with a number, whatever the number counts
    counted = [(place, n) for place, n in counts_in(near) if place < len(doubt)]
    if any(n != 1 for _, n in counted) and quantities <= {1}:
        return False
    if (
        any(n != 1 for _, n in counted)
        and len(doubt.split()) <= 5
        and not any(NOT_ASKED.fullmatch(w) for w in re.findall(r"\w+", doubt))
        and not any(mentions_of(d, doubt, menu) for d in menu.names)
    ):
        return False  # a bare count after a dish: "… 3 carnitas tacos. nvm 2" (whichever line has 2)
    for dish in menu.names:
        for at in mentions_of(dish, doubt, menu):  # "my brother had the bun cha last week": none asked for
            if (dish in ordered and KEPT_AS_IT_WAS.match(doubt, mention_end(dish, doubt, at))) or elsewhere(
                doubt, at
            ):
                continue  # "…, the pad thai stays mild"; "my brother had the beef pho there last week"
            if dish in ordered or not (negated(doubt, at) or elsewhere(doubt, at)):
                return False
    return True
