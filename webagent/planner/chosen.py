"""Whether the choices of a reading's lines are the ones written at their dishes: each choice a line has is
written at its dish (or after a correction that follows it), and no choice written there is left out of
every line ("chicken tikka masala medium hot" read as Medium).

Checks of webagent/planner/accounts.py, and of the rules' own reading (`unwritten_choices`, used by
webagent/planner/reading.py `unborne`). Pure: no browser code.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import replace

from webagent.planner.doubts import NOT_WANTED
from webagent.planner.mentions import (
    CORRECTION,
    SENTENCE,
    asked_mentions,
    correction_after,
    mention_end,
    mentions_of,
    negated,
    others_after,
    own_words,
    said_after,
    segment_of,
    whole_at,
    within_a_name,
    written_at,
    written_whole,
)
from webagent.planner.menu import Dish, Menu, Option
from webagent.planner.spec import Reading, Want
from webagent.planner.words import beyond_the_menu, key

__all__ = [
    "KIND_WORDS",
    "added_on",
    "choice_not_written",
    "names_its_choice",
    "unused_choice",
    "unwritten_choices",
]


def choice_not_written(want: Want, words: str, menu: Menu, split: bool) -> str | None:
    """Why a line's choices are not the ones written at its dish (or after a correction that follows it; for
    a dish split into lines, anywhere in what the words say about it), or None."""
    dish = menu.dish(want.dish)
    if dish is None:
        return None
    asked = asked_mentions(want.dish, words, menu) or mentions_of(want.dish, words, menu)
    choices = {c for d in menu.dishes for c in d.choices}  # "(bacon, extra cheese)" of another dish: no
    asked = [at for at in asked if not _a_choice_at(at, want.dish, words, choices)] or asked  # mention
    nearby = (
        " ".join(own_words(want.dish, words, menu, at) for at in asked)
        + " "
        + correction_after(want.dish, words, menu)
    )
    nearby += " " + segment_of(want.dish, words, menu)  # "one pad thai each for the four of us, all medium"
    if asked:  # up to the next dish: "… burger, medium rare, with bacon and extra cheese, plus onion rings"
        own = {at for c in dish.choices for at in written_whole(c, words)}  # "… pints vanilla and chocolate"
        end = _end_of_its_words(want.dish, words, menu, asked[-1], own, sentence=not split)
        nearby += " " + words[asked[0] if split else asked[-1] : end]
    for choice in want.choices:
        if choice not in dish.choices:
            return f'"{want.dish}" has no choice "{choice}"'
        places = written_at(choice, nearby, dish.choices)  # "rice" alone writes no "Brown rice"
        if len(choice.split()) > 1:
            places = [at for at in places if whole_at(choice, nearby, at)]  # nor "extra large" "Extra cheese"
        places = [at for at in places if not within_a_name(choice, nearby, at, dish.choices)]  # "medium rare"
        option = dish.option_of(choice)
        if (
            not places
            and option is not None
            and _said_after_correction(choice, option, _up_to_next(want.dish, words, menu))
        ):
            continue  # "white rice... nah, brown"
        if not places:  # writes no "Medium"
            return f'the choice "{choice}" is not written at "{want.dish}"'
        plain = [at for at in places if beyond_the_menu(nearby, at, mention_end(choice, nearby, at)) is None]
        if not plain:  # "extra hot", "medium well"
            return f'the choice "{choice}" of "{want.dish}" is written as one the menu does not offer'
        if all(negated(nearby, at) for at in plain):
            return f'the words take the choice "{choice}" of "{want.dish}" out'
        if (every := written_at(choice, words, dish.choices)) and all(_unwanted(words, at) for at in every):
            return f'the words do not want the choice "{choice}" of "{want.dish}"'  # "no need to add bacon"
    return None


def _end_of_its_words(
    dish: str, words: str, menu: Menu, at: int, skip: Collection[int] = (), sentence: bool = True
) -> int:
    """Where the words about the mention of ``dish`` at ``at`` end: where the next dish is named (not at
    ``skip``: the dish's own choices that would name one), or (``sentence``) where its sentence ends — "… a
    coffee. just a small thing" is no choice of the coffee."""
    ends = [o for o in others_after(dish, words, menu) if o > at and o not in skip]
    if sentence and (found := SENTENCE.search(words, at)):
        ends.append(found.start())
    return min(ends, default=len(words))


def _a_choice_at(at: int, dish: str, words: str, choices: set[str]) -> bool:
    """Whether the mention of ``dish`` at ``at`` is a choice of the menu written whole, not the dish's name."""
    return not whole_at(dish, words, at) and any(whole_at(c, words, at) for c in choices)


def unwritten_choices(words: str, model: Reading, menu: Menu) -> str | None:
    """Why the rules' reading ``model`` has a choice written elsewhere than at its dish (`choice_not_written`:
    "caesar salad with extra cheese and a margherita pizza large"), or leaves out one written there ("chicken
    tikka masala medium hot" read as Medium), for each line, or None. A choice no word of which is written is
    the rules' own reading of other words ("extra spicy" is Hot): theirs."""
    for want in model.items:
        lines = [w for w in model.items if w.dish == want.dish]
        dish = menu.dish(want.dish)
        others = dish.choices if dish else []
        written = replace(want, choices=tuple(c for c in want.choices if written_at(c, words, others)))
        if why := choice_not_written(written, words, menu, split=len(lines) > 1):
            return why
        if unused := unused_choice(want.dish, model, words, menu):
            return f'the words choose "{unused}" for "{want.dish}", which it does not read'
        if dish is not None and (partly := _partly_written(want, dish, words, menu)):
            return f'the words may choose "{partly}" for "{want.dish}", which it does not read'
    return None


def _partly_written(want: Want, dish: Dish, words: str, menu: Menu) -> str | None:
    """A choice of a kind the line has none of, a word of which is written right after the dish, in its
    sentence and before the next dish ("steak frites, cooked well": Well done?), not in a dish's name."""
    asked = asked_mentions(want.dish, words, menu)
    if not asked:
        return None
    start = mention_end(want.dish, words, asked[-1])
    end = _end_of_its_words(want.dish, words, menu, asked[-1])
    for option in dish.options:
        if any(c in want.choices for c in option.choices):
            continue
        for choice in (c for c in option.choices if len(c.split()) > 1):
            wholes = [(at, at + len(choice)) for at in written_whole(choice, words)]  # negated, or read
            if any(
                not any(a <= at < b for a, b in wholes)
                and start <= at < end
                and not whole_at(choice, words, at)
                for at in written_at(choice, words, dish.choices)
            ):
                return choice
    return None


def unused_choice(name: str, model: Reading, words: str, menu: Menu) -> str | None:
    """A choice written by its name at the dish, not negated, that no line of the reading has, unless a later
    one of its kind does ("small.. scratch that, medium")."""
    dish = menu.dish(name)
    if dish is None:
        return None
    used = {c for want in model.items if want.dish == name for c in want.choices}
    asked = asked_mentions(name, words, menu)
    nearby = (
        " ".join(own_words(name, words, menu, at) for at in asked[-1:]) + " " + segment_of(name, words, menu)
    )
    nearby += " " + correction_after(name, words, menu)  # last: what a correction says comes after the rest
    # and then whatever follows the dish: "a chicken burrito hot. mild pls" — a later choice of its kind
    nearby += " " + said_after(name, words, menu)
    longer = [(a, a + len(o), o) for o in dish.choices if " " in o for a in written_whole(o, nearby)]
    for choice in dish.choices:  # "medium rare" is not "Medium" (but "white rice" is "White rice")
        places = [
            at
            for at in written_whole(choice, nearby)
            if not any(s <= at < e for s, e, o in longer if o != choice)
        ]
        if choice in used or not places or all(negated(nearby, at) for at in places):
            continue
        if all(negated(words, at) for at in written_whole(choice, words)):
            continue  # "…, no extra cheese" (a piece of ``nearby`` may start at the choice)
        option = dish.option_of(choice)
        rivals = [c for c in used if option is not None and c in option.choices]
        later = [at for c in rivals for at in written_whole(c, nearby)]
        if later and max(later) > max(places) and _corrected(choice, rivals, words):
            continue  # "small.. scratch that, medium"; not "one regular one large"
        if option and any(_said_after_correction(c, option, _up_to_next(name, words, menu)) for c in rivals):
            continue  # "white rice... nah, brown"
        return choice
    return _named_after_correction(dish.options, used, _up_to_next(name, words, menu))


def _up_to_next(dish: str, words: str, menu: Menu) -> str:
    """The words from the last mention of ``dish`` that asks for it up to the next dish named."""
    asked = asked_mentions(dish, words, menu)
    if not asked:
        return ""
    nxt = [at for at in others_after(dish, words, menu) if at > asked[-1]]
    return words[asked[-1] : min(nxt, default=len(words))]


def _named_after_correction(options: Sequence[Option], used: set[str], nearby: str) -> str | None:
    """A choice named by the one word that tells it from the others of its kind, right after a correction,
    that the reading does not have ("tofu poke bowl, white rice... nah, brown" read with White rice)."""
    for option in options:
        for choice in option.choices:
            if (
                choice not in used
                and used & set(option.choices)
                and _said_after_correction(choice, option, nearby)
            ):
                return choice
    return None


def _said_after_correction(choice: str, option: Option, nearby: str) -> bool:
    """Whether ``choice`` is named right after a correction by the word that tells it from the others of its
    kind ("… nah, brown", "actually no, on brown", "make that brown" of Brown rice, beside White rice) — not
    after a bare "no" ("…, no brown": the choice taken out)."""
    own = {key(w) for w in choice.split()} - {
        key(w) for other in option.choices if other != choice for w in other.split()
    }
    for found in [*CORRECTION.finditer(nearby), *MAKE_THAT.finditer(nearby)] if own else ():
        if re.fullmatch(r"no|nope|nah", found.group(0), re.I) and not re.match(
            r"\s*[,.;:!—–…-]", nearby[found.end() :]
        ):
            continue  # "no brown", "no white rice": a negation, not a correction
        said = re.match(AFTER_A_CORRECTION, nearby[found.end() :], re.I)
        if said and key(said.group(1)) in own and len(said.group(1)) > 2:
            return True
    return False


MAKE_THAT = re.compile(r"\bmake (?:it|that)\b", re.I)
AFTER_A_CORRECTION = r"[\s,.;:!—–…-]*(?:(?:to|on|with|in|into|for|make it|make that|the|a)\s+)*([\w']+)"
"""What may stand between a correction and the choice's own word ("…, actually no, on brown")."""


def _corrected(choice: str, rivals: Sequence[str], words: str) -> bool:
    """Whether a correction stands between the last place ``choice`` is written and a rival written after it."""
    places = written_whole(choice, words)
    later = [at for c in rivals for at in written_whole(c, words)]
    return bool(places and later) and any(
        CORRECTION.search(words[p : max(later)]) for p in places[-1:] if max(later) > p
    )


KIND_WORDS = frozenset(
    {"heat", "base", "flavour", "flavor", "doneness", "spice", "spiciness", "level", "size"}
)
"""Words that name the kind of a choice written right before them: "medium heat", "brown rice base"."""


def names_its_choice(text: str, start: int, dish: str, words: str, menu: Menu) -> bool:
    """Whether words the rules could not place, at ``start`` and tied to ``dish``, only name the kind of a choice
    of it written right before them ("pad thai, medium heat", "brown rice base") or add one written right after
    ("large margherita, add bacon"), with nothing said after it in its clause but the next dish: no choice the
    dish lacks. "strawberry flavour" of a milkshake, "shoyu base", "add chicken", "add bacon (only one)", "add
    bacon?", "medium heat is too much for me" are still (two reviewers)."""
    found = menu.dish(dish)
    said = " ".join(text.lower().split())
    if found is None:
        return False
    if said in KIND_WORDS:
        before = words[:start].rstrip()
        chosen = any(re.search(rf"(?<![\w'])(?:{re.escape(c)})$", before, re.I) for c in found.choices)
        return chosen and _nothing_more(words, start + len(text), menu)
    if said == "add":
        after = words[start + len(text) :]
        for choice in found.choices:
            written = re.match(rf"\s*{re.escape(choice)}\b", after, re.I)
            if written:
                return _nothing_more(words, start + len(text) + written.end(), menu)
    return False


def _nothing_more(words: str, at: int, menu: Menu) -> bool:
    """Whether nothing is said from ``at`` to the end of its clause but a courtesy, and the next clause names a
    dish or there is none (not "…, add bacon, 1 without", "…, mild heat, one more": a third reviewer)."""
    rest = re.split(r"[.;!\n]|,|\s[—–-]\s", words[at:], maxsplit=1)
    clause = rest[0] if rest else ""
    if "?" in clause or (len(rest) > 1 and re.match(r"\s*\?", rest[1])):
        return False
    left = re.sub(r"\b(?:and|plus|please|pls|plz|thanks|thx|too)\b", " ", clause, flags=re.I)
    if not left.strip(" \t,&+"):
        nxt = rest[1] if len(rest) > 1 else ""
        head = re.sub(r"^\s*(?:and|plus|&|\+)?\s*(?:a|an|one|\d+|also)?\s*", "", nxt, flags=re.I)
        named = any(mentions_of(n, re.split(r"[,;.!?\n]", nxt)[0], menu) for n in menu.names)
        return not nxt.strip() or any(re.match(re.escape(n), head, re.I) for n in menu.names) or named
    return False


ADDED_ON = re.compile(r"(?:\badd(?:ed)?|\bwith|\bw/|\bextra|\btopped with)\s+(?:some\s+|a bit of\s+)?$", re.I)
"""Right before a word, what puts it on a dish named before: "pad thai, medium, add chicken"."""


def added_on(words: str, model: Reading, menu: Menu) -> str | None:
    """Why a line whose dish is named only by a part of its name right after "add"/"with" that follows another
    dish in its sentence ("pad thai, medium, add chicken" as Chicken Satay; "a buddha bowl, add sweet potato")
    cannot be borne out — the words may put that on the other dish, which no choice of the menu says — or
    None. Nor one named by a part of its name before "base", "flavour", "heat", "sauce" ("sweet potato base",
    "mango heat"). Named whole ("…, add onion rings") it is a dish."""
    for want in model.items:
        asked = asked_mentions(want.dish, words, menu)
        if asked and all(_added_at(want.dish, words, menu, at) for at in asked):
            return f'the words may put "{words[asked[0] : mention_end(want.dish, words, asked[0])]}" on another dish'
    return None


def _added_at(dish: str, words: str, menu: Menu, at: int) -> bool:
    if whole_at(dish, words, at):
        return False
    if re.match(
        r"\s+(?:base|flavou?r(?:ed)?|heat|sauce|style|topping)\b", words[mention_end(dish, words, at) :], re.I
    ):
        return True  # "a buddha bowl, sweet potato base", "a milkshake, strawberry flavour": a kind, no dish
    if not ADDED_ON.search(words[max(0, at - 24) : at]):
        return False
    begin = max((m.end() for m in SENTENCE.finditer(words, 0, at)), default=0)
    return any(
        begin <= o < at for other in menu.names if other != dish for o in mentions_of(other, words, menu)
    )


def _unwanted(words: str, at: int) -> bool:
    """Whether the clause the choice at ``at`` stands in says it is not wanted ("no need to add bacon", "my wife
    says add bacon, I say no", "brown rice base gives me a stomach ache": `NOT_WANTED`)."""
    start = max((m.end() for m in re.finditer(r"[,;.!?\n]", words[:at])), default=0)
    end = next((m.start() + at for m in re.finditer(r"[,;.!?\n]", words[at:])), len(words))
    return bool(NOT_WANTED.search(words[start:end]))
