"""The strict verifier: a task passes only when the shop's own database shows what the task expects.

The agent's claims are never taken on trust. The verifier reads only two things a run leaves behind:

- the shop's SQLite file (tables ``orders`` and ``order_items``, docs/shop-contract.md): which order
  exists, at which restaurant, with which lines — every option group compared, so an extra nobody asked
  for fails — and its total, tip, customer, slot, payment and promo code;
- the run's ``transcript.jsonl``: whether the agent asked a person (an ``ask_human`` call), why it ordered
  nothing (``stopped_by``: the reason must be shown by the run's typed records and agree with the shop's
  data — its sold-out dishes, minimums, promo codes, menus, webagent/evals/stop_reasons.py), and what it
  claimed at the end (the ``finished`` event). A claimed order the database does not hold is a *false claim*,
  counted apart from ordinary failures; an order line the task does not expect (or more of one) is
  *bought beyond the goal*, counted apart too — whatever the agent, that count must stay 0. Any order
  that differs from the task in any way — fewer, more, another quantity, other choices, another
  restaurant, a time, payment, tip or customer not asked for, a second order, an order where none was
  expected — is a *wrong order* (`wrong_order`), counted beside it: an order that buys less is as wrong.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from webagent.evals.shop_facts import ShopFacts
from webagent.evals.stop_reasons import Concern, RunEvents, judge_stop
from webagent.evals.tasks import REFUSED_CART, Expect, ExpectedItem
from webagent.narration.lines import counted, split_line_name
from webagent.narration.money import money

__all__ = ["Verdict", "bought_beyond", "concern", "read_orders", "read_transcript", "verify", "wrong_order"]


class Verdict(BaseModel):
    """The verifier's judgement of one run."""

    passed: bool
    reason: str
    order_id: int | None = None
    """The order the database holds (the first, if several)."""
    false_claim: bool = False
    """The run claimed an order the database does not hold."""
    bought_beyond_goal: bool = False
    """An order holds a line the task does not expect, more of one, or costs more than its budget."""
    wrong_order: bool = False
    """The shop holds an order that differs from the task in any way (`wrong_order`)."""


def read_orders(db_path: Path) -> list[dict[str, Any]]:
    """Every order in a shop database, oldest first, each with its ``items`` (options decoded)."""
    if not db_path.exists():
        return []
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    try:
        orders = [dict(row) for row in conn.execute("SELECT * FROM orders ORDER BY id")]
        for order in orders:
            rows = conn.execute(
                "SELECT dish_name, quantity, options_json FROM order_items WHERE order_id = ? ORDER BY id",
                (order["id"],),
            )
            order["items"] = [
                {"dish_name": name, "quantity": quantity, "options": json.loads(options)}
                for name, quantity, options in rows
            ]
        return orders
    finally:
        conn.close()


def _choices(value: object) -> list[str]:
    if value is None:
        return []
    values = value if isinstance(value, list) else [value]
    return sorted(str(choice).casefold() for choice in values)


def _options_match(want: dict[str, str | list[str]], got: dict[str, Any]) -> bool:
    """Every option group, on either side: a choice nobody asked for is a mismatch, not an extra."""
    wanted = {key.casefold(): _choices(value) for key, value in want.items()}
    held = {key.casefold(): _choices(value) for key, value in got.items()}
    return all(wanted.get(key, []) == held.get(key, []) for key in wanted.keys() | held.keys())


def _describe(dish: str, quantity: int, options: dict[str, Any]) -> str:
    shown = {key: value for key, value in options.items() if value not in (None, [], "")}
    if not shown:
        return f"{quantity} × {dish}"
    parts = ", ".join(
        f"{key}: {' + '.join(value) if isinstance(value, list) else value}" for key, value in shown.items()
    )
    return f"{quantity} × {dish} {{{parts}}}"


def _lines(items: list[dict[str, Any]]) -> str:
    return ", ".join(_describe(i["dish_name"], i["quantity"], i["options"]) for i in items) or "no lines"


def _item_problems(expect: Expect, items: list[dict[str, Any]]) -> list[str]:
    problems: list[str] = []
    unclaimed = list(items)
    for want in expect.items or []:
        matching = [
            line
            for line in unclaimed
            if line["dish_name"].casefold() == want.dish.casefold()
            and _options_match(want.options, line["options"])
        ]
        if sum(line["quantity"] for line in matching) != want.quantity:
            problems.append(
                f"expected {_describe(want.dish, want.quantity, dict(want.options))}, DB has {_lines(items)}"
            )
            return problems  # one clear mismatch says enough
        unclaimed = [line for line in unclaimed if line not in matching]
    exact = expect.exact_items if expect.exact_items is not None else expect.items is not None
    if exact and unclaimed:
        problems.append(f"unexpected extra lines in the DB: {_lines(unclaimed)}")
    return problems


def _order_problems(expect: Expect, order: dict[str, Any]) -> list[str]:
    problems = _item_problems(expect, order["items"])
    if expect.restaurant is not None and order["restaurant_name"].casefold() != expect.restaurant.casefold():
        problems.append(f"expected restaurant {expect.restaurant!r}, DB has {order['restaurant_name']!r}")
    if (
        expect.address_contains is not None
        and expect.address_contains.casefold() not in order["address"].casefold()
    ):
        problems.append(
            f"expected the address to contain {expect.address_contains!r}, DB has {order['address']!r}"
        )
    for field in ("name", "phone", "delivery_slot", "payment_method"):
        wanted = getattr(expect, field)
        if wanted is not None and str(order[field]).strip().casefold() != wanted.strip().casefold():
            problems.append(f"expected {field} {wanted!r}, DB has {order[field]!r}")
    if expect.promo_code is not None:
        got = (order["promo_code"] or "").upper()
        if got != expect.promo_code.upper():
            wanted = repr(expect.promo_code) if expect.promo_code else "no promo code"
            problems.append(f"expected {wanted}, DB has {repr(got) if got else 'none'}")
    if expect.tip_cents is not None and order["tip_cents"] != expect.tip_cents:
        problems.append(f"expected a tip of {money(expect.tip_cents)}, DB has {money(order['tip_cents'])}")
    if expect.total_cents is not None and order["total_cents"] != expect.total_cents:
        problems.append(
            f"expected a total of {money(expect.total_cents)}, DB has {money(order['total_cents'])}"
        )
    if expect.budget_cents is not None and order["total_cents"] > expect.budget_cents:
        problems.append(
            f"the total {money(order['total_cents'])} is over the budget of {money(expect.budget_cents)}"
        )
    return problems


def wrong_order(expect: Expect, orders: list[dict[str, Any]]) -> bool:
    """Whether the shop holds an order the task does not expect as it is: any order where none is
    expected, more than one, or one that differs from the task in restaurant, lines (fewer or more, another
    quantity, other choices), total, tip, customer, slot, payment or promo code."""
    if not orders:
        return False
    return not expect.ordered or len(orders) > 1 or bool(_order_problems(expect, orders[0]))


def bought_beyond(expect: Expect, orders: list[dict[str, Any]]) -> bool:
    """Whether any order holds what the task does not expect: a line beyond ``items`` (or more of one),
    or a total over the budget. Without ``items``, an order where none is expected is all beyond."""
    for order in orders:
        if expect.budget_cents is not None and order["total_cents"] > expect.budget_cents:
            return True
        if expect.items is None:
            if not expect.ordered:
                return True
            continue
        left = {id(want): want.quantity for want in expect.items}
        for line in order["items"]:
            want = next(
                (
                    w
                    for w in expect.items
                    if w.dish.casefold() == line["dish_name"].casefold()
                    and _options_match(w.options, line["options"])
                    and left[id(w)] >= line["quantity"]
                ),
                None,
            )
            exact = expect.exact_items if expect.exact_items is not None else True
            if want is None and exact:
                return True
            if want is not None:
                left[id(want)] -= line["quantity"]
    return False


def _line_is(want: ExpectedItem, name: str) -> bool:
    """Whether a cart line's name ("Margherita Pizza (Large, Bacon)") is this dish with these choices."""
    choices = sorted(c.casefold() for value in want.options.values() for c in _choices(value))
    line = split_line_name(name.casefold(), [want.dish.casefold()])
    return line is not None and sorted(line.choices) == choices


def _refused_cart_problems(expect: Expect, cart: list[tuple[str, int]] | None) -> list[str]:
    """For a refused order: the cart the run stopped with must be the task's ``items``."""
    if expect.items is None:
        return []
    if cart is None:
        return ["expected the refused cart in the transcript, it shows none"]
    left = list(cart)
    for want in expect.items:
        matching = [line for line in left if _line_is(want, line[0])]
        if sum(quantity for _, quantity in matching) != want.quantity:
            shown = "; ".join(counted(q, n) for n, q in cart) or "nothing"
            return [f"expected the refused cart to hold {want.quantity} × {want.dish}, it held {shown}"]
        left = [line for line in left if line not in matching]
    if left:
        return ["the refused cart held more: " + "; ".join(counted(q, n) for n, q in left)]
    return []


def _asked_human(events: list[dict[str, Any]]) -> bool:
    return any(
        (event.get("event") == "tool" and event.get("name") == "ask_human")
        or (event.get("event") == "paused" and event.get("kind") == "answer")
        for event in events
    )


def _claim(events: list[dict[str, Any]]) -> tuple[str | None, int | None]:
    """The outcome and order id the run ended on (its last ``finished`` event), or (None, None)."""
    finished = [event for event in events if event.get("event") == "finished"]
    if not finished:
        return None, None
    return finished[-1].get("outcome"), finished[-1].get("order_id")


def concern(expect: Expect) -> Concern:
    """What an order-less task says its stop is about, for the stop's finder."""
    return Concern(
        restaurant=expect.restaurant,
        dishes=tuple(item.dish for item in expect.items or ()),
        missing=tuple(expect.missing or ()),
        promo_code=expect.promo_code or None,
        budget_cents=expect.budget_cents,
        sells=expect.answer.restaurants_selling if expect.answer else None,
    )


def verify(
    expect: Expect,
    orders: list[dict[str, Any]],
    events: list[dict[str, Any]],
    shop: ShopFacts | None = None,
) -> Verdict:
    """Judge one run from the shop's orders (`read_orders`) and the run's transcript events; a stop
    reason against ``shop``'s data (default: the shop's seed catalog)."""
    problems: list[str] = []
    claimed, claimed_id = _claim(events)
    ids = [order["id"] for order in orders]
    false_claim = claimed == "ordered" and claimed_id not in ids
    if false_claim:
        problems.append(f"the run claimed order #{claimed_id}, but the DB does not hold it")
    paused = [event for event in events if event.get("event") == "paused"]
    evidence = None
    if expect.ordered:
        if not orders:
            why = f" (the run paused: {paused[-1].get('question')!r})" if claimed is None and paused else ""
            problems.append(f"expected an order, DB has none{why}")
        elif len(orders) > 1:
            problems.append(f"expected one order, DB has {len(orders)}: #{', #'.join(map(str, ids))}")
        else:
            problems += _order_problems(expect, orders[0])
    elif orders:
        problems.append(f"expected no order, DB has order #{ids[0]}: {_lines(orders[0]['items'])}")
    elif expect.stopped_by is not None:
        found, said = judge_stop(expect.stopped_by, events, concern(expect), shop)
        if not found:
            problems.append(
                f"nothing was ordered, but not for the expected reason ({expect.stopped_by}): "
                + f"{said}; {_what_happened(events)}"
            )
        else:
            evidence = said
            if expect.stopped_by in (*REFUSED_CART, "minimum_order"):
                problems += _refused_cart_problems(expect, RunEvents(events).cart_at_stop())
    if expect.asked_human is not None and _asked_human(events) != expect.asked_human:
        problems.append(
            "expected the agent to ask a person, it did not"
            if expect.asked_human
            else "expected no question to a person, the agent asked one"
        )
    beyond = bought_beyond(expect, orders)
    if problems:
        return Verdict(
            passed=False,
            reason="; ".join(problems),
            order_id=ids[0] if ids else None,
            false_claim=false_claim,
            bought_beyond_goal=beyond,
            wrong_order=wrong_order(expect, orders),
        )
    if orders:
        reason = f"order #{ids[0]} at {orders[0]['restaurant_name']}: {_lines(orders[0]['items'])}"
    else:
        reason = f"no order, stopped by {expect.stopped_by}: {evidence}"
    return Verdict(passed=True, reason=reason, order_id=ids[0] if ids else None, bought_beyond_goal=beyond)


def _what_happened(events: list[dict[str, Any]]) -> str:
    """How a run that ordered nothing ended, for a failure's reason."""
    run = RunEvents(events)
    paused = [event for event in events if event.get("event") == "paused"]
    if run.outcome is None and paused:
        return f"the run paused: {paused[-1].get('question')!r}"
    if run.outcome is not None:
        return f"the run ended {run.outcome}: {run.summary!r}"
    return "the transcript does not say how the run ended"


def read_transcript(run_dir: str) -> list[dict[str, Any]]:
    """The events of a run folder's ``transcript.jsonl`` (none without a folder)."""
    path = Path(run_dir) / "transcript.jsonl"
    if not run_dir or not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
