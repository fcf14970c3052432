"""A JSGF grammar of ordering phrases over the shop's own names, and the way back to those names.

pocketsphinx's general English model turns a spoken order into nonsense ("order one tiramisu …" heard
as "or don't want to do i want …"). Held to a grammar of the sentences an order is made of — counts,
dish names, option choices, a restaurant, payment, a delivery time, a budget — it hears them. The
grammar also takes the short answers of a conversation ("yes", "no thanks", a restaurant's name).

Anything else must not come out as an order: a recogniser held to a grammar always finds *some*
sentence of it. So the grammar has a second branch, a loop over common English words (each extra word
heavily penalised), which wins when the speech is not an order; a transcript from that branch is
reported as not understood, and the agent asks rather than guesses. The loop's words carry a mark
(``want~``) so that "I want a pizza" heard in it is told apart from "i want" in an order.

People do not say an order the way the menu writes it: "I'd like a lasagna and a tiramisu from
Italian Bistro, please". So the grammar also takes a dish by the words that identify it on its menu
("lasagna" for "Lasagna al Forno": `dish_partials`), the last word in the other number ("two
cheeseburgers", "a churro"), more ways to begin ("could I have") and to end ("thanks") an order.
Partial names live in a branch of each restaurant's own, before its name: in one list of every
partial beside every restaurant, short words ("tea", "beef", "a soup") stood in for a restaurant's name
said indistinctly (natural espeak-ng orders: at best 19 of 35 heard right that way, 26 per restaurant).

The recogniser speaks lower-case dictionary words ("lasagna al forno", "doner"); `OrderGrammar.shown`
maps them back to the names as the shop shows them ("Lasagna al Forno", "Döner"), counts to digits,
"seven thirty pm" to "7:30pm", so the goal reader gets an ordinary typed goal. A partial name is read
on the menu of the restaurant the sentence names ("lasagna … from Italian Bistro" → "Lasagna al
Forno"); one that names two of its dishes ("a pizza from Italian Bistro") is left as said, so the goal
reader asks which one rather than guessing.

Pure: no browser, no recogniser.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

from webagent.voice.vocabulary import ShopVocabulary

__all__ = ["OTHER_MARK", "OrderGrammar", "dish_partials", "number_words", "order_grammar", "spoken_words"]

NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
           "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")  # fmt: skip
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
        "ninety": 90}  # fmt: skip
COUNTS = ("a", "an", *NUMBERS[1:13])
LEADS = (
    "order", "please order", "i want", "i would like", "i'd like", "i'll have", "can i have", "can i get",
    "get me", "i want to order", "i would like to order", "i'd like to order", "could i get", "we want",
    "could i have", "can i order", "may i have", "let me get", "we'd like", "we would like",
)  # fmt: skip
CLOSINGS = (
    "please", "thanks", "thank you", "please and thank you", "thank you very much", "cheers",
)  # fmt: skip
"""Said at the end of an order; shown after a comma ("…from Italian Bistro, please.")."""
I_WORDS = {"i": "I", "i'd": "I'd", "i'll": "I'll", "i'm": "I'm"}
CLOSINGS_LONGEST_FIRST = sorted((c.split() for c in CLOSINGS), key=len, reverse=True)
LINKS = frozenset(
    {"al", "and", "au", "con", "de", "del", "di", "la", "le", "of", "the", "with", "y", "e", "n"}
)
"""Words a partial name may not start or end with: "al forno" does not name a lasagna."""
PAYMENTS = (
    "pay cash", "pay in cash", "pay with cash", "pay by card", "pay with card", "pay with a card",
    "pay by voucher", "pay with a voucher", "cash", "card on delivery",
)  # fmt: skip
ANSWERS = (
    "yes", "yes please", "no", "no thanks", "no thank you", "okay", "that's right", "exit", "quit", "stop",
    "cancel", "skip it", "none", "thank you",
)  # fmt: skip
OTHER_MARK = "~"
"""Ends each word of the not-an-order branch: ``want~`` sounds like ``want`` but is not an order's word."""
OTHER_WORD_WEIGHT = "1e-8"
"""The penalty on each further word of the not-an-order branch. Measured on espeak-ng speech: 1e-4
rejected real orders, 1e-15 let "I want a pizza" through as "i want a tabbouleh"."""


def number_words(n: int) -> list[str]:
    """0–99 as words: 45 → ``["forty", "five"]``."""
    if n < 20:
        return [NUMBERS[n]]
    tens = next(word for word, value in TENS.items() if value == n // 10 * 10)
    return [tens] + ([NUMBERS[n % 10]] if n % 10 else [])


def _fold(word: str) -> str:
    """Accents off, lower case: "Döner" → "doner"."""
    plain = unicodedata.normalize("NFKD", word)
    return "".join(ch for ch in plain if not unicodedata.combining(ch)).lower()


def spoken_words(name: str) -> list[tuple[str, str]]:
    """A shop name as the words a person says, each with its written form (for pronouncing it).

    A bracketed pack size is not said ("Gyoza (5)" → gyoza), "&" is "and", digits are words.
    """
    text = re.sub(r"\([^)]*\)", " ", name).replace("&", " and ").replace("’", "'")
    words: list[tuple[str, str]] = []
    for written in re.findall(r"[^\W_]+(?:'[^\W_]+)*", text):
        folded = _fold(written)
        if folded.isdigit():
            words += [(w, w) for w in number_words(int(folded) % 100)]
            continue
        folded = re.sub(r"[^a-z']", "", folded)
        if folded:
            words.append((folded, written))
    return words


def _stem(word: str) -> str:
    """One number for both: "cheeseburgers" and "cheeseburger" → "cheeseburger"; "hummus" stays."""
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "ies")):
        return word[:-1]
    return word


def _stems(words: Sequence[str]) -> tuple[str, ...]:
    return tuple(_stem(word) for word in words)


def _other_number(word: str) -> str | None:
    """The last word of a dish in the other number ("burrito" → "burritos", "churros" → "churro")."""
    stem = _stem(word)
    if stem != word:
        return stem
    if len(word) < 3 or word.endswith(("s", "x", "z", "ch", "sh", "y", "'")):
        return None  # "fries", "hummus", "curry": left as the menu says them
    return word + "s"


def _contains(words: tuple[str, ...], part: tuple[str, ...]) -> bool:
    return any(words[i : i + len(part)] == part for i in range(len(words) - len(part) + 1))


def dish_partials(menu: Sequence[str], reserved: frozenset[str] = frozenset()) -> set[tuple[str, ...]]:
    """The shorter ways to say a dish of ``menu`` (its dish names): runs of a name's words.

    "lasagna" and "forno" of "Lasagna al Forno", "tikka masala"; not "al forno" (it starts with a
    linking word), nor a single word of the ordering sentences in ``reserved`` ("four" of "Four Cheese
    Pizza", "hot" of "Hot Chocolate" — a spice level). A run that fits two of the menu's dishes
    ("pizza", "roll") is kept: heard, it is shown as said and the goal reader asks which one.
    """
    partials: set[tuple[str, ...]] = set()
    for name in menu:
        words = tuple(word for word, _ in spoken_words(name))
        for size in range(1, len(words)):
            for start in range(len(words) - size + 1):
                part = words[start : start + size]
                if part[0] in LINKS or part[-1] in LINKS:
                    continue
                if size == 1 and (len(part[0]) < 3 or part[0] in reserved):
                    continue
                partials.add(part)
    return partials


def _as_ordered(name: str) -> str:
    # "Gyoza (5)" is ordered as "Gyoza": the goal reader would take "(5)" for an option choice.
    return " ".join(re.sub(r"\([^)]*\)", " ", name).split()) or name


def _alternatives(phrases: Sequence[str]) -> str:
    unique = sorted({p for p in phrases if p})
    return "(" + " | ".join(unique) + ")" if unique else "<VOID>"


@dataclass
class OrderGrammar:
    """The grammar (JSGF text), how to pronounce its words, and how to read its output back."""

    jsgf: str
    written: dict[str, str]
    """Each grammar word → a written form of it (the name's own spelling), for pronunciation."""
    names: dict[tuple[str, ...], str] = field(default_factory=dict)
    """Spoken word sequences → the name as the shop shows it."""
    other: tuple[str, ...] = ()
    """The words of the not-an-order branch, each marked with `OTHER_MARK` (pronounced as without it)."""
    menus: dict[str, list[tuple[tuple[str, ...], str]]] = field(default_factory=dict)
    """Each restaurant (as shown) → its dishes: the spoken words' stems, the name as ordered."""
    restaurants: dict[tuple[str, ...], str] = field(default_factory=dict)
    """Spoken word sequences → the restaurant as the shop shows it."""
    choices: frozenset[tuple[str, ...]] = frozenset()
    """The option choices, spoken."""
    dishes: frozenset[tuple[str, ...]] = frozenset()
    """Every way the grammar says a dish (full names, partials, the other number), as stems."""

    def understood(self, hypothesis: str) -> bool:
        """Whether the recogniser's words came from the ordering branch (not empty, not "other")."""
        words = hypothesis.split()
        return bool(words) and not any(word.endswith(OTHER_MARK) for word in words)

    def shown(self, hypothesis: str) -> str:
        """The recogniser's words as a typed goal: the shop's names, digits, times and money.

        ``"two large margherita pizza one tiramisu from italian bistro pay cash"`` →
        ``"2 Large Margherita Pizza, 1 Tiramisu from Italian Bistro, pay cash."``
        """
        tokens = hypothesis.split()
        longest = max(map(len, [*self.names, *self.dishes]), default=1)
        restaurant = self._restaurant(tokens)
        out: list[str] = []
        after_name = ordered = chose = False  # chose: the last words were a choice ("two large …")
        i = 0
        while i < len(tokens):
            # A dish follows its count: "four cheese" said first is 4 × a cheese pizza, not a Four Cheese.
            counted = tokens[i] in COUNTS and not ((i > 0 and tokens[i - 1] in COUNTS) or chose)
            size = next(
                (
                    size
                    for size in range(min(longest, len(tokens) - i), 0, -1)
                    if tuple(tokens[i : i + size]) in (self.restaurants if counted else self.names)
                    or (not counted and _stems(tokens[i : i + size]) in self.dishes)
                ),
                0,
            )
            if size:
                words = tuple(tokens[i : i + size])
                chose = False
                if _stems(words) in self.dishes and not self._a_choice_here(tokens, i, size):
                    out.append(self._dish(words, restaurant) or " ".join(words))
                    ordered = True
                else:
                    out.append(self.restaurants.get(words) or self.names[words])
                    chose = words in self.choices
                i += size
                after_name = True
                continue
            closing = next((c for c in CLOSINGS_LONGEST_FIRST if tokens[i : i + len(c)] == c), None)
            if ordered and closing is not None:
                out += [",", " ".join(closing)]  # "…from Italian Bistro, please."
                i += len(closing)
                after_name = False
                continue
            word, used = _phrase_at(tokens, i)
            chose = False
            if used == 0:  # a count, kept as a digit; after a dish without "and", a new item
                number, used = _number_at(tokens, i)
                word = str(number) if number is not None and tokens[i] in COUNTS else tokens[i]
                used = used or 1
                if after_name and number is not None:
                    out.append(",")
            elif out and out[-1] != ",":
                out.append(",")  # "…from Italian Bistro, deliver at 7pm, pay cash"
            out.append(word)
            i += used
            after_name = False
        text = " ".join(I_WORDS.get(word, word) for word in out).replace(" ,", ",")
        return (text[:1].upper() + text[1:] + ".") if text else ""

    def _restaurant(self, tokens: list[str]) -> str | None:
        """The restaurant the words name, the one after "from" or "at" first."""
        found: list[tuple[bool, int, str]] = []
        longest = max(map(len, self.restaurants), default=1)
        for i in range(len(tokens)):
            for size in range(min(longest, len(tokens) - i), 0, -1):
                name = self.restaurants.get(tuple(tokens[i : i + size]))
                if name is not None:
                    after = i > 0 and tokens[i - 1] in ("from", "at", "the")
                    found.append((not after, i, name))
                    break
        return min(found)[2] if found else None

    def _a_choice_here(self, tokens: list[str], i: int, size: int) -> bool:
        """Whether the words at ``i`` are a choice said with a dish ("large" of "a large margherita")
        rather than a dish of their own."""
        if tuple(tokens[i : i + size]) not in self.choices:
            return False
        if i > 0 and tokens[i - 1] in ("with", "and"):
            return True
        longest = max(map(len, self.dishes), default=1)
        rest = tokens[i + size :]
        return any(_stems(rest[:n]) in self.dishes for n in range(1, min(longest, len(rest)) + 1))

    def _dish(self, words: tuple[str, ...], restaurant: str | None) -> str | None:
        """The dish ``words`` name — on ``restaurant``'s menu when one was named — or None when they
        name several (the goal reader asks which one) or none."""
        stems = _stems(words)
        if restaurant in self.menus:
            menu = self.menus[restaurant]
            exact = [shown for dish, shown in menu if dish == stems]
            found = {shown for dish, shown in menu if _contains(dish, stems)}
            if exact or len(found) == 1:
                return exact[0] if exact else found.pop()
            if found:
                return None  # two of its dishes: not ours to pick
        every = [(dish, shown) for menu in self.menus.values() for dish, shown in menu]
        exact = sorted({shown for dish, shown in every if dish == stems})
        if exact:
            return self.names.get(words, exact[0])
        found = {shown for dish, shown in every if _contains(dish, stems)}
        return found.pop() if len(found) == 1 else None


def _number_at(tokens: list[str], i: int) -> tuple[int | None, int]:
    """The number spoken at ``tokens[i]`` ("forty five" → 45, two tokens), or (None, 0)."""
    word = tokens[i] if i < len(tokens) else ""
    if word in TENS:
        unit = tokens[i + 1] if i + 1 < len(tokens) else ""
        if unit in NUMBERS[1:10]:
            return TENS[word] + NUMBERS.index(unit), 2
        return TENS[word], 1
    if word in NUMBERS:
        return NUMBERS.index(word), 1
    if word in ("a", "an"):
        return 1, 1
    return None, 0


def _phrase_at(tokens: list[str], i: int) -> tuple[str, int]:
    """A detail phrase starting at ``tokens[i]`` in typed form, with the tokens it used; ("", 0) if none."""
    rest = tokens[i:]
    if rest[:4] == ["as", "soon", "as", "possible"]:
        return "as soon as possible", 4
    start = 1 if rest[:1] == ["deliver"] else 0
    if rest[start : start + 1] == ["at"]:
        hour, used = _number_at(tokens, i + start + 1)
        after = i + start + 1 + used
        if hour is not None and used == 1:
            minutes, more = _number_at(tokens, after)
            if minutes is not None and tokens[after + more : after + more + 1] == ["pm"]:
                return f"{'deliver ' if start else ''}at {hour}:{minutes:02d}pm", after + more + 1 - i
            if tokens[after : after + 1] == ["pm"]:
                return f"{'deliver ' if start else ''}at {hour}pm", after + 1 - i
            if tokens[after : after + 1] == ["o'clock"]:
                return f"{'deliver ' if start else ''}at {hour} o'clock", after + 1 - i
    if rest[:1] == ["under"]:
        amount, used = _number_at(tokens, i + 1)
        if amount is not None and tokens[i + 1 + used : i + 2 + used] == ["dollars"]:
            return f"under ${amount}", used + 2
    for payment in sorted(PAYMENTS, key=len, reverse=True):
        words = payment.split()
        if rest[: len(words)] == words:
            return payment, len(words)
    return "", 0


def order_grammar(
    vocabulary: ShopVocabulary, other_words: Sequence[str] = (), other_count: int = 100
) -> OrderGrammar:
    """The ordering grammar for this shop's names.

    ``other_words``: common English words, most frequent first; the first ``other_count`` make up
    the not-an-order branch (ordering words among them too: "I want a pizza" is not an order here).
    """
    written: dict[str, str] = {}
    names: dict[tuple[str, ...], str] = {}

    def say(name: str, shown: str | None = None) -> str:
        words = spoken_words(name)
        for word, form in words:
            written.setdefault(word, form)
        spoken = tuple(word for word, _ in words)
        if spoken:
            names.setdefault(spoken, shown or name)
        return " ".join(spoken)

    full = [say(dish.name, _as_ordered(dish.name)) for r in vocabulary.restaurants for dish in r.dishes]
    choices = [say(choice) for r in vocabulary.restaurants for dish in r.dishes for choice in dish.choices]
    restaurants = [say(r.name) for r in vocabulary.restaurants]
    fixed = (
        *LEADS,
        *CLOSINGS,
        *PAYMENTS,
        *ANSWERS,
        "as soon as possible",
        "deliver at",
        "under dollars",
        "from the",
    )
    sentence_words = [*" ".join(fixed).split(), *COUNTS, *NUMBERS, *TENS, "pm", "o'clock", "and", "with"]
    for word in sentence_words:
        written.setdefault(word, word)
    reserved = frozenset(sentence_words) | {choice for choice in choices if " " not in choice}
    # Each restaurant's own branch: its dishes by their full names, by partial names and in the other
    # number, its choices, then its name. A partial name is heard only where the restaurant is said,
    # so "lasagna" can be nothing but that restaurant's lasagna, and short words ("tea", "beef") cannot
    # stand in for a restaurant's name said indistinctly — which they did in one grammar of all dishes.
    branches: list[str] = []
    rules: list[str] = []
    every: set[tuple[str, ...]] = set()
    for index, r in enumerate(vocabulary.restaurants):
        said = [" ".join(w for w, _ in spoken_words(d.name)) for d in r.dishes]
        phrases = {tuple(name.split()) for name in said if name} | dish_partials(
            [d.name for d in r.dishes], reserved
        )
        # A name's last word in the other number ("two cheeseburgers", "a churro"), and a single
        # word's ("two lasagnas"); not a middle word's ("ahi tunas").
        endings = {tuple(name.split()[-n:]) for name in said for n in range(1, len(name.split()) + 1)}
        for phrase in [phrase for phrase in phrases if len(phrase) == 1 or phrase in endings]:
            other_number = _other_number(phrase[-1])
            if other_number is not None and other_number not in reserved:
                form = written[phrase[-1]]
                written.setdefault(
                    other_number, form + "s" if len(other_number) > len(phrase[-1]) else form[:-1]
                )
                phrases.add((*phrase[:-1], other_number))
        every |= phrases
        own_choices = [" ".join(w for w, _ in spoken_words(c)) for d in r.dishes for c in d.choices]
        choice = f"[<choice{index}>]" if own_choices else ""
        after = f" [with <choice{index}> [and <choice{index}>]]" if own_choices else ""
        branches.append(f"<order{index}>")
        rules += [
            f"<order{index}> = <item{index}> (and <item{index}>)* (from | at) [the] {restaurants[index]};",
            f"<item{index}> = <count> {choice} <dish{index}>{after};",
            f"<dish{index}> = {_alternatives([' '.join(phrase) for phrase in phrases])};",
        ]
        if own_choices:
            rules.append(f"<choice{index}> = {_alternatives(own_choices)};")
    other = [word + OTHER_MARK for word in other_words if re.fullmatch(r"[a-z']+", word)][:other_count]
    hours = _alternatives(NUMBERS[1:13])
    lines = [
        "#JSGF V1.0;",
        "grammar order;",
        "public <goal> = [<lead>] (<items> [(from | at) [the] <restaurant>] | <by_restaurant>) (<detail>)*"
        " [[and] <closing>] | <answer> | <other>;",
        f"<by_restaurant> = {_alternatives(branches)};",
        *rules,
        f"<lead> = {_alternatives(LEADS)};",
        "<items> = <item> ([and] <item>)*;",
        "<item> = <count> [<choice>] <dish> [with <choice> [and <choice>]];",
        f"<count> = {_alternatives(COUNTS)};",
        f"<dish> = {_alternatives(full)};",
        f"<choice> = {_alternatives(choices)};",
        f"<restaurant> = {_alternatives(restaurants)};",
        "<detail> = [and] (<pay> | <when> | <budget>);",
        f"<pay> = {_alternatives(PAYMENTS)};",
        f"<closing> = {_alternatives(CLOSINGS)};",
        "<when> = [deliver] at <time> | as soon as possible;",
        f"<time> = {hours} ([fifteen | thirty | forty five] pm | o'clock);",
        f"<budget> = under ({_alternatives(list(TENS))} [{_alternatives(NUMBERS[1:10])}]"
        f" | {_alternatives(NUMBERS[10:20])}) dollars;",
        f"<answer> = {_alternatives(ANSWERS)} | <restaurant> | <choice> | <pay>;",
    ]
    if other:
        # Right recursion: each further word costs OTHER_WORD_WEIGHT, so a real order, whose
        # words the loop can only approximate with many short words, stays in the ordering branch.
        lines += [
            "<other> = <common> <more>;",
            f"<more> = /1/ <NULL> | /{OTHER_WORD_WEIGHT}/ <common> <more>;",
            f"<common> = {_alternatives(other)};",
        ]
    else:
        lines.append("<other> = <VOID>;")
    return OrderGrammar(
        jsgf="\n".join(lines) + "\n",
        written=written,
        names=names,
        other=tuple(other),
        menus={
            r.name: [(_stems([w for w, _ in spoken_words(d.name)]), _as_ordered(d.name)) for d in r.dishes]
            for r in vocabulary.restaurants
        },
        restaurants={
            tuple(spoken.split()): r.name
            for spoken, r in zip(restaurants, vocabulary.restaurants, strict=True)
        },
        choices=frozenset(tuple(choice.split()) for choice in choices if choice),
        dishes=frozenset(_stems(phrase) for phrase in every),
    )
