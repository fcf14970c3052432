"""The loop's own calls against a page-side fake (passed in through the `ToolRunner` seam, not patched)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from webagent.agent.approval import ApprovalGate, HumanChannel
from webagent.agent.checkpoint import Checkpoint, RunFolder
from webagent.agent.controls import Controls, Paused, RunEnded
from webagent.browser.cards import CardField
from webagent.config import Profile, RunConfig
from webagent.narration.state import CheckoutForm, PageState
from webagent.sites.demo_shop import TOOLS
from webagent.sync import run_sync
from webagent.testing import call
from webagent.tools import Args
from webagent.tools.consequence import Consequence
from webagent.tools.toolbox import ToolResult, parse_call, tool_schemas


class LateConfirmationPage:
    """A shop whose confirmation shows up only after place_order stopped waiting for it."""

    schemas = tool_schemas(TOOLS)

    def __init__(self) -> None:
        self.view = "checkout"

    def parse(self, name: str, arguments: str | dict[str, Any]) -> Args | str:
        return parse_call(TOOLS, name, arguments)

    async def is_consequential(self, name: str, arguments: str | dict[str, Any]) -> bool:
        return name == "place_order"

    async def judged(self, name: str, arguments: str | dict[str, Any]) -> Consequence:
        return Consequence(name == "place_order", typed=True)

    async def call(self, name: str, arguments: str | dict[str, Any]) -> ToolResult:
        assert name == "place_order"
        self.view = "confirmation"  # the order landed, but after the tool's wait ran out
        return ToolResult(name, "Pressed Place order, but no confirmation appeared.", ok=False, changed=True)

    async def state(self) -> PageState:
        if self.view == "confirmation":
            return PageState(view="confirmation", order_number=7, order_total_cents=1874)
        details = CheckoutForm(
            name="A", address="1 Oak Street", phone="555", delivery_slot="ASAP", payment_method="Cash"
        )
        return PageState(view="checkout", cart_count=2, summary_total_cents=1874, checkout=details)


def test_a_late_confirmation_is_adopted_from_the_page(tmp_path: Path) -> None:
    page = LateConfirmationPage()
    folder = RunFolder.create(tmp_path)
    profile = Profile(name="A", address="1 Oak Street", phone="555")  # the form's details are the person's
    state = Checkpoint(run_id=folder.run_id, config=RunConfig(profile=profile))
    # No goal names a dish here, so a budget is what anchors the automatic approval (webagent/agent/anchor.py).
    gate = ApprovalGate("auto", budget_cents=2000)
    controls = Controls(page, gate, HumanChannel(), state, folder, lambda *a, **k: None)

    first = run_sync(controls.place_order(call("place_order")))
    assert not first.ok and state.order_attempted and state.placed == []

    again = run_sync(controls.place_order(call("place_order")))
    assert again.text.startswith("Refused: order #7 was already placed in this run")
    with pytest.raises(RunEnded) as ended:
        run_sync(controls.finish(call("finish", outcome="ordered", summary="Ordered.", order_id=7)))
    assert (ended.value.outcome, ended.value.order_id, ended.value.total_cents) == ("ordered", 7, 1874)


class PayPage:
    """A checkout that is not the demo shop's: a press of its "Pay $43.42" is consequential."""

    schemas = tool_schemas(TOOLS)

    def __init__(self, total: int | None = 4342) -> None:
        self.total = total
        self.pressed: list[str] = []
        self.url = "http://pay.test/checkout"

    def parse(self, name: str, arguments: str | dict[str, Any]) -> Args | str:
        return parse_call(TOOLS, name, arguments)

    async def is_consequential(self, name: str, arguments: str | dict[str, Any]) -> bool:
        return (await self.judged(name, arguments)).consequential

    async def judged(self, name: str, arguments: str | dict[str, Any]) -> Consequence:
        return Consequence(
            True, 'its name says "Pay $43.42"', "Pay $43.42", 'pressing "Pay $43.42"', self.total
        )

    async def call(self, name: str, arguments: str | dict[str, Any]) -> ToolResult:
        self.pressed.append(name)
        return ToolResult(name, 'Pressed "Pay $43.42".', ok=True, changed=True)

    async def state(self) -> PageState:
        return PageState(view="unknown", url=self.url)

    async def card_fields(self) -> list[CardField]:
        return []  # its pay button pays by a card on file: no card fields

    async def enter_card(self, fields: list[CardField], values: dict[int, str]) -> list[str]:
        return [field.label for field in fields]

    async def clear_card(self) -> None:
        pass


def controls_on(page: PayPage, tmp_path: Path, gate: ApprovalGate) -> tuple[Controls, Checkpoint, list[Any]]:
    folder = RunFolder.create(tmp_path)
    state = Checkpoint(run_id=folder.run_id, config=RunConfig(goal="Pay for my order"))
    events: list[Any] = []
    controls = Controls(page, gate, HumanChannel(), state, folder, lambda *a, **k: events.append((a, k)))
    return controls, state, events


def test_a_generic_pay_control_waits_for_approval_and_is_refused_if_the_page_changed(tmp_path: Path) -> None:
    page = PayPage()
    controls, state, _ = controls_on(page, tmp_path, ApprovalGate("pause"))
    with pytest.raises(Paused):
        run_sync(controls.place_order(call("press", name="Pay $43.42")))
    assert state.pending is not None and page.pressed == []
    assert state.pending.question.startswith('Approve pressing "Pay $43.42" ($43.42)?')
    assert (
        'Pressing "Pay $43.42" on http://pay.test/checkout: its name says "Pay $43.42"'
        in state.pending.question
    )
    page.total = 9900  # on resume the page asks for more than was put to the person
    changed = run_sync(controls.settle(state.pending))
    assert changed.refused and changed.text.startswith("Not placed: the order changed since approval")
    assert page.pressed == []


def test_an_approved_generic_pay_control_records_its_intent_first(tmp_path: Path) -> None:
    page = PayPage()
    controls, state, events = controls_on(page, tmp_path, ApprovalGate("auto", budget_cents=5000))
    result = run_sync(controls.place_order(call("press", name="Pay $43.42")))
    assert result.ok and page.pressed == ["press"]
    assert state.order_intent is not None and state.order_intent.total_cents == 4342
    assert not state.order_attempted  # the demo shop's order history has nothing to say about this page
    kinds = [args[0] for args, _ in events]
    assert kinds == ["approval", "order_intent", "order_result"]


def test_a_generic_pay_control_of_unknown_total_is_refused_under_a_budget(tmp_path: Path) -> None:
    page = PayPage(total=None)
    controls, _, _ = controls_on(page, tmp_path, ApprovalGate("auto", budget_cents=5000))
    result = run_sync(controls.place_order(call("press", name="Pay $43.42")))
    assert result.refused and page.pressed == []
    assert result.text.startswith("Not placed: the order total could not be read")


def closed_terminal(question: str) -> str:
    raise EOFError


@pytest.mark.parametrize("total", [5000, 2000])
def test_a_foreign_pay_control_pressed_twice_spends_once_under_auto_and_a_budget(
    tmp_path: Path, total: int
) -> None:
    """The ledger: under ``--approve auto --budget 60`` a second "Pay" is never approved automatically —
    $50 twice is over the budget counted across the run (denied), $20 twice needs a person (paused) —
    and the run says it paid, and what."""
    page = PayPage(total=total)
    gate = ApprovalGate("auto", budget_cents=6000, prompt=closed_terminal)
    controls, state, _ = controls_on(page, tmp_path, gate)
    first = run_sync(controls.place_order(call("press", name="Pay $50.00")))
    assert first.ok and page.pressed == ["press"] and [s.total_cents for s in state.spent] == [total]
    if total == 5000:
        second = run_sync(controls.place_order(call("press", name="Pay $50.00")))
        assert second.refused and "this run has spent $50.00 already" in second.text
    else:
        with pytest.raises(Paused):
            run_sync(controls.place_order(call("press", name="Pay $50.00")))
        assert state.pending is not None and state.pending.record is not None
    assert page.pressed == ["press"] and len(state.spent) == 1
    paid = state.result_of("done", "Paid.", str(tmp_path))
    assert paid.outcome == "paid" and paid.spent_cents == total and "pay.test" in " ".join(paid.paid)


def test_under_deny_a_foreign_pay_control_is_never_pressed(tmp_path: Path) -> None:
    page = PayPage(total=5000)
    controls, state, _ = controls_on(page, tmp_path, ApprovalGate("deny"))
    for _ in range(2):
        assert run_sync(controls.place_order(call("press", name="Pay $50.00"))).refused
    assert page.pressed == [] and state.spent == []


# -- a yes binds the origin (issue 35, item 2) ------------------------------------------------------------


class ShopCheckout(LateConfirmationPage):
    """The demo shop's own checkout at ``url``, whose order is placed at once."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self.pressed: list[str] = []

    async def call(self, name: str, arguments: str | dict[str, Any]) -> ToolResult:
        self.pressed.append(name)
        return ToolResult(name, "Order #7 placed.", ok=True, changed=True, order_id=7, total_cents=1874)

    async def state(self) -> PageState:
        page = await super().state()
        assert page.checkout is not None
        checkout = page.checkout.model_copy(update={"checkout_token": "tok-1"})
        return page.model_copy(update={"url": self.url, "checkout": checkout})


def paused_then_approved(page: Any, tmp_path: Path, shop_url: str | None, now: str) -> ToolResult:
    """Pause on ``page``'s action, move the page to ``now`` (a resume), and settle it with the person's yes."""
    folder = RunFolder.create(tmp_path)
    state = Checkpoint(run_id=folder.run_id, config=RunConfig(goal="Pay for my order", shop_url=shop_url))
    gate = ApprovalGate("pause")
    controls = Controls(page, gate, HumanChannel(), state, folder, lambda *a, **k: None)
    press = call("place_order") if isinstance(page, ShopCheckout) else call("press", name="Pay $43.42")
    with pytest.raises(Paused):
        run_sync(controls.place_order(press))
    assert state.pending is not None and state.pending.record is not None
    page.url = now
    gate.granted = state.pending.record  # what `resume --approve` does (webagent/runs/runner.py)
    return run_sync(controls.settle(state.pending))


@pytest.mark.parametrize("now", ["http://pay.test:8443/checkout", "http://other.test/checkout"])
@pytest.mark.parametrize("shop_url", [None, "http://pay.test/checkout"])
def test_a_yes_on_resume_approves_nothing_on_another_origin(
    tmp_path: Path, now: str, shop_url: str | None
) -> None:
    """A foreign page's press approved on resume is refused when the page now comes from another origin
    (another port included), whether the run's shop is the embedded one or the page was given by URL."""
    page = PayPage()
    result = paused_then_approved(page, tmp_path, shop_url, now)
    assert result.refused and result.text.startswith("Not placed: the order changed since approval")
    assert page.pressed == []


def test_the_embedded_shops_own_checkout_may_come_back_on_another_port(tmp_path: Path) -> None:
    """The embedded shop restarts on a new port when a run resumes: its checkout (the same token, cart and
    details) is the order the person approved, and is placed."""
    page = ShopCheckout("http://127.0.0.1:41001/checkout")
    result = paused_then_approved(page, tmp_path, None, "http://127.0.0.1:52002/checkout")
    assert result.ok and result.order_id == 7 and page.pressed == ["place_order"]


def test_a_shop_given_by_url_keeps_its_origin_in_the_approval(tmp_path: Path) -> None:
    """A shop given by URL does not move: its checkout shown from another origin is not the one approved."""
    page = ShopCheckout("http://shop.test/checkout")
    result = paused_then_approved(page, tmp_path, "http://shop.test", "http://shop.test:8080/checkout")
    assert result.refused and page.pressed == []
