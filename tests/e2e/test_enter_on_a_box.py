"""Enter pressed on a radio or a box of a form sends the form in Chromium, as Enter in a text field does —
found by the local model on a newsletter page, where an Enter on the chosen radio subscribed without the
gate. Pages written here: a pay form with a plan to choose and a box to tick, under deny; and the same
key where the form sends nothing that pays."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_blind_gate import Ledger, fresh, ledger, page, run
from webagent.browser.session import Browser
from webagent.testing import call, reply

__all__ = ["fresh", "ledger"]

PAY = page(
    """<main><h1>Your plan</h1><form onsubmit="event.preventDefault(); rec('paid:' + new FormData(this).get('plan'))">
<fieldset><legend>Plan</legend><label><input type='radio' name='plan' value='monthly'> Monthly</label>
<label><input type='radio' name='plan' value='yearly'> Yearly</label></fieldset>
<label><input type='checkbox' name='gift'> Send as a gift</label>
<button>Pay $30.00</button></form></main>""",
    title="Plan",
    view=False,
)

SEARCH = page(
    """<main><h1>Filters</h1><form onsubmit="event.preventDefault(); rec('searched')">
<label><input type='checkbox' name='open'> Open now</label><button>Show results</button></form></main>""",
    title="Filters",
    view=False,
)


@pytest.mark.parametrize(("label", "choice"), [("Plan", "Yearly"), ("Send as a gift", "Send as a gift")])
def test_enter_on_a_radio_or_box_of_a_pay_form_is_not_pressed_under_deny(
    agent_browser: Browser, fresh: Ledger, tmp_path: Path, label: str, choice: str
) -> None:
    url, _ = fresh.add(PAY)
    moves = [reply(call("choose_option", label=label, choice=choice)), reply(call("press_key", key="Enter"))]
    _, events, said = run(agent_browser, url, tmp_path, moves, goal="Choose a plan", approve="deny")
    fresh.settle(lambda: any(h.startswith("paid") for h in fresh.hits), wait=1.0)
    assert not [h for h in fresh.hits if h.startswith("paid")], (fresh.hits, said)
    approvals = [e for e in events if e["event"] == "approval"]
    assert approvals and approvals[0]["decision"] == "deny", (approvals, said)
    assert "Pay $30.00" in said[1], said[1]


def test_enter_on_a_box_of_a_form_that_pays_nothing_is_pressed(
    agent_browser: Browser, fresh: Ledger, tmp_path: Path
) -> None:
    url, _ = fresh.add(SEARCH)
    moves = [
        reply(call("choose_option", label="Open now", choice="Open now")),
        reply(call("press_key", key="Enter")),
    ]
    _, events, said = run(agent_browser, url, tmp_path, moves, goal="Show what is open", approve="deny")
    fresh.settle(lambda: "searched" in fresh.hits)
    assert fresh.hits == ["searched"], (fresh.hits, said)
    assert not [e for e in events if e["event"] == "approval"], said
