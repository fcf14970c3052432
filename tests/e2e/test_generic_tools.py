"""The generic actions on the real shop, narrated by what changed; the place-order control reached
through them passes the approval gate and the budget like `place_order`."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from webagent.agent.result import RunResult
from webagent.browser.session import Browser
from webagent.config import Profile, RunConfig
from webagent.llm.protocol import Reply
from webagent.runs.runner import start_run
from webagent.sync import run_sync
from webagent.testing import ScriptedModel, call, reply

from .conftest import Tools

OpenTools = Callable[..., Tools]


def first_line(text: str) -> str:
    return text.splitlines()[0]


def test_press_a_link_by_its_name_says_where_it_led(open_tools: OpenTools) -> None:
    tools = open_tools()
    result = tools("press", name="Orders")
    assert result.ok, result.text
    assert first_line(result.text) == 'Pressed "Orders". Now at order history (was restaurant list).'


def test_press_an_unknown_name_offers_the_closest(open_tools: OpenTools) -> None:
    tools = open_tools()
    result = tools("press", name="Ordres")
    assert result.ok and result.text.startswith('Pressed "Orders".'), result.text
    missing = tools("press", name="Launch rocket")
    assert not missing.ok and first_line(missing.text).startswith('No button or link called "Launch rocket"')


def test_fill_choose_and_keys_on_the_checkout_form(open_tools: OpenTools) -> None:
    tools = open_tools()
    tools("open_restaurant", name="Italian Bistro")
    tools("add_to_cart", dish="Lasagna al Forno", quantity=2)
    tools("go_to_checkout")
    filled = tools("fill_field", label="Address", text="12 Oak Street")
    assert first_line(filled.text) == 'Filled "Address" with "12 Oak Street". Focus is on "Address".'
    assert tools.state().checkout.address == "12 Oak Street"  # type: ignore[union-attr]
    chosen = tools("choose_option", label="Delivery time", choice="19:00 - 19:30")
    assert chosen.ok, chosen.text
    assert tools.state().checkout.delivery_slot == "19:00-19:30"  # type: ignore[union-attr]
    paid = tools("choose_option", label="Payment method", choice="cash")
    assert first_line(paid.text).startswith('Chose "Cash" in "Payment method".'), paid.text
    wrong = tools("choose_option", label="Delivery time", choice="midnight snack")
    assert not wrong.ok and "No option called" in wrong.text
    tab = tools("press_key", key="Tab")
    assert tab.ok and "Focus is on" in first_line(tab.text), tab.text


def test_escape_closes_the_cart_and_scroll_finds_the_reviews(open_tools: OpenTools) -> None:
    tools = open_tools()
    tools("open_restaurant", name="Italian Bistro")
    tools("view_cart")
    closed = tools("press_key", key="Escape")
    # the shop's adapter closes the drawer before a key acts on the page behind it, and says so
    assert first_line(closed.text).startswith("Closed the cart drawer first"), closed.text
    assert "cart drawer open" not in closed.text, closed.text
    nothing = tools("press_key", key="Escape")
    assert first_line(nothing.text) == "Pressed Escape. No visible change."
    scrolled = tools("scroll_to_text", text="Reviews")
    assert first_line(scrolled.text).startswith('Scrolled to "Reviews" (in "Reviews")'), scrolled.text
    bad = tools.raw("press_key", '{"key": "F13"}')
    assert not bad.ok and bad.refused and "Invalid arguments for press_key" in bad.text


# -- the place-order control, reached generically, is gated like place_order --------------------------

PROFILE = Profile(name="Ana Tester", address="12 Oak Street", phone="555-0101", payment_method="Cash")
DETAILS = {"name": "Ana Tester", "address": "12 Oak Street", "phone": "555-0101", "payment_method": "Cash"}


def to_checkout() -> list[Reply]:
    return [
        reply(
            call("open_restaurant", name="Italian Bistro"), call("add_to_cart", dish="Tiramisu", quantity=2)
        ),
        reply(call("go_to_checkout"), call("fill_delivery_details", **DETAILS)),
    ]


def finish_from_narration(messages: list[dict[str, Any]]) -> Reply:
    text = next(m["content"] for m in reversed(messages) if m["role"] == "tool")
    placed = re.search(r"order #(\d+)", text)
    if placed:
        return reply(call("finish", outcome="ordered", summary="Ordered.", order_id=int(placed.group(1))))
    return reply(call("finish", outcome="done", summary=text.splitlines()[0][:200]))


@pytest.fixture
def run(agent_browser: Browser, tmp_path: Path) -> Callable[..., RunResult]:
    def go(last: Reply, **overrides: Any) -> RunResult:
        model = ScriptedModel([*to_checkout(), last, finish_from_narration])
        config = RunConfig(
            goal="Order 2 Tiramisu from Italian Bistro",
            profile=PROFILE,
            runs_dir=tmp_path / "runs",
            **{"approve": "auto", **overrides},
        )
        result = run_sync(start_run(config, model=model, browser=agent_browser))
        model.assert_complete()
        return result

    return go


def orders(result: RunResult) -> int:
    with sqlite3.connect(Path(result.run_dir) / "shop.db") as db:
        return int(db.execute("select count(*) from orders").fetchone()[0])


def ordering_moves() -> list[Reply]:
    return [
        reply(call("press", name="Place order")),
        reply(call("fill_field", label="Name", text="Ana Tester"), call("press_key", key="Enter")),
    ]


@pytest.mark.parametrize("move", ordering_moves(), ids=["press-button", "enter-in-form"])
def test_a_generic_route_to_ordering_is_denied_by_the_policy(
    run: Callable[..., RunResult], move: Reply
) -> None:
    result = run(move, approve="deny")
    assert orders(result) == 0
    assert result.outcome == "done" and "Not placed: the approval policy denies orders" in result.message


@pytest.mark.parametrize("move", ordering_moves(), ids=["press-button", "enter-in-form"])
def test_a_generic_route_to_ordering_respects_the_budget(run: Callable[..., RunResult], move: Reply) -> None:
    result = run(move, budget_cents=500)
    assert orders(result) == 0
    assert "exceeds the budget $5.00" in result.message


def test_a_generic_press_of_place_order_orders_once_approved(run: Callable[..., RunResult]) -> None:
    result = run(reply(call("press", name="Place order")))
    assert result.outcome == "ordered" and orders(result) == 1, result.message
