"""Making the cart equal the order, and checking it did.

The planner compares the lines ``view_cart`` narrated with the lines it wants (dish, quantity, choices)
and sends the changes that close the gap — add what is missing, correct a quantity, remove what nobody
asked for, a person's own clicks included — then ``view_cart`` again. Checkout starts only when the cart
the shop shows matches the order line for line. A change the shop will not make is not sent a third
time: the planner asks, when the shop says why, or stops without ordering.
"""

from __future__ import annotations

import re
from typing import Any

from webagent.narration.money import money
from webagent.planner import questions
from webagent.planner.decision import Decision
from webagent.planner.menu import Menu
from webagent.planner.plan import Line, Plan, ask, finish, line_key
from webagent.planner.transcript import CartLine, Step

__all__ = ["fill_cart", "is_failure", "reach_minimum"]

MAX_MINIMUM_QUESTIONS = 3


def fill_cart(d: Decision, menu: Menu, wanted: list[Line]) -> Plan | None:
    """The changes that make the cart hold exactly ``wanted``; None once ``view_cart`` showed it does."""
    cart = d.t.cart()
    if cart is None:
        return Plan("Checking the cart.", [("view_cart", {})])
    have: dict[tuple[str, frozenset[str]], CartLine] = {}
    strangers: list[CartLine] = []
    for seen in cart[0]:
        found = line_key(seen.name, menu)
        if found is None or found in have:
            strangers.append(seen)
        else:
            have[found] = seen
    calls: list[tuple[str, dict[str, Any]]] = []
    for line in wanted:
        there = have.pop(line.key, None)
        if there is None:
            calls.append(("add_to_cart", line.add_args()))
        elif there.quantity != line.quantity:
            calls.append(("change_quantity", {"item": there.name, "quantity": line.quantity}))
    for extra in [*have.values(), *strangers]:
        calls.append(("remove_from_cart", {"item": extra.name}))
    if not calls:
        return None
    for name, args in calls:
        # The same change again: once more after a failure, never after one the shop said it made.
        tries = [s for s in d.steps if s.name == name and s.args == args and s.result is not None]
        if tries and (len(tries) >= 2 or not is_failure(tries[-1].said) or "is sold out" in tries[-1].said):
            return trouble(d, tries[-1], menu)
    if any(name == "add_to_cart" for name, _ in calls) and d.t.open_restaurant() != menu.restaurant:
        calls.insert(0, ("open_restaurant", {"name": menu.restaurant}))
    described = "; ".join(describe(name, args) for name, args in calls)
    return Plan(f"{described}; then checking the cart.", [*calls, ("view_cart", {})])


def trouble(d: Decision, step: Step, menu: Menu) -> Plan:
    """The cart would not take a change: ask when the shop says why, else stop without ordering."""
    said = step.said
    dish = str(step.args.get("dish", ""))
    if "is sold out" in said:
        return d.ask_again(questions.sold_out(dish, menu.restaurant))
    required = re.search(r": (.+?) is required: choose one of (.+?)\.?$", said)
    if required:
        choices = [c.strip() for c in required.group(2).split(",")]
        return d.ask_again(questions.choose_option(required.group(1), dish, choices), choices)
    return finish("failed", f"Stopped without ordering: the cart would not match the order ({said})")


def reach_minimum(d: Decision, menu: Menu) -> Plan | None:
    """Ask what to add when the cart (as last seen) is below the restaurant's minimum order."""
    cart = d.t.cart()
    if cart is None or menu.minimum_cents is None or cart[1] is None or cart[1] >= menu.minimum_cents:
        return None
    if sum(1 for a in d.asked if a.question.endswith(questions.WHAT_TO_ADD)) >= MAX_MINIMUM_QUESTIONS:
        return finish(
            "failed", f"Stopped without ordering: the cart is still below {menu.restaurant}'s minimum."
        )
    gap = money(menu.minimum_cents - cart[1])
    return ask(questions.minimum(menu.restaurant, gap, money(menu.minimum_cents)))


def is_failure(said: str) -> bool:
    """A tool sentence saying the page did not end up as asked (the failure shapes of said.py)."""
    if said.startswith(("Refused:", "Did not", "Tried to", "No ", "Not ")) or " could not " in said:
        return True
    return said.startswith('"') and any(
        words in said for words in ("is sold out", "has no options", "matches several")
    )


def describe(name: str, args: dict[str, Any]) -> str:
    if name == "add_to_cart":
        return f"adding {Line(args['dish'], args['quantity'], tuple(args.get('options') or ()))}"
    if name == "change_quantity":
        return f"setting {args['item']} to {args['quantity']}"
    if name == "remove_from_cart":
        return f"removing {args['item']}, which was not asked for"
    return name.replace("_", " ")
