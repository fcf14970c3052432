"""The planner at checkout: delivery details, the fill, a rejected promo code, the budget, placing.

Runs once the cart has been seen to match the order (policy.py). Details come from the goal first,
then the customer profile, then the person's answers. ``place_order`` goes in the same turn as the
fill unless something must be checked first: with a budget or a promo code, the total and the code's
fate are only known once the form is filled.
"""

from __future__ import annotations

import re
from typing import Any

from webagent.narration.money import money, parse_cents
from webagent.narration.said import NO_RESPONSE, read_filled, read_no_tip, read_not_found
from webagent.planner import questions
from webagent.planner.decision import Decision
from webagent.planner.details import ClaimedText, read_address, read_name, read_payment, read_phone
from webagent.planner.menu import Menu
from webagent.planner.plan import Plan, ask, finish
from webagent.planner.questions import is_yes

CHECKOUT_TRIES = 3
"""Attempts at reaching checkout when the page does not respond in time."""

__all__ = ["Checkout", "details_from"]

FIELDS = ("name", "address", "phone", "payment_method")
SLOT_QUESTION = "Which delivery time should I choose?"
PAYMENT_QUESTION = "Which payment method should I choose?"
TIP_QUESTION = "Which tip should I give?"


def details_from(answer: str, known: dict[str, Any]) -> dict[str, str]:
    """Delivery details in a free-text answer: labelled or shaped ones first, then comma-separated parts."""
    text = ClaimedText(answer)
    found: dict[str, str] = {}
    for name, reader in (
        ("phone", read_phone),
        ("address", read_address),
        ("payment_method", read_payment),  # before the name: "Cash, 555 0101, …" is no one's name
        ("name", read_name),
    ):
        detail = reader(text)
        if detail is not None:
            found[name] = str(detail.value)
    missing = [field for field in FIELDS if not known.get(field) and field not in found]
    rest = [
        part.strip(" .") for part in re.split(r"[;,\n]", text.masked.replace("\x00", " ")) if part.strip(" .")
    ]
    if "address" in missing and "address" not in found:
        # A part that begins with a house number and has words after it: "1 Rue de la Paix", "7 Unter den
        # Linden" (street types the address reader does not know).
        numbered = [part for part in rest if re.fullmatch(r"\d{1,6}[A-Za-z]?,?\s+[^\W\d_][^\d]*", part)]
        if len(numbered) == 1:
            found["address"] = numbered[0]
            rest.remove(numbered[0])
            missing.remove("address")
    if len(missing) == 1 and len(rest) == 1:
        found[missing[0]] = rest[0]
    elif "name" in missing and rest and re.fullmatch(r"[^\d]{1,80}", rest[0]):
        found["name"] = rest[0]
    return found


class Checkout:
    """The checkout part of one decision."""

    def __init__(self, decision: Decision, menu: Menu) -> None:
        self.d = decision
        self.menu = menu
        views = [s for s in decision.steps if s.name == "view_cart"]
        since = views[-1].position if views else -1
        self.after = [s for s in decision.steps if s.position > since]
        if decision.order is None:  # the details the goal states, "for Kim Lee" or "pay cash"
            goal = {name: detail.value for name, detail in decision.reading.details.items()}
        else:
            goal = decision.order.model_dump(exclude_none=True, exclude={"items", "restaurant"})
        self.goal = goal
        agreement = decision.agreement(menu)
        acted = agreement.reading if agreement is not None and agreement.verdict == "agreed" else None
        read = acted.budget_cents if acted is not None else None  # a budget in words the rules missed
        budgets = [b for b in (goal.get("budget_cents"), read, decision.budget_note) if isinstance(b, int)]
        self.budget = min(budgets) if budgets else None
        self.food_only = acted is not None and acted.budget_includes_fees is False and read == self.budget
        """"under $30 before fees": the budget holds the food, the cart's subtotal, not the total."""
        self.promo = goal.get("promo_code")

    def answers(self, start: str) -> list[tuple[int, str]]:
        return [
            (a.step.position, a.answer) for a in self.d.asked if a.question.startswith(start) and a.answer
        ]

    def latest(self, start: str) -> str | None:
        found = self.answers(start)
        return found[-1][1] if found else None

    def details(self) -> dict[str, Any]:
        details: dict[str, Any] = {field: self.d.profile.get(field) for field in FIELDS}
        details.update({field: self.goal[field] for field in FIELDS if self.goal.get(field)})
        for _, answer in self.answers(questions.DETAILS):
            details.update(details_from(answer, details))
        details["delivery_slot"] = self.latest(SLOT_QUESTION) or self.goal.get("delivery_slot") or "ASAP"
        if self.latest(PAYMENT_QUESTION):
            details["payment_method"] = self.latest(PAYMENT_QUESTION)
        if self.promo:
            # After "yes, order without it" the code is cleared ("" empties the field): the shop
            # refuses an order that still carries a rejected code.
            details["promo_code"] = "" if is_yes(self.latest("Promo code ") or "") else self.promo
        tip = self.latest(TIP_QUESTION)
        if tip:
            amount = re.search(r"\d+(?:\.\d\d)?", tip)
            details["tip_cents"] = (parse_cents(f"${amount.group(0)}") or 0) if amount else 0
        elif self.goal.get("tip_cents") is not None:
            details["tip_cents"] = self.goal["tip_cents"]
        return details

    def next(self) -> Plan:
        details = self.details()
        missing = [field for field in FIELDS if not details.get(field)]
        if missing:
            return ask(questions.details(missing))
        fill_args = {k: v for k, v in details.items() if v is not None}
        together = self.budget is None and (not self.promo or details.get("promo_code") == "")
        checkout = next((s for s in reversed(self.after) if s.name == "go_to_checkout"), None)
        if checkout is None:
            calls: list[tuple[str, dict[str, Any]]] = [
                ("go_to_checkout", {}),
                ("fill_delivery_details", fill_args),
            ]
            return Plan(
                f"Checking out at {self.menu.restaurant}.",
                calls + ([("place_order", {})] if together else []),
            )
        if not checkout.said.startswith("At checkout"):
            if "minimum order" in checkout.said:
                return ask(questions.below_minimum(self.menu.restaurant), context=checkout.said)
            tries = sum(1 for s in self.after if s.name == "go_to_checkout")
            if NO_RESPONSE in checkout.said and tries < CHECKOUT_TRIES:  # a slow page, not a refusal
                return Plan("The page was slow; going to checkout again.", [("go_to_checkout", {})])
            return finish("failed", f"Could not reach checkout: {checkout.said}")
        fill = next(
            (
                s
                for s in reversed(self.after)
                if s.name == "fill_delivery_details" and s.position > checkout.position
            ),
            None,
        )
        answered = [
            position
            for start in (SLOT_QUESTION, PAYMENT_QUESTION, TIP_QUESTION, questions.DETAILS, "Promo code ")
            for position, _ in self.answers(start)
        ]
        if fill is None or (answered and max(answered) > fill.position):
            calls = [("fill_delivery_details", fill_args)] + ([("place_order", {})] if together else [])
            return Plan("Filling in the delivery details.", calls)
        said = fill.said
        missing_choice = read_not_found(said)
        for kind, question in (("delivery time", SLOT_QUESTION), ("payment method", PAYMENT_QUESTION)):
            if missing_choice is not None and missing_choice.kind == kind:
                offered = [name for name in missing_choice.candidates if name]
                return self.d.ask_again(question, offered or None)
        no_tip = read_no_tip(said)
        if no_tip is not None:
            return self.d.ask_again(TIP_QUESTION, list(no_tip[1]))
        filled = read_filled(said)
        if filled is not None and filled.missing:
            return ask(f"{questions.DETAILS}… the checkout form says: {said} What should I enter?")
        if filled is None:
            return finish("failed", f"Could not fill in the delivery details: {said}")
        promo = filled.promo
        if promo and "applied" not in promo[1].lower() and not is_yes(self.latest("Promo code ") or ""):
            return ask(questions.promo_rejected(*promo), yes_no=True)
        total = filled.total_cents
        seen = self.d.t.cart() if self.food_only else None
        if seen is not None and seen[1]:
            total = seen[1]
        if (
            self.budget is not None
            and total is not None
            and total > self.budget
            and not is_yes(self.latest("The total is ") or "")
        ):
            return ask(questions.over_budget(money(total), money(self.budget)), yes_no=True)
        return Plan("Placing the order.", [("place_order", {})])
