"""The planner's questions, and how it understands the person's answers.

Every question is written by one function here, from the facts it is about, so the same facts always
give the same words: the planner finds the answer to a question it asked earlier by asking for it again
in the same words (`Transcript.asked_after`). Questions about the goal quote the goal's own words and
offer the closest choices the page shows.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from webagent.narration.names import resolve
from webagent.planner.spec import Unclear
from webagent.planner.words import closeness, keys

__all__ = [
    "choose_dish",
    "choose_option",
    "each_asked",
    "how_many_each",
    "is_refusal",
    "is_skip",
    "is_yes",
    "or_list",
    "pick",
    "unknown_choice",
    "unknown_dish",
]

REFUSALS = {
    "no", "nope", "n", "cancel", "cancel it", "cancel the order", "stop", "abort", "quit", "never mind",
    "nevermind", "forget it", "dont", "do not", "no thanks", "no thank you", "dont order", "do not order",
}  # fmt: skip
YES = {"yes", "y", "yeah", "yep", "sure", "ok", "okay", "go ahead", "proceed", "yes please", "do it", "fine"}
SKIP = {"skip", "skip it", "none", "nothing", "neither", "drop it", "leave it out", "without", "no thanks"}


def plain(answer: str) -> str:
    """``"Yes, please!"`` → ``"yes please"``: lower case, no punctuation, no apostrophes."""
    return " ".join(word.replace("'", "") for word in re.findall(r"[\w']+", answer.casefold()))


def is_yes(answer: str) -> bool:
    text = plain(answer)
    return text in YES or text.startswith(("yes", "ok", "sure", "go ahead"))


def is_skip(answer: str) -> bool:
    """ "skip", "none", "leave it out": drop the one thing asked about, not the order."""
    text = plain(answer)
    return text in SKIP or text.startswith(("skip", "drop ", "leave it out", "remove ", "without"))


def is_refusal(answer: str) -> bool:
    """ "no", "cancel", "stop": order nothing."""
    text = plain(answer)
    return text in REFUSALS or bool(re.match(r"(no|cancel|stop|dont|do not)\b", text))


def pick(answer: str, choices: Sequence[str]) -> str | None:
    """The one choice an answer names — "large please" → "Large", "pizza planet" → "Pizza Planet" —
    or None when it names none of them, or several."""
    found = resolve(answer, choices).found
    if found:
        return found
    said = keys(answer)
    named = [
        choice
        for choice in choices
        if keys(choice)
        and all(any(closeness(word, shown) is not None for word in said) for shown in keys(choice))
    ]
    longest = max((len(keys(choice)) for choice in named), default=0)
    named = [choice for choice in named if len(keys(choice)) == longest]
    return named[0] if len(named) == 1 else None


def or_list(names: Sequence[str]) -> str:
    """``["A", "B", "C"]`` → ``"A, B or C"``."""
    names = list(names)
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def unknown_dish(restaurant: str, words: str, candidates: Sequence[str]) -> str:
    closest = f" The closest: {or_list(candidates)}." if candidates else ""
    return f'{restaurant} has nothing called "{words}".{closest} What should I order instead (or say skip)?'


def choose_dish(words: str, candidates: Sequence[str]) -> str:
    return f'Which dish did you mean by "{words}": {or_list(candidates)}?'


def unknown_choice(dish: str, words: str, choices: Sequence[str]) -> str:
    offered = f" It comes with {or_list(choices)}." if choices else " It has no choices."
    return f'{dish} has no choice "{words}".{offered} Which did you mean (or say skip)?'


def choose_option(option: str, dish: str, choices: Sequence[str]) -> str:
    return f"Which {option} for {dish}: {or_list(choices)}?"


def how_many_each(dish: str, words: str, why: str, choices: Sequence[str]) -> str:
    """For one dish given several of one choice without saying how many of which (`Unclear.split`)."""
    example = ", ".join(f"{n} {c}" for n, c in zip((2, 1), choices, strict=False))
    return f'How many {dish} of which, for "{words}" ({why})? Say it like "{example}" (or say skip).'


def each_asked(unclear: Unclear) -> str | None:
    """For words that give a dish several of one choice without saying how many of which (`Unclear.split`):
    the question the planner asks about them, word for word (the anchor rebuilds it); None for others."""
    if not unclear.split:
        return None
    return how_many_each(unclear.candidates[0], unclear.words.text, unclear.split, unclear.options)


def portions(dish: str, words: str, offered: Sequence[int], pieces: int) -> str:
    """ "4 samosas" of Samosa (2): how many portions, the counts offered with the pieces each makes."""
    said = or_list([f"{n} ({n * pieces} pieces)" for n in offered])
    return f'"{words}": {dish} comes {pieces} pieces to a portion. How many portions: {said}?'


def portions_asked(unclear: Unclear) -> tuple[str, str, list[int]] | None:
    """For words of the goal that may count a dish's pieces (`Unclear.pieces`): the question the planner
    asks about them, word for word, the dish and the counts it offers; None for other words. The anchor
    counts an answer only to this very question, rebuilt from the goal — never to one a model wrote."""
    if not unclear.pieces or not unclear.candidates:
        return None
    dish = unclear.candidates[0]
    offered = portions_offered(unclear.quantity, unclear.pieces)
    return portions(dish, unclear.words.text, offered, unclear.pieces), dish, offered


def portions_offered(count: int, pieces: int) -> list[int]:
    """The portions "``count``" could mean of a dish ``pieces`` a portion: as pieces (rounded up), or as
    portions."""
    return sorted({-(-count // pieces), count})


def portions_in(answer: str, offered: Sequence[int]) -> int | None:
    """The portions an answer to `portions` says, read strictly: the one count it ties to portions ("2
    portions", "3 orders", "4 (2 portions)"), else a count alone that it offered ("2", "the 4 please");
    None for anything else — a count of pieces or of the dish ("4 samosas", "8 pieces") is the question
    again, and so is a "not" ("not 4, 2") — asked again, never guessed."""
    text = answer.lower().strip()
    if re.search(r"\b(?:not|no|n't|nope|instead|rather|wrong|cancel|stop)\b|n't", text):
        return None
    tied = {
        int(n)
        for n in re.findall(r"\b(\d+)\s*(?:portions?|orders?|packs?|plates?|servings?|helpings?)\b", text)
    }
    if tied:
        return tied.pop() if len(tied) == 1 and min(tied) > 0 else None
    alone = re.fullmatch(r"(?:the\s+)?(\d+)(?:\s+(?:please|pls|thanks|thank you))?[.!]?", text)
    return int(alone.group(1)) if alone and int(alone.group(1)) in offered else None


def sold_out(dish: str, restaurant: str, choices: Sequence[str] = ()) -> str:
    written = f" ({', '.join(choices)})" if choices else ""
    return f"{dish}{written} is sold out at {restaurant}. What should I order instead (or say skip)?"


def which_restaurant(dishes: str, choices: Sequence[str], searched: str = "") -> str:
    """Which of the restaurants the shop's search found, saying only what it showed: a restaurant a search
    for "hawaiian" lists may have matched on a tag, not a dish (its menu is not read until it is opened).
    ``searched`` is the one search they came up in, where no restaurant came up in every search made."""
    if searched:
        return (
            f"The shop's search found no restaurant for all of {dishes}; for {searched} it found "
            f"{or_list(choices)}: which one should I order from?"
        )
    return f"The shop's search for {dishes} found {or_list(choices)}: which one should I order from?"


def no_restaurant(dishes: str) -> str:
    return f"The shop's search found no restaurant for {dishes}. Which restaurant should I order from?"


WHAT = "What would you like to order, and from which restaurant?"
WHAT_TO_ADD = "What should I add (or say cancel)?"
WHAT_FROM = "What would you like from "
"""Starts the question for a goal that names a restaurant but no dish; its answers are the dishes."""


def what_from(restaurant: str) -> str:
    return f"{WHAT_FROM}{restaurant}? Name the dishes (or say cancel)."


"""Ends every question about the minimum order; each answer adds dishes to the order."""
DETAILS = "To deliver the order I need your "


def minimum(restaurant: str, gap: str, least: str) -> str:
    return f"The cart at {restaurant} is {gap} short of the {least} minimum. {WHAT_TO_ADD}"


def below_minimum(restaurant: str) -> str:
    return f"The cart at {restaurant} is below its minimum order. {WHAT_TO_ADD}"


def details(missing: Sequence[str]) -> str:
    wanted = ", ".join(field.replace("_", " ") for field in missing)
    return f"{DETAILS}{wanted}. {'What are they?' if len(missing) > 1 else 'What is it?'}"


def promo_rejected(code: str, why: str) -> str:
    return (
        f"Promo code {code} was not accepted ({why}). Place the order without any promo code? "
        "(yes: order without the code, at the full price; no: do not order)"
    )


def over_budget(total: str, budget: str) -> str:
    return f"The total is {total}, over your budget of {budget}. Place the order anyway?"


YES_NO_STARTS = ("Promo code ", "The total is ")
"""Questions whose "no" means "don't order" rather than a refusal to answer."""
