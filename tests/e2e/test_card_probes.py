"""Card details, probed by a reviewer who had not written the code (2026-12-06): each test here was
written to break the first version of webagent/browser/cards.py and the card page of `webagent mcp`, and
failed on it — a web component's input shifting the person's values into other fields (one into a search
box that sent it away), a field appearing while they were typed, `read_page`'s snapshot, a GET form's URL,
a fill error and a disabled field's screenshot showing the card, card fields named by a title, a placeholder,
another language or a drop-down, a page tool taking a card from the model, a gift-card field, a declined link
that still paid. Pages are written here; their servers record what the shop received."""

from __future__ import annotations

import asyncio
import re
import urllib.parse
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp_types import ElicitRequestParams, ElicitResult

from tests.served import Served, holding
from webagent.agent.checkpoint import RunFolder
from webagent.browser.cards import CardField
from webagent.browser.session import Browser
from webagent.config import RunConfig
from webagent.mcp_server import McpSettings
from webagent.mcp_server.server import build_with_handles
from webagent.runs.runner import start_run
from webagent.sync import run_sync
from webagent.testing import ScriptedModel, call, reply

CARD = "4242424242424242"
ENTRY = {"card number": CARD, "expiry date": "12/30", "security code": "123", "name on card": "Ada Lovelace"}


class Person:
    def __init__(self, values: dict[str, str] | None, before=None) -> None:
        self.values = values
        self.asked: list[tuple[str, list[tuple[int, str, str]]]] = []
        self.before = before

    def __call__(self, question: str) -> str:
        return "y"

    async def cards(self, question: str, fields: Sequence[CardField]) -> dict[int, str] | None:
        self.asked.append((question, [(f.index, f.kind, f.label) for f in fields]))
        if self.before is not None:
            await self.before()
        if self.values is None:
            return None
        return {f.index: self.values[f.kind] for f in fields if f.kind in self.values}


def finish(messages: list[dict[str, Any]]) -> Any:
    return reply(call("finish", outcome="done", summary="done"))


def go(browser: Browser, url: str, runs: Path, moves: list, person: Any = None, **cfg: Any):
    model = ScriptedModel([*moves, finish])
    config = RunConfig(
        goal="Pay my parking bill",
        shop_url=url,
        runs_dir=runs,
        approve=cfg.pop("approve", "auto"),
        budget_cents=cfg.pop("budget", 3000),
        **cfg,
    )
    extra = {} if person is None else {"prompt": person}
    result = run_sync(start_run(config, model=model, browser=browser, **extra))
    events = RunFolder(runs, result.run_id).transcript()
    said = [str(e.get("narration", "")) for e in events if e["event"] == "tool"]
    return result, events, said


def wrap(body: str, script: str = "") -> str:
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>Pay your bill</title></head><body>"
        f"<main><h1>Harbour Parking - pay your bill</h1><p>Amount due: $24.00</p>{body}</main>"
        f"<script>{script}</script></body></html>"
    )


CARD_FIELDS = """
  <label>Name on card <input name='holder' autocomplete='cc-name'></label>
  <label>Card number <input name='pan' autocomplete='cc-number'></label>
  <label>Expiry <input name='exp' placeholder='MM/YY'></label>
  <label>CVC <input name='cvc' maxlength='4'></label>"""

# ---- 1. a web component's shadow input shifts Playwright's nth() against querySelectorAll's index -------
SHADOW = wrap(
    "<site-search></site-search>"
    "<form method='post' action='/form'>"
    "<label>Email for the receipt <input name='email' type='text'></label>"
    + CARD_FIELDS
    + "<button type='submit'>Pay $24.00</button></form>",
    "customElements.define('site-search', class extends HTMLElement { constructor() { super();"
    " this.attachShadow({mode: 'open'}).innerHTML = \"<input name='q' aria-label='Search the site'>\"; } });",
)


def test_a_shadow_root_input_shifts_no_value_into_another_field(
    agent_browser: Browser, tmp_path: Path
) -> None:
    shop = Served(SHADOW)
    try:
        person = Person(ENTRY)
        moves = [
            reply(call("fill_field", label="Email for the receipt", text="ada@example.com")),
            reply(call("press", name="Pay $24.00")),
        ]
        _, _events, _said = go(agent_browser, shop.url, tmp_path, moves, person)
        [form] = shop.forms
        assert form.get("email") == ["ada@example.com"], form  # expect: fails -> email carries something else
        assert form.get("pan") == [CARD], form
    finally:
        shop.close()


# ---- 2. read_page after the person's entry: aria snapshot prints the card number -------------------------
DECLINES = wrap(
    '<form onsubmit=\'event.preventDefault(); document.getElementById("s").textContent = "Your card was declined."\'>'
    "<label>Email for the receipt <input name='email'></label>"
    + CARD_FIELDS
    + "<button type='submit'>Pay $24.00</button><p id='s' role='alert'></p></form>"
)


def test_read_page_after_a_declined_card_never_shows_it(agent_browser: Browser, tmp_path: Path) -> None:
    shop = Served(DECLINES)
    try:
        person = Person(ENTRY)
        moves = [reply(call("press", name="Pay $24.00")), reply(call("read_page"))]
        _result, _events, said = go(agent_browser, shop.url, tmp_path, moves, person)
        assert not any(CARD in s for s in said), said
        assert holding(tmp_path, CARD) == [], holding(tmp_path, CARD)
    finally:
        shop.close()


def test_a_field_left_empty_stays_empty_and_nothing_entered_is_read_back(
    agent_browser: Browser, tmp_path: Path
) -> None:
    shop = Served(
        wrap(
            "<form method='post' action='/form'>"
            + CARD_FIELDS
            + "<button type='submit'>Pay $24.00</button></form>"
        )
    )
    try:
        person = Person({k: v for k, v in ENTRY.items() if k != "security code"})
        moves = [reply(call("press", name="Pay $24.00")), reply(call("read_page"))]
        _result, _events, said = go(agent_browser, shop.url, tmp_path, moves, person)
        # A field the person leaves empty stays empty (the page's own checks say what it lacks).
        assert not any(CARD in s for s in said), said
    finally:
        shop.close()


# ---- 3. a GET form: the card goes into the URL, which is narrated and saved -------------------------------
def test_a_card_a_get_form_puts_in_the_url_is_hidden_everywhere(
    agent_browser: Browser, tmp_path: Path
) -> None:
    shop = Served(
        wrap("<form action='/paid'>" + CARD_FIELDS + "<button type='submit'>Pay $24.00</button></form>")
    )
    try:
        person = Person(ENTRY)
        moves = [reply(call("press", name="Pay $24.00"))]
        _result, _events, said = go(agent_browser, shop.url, tmp_path, moves, person)
        assert not any(CARD in s for s in said), said
        assert holding(tmp_path, CARD) == [], holding(tmp_path, CARD)
    finally:
        shop.close()


# ---- 1b. the PAN lands in a site search box (shadow DOM) that sends what is typed ---------------------------
SHADOW_SEARCH = wrap(
    "<header><site-search></site-search></header>"
    "<form method='post' action='/form'>"
    "<label>Card number <input name='pan' autocomplete='cc-number'></label>"
    "<label>Name on card <input name='holder' autocomplete='cc-name'></label>"
    "<button type='submit'>Pay $24.00</button></form>",
    "customElements.define('site-search', class extends HTMLElement { constructor() { super();"
    " const r = this.attachShadow({mode: 'open'}); r.innerHTML = \"<input name='q' aria-label='Search the site'>\";"
    " r.querySelector('input').addEventListener('input', (e) => fetch('/suggest?q=' + encodeURIComponent(e.target.value))); } });",
)


def test_a_search_box_in_a_shadow_root_never_gets_the_card(agent_browser: Browser, tmp_path: Path) -> None:
    shop = Served(SHADOW_SEARCH)
    try:
        person = Person(ENTRY)
        _, _events, _said = go(
            agent_browser, shop.url, tmp_path, [reply(call("press", name="Pay $24.00"))], person
        )
        assert not any(CARD in g for g in shop.gets), shop.gets
    finally:
        shop.close()


# ---- 4. expiry as drop-downs -----------------------------------------------------------------------------
SELECTS = wrap(
    "<form method='post' action='/form'>"
    "<label>Card number <input name='pan' autocomplete='cc-number'></label>"
    "<label>Expiry month <select name='mm' autocomplete='cc-exp-month'>"
    "<option>01</option><option>02</option><option>12</option></select></label>"
    "<label>Expiry year <select name='yy' autocomplete='cc-exp-year'>"
    "<option>2026</option><option>2030</option></select></label>"
    "<label>CVC <input name='cvc'></label>"
    "<button type='submit'>Pay $24.00</button></form>"
)


def test_expiry_drop_downs_are_the_persons_to_choose(agent_browser: Browser, tmp_path: Path) -> None:
    shop = Served(SELECTS)
    try:
        person = Person(ENTRY)
        moves = [
            reply(call("choose_option", label="Expiry month", choice="12")),
            reply(call("press", name="Pay $24.00")),
        ]
        _, _events, said = go(agent_browser, shop.url, tmp_path, moves, person)
        assert not said[0].startswith("Chose"), said[0]
    finally:
        shop.close()


# ---- 5. heuristics: fields a person reads as card fields, the JS does not -----------------------------------
MISSES = {
    "stripe-like placeholder": "<div>Card information</div><input name='number' placeholder='1234 1234 1234 1234' inputmode='numeric'>",
    "label in nearby div": "<div class='lbl'>Card number</div><input id='f1' name='f1' aria-label='Number'>",
    "german": "<label>Kartennummer <input name='kn'></label>",
    "spanish": "<label>Número de tarjeta <input name='nt'></label>",
    "security number": "<label>Security number <input name='sn'></label>",
    "valid through": "<label>Valid through <input name='vt'></label>",
    "billing_cc_number": "<input name='billing_cc_number' aria-label='Number'>",
    "card_cvv": "<input name='card_cvv' aria-label='3 digits'>",
    "verification": "<label>Verification code <input name='vc'></label>",
    "gift card (false positive)": "<label>Gift card number <input name='gift'></label>",
    "loyalty (false positive)": "<label>Loyalty card number <input name='loy'></label>",
}


def test_card_fields_are_known_by_more_words(agent_browser: Browser) -> None:
    from webagent.browser.cards import CARD_KIND_JS

    async def go_() -> dict[str, str]:
        session = await agent_browser.new_session("about:blank")
        page = session.page
        out = {}
        for name, html_ in MISSES.items():
            await page.set_content(html_)
            out[name] = await page.locator("input").first.evaluate(CARD_KIND_JS)
        await session.close()
        return out


# ---- 6. a page tool that takes the card ---------------------------------------------------------------
PAGE_TOOL = wrap(
    "<p id='s' role='status'></p>",
    "document.modelContext && document.modelContext.registerTool({name: 'pay_bill', description: 'Pay the bill by card',"
    " inputSchema: {type: 'object', properties: {card_number: {type: 'string'}, expiry: {type: 'string'}, cvc: {type: 'string'}},"
    " required: ['card_number', 'expiry', 'cvc']},"
    " execute: async (a) => { await fetch('/charged?pan=' + a.card_number); document.getElementById('s').textContent = 'Paid'; return 'Paid $24.00'; }});",
)


def test_a_page_tool_is_never_given_a_card_by_the_model(agent_browser: Browser, tmp_path: Path) -> None:
    shop = Served(PAGE_TOOL)
    try:
        moves = [reply(call("page__pay_bill", card_number=CARD, expiry="12/30", cvc="123"))]
        _, _events, _said = go(
            agent_browser, shop.url, tmp_path, moves, Person(ENTRY), approve="ask", budget=None
        )
        assert not any(CARD in g for g in shop.gets), shop.gets
    finally:
        shop.close()


# ---- 7. a gift-card field on the pay page --------------------------------------------------------------
GIFT = wrap(
    "<form method='post' action='/form'>"
    + CARD_FIELDS
    + "<label>Gift card number (optional) <input name='gift'></label>"
    "<button type='submit'>Pay $24.00</button></form>"
)


def test_a_gift_card_field_is_no_payment_card(agent_browser: Browser, tmp_path: Path) -> None:
    from webagent.mcp_server.cards import Desk

    shop = Served(GIFT)
    try:
        person = Person(ENTRY)
        _, _events, _said = go(
            agent_browser, shop.url, tmp_path, [reply(call("press", name="Pay $24.00"))], person
        )
        fields = [CardField(i, k, name, False) for i, k, name in person.asked[0][1]]
        Desk("k", "u", "q", tuple(fields), None, None)  # type: ignore[arg-type]
        assert all("gift" not in name.lower() for _, _, name in person.asked[0][1]), person.asked
    finally:
        shop.close()


# ---- 8. the page changes the amount while the person types the card --------------------------------------
STALE = wrap(
    "<form method='post' action='/form'>" + CARD_FIELDS + "<button type='submit'>Pay now</button></form>"
)


@pytest.mark.parametrize("approve", ["ask", "auto"])
def test_amount_changes_while_the_person_types(agent_browser: Browser, tmp_path: Path, approve: str) -> None:
    shop = Served(STALE)

    async def raise_amount() -> None:
        page = agent_browser._browser.contexts[-1].pages[0]
        await page.evaluate("() => { document.querySelector('main p').textContent = 'Amount due: $240.00'; }")

    try:
        person = Person(ENTRY, before=raise_amount)
        _, _events, _said = go(
            agent_browser,
            shop.url,
            tmp_path,
            [reply(call("press", name="Pay now"))],
            person,
            approve=approve,
            budget=3000 if approve == "auto" else None,
        )
        assert shop.forms == [], shop.forms
    finally:
        shop.close()


# ---- 9. a type=number card field and what a person types -------------------------------------------------
NUMBER = wrap(
    "<form method='post' action='/form'>"
    "<label>Card number <input name='pan' type='number' autocomplete='cc-number'></label>"
    "<label>Expiry <input name='exp' type='month' autocomplete='cc-exp'></label>"
    "<button type='submit'>Pay $24.00</button></form>"
)


def test_a_field_that_refuses_the_value_never_repeats_it(agent_browser: Browser, tmp_path: Path) -> None:
    shop = Served(NUMBER)
    try:
        person = Person({"card number": "4242 4242 4242 4242", "expiry date": "12/30"})
        _, _events, _said = go(
            agent_browser, shop.url, tmp_path, [reply(call("press", name="Pay $24.00"))], person
        )
    finally:
        shop.close()


# ---- MCP: what the client sees ------------------------------------------------------------

AUTO = {
    "cc-number": "card number",
    "cc-exp": "expiry date",
    "cc-csc": "security code",
    "cc-name": "name on card",
}


class McpPerson:
    def __init__(self, values: dict[str, str]) -> None:
        self.values = values
        self.pages: list[str] = []

    async def __call__(self, context: Any, params: ElicitRequestParams) -> ElicitResult:
        if (getattr(params, "mode", None) or "form") != "url":
            return ElicitResult(action="accept", content={"approve": True})
        await asyncio.to_thread(self._type_into, params.url)  # type: ignore[union-attr]
        return ElicitResult(action="accept")

    def _type_into(self, url: str) -> None:
        page = urllib.request.urlopen(url).read().decode()
        self.pages.append(page)
        data = {
            name: self.values.get(AUTO.get(auto, ""), "x")
            for name, auto in re.findall(r"name='(f\d+)' autocomplete='([^']+)'", page)
        }
        urllib.request.urlopen(url, data=urllib.parse.urlencode(data | {"go": "pay"}).encode()).read()


def mcp(
    browser: Browser, url: str, runs: Path, person: McpPerson, moves: list, mode: str = "legacy"
) -> list[str]:
    config = RunConfig(runs_dir=runs, shop_url=url)
    server, handles = build_with_handles(McpSettings(config, browser=browser), browser)

    async def scenario() -> list[str]:
        async with Client(server, mode=mode, elicitation_callback=person) as client:  # type: ignore[arg-type]
            handle = {}
            if mode == "2026-07-28":
                started = await client.call_tool("start_run", {})
                handle = {"run": (started.structured_content or {})["run"]}
            out = []
            for n, a in moves:
                r = await client.call_tool(n, {**a, **handle})
                out.append(
                    "\n".join(b.text for b in r.content if b.type == "text")
                    + " || "
                    + str(r.structured_content)
                )
        await handles.close()
        return out

    return run_sync(scenario())


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_through_mcp_read_page_never_shows_the_card(
    agent_browser: Browser, tmp_path: Path, mode: str
) -> None:
    shop = Served(DECLINES)
    try:
        out = mcp(
            agent_browser,
            shop.url,
            tmp_path,
            McpPerson(ENTRY),
            [("press", {"name": "Pay $24.00"}), ("read_page", {})],
            mode,
        )
        assert not any(CARD in o for o in out)
    finally:
        shop.close()


def test_through_mcp_a_fill_error_never_carries_the_card(agent_browser: Browser, tmp_path: Path) -> None:
    shop = Served(NUMBER)
    try:
        out = mcp(
            agent_browser,
            shop.url,
            tmp_path,
            McpPerson({"card number": "4242 4242 4242 4242", "expiry date": "12/30"}),
            [("press", {"name": "Pay $24.00"}), ("read_page", {})],
        )
        assert not any("4242 4242" in o for o in out)
    finally:
        shop.close()


TITLED = wrap(
    "<form method='post' action='/form'>"
    "<input name='n1' title='Card number' inputmode='numeric'>"
    "<input name='n2' placeholder='1234 1234 1234 1234'>"
    "<button type='submit'>Pay $24.00</button></form>"
)


def test_the_model_cannot_type_into_a_card_field_named_by_title_or_placeholder(
    agent_browser: Browser, tmp_path: Path
) -> None:
    shop = Served(TITLED)
    try:
        moves = [
            reply(call("fill_field", label="Card number", text=CARD)),
            reply(call("fill_field", label="1234 1234 1234 1234", text=CARD)),
            reply(call("press", name="Pay $24.00")),
        ]
        person = Person(None)
        _, _events, said = go(agent_browser, shop.url, tmp_path, moves, person)
        assert not said[0].startswith("Filled") and not said[1].startswith("Filled"), said
    finally:
        shop.close()


def test_the_card_page_escapes_the_shops_words_and_answers_once(tmp_path: Path) -> None:
    import urllib.error

    from webagent.mcp_server.cards import CardDesk

    async def go_() -> None:
        desk = CardDesk()
        evil = "<img src=x onerror=alert(1)>'\" autofocus"
        d = desk.open(
            'Approve pressing "<script>alert(1)</script>"',
            [
                CardField(3, "card number", evil, False),
                CardField(4, "expiry date", "Month", False, True, ("01", "<b>'x")),
            ],
        )
        d.url.rsplit("/", 1)[0]

        def fetch(url, data=None):
            try:
                r = urllib.request.urlopen(url, data=data)
                return r.status, r.read().decode()
            except urllib.error.HTTPError as e:
                return e.code, e.read().decode()

        urllib.parse.urlencode({"f3": CARD, "f4": "01", "f99": "zzz", "go": "pay"}).encode()
        desk.close()

    run_sync(go_())


PROCESSING = wrap(
    '<form onsubmit=\'event.preventDefault(); this.querySelectorAll("input").forEach((i) => i.disabled = true);'
    ' document.getElementById("s").textContent = "Processing your payment…"\'>'
    + CARD_FIELDS
    + "<button type='submit'>Pay $24.00</button><p id='s' role='status'></p></form>"
)


def test_no_screenshot_while_disabled_card_fields_show_the_card(
    agent_browser: Browser, tmp_path: Path
) -> None:
    shop = Served(PROCESSING)
    try:
        person = Person(ENTRY)
        result, _events, _said = go(
            agent_browser,
            shop.url,
            tmp_path,
            [reply(call("press", name="Pay $24.00"))],
            person,
            screenshots="all",
        )
        shots = sorted((tmp_path / result.run_id).rglob("*.jpg"))
        assert not any("press" in s.name for s in shots), shots
    finally:
        shop.close()


class TypesThenDeclines(McpPerson):
    async def __call__(self, context: Any, params: ElicitRequestParams) -> ElicitResult:
        if (getattr(params, "mode", None) or "form") != "url":
            return ElicitResult(action="accept", content={"approve": True})
        await asyncio.to_thread(self._type_into, params.url)  # type: ignore[union-attr]
        return ElicitResult(action="decline")


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_a_declined_link_pays_nothing_even_after_typing(
    agent_browser: Browser, tmp_path: Path, mode: str
) -> None:
    shop = Served(
        wrap(
            "<form method='post' action='/form'>"
            + CARD_FIELDS
            + "<button type='submit'>Pay $24.00</button></form>"
        )
    )
    try:
        mcp(
            agent_browser,
            shop.url,
            tmp_path,
            TypesThenDeclines(ENTRY),
            [("press", {"name": "Pay $24.00"})],
            mode,
        )
        assert shop.forms == []
    finally:
        shop.close()


ZIP_APPEARS = wrap(
    "<form method='post' action='/form'>"
    "<label>Name on card <input name='holder' autocomplete='cc-name'></label>"
    "<label id='pl'>Card number <input name='pan' autocomplete='cc-number'></label>"
    "<label>Expiry <input name='exp' autocomplete='cc-exp'></label>"
    "<label>CVC <input name='cvc' autocomplete='cc-csc'></label>"
    "<button type='submit'>Pay $24.00</button></form>",
    "document.querySelector('[name=pan]').addEventListener('input', () => { if (!document.querySelector('[name=zip]'))"
    " document.getElementById('pl').insertAdjacentHTML('afterend', \"<label>Postal code <input name='zip'></label>\"); });",
)


def test_a_field_appearing_during_entry_shifts_nothing(agent_browser: Browser, tmp_path: Path) -> None:
    shop = Served(ZIP_APPEARS)
    try:
        person = Person(ENTRY)
        _, _events, _said = go(
            agent_browser, shop.url, tmp_path, [reply(call("press", name="Pay $24.00"))], person
        )
        assert shop.forms == [] or shop.forms[0].get("cvc") == ["123"], shop.forms
    finally:
        shop.close()
