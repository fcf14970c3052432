"""Checkout pages that are not the demo shop — written here, served by a tiny local server that records
every payment it receives — in a real Chromium: pressing their pay control (or Enter in their form)
passes the approval gate and the budget, whatever the words and the form's shape.

The pages set ``body[data-view]`` only so that the session's wait for a rendered view returns at once;
nothing else of the demo shop's markup (no test ids) is on them.
"""

from __future__ import annotations

import html
import itertools
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from webagent.agent.approval import ApprovalGate, HumanChannel
from webagent.agent.checkpoint import Checkpoint, RunFolder
from webagent.agent.loop import Agent
from webagent.agent.result import RunResult
from webagent.browser.session import Browser, PageSession
from webagent.config import RunConfig
from webagent.llm.protocol import Reply
from webagent.runs.runner import start_run
from webagent.sites.demo_shop import DEMO_SHOP
from webagent.sync import run_sync
from webagent.testing import ScriptedModel, call, reply
from webagent.tools.toolbox import Toolbox

# -- a shop nobody wrote an adapter for -----------------------------------------------------------------


class Checkouts:
    """Serves the pages a test puts in ``pages`` and records each payment posted to ``/pay``."""

    def __init__(self) -> None:
        self.pages: dict[str, str] = {}
        self.paid: list[str] = []
        self.requested: list[str] = []
        """Every path asked for (GET), in order: a run looking for the demo shop's pages here shows."""
        self._count = itertools.count(1)
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # http.server's name
                owner.requested.append(self.path)
                page = owner.pages.get(self.path)
                self._send(200 if page else 404, page or "<body data-view='missing'>Not found</body>")

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                owner.paid.append(self.rfile.read(length).decode("utf-8", "replace"))
                self._send(200, "<body data-view='paid'><h1>Thank you for your payment</h1></body>")

            def _send(self, status: int, body: str) -> None:
                data = body.encode()
                self.send_response(status)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def add(self, page: str) -> str:
        """Serve ``page`` at a fresh path; its URL."""
        path = f"/checkout/{next(self._count)}"
        self.pages[path] = page
        return self.url + path


@pytest.fixture(scope="module")
def checkouts() -> Iterator[Checkouts]:
    served = Checkouts()
    thread = threading.Thread(target=served.server.serve_forever, daemon=True)
    thread.start()
    yield served
    served.server.shutdown()
    served.server.server_close()


# -- the shapes of a checkout form ---------------------------------------------------------------------


@dataclass(frozen=True)
class Shape:
    details: str
    """"card" | "iban" | "billing" | "amount" | "none" (an e-mail field only)."""
    labelled: str
    """How the fields are named: "label" | "placeholder" | "aria" | "autocomplete" (no words at all)."""
    control: str
    """"button" (no type) | "submit" | "input" (input type=submit) | "div" (a div role=button, scripted)."""
    total: str
    """Where "Total $43.42" is shown: "form" | "page" (outside the form) | "none"."""
    wrapper: str = "form"
    """"form", or "div" (a checkout built of divs; its buttons are scripted)."""


FIELDS = {
    "card": [("Card number", "cc-number", "f1"), ("Expiry (MM/YY)", "cc-exp", "f2"), ("CVC", "cc-csc", "f3")],
    "iban": [("IBAN", "", "iban")],
    "billing": [("Billing address", "billing street-address", "f1")],
    "amount": [("Amount", "transaction-amount", "amount")],
    "none": [("Email", "email", "f1")],
}


def field_html(shape: Shape, index: int, words: str, autocomplete: str, name: str) -> str:
    first = " autofocus" if index == 0 else ""
    value = ' value="43.42"' if name == "amount" else ""
    if shape.labelled == "label":
        return f'<label for="i{index}">{words}</label><input id="i{index}" name="x{index}"{value}{first}>'
    if shape.labelled == "placeholder":
        return f'<input name="x{index}" placeholder="{words}"{value}{first}>'
    if shape.labelled == "aria":
        return f'<input name="x{index}" aria-label="{words}"{value}{first}>'
    complete = f' autocomplete="{autocomplete}"' if autocomplete else ""
    return f'<input name="{name}"{complete}{value}{first}>'


def checkout_page(label: str, shape: Shape) -> str:
    """A small checkout page: its fields, its total, and one control called ``label``."""
    shown = html.escape(label)
    native = shape.wrapper == "form" and shape.control != "div"
    control = {
        "button": f'<button id="go">{shown}</button>',
        "submit": f'<button id="go" type="submit">{shown}</button>',
        "input": f'<input id="go" type="submit" value="{shown}">',
        "div": f'<div id="go" role="button" tabindex="0">{shown}</div>',
    }[shape.control]
    if shape.wrapper == "div" and shape.control != "div":
        control = control.replace('type="submit"', 'type="button"').replace(
            '<button id="go">', '<button id="go" type="button">'
        )
    fields = "".join(field_html(shape, i, *field) for i, field in enumerate(FIELDS[shape.details]))
    total = "<p>Total $43.42</p>"
    inside, outside = (
        (total, "") if shape.total == "form" else (("", total) if shape.total == "page" else ("", ""))
    )
    tag = "form" if shape.wrapper == "form" else "div"
    return f"""<!doctype html><html><head><title>Checkout</title></head><body data-view="pay">
<h1>Checkout</h1><aside>{outside}</aside>
<{tag} id="region" method="post" action="/pay">{fields}{inside}{control}</{tag}>
<script>
  const pay = () => fetch("/pay", {{ method: "POST", body: "scripted" }}).then(() => {{
    document.querySelector("h1").textContent = "Thank you for your payment"; }});
  const native = {json.dumps(native)};
  document.getElementById("go").addEventListener("click", (e) => {{ if (!native) pay(); }});
  document.getElementById("region").addEventListener("keydown", (e) => {{
    if (e.key === "Enter" && !native) {{ e.preventDefault(); pay(); }} }});
</script></body></html>"""


def shapes(
    details: tuple[str, ...] = tuple(FIELDS), totals: tuple[str, ...] = ("form", "page", "none")
) -> st.SearchStrategy[Shape]:
    return st.builds(
        Shape,
        details=st.sampled_from(details),
        labelled=st.sampled_from(["label", "placeholder", "aria", "autocomplete"]),
        control=st.sampled_from(["button", "submit", "input", "div"]),
        total=st.sampled_from(totals),
        wrapper=st.sampled_from(["form", "form", "div"]),
    )


WITH_DETAILS = tuple(details for details in FIELDS if details != "none")

# Words written here, not in the recogniser: verbs real shops put on their pay buttons, amounts, casing.
PAYING = ["Pay", "Pay now", "Order now", "Confirm and pay", "Complete purchase", "Confirm purchase", "Buy",
          "Checkout", "Place order", "Submit payment", "Donate", "Book now", "Subscribe", "Buy it now"]  # fmt: skip
AMOUNTS = ["", " $43.42", " · $43.42", " (€43,42)", " 43.42 USD"]
NEUTRAL = ["Continue", "Next", "OK", "Done", "Go", "Send"]
EVERYDAY = ["Add to cart", "Search", "Next page", "Close", "Order history", "Apply coupon"]
casing = st.sampled_from([str.lower, str.upper, str.title, str])
paying_labels = st.builds(lambda w, a, c: c(w + a), st.sampled_from(PAYING), st.sampled_from(AMOUNTS), casing)


@pytest.fixture(scope="module")
def page_session(agent_browser: Browser, checkouts: Checkouts) -> Iterator[PageSession]:
    session = run_sync(agent_browser.new_session(checkouts.url, DEMO_SHOP))
    yield session
    run_sync(session.close())


FOCUSED = "document.activeElement && document.activeElement !== document.body"
"""The page's autofocus has taken effect: the browser applies it a moment after the page has loaded."""


def judged(session: PageSession, checkouts: Checkouts, page: str, tool: str, **arguments: Any) -> Any:
    run_sync(session.goto(checkouts.add(page)))
    if tool == "press_key":  # where the key lands: the field the page focuses
        run_sync(session.page.wait_for_function(FOCUSED))
    return run_sync(Toolbox(session, DEMO_SHOP).judge(tool, arguments))


PROPERTY = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@PROPERTY
@given(label=paying_labels, shape=shapes())
def test_a_pay_control_is_consequential_on_any_checkout(
    page_session: PageSession, checkouts: Checkouts, label: str, shape: Shape
) -> None:
    consequence = judged(page_session, checkouts, checkout_page(label, shape), "press", name=label)
    assert consequence.consequential, (label, shape, consequence)
    if "43" in label or shape.total != "none":
        assert consequence.total_cents == 4342, (label, shape, consequence)


@PROPERTY
@given(label=st.sampled_from(NEUTRAL), shape=shapes(WITH_DETAILS))
def test_the_button_of_a_form_holding_payment_details_is_consequential_whatever_its_name(
    page_session: PageSession, checkouts: Checkouts, label: str, shape: Shape
) -> None:
    consequence = judged(page_session, checkouts, checkout_page(label, shape), "press", name=label)
    assert consequence.consequential, (label, shape, consequence)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    # (its one field is an email address: "Send" sends the person's details off, which is consequential —
    # tests/tools/test_sends_details.py — so it is left out here)
    label=st.sampled_from(EVERYDAY + [name for name in NEUTRAL if name != "Send"]),
    shape=shapes(("none",), ("none",)),
)
def test_everyday_controls_of_a_plain_form_are_not(
    page_session: PageSession, checkouts: Checkouts, label: str, shape: Shape
) -> None:
    consequence = judged(page_session, checkouts, checkout_page(label, shape), "press", name=label)
    assert not consequence.consequential, (label, shape, consequence)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=shapes(WITH_DETAILS))
def test_enter_in_a_form_holding_payment_details_is_consequential(
    page_session: PageSession, checkouts: Checkouts, shape: Shape
) -> None:
    # The first field has the focus (autofocus): Enter there submits the form, or the page's script pays.
    consequence = judged(page_session, checkouts, checkout_page("Continue", shape), "press_key", key="Enter")
    assert consequence.consequential, (shape, consequence)
    tab = run_sync(Toolbox(page_session, DEMO_SHOP).judge("press_key", {"key": "Tab"}))
    assert not tab.consequential


def test_a_key_judged_harmless_is_not_pressed_once_the_page_has_moved_the_focus(
    page_session: PageSession, checkouts: Checkouts
) -> None:
    # Enter in the search box does nothing; the page then moves the focus into its card form, where the
    # same Enter would pay. The key was judged (and, had it been asked, approved) for the search box.
    page = (
        "<body data-view='pay'><input aria-label='Search' autofocus>"
        "<form method='post' action='/pay'><label>Card number <input id='card' name='card'></label>"
        "<label>Expiry <input name='exp'></label><button>Pay $43.42</button></form></body>"
    )
    paid = len(checkouts.paid)
    run_sync(page_session.goto(checkouts.add(page)))
    run_sync(page_session.page.wait_for_function(FOCUSED))
    toolbox = Toolbox(page_session, DEMO_SHOP)
    enter = {"key": "Enter"}
    assert not run_sync(toolbox.is_consequential("press_key", enter))  # as the loop asks, before the call
    run_sync(page_session.page.focus("#card"))
    result = run_sync(toolbox.call("press_key", enter))
    assert not result.ok and "the page moved the focus after it was checked" in result.text, result.text
    assert len(checkouts.paid) == paid
    # Judged afresh, where the focus is now, the same key is consequential: the gate would ask.
    assert run_sync(toolbox.is_consequential("press_key", enter))


def test_a_closed_page_is_unclear_so_consequential(agent_browser: Browser, checkouts: Checkouts) -> None:
    session = run_sync(agent_browser.new_session(checkouts.url, DEMO_SHOP))
    run_sync(session.goto(checkouts.add(checkout_page("Continue", Shape("none", "label", "submit", "none")))))
    toolbox = Toolbox(session, DEMO_SHOP)
    run_sync(session.page.close())
    consequence = run_sync(toolbox.judge("press", {"name": "Continue"}))
    assert consequence.consequential and consequence.unclear
    run_sync(session.close())


# -- a way out of the page: the page stays where it was --------------------------------------------------

WAYS_OUT = {
    "link": "<a href='http://example.invalid/deal'>Outside deal</a>",
    "form": "<form action='http://example.invalid/collect' method='post'><button>Outside deal</button></form>",
    "script": "<button onclick=\"location.assign('http://example.invalid/deal')\">Outside deal</button>",
    "link, then script": "<a href='http://example.invalid/deal' target='_self' onclick=\"setTimeout(() => "
    "location.replace('http://example.invalid/x'), 0)\">Outside deal</a>",
    "new window": "<a href='http://example.invalid/deal' target='_blank'>Outside deal</a>",
}


@pytest.mark.parametrize("way", WAYS_OUT)
def test_a_press_that_would_leave_the_site_keeps_the_page_and_what_was_typed(
    agent_browser: Browser, checkouts: Checkouts, way: str
) -> None:
    page = (
        "<body data-view='form'><h1>Your details</h1><label>Address <input name='address'></label>"
        f"{WAYS_OUT[way]}</body>"
    )
    session = run_sync(agent_browser.new_session(checkouts.url, DEMO_SHOP))
    try:
        url = checkouts.add(page)
        run_sync(session.goto(url))
        toolbox = Toolbox(session, DEMO_SHOP)
        assert run_sync(toolbox.call("fill_field", {"label": "Address", "text": "12 Oak Street"})).ok
        result = run_sync(toolbox.call("press", {"name": "Outside deal"}))
        assert result.ok and 'Blocked navigation to "http://example.invalid/' in result.text, result.text
        assert session.page.url == url, result.text
        assert run_sync(session.page.get_by_label("Address").input_value()) == "12 Oak Street"
        if way == "link, then script":  # the second way out was held too, not just never tried
            assert "http://example.invalid/x" in result.text + str(session.blocked), result.text
    finally:
        run_sync(session.close())


# -- whole runs: the gate holds on pages it has never seen -----------------------------------------------


def finish_from_narration(messages: list[dict[str, Any]]) -> Reply:
    text = next(m["content"] for m in reversed(messages) if m["role"] == "tool")
    return reply(call("finish", outcome="done", summary=text.splitlines()[0][:300]))


def run_on(
    browser: Browser, url: str, runs: Path, moves: list[Reply], **config: Any
) -> tuple[RunResult, list[dict[str, Any]]]:
    model = ScriptedModel([*moves, finish_from_narration])
    settings_ = RunConfig(goal="Pay for my order", shop_url=url, runs_dir=runs, **config)
    result = run_sync(start_run(settings_, model=model, browser=browser))
    model.assert_complete()
    return result, RunFolder(runs, result.run_id).transcript()


def approvals(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [event for event in events if event["event"] == "approval"]


RUN_SHAPES = [
    Shape("card", "label", "submit", "form"),
    Shape("none", "placeholder", "input", "page"),
    Shape("iban", "aria", "div", "form", wrapper="div"),
]


@pytest.mark.parametrize("shape", RUN_SHAPES, ids=["card-form", "plain-form", "div-checkout"])
@pytest.mark.parametrize("how", ["press", "enter"])
def test_under_deny_nothing_is_paid_and_the_gate_says_why(
    agent_browser: Browser, checkouts: Checkouts, tmp_path: Path, shape: Shape, how: str
) -> None:
    if how == "enter" and shape.details == "none":
        pytest.skip("Enter in a form without payment details is judged by its button's name alone")
    label = "Pay $43.42"
    url = checkouts.add(checkout_page(label, shape))
    before = len(checkouts.paid)
    move = call("press", name=label) if how == "press" else call("press_key", key="Enter")
    result, events = run_on(agent_browser, url, tmp_path, [reply(move)], approve="deny")
    assert len(checkouts.paid) == before, "the page was paid"
    assert [a["decision"] for a in approvals(events)] == ["deny"]
    pressed = next(e for e in events if e["event"] == "tool" and e["name"] == move.name)
    assert pressed["narration"].startswith("Not placed: the approval policy denies orders."), pressed
    assert result.outcome == "done" and result.message.startswith("Not placed")


@pytest.mark.parametrize("shape", RUN_SHAPES, ids=["card-form", "plain-form", "div-checkout"])
def test_a_budget_below_the_pages_total_refuses_it(
    agent_browser: Browser, checkouts: Checkouts, tmp_path: Path, shape: Shape
) -> None:
    url = checkouts.add(checkout_page("Confirm and pay", shape))
    before = len(checkouts.paid)
    _, events = run_on(
        agent_browser,
        url,
        tmp_path,
        [reply(call("press", name="Confirm and pay"))],
        approve="auto",
        budget_cents=2000,
    )
    assert len(checkouts.paid) == before, "the page was paid"
    assert [a["reason"] for a in approvals(events)] == ["the total $43.42 exceeds the budget $20.00"]


def test_an_unknown_total_under_a_budget_is_refused(
    agent_browser: Browser, checkouts: Checkouts, tmp_path: Path
) -> None:
    url = checkouts.add(checkout_page("Complete purchase", Shape("card", "label", "submit", "none")))
    before = len(checkouts.paid)
    _, events = run_on(
        agent_browser,
        url,
        tmp_path,
        [reply(call("press", name="Complete purchase"))],
        approve="auto",
        budget_cents=9000,
    )
    assert len(checkouts.paid) == before
    assert [a["decision"] for a in approvals(events)] == ["deny"]
    assert "total could not be read" in approvals(events)[0]["reason"]


def test_within_the_budget_the_payment_goes_through(
    agent_browser: Browser, checkouts: Checkouts, tmp_path: Path
) -> None:
    # (a form of card fields goes through only with the person's card: tests/e2e/test_card_details.py)
    url = checkouts.add(checkout_page("Pay $43.42", Shape("billing", "label", "submit", "form")))
    before = len(checkouts.paid)
    result, events = run_on(
        agent_browser,
        url,
        tmp_path,
        [reply(call("press", name="Pay $43.42"))],
        approve="auto",
        budget_cents=5000,
    )
    assert len(checkouts.paid) == before + 1
    assert [a["decision"] for a in approvals(events)] == ["approve"]
    assert [e["total_cents"] for e in events if e["event"] == "order_intent"] == [4342]
    assert "Thank you for your payment" in result.message or "Pressed" in result.message


PAY_AGAIN = """<!doctype html><html><body data-view="billing"><h1>Billing</h1><p>Total $50.00</p>
<button type="button" onclick="fetch('/pay', {method: 'POST', body: 'pay 50'}).then(() => {
  document.querySelector('#said').textContent = 'Payment received. You can pay again.'; })">Pay $50.00</button>
<p id="said" role="status"></p></body></html>"""
"""A page that takes the same payment as often as it is pressed, and stays: the one of issue 35."""


def test_a_pay_button_pressed_twice_under_auto_and_a_budget_pays_once(
    agent_browser: Browser, checkouts: Checkouts, tmp_path: Path
) -> None:
    url = checkouts.add(PAY_AGAIN)
    before = len(checkouts.paid)
    press = reply(call("press", name="Pay $50.00"))
    result, events = run_on(agent_browser, url, tmp_path, [press, press], approve="auto", budget_cents=6000)
    assert len(checkouts.paid) == before + 1, checkouts.paid
    decisions = [a["decision"] for a in approvals(events)]
    assert decisions[0] == "approve" and len(decisions) == 2 and decisions[1] != "approve", decisions
    assert result.outcome == "paid" and "$50.00" in result.message, (result.outcome, result.message)


def test_a_page_closed_while_a_press_is_judged_ends_the_run_cleanly(
    agent_browser: Browser, checkouts: Checkouts, tmp_path: Path
) -> None:
    session = run_sync(agent_browser.new_session(checkouts.url, DEMO_SHOP))
    run_sync(session.goto(checkouts.add(checkout_page("Pay $43.42", RUN_SHAPES[0]))))
    toolbox = Toolbox(session, DEMO_SHOP)
    folder = RunFolder.create(tmp_path)
    state = Checkpoint(run_id=folder.run_id, config=RunConfig(goal="Pay for my order"))
    state.messages = [{"role": "user", "content": "Pay for my order"}]
    model = ScriptedModel([reply(call("press", name="Pay $43.42"))])
    agent = Agent(model, toolbox, ApprovalGate("auto", budget_cents=5000), HumanChannel(), folder, state)
    run_sync(session.page.close())  # the window goes away just before the model's press is judged
    result = run_sync(agent.run())
    assert result.outcome == "failed"
    assert result.message == "the browser window was closed, so the run cannot go on"
    run_sync(session.close())


# -- spending known by meaning (issue 35): pages written here, buttons that spend without a shop's words --

SPENDING = ["Send $50", "Upgrade to Pro – $9.99/mo", "Join now for $4.99", "Top up $20", "Tip $5",
            "Yes, charge my card"]  # fmt: skip


def billing_page(labels: list[str]) -> str:
    """A billing page with no form and no card field: each button pays by script, as wallets do."""
    pay = "fetch('/pay', {method: 'POST', body: this.dataset.pay})"
    buttons = "".join(
        f'<button type="button" data-pay="{html.escape(label)}" onclick="{pay}">{html.escape(label)}</button>'
        for label in labels
    )
    return f"<body data-view='billing'><h1>Your wallet</h1>{buttons}<p id='log'></p></body>"


@pytest.mark.parametrize("label", SPENDING)
def test_buttons_that_spend_by_their_meaning_are_never_pressed_under_deny(
    agent_browser: Browser, checkouts: Checkouts, tmp_path: Path, label: str
) -> None:
    url = checkouts.add(billing_page(SPENDING))
    before = len(checkouts.paid)
    result, events = run_on(agent_browser, url, tmp_path, [reply(call("press", name=label))], approve="deny")
    assert checkouts.paid[before:] == [], "the page was paid"
    assert [a["decision"] for a in approvals(events)] == ["deny"]
    assert result.outcome == "done" and result.message.startswith("Not placed")


DISGUISE = """<script>
// The page lies to anything that asks in its own world: every element reads as a harmless "Close".
Element.prototype.getAttribute = function () { return "Close"; };
Element.prototype.closest = function () { return null; };
Object.defineProperty(HTMLElement.prototype, "innerText", { get() { return "Close"; } });
Object.defineProperty(Node.prototype, "textContent", { get() { return "Close"; } });
</script>"""


def test_a_page_that_patches_its_own_world_cannot_disguise_a_pay_button(
    page_session: PageSession, checkouts: Checkouts
) -> None:
    page = billing_page(["Pay $50"]).replace("<h1>", DISGUISE + "<h1>", 1)
    consequence = judged(page_session, checkouts, page, "press", name="Pay $50")
    assert consequence.consequential and consequence.total_cents == 5000, consequence


CHOICES = {
    "select-that-submits": call("choose_option", label="Plan", choice="Pro"),
    "box-that-agrees-to-a-charge": call(
        "choose_option", label="Terms", choice="I agree to be charged $9.99 a month"
    ),
}


@pytest.mark.parametrize("move", list(CHOICES.values()), ids=list(CHOICES))
def test_a_select_that_submits_and_a_box_that_agrees_to_a_charge_pass_the_gate(
    agent_browser: Browser, checkouts: Checkouts, tmp_path: Path, move: Any
) -> None:
    page = (
        "<body data-view='plan'><form method='post' action='/pay'>"
        "<label for='plan'>Plan</label><select id='plan' name='plan' onchange='this.form.submit()'><option>Free</option>"
        "<option>Pro</option></select></form>"
        "<label><input type='checkbox' onchange=\"fetch('/pay', {method: 'POST', body: 'box'})\">"
        " I agree to be charged $9.99 a month</label></body>"
    )
    url = checkouts.add(page)
    before = len(checkouts.paid)
    _, events = run_on(agent_browser, url, tmp_path, [reply(move)], approve="deny")
    assert checkouts.paid[before:] == [], "the page was paid"
    assert [a["decision"] for a in approvals(events)] == ["deny"]


def test_the_same_choices_go_through_when_approved(
    agent_browser: Browser, checkouts: Checkouts, tmp_path: Path
) -> None:
    """The gate is what stopped them: approved (yes at the terminal), the box is ticked and the page paid."""
    page = (
        "<body data-view='plan'><label><input type='checkbox' "
        "onchange=\"fetch('/pay', {method: 'POST', body: 'box'})\"> I agree to be charged $9.99 a month"
        "</label></body>"
    )
    url = checkouts.add(page)
    before = len(checkouts.paid)
    move = CHOICES["box-that-agrees-to-a-charge"]
    _, events = run_on(agent_browser, url, tmp_path, [reply(move)], approve="auto", budget_cents=2000)
    assert [a["decision"] for a in approvals(events)] == ["approve"]
    assert len(checkouts.paid) == before + 1


LISTENING_SELECT = """<body data-view='plan'><form id='plan-form' method='post' action='/pay'>
<label for='plan'>Plan</label><select id='plan' name='plan'><option>Free</option><option>Pro</option></select>
<p>Total $9.99 a month</p><button type='button'>Help</button></form>
<script>
  // No inline handler: the page listens itself, and submits the payment form when the plan changes.
  document.getElementById("plan").addEventListener("change", () => document.getElementById("plan-form").submit());
</script></body>"""
"""A select that pays when it changes, through a listener no script can read (issue 35, item 3)."""


@pytest.mark.parametrize("policy", ["deny", "auto"])
def test_a_select_whose_listener_submits_a_payment_passes_the_gate(
    agent_browser: Browser, checkouts: Checkouts, tmp_path: Path, policy: str
) -> None:
    url = checkouts.add(LISTENING_SELECT)
    before = len(checkouts.paid)
    move = call("choose_option", label="Plan", choice="Pro")
    _, events = run_on(agent_browser, url, tmp_path, [reply(move)], approve=policy, budget_cents=2000)
    [approval] = approvals(events)
    assert "shows a total of $9.99" in approval["why"], approval
    if policy == "deny":
        assert approval["decision"] == "deny" and checkouts.paid[before:] == [], "the page was paid"
    else:
        assert approval["decision"] == "approve" and len(checkouts.paid) == before + 1
        assert [e["total_cents"] for e in events if e["event"] == "order_intent"] == [999]


@pytest.mark.parametrize("change", ["relabelled", "replaced"])
def test_a_control_changed_after_it_was_judged_is_not_pressed(
    page_session: PageSession, checkouts: Checkouts, change: str
) -> None:
    """Judged (and so approved) as "Pay $5"; before the press the page makes it "Pay $500", or puts an
    identical new button in its place: the approval was for that element as it was, so nothing is pressed."""
    run_sync(page_session.goto(checkouts.add(billing_page(["Pay $5"]))))
    toolbox = Toolbox(page_session, DEMO_SHOP)
    press = {"name": "Pay $5"}
    judgement = run_sync(toolbox.judge("press", press))
    assert judgement.consequential and judgement.total_cents == 500
    script = {
        "relabelled": "document.querySelector('button').textContent = 'Pay $500'",
        "replaced": "(() => { const b = document.querySelector('button'); b.replaceWith(b.cloneNode(true)); })()",
    }[change]
    run_sync(page_session.page.evaluate(script))
    before = len(checkouts.paid)
    result = run_sync(toolbox.call("press", press))
    assert not result.ok and "changed on the page after it was checked" in result.text, result.text
    assert len(checkouts.paid) == before
