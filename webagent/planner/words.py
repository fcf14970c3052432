"""The words of a text, each remembering where it stands, and forgiving comparisons between a word
someone wrote and a word the page shows.

``key`` is how a word is compared: no case, no accents, singular ("Pizzas" → "pizza", "Crème" →
"creme"), common abbreviations spelled out ("st" → "street", "n"/"&" → "and"). Two keys are *close*
when one is a small typo of the other (rapidfuzz's optimal-string-alignment distance, so a swapped pair
of letters counts once) or a clear abbreviation ("guac" of "guacamole") — but a common English word
(wordfreq's frequencies) is not a typo of another word but itself ("grown" is no "brown", "share" no
"shake", "friend" no "fried", "calm" no "clam"), unless the two differ only as typos of real words do: a
doubled letter ("desert", "dessert") or a last vowel ("cheese", "cheesy").
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from functools import cache, lru_cache

from rapidfuzz.distance import OSA
from wordfreq import zipf_frequency

__all__ = [
    "FILLER",
    "INTERJECTIONS",
    "JOINERS",
    "NEGATIONS",
    "NUMBER_WORDS",
    "PHRASE_NUMBERS",
    "QUALIFIER",
    "Token",
    "beyond_the_menu",
    "closeness",
    "interjection",
    "key",
    "keys",
    "multiplier",
    "pieces_or_portions",
    "qualified",
    "tokenize",
    "word_keys",
]

NUMBER_WORDS = {
    "one": 1, "single": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
}  # fmt: skip
PHRASE_NUMBERS = (
    (("half", "a", "dozen"), 6), (("a", "dozen"), 12), (("dozen",), 12), (("a", "couple", "of"), 2),
    (("couple", "of"), 2), (("a", "couple"), 2), (("couple",), 2), (("a", "pair", "of"), 2), (("pair", "of"), 2),
)  # fmt: skip
TOKEN = re.compile(r"\n|\w+(?:['’]\w+)*|[^\w\s]")
ABBREVIATIONS = {"st": "street", "rd": "road", "ave": "avenue", "n": "and", "w": "with", "thx": "thanks"}


@dataclass(frozen=True)
class Token:
    """One word, number or punctuation mark of a text, with its place in it."""

    text: str
    start: int
    end: int
    key: str
    """The comparable form: see `key`."""

    @property
    def is_word(self) -> bool:
        return self.text[0].isalnum() or self.text[0] == "_"

    @property
    def is_number(self) -> bool:
        return self.text.isdecimal()  # "²" is a digit, not a number int() reads

    @property
    def capitalized(self) -> bool:
        return self.text[0].isupper()


@lru_cache(maxsize=1 << 16)
def key(word: str) -> str:
    """``"Pizzas"`` → ``"pizza"``, ``"Brûlée"`` → ``"brulee"``, ``"St"`` → ``"street"``, ``"&"`` → ``"and"``.

    Plurals and singulars meet in one form, even where it is not a word: "fries" and "Fries" → "fry",
    "cookies" and "Cookie" → "cooky".
    """
    decomposed = unicodedata.normalize("NFKD", word.replace("’", "'"))
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()
    plain = plain.replace("'", "").replace("&", "and").replace("×", "x")
    plain = ABBREVIATIONS.get(plain, plain)
    if len(plain) > 3 and plain.endswith("ies"):
        plain = plain[:-3] + "y"
    elif len(plain) > 4 and plain.endswith(("ches", "shes", "xes", "oes")):
        plain = plain[:-2]  # "sandwiches", "boxes", "potatoes"
    elif len(plain) > 2 and plain.endswith("s") and not plain.endswith("ss"):
        plain = plain[:-1]
    if len(plain) >= 3 and plain.endswith("ie"):
        plain = plain[:-2] + "y"  # "cookie" and "cookies" alike, "pie" and "pies"
    return plain


def tokenize(text: str) -> list[Token]:
    """Every word, number, punctuation mark and line break of ``text``, in order."""
    return list(_tokens(text))


@lru_cache(maxsize=1 << 12)
def _tokens(text: str) -> tuple[Token, ...]:
    """`tokenize`, kept: the checks read one request's words many times over (pure, so kept by value)."""
    return tuple(Token(m.group(0), m.start(), m.end(), key(m.group(0))) for m in TOKEN.finditer(text))


QUALIFIER = "ish"
"""The key of a word that only qualifies a choice beside it ("medium *spicy*", "hot-*ish*"): filler."""
INTENSIFIERS = frozenset({"extra", "very", "super", "really", "extremely", "properly", "quite", "seriously"})
SOFTENERS = frozenset({"mildly", "slightly", "lightly", "gently", "little", "bit"})
SPICE_CHOICES = frozenset({"mild", "medium", "hot"})
CLAUSE_END = frozenset({"from", "please", "pls", "for", "and", "with", "thanks", "at", "to", "thank", "plus"})


def word_keys(*words: str) -> frozenset[str]:
    return frozenset(key(word) for word in words)


INTERJECTIONS = frozenset({
    "lol", "haha", "hahaha", "yum", "yay", "omg", "btw", "asap", "tia", "xoxo", "xx", "hmm", "ok", "okay", "guys",
    "folks", "hey", "hi", "hiya", "yo", "hola", "gracias", "merci", "danke", "xo", "lmao", "plz", "pls", "thx", "ty",
    "tysm",
})  # fmt: skip
"""Words that greet, laugh or sign off: no line of an order."""


def interjection(word: str) -> bool:
    """A greeting, a laugh or a sign-off, its letters drawn out or not: "heyy", "yoo", "lol", "xo"."""
    return word.lower() in INTERJECTIONS or re.sub(r"(.)\1+", r"\1", word.lower()) in INTERJECTIONS


FILLER = word_keys(
    "order", "orders", "ordering", "get", "gets", "got", "want", "wants", "like", "would", "could", "can",
    "may", "please", "pls", "plz", "kindly", "the", "a", "an", "some", "for", "from", "at", "to", "with", "and",
    "of", "me", "i", "i'd", "i'll", "i'm", "we", "we'd", "we'll", "us", "our", "my", "you", "your", "just",
    "also", "plus", "then", "too", "deliver", "delivered", "delivery", "send", "bring", "ship", "thanks",
    "thank", "thx", "cheers", "hi", "hey", "hello", "good", "evening", "morning", "afternoon", "tonight",
    "today", "now", "dinner", "lunch", "breakfast", "dessert", "food", "meal", "something", "hungry",
    "starving", "really", "so", "much", "very", "love", "lovely", "be", "is", "are", "it", "it's", "this",
    "that", "that's", "these", "those", "if", "ok", "okay", "nothing", "else", "only", "have", "has",
    "need", "let", "let's", "place", "buy", "grab", "cooked", "size", "sized", "spice", "level", "style",
    "extra", "real", "one", "ones", "sponsored", "items", "item", "dish", "dishes", "restaurant", "name",
    "address", "phone", "number", "mobile", "tel", "customer", "when", "time", "portion", "serving",
    "piece", "qty", "quantity", "x", "he", "she", "they", "he'll", "she'll", "here", "there", "yes", "but",
    "in", "on", "by", "as", "all", "both", "total", "more", "same", "usual", "quick", "fast", "also", "go", "ahead", "sure", "thing", "make", "and/or", "or", "either", "whatever", "mine",
    "arrive", "arrives", "what", "could", "possible", "around", "about", "after", "which", "up", "am",
    "added", "myself", "already", "continue", "proceed", "carry", "go", "on", "hungry", "ta", "ish", "over",
    "super", "extremely", "there", "best", "regards", "cheers", QUALIFIER, "just",
)  # fmt: skip
NEGATIONS = word_keys("not", "no", "without", "except", "excluding", "minus", "nor", "never")
JOINERS = word_keys("and", "plus", "with", "then", "also", "&", "+", "alongside")


def qualified(tokens: list[Token]) -> list[Token]:
    """Spice written with a qualifier, keyed as the choice it names.

    "extra spicy", "very spicy", "super spicy" → hot; "medium spicy", "medium-hot" → medium; "mildly
    spicy", "a bit spicy" → mild. Only where "spicy" ends its phrase: in "an extra spicy tuna roll" it is
    part of a dish's name. A lone "spicy" names no one choice and is left to be asked about.
    """
    words = [i for i, token in enumerate(tokens) if token.is_word]
    out = list(tokens)
    for n, i in enumerate(words):
        if out[i].key not in {"spicy", "hot"} or n == 0:
            continue
        nxt = words[n + 1] if n + 1 < len(words) else None
        if nxt is not None and nxt == i + 1 + (tokens[i + 1].text == "-") and out[nxt].key not in CLAUSE_END:
            continue
        before = words[n - 1]
        if not all(tokens[j].text in {"-", " "} for j in range(before + 1, i)):
            continue
        previous = out[before].key
        if previous in SPICE_CHOICES:
            out[i] = replace(out[i], key=QUALIFIER)
        elif previous in INTENSIFIERS and out[i].key == "spicy":
            out[i] = replace(out[i], key="hot")
        elif previous in SOFTENERS:
            out[before] = replace(out[before], key=QUALIFIER)
            out[i] = replace(out[i], key="mild")
    return out


DEGREES = frozenset({"hot", "mild", "medium", "large", "small", "regular"})
"""Choices that are a degree of something, which a word before them can take past the menu's last ("extra
spicy" is not one: spicy is a kind, and extra of it is Hot, as `qualified` reads it)."""
BEYOND_BEFORE = re.compile(r"\b(?:extra|xtra|super|ultra|mega|extremely|x(?=-))[\s-]*$", re.I)  # "x-large"
MEDIUM_BEFORE = re.compile(r"\bmedium[\s-]*$", re.I)
WELL_AFTER = re.compile(r"[\s-]*well\b", re.I)


def beyond_the_menu(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Where a choice written at ``text[start:end]`` is written as one no menu here offers, the span of
    those words, or None: a degree taken past the last ("extra hot", "super mild", "xtra large"), or
    between two ("medium well", "medium-well done"). "extra bacon" is the Bacon of Extras, as written."""
    written = text[start:end]
    after = WELL_AFTER.match(text, end)
    if after is not None and key(written) == "medium":
        return start, after.end()
    before = MEDIUM_BEFORE.search(text[:start])
    if before is not None and keys(written)[:1] == ["well"]:
        return before.start(), end
    before = BEYOND_BEFORE.search(text[:start])
    if before is not None and keys(written) and keys(written)[-1] in DEGREES:
        return before.start(), end
    return None


PIECE_WORDS = r"(?:\s*-?\s*(?:pcs?\.?|pieces?|pc\.|ct|count))?"
PORTION = re.compile(rf"\((\d+){PIECE_WORDS}\)\s*$", re.I)
"""A dish sold as a portion of several pieces names their number last: "Samosa (2)", "Gyoza (5)", a page's
"Samosa (2 pcs)", "Wings (6-piece)"."""
UNITS = r"portions?|orders?|packs?|packets?|plates?|servings?|helpings?|boxes|box|sets?|baskets?|bags?|trays?"
SAID = {1: "a|an|one|a single", 2: "two|a couple|a pair", 3: "three", 4: "four", 5: "five", 6: "six|half a dozen",
        8: "eight", 10: "ten", 12: "twelve|a dozen"}  # fmt: skip


def pieces_or_portions(dish: str, count: int, written: str) -> int | None:
    """Where ``dish`` is sold as a portion of several pieces and ``written`` counts it by a number that could
    count its pieces as well as its portions ("4 samosas" of Samosa (2): 2 portions or 4?), the pieces a
    portion holds; else None. Plain: a count below one portion's pieces ("2 pork dumplings" of six a
    portion: two portions); a count of portions of the dish itself, with no other number between ("3
    orders of samosas", "2 plates of gyoza" — not "a pack of 6 dumplings", nor "order 4 samosas" or "4
    samosas on a plate"); the portion's own size written ("4 Samosa (2)"); a dish named for its portion
    counted as such ("6 cookie boxes")."""
    size = PORTION.search(dish)
    pieces = int(size.group(1)) if size else 0
    if pieces < 2 or count < pieces:
        return None
    core = PORTION.sub("", dish).strip()
    stems = "|".join(re.escape(k[:4]) for k in keys(core) if len(k) >= 4) or re.escape(core.lower())
    said = f"{count}|{SAID[count]}" if count in SAID else str(count)
    counted = rf"\b(?:{said})\s+(?:{UNITS})\s+of\s+(?:[a-z]+\s+){{0,2}}?(?:{stems})"
    own_unit = re.fullmatch(rf".*\b(?:{UNITS})", core.lower()) and re.search(
        rf"\b{count}\s+{re.escape(core.lower())}(?:es|s)\b", written.lower()
    )
    if (
        re.search(counted, written, re.I)
        or re.search(rf"\(\s*{pieces}{PIECE_WORDS}\s*\)", written, re.I)
        or own_unit
    ):
        return None
    return pieces


def keys(text: str) -> list[str]:
    """The keys of the words of ``text`` (punctuation left out): ``"Mac & Cheese"`` → mac, and, cheese."""
    return [token.key for token in tokenize(text) if token.is_word or token.text == "&"]


def closeness(written: str, shown: str) -> float | None:
    """How far a written key is from a shown one: 0 the same, 1–2 a typo or abbreviation, None unrelated.

    Short words must be exact ("hot" is not "hut"); a four-letter word may only swap two letters
    ("bahn" for "banh"); longer ones may be one edit off, and words of eight letters or more two.
    """
    if written == shown:
        return 0.0
    if len(written) < 4 or len(shown) < 4:
        return None
    if common(written) and not typo_of_a_word(written, shown):
        return None  # "grown" is no "brown", "match" no "matcha"
    if len(shown) > len(written) >= 4 and shown.startswith(written):
        return 1.5  # an abbreviation: "guac", "quesa"
    distance = OSA.distance(written, shown)
    if len(shown) == 4 or len(written) == 4:
        return 1.0 if distance == 1 and sorted(written) == sorted(shown) else None
    allowed = 2 if min(len(written), len(shown)) >= 8 else 1
    return float(distance) if distance <= allowed else None


COMMON = 3.5
"""A word at least this frequent in English (Zipf scale: 3.5 is about three in a million words — "diner",
"margarita" are under it, "grown", "share", "friend", "later", "better" far above) stands for itself; the
misspellings people make of dishes ("chiken", "lasagne", "bahn") are all under 3."""


@cache
def common(word: str) -> bool:
    """Whether ``word`` (a key) is a common English word."""
    return zipf_frequency(word, "en") >= COMMON


def typo_of_a_word(written: str, shown: str) -> bool:
    """Whether a real word stands for another as typos do: a doubled letter written once or twice, or a
    last vowel ("cheese" for "cheesy", "spice" for "spicy"; not "break" for "bread")."""
    if re.sub(r"(.)\1", r"\1", written) == re.sub(r"(.)\1", r"\1", shown):
        return True
    return (
        len(written) == len(shown)
        and written[:-1] == shown[:-1]
        and {written[-1], shown[-1]} <= set("aeiouy")
    )


def multiplier(word: str) -> int | None:
    """``"x2"``, ``"2x"`` → 2."""
    if len(word) > 1 and word[0] == "x" and word[1:].isdigit():
        return int(word[1:])
    if len(word) > 1 and word[-1] == "x" and word[:-1].isdigit():
        return int(word[:-1])
    return None
