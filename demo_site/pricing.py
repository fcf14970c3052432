"""Money: option prices, cart totals, promo codes. Pure functions over integer cents."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


def percent_of(amount_cents: int, percent: int) -> int:
    """`percent` % of a non-negative amount, rounded half-up to whole cents."""
    # Integer arithmetic: float rounding would turn 0.5 cents into banker's rounding or worse.
    return (amount_cents * percent + 50) // 100


def unit_price(dish: dict[str, Any], options: dict[str, str | list[str]]) -> int:
    """A dish's price with the price deltas of the chosen (already validated) options."""
    price: int = dish["price_cents"]
    for option in dish["options"]:
        chosen = options.get(option["name"])
        names = [chosen] if isinstance(chosen, str) else (chosen or [])
        for choice in option["choices"]:
            if choice["name"] in names:
                price += choice["price_delta_cents"]
    return price


@dataclass(frozen=True)
class PromoResult:
    """What a promo code does to a given subtotal; `reason` explains a rejection."""

    code: str
    valid: bool
    reason: str
    discount_cents: int = 0
    free_delivery: bool = False


def apply_promo(promo: dict[str, Any] | None, code: str, subtotal_cents: int) -> PromoResult:
    """Check a promo code (`promo` is its catalog row, None when unknown) against a subtotal."""
    if promo is None:
        return PromoResult(code, False, f"The promo code {code} does not exist")
    if promo["expired"]:
        return PromoResult(code, False, f"The promo code {code} has expired")
    minimum = promo["min_subtotal_cents"]
    if subtotal_cents < minimum:
        return PromoResult(
            code,
            False,
            f"The promo code {code} needs a subtotal of at least {format_cents(minimum)}",
        )
    if promo["free_delivery"]:
        return PromoResult(code, True, f"{code} applied: free delivery", free_delivery=True)
    discount = percent_of(subtotal_cents, promo["percent_off"])
    return PromoResult(code, True, f"{code} applied: {promo['percent_off']}% off", discount_cents=discount)


@dataclass(frozen=True)
class Totals:
    """Every amount shown in a cart or stored on an order."""

    subtotal_cents: int
    delivery_fee_cents: int
    service_fee_cents: int
    discount_cents: int
    tip_cents: int
    total_cents: int


def totals(
    subtotal_cents: int,
    delivery_fee_cents: int,
    service_fee_percent: int,
    promo: PromoResult | None = None,
    tip_cents: int = 0,
) -> Totals:
    """Total = subtotal + delivery + service fee − discount + tip (a valid promo only)."""
    discount = 0
    if promo is not None and promo.valid:
        discount = promo.discount_cents
        if promo.free_delivery:
            delivery_fee_cents = 0
    service = percent_of(subtotal_cents, service_fee_percent)
    total = subtotal_cents + delivery_fee_cents + service - discount + tip_cents
    return Totals(subtotal_cents, delivery_fee_cents, service, discount, tip_cents, total)


def format_cents(cents: int) -> str:
    """`1150` → `"$11.50"`, as the pages show prices."""
    return f"${cents // 100}.{cents % 100:02d}"
