"""The loop's own calls against a page-side fake (passed in through the `ToolRunner` seam, not patched)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from webagent.agent.approval import ApprovalGate, HumanChannel
from webagent.agent.checkpoint import Checkpoint, RunFolder
from webagent.agent.controls import Controls, RunEnded
from webagent.config import RunConfig
from webagent.narration.state import CheckoutForm, PageState
from webagent.sites.demo_shop import TOOLS
from webagent.sync import run_sync
from webagent.testing import call
from webagent.tools import Args
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
    state = Checkpoint(run_id=folder.run_id, config=RunConfig())
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
