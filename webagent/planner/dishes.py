"""The dishes to order: the goal read against the open restaurant's menu, and every question about
them asked and folded back in — words that matched nothing or several dishes, a choice the dish does
not offer, a required choice left out, a sold-out dish, what to add for the minimum."""

from __future__ import annotations

from webagent.narration.names import resolve
from webagent.planner import consult, questions
from webagent.planner.decision import Decision
from webagent.planner.goal import read_goal
from webagent.planner.menu import Menu
from webagent.planner.plan import Line, Plan
from webagent.planner.questions import is_skip
from webagent.planner.reading import propose, settled
from webagent.planner.spec import GoalReading, ItemReading, Unclear, Words
from webagent.planner.splits import read_each
from webagent.planner.words import keys

__all__ = ["each_in", "each_of", "lines_from", "not_the_order", "read_against", "said_dishes", "wanted"]


def read_against(d: Decision, menu: Menu) -> GoalReading:
    """The request read against ``menu`` (a structured order: its items matched to the menu)."""
    if d.order is None:
        return read_goal(d.words, d.restaurants, menu)
    reading = GoalReading(text="")
    for item in d.order.items:
        words = Words(0, 0, item.dish)
        found = resolve(item.dish, menu.names)
        dish = menu.dish(found.found) if found.found else None
        if dish is None:
            reading.unclear.append(Unclear(words, found.candidates, item.quantity))
            continue
        options = [resolve(option, dish.choices).found for option in item.options]
        for wrong in [written for written, got in zip(item.options, options, strict=True) if got is None]:
            reading.unclear.append(
                Unclear(Words(0, 0, wrong), list(dish.choices), item.quantity, dish=dish.name)
            )
        reading.items.append(ItemReading(dish.name, item.quantity, [o for o in options if o], words))
    return reading


def wanted(d: Decision, menu: Menu) -> list[Line] | Plan:
    """The lines the cart must hold, once every question about the dishes is answered.

    With a model reader (reading.py), a request the rules leave in doubt is read by both: an agreed reading
    is the order (its fallbacks taken where the menu shows a dish sold out); a disagreement is one question
    proposing the model's reading."""
    agreement = d.agreement(menu)
    if agreement is not None and agreement.verdict == "differ":
        question, choices = propose(agreement)
        return d.ask_again(question, choices)
    reading = settled(read_against(d, menu), agreement, menu)
    lines = [Line(i.dish, i.quantity, tuple(i.options)) for i in reading.items]
    aside = not_the_order(d, reading)
    for unclear in reading.unclear:
        if unclear.words.text in aside:
            continue
        resolved = settle(d, unclear, menu, lines)
        if isinstance(resolved, Plan):
            return resolved
        lines = resolved
    replaced: list[Line] = []
    for line in lines:
        dish = menu.dish(line.dish)
        if dish is None or not dish.sold_out:
            replaced.append(line)
            continue
        question = questions.sold_out(dish.name, menu.restaurant, line.options)
        answer = d.answer_to(question)
        instead = (
            None if answer is None else [] if is_skip(answer) else lines_from(answer, menu, line.quantity)
        )
        if instead is None:
            return d.ask_again(question)
        replaced += instead
    lines = replaced
    for index, line in enumerate(lines):
        dish = menu.dish(line.dish)
        for option in dish.options if dish else ():
            if option.required and option.choices and not set(line.options) & set(option.choices):
                question = questions.choose_option(option.name, line.dish, option.choices)
                answer = d.answer_to(question)
                choice = questions.pick(answer, option.choices) if answer else None
                if choice is None:
                    return d.ask_again(question, list(option.choices))
                lines[index] = line = Line(line.dish, line.quantity, (*line.options, choice))
    for asked in d.asked:  # "What should I add?" / "What would you like from …?" add dishes
        adds = asked.question.endswith(questions.WHAT_TO_ADD) or asked.question.startswith(
            questions.WHAT_FROM
        )
        if adds and asked.answer:
            extra = lines_from(asked.answer, menu, 1)
            if extra is None:
                return d.ask_again(asked.question)
            lines += extra
    merged: dict[tuple[str, frozenset[str]], Line] = {}
    for line in lines:
        known = merged.get(line.key)
        merged[line.key] = Line(line.dish, line.quantity + (known.quantity if known else 0), line.options)
    return list(merged.values())


def not_the_order(d: Decision, reading: GoalReading) -> set[str]:
    """Words that matched nothing (or no choice of the dish before them) which the local model judged not
    part of the order (consult.py): a name, a note, a pleasantry. They are not asked about; the summary names them. Without a consultant
    (the default) every such word is asked about."""
    words = list(dict.fromkeys(u.words.text for u in reading.unclear))
    if not words or d.order is not None:
        return set()
    food = d.consult(consult.WORDS, d.words, words, consult.WORD_LABELS)
    return set() if food is None else set(words) - set(food)


def said_dishes(d: Decision, menu: Menu) -> bool:
    """Whether the request (or an answer) named anything on the menu, or anything to ask about."""
    reading = read_against(d, menu)
    return bool(reading.items or reading.unclear) or any(
        a.question.startswith(questions.WHAT_FROM) and a.answer for a in d.asked
    )


def settle(d: Decision, unclear: Unclear, menu: Menu, lines: list[Line]) -> list[Line] | Plan:
    """Ask about words that matched nothing (or several things) and fold the answer into ``lines``."""
    words = unclear.words.text
    if unclear.dish is not None:  # a choice the dish does not offer: "a large Tiramisu"
        dish = menu.dish(unclear.dish)
        choices = list(dish.choices) if dish else []
        question = questions.unknown_choice(unclear.dish, words, choices)
        answer = d.answer_to(question)
        if answer is not None and is_skip(answer):
            return lines
        choice = questions.pick(answer, choices) if answer else None
        if choice is None:
            return d.ask_again(question, choices or None)
        return [
            Line(line.dish, line.quantity, (*line.options, choice)) if line.dish == unclear.dish else line
            for line in lines
        ]
    if unclear.split:  # "3 pad thai, 1 mild 1 hot": how many of which is the person's to say
        return each_of(d, unclear, menu, lines)
    if (asking := questions.portions_asked(unclear)) is not None:  # "4 samosas" of Samosa (2): 2 or 4?
        question, dish_name, offered = asking
        answer = d.answer_to(question)
        if answer is not None and is_skip(answer):
            return lines
        count = questions.portions_in(answer, offered) if answer else None
        if count is None:
            return d.ask_again(question, [str(n) for n in offered])
        return [*lines, Line(dish_name, count, tuple(unclear.options))]
    several = len(unclear.candidates) > 1 and all(
        set(keys(words)) & set(keys(candidate)) for candidate in unclear.candidates
    )
    if several:
        question = questions.choose_dish(words, unclear.candidates)
    else:
        question = questions.unknown_dish(menu.restaurant, words, unclear.candidates)
    answer = d.answer_to(question)
    if answer is not None and is_skip(answer):
        return lines
    instead = lines_from(answer, menu, unclear.quantity, unclear.options) if answer else None
    if instead is None:
        return d.ask_again(question, unclear.candidates or None)
    return [*lines, *instead]


def each_of(d: Decision, unclear: Unclear, menu: Menu, lines: list[Line]) -> list[Line] | Plan:
    """Ask how many of which choice, for a dish the words give several of one choice without saying
    (splits.py); the answer must say a count at each choice, and nothing else."""
    question = questions.each_asked(unclear) or ""
    answer = d.answer_to(question)
    if answer is not None and is_skip(answer):
        return lines
    each = each_in(answer, unclear, menu) if answer else None
    return d.ask_again(question) if each is None else [*lines, *each]


def each_in(answer: str, unclear: Unclear, menu: Menu) -> list[Line] | None:
    """The lines an answer to `questions.each_asked` about ``unclear`` gives (`splits.read_each`)."""
    dish = menu.dish(unclear.candidates[0]) if unclear.candidates else None
    option = dish.option_of(unclear.options[0]) if dish and unclear.options else None
    each = read_each(answer, dish, option.name) if dish and option else None
    return None if each is None or dish is None else [Line(dish.name, n, choices) for n, choices in each]


def lines_from(answer: str, menu: Menu, quantity: int, options: list[str] | None = None) -> list[Line] | None:
    """The dishes an answer names ("a margherita and a pepperoni"), or None when it names none.

    A lone dish named without a number gets ``quantity`` and the ``options`` the goal gave around the
    words it replaces ("2 pizzas (large)" answered "margherita" → 2 × Margherita Pizza (Large)).
    """
    reading = read_goal(answer, (), menu)
    if reading.items and not reading.unclear:
        if len(reading.items) == 1 and reading.items[0].quantity == 1:
            item = reading.items[0]
            dish = menu.dish(item.dish)
            kept = [o for o in options or [] if dish and o in dish.choices and o not in item.options]
            return [Line(item.dish, quantity, (*item.options, *kept))]
        return [Line(i.dish, i.quantity, tuple(i.options)) for i in reading.items]
    found = questions.pick(answer, menu.names)
    return [Line(found, quantity)] if found else None
