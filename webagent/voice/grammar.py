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

The recogniser speaks lower-case dictionary words ("lasagna al forno", "doner"); `OrderGrammar.shown`
maps them back to the names as the shop shows them ("Lasagna al Forno", "Döner"), counts to digits,
"seven thirty pm" to "7:30pm", so the goal reader gets an ordinary typed goal.

Pure: no browser, no recogniser.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

from webagent.voice.vocabulary import ShopVocabulary

__all__ = ["OTHER_MARK", "OrderGrammar", "number_words", "order_grammar", "spoken_words"]

NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
           "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")  # fmt: skip
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
        "ninety": 90}  # fmt: skip
COUNTS = ("a", "an", *NUMBERS[1:13])
LEADS = (
    "order", "please order", "i want", "i would like", "i'd like", "i'll have", "can i have", "can i get",
    "get me", "i want to order", "i would like to order", "i'd like to order", "could i get", "we want",
)  # fmt: skip
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
        longest = max(map(len, self.names), default=1)
        out: list[str] = []
        after_name = False
        i = 0
        while i < len(tokens):
            name = next(
                (
                    (size, self.names[tuple(tokens[i : i + size])])
                    for size in range(min(longest, len(tokens) - i), 0, -1)
                    if tuple(tokens[i : i + size]) in self.names
                ),
                None,
            )
            if name is not None:
                out.append(name[1])
                i += name[0]
                after_name = True
                continue
            word, used = _phrase_at(tokens, i)
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
        text = " ".join(out).replace(" ,", ",")
        return (text[:1].upper() + text[1:] + ".") if text else ""


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

    dishes = [say(dish.name, _as_ordered(dish.name)) for r in vocabulary.restaurants for dish in r.dishes]
    choices = [say(choice) for r in vocabulary.restaurants for dish in r.dishes for choice in dish.choices]
    restaurants = [say(r.name) for r in vocabulary.restaurants]
    fixed = (*LEADS, *PAYMENTS, *ANSWERS, "as soon as possible", "deliver at", "under dollars", "from the")
    for word in [*" ".join(fixed).split(), *COUNTS, *NUMBERS, *TENS, "pm", "o'clock", "and", "with"]:
        written.setdefault(word, word)
    other = [word + OTHER_MARK for word in other_words if re.fullmatch(r"[a-z']+", word)][:other_count]
    hours = _alternatives(NUMBERS[1:13])
    lines = [
        "#JSGF V1.0;",
        "grammar order;",
        "public <goal> = [<lead>] <items> [(from | at) [the] <restaurant>] (<detail>)* | <answer> | <other>;",
        f"<lead> = {_alternatives(LEADS)};",
        "<items> = <item> ([and] <item>)*;",
        "<item> = <count> [<choice>] <dish> [with <choice> [and <choice>]];",
        f"<count> = {_alternatives(COUNTS)};",
        f"<dish> = {_alternatives(dishes)};",
        f"<choice> = {_alternatives(choices)};",
        f"<restaurant> = {_alternatives(restaurants)};",
        "<detail> = [and] (<pay> | <when> | <budget>);",
        f"<pay> = {_alternatives(PAYMENTS)};",
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
    return OrderGrammar(jsgf="\n".join(lines) + "\n", written=written, names=names, other=tuple(other))
