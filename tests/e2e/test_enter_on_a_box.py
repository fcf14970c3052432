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


SENT = "event.preventDefault(); rec('paid')"
ELSEWHERE = {
    # found by a reviewer, each checked in Chromium: the first submit button disabled (Chromium sends by the
    # next), the pay button outside the form (`form=`), a button with an invalid type, a slider
    "disabled first": (
        f"""<form onsubmit="{SENT}"><fieldset><legend>Plan</legend><label><input type='radio' name='p'> Monthly</label>
<label><input type='radio' name='p'> Yearly</label></fieldset><button disabled>Apply coupon</button><button>Pay $30.00</button></form>""",
        [reply(call("choose_option", label="Plan", choice="Yearly"))],
    ),
    "button outside": (
        f"""<form id='g' onsubmit="{SENT}"><label>Name <input name='n'></label><label>Note <input name='c'></label></form>
<button form='g'>Pay $30.00</button>""",
        [reply(call("fill_field", label="Name", text="Ada"))],
    ),
    "invalid type": (
        f"""<form onsubmit="{SENT}"><label><input type='checkbox' name='t'> Keep me posted</label><button type=''>Pay $30.00</button></form>""",
        [reply(call("choose_option", label="Keep me posted", choice="Keep me posted"))],
    ),
    "slider": (
        f"""<form onsubmit="{SENT}"><label>Tip <input type='range' name='tip'></label><button>Pay $30.00</button></form>""",
        [reply(call("press_key", key="Tab"))],
    ),
}


@pytest.mark.parametrize("shape", sorted(ELSEWHERE))
def test_enter_that_sends_a_pay_form_by_any_of_its_buttons_is_not_pressed_under_deny(
    agent_browser: Browser, fresh: Ledger, tmp_path: Path, shape: str
) -> None:
    body, first = ELSEWHERE[shape]
    url, _ = fresh.add(page(f"<main><h1>Pay</h1>{body}</main>", title="Pay", view=False))
    _, events, said = run(
        agent_browser,
        url,
        tmp_path,
        [*first, reply(call("press_key", key="Enter"))],
        goal="Pay",
        approve="deny",
    )
    fresh.settle(lambda: "paid" in fresh.hits, wait=1.0)
    assert "paid" not in fresh.hits, (fresh.hits, said)
    approvals = [e for e in events if e["event"] == "approval"]
    assert approvals and approvals[0]["decision"] == "deny", (approvals, said)


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
