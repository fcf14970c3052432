"""One dish in several of its choices: "2 Margherita Pizza, one Large and one Regular".

A dish takes one choice of each option it requires (a radio group: one size, one spice level), so a line
the rules read with two or more choices of one such option is not one line but several. The count of each
is written before its choice ("2 mild, 1 hot", "a large and a regular", "(1 small, 1 large)"), or nowhere,
when there are as many choices as dishes ("3 green smoothies — small, medium and large"). Of an option
a dish does not require (check boxes: "with extra cheese and bacon" is one burger with both), only choices
each counted split it ("two smash burgers, one medium rare one well done").

The split stands only when the counts add up to the dish's quantity (or the quantity was not written and
the counts give it); anything else — counts that do not add up, an "or" between the choices ("mild or
hot"), an optional extra that could be any of the lines' — is left for the person to say: never guessed.
Pure: tokens in, lines or a refusal out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from webagent.planner.menu import Dish
from webagent.planner.spec import ItemReading, Unclear, Words
from webagent.planner.words import NUMBER_WORDS, Token, keys, tokenize

__all__ = ["Split", "read_each", "split_choices", "split_item"]

ALTERNATIVES = {"or", "either", "and/or", "/"}
EACH_WORDS = {"and", "with", "plus", "please", "pls", "the", "of", "them", "those", "thanks", "ok", "okay"}
"""Words an answer to "how many of which" may hold beside its counts and choices."""
ONE = {"a", "an", "another"}


@dataclass(frozen=True)
class Split:
    """The lines one item becomes: (quantity, choices) each; or ``lines`` empty with ``why`` when the
    words do not say how many of which."""

    lines: tuple[tuple[int, tuple[str, ...]], ...] = ()
    why: str = ""
    option: str = ""
    """The option the choices are of ("Spice level")."""
    counts: tuple[int, ...] = ()
    """The tokens that counted the choices ("2" of "2 mild")."""


def split_choices(
    dish: Dish,
    quantity: int,
    quantity_written: bool,
    chosen: Sequence[tuple[str, int, int]],
    tokens: Sequence[Token],
) -> Split | None:
    """The lines of an item of ``dish`` read with ``chosen`` choices — (choice, first token, last token) —
    when two or more are of one required option; None when the item is one line as read. The count of a
    choice is the number (or "a") right before it."""
    groups: dict[str, list[tuple[str, int, int]]] = {}
    for name, first, last in chosen:
        if (of := dish.option_of(name)) is not None:
            groups.setdefault(of.name, []).append((name, first, last))
    split = [
        group
        for kind, group in groups.items()
        if len({name for name, _, _ in group}) > 1
        and (_required(dish, kind) or all(_count_before(tokens, first) for _, first, _ in group))
    ]
    if not split:
        return None
    if len(split) > 1:
        return Split(why="two options are each given more than once")
    option = next(name for name, group in groups.items() if group is split[0])
    mixed = sorted(split[0], key=lambda c: c[1])
    used = tuple(first - 1 for _, first, _ in mixed if _count_before(tokens, first) is not None)
    others = [name for name, _, _ in chosen if name not in {n for n, _, _ in mixed}]
    if any(not (o := dish.option_of(name)) or not o.required for name in others):  # "with bacon": which?
        return Split(why="an extra that could be any of the lines'", option=option, counts=used)
    between = tokens[mixed[0][1] : mixed[-1][2] + 1]
    if any(token.key in ALTERNATIVES or token.text == "/" for token in between):
        return Split(why="a choice between them", option=option, counts=used)
    if not quantity_written:  # "a green curry, one mild and one hot", "margherita and pepperoni, one large…"
        return Split(why="how many in all", option=option, counts=used)
    written = [_count_of(tokens, first, last) for _, first, last in mixed]
    counts = [count for count in written if count is not None]
    near = tokens[mixed[0][1] : min(len(tokens), mixed[-1][2] + 3)]
    if not counts and quantity == len(mixed) and not any(_is_count(t) for t in near):
        counts = [1] * len(mixed)  # "3 smoothies: small, medium and large": one of each
    if len(counts) != len(mixed):
        return Split(why="how many of each", option=option, counts=used)
    if sum(counts) != quantity:
        return Split(why=f"{sum(counts)} in all, not {quantity}", option=option, counts=used)
    lines: dict[str, int] = {}
    for (name, _, _), count in zip(mixed, counts, strict=True):
        lines[name] = lines.get(name, 0) + count
    rest = tuple(dict.fromkeys(others))
    return Split(lines=tuple((count, (name, *rest)) for name, count in lines.items()), counts=used)


def split_item(
    item: ItemReading,
    dish: Dish,
    quantity_written: bool,
    chosen: Sequence[tuple[str, int, int]],
    tokens: Sequence[Token],
    text: str,
) -> tuple[list[ItemReading], Unclear | None, tuple[int, ...]] | None:
    """`split_choices` for an item the rules read: the lines it becomes, or none and the words to ask about
    (the item's and its choices'); and the tokens that counted the choices. None: one line, as read."""
    split = split_choices(dish, item.quantity, quantity_written, chosen, tokens)
    if split is None:
        return None
    lines = [ItemReading(item.dish, n, list(c), item.words) for n, c in split.lines]
    if lines:
        return lines, None, split.counts
    start = min([item.words.start, *(tokens[first].start for _, first, _ in chosen)])
    end = max([item.words.end, *(tokens[last].end for _, _, last in chosen)])
    mixed = [name for name, _, _ in chosen if (o := dish.option_of(name)) and o.name == split.option]
    words = Words(start, end, text[start:end])
    unclear = Unclear(words, [item.dish], item.quantity, list(dict.fromkeys(mixed)), split=split.why)
    return [], unclear, split.counts


def _required(dish: Dish, option: str) -> bool:
    return any(o.required for o in dish.options if o.name == option)


def _count_before(tokens: Sequence[Token], first: int) -> int | None:
    if first == 0:
        return None
    before = tokens[first - 1]
    if before.is_number:
        return int(before.text) if 0 < int(before.text) <= 50 else None
    if before.key in NUMBER_WORDS:
        return NUMBER_WORDS[before.key]
    return 1 if before.key in ONE else None


def _count_after(tokens: Sequence[Token], last: int) -> int | None:
    """ "mild x2", "hot ×1", "mild x 2"."""
    after = [t.key for t in tokens[last + 1 : last + 3]]
    if after and (m := re.fullmatch(r"x(\d+)", after[0])):
        return int(m.group(1)) if 0 < int(m.group(1)) <= 50 else None
    if len(after) == 2 and after[0] == "x" and after[1].isdecimal():
        return int(after[1]) if 0 < int(after[1]) <= 50 else None
    return None


def _count_of(tokens: Sequence[Token], first: int, last: int) -> int | None:
    """The count written at a choice, before it or after it; None when none is, or both are."""
    before, after = _count_before(tokens, first), _count_after(tokens, last)
    return None if before is not None and after is not None else before if before is not None else after


def _is_count(token: Token) -> bool:
    return token.is_number or token.key in NUMBER_WORDS or re.fullmatch(r"x\d+", token.key) is not None


def read_each(answer: str, dish: Dish, option: str) -> tuple[tuple[int, tuple[str, ...]], ...] | None:
    """The lines an answer to "how many of which" gives (`questions.each_asked`): each choice of ``option``
    with its count ("2 mild, 1 hot", "one large with bacon and one regular"), an other choice belonging to the
    line before it; None when any word is none of those, a count is missing, or nothing is said — "all hot",
    "yes", "2 mild 1 hot, no wait 3 hot" are asked again, never read as a count."""
    tokens = tokenize(answer)
    found: list[tuple[str, int, int]] = []  # (choice, first, last), longest names first
    taken: set[int] = set()
    for choice in sorted(dish.choices, key=lambda c: -len(keys(c))):
        want = keys(choice)
        for i in range(len(tokens)):
            span = [j for j in range(i, len(tokens)) if tokens[j].is_word][: len(want)]
            if len(span) == len(want) and [tokens[j].key for j in span] == want and not taken & set(span):
                found.append((choice, span[0], span[-1]))
                taken |= set(range(span[0], span[-1] + 1))
    lines: list[tuple[int, list[str]]] = []
    for choice, first, last in sorted(found, key=lambda c: c[1]):
        of = dish.option_of(choice)
        if of is not None and of.name == option:
            count = _count_of(tokens, first, last)
            if count is None:
                return None
            lines.append((count, [choice]))
            if _count_before(tokens, first) is not None:
                taken.add(first - 1)
            else:  # "x2" or "x 2"
                taken |= {last + 1} if re.fullmatch(r"x\d+", tokens[last + 1].key) else {last + 1, last + 2}
        elif lines:
            lines[-1][1].append(choice)
        else:
            return None
    allowed = set(keys(dish.name)) | EACH_WORDS
    if not lines or any(t.is_word and i not in taken and t.key not in allowed for i, t in enumerate(tokens)):
        return None
    return tuple((count, tuple(choices)) for count, choices in lines)
