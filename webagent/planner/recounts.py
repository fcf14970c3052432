"""How many of a dish the words write: `written_count`, the count at it (after a correction that follows it,
else at its last mention, else one); `recounted`, words after naming it that change how many where no count
can be read from them — a number after a correction that is no count ("…, sorry, up to 4"), a number after the dish named again ("…, bump the tacos up
to 4", "…, tacos at 4 pls"), a multiplier ("that times two", "make it 2 orders"). A second reviewer's
readings of such words as the count before them were agreed; `recounted` is one of the checks of
webagent/planner/accounts.py.

Pure: no browser code.
"""

from __future__ import annotations

import re

from webagent.planner.mentions import (
    around,
    asked_mentions,
    correction_after,
    counts_in,
    elsewhere,
    mention_end,
    mentions_of,
    numbers_in,
    said_after,
    segment_of,
)
from webagent.planner.menu import Menu
from webagent.planner.words import closeness, key, tokenize

__all__ = ["TIMES", "own_counts", "recounted", "written_count"]


AFTER_A_COUNT = frozenset(
    [
        "of",
        "more",
        "then",
        "total",
        "instead",
        "please",
        "pls",
        "plz",
        "and",
        "for",
        "times",
        "portions",
        "orders",
        "servings",
        "each",
        "only",
        "max",
        "tho",
        "though",
        "pieces",
        "pcs",
        "x",
        "is",
        "are",
        "will",
        "would",
        "should",
    ]
)


def own_counts(text: str, dish: str, menu: Menu, counted: bool = True) -> list[tuple[int, int]]:
    """`counts_in` (``counted``; else `numbers_in`) ``text``, but only those that may count ``dish``: not one
    that counts something else by name ("… a frappé. Sorry, long day, 3 meetings back to back")."""
    own = {key(w) for w in re.findall(r"[\w']+", dish)} | AFTER_A_COUNT
    own |= {key(w) for d in menu.dishes for c in d.choices for w in c.split()}
    found = counts_in(text) if counted else numbers_in(text)
    return [
        (at, n)
        for at, n in found
        if not (nxt := re.match(r"[\w.]*\s+([a-z]{3,})", text[at:], re.I)) or key(nxt.group(1)) in own
    ]


def written_count(dish: str, words: str, menu: Menu) -> int | None:
    """The count written at ``dish``: after a correction that follows it, else by its last asking mention
    (before the name, else after it: "3 × …", "… x2"), else one."""
    corrected = own_counts(correction_after(dish, words, menu), dish, menu)
    if corrected:  # the first count after it: a later one counts the next dish ("… make that one, and 2 …")
        return corrected[0][1]
    asked = asked_mentions(dish, words, menu) or mentions_of(dish, words, menu)
    if not asked:
        return 1
    if len(asked) > 1 and (lines := [_on_a_line(dish, words, at) for at in asked]) and None not in lines:
        return sum(n for n in lines if n is not None)  # "Barley Tea\nBarley Tea": a line each, so 2
    before, after = around(dish, words, menu, asked[-1])
    before = ENUMERATED.sub("", before)  # "2) regular meat lovers": the second line, not 2
    after = LABEL_AFTER.sub(" ", after)  # "1) doro wat (mild) 2) beef tibs": the next line's number, not 2
    if re.search(r"(?:^|\n)[ \t]*no\.[ \t]*\d{1,2}[ \t]+$", words[: asked[-1]], re.I):
        before = ""  # "No. 2 horchata" (its full stop ends the words `around` reads)
    times = re.match(r"\s*(?:x\s?(\d+)|(\d+)\s?x)\b", after, re.I)
    if times and not _not_articles(before):
        return int(times.group(1) or times.group(2))  # "a croque monsieur x2": 2
    dashed = re.match(r"\s*[-–—:=]\s*(\d{1,2})\s*(?=[,;\n]|$)", words[mention_end(dish, words, asked[-1]) :])
    if dashed and not _not_articles(before):
        return int(dashed.group(1))  # "patatas bravas - 2, gambas al ajillo - 1"
    counts = [v for _, v in counts_in(before)][-1:] or [v for _, v in counts_in(after)][:1]
    if counts:
        return counts[0]
    # No count at the dish: one — unless the words go on to count it ("chicken pho for my husband and both
    # kids"), which no count at the dish bears out, or write it in the plural ("horchatas for the table").
    carried = _carried(dish, words, menu, asked[-1])
    if carried is not None:
        return carried  # "2 large fries. make the fries onion rings": 2 onion rings
    segment = segment_of(dish, words, menu, asked[-1])  # not "… paying with a voucher"
    said = segment[mention_end(dish, words, asked[-1]) - asked[-1] :]  # not the Four of "four cheese pizza"
    return None if _not_articles(said) or _plural(dish, words, asked[-1]) else 1


SWAPPED_IN = re.compile(
    r"\b(?:make|turn|change|switch|swap|replace|sub)\s+(?:the|my|those|these)\s+(?P<other>[\w' ]{2,40}?)\s+"
    r"(?:for\s+|with\s+|to\s+|into\s+)?(?:some\s+)?$",
    re.I,
)
"""Words right before a dish swapped in for one named there: "make the fries ", "swap the horchatas for "."""


def _carried(dish: str, words: str, menu: Menu, at: int) -> int | None:
    """The count of the dish a swap right before the mention at ``at`` replaces, where the words count it
    more than once: "2 large fries. make the fries onion rings" (a reading of one onion rings was agreed)."""
    found = SWAPPED_IN.search(words[max(0, at - 60) : at])
    if found is None:
        return None
    other = found.group("other")
    for name in menu.names:
        if name != dish and mentions_of(name, other, menu):
            count = written_count(name, words[: max(0, at - 60) + found.start()], menu)
            return count if count is not None and count > 1 else None
    return None


LABEL_AFTER = re.compile(r"(?:^|(?<=\s))\(?\d{1,2}[.)>](?=\s)")
"""After a dish, the next line's number of a list written on one line: "… (mild) 2) beef tibs"."""
ENUMERATED = re.compile(r"^\s*(?:[-*•·]\s*)?(?:\(?\d{1,2}[.)>]|#\s?\d{1,2}|no\.?\s*\d{1,2})\s+", re.I)
"""A list's number before a line: "1) ", "2. ", "(3) ", "#2 ", "No. 2 ", "2> "."""


def _on_a_line(dish: str, words: str, at: int) -> int | None:
    """The count of the mention at ``at`` where it stands alone on a line of a list ("* Falafel Döner", "Fries
    x2"), else None."""
    start = words.rfind("\n", 0, at) + 1
    end = words.find("\n", at)
    line = words[start : len(words) if end < 0 else end]
    rest = line[: at - start] + " " + line[mention_end(dish, words, at) - start :]
    rest = ENUMERATED.sub("", rest)
    if re.fullmatch(r"\s*(?:[-*•·]\s*)?", rest):
        return 1
    counted = re.fullmatch(
        r"\s*(?:[-*•·]\s*)?(?:(\d{1,2})\s*[x×]?\s*|\s*(?:[x×]\s*|[-–—:=]\s*)(\d{1,2})\s*)", rest
    )
    return int(counted.group(1) or counted.group(2)) if counted else None


def _plural(dish: str, words: str, at: int) -> bool:
    """Whether the mention at ``at`` writes a dish whose name is singular in the plural: "horchatas" of
    Horchata — more than one, and no count says how many."""
    last = re.findall(r"[^\W\d_]+", dish.split(" (")[0].lower())[
        -1:
    ]  # "sangria" of "Sangria (non-alcoholic)"
    written = {w.lower() for w in re.findall(r"[^\W\d_]+", words[at : mention_end(dish, words, at)])}
    if not last or last[0].endswith("s"):
        return False
    return bool({last[0] + "s", last[0] + "es"} & written)


def _not_articles(text: str) -> list[int]:
    """The counts in ``text`` other than "a"/"an" ("… paying with a voucher" counts nothing)."""
    return [n for at, n in counts_in(text) if not re.match(r"an?\b", text[at:], re.I)]


TIMES = re.compile(
    r"\b(?:times\s*(?:two|three|four|2|3|4)|(?:two|three|four|\d+)\s*(?:times|orders|lots|rounds|sets)|double"
    r"|twice|thrice|triple)\b",
    re.I,
)
"""After a dish, words that multiply it rather than count it: "… and a horchata. that times two", "make it 2
orders", "add the tacos 2 times"."""


def recounted(dish: str, words: str, menu: Menu) -> str | None:
    """Words after ``dish`` that change how many of it, written in no way its count can be read from — a
    number after a correction that is no count ("…, sorry, up to 4"), a number after the dish named again
    ("…, bump the tacos up to 4", "…, tacos at 4 pls", "the tacos by 2 more"), a multiplier ("that times
    two", "make it 2 orders") — or None. A second reviewer's readings of such words as the count before them
    were agreed."""
    after = said_after(dish, words, menu)
    begin = mention_end(dish, words, mentions_of(dish, words, menu)[-1]) if after else 0
    corrected = correction_after(dish, words, menu)
    if (
        len(corrected.split()) <= 4
        and own_counts(corrected, dish, menu, counted=False)
        and not own_counts(corrected, dish, menu)
    ):
        return corrected.strip(" ,.-")  # not "no rush, anytime after 8 is fine"
    if (
        (found := TIMES.search(after))
        and not elsewhere(words, begin + found.start())
        and not re.search(
            r"\b(?:ring|knock|buzz|call|text|honk|beep)\b[^.,;]*$", after[: found.start()], re.I
        )
    ):  # not "ring the bell twice"
        return found.group(0)  # not "ive had ramen 3 times already"
    sentence = re.split(r"[.;!?\n]", after)[0]
    if len(asked_mentions(dish, words, menu)) > 1 and numbers_in(sentence) and not counts_in(sentence):
        return sentence.strip(" ,.-")  # the dish named again: "…, bump the tacos up to 4"
    named = [key(w) for w in re.findall(r"[\w']+", dish) if len(w) >= 3]
    for token in tokenize(after):
        if token.is_word and any((d := closeness(token.key, w)) is not None and d <= 1.5 for w in named):
            rest = after[token.end :]
            if numbers_in(re.split(r"[.;!?\n]", rest)[0]):
                return after[token.start :].strip(" ,.-")
    return None
